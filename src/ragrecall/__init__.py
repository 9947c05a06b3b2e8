"""ragrecall: measure how well the retrieval step of a RAG pipeline finds what it should.

The public names are listed in ``__all__`` (pinned by a test); everything else is private.
"""

from .dataset import Dataset
from .demo import demo_dataset
from .errors import (
    CacheMissError,
    CheckpointError,
    ConfigurationError,
    FileFormatError,
    InputError,
    InvalidSampleError,
    LLMError,
    LLMOutputError,
    LLMRequestError,
    MissingFieldError,
    RagrecallError,
)
from .evaluation import Comparison, EvaluationResult, aevaluate, compare, evaluate
from .llm import FakeLLM, OfflineJudge, OpenAILLM, ResponseCache, RetryPolicy, llm_factory
from .metrics import (
    ClaimRecallEvidence,
    ClaimVerdict,
    ContextRecall,
    IDBasedContextRecall,
    LLMContextRecall,
    Metric,
    NonLLMContextRecall,
    SyncMetric,
)
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

__version__ = "0.1.0"

__all__ = [
    "CacheMissError",
    "CheckpointError",
    "ClaimRecallEvidence",
    "ClaimVerdict",
    "Comparison",
    "ConfigurationError",
    "ContextMatch",
    "ContextRecall",
    "Dataset",
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
    "NonLLMContextRecall",
    "OfflineJudge",
    "OpenAILLM",
    "RagrecallError",
    "ResponseCache",
    "RetryPolicy",
    "Sample",
    "SingleTurnSample",
    "StringRecallEvidence",
    "SyncMetric",
    "Usage",
    "__version__",
    "aevaluate",
    "compare",
    "demo_dataset",
    "evaluate",
    "llm_factory",
]
