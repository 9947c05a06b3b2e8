"""LLM context recall with verified evidence, as steps: decompose, check coverage, judge, verify quotes.

- :mod:`._decompose`: the reference into claims; :mod:`._coverage`: do they cover it, and only it;
- :mod:`._judge`: claims against the contexts; :mod:`._verify`: are the quotes really there;
- :mod:`._single`: the one-call mode, checked the same way;
- :mod:`._metric`: :class:`ContextRecall`, composing them; :mod:`._evidence`: what a result records;
- :mod:`._replies`: what the judge must reply; :mod:`._prompting`: the prompts and how inputs are shown;
- :mod:`._claims`: what the steps pass to each other.
"""

from ._evidence import QUOTE_WINDOW, ClaimRecallEvidence, ClaimVerdict, DroppedClaim, Quote
from ._metric import ContextRecall, LLMContextRecall
from ._prompting import LANGUAGES, STEPS
from ._replies import ClaimList, JudgedClaims, Quoted, SingleReply, Support, Unsupported, Verdict

__all__ = [
    "LANGUAGES",
    "QUOTE_WINDOW",
    "STEPS",
    "ClaimList",
    "ClaimRecallEvidence",
    "ClaimVerdict",
    "ContextRecall",
    "DroppedClaim",
    "JudgedClaims",
    "LLMContextRecall",
    "Quote",
    "Quoted",
    "SingleReply",
    "Support",
    "Unsupported",
    "Verdict",
]
