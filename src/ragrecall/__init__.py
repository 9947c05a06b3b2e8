"""ragrecall: measure how well the retrieval step of a RAG pipeline finds what it should.

The public names are listed in ``__all__`` (pinned by a test); everything else is private. Names are
imported on first use, so ``import ragrecall.ranking`` does not load the LLM stack.
"""

from typing import TYPE_CHECKING

from ._lazy import lazy_exports

__version__ = "0.1.0"

_EXPORTS = {
    # schema and data
    "Sample": ".schema",
    "SingleTurnSample": ".schema",
    "Dataset": ".dataset",
    "EvaluationDataset": ".dataset",
    "demo_dataset": ".demo",
    # results
    "MetricResult": ".results",
    "Evidence": ".results",
    "Failure": ".results",
    "FoundID": ".results",
    "IDRecallEvidence": ".results",
    "ContextMatch": ".results",
    "StringRecallEvidence": ".results",
    "Usage": ".usage",
    # errors
    "RagrecallError": ".errors",
    "InputError": ".errors",
    "InvalidSampleError": ".errors",
    "MissingFieldError": ".errors",
    "FileFormatError": ".errors",
    "CheckpointError": ".errors",
    "NothingToEvaluateError": ".errors",
    "ConfigurationError": ".errors",
    "LLMError": ".errors",
    "LLMRequestError": ".errors",
    "LLMOutputError": ".errors",
    "CacheMissError": ".errors",
    "EndpointDownError": ".errors",
    "ConfirmationError": ".errors",
    "UnverifiedVerdictError": ".errors",
    "NoClaimsError": ".errors",
    # metrics
    "Metric": ".metrics",
    "SyncMetric": ".metrics",
    "IDBasedContextRecall": ".metrics",
    "NonLLMContextRecall": ".metrics",
    "ContextRecall": ".metrics",
    "LLMContextRecall": ".metrics",
    "NuggetRecall": ".metrics",
    "ClaimRecallEvidence": ".metrics",
    "ClaimVerdict": ".metrics",
    "Quote": ".metrics",
    "DroppedClaim": ".metrics",
    # LLM path
    "FakeLLM": ".llm",
    "OfflineJudge": ".llm",
    "OpenAILLM": ".llm",
    "ResponseCache": ".llm",
    "RetryPolicy": ".llm",
    "llm_factory": ".llm",
    # ranking
    "RankingMetric": ".ranking",
    "RankingEvidence": ".ranking",
    "evaluate_run": ".ranking",
    "parse_measure": ".ranking",
    "parse_ranking": ".ranking",
    "read_qrels": ".ranking",
    "read_run": ".ranking",
    "evaluate_diversity": ".ranking.diversity",
    # batch evaluation
    "evaluate": ".evaluation",
    "aevaluate": ".evaluation",
    "RunConfig": ".evaluation",
    "EvaluationResult": ".evaluation",
    "Comparison": ".evaluation",
    "compare": ".evaluation",
    # calibration against human labels
    "calibrate": ".calibration",
    "CalibrationResult": ".calibration",
    "CorrectedMean": ".calibration",
    "ppi_mean": ".calibration",
    "labels_needed": ".calibration",
    "BatchBackend": ".batch",
    "RoundExported": ".batch",
}

__all__ = [
    "BatchBackend",
    "CacheMissError",
    "CalibrationResult",
    "CheckpointError",
    "ClaimRecallEvidence",
    "ClaimVerdict",
    "Comparison",
    "ConfigurationError",
    "ConfirmationError",
    "ContextMatch",
    "ContextRecall",
    "CorrectedMean",
    "Dataset",
    "DroppedClaim",
    "EndpointDownError",
    "EvaluationDataset",
    "EvaluationResult",
    "Evidence",
    "Failure",
    "FakeLLM",
    "FileFormatError",
    "FoundID",
    "IDBasedContextRecall",
    "IDRecallEvidence",
    "InputError",
    "InvalidSampleError",
    "LLMContextRecall",
    "LLMError",
    "LLMOutputError",
    "LLMRequestError",
    "Metric",
    "MetricResult",
    "MissingFieldError",
    "NoClaimsError",
    "NonLLMContextRecall",
    "NothingToEvaluateError",
    "NuggetRecall",
    "OfflineJudge",
    "OpenAILLM",
    "Quote",
    "RagrecallError",
    "RankingEvidence",
    "RankingMetric",
    "ResponseCache",
    "RetryPolicy",
    "RoundExported",
    "RunConfig",
    "Sample",
    "SingleTurnSample",
    "StringRecallEvidence",
    "SyncMetric",
    "UnverifiedVerdictError",
    "Usage",
    "__version__",
    "aevaluate",
    "calibrate",
    "compare",
    "demo_dataset",
    "evaluate",
    "evaluate_diversity",
    "evaluate_run",
    "labels_needed",
    "llm_factory",
    "parse_measure",
    "parse_ranking",
    "ppi_mean",
    "read_qrels",
    "read_run",
]

__getattr__, __dir__ = lazy_exports(__name__, _EXPORTS, globals())

if TYPE_CHECKING:  # what type checkers and IDEs see; at run time the names resolve lazily
    from .batch import BatchBackend, RoundExported
    from .calibration import CalibrationResult, calibrate
    from .dataset import Dataset, EvaluationDataset
    from .demo import demo_dataset
    from .errors import (
        CacheMissError,
        CheckpointError,
        ConfigurationError,
        ConfirmationError,
        EndpointDownError,
        FileFormatError,
        InputError,
        InvalidSampleError,
        LLMError,
        LLMOutputError,
        LLMRequestError,
        MissingFieldError,
        NoClaimsError,
        NothingToEvaluateError,
        RagrecallError,
        UnverifiedVerdictError,
    )
    from .evaluation import Comparison, EvaluationResult, RunConfig, aevaluate, compare, evaluate
    from .llm import FakeLLM, OfflineJudge, OpenAILLM, ResponseCache, RetryPolicy, llm_factory
    from .metrics import (
        ClaimRecallEvidence,
        ClaimVerdict,
        ContextRecall,
        DroppedClaim,
        IDBasedContextRecall,
        LLMContextRecall,
        Metric,
        NonLLMContextRecall,
        NuggetRecall,
        Quote,
        SyncMetric,
    )
    from .ranking import (
        RankingEvidence,
        RankingMetric,
        evaluate_run,
        parse_measure,
        parse_ranking,
        read_qrels,
        read_run,
    )
    from .ranking.diversity import evaluate_diversity
    from .results import (
        ContextMatch,
        Evidence,
        Failure,
        FoundID,
        IDRecallEvidence,
        MetricResult,
        StringRecallEvidence,
    )
    from .schema import Sample, SingleTurnSample
    from .usage import Usage
