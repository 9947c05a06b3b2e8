"""Statistics over per-sample scores: the mean with a percentile bootstrap interval, paired tests."""

from __future__ import annotations

from collections.abc import Iterator, Sequence

import numpy as np

__all__ = ["bootstrap_ci", "paired_bootstrap_ci", "paired_permutation_p"]

# Resamples are drawn in blocks of at most this many values (2 MB of indices, 2 MB of the values they pick), so
# memory stays flat for any sample size: the generator hands out the same numbers however the draws are split,
# and each resample's mean is computed alone, so the results do not depend on the block size.
_BLOCK_VALUES = 1 << 18


def _blocks(n_resamples: int, n: int) -> Iterator[tuple[int, int]]:
    """``(start, stop)`` of consecutive blocks of resamples of ``n`` values each, about ``_BLOCK_VALUES`` values
    per block (at least one resample)."""
    step = max(1, min(256, _BLOCK_VALUES // max(n, 1)))
    for start in range(0, n_resamples, step):
        yield start, min(start + step, n_resamples)


def _resampled_means(values: np.ndarray, n_resamples: int, rng: np.random.Generator) -> np.ndarray:
    n = values.size
    means = np.empty(n_resamples)
    for start, stop in _blocks(n_resamples, n):
        idx = rng.integers(0, n, size=(stop - start, n))
        means[start:stop] = values[idx].mean(axis=1)
    return means


def bootstrap_ci(
    values: Sequence[float] | np.ndarray, *, confidence: float = 0.95, n_resamples: int = 2000, seed: int = 0
) -> tuple[float, float] | None:
    """Percentile bootstrap interval for the mean of ``values``; None for fewer than two values.

    Deterministic for a given ``seed``. Uses ``n_resamples`` resamples with replacement of the same size.
    """
    arr = np.asarray(values, dtype=np.float64)
    if arr.size < 2:
        return None
    means = _resampled_means(arr, n_resamples, np.random.default_rng(seed))
    alpha = (1.0 - confidence) / 2.0
    low, high = np.quantile(means, [alpha, 1.0 - alpha])
    return float(low), float(high)


def paired_bootstrap_ci(
    differences: Sequence[float] | np.ndarray, *, confidence: float = 0.95, n_resamples: int = 2000, seed: int = 0
) -> tuple[float, float] | None:
    """Bootstrap interval for the mean of paired differences (resampling pairs, not systems)."""
    return bootstrap_ci(differences, confidence=confidence, n_resamples=n_resamples, seed=seed)


def paired_permutation_p(
    differences: Sequence[float] | np.ndarray, *, n_resamples: int = 10000, seed: int = 0
) -> float:
    """Two-sided p-value of a paired randomisation (sign-flip) test that the mean difference is zero.

    Each resample flips the sign of every difference with probability 1/2 (swapping the two systems' scores
    on that sample). The p-value counts resamples whose |mean| is at least the observed one, with the observed
    arrangement included, so it is never 0.
    """
    arr = np.asarray(differences, dtype=np.float64)
    if arr.size == 0:
        return 1.0
    observed = abs(arr.mean())
    rng = np.random.default_rng(seed)
    hits = 0
    for start, stop in _blocks(n_resamples, arr.size):
        signs = rng.choice(np.array([-1.0, 1.0]), size=(stop - start, arr.size))
        means = np.abs((signs * arr).mean(axis=1))
        # The tolerance keeps float noise from deciding exact ties with the observed mean.
        hits += int(np.count_nonzero(means >= observed - 1e-12))
    return (hits + 1) / (n_resamples + 1)
