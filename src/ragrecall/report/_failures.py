"""The section a report opens with: every failed sample-metric pair, grouped by cause, and the unscorable
ones, grouped by reason. Nothing here is collapsed."""

from __future__ import annotations

import re
from collections import defaultdict

from ..evaluation import EvaluationResult, SampleRow
from ._html import e, sample_link, scroll_table

__all__ = ["failures_section"]

ROWS_PER_CAUSE = 200
"""Pairs listed under one cause; beyond that the section says how many more there are."""

# "sample 12 (id='q7'): " — where the error happened, which differs for every pair of one cause.
_LOCATION = re.compile(r"^sample \d+(?: \(id=.*?\))?: ")


def failures_section(result: EvaluationResult) -> str:
    """The Failures section: failed pairs grouped by exception type and message (the sample's location
    taken out), largest group first, each pair linked to its sample; then the unscorable pairs by reason."""
    parts = ["<section id='failures'><h2>Failures</h2>"]
    pairs = len(result) * len(result.metrics)
    failed: dict[tuple[str, str], list[tuple[SampleRow, str, str]]] = defaultdict(list)
    unscorable: dict[tuple[str, str], list[SampleRow]] = defaultdict(list)
    for row in result.rows:
        for metric in result.metrics:
            r = row.results.get(metric)
            if r is None:
                continue
            if r.failure is not None:
                cause = _LOCATION.sub("", r.failure.message)
                failed[(r.failure.type, cause)].append((row, metric, r.failure.message))
            elif r.status == "unscorable":
                unscorable[(metric, r.reason or "")].append(row)
    if not failed:
        parts.append(f"<p class='ok'>No failures: all {pairs} sample-metric pairs were scored or unscorable.</p>")
    else:
        count = sum(len(v) for v in failed.values())
        parts.append(
            f"<p class='miss'><strong>{count} of {pairs} sample-metric pairs failed</strong>, from {len(failed)} "
            f"cause{'s' if len(failed) != 1 else ''}. Failed pairs are left out of the means.</p>"
        )
        for (kind, cause), items in sorted(failed.items(), key=lambda kv: -len(kv[1])):
            metrics = sorted({m for _, m, _ in items})
            parts.append(
                f"<div class='cause'><h3><span class='miss'>{e(kind)}</span>: {e(cause)}</h3>"
                f"<p class='muted'>{len(items)} pair{'s' if len(items) != 1 else ''} · "
                f"{e(', '.join(metrics))}</p>"
            )
            rows = [(sample_link(row), e(metric), e(message)) for row, metric, message in items[:ROWS_PER_CAUSE]]
            parts.append(scroll_table(("sample", "metric", "message"), rows, css="wide"))
            if len(items) > ROWS_PER_CAUSE:
                parts.append(f"<p class='muted'>… and {len(items) - ROWS_PER_CAUSE} more pairs with this cause.</p>")
            parts.append("</div>")
    if unscorable:
        total = sum(len(v) for v in unscorable.values())
        parts.append(
            f"<h3>Unscorable: {total} pair{'s' if total != 1 else ''} with nothing to measure</h3>"
            "<p class='muted'>Counted apart, never as 0.</p><ul class='unscorable'>"
        )
        for (metric, reason), rows_ in sorted(unscorable.items(), key=lambda kv: -len(kv[1])):
            links = ", ".join(sample_link(row) for row in rows_[:ROWS_PER_CAUSE])
            more = f" … and {len(rows_) - ROWS_PER_CAUSE} more" if len(rows_) > ROWS_PER_CAUSE else ""
            parts.append(f"<li><strong>{e(metric)}</strong>: {e(reason)} ({len(rows_)}): {links}{more}</li>")
        parts.append("</ul>")
    parts.append("</section>")
    return "".join(parts)
