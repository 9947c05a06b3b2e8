"""ppi_mean: the interval's coverage and width measured by simulation, the estimator's formulas on tiny inputs,
the stratified (weighted) form, labels_needed, and the refusals."""

from __future__ import annotations

import re

import numpy as np
import pytest

from ragrecall import CorrectedMean, labels_needed, ppi_mean
from ragrecall.calibration import t_quantile
from ragrecall.errors import ConfigurationError

TRUE = 0.6  # the mean people give


def _draw(rng: np.random.Generator, shape: tuple[int, ...], rho: float, bias: float) -> tuple[np.ndarray, np.ndarray]:
    """People's 0/1 labels (mean TRUE) and a judge's scores correlated ``rho`` with them, off by ``bias``."""
    y = (rng.random(shape) < TRUE).astype(float)
    z = (y - TRUE) / np.sqrt(TRUE * (1 - TRUE))
    f = TRUE + bias + 0.45 * (rho * z + np.sqrt(1 - rho * rho) * rng.standard_normal(shape))
    return y, f


def _simulate(
    rho: float, bias: float, *, n: int, big_n: int, seeds: int = 1000, base_seed: int = 0
) -> tuple[float, float, float, float]:
    """(coverage, mean half-width / labels-only half-width, judge-only coverage, mean lambda) over ``seeds``
    simulated runs (1,000 by default: the coverage of a 95% interval is then known to about ±1.4%)."""
    rng = np.random.default_rng(base_seed)
    y, f = _draw(rng, (seeds, n), rho, bias)
    _, f_u = _draw(rng, (seeds, big_n), rho, bias)
    results = [ppi_mean(f_u[s], f[s], y[s]) for s in range(seeds)]
    covered = np.mean([r.low <= TRUE <= r.high for r in results])
    ratio = np.mean([r.half_width for r in results]) / np.mean([r.classical.half_width for r in results])
    judge = np.mean([r.judge_only.low <= TRUE <= r.judge_only.high for r in results])
    return float(covered), float(ratio), float(judge), float(np.mean([r.lam for r in results]))


@pytest.mark.parametrize("bias", [0.05, -0.05])
def test_a_biased_judge_correlated_08_covers_and_narrows(bias: float) -> None:
    covered, ratio, judge, lam = _simulate(0.8, bias, n=200, big_n=5000)
    assert 0.93 <= covered <= 0.97
    assert ratio <= 0.9
    assert judge < 0.2  # the judge alone is narrow and misses: what the correction is for
    assert 0.5 < lam <= 1.0


def test_a_judge_that_is_noise_is_no_wider_than_the_labels() -> None:
    covered, ratio, _, lam = _simulate(0.0, 0.05, n=200, big_n=5000, base_seed=1)
    assert 0.93 <= covered <= 0.97
    assert ratio <= 1.0 + 1e-12
    assert lam < 0.15


def test_an_unbiased_judge_covers() -> None:
    covered, ratio, judge, _ = _simulate(0.5, 0.0, n=200, big_n=5000, base_seed=2)
    assert 0.93 <= covered <= 0.97
    assert ratio < 0.95
    assert judge > 0.9


def test_few_labels_still_cover_nearly() -> None:
    # 30 labels: the normal interval and the tuned lambda cost a little coverage, no more.
    covered, ratio, _, _ = _simulate(0.8, -0.05, n=30, big_n=500, base_seed=3)
    assert 0.9 <= covered <= 0.98
    assert ratio < 0.9


def test_many_labels_cover() -> None:
    covered, _, _, _ = _simulate(0.95, 0.05, n=1000, big_n=20000, seeds=200, base_seed=4)
    assert 0.92 <= covered <= 0.98


