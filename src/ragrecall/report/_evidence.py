"""Each metric's verdict on one sample, as its evidence renders itself (see :mod:`ragrecall.rendering`)."""

from __future__ import annotations

from ..rendering import Passages, passage_anchor
from ..results import MetricResult
from ._html import e

__all__ = ["evidence_block", "passage_anchor"]


def evidence_block(metric: str, result: MetricResult, sample_index: int, passages_shown: int) -> str:
    """One metric's verdict on a sample: its status, failure or reason, and its evidence."""
    body: list[str] = []
    if result.status == "unscorable":
        body.append(f"<p class='warn'>unscorable: {e(result.reason or '')}</p>")
    if result.failure is not None:
        body.append(f"<p class='miss'>failed: {e(result.failure.type)}: {e(result.failure.message)}</p>")
    if result.evidence is not None:
        body.append(result.evidence.to_html(Passages(sample_index, passages_shown)))
    return f"<div class='ev'><strong>{e(metric)}</strong>{''.join(body)}</div>"
