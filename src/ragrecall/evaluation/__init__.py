"""Batch evaluation: many samples × many metrics, with failures kept, checkpoints and statistics."""

from ._checkpoint import read_journal
from ._compare import Comparison, compare, paired_rows, paired_values
from ._many import PAIR_HEADINGS, PairComparison, compare_many, effect_size, holm
from ._result import EvaluationResult
from ._result_lines import read_result_line
from ._rows import FailureRecord, MetricSummary, SampleRow, UnstableClaim
from ._run import Backend, DatasetLike, aevaluate, evaluate
from ._run_info import RunInfo

__all__ = [
    "PAIR_HEADINGS",
    "Backend",
    "Comparison",
    "DatasetLike",
    "EvaluationResult",
    "FailureRecord",
    "MetricSummary",
    "PairComparison",
    "RunInfo",
    "SampleRow",
    "UnstableClaim",
    "aevaluate",
    "compare",
    "compare_many",
    "effect_size",
    "evaluate",
    "holm",
    "paired_rows",
    "paired_values",
    "read_journal",
    "read_result_line",
]
