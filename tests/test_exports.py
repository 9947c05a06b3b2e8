"""The curated public surface: adding or removing a public name is a deliberate act."""

from __future__ import annotations

import ragrecall

EXPECTED = {
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
