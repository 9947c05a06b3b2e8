"""Metrics named on the command line: ``id_based_context_recall@5``, ``non_llm_context_recall(threshold=0.8)``."""

from __future__ import annotations

import re
from typing import Any

from .errors import ConfigurationError
from .metrics import IDBasedContextRecall, Metric, NonLLMContextRecall

__all__ = ["METRIC_HELP", "parse_metric"]

METRIC_HELP = (
    "a metric: id_based_context_recall[@K], non_llm_context_recall[(threshold=0.5,scorer=levenshtein,normalize=false)]"
    " (repeatable)"
)

_SPEC = re.compile(r"^\s*(?P<name>[A-Za-z_][\w]*)\s*(?:\((?P<args>[^()]*)\))?\s*(?:@\s*(?P<k>\d+))?\s*$")


def parse_metric(spec: str) -> Metric:
    """Build a metric from its name with optional ``(key=value, ...)`` settings and ``@k`` cutoff.

    Raises:
        ConfigurationError: unknown metric, malformed spec or bad settings.
    """
    match = _SPEC.match(spec)
    if match is None:
        raise ConfigurationError(f"cannot read metric {spec!r}; expected NAME, NAME@K or NAME(key=value,...)")
    name, k = match["name"], match["k"]
    kwargs = _settings(match["args"] or "", spec)
    if k is not None:
        kwargs["k"] = int(k)
    try:
        if name == "id_based_context_recall":
            return IDBasedContextRecall(**kwargs)
        if name == "non_llm_context_recall":
            return NonLLMContextRecall(**kwargs)
    except TypeError as exc:
        raise ConfigurationError(f"bad settings for {name}: {exc}") from exc
    raise ConfigurationError(f"unknown metric {name!r}; known: id_based_context_recall, non_llm_context_recall")


def _settings(text: str, spec: str) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for part in filter(None, (p.strip() for p in text.split(","))):
        key, sep, raw = part.partition("=")
        if not sep or not key.strip().isidentifier():
            raise ConfigurationError(f"cannot read setting {part!r} in {spec!r}; expected key=value")
        out[key.strip()] = _value(raw.strip())
    return out


def _value(raw: str) -> Any:
    lowered = raw.lower()
    if lowered in ("true", "false"):
        return lowered == "true"
    for kind in (int, float):
        try:
            return kind(raw)
        except ValueError:
            pass
    return raw.strip("'\"")
