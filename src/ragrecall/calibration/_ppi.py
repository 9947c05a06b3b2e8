"""The judge's mean corrected by people's labels: prediction-powered inference (PPI++), at the sample level.

With ``n`` labelled samples (a person's score ``Y`` and the judge's score ``f`` on each) and ``N`` samples the
judge alone scored, the estimate of the mean of ``Y`` is (Angelopoulos, Duchi & Zrnic, *PPI++: Efficient
Prediction-Powered Inference*, arXiv 2311.01453, the mean estimator)::

    theta(lam) = lam * mean(f over the unlabelled) + mean(Y - lam * f over the labelled)

unbiased for every fixed ``lam`` whatever the judge's bias, since the second term measures the bias on the
labelled samples and takes it away. Its variance is ``lam² Var(f)/N + Var(Y - lam f)/n``; the interval is
``theta ± t · sqrt(variance)`` with those plug-in variances and ``t`` Student's quantile with ``n - 1`` degrees
of freedom (the normal quantile of the reference implementation, ``ppi_py``, covers 81–88% at 5 labels and
88–91% at 10 where this covers 90–93%; the two agree from a few hundred labels). ``lam = 1`` is plain PPI
(Angelopoulos et al., Science 2023), ``lam = 0`` the labels alone. When ``lam`` is not given it is the
reference estimator's choice (``ppi_py``'s ``_calc_lam_glm`` for the mean): ``Cov(Y, f) / ((1 + n/N) Var(f))``,
the covariance over the labelled samples (divided by ``n``) and the variance of the judge's scores pooled over
labelled and unlabelled samples, clipped to [0, 1]; since ``lam = 0`` is in the range, the interval is not
wider than the labels alone give, up to the noise of estimating ``lam`` (a judge that is noise gets ``lam``
near 0).

Fewer than :data:`MIN_LABELLED` labels are refused: the variance estimated from them is too unstable for any
interval of this family to hold (coverage measured by ``benchmarks/ppi_coverage.py``). Labels that are all equal
show no spread: the result says so (:attr:`CorrectedMean.note`), and when they all sit at 0 or at 1 the interval
is the exact bound such labels allow (a score in [0, 1] whose mean is ``m`` is 1 with probability at most ``m``,
so ``n`` ones in a row bound ``m`` below by ``(alpha/2)^(1/n)``).

Labels drawn by strata (``weights`` = inverse inclusion probabilities) are a design-based sample of the pool of
all samples (unlabelled and labelled): the judge's mean is then taken over the whole pool, the correction is the
Hajek-weighted mean of ``Y - lam f`` over the labelled samples, and its variance is the with-replacement
design variance (conservative: no finite-population correction) plus ``Var(Y)/pool`` for the pool itself.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from statistics import NormalDist

import numpy as np
from pydantic import BaseModel, ConfigDict, Field

from ..errors import ConfigurationError
from ._small import Estimate, exact_bound, t_quantile, widest

__all__ = ["MIN_LABELLED", "CorrectedMean", "Estimate", "LeftOut", "labels_needed", "ppi_mean"]

Numbers = Sequence[float] | np.ndarray

MIN_LABELLED = 10
"""Fewest labels for a corrected mean: with fewer, the interval covers the mean far less often than it says
(``benchmarks/ppi_coverage.py`` measures it at 5, 10, 20 and 50 labels)."""


class LeftOut(BaseModel):
    """Labelled samples that did not pair with a run, and why."""

    model_config = ConfigDict(frozen=True)

    reason: str
    """Why, in words: ``"their retrieved passages differ from this run's"``."""
    ids: list[str]
    """The ids of the samples left out for this reason."""

    def text(self) -> str:
        """One line: how many, why, and the first ids."""
        shown = ", ".join(repr(i) for i in self.ids[:3])
        more = f" and {len(self.ids) - 3} more" if len(self.ids) > 3 else ""
        count = len(self.ids)
        return f"{count} labelled sample{'' if count == 1 else 's'} left out: {self.reason} ({shown}{more})"


class CorrectedMean(BaseModel):
    """The judge's mean corrected by people's labels (PPI++), beside the two means it combines."""

    model_config = ConfigDict(frozen=True)

    mean: float
    """The corrected estimate of the mean people would give over every sample."""
    low: float
    """Lower end of the normal-approximation interval at ``confidence``."""
    high: float
    confidence: float = 0.95
    lam: float
    """How much of the judge's unlabelled scores the estimate uses: 0 the labels alone, 1 plain PPI."""
    n_labelled: int
    n_unlabelled: int
    classical: Estimate
    """The labels alone: their (weighted) mean and its normal interval. Unbiased, wider."""
    judge_only: Estimate
    """The judge alone over every sample: its mean and normal interval. Narrow, and off by the judge's bias,
    which the interval does not include."""
    weighted: bool = False
    """True when the labels carried inclusion weights (drawn by strata)."""
    metric: str | None = None
    """The metric corrected, when the mean comes from a run (:meth:`CalibrationResult.corrected`)."""
    not_paired: int = 0
    """Labelled samples left out: not in the run, not scored there, labelled on other content than the run
    judged, or without a label for this metric (each reason in :attr:`left_out`)."""
    left_out: list[LeftOut] = Field(default_factory=list)
    """The labelled samples left out, by reason."""
    note: str | None = None
    """What to know before trusting the interval, when something is: labels that are all equal."""

    @property
    def half_width(self) -> float:
        """Half the corrected interval's width."""
        return (self.high - self.low) / 2.0

    def describe(self) -> list[tuple[str, Estimate, str]]:
        """(name, estimate, what it means in one sentence) for the corrected, labels-only and judge-only means."""
        corrected = Estimate(mean=self.mean, low=self.low, high=self.high)
        pct = f"{self.confidence:.0%}"
        return [
            (
                "corrected",
                corrected,
                f"the judge's mean over {self.n_labelled + self.n_unlabelled} samples with its bias measured on "
                f"{self.n_labelled} labelled ones taken away (PPI++, lambda {self.lam:.2f}); its {pct} interval "
                "holds even when the judge is biased",
            ),
            (
                "labels only",
                self.classical,
                f"the mean of people's labels on the {self.n_labelled} labelled samples alone: unbiased, but its "
                "interval is as wide as that many labels allow",
            ),
            (
                "judge only",
                self.judge_only,
                "the judge's own mean: its interval counts sampling noise only, not the judge's bias, so it can "
                "be narrow and still miss what people would say",
            ),
        ]


