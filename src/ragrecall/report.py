"""A single self-contained HTML report of an evaluation: summary with intervals, histograms, evidence.

No scripts, no external assets: the page is one file that opens anywhere. Rows expand with the native
``<details>`` element.
"""

from __future__ import annotations

import html
import json
import os
from typing import Any

from ._files import atomic_text
from .evaluation import EvaluationResult
from .metrics.context_recall import QUOTE_WINDOW
from .results import Evidence, MetricResult

__all__ = ["render_report", "write_report"]

_CSS = """
body{font:14px/1.45 system-ui,-apple-system,Segoe UI,Roboto,sans-serif;margin:2rem;color:#1d2330;max-width:1200px}
h1{font-size:1.5rem;margin:0 0 .25rem} h2{font-size:1.15rem;margin:2rem 0 .5rem}
.muted{color:#667085} table{border-collapse:collapse;width:100%} th,td{padding:.35rem .6rem;text-align:left;
border-bottom:1px solid #e4e7ec;vertical-align:top} th{background:#f5f7fa;font-weight:600}
td.num,th.num{text-align:right;font-variant-numeric:tabular-nums}
.cards{display:flex;flex-wrap:wrap;gap:1rem}.card{border:1px solid #e4e7ec;border-radius:8px;padding:.75rem 1rem;
min-width:260px} .card .big{font-size:1.8rem;font-weight:650} details summary{cursor:pointer}
.ok{color:#067647}.miss{color:#b42318}.warn{color:#b54708} .ev{margin:.25rem 0 .75rem 1rem}
.ev li{margin:.15rem 0} code{background:#f2f4f7;padding:0 .25rem;border-radius:3px}
.samples .head,.samples summary{display:grid;gap:.5rem;padding:.35rem .6rem;border-bottom:1px solid #e4e7ec}
.samples .head{background:#f5f7fa;font-weight:600} .samples .head div{overflow-wrap:anywhere}
.samples summary{list-style:none}
.samples summary::-webkit-details-marker{display:none} .samples .sid::before{content:"▸ ";color:#667085}
.samples details[open] .sid::before{content:"▾ "} .samples .num{text-align:right;font-variant-numeric:tabular-nums}
blockquote.q{margin:.3rem 0 .3rem .5rem;padding:.2rem .6rem;border-left:3px solid #d0d5dd;color:#344054}
blockquote.q.unverified{border-color:#f79009} mark{background:#fef0c7;padding:0 .1rem}
.evidence{display:grid;grid-template-columns:repeat(auto-fit,minmax(320px,1fr));gap:0 1.5rem;
padding:.25rem .6rem .75rem;border-bottom:1px solid #e4e7ec;background:#fcfcfd}
"""


def write_report(result: EvaluationResult, path: str | os.PathLike[str], *, title: str = "ragrecall report") -> None:
    """Write :func:`render_report` to ``path`` (UTF-8), atomically: the file holds its old content or the whole
    report, never part of it."""
    page = render_report(result, title=title)
    with atomic_text(path) as out:
        out.write(page)


def render_report(result: EvaluationResult, *, title: str = "ragrecall report") -> str:
    """The report as one HTML document: per-metric summary, histograms, and samples sorted by score."""
    parts = [
        "<!doctype html><html lang='en'><head><meta charset='utf-8'>",
        f"<title>{_e(title)}</title><style>{_CSS}</style></head><body>",
        f"<h1>{_e(title)}</h1>",
        f"<p class='muted'>{len(result)} samples · {len(result.metrics)} metrics · "
        f"{len(result.failures)} failures · {result.usage.total_tokens} tokens</p>",
        "<h2>Summary</h2>",
        _summary_table(result),
        "<h2>Distribution</h2><div class='cards'>",
        *(_histogram_card(result, name) for name in result.metrics),
        "</div>",
        "<h2>Samples, lowest score first</h2>",
        _samples_table(result),
        "</body></html>",
    ]
    return "".join(parts)


def _summary_table(result: EvaluationResult) -> str:
    head = "".join(
        f"<th{' class=num' if i else ''}>{h}</th>"
        for i, h in enumerate(("metric", "mean", "95% CI", "scored", "unscorable", "failed", "tokens"))
    )
    rows = []
    for s in result.summary.values():
        ci, mean = s.ci_text(), s.mean_text(3)
        cells = (mean, ci, s.scored, s.unscorable, s.failed, s.usage.total_tokens)
        rows.append(
            f"<tr><td>{_e(s.metric)}</td>" + "".join(f"<td class=num>{_e(str(c))}</td>" for c in cells) + "</tr>"
        )
    return f"<table><thead><tr>{head}</tr></thead><tbody>{''.join(rows)}</tbody></table>"


