"""Set utility: a weighted count of what was and was not retrieved."""

from __future__ import annotations

import dataclasses
import math
from typing import ClassVar

import numpy as np
from numpy.typing import NDArray

from ...errors import ConfigurationError
from .._measure import RelMeasure
from .._ranked import Ranked

__all__ = ["Utility", "UtilityMeasure"]


@dataclasses.dataclass(frozen=True, repr=False)
class UtilityMeasure(RelMeasure):
    """``Utility = a·(relevant retrieved) + b·(non-relevant retrieved) + c·(relevant missed) + d·(non-relevant
    not retrieved)``, the last count being ``n_docs + relevant retrieved − retrieved − relevant`` (give the
    collection size ``n_docs`` when d is not 0). Not normalised; averaged over queries.

    trec_eval's ``utility`` (default 1, −1, 0, 0; ``utility.2,-1,0,0`` is ``Utility(a=2)``; ``n_docs`` is its
    ``-N``). Relevant means grade >= ``rel``. Takes no cutoff.

    Cite: Lewis, "The TREC-4 Filtering Track", TREC-4 (1995); Hull, "The TREC-7 Filtering Track", TREC-7.
    """

    a: float = 1.0
    b: float = -1.0
    c: float = 0.0
    d: float = 0.0
    n_docs: int = 0
    """Documents in the collection (only the ``d`` term needs it)."""
    NAME: ClassVar[str] = "Utility"
    BOUNDED: ClassVar[bool] = False
    CUTOFF: ClassVar[str] = "none"

    def _validate(self) -> None:
        super()._validate()
        for name in ("a", "b", "c", "d"):
            v = getattr(self, name)
            if isinstance(v, bool) or not isinstance(v, (int, float)) or not math.isfinite(v):
                raise ConfigurationError(f"Utility: {name} must be a finite number, got {v!r}")
            object.__setattr__(self, name, float(v))
        n = self.n_docs
        if isinstance(n, bool) or not isinstance(n, int) or n < 0:
            raise ConfigurationError(f"Utility: n_docs must be an integer >= 0, got {n!r}")

    def compute(self, ranked: Ranked) -> NDArray[np.float64]:
        rel_ret = ranked.per_query_sum(ranked.hit_mask(self.rel, None))
        ret = ranked.n_ret.astype(np.float64)
        num_rel = ranked.num_rel(self.rel)
        return (
            self.a * rel_ret
            + self.b * (ret - rel_ret)
            + self.c * (num_rel - rel_ret)
            + self.d * (self.n_docs + rel_ret - ret - num_rel)
        )


Utility = UtilityMeasure()
"""Set utility; ``Utility``, ``Utility(a=2,b=-1)``."""