def ppi_mean(
    unlabelled: Numbers,
    labelled_judge: Numbers,
    labelled_human: Numbers,
    *,
    confidence: float = 0.95,
    lam: float | None = None,
    weights: Numbers | None = None,
    min_labelled: int = MIN_LABELLED,
) -> CorrectedMean:
    """The mean of people's scores over all samples, from the judge's scores corrected by a few labels (PPI++).

    ``unlabelled`` are the judge's scores on samples nobody labelled; ``labelled_judge`` and ``labelled_human``
    the judge's and a person's scores on the labelled samples, in the same order. ``lam=None`` tunes lambda as
    the reference PPI++ estimator does (clipped to [0, 1]); ``lam=1`` is plain PPI, ``lam=0`` the labels alone.
    ``weights``, one per labelled sample, are the inverse of the probability with which each was drawn for
    labelling from the pool of all samples (see ``ragrecall label --strategy stratified``); without them the
    labelled samples are taken as a uniform random draw. The interval uses Student's quantile with ``n - 1``
    degrees of freedom at ``confidence``; labels all at 0 or all at 1 get the exact bound instead, and labels
    that are all equal are said in :attr:`CorrectedMean.note` (see the module docstring).

    ``min_labelled`` (default :data:`MIN_LABELLED`) is the fewest labels accepted; lowering it gives intervals
    that cover less than they say (the coverage table of the calibration guide shows how much).

    Raises:
        ConfigurationError: fewer labels than ``min_labelled`` (saying how many more are needed), mismatched
            lengths, a value that is not a finite number, ``lam`` outside [0, 1], ``confidence`` outside (0, 1),
            or a weight that is not positive.
    """
    f_u = _array(unlabelled, "unlabelled")
    f_l = _array(labelled_judge, "labelled_judge")
    y = _array(labelled_human, "labelled_human")
    if f_l.size != y.size:
        raise ConfigurationError(
            f"labelled_judge has {f_l.size} scores and labelled_human {y.size}; expected one of each per sample"
        )
    if isinstance(min_labelled, bool) or not isinstance(min_labelled, int) or min_labelled < 2:
        raise ConfigurationError(f"min_labelled must be a whole number of at least 2, got {min_labelled!r}")
    if y.size < min_labelled:
        raise ConfigurationError(
            f"a corrected mean needs at least {min_labelled} labelled samples, got {y.size}: label "
            f"{min_labelled - y.size} more (with fewer, the variance estimated from the labels is too unstable "
            "for the interval to cover the mean as often as it says)"
        )
    if not 0.0 < confidence < 1.0:
        raise ConfigurationError(f"confidence must be in (0, 1), got {confidence!r}")
    if lam is not None and not (isinstance(lam, (int, float)) and 0.0 <= lam <= 1.0):
        raise ConfigurationError(f"lam must be a number in [0, 1] or None, got {lam!r}")
    z = NormalDist().inv_cdf(0.5 + confidence / 2.0)
    t = t_quantile(0.5 + confidence / 2.0, y.size - 1)
    pool = np.concatenate([f_u, f_l])
    judge = _normal(float(pool.mean()), _var(pool) / pool.size, z)
    if weights is None:
        mean, var, used = _ppi(f_u, f_l, y, lam)
        classical = _normal(float(y.mean()), _var(y) / y.size, t)
    else:
        w = _array(weights, "weights")
        if w.size != y.size:
            raise ConfigurationError(f"weights has {w.size} values for {y.size} labelled samples; expected one each")
        if np.any(w <= 0):
            raise ConfigurationError("weights must be positive (the inverse of each label's inclusion probability)")
        mean, var, used = _weighted_ppi(pool, f_l, y, w / w.sum(), lam)
        _, var_y, _ = _weighted_ppi(pool, f_l, y, w / w.sum(), 0.0)
        classical = _normal(float(np.dot(w, y) / w.sum()), var_y, t)
    corrected = _normal(mean, var, t)
    note = None
    if np.all(y == y[0]):
        value = float(y[0])
        note = (
            f"all {y.size} labels are {value:g}: they show no spread, so the interval counts none of the labels' "
            "own noise"
        )
        if value in (0.0, 1.0):
            exact = exact_bound(value, y.size, confidence)
            corrected = widest(corrected, exact)
            classical = widest(classical, exact)
            note += f"; it is the exact bound for {y.size} labels all at {value:g} instead"
        else:
            note += "; label more samples before trusting it"
    return CorrectedMean(
        mean=mean,
        low=corrected.low,
        high=corrected.high,
        confidence=confidence,
        lam=used,
        n_labelled=int(y.size),
        n_unlabelled=int(f_u.size),
        classical=classical,
        judge_only=judge,
        weighted=weights is not None,
        note=note,
    )


