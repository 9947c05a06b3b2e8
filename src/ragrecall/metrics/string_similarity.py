"""String similarity of the response to the reference (Ragas's ``NonLLMStringSimilarity``), without an LLM."""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum
from typing import Any, ClassVar, Literal

from rapidfuzz.distance import Hamming, Jaro, JaroWinkler, Levenshtein

from ..errors import ConfigurationError
from ..results import Evidence, MetricResult
from ..schema import Sample
from .base import SyncMetric

__all__ = ["DistanceMeasure", "NonLLMStringSimilarity", "StringSimilarityEvidence"]


class DistanceMeasure(Enum):
    """The edit distances :class:`NonLLMStringSimilarity` can use (Ragas's names and values)."""

    LEVENSHTEIN = "levenshtein"
    HAMMING = "hamming"
    JARO = "jaro"
    JARO_WINKLER = "jaro_winkler"


_DISTANCES: dict[DistanceMeasure, Any] = {
    DistanceMeasure.LEVENSHTEIN: Levenshtein,
    DistanceMeasure.HAMMING: Hamming,
    DistanceMeasure.JARO: Jaro,
    DistanceMeasure.JARO_WINKLER: JaroWinkler,
}


class StringSimilarityEvidence(Evidence):
    """Which distance compared the response with the reference, and the lengths compared."""

    kind: Literal["string_similarity"] = "string_similarity"
    distance_measure: str
    reference_chars: int
    response_chars: int


@dataclass(frozen=True)
class NonLLMStringSimilarity(SyncMetric):
    """How close the response is to the reference as a string: ``1 − normalised distance(reference, response)``,
    in [0, 1], with rapidfuzz's normalised Levenshtein (default), Hamming, Jaro or Jaro-Winkler distance — the
    number Ragas's metric of this name gives.

    An empty reference is unscorable (nothing to compare with; Ragas gives 0 or 1); an empty response scores 0
    against a non-empty reference.

    Args:
        distance_measure: a :class:`DistanceMeasure` or its value (``"jaro_winkler"``).
        name: the name results carry; default ``non_llm_string_similarity``.
    """

    distance_measure: DistanceMeasure | str = DistanceMeasure.LEVENSHTEIN
    name: str = ""
    _distance: Any = field(init=False, repr=False, compare=False)

    required_fields: ClassVar[tuple[str, ...]] = ("reference", "response")
    metric_name: ClassVar[str] = "non_llm_string_similarity"

    def __post_init__(self) -> None:
        try:
            measure = DistanceMeasure(getattr(self.distance_measure, "value", self.distance_measure))
        except ValueError:
            known = ", ".join(m.value for m in DistanceMeasure)
            raise ConfigurationError(
                f"unknown distance_measure {self.distance_measure!r}; expected one of {known}"
            ) from None
        object.__setattr__(self, "distance_measure", measure)
        object.__setattr__(self, "_distance", _DISTANCES[measure])
        self._set_name(self.name)

    def settings(self) -> dict[str, Any]:
        measure = self.distance_measure
        return {"distance_measure": measure.value if isinstance(measure, DistanceMeasure) else measure}

    def _non_default_settings(self) -> dict[str, Any]:
        return {} if self.distance_measure == DistanceMeasure.LEVENSHTEIN else self.settings()

    def _score_sample(self, sample: Sample) -> MetricResult:
        assert sample.reference is not None and sample.response is not None
        evidence = StringSimilarityEvidence(
            distance_measure=self.settings()["distance_measure"],
            reference_chars=len(sample.reference),
            response_chars=len(sample.response),
        )
        if not sample.reference:
            return MetricResult.unscorable(
                self.name, "reference is empty: nothing to compare with", evidence, sample_id=sample.id
            )
        value = 1.0 - float(self._distance.normalized_distance(sample.reference, sample.response))
        return MetricResult.scored(self.name, value, evidence, sample_id=sample.id)
