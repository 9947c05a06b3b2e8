"""What a run was: date, version, data, and per metric the class, model, prompt versions, settings, tokens
and cost — from the run's header when the results file has one, else what the evidence itself records."""

from __future__ import annotations

import json
from typing import Any

from ..evaluation import EvaluationResult
from ..usage import Usage
from ._html import e, scroll_table

__all__ = ["run_facts", "run_section"]

_SHOWN_APART = ("model", "prompt_versions")
"""Settings with a column of their own."""


def run_facts(result: EvaluationResult) -> str:
    """One line for the top of the page: date, models, requests, tokens and cost."""
    usage = result.usage
    models = sorted({m for name in result.metrics if (m := _model(result, name))})
    parts = [
        f"{len(result)} samples · {len(result.metrics)} metrics",
        f"run {_date(result) or 'date not recorded'}",
        f"model {', '.join(models)}" if models else "no LLM",
        f"{usage.requests} LLM requests ({usage.cached_requests} cached)",
        f"{usage.prompt_tokens:,} prompt + {usage.completion_tokens:,} completion tokens{usage.unknown_note()}",
        f"cost {_cost(usage)}",
    ]
    if result.partial:
        parts.append(f"partial run: {result.partial}")
    return " · ".join(e(p) for p in parts)


def run_section(result: EvaluationResult, label: str, other: EvaluationResult | None = None) -> str:
    """The run's details; with ``other`` (the run compared with), settings that differ are marked."""
    run = result.run
    facts = [
        ("date", _date(result) or "not recorded"),
        ("ragrecall", run.ragrecall_version if run else "not recorded"),
        ("dataset", (run.dataset or "given in memory") if run else "not recorded"),
        ("samples", str(len(result))),
        ("wall time", f"{result.wall_time_s:.1f} s" if run else "not recorded"),
        *([("partial run", result.partial)] if result.partial else []),
    ]
    usage = result.usage
    facts.append(
        (
            "LLM usage",
            f"{usage.requests} requests ({usage.cached_requests} cached), {usage.prompt_tokens:,} prompt"
            f"{usage.prompt_cache_note()} + "
            f"{usage.completion_tokens:,} completion tokens{usage.unknown_note()}, cost {_cost(usage)}",
        )
    )
    dl = "".join(f"<dt>{e(k)}</dt><dd>{e(v)}</dd>" for k, v in facts)
    note = (
        ""
        if run
        else "<p class='warn'>This results file was written before runs recorded their details: settings are "
        "not known; the model and prompt versions shown come from the evidence.</p>"
    )
    rows = []
    for name in result.metrics:
        summary = result.summary[name]
        settings = _settings_text(result, name)
        changed = other is not None and name in other.metrics and settings != _settings_text(other, name)
        cell = (
            f"<span class='changed' title='differs from the other run'>{e(settings)}</span>" if changed else e(settings)
        )
        rows.append(
            (
                e(name),
                e(_class(result, name)),
                e(_model(result, name) or "—"),
                "<br>".join(e(v) for v in _prompt_versions(result, name)) or "—",
                cell,
                str(summary.usage.requests),
                f"{summary.usage.total_tokens:,}",
                e(_cost(summary.usage, short=True)),
            )
        )
    head = ("metric", "class", "model", "prompt versions", "settings", "requests", "tokens", "cost")
    return f"<h3>{e(label)}</h3><dl class='facts'>{dl}</dl>{note}" + scroll_table(
        head, rows, numeric=(5, 6, 7), css="wide"
    )


def _date(result: EvaluationResult) -> str | None:
    if result.run is None:
        return None
    return result.run.started_at.strftime("%Y-%m-%d %H:%M UTC")


def _cost(usage: Usage, *, short: bool = False) -> str:
    if usage.unknown_requests:
        return "unknown" if short and usage.cost_usd is None else usage.cost_text()
    if usage.cost_usd is not None:
        return f"${usage.cost_usd:.4f}"
    if not usage.requests:
        return "$0"
    return "unknown" if short else "unknown (no price for the model)"


def _identity(result: EvaluationResult, metric: str) -> dict[str, Any]:
    return result.run.metrics.get(metric, {}) if result.run else {}


def _settings(result: EvaluationResult, metric: str) -> dict[str, Any] | None:
    settings = _identity(result, metric).get("settings")
    return settings if isinstance(settings, dict) else None


def _class(result: EvaluationResult, metric: str) -> str:
    return str(_identity(result, metric).get("class", "—"))


def _evidence_values(result: EvaluationResult, metric: str, key: str) -> list[Any]:
    return [
        getattr(r.evidence, key) for r in result.results(metric) if r.evidence is not None and hasattr(r.evidence, key)
    ]


def _model(result: EvaluationResult, metric: str) -> str | None:
    model = (_settings(result, metric) or {}).get("model")
    if model is not None:
        return str(model)
    seen = sorted({str(m) for m in _evidence_values(result, metric, "model")})
    return ", ".join(seen) or None


def _prompt_versions(result: EvaluationResult, metric: str) -> list[str]:
    """The prompt versions the evidence says were used, else those the settings name."""
    recorded = [v for v in _evidence_values(result, metric, "prompt_versions") if isinstance(v, dict)]
    used = sorted({str(v) for versions in recorded for v in versions.values()})
    if used:
        return used
    configured = (_settings(result, metric) or {}).get("prompt_versions")
    return sorted(str(v) for v in configured.values()) if isinstance(configured, dict) else []


def _settings_text(result: EvaluationResult, metric: str) -> str:
    settings = _settings(result, metric)
    if settings is None:
        return "not recorded"
    shown = {k: v for k, v in settings.items() if k not in _SHOWN_APART}
    return ", ".join(f"{k}={json.dumps(v, ensure_ascii=False, sort_keys=True)}" for k, v in shown.items()) or "none"
