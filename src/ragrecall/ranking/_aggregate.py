"""A measure's value over all queries from its per-query values, summed in query order as trec_eval sums.

Plain Python, no numpy: the small ``trec`` path (:mod:`.small_run`) and every :class:`~._measure.Measure` use it,
so both print the same digits.
"""

from __future__ import annotations

import math
from collections.abc import Iterable

__all__ = ["GM_FLOOR", "aggregate"]

GM_FLOOR = 1e-5
"""trec_eval's MIN_GEO_MEAN: per-query values below it count as it in a geometric mean."""


def aggregate(kind: str, values: Iterable[float]) -> float:
    """The value over all queries: ``kind`` ``"mean"`` (arithmetic), ``"sum"`` (counts) or ``"gmean"``
    (geometric mean with values floored at :data:`GM_FLOOR`); 0 when there are no values. Values are added one
    at a time in the order given."""
    total = 0.0
    count = 0
    if kind == "gmean":
        for v in values:
            total += math.log(max(v, GM_FLOOR))
            count += 1
        return math.exp(total / count) if count else 0.0
    for v in values:
        total += v
        count += 1
    if kind == "sum" or not count:
        return total
    return total / count
