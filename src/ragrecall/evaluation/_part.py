"""A part of a larger dataset: what a distributed run gives each scorer to place its samples in the whole."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from ..results import MetricResult

__all__ = ["Part"]


@dataclass(frozen=True)
class Part:
    """Samples that are part of a larger dataset (a block of a distributed run)."""

    places: Sequence[int]
    """Each sample's index in the whole dataset, in the order the samples are given."""
    done: Mapping[tuple[int, str], MetricResult] = field(default_factory=dict)
    """Results already finished, keyed by (position among the given samples, metric name): kept, not scored
    again."""
