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

The quote checks (:func:`check_support` over :class:`Contexts`, :func:`stated_support`), the decomposition and the
prompt helpers are exported for the metrics that judge other items the same way (nugget recall).

Names load on first use, so that reading a result's evidence (``ClaimRecallEvidence``) does not load the metric
and the LLM stack behind it.
"""

from typing import TYPE_CHECKING

from ..._lazy import lazy_exports

_EXPORTS = {
    "Checked": "._verify",
    "Contexts": "._verify",
    "check_support": "._verify",
    "stated_support": "._stated",
    "context_orders": "._votes",
    "decompose": "._decompose",
    "confirm_verdicts": "._confirm",
    "Prompts": "._prompting",
    "language_of": "._prompting",
    "number_contexts": "._prompting",
    "one_line": "._prompting",
    "VERIFICATION_LEVELS": "._evidence",
    "Verification": "._evidence",
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
    "quote_html": "._render",
    "levels_legend": "._render",
    "LEVEL_TAGS": "._render",
    "LEVELS": "._render",
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
    "LEVELS",
    "LEVEL_TAGS",
    "QUOTE_WINDOW",
    "STEPS",
    "VERIFICATION_LEVELS",
    "Checked",
    "ClaimList",
    "ClaimRecallEvidence",
    "ClaimVerdict",
    "ContextRecall",
    "Contexts",
    "DroppedClaim",
    "JudgedClaims",
    "LLMContextRecall",
    "Prompts",
    "Quote",
    "Quoted",
    "SingleReply",
    "Support",
    "Unsupported",
    "Verdict",
    "Verification",
    "check_support",
    "confirm_verdicts",
    "context_orders",
    "decompose",
    "language_of",
    "levels_legend",
    "number_contexts",
    "one_line",
    "quote_html",
    "stated_support",
    "votes_text",
]

__getattr__, __dir__ = lazy_exports(__name__, _EXPORTS, globals())

if TYPE_CHECKING:
    from ._confirm import confirm_verdicts
    from ._decompose import decompose
    from ._evidence import (
        QUOTE_WINDOW,
        VERIFICATION_LEVELS,
        ClaimRecallEvidence,
        ClaimVerdict,
        DroppedClaim,
        Quote,
        Verification,
    )
    from ._metric import ContextRecall, LLMContextRecall
    from ._prompting import LANGUAGES, STEPS, Prompts, language_of, number_contexts, one_line
    from ._render import LEVEL_TAGS, LEVELS, levels_legend, quote_html, votes_text
    from ._replies import ClaimList, JudgedClaims, Quoted, SingleReply, Support, Unsupported, Verdict
    from ._stated import stated_support
    from ._verify import Checked, Contexts, check_support
    from ._votes import context_orders