def test_lambda_zero_is_the_labels_alone_and_one_is_plain_ppi() -> None:
    y = np.array([1.0, 0.0, 1.0, 1.0])
    f = np.array([0.9, 0.2, 0.7, 0.4])
    f_u = np.array([0.5, 0.7, 0.9])
    zero = ppi_mean(f_u, f, y, lam=0, min_labelled=2)
    assert zero.mean == pytest.approx(0.75)
    assert (zero.low, zero.high) == pytest.approx((zero.classical.low, zero.classical.high))
    one = ppi_mean(f_u, f, y, lam=1, min_labelled=2)
    residual = y - f  # 0.1, -0.2, 0.3, 0.6: mean 0.2
    assert one.mean == pytest.approx(0.7 + 0.2)
    se = np.sqrt(np.var(f_u, ddof=1) / 3 + np.var(residual, ddof=1) / 4)  # unbiased variances
    assert one.high - one.mean == pytest.approx(3.182446 * se, rel=1e-5)  # Student's t, 3 degrees of freedom
    assert one.lam == 1.0 and one.n_labelled == 4 and one.n_unlabelled == 3
    assert one.judge_only.mean == pytest.approx(np.mean([*f_u, *f]))


def test_the_tuned_lambda_is_the_reference_estimators_and_near_the_narrowest() -> None:
    rng = np.random.default_rng(7)
    y, f = _draw(rng, (60,), 0.7, 0.1)
    _, f_u = _draw(rng, (600,), 0.7, 0.1)
    tuned = ppi_mean(f_u, f, y)
    # ppi_py's choice for a mean: cov(Y, f) over the labelled (divided by n) / ((1 + n/N) var(f) pooled).
    n, big_n = 60, 600
    cov = np.mean((y - y.mean()) * (f - f.mean()))
    pooled = np.var(np.concatenate([f, f_u]), ddof=1)
    assert tuned.lam == pytest.approx(min(1.0, max(0.0, cov / ((1 + n / big_n) * pooled))), rel=1e-12)
    grid = [ppi_mean(f_u, f, y, lam=float(lam)).half_width for lam in np.linspace(0, 1, 101)]
    # Near the minimum of this estimator's own plug-in variance, not at it: the reference pools the judge's
    # variance over labelled and unlabelled scores and divides the covariance by n.
    assert tuned.half_width <= min(grid) * 1.05
    assert tuned.half_width <= tuned.classical.half_width


def test_weights_from_stratified_draws_cover() -> None:
    # A pool of 4,000 samples in two strata (judge says high / low); 50 labels from each, so the high
    # stratum (3,000 samples) is under-sampled: unweighted, the labels' mean would be pulled low.
    covered = 0
    seeds = 300
    rng = np.random.default_rng(11)
    for _ in range(seeds):
        y, f = _draw(rng, (4000,), 0.8, 0.05)
        high = np.flatnonzero(f >= np.quantile(f, 0.25))
        low = np.flatnonzero(f < np.quantile(f, 0.25))
        chosen = np.concatenate([rng.choice(high, 50, replace=False), rng.choice(low, 50, replace=False)])
        weights = np.where(np.isin(chosen, high), high.size / 50, low.size / 50)
        rest = np.setdiff1d(np.arange(4000), chosen)
        result = ppi_mean(f[rest], f[chosen], y[chosen], weights=weights)
        assert result.weighted
        covered += result.low <= TRUE <= result.high
        assert result.half_width <= result.classical.half_width + 1e-12
    assert 0.91 <= covered / seeds <= 0.98


def test_equal_weights_give_the_pool_form() -> None:
    y = np.array([1.0, 0.0, 1.0, 1.0, 0.0])
    f = np.array([0.9, 0.2, 0.7, 0.4, 0.3])
    f_u = np.array([0.5, 0.7, 0.9])
    result = ppi_mean(f_u, f, y, weights=[2.0] * 5, lam=1, min_labelled=2)
    assert result.mean == pytest.approx(np.mean([*f_u, *f]) + np.mean(y - f))
    assert result.classical.mean == pytest.approx(0.6)


def test_labels_needed_reaches_the_target() -> None:
    rng = np.random.default_rng(5)
    y, f = _draw(rng, (100,), 0.8, 0.05)
    _, f_u = _draw(rng, (5000,), 0.8, 0.05)
    now = ppi_mean(f_u, f, y)
    assert labels_needed(now.half_width * 1.01, f_u, f, y) == 0
    target = now.half_width / 2
    more = labels_needed(target, f_u, f, y)
    assert 250 < more < 400  # a half-width falls as 1/sqrt(n): about four times the labels
    y2, f2 = _draw(rng, (more,), 0.8, 0.05)
    after = ppi_mean(f_u[more:], np.concatenate([f, f2]), np.concatenate([y, y2]))
    assert after.half_width == pytest.approx(target, rel=0.15)


