"""The curated public surface: adding or removing a public name is a deliberate act."""

from __future__ import annotations

import ragrecall

EXPECTED = {
    "CacheMissError",
    "CheckpointError",
    "ConfigurationError",
    "Comparison",
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
}


def test_public_names_are_pinned() -> None:
    assert set(ragrecall.__all__) == EXPECTED
    for name in ragrecall.__all__:
        assert hasattr(ragrecall, name), name


def test_error_tree() -> None:
    assert issubclass(ragrecall.MissingFieldError, ragrecall.InvalidSampleError)
    assert issubclass(ragrecall.InvalidSampleError, ragrecall.InputError)
    assert issubclass(ragrecall.InputError, ValueError)
    for name in ("InputError", "LLMError", "FileFormatError", "ConfigurationError", "CacheMissError"):
        assert issubclass(getattr(ragrecall, name), ragrecall.RagrecallError)
