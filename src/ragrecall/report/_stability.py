"""The section on repeated judgements: each metric's agreement and every claim whose judgements disagreed."""

from __future__ import annotations

from ..evaluation import EvaluationResult
from ._html import e, sample_link, scroll_table

__all__ = ["stability_section"]


def stability_section(result: EvaluationResult) -> str:
    """The Stability section when a metric judged claims more than once, else nothing: mean agreement per
    metric, then every unstable claim linked to its sample (a tie of votes counts as unsupported)."""
    judged = [s for s in result.summary.values() if s.agreement is not None]
    if not judged:
        return ""
    from ..metrics.context_recall import votes_text  # loaded with the evidence of a judge that voted

    parts = ["<section id='stability'><h2>Stability of the judge</h2>"]
    parts.append(
        "<p class='muted'>Each claim was judged more than once, each judgement after the first showing the "
        "retrieved passages in another order (or, judged one passage at a time, asking again); its verdict is "
        "the majority of the votes (a tie counts as not supported). Agreement is the share of claims whose votes "
        "were unanimous, averaged over samples.</p>"
    )
    for s in judged:
        unstable = s.counts.get("unstable_claims", 0)
        parts.append(
            f"<p><strong>{e(s.metric)}</strong>: agreement {s.agreement:.3f}; {e(unstable)} of "
            f"{e(s.counts.get('claims', 0))} claims unstable</p>"
        )
    by_index = {row.index: row for row in result.rows}
    rows = [
        (sample_link(by_index[u.index]), e(u.metric), e(u.claim), e(votes_text(u.votes)))
        for u in result.unstable_claims()
    ]
    if rows:
        parts.append(scroll_table(("sample", "metric", "claim", "votes, in judgement order"), rows))
    parts.append("</section>")
    return "".join(parts)