def labels_needed(
    half_width: float,
    unlabelled: Numbers,
    labelled_judge: Numbers,
    labelled_human: Numbers,
    *,
    confidence: float = 0.95,
    weights: Numbers | None = None,
) -> int:
    """How many more labelled samples bring the corrected interval's half-width down to ``half_width``.

    Holds the variances and covariance measured on the labels so far (and, with ``weights``, their design
    effect, Kish's ``n Σw² / (Σw)²``) and finds the smallest added count whose tuned-lambda interval is at most
    ``half_width``; 0 when the labels so far already reach it. A plan, not a promise: the variances of the next
    labels will differ from these.

    Raises:
        ConfigurationError: ``half_width`` not positive, or the inputs :func:`ppi_mean` refuses.
    """
    if not (isinstance(half_width, (int, float)) and half_width > 0):
        raise ConfigurationError(f"the target half-width must be a positive number, got {half_width!r}")
    now = ppi_mean(unlabelled, labelled_judge, labelled_human, confidence=confidence, weights=weights)
    if now.half_width <= half_width:
        return 0
    f_u = _array(unlabelled, "unlabelled")
    f_l, y = _array(labelled_judge, "labelled_judge"), _array(labelled_human, "labelled_human")
    deff = 1.0
    if weights is not None:
        w = _array(weights, "weights")
        deff = float(y.size * np.dot(w, w) / w.sum() ** 2)
    v_u, v_l, v_y = _var(f_u), _var(f_l), _var(y)
    c = _cov(y, f_l)
    big_n = max(f_u.size, 1)

    def half(n: int) -> float:
        if f_u.size == 0:  # the labels alone
            return t_quantile(0.5 + confidence / 2.0, n - 1) * math.sqrt(v_y * deff / n)
        # The unlabelled pool shrinks as its samples are labelled; the variances per sample stay.
        rest = max(big_n - (n - y.size), 1)
        return t_quantile(0.5 + confidence / 2.0, n - 1) * math.sqrt(_tuned_variance(v_u / rest, v_l, v_y, c, n / deff))

    low, high = y.size, y.size + 1
    while half(high) > half_width:
        low, high = high, high * 2
        if high > 10**9:
            break
    while high - low > 1:
        mid = (low + high) // 2
        low, high = (mid, high) if half(mid) > half_width else (low, mid)
    return high - int(y.size)


