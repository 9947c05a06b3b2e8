"""Metric classes: one module per metric family, on a shared base."""

from .base import Metric, SampleLike, SyncMetric
from .id_recall import IDBasedContextRecall
from .string_recall import SCORERS, NonLLMContextRecall

__all__ = ["SCORERS", "IDBasedContextRecall", "Metric", "NonLLMContextRecall", "SampleLike", "SyncMetric"]
