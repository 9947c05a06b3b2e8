"""Batch evaluation: many samples × many metrics, with failures kept, checkpoints and statistics."""

from ._compare import Comparison, compare
from ._result import EvaluationResult, FailureRecord, MetricSummary, SampleRow, UnstableClaim
from ._run import DatasetLike, aevaluate, evaluate

__all__ = [
    "Comparison",
    "DatasetLike",
    "EvaluationResult",
    "FailureRecord",
    "MetricSummary",
    "SampleRow",
    "UnstableClaim",
    "aevaluate",
    "compare",
    "evaluate",
]
