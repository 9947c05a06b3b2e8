"""Bootstrap intervals cover at about the nominal rate; the paired tests behave."""

from __future__ import annotations

import numpy as np
import pytest

from ragrecall.evaluation._stats import bootstrap_ci, paired_permutation_p


def test_bootstrap_interval_coverage_is_near_nominal() -> None:
    # 400 simulated studies of 60 Bernoulli(0.3)-ish scores; the 95% interval should cover the true mean in
    # about 95% of them (percentile bootstrap runs a little under nominal for small n).
    rng = np.random.default_rng(12345)
    true_mean = 0.3
    covered = 0
    trials = 400
    for t in range(trials):
        values = (rng.random(60) < true_mean).astype(float)
        ci = bootstrap_ci(values, n_resamples=1000, seed=t)
        assert ci is not None
        covered += ci[0] <= true_mean <= ci[1]
    rate = covered / trials
    assert 0.90 <= rate <= 0.98, rate


def test_bootstrap_is_deterministic_and_brackets_the_mean() -> None:
    values = np.linspace(0, 1, 50)
    first, second = bootstrap_ci(values), bootstrap_ci(values)
    assert first == second and first is not None
    assert first[0] < values.mean() < first[1]
    assert bootstrap_ci([0.5]) is None


def test_permutation_p_value() -> None:
    rng = np.random.default_rng(7)
    assert paired_permutation_p(rng.normal(0.3, 0.1, 40)) < 0.001
    assert paired_permutation_p(np.zeros(10)) == pytest.approx(1.0)
    null_ps = [paired_permutation_p(rng.normal(0, 1, 30), n_resamples=500, seed=s) for s in range(200)]
    # Under the null hypothesis p-values are roughly uniform: about 5% fall below 0.05.
    assert 0.01 <= np.mean(np.array(null_ps) < 0.05) <= 0.11


def _whole_blocks_ci(values: np.ndarray, n_resamples: int = 2000, seed: int = 0) -> tuple[float, float]:
    """The interval as it was computed before the blocks shrank with the sample size: 256 resamples a draw."""
    rng = np.random.default_rng(seed)
    means = np.concatenate(
        [
            values[rng.integers(0, values.size, size=(min(256, n_resamples - s), values.size))].mean(axis=1)
            for s in range(0, n_resamples, 256)
        ]
    )
    low, high = np.quantile(means, [0.025, 0.975])
    return float(low), float(high)


def _whole_blocks_p(arr: np.ndarray, n_resamples: int = 10000, seed: int = 0) -> float:
    rng = np.random.default_rng(seed)
    hits = 0
    for s in range(0, n_resamples, 256):
        signs = rng.choice(np.array([-1.0, 1.0]), size=(min(256, n_resamples - s), arr.size))
        hits += int(np.count_nonzero(np.abs((signs * arr).mean(axis=1)) >= abs(arr.mean()) - 1e-12))
    return (hits + 1) / (n_resamples + 1)


@pytest.mark.parametrize("n", [2, 1023, 5001])
def test_drawing_in_smaller_blocks_changes_no_figure(n: int) -> None:
    # Large samples are resampled a few resamples a draw (bounded memory): the figures are bit for bit those
    # of the 256-resample draws, including the sizes where the blocks differ.
    values = np.random.default_rng(n).random(n)
    assert bootstrap_ci(values) == _whole_blocks_ci(values)
    differences = values - 0.49
    assert paired_permutation_p(differences, n_resamples=3000) == _whole_blocks_p(differences, n_resamples=3000)
