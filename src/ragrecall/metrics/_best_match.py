"""For each reference text, the most similar retrieved text of its sample: the pairs, and fewer of them computed.

String recall compares each reference text with every retrieved text of its sample and keeps the best
similarity and the first retrieved text giving it. For the edit-distance scorers rapidfuzz does less work on a
pair when told the least similarity that matters (``score_cutoff``): a pair that cannot reach it is given up
early. :func:`pruned_similarities` uses that in two steps:

1. each reference text is compared with one retrieved text, its likely match: the first one that begins (else
   ends) with the same :data:`SIGNATURE` characters, as a near copy does; else the first one;
2. then with the others, with a cutoff below that first similarity by at least :data:`MARGIN`, rounded down
   to one of :data:`LEVELS` (one kernel call per level); a pair under the cutoff comes back as 0.

The best similarity and its first position are those of comparing every pair exactly: the cutoff is below the
first similarity, which is at most the best, so every pair that reaches the best (or ties it) is computed
exactly, and a pair left at 0 is below the best. The saving is the kernel's: for a reference text that is a
near copy of a retrieved one the other pairs cost a fraction of a full comparison; for one whose first
similarity is under ``LEVELS[0] + MARGIN`` (0.515625) nothing is saved, and the first step costs one more kernel
call.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np

__all__ = [
    "LEVELS",
    "MARGIN",
    "PRUNED_SCORERS",
    "SIGNATURE",
    "Kernel",
    "pair_lists",
    "pruned_similarities",
    "row_best",
]

PRUNED_SCORERS = frozenset({"levenshtein", "indel"})
"""Built-in scorers whose rapidfuzz kernels give up early on a pair below ``score_cutoff``."""
LEVELS = (0.5, 0.6, 0.7, 0.8, 0.85, 0.9, 0.95)
"""The cutoffs used in the second step. Under 0.5 a cutoff saves nothing on texts of a few hundred characters."""
MARGIN = 1 / 64
"""Least distance between a reference text's first similarity and its cutoff. rapidfuzz converts a similarity
cutoff to a most edit distance and back, and may return 0 for a pair exactly on the cutoff
(``Levenshtein.normalized_similarity("aaaaa", "bbaaa", score_cutoff=0.6)`` is 0 though the similarity is 0.6):
the margin keeps every pair that reaches the first similarity far from the cutoff, so it is never cut."""
SIGNATURE = 12
"""Characters at the start (or end) of a text that mark its likely match."""

Kernel = Callable[[list[str], list[str], float | None], np.ndarray]
"""``(queries, choices, score_cutoff) -> similarities`` of the pairs ``(queries[i], choices[i])``: exact for a
pair above the cutoff by :data:`MARGIN` or more (every pair without a cutoff), 0 for a pair below it; a pair
on the cutoff or just above it may come back exact or 0 (rapidfuzz converts the cutoff to a distance and back)."""


def pair_lists(refs: Sequence[list[str]], rets: Sequence[list[str]]) -> tuple[list[str], list[str]]:
    """Every (reference, retrieved) pair of each sample, as two parallel lists: each reference text of a
    sample against each of its retrieved texts in turn."""
    queries: list[str] = []
    choices: list[str] = []
    for ref, ret in zip(refs, rets, strict=True):
        for r in ref:
            queries += [r] * len(ret)
        choices += ret * len(ref)
    return queries, choices


def pruned_similarities(refs: Sequence[list[str]], rets: Sequence[list[str]], kernel: Kernel) -> np.ndarray:
    """The similarities of the pairs of :func:`pair_lists`, in its order, except that a pair below its
    reference text's cutoff (see the module docstring) is 0. :func:`row_best` gives from it exactly what it
    gives from every pair's similarity."""
    sizes = np.repeat(
        np.fromiter(map(len, rets), dtype=np.intp, count=len(rets)),
        np.fromiter(map(len, refs), dtype=np.intp, count=len(refs)),
    )
    flat = np.zeros(int(sizes.sum()))
    compared = np.flatnonzero(sizes > 0)
    if not compared.size:
        return flat
    queries, choices = pair_lists(refs, rets)
    pair_queries = np.array(queries, dtype=object)
    pair_choices = np.array(choices, dtype=object)
    del queries, choices
    starts = np.cumsum(sizes) - sizes
    firsts = starts[compared] + np.asarray(_likely_matches(refs, rets), dtype=np.intp)
    first = kernel(pair_queries[firsts].tolist(), pair_choices[firsts].tolist(), None)
    flat[firsts] = first
    # Each reference text's level: the index in LEVELS of its cutoff, -1 for none; then each pair's.
    levels = np.full(sizes.size, -1, dtype=np.intp)
    levels[compared] = np.searchsorted(LEVELS, first - MARGIN, side="right") - 1
    pair_levels = np.repeat(levels, sizes)
    pair_levels[firsts] = len(LEVELS)  # compared already
    for level in range(-1, len(LEVELS)):
        pairs = np.flatnonzero(pair_levels == level)
        if pairs.size:
            cutoff = None if level < 0 else LEVELS[level]
            flat[pairs] = kernel(pair_queries[pairs].tolist(), pair_choices[pairs].tolist(), cutoff)
    return flat


def _likely_matches(refs: Sequence[list[str]], rets: Sequence[list[str]]) -> list[int]:
    """For each reference text with retrieved texts to compare: the index of the first retrieved text starting
    with the same :data:`SIGNATURE` characters, else of the first ending with the same, else 0."""
    out: list[int] = []
    for ref, ret in zip(refs, rets, strict=True):
        if not ret:
            continue
        heads = [text[:SIGNATURE] for text in ret]
        tails = [text[-SIGNATURE:] for text in ret]
        for r in ref:
            head, tail = r[:SIGNATURE], r[-SIGNATURE:]
            out.append(heads.index(head) if head in heads else tails.index(tail) if tail in tails else 0)
    return out


def row_best(flat: np.ndarray, lengths: list[int]) -> tuple[np.ndarray, np.ndarray]:
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
