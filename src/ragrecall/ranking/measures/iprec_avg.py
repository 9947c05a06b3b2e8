"""Interpolated precision averaged over recall levels (the 11-point average)."""

from __future__ import annotations

import dataclasses
import math
from typing import Any, ClassVar

import numpy as np
from numpy.typing import NDArray

from ...errors import ConfigurationError
from .._measure import RelMeasure
from .._ranked import Ranked
from .iprec import interpolated_precision

__all__ = ["IPrecAvg", "InterpolatedPrecisionAverage"]

ELEVEN_POINTS = (0.0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1.0)


@dataclasses.dataclass(frozen=True, repr=False)
class InterpolatedPrecisionAverage(RelMeasure):
    """``IPrecAvg``: the mean of ``IPrec@r`` over the recall levels ``recalls`` (by default the 11 points 0,
    0.1, ..., 1). An old estimate of the area under the recall-precision curve; AP is the better one.

    trec_eval's ``11pt_avg`` (``11pt_avg.0.2,0.5,0.8`` is ``IPrecAvg(recalls=(0.2,0.5,0.8))``). Relevant
    means grade >= ``rel``. Takes no cutoff.

    Cite: Salton and McGill, *Introduction to Modern Information Retrieval* (1983); Manning et al. (2008) 8.4.
    """

    recalls: Any = ELEVEN_POINTS
    """The recall levels averaged over, each in [0, 1]: a tuple of numbers, or a string ``"0.2,0.5,0.8"``."""
    NAME: ClassVar[str] = "IPrecAvg"
    CUTOFF: ClassVar[str] = "none"

    def _validate(self) -> None:
        super()._validate()
        values = self.recalls
        if isinstance(values, str):
            try:
                values = tuple(float(v) for v in values.split(","))
            except ValueError:
                raise ConfigurationError(
                    f"IPrecAvg: recalls are numbers such as '0.2,0.5,0.8', got {values!r}"
                ) from None
        if isinstance(values, (int, float)) and not isinstance(values, bool):
            values = (values,)
        if not isinstance(values, (tuple, list)) or not values:
            raise ConfigurationError(f"IPrecAvg: recalls must be a non-empty list of numbers, got {self.recalls!r}")
        for r in values:
            if isinstance(r, bool) or not isinstance(r, (int, float)) or not math.isfinite(r) or not 0 <= r <= 1:
                raise ConfigurationError(f"IPrecAvg: each recall level must be a number in [0, 1], got {r!r}")
        object.__setattr__(self, "recalls", tuple(float(r) for r in values))

    def compute(self, ranked: Ranked) -> NDArray[np.float64]:
        total = np.zeros(ranked.n_queries, dtype=np.float64)
        for value in interpolated_precision(ranked, self.rel, list(self.recalls)):
            total += value
        return total / len(self.recalls)


IPrecAvg = InterpolatedPrecisionAverage()
"""11-point interpolated average precision; ``IPrecAvg``."""
