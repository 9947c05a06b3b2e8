"""Metric classes: one module per metric family, on a shared base."""

from .base import Metric, SampleLike, SyncMetric
from .context_recall import ClaimRecallEvidence, ClaimVerdict, ContextRecall, LLMContextRecall
from .id_recall import IDBasedContextRecall
from .string_recall import SCORERS, NonLLMContextRecall

__all__ = [
    "SCORERS",
    "ClaimRecallEvidence",
    "ClaimVerdict",
    "ContextRecall",
    "IDBasedContextRecall",
    "LLMContextRecall",
    "Metric",
    "NonLLMContextRecall",
    "SampleLike",
    "SyncMetric",
]
