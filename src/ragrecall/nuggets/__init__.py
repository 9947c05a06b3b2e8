"""TREC nuggets (nuggetizer's files and scores): read and write nuggets and assignment files, and compute
nuggetizer's metrics exactly (:func:`nugget_metrics`, ``ragrecall nuggets metrics``).

- :mod:`._types`: :class:`Nugget` and :class:`NuggetTopic` (loaded with the package: the sample schema uses them);
- :mod:`._scores`: the five scores of a list of labelled nuggets (the formulas, shared with
  :class:`ragrecall.NuggetRecall`);
- :mod:`._metrics`: nuggetizer's metrics lines;
- :mod:`._files`: the files; :mod:`._join`: a nuggets file joined to samples by id;
- :mod:`._assignments`: a run's nugget recall written as nuggetizer's assignments.

Every name but the two types loads on first use.
"""

from typing import TYPE_CHECKING

from .._lazy import lazy_exports
from ._types import Nugget, NuggetTopic

_EXPORTS = {
    "write_assignments": "._assignments",
    "join_nuggets": "._join",
    "file_metrics": "._files",
    "read_assignments": "._files",
    "read_nuggets": "._files",
    "write_nuggets": "._files",
    "METRIC_KEYS": "._metrics",
    "metrics_lines": "._metrics",
    "nugget_metrics": "._metrics",
    "IMPORTANCES": "._scores",
    "LABELS": "._scores",
    "SCORES": "._scores",
    "Importance": "._scores",
    "Label": "._scores",
    "Score": "._scores",
    "credit": "._scores",
    "nugget_scores": "._scores",
}

__all__ = [
    "IMPORTANCES",
    "LABELS",
    "METRIC_KEYS",
    "SCORES",
    "Importance",
    "Label",
    "Nugget",
    "NuggetTopic",
    "Score",
    "credit",
    "file_metrics",
    "join_nuggets",
    "metrics_lines",
    "nugget_metrics",
    "nugget_scores",
    "read_assignments",
    "read_nuggets",
    "write_assignments",
    "write_nuggets",
]

__getattr__, __dir__ = lazy_exports(__name__, _EXPORTS, globals())

if TYPE_CHECKING:
    from ._assignments import write_assignments
    from ._files import file_metrics, read_assignments, read_nuggets, write_nuggets
    from ._join import join_nuggets
    from ._metrics import METRIC_KEYS, metrics_lines, nugget_metrics
    from ._scores import IMPORTANCES, LABELS, SCORES, Importance, Label, Score, credit, nugget_scores
