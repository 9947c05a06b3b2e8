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
from .metrics import IDBasedContextRecall, Metric, NonLLMContextRecall, SyncMetric
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
    "Comparison",
    "ConfigurationError",
    "ContextMatch",
    "Dataset",
    "EvaluationResult",
    "Evidence",
    "Failure",
    "FileFormatError",
    "FoundID",
    "IDBasedContextRecall",
    "IDRecallEvidence",
    "InputError",
    "InvalidSampleError",
    "LLMError",
    "LLMOutputError",
    "LLMRequestError",
    "Metric",
    "MetricResult",
    "MissingFieldError",
    "NonLLMContextRecall",
    "RagrecallError",
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
]
