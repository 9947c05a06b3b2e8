"""How much work a pass of string-similarity calls holds: when a call pays for threads, and where to cut a pass
so that one call stays short enough for a stop request to be seen within about a second."""

from __future__ import annotations

import itertools
from collections.abc import Sequence

import numpy as np

__all__ = [
    "CHUNK_WORK",
    "PARALLEL_MIN_PAIRS",
    "PARALLEL_MIN_WORK",
    "chunks",
    "runs_parallel",
    "split_work",
    "whole_bound",
]

PARALLEL_MIN_PAIRS = 8192
"""Pairs from which one kernel call runs on every core."""
PARALLEL_MIN_WORK = 50_000_000
"""Work (character pairs) from which one kernel call runs on every core: below both bounds, rapidfuzz's thread
start-up costs more than the parallel work saves."""
CHUNK_WORK = 8_000_000_000
"""Most work in one similarity call, in character pairs (see :func:`pair_work`; about 0.2 s of Levenshtein on
one core), plus the pair that crosses it; the metric looks at its stop flag between calls."""


def runs_parallel(pairs: int, work: float) -> bool:
    """Whether one kernel call over ``pairs`` pairs holding ``work`` runs on every core."""
    return pairs >= PARALLEL_MIN_PAIRS or work >= PARALLEL_MIN_WORK


def whole_bound(scorer: str, refs: Sequence[list[str]], rets: Sequence[list[str]], pairs: int) -> float | None:
    """A cheap bound on the work of the whole pass (``pairs`` pairs) when it is within :data:`CHUNK_WORK` (one
    kernel call may take it all), else None; always None for ``"partial"``, whose work this bound does not
    follow."""
    if scorer == "partial":
        return None
    # Measured on each text once, not on each of its copies in the pairs.
    longest = max(map(len, itertools.chain.from_iterable(rets)), default=0)
    compared = sum(len(ret) * sum(map(len, ref)) for ref, ret in zip(refs, rets, strict=True))
    bound = float(compared * longest + 1024 * pairs)
    return bound if bound <= CHUNK_WORK else None


def chunks(scorer: str, queries: list[str], choices: list[str], bound: float | None) -> list[tuple[int, int, float]]:
    """The pairs ``(queries[i], choices[i])`` in consecutive ranges ``(lo, hi, work)`` of at most
    :data:`CHUNK_WORK` each (plus the pair that crosses it). ``bound`` is the pass's :func:`whole_bound`: when
    it is not None the whole pass is one range (the common case), else the work is estimated pair by pair."""
    if bound is not None:
        return [(0, len(queries), bound)]
    work = pair_work(scorer, queries, choices)
    return [(lo, hi, float(work[lo:hi].sum())) for lo, hi in split_work(work, CHUNK_WORK)]


def pair_work(scorer: str, queries: list[str], choices: list[str]) -> np.ndarray:
    """Estimated work per pair, in character pairs: the product of the lengths; for ``"partial"``, the cube of
    the shorter length plus 64 times the product (what its running time follows). Each pair also counts 1,024
    for its fixed cost."""
    q = np.fromiter(map(len, queries), dtype=np.float64, count=len(queries))
    c = np.fromiter(map(len, choices), dtype=np.float64, count=len(choices))
    if scorer == "partial":
        short = np.minimum(q, c)
        return short**3 + 64 * q * c + 1024
    return q * c + 1024


def split_work(work: np.ndarray, budget: float) -> list[tuple[int, int]]:
    """Consecutive ranges ``[lo, hi)`` covering every pair: a new range starts where the work before a pair
    crosses a multiple of ``budget``, so a range holds at most ``budget`` plus its last pair's work."""
    if work.size == 0:
        return []
    before = np.cumsum(work) - work
    window = (before // budget).astype(np.int64)
    edges = [0, *(np.flatnonzero(np.diff(window)) + 1).tolist(), int(work.size)]
    return list(itertools.pairwise(edges))
