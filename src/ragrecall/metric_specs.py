"""Metrics named in text (the command line): ``context_recall(mode=single)``, ``id_based_context_recall@5``,
``non_llm_context_recall(threshold=0.8,scorer=partial)``, or any ranking measure such as ``nDCG@10``."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from .errors import ConfigurationError

if TYPE_CHECKING:
    from .llm import LLM
    from .metrics import Metric

__all__ = ["METRIC_HELP", "needs_llm", "parse_metric"]

METRIC_HELP = (
    "a metric: context_recall[(mode=claims|single,language=auto|en|zh,quote_threshold=0.9,"
    "unverified=unsupported|supported|fail,coverage=true)], id_based_context_recall[@K], "
    "non_llm_context_recall[(threshold=0.5,scorer=levenshtein,normalize=false,max_chars=100000)], or a ranking "
    "measure such as nDCG@10, Recall@100, AP, RR(rel=2) (repeatable)"
)

_SPEC = re.compile(r"^\s*(?P<name>[A-Za-z_]\w*)\s*(?:\((?P<args>[^()]*)\))?\s*(?:@\s*(?P<k>\d+))?\s*$")
_LLM_METRICS = ("context_recall", "llm_context_recall")


def parse_metric(spec: str, *, llm: Callable[[], LLM] | None = None) -> Metric:
    """Build a metric from its name with optional ``(key=value, ...)`` settings and ``@k`` cutoff.

    ``llm`` is called (once per LLM metric) to get the model an LLM metric needs.

    Raises:
        ConfigurationError: unknown metric, malformed spec, bad settings, or an LLM metric without ``llm``.
    """
    from .metrics import ContextRecall, IDBasedContextRecall, NonLLMContextRecall

    match = _SPEC.match(spec)
    name = match["name"] if match else None
    if match is None or name not in ("id_based_context_recall", "non_llm_context_recall", *_LLM_METRICS):
        return _ranking_metric(spec)
    kwargs = _settings(match["args"] or "", spec)
    if match["k"] is not None:
        kwargs["k"] = int(match["k"])
    try:
        if name == "id_based_context_recall":
            return IDBasedContextRecall(**kwargs)
        if name == "non_llm_context_recall":
            return NonLLMContextRecall(**kwargs)
        if llm is None:
            raise ConfigurationError(f"{name} needs an LLM: give --model (and --base-url) or --offline")
        return ContextRecall(llm(), **kwargs)
    except TypeError as exc:
        raise ConfigurationError(f"bad settings for {name}: {exc}") from exc


def needs_llm(spec: str) -> bool:
    """True when ``spec`` names an LLM metric."""
    match = _SPEC.match(spec)
    return match is not None and match["name"] in _LLM_METRICS


def _ranking_metric(spec: str) -> Metric:
    from .ranking import RankingMetric, parse_measure

    try:
        measure = parse_measure(spec)
    except ConfigurationError as exc:
        raise ConfigurationError(
            f"unknown metric {spec!r}; known: context_recall, id_based_context_recall, non_llm_context_recall, "
            f"or a ranking measure such as nDCG@10 ({exc})"
        ) from exc
    return RankingMetric(measure)


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
