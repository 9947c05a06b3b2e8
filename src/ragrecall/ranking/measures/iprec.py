"""Interpolated precision at a recall level."""

from __future__ import annotations

import dataclasses
import math
from typing import ClassVar

import numpy as np
from numpy.typing import NDArray

from ...errors import ConfigurationError
from .._measure import RelMeasure
from .._ranked import Ranked, first_index_of_group
from ._walk import pick, suffix_max

__all__ = ["IPrec", "InterpolatedPrecision", "interpolated_precision"]


@dataclasses.dataclass(frozen=True, repr=False)
class InterpolatedPrecision(RelMeasure):
    """``IPrec@r``: the highest precision reached at or after the rank where recall first reaches r.

    The recall level r is turned into a number of relevant documents ``c = round(r · R)`` (halves rounded up, as
    trec_eval 10 rounds); the value is ``max_{j >= max(c, 1)} j / rank_j`` over the relevant documents retrieved
    (the j-th at ``rank_j``), 0 when fewer than c were retrieved. trec_eval's ``iprec_at_recall_r``; ``@`` sets
    the recall level, not a cutoff. Relevant means grade >= ``rel``.

    Cite: Manning, Raghavan and Schütze, *Introduction to Information Retrieval* (2008), section 8.4.
    """

    recall: float | None = None
    """The recall level, in [0, 1]."""
    NAME: ClassVar[str] = "IPrec"
    CUTOFF: ClassVar[str] = "none"
    AT: ClassVar[str] = "recall"

    def _validate(self) -> None:
        super()._validate()
        r = self.recall
        if r is None:
            return
        if isinstance(r, bool) or not isinstance(r, (int, float)) or not math.isfinite(r) or not 0 <= r <= 1:
            raise ConfigurationError(f"IPrec: the recall level must be a number in [0, 1], got {r!r}")
        object.__setattr__(self, "recall", float(r))

    def check_usable(self) -> None:
        if self.recall is None:
            raise ConfigurationError("IPrec needs a recall level, e.g. IPrec@0.5")

    def compute(self, ranked: Ranked) -> NDArray[np.float64]:
        self.check_usable()
        return interpolated_precision(ranked, self.rel, [float(self.recall or 0.0)])[0]


def interpolated_precision(ranked: Ranked, rel: int, recalls: list[float]) -> list[NDArray[np.float64]]:
    """Per recall level: per query, the interpolated precision at that level (see :class:`InterpolatedPrecision`)."""
    relevant = ranked.hit_grade >= rel
    query = ranked.hit_query[relevant]
    nth = (np.arange(len(query), dtype=np.int64) - first_index_of_group(query) + 1).astype(np.float64)
    best = suffix_max(query, nth / ranked.hit_pos[relevant])
    found = np.bincount(query, minlength=ranked.n_queries)
    num_rel = ranked.num_rel(rel)
    out = []
    for r in recalls:
        wanted = np.floor(r * num_rel + 0.5).astype(np.int64)
        value = pick(query, best, np.maximum(wanted, 1), ranked.n_queries)
        value[wanted > found] = 0.0
        out.append(value)
    return out


IPrec = InterpolatedPrecision()
"""Interpolated precision; ``IPrec@0.5``."""
