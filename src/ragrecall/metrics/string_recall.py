"""String-similarity context recall (no LLM): reference passages matched against retrieved ones."""

from __future__ import annotations

import functools
import itertools
import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar

import numpy as np
from pydantic import TypeAdapter
from rapidfuzz import fuzz, process
from rapidfuzz.distance import Indel, JaroWinkler, Levenshtein

from ..errors import ConfigurationError, InvalidSampleError
from ..results import MetricResult, StringRecallEvidence
from ..schema import Sample, describe_record
from ..text import normalize_text
from ..usage import Usage
from . import _pair_work
from ._best_match import PRUNED_SCORERS, Kernel, pair_lists, pruned_similarities, row_best
from ._pair_work import chunks, runs_parallel, whole_bound
from .base import SyncMetric, check_stop

__all__ = ["MAX_CHARS", "MAX_PARTIAL_REFERENCE_CHARS", "SCORERS", "NonLLMContextRecall", "SimilarityFn"]

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

_NO_USAGE = Usage()
"""No LLM, no tokens: one (frozen) record shared by every result."""
# Similarities within this distance below the threshold count as on it: float rounding must not decide.
_TIE_TOLERANCE = 1e-9
_PRUNE_MIN_PAIRS = 128
"""Fewest pairs in a pass compared in two steps: below it the step's extra kernel calls cost more than they save."""
_GROUPS = 4
"""Most groups of samples a pass is cut into, so that building results overlaps the kernel (see _score_pass)."""
_KERNEL_THREADS = 2
"""Groups compared at once: between its kernel calls a group runs Python (pair lists, cutoffs, the best of
each row); with two groups in flight, one group's Python overlaps the other's kernel instead of leaving the
cores idle (docs/benchmarks.md has the figures)."""

