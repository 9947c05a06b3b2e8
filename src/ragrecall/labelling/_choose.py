"""Which samples to label: a uniform random draw, or a draw across strata the judge's evidence already gives
(verification level, vote agreement, score band) with Neyman allocation, each chosen sample carrying the
probability with which it was drawn."""

from __future__ import annotations

import math
from collections import Counter, defaultdict
from typing import Literal

import numpy as np
from pydantic import BaseModel, ConfigDict

from ..errors import ConfigurationError, InputError
from ..evaluation import EvaluationResult, SampleRow
from ..results import Evidence

__all__ = ["BANDS", "Chosen", "Strategy", "choose", "claim_metric", "stratum_of"]

Strategy = Literal["random", "stratified"]

BANDS = ((0.0, "low"), (1 / 3, "middle"), (2 / 3, "high"))
"""Score bands by the judge's value: [0, 1/3) low, [1/3, 2/3) middle, [2/3, 1] high."""

_SPREAD_FLOOR = 0.1
"""Least spread assumed for a stratum in Neyman allocation, so that no stratum is left unlabelled because the
judge happened to give its samples one score."""


class Chosen(BaseModel):
    """A sample drawn for labelling."""

    model_config = ConfigDict(frozen=True)

    index: int
    """0-based position of the sample in the results."""
    sample_id: str | int
    stratum: str
    """``level/agreement/band`` for a stratified draw, ``all`` for a random one."""
    inclusion_probability: float | None
    """The probability with which the sample was drawn (stratified draws); None for a uniform random draw."""


def claim_metric(result: EvaluationResult, metric: str | None = None) -> str:
    """The metric whose claims are labelled: ``metric``, else the first of the run whose evidence has items people
    label one by one (claims, nuggets: :meth:`~ragrecall.results.Evidence.labelled_items`).

    Raises:
        InputError: the run has no such metric, or none that judges claims.
    """
    if metric is not None:
        if metric not in result.metrics:
            raise InputError(f"the results have no metric {metric!r}; they have {', '.join(result.metrics) or 'none'}")
        return metric
    for name in result.metrics:
        if any(r.evidence is not None and r.evidence.labelled_items() is not None for r in result.results(name)):
            return name
    raise InputError(
        f"no metric of the results judges claims (they have {', '.join(result.metrics) or 'none'}); label a run of "
        "context_recall or nugget_recall"
    )


def stratum_of(evidence: Evidence, value: float) -> str:
    """The sample's stratum: the verification level most of its claims have (ties by name; levels are taken
    as plain strings, so new levels need no change here), whether every claim's votes agreed, and the band of
    the judge's value."""
    items = evidence.labelled_items() or []
    levels = Counter(c.verification for c in items)
    level = min(levels, key=lambda name: (-levels[name], name)) if levels else "none"
    agreement = "split" if any(len(set(c.votes)) > 1 for c in items) else "unanimous"
    band = next(name for low, name in reversed(BANDS) if value >= low)
    return f"{level}/{agreement}/{band}"


def choose(
    result: EvaluationResult, n: int, *, seed: int = 0, strategy: Strategy = "random", metric: str | None = None
) -> list[Chosen]:
    """``n`` samples of ``result`` to label, in the order drawn for a random draw and by stratum otherwise.

    Only samples with an id, a scored value and claim verdicts can be labelled (labels pair with runs by id).
    ``stratified``: strata by :func:`stratum_of`; one sample per stratum, the rest by Neyman allocation
    (``∝ N_h S_h``, ``S_h`` the spread a share with the stratum's mean judge value would have, at least 0.1);
    strata are coarsened (agreement dropped, then the level) while there are more strata than ``n``. Each
    chosen sample records ``n_h / N_h``.

    Raises:
        ConfigurationError: ``n`` not positive, or more than the samples that can be labelled; an unknown
            strategy.
        InputError: no sample can be labelled.
    """
    if strategy not in ("random", "stratified"):
        raise ConfigurationError(f"strategy must be 'random' or 'stratified', got {strategy!r}")
    name = claim_metric(result, metric)
    rows = [row for row in result.rows if _labellable(row, name)]
    if not rows:
        raise InputError(
            f"no sample of the results can be labelled: none has an id, a value and claim verdicts for {name}"
        )
    if isinstance(n, bool) or not isinstance(n, int) or n < 1:
        raise ConfigurationError(f"-n must be a whole number of samples above 0, got {n!r}")
    if n > len(rows):
        raise ConfigurationError(f"-n {n} is more than the {len(rows)} samples that can be labelled")
    rng = np.random.default_rng(seed)
    if strategy == "random":
        picked = rng.choice(len(rows), size=n, replace=False)
        return [_chosen(rows[i], "all", None) for i in picked]
    strata = _strata(rows, name, n)
    allocation = _neyman(strata, n)
    out: list[Chosen] = []
    for key in sorted(strata):
        members = strata[key]
        take = allocation[key]
        for i in sorted(rng.choice(len(members), size=take, replace=False)):
            out.append(_chosen(members[i][0], key, take / len(members)))
    return out


def _labellable(row: SampleRow, metric: str) -> bool:
    result = row.results.get(metric)
    return (
        row.sample_id is not None
        and row.sample is not None
        and result is not None
        and result.value is not None
        and result.evidence is not None
        and bool(result.evidence.labelled_items())
    )


def _strata(rows: list[SampleRow], metric: str, n: int) -> dict[str, list[tuple[SampleRow, float]]]:
    """Rows by stratum, with their judge values; coarser while there are more strata than ``n``."""
    keyed = []
    for row in rows:
        result = row.results[metric]
        assert result.evidence is not None and result.value is not None  # _labellable
        keyed.append((stratum_of(result.evidence, result.value).split("/"), row, result.value))
    for keep in ((0, 1, 2), (0, 2), (2,), ()):
        strata: dict[str, list[tuple[SampleRow, float]]] = defaultdict(list)
        for parts, row, value in keyed:
            strata["/".join(parts[i] for i in keep) or "all"].append((row, value))
        if len(strata) <= n:
            return dict(strata)
    raise AssertionError("one stratum always fits")  # pragma: no cover


def _neyman(strata: dict[str, list[tuple[SampleRow, float]]], n: int) -> dict[str, int]:
    """Neyman allocation with at least one per stratum and at most the stratum's size (largest remainders)."""
    size = {k: len(v) for k, v in strata.items()}
    spread = {}
    for key, members in strata.items():
        mean = sum(v for _, v in members) / len(members)
        spread[key] = max(math.sqrt(max(mean * (1 - mean), 0.0)), _SPREAD_FLOOR)
    take = dict.fromkeys(strata, 1)
    left = n - len(strata)
    while left > 0:
        open_ = [k for k in strata if take[k] < size[k]]
        weight = sum(size[k] * spread[k] for k in open_)
        share = {k: left * size[k] * spread[k] / weight for k in open_}
        added = {k: min(math.floor(share[k]), size[k] - take[k]) for k in open_}
        if not any(added.values()):  # hand out the remainders one by one, largest first
            k = max(open_, key=lambda key: (share[key] - math.floor(share[key]), key))
            added = {k: 1}
        for k, extra in added.items():
            take[k] += extra
            left -= extra
    return take


def _chosen(row: SampleRow, stratum: str, probability: float | None) -> Chosen:
    assert row.sample_id is not None  # _labellable
    return Chosen(index=row.index, sample_id=row.sample_id, stratum=stratum, inclusion_probability=probability)
