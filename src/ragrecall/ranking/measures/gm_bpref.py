"""Geometric mean of binary preference."""

from __future__ import annotations

import dataclasses
from typing import ClassVar

import numpy as np
from numpy.typing import NDArray

from .._measure import RelMeasure
from .._ranked import Ranked
from .bpref import BinaryPreference

__all__ = ["GMBpref", "GeometricBpref"]


@dataclasses.dataclass(frozen=True, repr=False)
class GeometricBpref(RelMeasure):
    """``GMBpref = exp(mean(log(max(Bpref, 1e-5))))``: :class:`~.bpref.BinaryPreference` per query, combined
    over queries by the geometric mean with values floored at 1e-5, as ``GMAP`` combines average precision.

    trec_eval's ``gm_bpref`` (printed for the summary only). Takes no cutoff.

    Cite: Buckley and Voorhees, "Retrieval Evaluation with Incomplete Information", SIGIR 2004; Robertson,
    "On GMAP: and other transformations", CIKM 2006.
    """

    NAME: ClassVar[str] = "GMBpref"
    CUTOFF: ClassVar[str] = "none"
    AGGREGATE: ClassVar[str] = "gmean"

    def compute(self, ranked: Ranked) -> NDArray[np.float64]:
        return BinaryPreference(rel=self.rel).compute(ranked)


GMBpref = GeometricBpref()
"""Geometric mean of bpref; ``GMBpref``."""
