"""Metric classes: one module per metric family, on a shared base (names load on first use)."""

from typing import TYPE_CHECKING

from .._lazy import lazy_exports

_EXPORTS = {
    "Metric": ".base",
    "SampleLike": ".base",
    "SyncMetric": ".base",
    "IDBasedContextRecall": ".id_recall",
    "SCORERS": ".string_recall",
    "NonLLMContextRecall": ".string_recall",
    "DistanceMeasure": ".string_similarity",
    "NonLLMStringSimilarity": ".string_similarity",
    "StringSimilarityEvidence": ".string_similarity",
    "ClaimRecallEvidence": ".context_recall",
    "ClaimVerdict": ".context_recall",
    "DroppedClaim": ".context_recall",
    "Quote": ".context_recall",
    "ContextRecall": ".context_recall",
    "LLMContextRecall": ".context_recall",
    "NuggetRecall": ".nugget_recall",
    "NuggetRecallEvidence": ".nugget_recall",
    "NuggetVerdict": ".nugget_recall",
}

__all__ = [
    "SCORERS",
    "ClaimRecallEvidence",
    "ClaimVerdict",
    "ContextRecall",
    "DistanceMeasure",
    "DroppedClaim",
    "IDBasedContextRecall",
    "LLMContextRecall",
    "Metric",
    "NonLLMContextRecall",
    "NonLLMStringSimilarity",
    "NuggetRecall",
    "NuggetRecallEvidence",
    "NuggetVerdict",
    "Quote",
    "SampleLike",
    "StringSimilarityEvidence",
    "SyncMetric",
]

__getattr__, __dir__ = lazy_exports(__name__, _EXPORTS, globals())

if TYPE_CHECKING:
    from .base import Metric, SampleLike, SyncMetric
    from .context_recall import (
        ClaimRecallEvidence,
        ClaimVerdict,
        ContextRecall,
        DroppedClaim,
        LLMContextRecall,
        Quote,
    )
    from .id_recall import IDBasedContextRecall
    from .nugget_recall import NuggetRecall, NuggetRecallEvidence, NuggetVerdict
    from .string_recall import SCORERS, NonLLMContextRecall
    from .string_similarity import DistanceMeasure, NonLLMStringSimilarity, StringSimilarityEvidence