def _ppi(f_u: np.ndarray, f_l: np.ndarray, y: np.ndarray, lam: float | None) -> tuple[float, float, float]:
    """(estimate, variance, lambda) of the unweighted PPI++ mean."""
    v_u = _var(f_u) / f_u.size if f_u.size else 0.0
    n = y.size
    v_l, v_y = _var(f_l), _var(y)
    c = _cov(y, f_l)
    if lam is None:
        lam = _reference_lambda(f_u, f_l, y)
    unlabelled_mean = float(f_u.mean()) if f_u.size else 0.0
    mean = lam * unlabelled_mean + float(np.mean(y - lam * f_l))
    return mean, _variance(lam, v_u, v_l, v_y, c, n), float(lam)


def _reference_lambda(f_u: np.ndarray, f_l: np.ndarray, y: np.ndarray) -> float:
    """Lambda as the reference PPI++ estimator chooses it for a mean: the covariance of people's and the judge's
    scores over the labelled samples (divided by ``n``) over ``(1 + n/N)`` times the variance of the judge's
    scores pooled over the labelled and unlabelled samples, clipped to [0, 1]; 0 without unlabelled samples."""
    n, big_n = y.size, f_u.size
    pooled = _var(np.concatenate([f_l, f_u]))
    if big_n == 0 or pooled <= 0:
        return 0.0  # nothing unlabelled to use, or a judge that gave one score to everything
    c = float(np.dot(y - y.mean(), f_l - f_l.mean()) / n)
    return float(min(1.0, max(0.0, c / ((1.0 + n / big_n) * pooled))))


def _tuned(v_u_over_n: float, v_l: float, c: float, n: float) -> float:
    """The lambda minimising ``lam² v_u/N + (v_y - 2 lam c + lam² v_l)/n``, clipped to [0, 1]."""
    denominator = v_u_over_n + v_l / n
    if denominator <= 0:
        return 0.0  # the judge gave one score to everything: it carries no information
    return float(min(1.0, max(0.0, (c / n) / denominator)))


def _variance(lam: float, v_u_over_n: float, v_l: float, v_y: float, c: float, n: float) -> float:
    return max(0.0, lam * lam * v_u_over_n + (v_y - 2.0 * lam * c + lam * lam * v_l) / n)


def _tuned_variance(v_u_over_n: float, v_l: float, v_y: float, c: float, n: float) -> float:
    return _variance(_tuned(v_u_over_n, v_l, c, n), v_u_over_n, v_l, v_y, c, n)


def _weighted_ppi(
    pool: np.ndarray, f_l: np.ndarray, y: np.ndarray, p: np.ndarray, lam: float | None
) -> tuple[float, float, float]:
    """(estimate, variance, lambda) when labels were drawn from ``pool`` with probabilities; ``p`` are the
    normalised inverse inclusion probabilities (summing to 1)."""
    y_w, f_w = float(np.dot(p, y)), float(np.dot(p, f_l))
    p2 = p * p
    if lam is None:
        v_f = float(np.dot(p2, (f_l - f_w) ** 2))
        c = float(np.dot(p2, (f_l - f_w) * (y - y_w)))
        lam = float(min(1.0, max(0.0, c / v_f))) if v_f > 0 else 0.0
    residual = y - lam * f_l
    r_w = float(np.dot(p, residual))
    mean = lam * float(pool.mean()) + r_w
    design = float(np.dot(p2, (residual - r_w) ** 2))
    var_y = float(np.dot(p, (y - y_w) ** 2))
    return mean, design + var_y / pool.size, float(lam)


def _normal(mean: float, variance: float, z: float) -> Estimate:
    half = z * math.sqrt(max(variance, 0.0))
    return Estimate(mean=mean, low=mean - half, high=mean + half)


def _var(values: np.ndarray) -> float:
    """The unbiased sample variance (0 for fewer than two values)."""
    return float(values.var(ddof=1)) if values.size > 1 else 0.0


def _cov(a: np.ndarray, b: np.ndarray) -> float:
    """The unbiased sample covariance."""
    return float(np.dot(a - a.mean(), b - b.mean()) / (a.size - 1))


def _array(values: Numbers, name: str) -> np.ndarray:
    try:
        arr = np.asarray(values, dtype=np.float64).reshape(-1)
    except (TypeError, ValueError) as exc:
        raise ConfigurationError(f"{name} must be a sequence of numbers: {exc}") from exc
    if not np.all(np.isfinite(arr)):
        bad = int(np.flatnonzero(~np.isfinite(arr))[0])
        raise ConfigurationError(f"{name}[{bad}] is {float(arr[bad])}; expected a finite number")
    return arr
