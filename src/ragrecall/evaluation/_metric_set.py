"""The metrics of a run: checked, given the run's LLM where they have none, and named apart."""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from typing import Any

from ..errors import ConfigurationError
from ..llm import LLM
from ..metrics.base import Metric, settings_suffix

__all__ = ["check_metrics", "metric_identity"]


def check_metrics(metrics: Sequence[Metric], llm: LLM | None) -> dict[str, Metric]:
    """The metrics by name, each LLM metric without an LLM given ``llm``, default names that collide set apart."""
    if isinstance(metrics, Metric):
        metrics = [metrics]
    if llm is not None and not isinstance(llm, LLM):
        raise ConfigurationError(f"llm must implement ragrecall.llm.LLM (model_name and agenerate), got {llm!r}")
    given: list[Metric] = []
    for metric in metrics:
        if not isinstance(metric, Metric):
            raise ConfigurationError(f"expected Metric objects, got {type(metric).__name__}")
        if llm is not None and getattr(metric, "llm", False) is None and dataclasses.is_dataclass(metric):
            metric = _replaced(metric, llm=llm, name=metric.name if metric.named_by_user else "")
        metric.check_ready()
        given.append(metric)
    if not given:
        raise ConfigurationError("no metrics given")
    groups: dict[str, list[Metric]] = {}
    for metric in given:
        groups.setdefault(metric.name, []).append(metric)
    by_name: dict[str, Metric] = {}
    for name, group in groups.items():
        for metric in _set_apart(name, group) if len(group) > 1 else group:
            if metric.name in by_name:
                raise ConfigurationError(
                    f"two metrics are named {metric.name!r}; results are keyed by name, so give each a name="
                )
            by_name[metric.name] = metric
    return by_name


def _set_apart(name: str, group: list[Metric]) -> list[Metric]:
    """Metrics sharing a default name, renamed by the scalar settings in which they differ; unchanged when
    any was named with ``name=``, is not a dataclass, or no scalar setting differs (the caller then refuses)."""
    if any(m.named_by_user or not dataclasses.is_dataclass(m) for m in group):
        return group
    settings = [m.settings() for m in group]
    keys = [
        k
        for k in settings[0]
        if all(isinstance(s.get(k), (str, int, float, bool, type(None))) for s in settings)
        and len({repr(s.get(k)) for s in settings}) > 1
    ]
    if not keys:
        return group
    base = name[:-1] + "," if name.endswith(")") else name + "("
    renamed = []
    for metric, values in zip(group, settings, strict=True):
        suffix = settings_suffix({k: values.get(k) for k in keys})[1:]
        renamed.append(_replaced(metric, name=base + suffix))
    return renamed


def _replaced(metric: Metric, **changes: Any) -> Metric:
    """A copy of a dataclass metric with ``changes`` (its ``__post_init__`` checks them again)."""
    assert dataclasses.is_dataclass(metric) and not isinstance(metric, type)
    copy: Metric = dataclasses.replace(metric, **changes)
    return copy


def metric_identity(metric: Metric) -> dict[str, Any]:
    """What a checkpoint and the run's details record of a metric: its class and settings."""
    return {"class": type(metric).__name__, "settings": metric.settings()}