def _histogram_card(result: EvaluationResult, metric: str, bins: int = 10) -> str:
    values = [v for v in result.values(metric) if v is not None]
    counts = [0] * bins
    for v in values:
        counts[min(int(v * bins), bins - 1)] += 1
    top = max(counts) or 1
    width, height, bar = 240, 90, 240 / bins
    rects = []
    for i, count in enumerate(counts):
        h = count / top * (height - 14)
        label = f"{i / bins:.1f}–{(i + 1) / bins:.1f}: {count}"
        rects.append(
            f"<rect x='{i * bar + 1:.1f}' y='{height - 12 - h:.1f}' width='{bar - 2:.1f}' height='{h:.1f}' "
            f"fill='#3e7bfa'><title>{label}</title></rect>"
        )
    axis = (
        f"<text x='0' y='{height}' font-size='10' fill='#667085'>0</text>"
        f"<text x='{width - 8}' y='{height}' font-size='10' fill='#667085'>1</text>"
    )
    summary = result.summary[metric]
    mean = summary.mean_text(3)
    return (
        f"<div class='card'><div class='muted'>{_e(metric)}</div><div class='big'>{mean}</div>"
        f"<svg width='{width}' height='{height}' role='img' aria-label='histogram of {_e(metric)}'>"
        f"{''.join(rects)}{axis}</svg><div class='muted'>{summary.scored} scored</div></div>"
    )


def _samples_table(result: EvaluationResult) -> str:
    first = result.metrics[0] if result.metrics else None

    def order(row_index: int) -> tuple[int, float]:
        value = result.rows[row_index].results[first].value if first else None
        return (0, value) if value is not None else (1, 0.0)

    # One grid row per sample; its evidence opens below it at full width (native <details>, no script).
    columns = f"grid-template-columns:minmax(10rem,2fr) repeat({len(result.metrics)},minmax(6rem,1fr))"
    head = "<div>sample</div>" + "".join(f"<div class=num>{_e(m)}</div>" for m in result.metrics)
    rows = []
    for i in sorted(range(len(result.rows)), key=order):
        row = result.rows[i]
        label = _e(str(row.sample_id)) if row.sample_id is not None else f"#{row.index}"
        cells = "".join(f"<div class=num>{_value_cell(row.results[m])}</div>" for m in result.metrics)
        details = "".join(_evidence_block(m, row.results[m]) for m in result.metrics)
        rows.append(
            f"<details class='sample'><summary style='{columns}'><div class='sid'>{label}</div>{cells}</summary>"
            f"<div class='evidence'>{details}</div></details>"
        )
    return f"<div class='samples'><div class='head' style='{columns}'>{head}</div>{''.join(rows)}</div>"


def _value_cell(result: MetricResult) -> str:
    if result.value is not None:
        return f"{result.value:.3f}"
    css = "warn" if result.status == "unscorable" else "miss"
    return f"<span class='{css}'>{result.status}</span>"


def _evidence_block(metric: str, result: MetricResult) -> str:
    body: list[str] = []
    if result.status == "unscorable":
        body.append(f"<p class='warn'>unscorable: {_e(result.reason or '')}</p>")
    if result.failure is not None:
        body.append(f"<p class='miss'>failed: {_e(result.failure.type)}: {_e(result.failure.message)}</p>")
    if result.evidence is not None:
        body.append(_evidence_html(result.evidence))
    return f"<div class='ev'><strong>{_e(metric)}</strong>{''.join(body)}</div>"


def _evidence_html(evidence: Evidence) -> str:
    data = evidence.model_dump(mode="json")
    kind = data.pop("kind", "")
    if kind == "id_recall":
        found = ", ".join(f"<code>{_e(f['id'])}</code> at rank {f['rank']}" for f in data["found"]) or "none"
        missing = ", ".join(f"<code>{_e(m)}</code>" for m in data["missing"]) or "none"
        return f"<ul><li class='ok'>found: {found}</li><li class='miss'>missing: {missing}</li></ul>"
    if kind == "string_recall":
        items = []
        for m in data["matches"]:
            css, verdict = ("ok", "recalled") if m["recalled"] else ("miss", "missed")
            where = f"retrieved #{m['best_retrieved_index']}" if m["best_retrieved_index"] is not None else "nothing"
            items.append(
                f"<li class='{css}'>reference passage #{m['reference_index']}: {verdict} "
                f"(best {where}, similarity {m['similarity']:.2f})</li>"
            )
        return f"<ul>{''.join(items)}</ul>"
    if kind == "ranking":
        items = []
        for item in data.get("relevant", []):
            rank = item.get("rank")
            css, where = ("ok", f"at rank {rank}") if rank is not None else ("miss", "not retrieved")
            items.append(f"<li class='{css}'><code>{_e(str(item['id']))}</code> (grade {item['grade']}) {where}</li>")
        considered = data.get("retrieved_considered")
        return f"<ul>{''.join(items)}</ul><p class='muted'>{considered} retrieved IDs ranked</p>"
    if kind == "claim_recall":
        claims = _claims_html(data)
        if claims is not None:
            return claims
    return _generic_html(data)


