"""Geometric mean average precision."""

from __future__ import annotations

import dataclasses
from typing import ClassVar

import numpy as np
from numpy.typing import NDArray

from .._measure import RelMeasure
from .._ranked import Ranked
from .ap import AveragePrecision

__all__ = ["GMAP", "GeometricMAP"]


@dataclasses.dataclass(frozen=True, repr=False)
class GeometricMAP(RelMeasure):
    """``GMAP``: average precision per query (as :class:`~.ap.AveragePrecision`), combined over queries by the
    geometric mean, each value floored at 1e-5: ``exp(mean(log(max(AP, 1e-5))))``. Rewards runs that do
    consistently well over runs that do very well on some queries and badly on others.

    trec_eval's ``gm_map`` (printed for the summary only). Relevant means grade >= ``rel``.

    Cite: Robertson, "On GMAP: and other transformations", CIKM 2006.
    """

    NAME: ClassVar[str] = "GMAP"
    AGGREGATE: ClassVar[str] = "gmean"

    def compute(self, ranked: Ranked) -> NDArray[np.float64]:
        return AveragePrecision(cutoff=self.cutoff, rel=self.rel).compute(ranked)


GMAP = GeometricMAP()
"""Geometric mean average precision; ``GMAP``."""
