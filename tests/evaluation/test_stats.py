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