def _claims_html(data: dict[str, Any]) -> str | None:
    claims = data.get("claims")
    if not isinstance(claims, list):
        return None
    items = [_claim_html(c) for c in claims if isinstance(c, dict)]
    used = data.get("contexts_used") or []
    used_text = _e(", ".join(f"#{i}" for i in used)) or "none"
    footer = [f"<p class='muted'>retrieved passages that supported a claim: {used_text}</p>"]
    counts = (
        f"verdicts: {data.get('verified', 0)} verified, {data.get('corrected', 0)} corrected, "
        f"{data.get('unverified', 0)} unverified (counted as {_e(str(data.get('unverified_policy', 'unsupported')))}); "
        f"{data.get('coverage_claims', 0)} coverage claims, {data.get('dropped_claims', 0)} dropped"
    )
    footer.append(f"<p class='muted'>{counts}</p>")
    dropped = data.get("dropped") or []
    if dropped:
        rows = "".join(
            f"<li><s>{_e(str(d.get('claim', '')))}</s> <span class='muted'>{_e(str(d.get('reason', '')))}</span></li>"
            for d in dropped
        )
        footer.append(f"<p class='muted'>claims left out of the score:</p><ul>{rows}</ul>")
    return f"<ol>{''.join(items)}</ol>{''.join(footer)}"


def _claim_html(c: dict[str, Any]) -> str:
    css, mark = ("ok", "supported") if c.get("supported") else ("miss", "not supported")
    tags = [f"<strong>{mark}</strong>"]
    verification = c.get("verification")
    if verification == "verified":
        tags.append("<span class='ok'>quote verified</span>")
    elif verification == "corrected":
        tags.append("<span class='ok'>quote verified, citation corrected</span>")
    elif verification == "unverified":
        tags.append(f"<span class='warn'>unverified: {_e(str(c.get('problem') or 'quote not found'))}</span>")
    if c.get("origin") == "coverage":
        tags.append("<span class='warn'>coverage claim: a sentence no claim covered</span>")
    quotes = "".join(_quote_html(q) for q in c.get("support") or [] if isinstance(q, dict))
    return (
        f"<li class='{css}'>{_e(str(c.get('claim', '')))} — {' · '.join(tags)}"
        f"<br><span class='muted'>{_e(str(c.get('reason', '')))}</span>{quotes}</li>"
    )


def _quote_html(q: dict[str, Any]) -> str:
    if q.get("start") is None:
        return (
            f"<blockquote class='q unverified'>not found in any passage (cited retrieved #{q.get('cited')}): "
            f"“{_e(str(q.get('quote', '')))}”</blockquote>"
        )
    where = f"retrieved #{q.get('context')}"
    if q.get("cited") != q.get("context"):
        where += f" (cited as #{q.get('cited')})"
    if q.get("match") == "fuzzy":
        where += f", similarity {float(q.get('similarity', 0.0)):.2f}"
    before, after = str(q.get("before", "")), str(q.get("after", ""))
    lead = "…" if int(q.get("start") or 0) > len(before) else ""
    tail = "…" if len(after) >= QUOTE_WINDOW else ""
    return (
        f"<blockquote class='q'><span class='muted'>{_e(where)}:</span> {lead}{_e(before)}"
        f"<mark>{_e(str(q.get('passage', '')))}</mark>{_e(after)}{tail}</blockquote>"
    )


def _generic_html(data: Any) -> str:
    if isinstance(data, dict):
        items = "".join(f"<li><strong>{_e(str(k))}</strong>: {_generic_html(v)}</li>" for k, v in data.items())
        return f"<ul>{items}</ul>"
    if isinstance(data, list):
        if all(not isinstance(v, (dict, list)) for v in data):
            return _e(", ".join(json.dumps(v, ensure_ascii=False) for v in data)) or "[]"
        return "<ol>" + "".join(f"<li>{_generic_html(v)}</li>" for v in data) + "</ol>"
    return _e(json.dumps(data, ensure_ascii=False))


def _e(text: str) -> str:
    return html.escape(text, quote=True)
