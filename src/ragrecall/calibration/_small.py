"""Small label sets: Student's t quantile (numpy only) for the corrected interval, and the exact bound for labels
that all sit at 0 or at 1."""

from __future__ import annotations

import functools
import math

import numpy as np
from pydantic import BaseModel, ConfigDict

__all__ = ["Estimate", "exact_bound", "t_quantile", "widest"]


class Estimate(BaseModel):
    """A mean with its interval."""

    model_config = ConfigDict(frozen=True)

    mean: float
    low: float
    high: float

    @property
    def half_width(self) -> float:
        """Half the interval's width."""
        return (self.high - self.low) / 2.0


@functools.lru_cache(maxsize=256)
def t_quantile(p: float, df: int) -> float:
    """Student's t quantile at ``p`` (in (0.5, 1)) with ``df`` degrees of freedom, by bisection on its
    distribution function integrated numerically (numpy only; within 1e-6 of scipy's for ``df`` >= 1)."""
    log_c = math.lgamma((df + 1) / 2) - math.lgamma(df / 2) - 0.5 * math.log(df * math.pi)

    def cdf(x: float) -> float:
        grid = np.linspace(0.0, x, 4001)
        density = np.exp(log_c - (df + 1) / 2 * np.log1p(grid * grid / df))
        h = x / 4000
        simpson = h / 3 * (density[0] + density[-1] + 4 * density[1:-1:2].sum() + 2 * density[2:-1:2].sum())
        return 0.5 + float(simpson)

    low, high = 0.0, 1.0
    while cdf(high) < p:
        low, high = high, high * 2
    for _ in range(60):
        mid = (low + high) / 2
        low, high = (mid, high) if cdf(mid) < p else (low, mid)
    return (low + high) / 2


def exact_bound(value: float, n: int, confidence: float) -> Estimate:
    """The interval for the mean of a score in [0, 1] when all ``n`` labels are ``value`` (0 or 1)."""
    reach = 1.0 - ((1.0 - confidence) / 2.0) ** (1.0 / n)
    if value == 1.0:
        return Estimate(mean=1.0, low=1.0 - reach, high=1.0)
    return Estimate(mean=0.0, low=0.0, high=reach)


def widest(estimate: Estimate, bound: Estimate) -> Estimate:
    """The interval covering both."""
    return Estimate(mean=estimate.mean, low=min(estimate.low, bound.low), high=max(estimate.high, bound.high))
