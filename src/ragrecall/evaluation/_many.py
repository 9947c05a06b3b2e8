"""Several systems at once: every pair compared on one metric (paired randomisation test, bootstrap interval),
the p-values adjusted for the number of pairs by Holm's method, and a paired effect size with its interval."""

from __future__ import annotations

import math
from collections.abc import Sequence
from itertools import combinations

import numpy as np
from pydantic import BaseModel, ConfigDict

from ..errors import InputError
from ._compare import Comparison, compare, paired_values
from ._result import EvaluationResult

__all__ = ["ALPHA", "PAIR_HEADINGS", "PairComparison", "best_system", "compare_many", "effect_size", "holm"]

PAIR_HEADINGS = (
    "A",
    "B",
    "paired",
    "mean A",
    "mean B",
    "B − A",
    "95% CI",
    "p",
    "p (Holm)",
    "d_z",
    "d_z 95% CI",
    "B against A",
)
"""The columns of :meth:`PairComparison.cells`."""

ALPHA = 0.05
"""The family-wise level of the verdicts: a pair differs when its Holm-adjusted p-value is below it."""

_RESAMPLES = 2000
_FLAT = 1e-12
"""A standard deviation this small is float noise around equal differences: no effect size is defined."""


class PairComparison(BaseModel):
    """System B against system A on one metric, as one of several pairs."""

    model_config = ConfigDict(frozen=True)

    a: str
    """Name of system A."""
    b: str
    comparison: Comparison
    """B − A: means, the paired bootstrap interval of the difference and the randomisation p-value."""
    p_holm: float | None
    """The p-value adjusted by Holm's step-down method over every pair of this metric (family-wise error)."""
    effect: float | None
    """Paired effect size, Cohen's d_z: mean of (B − A) over their standard deviation; None when the differences
    are all equal (or fewer than two pairs)."""
    effect_low: float | None = None
    """95% percentile bootstrap interval of ``effect`` (2,000 resamples of the pairs, seed 0)."""
    effect_high: float | None = None

    def cells(self) -> list[str]:
        """The pair as text cells, in the order of :data:`PAIR_HEADINGS` ("-" where a figure is undefined)."""
        c = self.comparison

        def interval(low: float | None, high: float | None, spec: str) -> str:
            return f"[{low:{spec}}, {high:{spec}}]" if low is not None and high is not None else "-"

        def number(value: float | None, spec: str) -> str:
            return format(value, spec) if value is not None else "-"

        return [
            self.a,
            self.b,
            str(c.paired),
            number(c.mean_a, ".4f"),
            number(c.mean_b, ".4f"),
            number(c.mean_difference, "+.4f"),
            interval(c.ci_low, c.ci_high, "+.4f"),
            number(c.p_value, ".4f"),
            number(self.p_holm, ".4f"),
            number(self.effect, "+.2f"),
            interval(self.effect_low, self.effect_high, "+.2f"),
            self.verdict(),
        ]

    def verdict(self, alpha: float = ALPHA) -> str:
        """B against A at the Holm-adjusted level ``alpha``: ``"better"`` or ``"worse"`` when the adjusted
        p-value is below it (by the sign of B − A), else ``"no difference"`` (none shown at that level: not
        proof that the two are equal)."""
        c = self.comparison
        if self.p_holm is None or c.mean_difference is None or self.p_holm >= alpha or c.mean_difference == 0:
            return "no difference"
        return "better" if c.mean_difference > 0 else "worse"


def best_system(pairs: Sequence[PairComparison], alpha: float = ALPHA) -> str | None:
    """The system better than every other one at the Holm-adjusted level ``alpha`` (each of its pairs says so),
    or None when no system is."""
    systems = list(dict.fromkeys(name for p in pairs for name in (p.a, p.b)))
    for system in systems:
        mine = [p for p in pairs if system in (p.a, p.b)]
        wins = [p.verdict(alpha) == ("better" if p.b == system else "worse") for p in mine]
        if mine and len(mine) == len(systems) - 1 and all(wins):
            return system
    return None


def holm(p_values: Sequence[float | None]) -> list[float | None]:
    """Holm's step-down adjustment: the i-th smallest of m p-values becomes ``max over j ≤ i of (m − j + 1) p_(j)``,
    capped at 1; None (no test) stays None and does not count in m."""
    tested = sorted((p, i) for i, p in enumerate(p_values) if p is not None)
    m = len(tested)
    out: list[float | None] = [None] * len(p_values)
    running = 0.0
    for rank, (p, i) in enumerate(tested):
        running = max(running, min(1.0, (m - rank) * p))
        out[i] = running
    return out


def effect_size(differences: np.ndarray, *, seed: int = 0) -> tuple[float | None, float | None, float | None]:
    """Cohen's d_z of paired differences and its percentile bootstrap interval (resampling pairs)."""
    n = differences.size
    if n < 2:
        return None, None, None
    sd = float(differences.std(ddof=1))
    if sd <= _FLAT or not math.isfinite(sd):
        return None, None, None
    d = float(differences.mean()) / sd
    rng = np.random.default_rng(seed)
    drawn = differences[rng.integers(0, n, size=(_RESAMPLES, n))]
    spread = drawn.std(axis=1, ddof=1)
    with np.errstate(divide="ignore", invalid="ignore"):
        resampled = np.where(spread > _FLAT, drawn.mean(axis=1) / spread, np.nan)
    finite = resampled[np.isfinite(resampled)]
    if finite.size * 2 < _RESAMPLES:
        return d, None, None
    low, high = np.quantile(finite, [0.025, 0.975])
    return d, float(low), float(high)


def compare_many(results: Sequence[EvaluationResult], names: Sequence[str], metric: str) -> list[PairComparison]:
    """Every pair (A before B in the order given) of ``results`` compared on ``metric``, as :func:`compare`
    compares two, with Holm-adjusted p-values over the pairs and paired effect sizes.

    Raises:
        InputError: fewer than two runs, names not one per run, or two runs that cannot be paired.
        KeyError: a run has no such metric.
    """
    if len(results) < 2 or len(names) != len(results):
        raise InputError(f"compare_many needs two or more runs with one name each, got {len(results)} runs")
    pairs = []
    for i, j in combinations(range(len(results)), 2):
        comparison = compare(results[i], results[j], metric)
        va, vb = paired_values(results[i], results[j], metric)
        effect, low, high = effect_size(vb - va)
        pairs.append((names[i], names[j], comparison, effect, low, high))
    adjusted = holm([c.p_value for _, _, c, _, _, _ in pairs])
    return [
        PairComparison(a=a, b=b, comparison=c, p_holm=p, effect=d, effect_low=low, effect_high=high)
        for (a, b, c, d, low, high), p in zip(pairs, adjusted, strict=True)
    ]
