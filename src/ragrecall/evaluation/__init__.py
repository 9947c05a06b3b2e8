"""Batch evaluation: many samples × many metrics, with failures kept, checkpoints and statistics.

Names load on first use, so that reading a results file (``EvaluationResult``, ``read_result_line``) does not
load the run machinery and the LLM stack behind ``evaluate``.
"""

from typing import TYPE_CHECKING

from .._lazy import lazy_exports

_EXPORTS = {
    "read_journal": "._checkpoint",
    "sample_fingerprint": "._checkpoint",
    "FolderRun": "._folder",
    "Stored": "._folder",
    "is_result_folder": "._folder",
    "part_table": "._folder",
    "read_result_folder": "._folder",
    "write_part": "._folder",
    "check_metrics": "._metric_set",
    "metric_identity": "._metric_set",
    "Part": "._part",
    "Comparison": "._compare",
    "compare": "._compare",
    "paired_rows": "._compare",
    "paired_values": "._compare",
    "PAIR_HEADINGS": "._many",
    "ALPHA": "._many",
    "best_system": "._many",
    "PairComparison": "._many",
    "compare_many": "._many",
    "effect_size": "._many",
    "holm": "._many",
    "EvaluationResult": "._result",
    "SeenRows": "._result_lines",
    "read_result_line": "._result_lines",
    "FailureRecord": "._rows",
    "MetricSummary": "._rows",
    "SampleRow": "._rows",
    "UnstableClaim": "._rows",
    "RunConfig": "._ragas_habits",
    "Backend": "._run",
    "DatasetLike": "._run",
    "aevaluate": "._run",
    "evaluate": "._run",
    "score_part": "._run",
    "RunInfo": "._run_info",
}

__all__ = [
    "ALPHA",
    "PAIR_HEADINGS",
    "Backend",
    "Comparison",
    "DatasetLike",
    "EvaluationResult",
    "FailureRecord",
    "FolderRun",
    "MetricSummary",
    "PairComparison",
    "Part",
    "RunConfig",
    "RunInfo",
    "SampleRow",
    "SeenRows",
    "Stored",
    "UnstableClaim",
    "aevaluate",
    "best_system",
    "check_metrics",
    "compare",
    "compare_many",
    "effect_size",
    "evaluate",
    "holm",
    "is_result_folder",
    "metric_identity",
    "paired_rows",
    "paired_values",
    "part_table",
    "read_journal",
    "read_result_folder",
    "read_result_line",
    "sample_fingerprint",
    "score_part",
    "write_part",
]

__getattr__, __dir__ = lazy_exports(__name__, _EXPORTS, globals())

if TYPE_CHECKING:
    from ._checkpoint import read_journal, sample_fingerprint
    from ._compare import Comparison, compare, paired_rows, paired_values
    from ._folder import FolderRun, Stored, is_result_folder, part_table, read_result_folder, write_part
    from ._many import ALPHA, PAIR_HEADINGS, PairComparison, best_system, compare_many, effect_size, holm
    from ._metric_set import check_metrics, metric_identity
    from ._part import Part
    from ._ragas_habits import RunConfig
    from ._result import EvaluationResult
    from ._result_lines import SeenRows, read_result_line
    from ._rows import FailureRecord, MetricSummary, SampleRow, UnstableClaim
    from ._run import Backend, DatasetLike, aevaluate, evaluate, score_part
    from ._run_info import RunInfo
