"""Batch evaluation: many samples × many metrics, with failures kept, checkpoints and statistics."""

from ._compare import Comparison, compare, paired_rows
from ._result import EvaluationResult, FailureRecord, MetricSummary, SampleRow, UnstableClaim, read_result_line
from ._run import DatasetLike, aevaluate, evaluate
from ._run_info import RunInfo

__all__ = [
    "Comparison",
    "DatasetLike",
    "EvaluationResult",
    "FailureRecord",
    "MetricSummary",
    "RunInfo",
    "SampleRow",
    "UnstableClaim",
    "aevaluate",
    "compare",
    "evaluate",
    "paired_rows",
    "read_result_line",
]