MAX_CHARS = 100_000
"""Default most characters in one reference or retrieved context. The built-in scorers' work grows with the
product of the two lengths: one pair of 100,000-character texts takes a quarter of a second with
``"levenshtein"`` on one server core, one pair of 1,000,000 characters a hundred times that."""
MAX_PARTIAL_REFERENCE_CHARS = 2_000
"""Default most characters in one reference context with the ``"partial"`` scorer, whose work grows with the
cube of the shorter text's length: a 2,000-character passage against 100,000 characters takes about half a
second, two texts of 4,000 characters a few seconds, two of 10,000 half a minute."""


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
    reference passage is an input error, and so is a passage over the size limits (the error names the
    sample, the field, the item and the limit): they bound the time one pair of texts can take, so that a
    megabyte string cannot stall a run, and a cancelled run stops within a second.

    Args:
        threshold: similarity at or above which a reference context counts as recalled, in [0, 1].
        scorer: a name from :data:`SCORERS` or a similarity callable.
        normalize: compare after NFKC normalisation, case folding and whitespace collapsing.
        max_chars: most characters in any one reference or retrieved context (default :data:`MAX_CHARS`,
            100,000), counted as compared (after normalisation, with ``normalize``).
        max_reference_chars: most characters in one reference context; None (default): ``max_chars``, but
            :data:`MAX_PARTIAL_REFERENCE_CHARS` (2,000) with the ``"partial"`` scorer.
        name: the name results carry; default ``non_llm_context_recall`` (Ragas's column) whatever the settings;
            :meth:`settings_name` adds those that differ from their defaults, as the command line names it.
    """

    threshold: float = 0.5
    scorer: str | SimilarityFn = "levenshtein"
    normalize: bool = False
    max_chars: int = MAX_CHARS
    max_reference_chars: int | None = None
    name: str = ""
    _fn: Any = field(init=False, repr=False, compare=False)
    _scale: float = field(init=False, repr=False, compare=False)

    required_fields: ClassVar[tuple[str, ...]] = ("retrieved_contexts", "reference_contexts")
    metric_name: ClassVar[str] = "non_llm_context_recall"
    unnamed_settings: ClassVar[frozenset[str]] = frozenset({"max_chars", "max_reference_chars"})

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
        for name in ("max_chars", "max_reference_chars"):
            limit = getattr(self, name)
            if (limit is not None or name == "max_chars") and (
                isinstance(limit, bool) or not isinstance(limit, int) or limit < 1
            ):
                raise ConfigurationError(f"{name} must be a positive integer, got {limit!r}")
        object.__setattr__(self, "_fn", fn)
        object.__setattr__(self, "_scale", scale)
        self._set_name(self.name)

    def __getstate__(self) -> dict[str, Any]:
        # A built-in scorer is kept by name: rapidfuzz's compiled functions do not pickle (a metric sent to
        # other processes, e.g. Ray actors, takes the function again from its name).
        state = dict(self.__dict__)
        if isinstance(self.scorer, str):
            del state["_fn"]
        return state

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__dict__.update(state)
        if "_fn" not in state and isinstance(self.scorer, str):
            object.__setattr__(self, "_fn", SCORERS[self.scorer][0])

    @property
    def scorer_name(self) -> str:
        """The scorer's name, for evidence and reports."""
        return self.scorer if isinstance(self.scorer, str) else getattr(self.scorer, "__name__", "custom")

    @property
    def reference_limit(self) -> int:
        """Most characters allowed in one reference context (see ``max_reference_chars``)."""
        if self.max_reference_chars is not None:
            return self.max_reference_chars
        return min(self.max_chars, MAX_PARTIAL_REFERENCE_CHARS) if self.scorer == "partial" else self.max_chars

    def settings(self) -> dict[str, Any]:
        # The size limits are left out: they change which samples fail, never a value.
        return {"threshold": self.threshold, "scorer": self.scorer_name, "normalize": self.normalize}

    def _check(self, sample: Sample, where: str | None) -> None:
        super()._check(sample, where)
        refs = sample.reference_contexts
        assert refs is not None
        if not all(map(str.strip, refs)):  # one pass in C for the common case; the blank item is found after
            i = next(i for i, text in enumerate(refs) if not text.strip())
            raise InvalidSampleError(
                f"item [{i}]: the reference passage is blank; expected non-empty text",
                where=describe_record(where, {"id": sample.id}),
                field="reference_contexts",
            )
        assert sample.retrieved_contexts is not None
        self._check_sizes(sample, refs, sample.retrieved_contexts, where)

    def _check_sizes(self, sample: Sample, ref: Sequence[str], ret: Sequence[str], where: str | None) -> None:
        """Raise InvalidSampleError naming the sample, field, item and limit when a text is over its limit."""
        if (not ref or max(map(len, ref)) <= self.reference_limit) and (
            not ret or max(map(len, ret)) <= self.max_chars
        ):
            return  # the common case, checked in one expression (this runs once per sample)
        for field_name, texts, limit, setting in (
            ("reference_contexts", ref, self.reference_limit, "max_reference_chars"),
            ("retrieved_contexts", ret, self.max_chars, "max_chars"),
        ):
            if not texts or max(map(len, texts)) <= limit:
                continue
            i, size = next((i, len(t)) for i, t in enumerate(texts) if len(t) > limit)
            raise InvalidSampleError(
                f"item [{i}] has {size:,} characters{' after normalisation' if self.normalize else ''}, over the "
                f"limit of {limit:,} for scorer {self.scorer_name!r}: comparing texts this long takes too long; "
                f"raise {setting} to accept it, or split the passage",
                where=describe_record(where, {"id": sample.id}),
                field=field_name,
            )

    def _score_sample(self, sample: Sample) -> MetricResult:
        return self._score_samples([sample])[0]

    def _score_samples(self, samples: Sequence[Sample]) -> list[MetricResult]:
        return self._score_pass(samples, None)

    def _score_pass(self, samples: Sequence[Sample], stop: threading.Event | None) -> list[MetricResult]:
        """Score all samples with pairwise similarity calls over every (reference, retrieved) pair, in chunks
        of bounded work, looking at ``stop`` between chunks.

        With a built-in scorer the samples go in a few groups, each compared in a helper thread: while the
        similarity kernel (which releases the GIL) works on one group, the other helper prepares the next
        group's pairs and this thread builds the results of the group before, so that the work around the
        kernel costs little time beyond the kernel's."""
        texts = [self._texts(sample) for sample in samples]
        groups = _groups([len(ref) * len(ret) for ref, ret in texts], isinstance(self.scorer, str))
        if len(groups) == 1:
            return self._group_results(samples, texts, self._group_best(texts, stop))
        from concurrent.futures import ThreadPoolExecutor

        results: list[MetricResult] = []
        with ThreadPoolExecutor(_KERNEL_THREADS) as kernel:
            futures = [kernel.submit(self._group_best, texts[lo:hi], stop) for lo, hi in groups]
            try:
                for (lo, hi), future in zip(groups, futures, strict=True):
                    results += self._group_results(samples[lo:hi], texts[lo:hi], future.result())
            finally:
                for future in futures:
                    future.cancel()
        return results

    def _group_best(
        self, texts: Sequence[tuple[list[str], list[str]]], stop: threading.Event | None
    ) -> tuple[list[float], list[int]]:
        """For each reference text of ``texts``, in order: the best similarity and the retrieved text giving it."""
        refs = [ref for ref, _ in texts]
        rets = [ret for _, ret in texts]
        best, best_idx = row_best(
            self._pair_similarities(refs, rets, stop), [len(ret) for ref, ret in texts for _ in ref]
        )
        return best.tolist(), best_idx.tolist()

    def _group_results(
        self,
        samples: Sequence[Sample],
        texts: Sequence[tuple[list[str], list[str]]],
        best: tuple[list[float], list[int]],
    ) -> list[MetricResult]:
        best_list, idx_list = best
        name, threshold, cut = self.scorer_name, self.threshold, self.threshold - _TIE_TOLERANCE
        records: list[dict[str, Any]] = []
        row = 0
        for ref, ret in texts:
            end = row + len(ref)
            indexes: Sequence[int | None] = idx_list[row:end] if ret else [None] * len(ref)
            records.append(
                {
                    "kind": "string_recall",
                    "scorer": name,
                    "threshold": threshold,
                    "matches": [
                        {
                            "reference_index": i,
                            "best_retrieved_index": j,
                            "similarity": similarity,
                            "recalled": j is not None and similarity >= cut,
                        }
                        for i, (j, similarity) in enumerate(zip(indexes, best_list[row:end], strict=True))
                    ],
                }
            )
            row = end
        # One validation call for the whole group (in pydantic's compiled core): a third less time than one
        # call per sample, which was most of the time spent outside the similarity kernel.
        evidence = _evidence_list().validate_python(records)
        return [self._result(sample, found) for sample, found in zip(samples, evidence, strict=True)]

    def _texts(self, sample: Sample) -> tuple[list[str], list[str]]:
        assert sample.reference_contexts is not None and sample.retrieved_contexts is not None
        ref, ret = sample.reference_contexts, sample.retrieved_contexts
        if self.normalize:
            ref = [normalize_text(t) for t in ref]
            ret = [normalize_text(t) for t in ret]
            # NFKC can lengthen a text (one ligature becomes up to 18 characters): the limits hold for what is
            # compared.
            self._check_sizes(sample, ref, ret, None)
        return ref, ret

    def _pair_similarities(
        self, refs: list[list[str]], rets: list[list[str]], stop: threading.Event | None
    ) -> np.ndarray:
        """The similarity of each pair of :func:`pair_lists` (possibly 0 for a pair that cannot be its reference
        text's best: see :mod:`._best_match`), scaled to [0, 1]."""
        pairs = sum(len(ref) * len(ret) for ref, ret in zip(refs, rets, strict=True))
        if not pairs:
            return np.zeros(0)
        if not isinstance(self.scorer, str):
            return self._custom_similarities(*pair_lists(refs, rets), stop)
        bound = whole_bound(self.scorer, refs, rets, pairs)
        if bound is not None and self._prunes(bound, pairs, sum(map(len, refs))):
            return pruned_similarities(refs, rets, self._kernel(stop, bound / pairs)) / self._scale
        queries, choices = pair_lists(refs, rets)
        sims = np.empty(len(queries))
        for lo, hi, work in chunks(self.scorer, queries, choices, bound):
            sims[lo:hi] = self._kernel(stop, work / (hi - lo))(queries[lo:hi], choices[lo:hi], None)
        return sims / self._scale

    def _prunes(self, work: float, pairs: int, first_pairs: int) -> bool:
        """Whether to compare in two steps (see :mod:`._best_match`): for the edit-distance scorers, on passes
        of at least :data:`_PRUNE_MIN_PAIRS` pairs, when the first step's call (``first_pairs`` of the
        ``pairs``, about ``work * first_pairs / pairs`` of the ``work``) runs on every core, or one call over
        every pair would not (one core either way). Otherwise one call over every pair is the faster."""
        if self.scorer not in PRUNED_SCORERS or pairs < _PRUNE_MIN_PAIRS:
            return False
        return not runs_parallel(pairs, work) or runs_parallel(first_pairs, work * first_pairs / pairs)

    def _kernel(self, stop: threading.Event | None, work_per_pair: float) -> Kernel:
        """The similarity kernel: one rapidfuzz call over parallel lists of texts, on every core when the call
        holds enough work (``work_per_pair`` times its pairs) to pay for the threads; it looks at ``stop`` first."""

        def kernel(queries: list[str], choices: list[str], cutoff: float | None) -> np.ndarray:
            check_stop(stop)
            parallel = runs_parallel(len(queries), work_per_pair * len(queries))
            return np.asarray(
                process.cpdist(
                    queries,
                    choices,
                    scorer=self._fn,
                    dtype=np.float64,
                    workers=-1 if parallel else 1,
                    score_cutoff=None if cutoff is None else cutoff * self._scale,
                )
            )

        return kernel

    def _custom_similarities(self, queries: list[str], choices: list[str], stop: threading.Event | None) -> np.ndarray:
        sims = np.empty(len(queries))
        for i, (q, c) in enumerate(zip(queries, choices, strict=True)):
            check_stop(stop)
            value = self._fn(q, c)
            if isinstance(value, bool) or not isinstance(value, (int, float, np.floating)) or not 0.0 <= value <= 1.0:
                raise ConfigurationError(
                    f"scorer {self.scorer_name!r} returned {value!r} for a pair; "
                    "a scorer must return a similarity in [0, 1]"
                )
            sims[i] = value
        return sims

    def _result(self, sample: Sample, evidence: StringRecallEvidence) -> MetricResult:
        if not evidence.matches:
            return MetricResult.unscorable(
                self.name, "reference_contexts is empty: nothing to recall", evidence, sample_id=sample.id
            )
        recalled = sum(match.recalled for match in evidence.matches)
        return MetricResult.scored(
            self.name, recalled / len(evidence.matches), evidence, sample_id=sample.id, usage=_NO_USAGE
        )


@functools.cache
def _evidence_list() -> TypeAdapter[list[StringRecallEvidence]]:
    """The validator of a list of evidence records (built on first use: building it takes milliseconds)."""
    return TypeAdapter(list[StringRecallEvidence])


def _groups(pairs: list[int], split: bool) -> list[tuple[int, int]]:
    """Consecutive ranges ``[lo, hi)`` of samples: one, or with ``split`` up to :data:`_GROUPS` holding about
    the same number of pairs each, none under :data:`._pair_work.PARALLEL_MIN_PAIRS` (the kernel's threads
    must pay)."""
    total = sum(pairs)
    count = min(_GROUPS, total // _pair_work.PARALLEL_MIN_PAIRS) if split else 1
    if count <= 1:
        return [(0, len(pairs))]
    edges = [0]
    done = 0
    for i, n in enumerate(pairs):
        done += n
        if done * count >= total * len(edges) and i + 1 < len(pairs):
            edges.append(i + 1)
    return list(itertools.pairwise([*edges, len(pairs)]))
