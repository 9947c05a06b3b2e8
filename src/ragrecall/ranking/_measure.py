"""What a measure is: a small, hashable value object naming a formula and its parameters.

A measure knows its name, its parameters and how to compute its per-query values from a :class:`Ranked`; it
knows nothing about files, dicts or samples. ``nDCG@10``, ``Recall(rel=2)@100`` and ``F(beta=2)@5`` are
written in Python exactly as in the strings :func:`ragrecall.ranking.parse_measure` reads.
"""

from __future__ import annotations

import dataclasses
import math
from abc import ABC, abstractmethod
from typing import Any, ClassVar, TypeVar

import numpy as np
from numpy.typing import NDArray

from ..errors import ConfigurationError
from ._aggregate import aggregate
from ._ranked import Ranked

__all__ = ["Measure", "RelMeasure", "check_rel"]

M = TypeVar("M", bound="Measure")


@dataclasses.dataclass(frozen=True)
class Measure(ABC):
    """Base of every ranking measure.

    Subclasses are frozen dataclasses: their fields are their parameters, ``cutoff`` first. Instances are
    hashable and compare by value, so they can key dicts of results. ``measure @ k`` sets the cutoff and
    ``measure(param=value)`` any other parameter; both return a new measure.
    """

    cutoff: int | None = None
    """Look at the first ``cutoff`` positions only; None looks at the whole ranking."""

    NAME: ClassVar[str] = ""
    """The name used in measure strings, e.g. ``"nDCG"``."""
    CUTOFF: ClassVar[str] = "optional"
    """``"optional"``, ``"required"`` or ``"none"`` (the measure takes no cutoff)."""
    AGGREGATE: ClassVar[str] = "mean"
    """How per-query values make the value over all queries: ``"mean"`` (arithmetic), ``"sum"`` (counts such
    as ``NumRet``) or ``"gmean"`` (geometric mean with values floored at 1e-5, trec_eval's ``gm_map``)."""
    INTEGER: ClassVar[bool] = False
    """True for counts, which trec_eval prints as integers."""
    BOUNDED: ClassVar[bool] = True
    """True when every value lies in [0, 1]; False for counts and ``Utility``, which a
    :class:`~ragrecall.RankingMetric` refuses (a metric's value is a score in [0, 1])."""
    AT: ClassVar[str] = "cutoff"
    """The field that ``@`` sets: the cutoff for most measures, the recall level for ``IPrec@0.5``."""

    def __post_init__(self) -> None:
        if self.cutoff is not None:
            if isinstance(self.cutoff, bool) or not isinstance(self.cutoff, int) or self.cutoff < 1:
                raise ConfigurationError(f"{self.NAME}: the cutoff must be a positive integer, got {self.cutoff!r}")
            if self.CUTOFF == "none":
                raise ConfigurationError(f"{self.NAME} takes no cutoff, got @{self.cutoff}")
        self._validate()

    def _validate(self) -> None:  # noqa: B027 - optional hook, most measures only check rel
        """Check the parameters; raise ConfigurationError saying what was given and what was expected."""

    def __matmul__(self: M, value: Any) -> M:
        return dataclasses.replace(self, **{self.AT: value})

    def __call__(self: M, **params: Any) -> M:
        names = {f.name for f in dataclasses.fields(self)} - {"cutoff", self.AT}
        unknown = sorted(set(params) - names)
        if unknown:
            known = ", ".join(sorted(names)) or "none"
            raise ConfigurationError(f"{self.NAME} has no parameter {unknown[0]!r}; its parameters: {known}")
        return dataclasses.replace(self, **params)

    def params(self) -> dict[str, Any]:
        """The parameters other than the cutoff whose value differs from the default."""
        out: dict[str, Any] = {}
        for f in dataclasses.fields(self):
            if f.name not in ("cutoff", self.AT) and getattr(self, f.name) != f.default:
                out[f.name] = getattr(self, f.name)
        return out

    def __str__(self) -> str:
        text = self.NAME
        params = self.params()
        if params:
            text += "(" + ",".join(f"{k}={_format_value(v)}" for k, v in sorted(params.items())) + ")"
        at = getattr(self, self.AT)
        if at is not None:
            text += f"@{_format_value(at)}"
        return text

    def __repr__(self) -> str:
        return str(self)

    def check_usable(self) -> None:
        """Raise ConfigurationError when the measure cannot be computed as configured (e.g. a missing cutoff)."""
        if self.CUTOFF == "required" and self.cutoff is None:
            raise ConfigurationError(f"{self.NAME} needs a cutoff, e.g. {self.NAME}@10")

    @abstractmethod
    def compute(self, ranked: Ranked) -> NDArray[np.float64]:
        """Per-query values, one per query of ``ranked`` (in [0, 1] unless the measure says otherwise)."""

    def aggregate(self, values: NDArray[np.float64]) -> float:
        """The value over all queries, from the per-query ``values`` (0 when there are none).

        Summed in query order, as trec_eval sums, so the printed digits agree with it.
        """
        return aggregate(self.AGGREGATE, values.tolist())


@dataclasses.dataclass(frozen=True, repr=False)
class RelMeasure(Measure, ABC):
    """A measure with a relevance threshold: a document is relevant when its grade is >= ``rel``."""

    rel: int = 1
    """The lowest grade that counts as relevant (>= 1)."""

    def _validate(self) -> None:
        check_rel(self.NAME, self.rel)


def check_rel(name: str, rel: Any) -> None:
    """Validate a relevance threshold: an integer >= 1."""
    if isinstance(rel, bool) or not isinstance(rel, int) or rel < 1:
        raise ConfigurationError(f"{name}: rel must be an integer >= 1 (the lowest relevant grade), got {rel!r}")


def _format_value(value: Any) -> str:
    if isinstance(value, tuple):  # a list parameter, written quoted so that parse_measure reads it back
        items = (
            "=".join(_format_value(v) for v in item) if isinstance(item, tuple) else _format_value(item)
            for item in value
        )
        return "'" + ",".join(items) + "'"
    if isinstance(value, float):
        if math.isfinite(value) and value == int(value):
            return str(int(value))
        return repr(value)
    if isinstance(value, str):
        return value
    return str(value)
