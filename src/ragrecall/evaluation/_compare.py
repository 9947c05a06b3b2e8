"""Paired comparison of two systems on one metric over the samples both scored."""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

import numpy as np
from pydantic import BaseModel, ConfigDict

from ..errors import InputError
from ._result import EvaluationResult
from ._rows import SampleRow
from ._stats import paired_bootstrap_ci, paired_permutation_p

__all__ = ["Comparison", "compare", "paired_rows", "paired_values"]


class Comparison(BaseModel):
    """System B minus system A on one metric, over the samples both scored."""

    model_config = ConfigDict(frozen=True)

    metric: str
    paired: int
    """Samples scored in both runs (matched by sample id, or by position when samples have no id)."""
    mean_a: float | None
    mean_b: float | None
    mean_difference: float | None
    """Mean of (B − A) over the paired samples."""
    ci_low: float | None
    """95% paired-bootstrap interval of the mean difference (2,000 resamples, seed 0)."""
    ci_high: float | None
    p_value: float | None
    """Two-sided paired randomisation (sign-flip) test, 10,000 resamples, seed 0."""
    failed_a: int = 0
    """Samples whose result failed in run A (left out of the pairing, like every sample not scored)."""
    unscorable_a: int = 0
    failed_b: int = 0
    unscorable_b: int = 0

    def __str__(self) -> str:
        left_out = (
            f"; not scored: A {self.failed_a} failed, {self.unscorable_a} unscorable; "
            f"B {self.failed_b} failed, {self.unscorable_b} unscorable"
        )
        if self.mean_difference is None:
            return f"{self.metric}: no sample was scored in both runs{left_out}"
        ci = f"[{self.ci_low:+.4f}, {self.ci_high:+.4f}]" if self.ci_low is not None else "[-]"
        return (
            f"{self.metric}: A {self.mean_a:.4f}, B {self.mean_b:.4f}, B − A {self.mean_difference:+.4f} "
            f"95% CI {ci}, p = {self.p_value:.4f} over {self.paired} paired samples{left_out}"
        )


def compare(result_a: EvaluationResult, result_b: EvaluationResult, metric: str) -> Comparison:
    """Compare two runs of ``metric`` with a paired bootstrap interval and a paired randomisation test.

    Samples are matched by id when every sample in both runs has a unique one, else by position (then both
    runs must have the same number of samples). Only samples scored in both runs count.

    Raises:
        KeyError: a run has no such metric.
        InputError: the runs cannot be paired.
    """
    va, vb = paired_values(result_a, result_b, metric)
    counts = {
        f"{status}_{run}": sum(r.status == status for r in result.results(metric))
        for run, result in (("a", result_a), ("b", result_b))
        for status in ("failed", "unscorable")
    }
    if not va.size:
        return Comparison(
            metric=metric,
            paired=0,
            mean_a=None,
            mean_b=None,
            mean_difference=None,
            ci_low=None,
            ci_high=None,
            p_value=None,
            **counts,
        )
    diff = vb - va
    ci = paired_bootstrap_ci(diff)
    n = int(va.size)
    return Comparison(
        metric=metric,
        paired=n,
        mean_a=math.fsum(va) / n,
        mean_b=math.fsum(vb) / n,
        mean_difference=math.fsum(diff) / n,
        ci_low=ci[0] if ci else None,
        ci_high=ci[1] if ci else None,
        p_value=paired_permutation_p(diff),
        **counts,
    )


def paired_values(result_a: EvaluationResult, result_b: EvaluationResult, metric: str) -> tuple[np.ndarray, np.ndarray]:
    """The values of ``metric`` in both runs on the samples both scored, paired as :func:`compare` pairs them.

    Raises:
        KeyError: a run has no such metric.
        InputError: the runs cannot be paired (no unique ids and sizes that differ, or no sample id shared).
    """
    a, b = _keyed(result_a, metric), _keyed(result_b, metric)
    if a is None or b is None:
        if len(result_a) != len(result_b):
            raise InputError(
                f"cannot pair the runs: samples lack unique ids and the runs differ in size ({len(result_a)} vs "
                f"{len(result_b)})"
            )
        a = {row.index: row.results[metric].value for row in result_a.rows}
        b = {row.index: row.results[metric].value for row in result_b.rows}
    elif a and b and a.keys().isdisjoint(b):
        raise _nothing_shared(a, b)
    keys = [k for k in a if k in b and a[k] is not None and b[k] is not None]
    va = np.array([a[k] for k in keys], dtype=np.float64)
    vb = np.array([b[k] for k in keys], dtype=np.float64)
    return va, vb


def _nothing_shared(a: Mapping[Any, object], b: Mapping[Any, object]) -> InputError:
    return InputError(
        f"cannot pair the runs: they share no sample id (A has {len(a)}, e.g. {next(iter(a))!r}; B has {len(b)}, "
        f"e.g. {next(iter(b))!r}); compare runs of the same dataset"
    )


def _keyed(result: EvaluationResult, metric: str) -> dict[object, float | None] | None:
    values = result.values(metric)
    ids = [row.sample_id for row in result.rows]
    if any(i is None for i in ids) or len({str(i) for i in ids}) != len(ids):
        return None
    return {str(i): v for i, v in zip(ids, values, strict=True)}


def paired_rows(result_a: EvaluationResult, result_b: EvaluationResult) -> list[tuple[SampleRow, SampleRow]]:
    """The samples of two runs side by side, in the order of run B, paired as :func:`compare` pairs them: by
    id when every sample of both runs has a unique one (samples of one run only are left out), else by
    position.

    Raises:
        InputError: the samples lack unique ids and the runs differ in size, or the runs share no sample id.
    """
    by_id_a = _by_id(result_a)
    by_id_b = _by_id(result_b)
    if by_id_a is not None and by_id_b is not None:
        pairs = [(by_id_a[key], row) for key, row in by_id_b.items() if key in by_id_a]
        if not pairs and by_id_a and by_id_b:
            raise _nothing_shared(by_id_a, by_id_b)
        return pairs
    if len(result_a) != len(result_b):
        raise InputError(
            f"cannot pair the runs: samples lack unique ids and the runs differ in size ({len(result_a)} vs "
            f"{len(result_b)})"
        )
    return list(zip(result_a.rows, result_b.rows, strict=True))


def _by_id(result: EvaluationResult) -> dict[str, SampleRow] | None:
    keyed = {str(row.sample_id): row for row in result.rows if row.sample_id is not None}
    return keyed if len(keyed) == len(result.rows) else None