@pytest.mark.parametrize(
    ("args", "kwargs", "message"),
    [
        (([0.5], [0.5], [1.0]), {}, "needs at least 10 labelled samples, got 1: label 9 more (with fewer"),
        (([0.5], [0.5, 0.4], [1.0, 0.0]), {"min_labelled": 1}, "min_labelled must be a whole number of at least 2"),
        (([0.5], [0.5, 0.4], [1.0]), {}, "labelled_judge has 2 scores and labelled_human 1"),
        (([0.5], [0.5, float("nan")], [1.0, 0.0]), {"min_labelled": 2}, "labelled_judge[1] is nan"),
        (([0.5], [0.5, 0.4], [1.0, 0.0]), {"lam": 1.5, "min_labelled": 2}, "lam must be a number in [0, 1]"),
        (([0.5], [0.5, 0.4], [1.0, 0.0]), {"confidence": 1.0, "min_labelled": 2}, "confidence must be in (0, 1)"),
        (([0.5], [0.5, 0.4], [1.0, 0.0]), {"weights": [1.0, 0.0], "min_labelled": 2}, "weights must be positive"),
        (([0.5], [0.5, 0.4], [1.0, 0.0]), {"weights": [1.0], "min_labelled": 2}, "weights has 1 values for 2"),
    ],
)
def test_bad_input_is_one_clear_line(args: tuple[list[float], ...], kwargs: dict[str, object], message: str) -> None:
    with pytest.raises(ConfigurationError, match=re.escape(message)):
        ppi_mean(*args, **kwargs)  # type: ignore[arg-type]


def test_the_result_says_what_each_mean_means() -> None:
    result = ppi_mean([0.5, 0.7, 0.9], [0.9, 0.2, 0.7], [1.0, 0.0, 1.0], min_labelled=2)
    assert isinstance(result, CorrectedMean)
    names = [name for name, _, _ in result.describe()]
    assert names == ["corrected", "labels only", "judge only"]
    assert all(sentence for _, _, sentence in result.describe())


def test_ten_labels_cover_nearly_with_students_quantile() -> None:
    # At 10 labels the normal quantile covers about 88%; Student's t with 9 degrees of freedom about 92%.
    covered, _, _, _ = _simulate(0.8, 0.05, n=10, big_n=2000, seeds=1000, base_seed=8)
    assert 0.9 <= covered <= 0.97


def test_the_t_quantile_matches_scipy() -> None:
    stats = pytest.importorskip("scipy.stats")
    for df in (1, 2, 4, 9, 19, 99, 10_000):
        assert t_quantile(0.975, df) == pytest.approx(float(stats.t.ppf(0.975, df)), abs=1e-6)


def test_labels_all_at_one_get_the_exact_bound_and_a_note() -> None:
    judge = np.linspace(0.5, 1.0, 12)
    result = ppi_mean(np.full(100, 0.8), judge, np.ones(12))
    assert result.note is not None and result.note.startswith("all 12 labels are 1: they show no spread")
    assert "exact bound" in result.note
    # Twelve ones in a row: a mean below 0.025 ** (1/12) would give them with probability under 2.5%.
    assert result.low == pytest.approx(0.025 ** (1 / 12)) and result.high == 1.0
    assert result.half_width > 0.1  # not the zero width the variance alone would give


def test_labels_all_equal_inside_the_range_are_said() -> None:
    result = ppi_mean(np.full(50, 0.6), np.linspace(0.2, 0.9, 10), np.full(10, 0.5))
    assert result.note is not None and "all 10 labels are 0.5" in result.note
    assert "label more samples" in result.note
    varied = ppi_mean(np.full(50, 0.6), np.linspace(0.2, 0.9, 10), np.linspace(0, 1, 10))
    assert varied.note is None
