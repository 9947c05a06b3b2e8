"""F-measure: the weighted harmonic mean of precision and recall."""

from __future__ import annotations

import dataclasses
import math
from typing import ClassVar

import numpy as np
from numpy.typing import NDArray

from ...errors import ConfigurationError
from .._measure import RelMeasure
from .._ranked import Ranked, safe_divide
from .precision import Precision
from .recall import RecallMeasure

__all__ = ["F", "FMeasure"]


@dataclasses.dataclass(frozen=True, repr=False)
class FMeasure(RelMeasure):
    """F-measure at k: ``F_beta@k = (1 + beta²)·P·R / (beta²·P + R)``, 0 when P = R = 0.

    P is ``P@k`` (denominator k) and R is ``Recall@k``; without a cutoff they are the set precision and set
    recall. ``beta`` > 1 weighs recall more. trec_eval's ``set_F.x`` takes x = beta², so ``F(beta=2)``
    equals ``set_F.4``. Relevant means grade >= ``rel``.

    Cite: van Rijsbergen, *Information Retrieval*, 2nd ed. (1979), chapter 7.
    """

    beta: float = 1.0
    NAME: ClassVar[str] = "F"

    def _validate(self) -> None:
        super()._validate()
        beta = self.beta
        if isinstance(beta, bool) or not isinstance(beta, (int, float)) or not math.isfinite(beta) or beta <= 0:
            raise ConfigurationError(f"F: beta must be a positive number, got {beta!r}")
        object.__setattr__(self, "beta", float(beta))

    def compute(self, ranked: Ranked) -> NDArray[np.float64]:
        precision = Precision(cutoff=self.cutoff, rel=self.rel).compute(ranked)
        recall = RecallMeasure(cutoff=self.cutoff, rel=self.rel).compute(ranked)
        x = self.beta * self.beta
        return safe_divide((x + 1.0) * precision * recall, x * precision + recall)


F = FMeasure()
"""F-measure; ``F@10``, ``F(beta=2)@5``."""
