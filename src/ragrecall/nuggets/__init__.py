"""TREC nuggets (nuggetizer's files and scores): read and write nuggets and assignment files, and compute
nuggetizer's metrics exactly (:func:`nugget_metrics`, ``ragrecall nuggets metrics``).

- :mod:`._types`: :class:`Nugget` and :class:`NuggetTopic`;
- :mod:`._scores`: the five scores of a list of labelled nuggets (the formulas, shared with
  :class:`ragrecall.NuggetRecall`);
- :mod:`._metrics`: nuggetizer's metrics lines;
- :mod:`._files`: the files; :mod:`._assignments`: a run's nugget recall written as nuggetizer's assignments.
"""

from ._assignments import write_assignments
from ._files import file_metrics, read_assignments, read_nuggets, write_nuggets
from ._metrics import METRIC_KEYS, metrics_lines, nugget_metrics
from ._scores import IMPORTANCES, LABELS, SCORES, Importance, Label, Score, credit, nugget_scores
from ._types import Nugget, NuggetTopic

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
    "metrics_lines",
    "nugget_metrics",
    "nugget_scores",
    "read_assignments",
    "read_nuggets",
    "write_assignments",
    "write_nuggets",
]
