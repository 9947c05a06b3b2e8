"""LLM nugget recall (TREC style) of the retrieved set, as steps: assign labels, verify quotes, vote.

- :mod:`._assign`: one request labelling every nugget, and the one recheck; :mod:`._verify`: the quote checks
  (claim recall's, with the rules for a partial support); :mod:`._judge`: votes, per-passage judging, the final
  label; :mod:`._metric`: :class:`NuggetRecall`; :mod:`._evidence`: what a result records; :mod:`._render`: how
  it shows; :mod:`._replies`: what the judge must reply; :mod:`._prompting`: the prompts.

Names load on first use, so that reading a result's evidence does not load the metric and the LLM stack.
"""

from typing import TYPE_CHECKING

from ..._lazy import lazy_exports

_EXPORTS = {
    "NuggetRecall": "._metric",
    "NuggetRecallEvidence": "._evidence",
    "NuggetVerdict": "._evidence",
    "Assigned": "._replies",
    "Assignments": "._replies",
    "ImportanceItem": "._replies",
    "Importances": "._replies",
    "EXPLAINED_BY_PART": "._verify",
    "STEPS": "._prompting",
}

__all__ = [
    "EXPLAINED_BY_PART",
    "STEPS",
    "Assigned",
    "Assignments",
    "ImportanceItem",
    "Importances",
    "NuggetRecall",
    "NuggetRecallEvidence",
    "NuggetVerdict",
]

__getattr__, __dir__ = lazy_exports(__name__, _EXPORTS, globals())

if TYPE_CHECKING:
    from ._evidence import NuggetRecallEvidence, NuggetVerdict
    from ._metric import NuggetRecall
    from ._prompting import STEPS
    from ._replies import Assigned, Assignments, ImportanceItem, Importances
    from ._verify import EXPLAINED_BY_PART
