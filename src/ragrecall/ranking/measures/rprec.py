"""R-precision: precision at R, the number of relevant documents."""

from __future__ import annotations

import dataclasses
import math
from typing import ClassVar

import numpy as np
from numpy.typing import NDArray

from ...errors import ConfigurationError
from .._measure import RelMeasure
from .._ranked import Ranked, safe_divide

__all__ = ["RPrecision", "Rprec"]


@dataclasses.dataclass(frozen=True, repr=False)
class RPrecision(RelMeasure):
    """R-precision: ``Rprec = |relevant in the first R| / R`` with R the number of relevant documents.

    0 when R = 0 (trec_eval's ``Rprec``). With ``mult`` = m, precision at ``c = floor(m · R + 0.9)`` documents
    instead, the denominator being c even when fewer were retrieved, 0 when c = 0 (trec_eval's
    ``Rprec_mult_m``; ``Rprec(mult=1)`` is ``Rprec``). Takes no cutoff. Relevant means grade >= ``rel``.

    Cite: Buckley and Voorhees, "Evaluating Evaluation Measure Stability", SIGIR 2000.
    """

    mult: float = 1.0
    """The multiple of R at which precision is taken."""
    NAME: ClassVar[str] = "Rprec"
    CUTOFF: ClassVar[str] = "none"

    def _validate(self) -> None:
        super()._validate()
        m = self.mult
        if isinstance(m, bool) or not isinstance(m, (int, float)) or not math.isfinite(m) or m <= 0:
            raise ConfigurationError(f"Rprec: mult must be a positive number, got {m!r}")
        object.__setattr__(self, "mult", float(m))

    def compute(self, ranked: Ranked) -> NDArray[np.float64]:
        num_rel = ranked.num_rel(self.rel)
        depth = num_rel if self.mult == 1.0 else np.floor(self.mult * num_rel + 0.9)
        mask = ranked.hit_mask(self.rel, None)
        mask &= ranked.hit_pos <= depth[ranked.hit_query]
        return safe_divide(ranked.per_query_sum(mask), depth)


Rprec = RPrecision()
"""R-precision; ``Rprec``, ``Rprec(mult=2)``."""
