"""String-similarity context recall (no LLM): reference passages matched against retrieved ones."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar

import numpy as np
from rapidfuzz import fuzz, process
from rapidfuzz.distance import Indel, JaroWinkler, Levenshtein

from ..errors import ConfigurationError, InvalidSampleError
from ..results import ContextMatch, MetricResult, StringRecallEvidence
from ..schema import Sample, describe_record
from ..text import normalize_text
from .base import SyncMetric

__all__ = ["SCORERS", "NonLLMContextRecall", "SimilarityFn"]

SimilarityFn = Callable[[str, str], float]
"""``(reference, retrieved) -> similarity in [0, 1]``."""

# name -> (rapidfuzz scorer, the value that scorer gives to identical strings)
SCORERS: dict[str, tuple[Any, float]] = {
    "levenshtein": (Levenshtein.normalized_similarity, 1.0),
    "indel": (Indel.normalized_similarity, 1.0),
    "jaro_winkler": (JaroWinkler.normalized_similarity, 1.0),
    "token_set": (fuzz.token_set_ratio, 100.0),
    "partial": (fuzz.partial_ratio, 100.0),
}
"""Built-in scorers, by name."""

# Similarities within this distance below the threshold count as on it: float rounding must not decide.
_TIE_TOLERANCE = 1e-9
# Below this many pairs, rapidfuzz's thread start-up costs more than the parallel work saves.
_PARALLEL_MIN_PAIRS = 8192


@dataclass(frozen=True)
class NonLLMContextRecall(SyncMetric):
    """Share of reference contexts for which some retrieved context is similar enough.

    For each reference context ``r``: ``best(r) = max_j similarity(r, retrieved[j])``; ``r`` is recalled when
    ``best(r) >= threshold`` (≥, unlike Ragas's >; ties within 1e-9 count as equal).
    ``value = recalled reference contexts / reference contexts`` (duplicates in the reference count as given).

    Scorers: ``"levenshtein"`` (normalised Levenshtein similarity, default, the number Ragas uses),
    ``"indel"`` (normalised InDel similarity, rapidfuzz's ``ratio``), ``"jaro_winkler"``, ``"token_set"``
    (token-set ratio), ``"partial"`` (best alignment of the shorter string inside the longer: a reference
    passage inside a longer retrieved chunk scores 1), or any ``(reference, retrieved) -> float`` callable
    returning a similarity in [0, 1] (called once per pair, in Python).

    An empty ``reference_contexts`` is unscorable; an empty ``retrieved_contexts`` scores 0; a blank
    reference passage is an input error.

    Args:
        threshold: similarity at or above which a reference context counts as recalled, in [0, 1].
        scorer: a name from :data:`SCORERS` or a similarity callable.
        normalize: compare after NFKC normalisation, case folding and whitespace collapsing.
    """

    threshold: float = 0.5
    scorer: str | SimilarityFn = "levenshtein"
    normalize: bool = False
    _fn: Any = field(init=False, repr=False, compare=False)
    _scale: float = field(init=False, repr=False, compare=False)

    required_fields: ClassVar[tuple[str, ...]] = ("retrieved_contexts", "reference_contexts")
    metric_name: ClassVar[str] = "non_llm_context_recall"

    def __post_init__(self) -> None:
        t = self.threshold
        if isinstance(t, bool) or not isinstance(t, (int, float)) or not 0.0 <= t <= 1.0:
            raise ConfigurationError(f"threshold must be a number in [0, 1], got {t!r}")
        if isinstance(self.scorer, str):
            if self.scorer not in SCORERS:
                raise ConfigurationError(
                    f"unknown scorer {self.scorer!r}; expected one of {', '.join(SCORERS)} or a callable"
                )
            fn, scale = SCORERS[self.scorer]
        elif callable(self.scorer):
            fn, scale = self.scorer, 1.0
        else:
            raise ConfigurationError(f"scorer must be a name or a callable, got {type(self.scorer).__name__}")
        object.__setattr__(self, "_fn", fn)
        object.__setattr__(self, "_scale", scale)

    @property
    def scorer_name(self) -> str:
        """The scorer's name, for evidence and reports."""
        return self.scorer if isinstance(self.scorer, str) else getattr(self.scorer, "__name__", "custom")

    def settings(self) -> dict[str, Any]:
        return {"threshold": self.threshold, "scorer": self.scorer_name, "normalize": self.normalize}

    def _check(self, sample: Sample, where: str | None) -> None:
        super()._check(sample, where)
        assert sample.reference_contexts is not None
        for i, text in enumerate(sample.reference_contexts):
            if not text.strip():
                raise InvalidSampleError(
                    f"item [{i}]: the reference passage is blank; expected non-empty text",
                    where=describe_record(where, {"id": sample.id}),
                    field="reference_contexts",
                )

    def _score_sample(self, sample: Sample) -> MetricResult:
        return self._score_samples([sample])[0]

    def _score_samples(self, samples: Sequence[Sample]) -> list[MetricResult]:
        """Score all samples with one pairwise similarity call over every (reference, retrieved) pair."""
        refs: list[list[str]] = []
        rets: list[list[str]] = []
        for sample in samples:
            ref, ret = self._texts(sample)
            refs.append(ref)
            rets.append(ret)
        best, best_idx = _row_best(
            self._pair_similarities(refs, rets), [len(ret) for ref, ret in zip(refs, rets, strict=True) for _ in ref]
        )
        best_list, idx_list = best.tolist(), best_idx.tolist()
        results: list[MetricResult] = []
        row = 0
        for sample, ref, ret in zip(samples, refs, rets, strict=True):
            results.append(
                self._result(sample, best_list[row : row + len(ref)], idx_list[row : row + len(ref)], bool(ret))
            )
            row += len(ref)
        return results

    def _texts(self, sample: Sample) -> tuple[list[str], list[str]]:
        assert sample.reference_contexts is not None and sample.retrieved_contexts is not None
        ref, ret = sample.reference_contexts, sample.retrieved_contexts
        if self.normalize:
            ref = [normalize_text(t) for t in ref]
            ret = [normalize_text(t) for t in ret]
        return ref, ret

    def _pair_similarities(self, refs: list[list[str]], rets: list[list[str]]) -> np.ndarray:
        queries = [r for ref, ret in zip(refs, rets, strict=True) for r in ref for _ in ret]
        choices = [c for ref, ret in zip(refs, rets, strict=True) for _ in ref for c in ret]
        if not queries:
            return np.zeros(0)
        if isinstance(self.scorer, str):
            workers = -1 if len(queries) >= _PARALLEL_MIN_PAIRS else 1
            sims = process.cpdist(queries, choices, scorer=self._fn, dtype=np.float64, workers=workers)
            return np.asarray(sims, dtype=np.float64) / self._scale
        return self._custom_similarities(queries, choices)

    def _custom_similarities(self, queries: list[str], choices: list[str]) -> np.ndarray:
        sims = np.empty(len(queries))
        for i, (q, c) in enumerate(zip(queries, choices, strict=True)):
            value = self._fn(q, c)
            if isinstance(value, bool) or not isinstance(value, (int, float, np.floating)) or not 0.0 <= value <= 1.0:
                raise ConfigurationError(
                    f"scorer {self.scorer_name!r} returned {value!r} for a pair; "
                    "a scorer must return a similarity in [0, 1]"
                )
            sims[i] = value
        return sims

    def _result(self, sample: Sample, best: list[float], best_idx: list[int], retrieved: bool) -> MetricResult:
        cut = self.threshold - _TIE_TOLERANCE
        # Values are computed here, not user input: construct without re-validating each record.
        matches = [
            ContextMatch.model_construct(
                reference_index=i,
                best_retrieved_index=best_idx[i] if retrieved else None,
                similarity=best[i],
                recalled=retrieved and best[i] >= cut,
            )
            for i in range(len(best))
        ]
        evidence = StringRecallEvidence.model_construct(
            kind="string_recall", scorer=self.scorer_name, threshold=self.threshold, matches=matches
        )
        if not matches:
            return MetricResult.unscorable(
                self.name, "reference_contexts is empty: nothing to recall", evidence, sample_id=sample.id
            )
        recalled = sum(m.recalled for m in matches)
        return MetricResult.scored(self.name, recalled / len(matches), evidence, sample_id=sample.id)


def _row_best(flat: np.ndarray, lengths: list[int]) -> tuple[np.ndarray, np.ndarray]:
    """Per row of ``flat`` (consecutive runs of ``lengths`` values): the maximum, capped at 1, and the
    0-based position of its first occurrence. A row of length 0 gives similarity 0 and position 0."""
    sizes = np.asarray(lengths, dtype=np.intp)
    best = np.zeros(sizes.size)
    best_idx = np.zeros(sizes.size, dtype=np.intp)
    filled = sizes > 0
    if not filled.any():
        return best, best_idx
    starts = np.concatenate(([0], np.cumsum(sizes)[:-1]))[filled]
    row_max = np.maximum.reduceat(flat, starts)
    # First position in each row that holds the row's maximum (first maximum on ties, like argmax).
    hits = np.flatnonzero(flat == np.repeat(row_max, sizes[filled]))
    first = hits[np.searchsorted(hits, starts)]
    best[filled] = np.minimum(row_max, 1.0)
    best_idx[filled] = first - starts
    return best, best_idx
