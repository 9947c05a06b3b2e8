"""LLM context recall with verified evidence, as steps: decompose, check coverage, judge, verify quotes.

- :mod:`._decompose`: the reference into claims; :mod:`._coverage`: do they cover it, and only it;
- :mod:`._stated`: claims a passage states word for word, decided before the judge;
- :mod:`._judge`: claims against the contexts; :mod:`._verify`: are the quotes really there;
- :mod:`._checks`: do the sentences holding them state the claim (reading :mod:`._facts` and :mod:`._words`);
- :mod:`._confirm`: a model's second look; :mod:`._votes`: repeated judgements;
- :mod:`._single`: the one-call mode, checked the same way;
- :mod:`._metric`: :class:`ContextRecall`, composing them; :mod:`._evidence`: what a result records;
  :mod:`._render`: how it is shown;
- :mod:`._replies`: what the judge must reply; :mod:`._prompting`: the prompts and how inputs are shown;
- :mod:`._claims`: what the steps pass to each other.

Names load on first use, so that reading a result's evidence (``ClaimRecallEvidence``) does not load the metric
and the LLM stack behind it.
"""

from typing import TYPE_CHECKING

from ..._lazy import lazy_exports

_EXPORTS = {
    "QUOTE_WINDOW": "._evidence",
    "ClaimRecallEvidence": "._evidence",
    "ClaimVerdict": "._evidence",
    "DroppedClaim": "._evidence",
    "Quote": "._evidence",
    "ContextRecall": "._metric",
    "LLMContextRecall": "._metric",
    "LANGUAGES": "._prompting",
    "STEPS": "._prompting",
    "votes_text": "._render",
    "ClaimList": "._replies",
    "JudgedClaims": "._replies",
    "Quoted": "._replies",
    "SingleReply": "._replies",
    "Support": "._replies",
    "Unsupported": "._replies",
    "Verdict": "._replies",
}

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
    "votes_text",
]

__getattr__, __dir__ = lazy_exports(__name__, _EXPORTS, globals())

if TYPE_CHECKING:
    from ._evidence import QUOTE_WINDOW, ClaimRecallEvidence, ClaimVerdict, DroppedClaim, Quote
    from ._metric import ContextRecall, LLMContextRecall
    from ._prompting import LANGUAGES, STEPS
    from ._render import votes_text
    from ._replies import ClaimList, JudgedClaims, Quoted, SingleReply, Support, Unsupported, Verdict
