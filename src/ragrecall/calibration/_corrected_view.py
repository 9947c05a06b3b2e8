"""The corrected mean shown to people: a text block for the command line and a "Corrected by people" section
for the report, each estimate beside the one-sentence meaning :meth:`CorrectedMean.describe` gives it."""

from __future__ import annotations

import html
import math
from collections.abc import Sequence

from ._ppi import CorrectedMean

__all__ = ["corrected_json", "corrected_section", "corrected_text", "plan_text"]


def corrected_json(item: CorrectedMean) -> dict[str, object]:
    """Every figure of the corrected mean as plain JSON values, with its half-width and the one-sentence meaning
    of each estimate."""
    data = item.model_dump(mode="json")
    data["half_width"] = item.half_width
    data["meanings"] = {name: meaning for name, _, meaning in item.describe()}
    return data


def corrected_text(items: Sequence[CorrectedMean]) -> str:
    """One block per corrected metric: the corrected, labels-only and judge-only means with their intervals,
    and what each means."""
    lines: list[str] = []
    for item in items:
        weighted = ", labels weighted by their inclusion probabilities" if item.weighted else ""
        lines.append(
            f"corrected by people: {item.metric or 'mean'} over {item.n_labelled + item.n_unlabelled} samples, "
            f"{item.n_labelled} of them labelled{weighted}"
        )
        lines.extend(f"  {left.text()}" for left in item.left_out)
        if item.note:
            lines.append(f"  note: {item.note}")
        pct = f"{item.confidence:.0%} CI"
        width = max(len(name) for name, _, _ in item.describe())
        for name, estimate, meaning in item.describe():
            lines.append(
                f"  {name.ljust(width)}  {estimate.mean:.3f}  {pct} [{estimate.low:.3f}, {estimate.high:.3f}]  "
                f"± {estimate.half_width:.3f}"
            )
            lines.append(f"  {' ' * width}  {meaning}")
    return "\n".join(lines)


def plan_text(half_width: float, more: int, item: CorrectedMean) -> str:
    """What ``--plan`` says: how many more labels reach ``half_width``."""
    if more == 0:
        return f"plan: the {item.n_labelled} labels give ± {item.half_width:.3f}, already within ± {half_width:g}"
    total = item.n_labelled + item.n_unlabelled
    if item.n_labelled + more > total:
        # Every sample labelled: the labels alone, whose half-width falls as one over the square root of the count.
        reach = item.classical.half_width * math.sqrt(item.n_labelled / total)
        return (
            f"plan: ± {half_width:g} is out of reach for this run: it would take about {item.n_labelled + more} "
            f"labelled samples and the run has {total}; labelling all {total} gives about ± {reach:.3f}, if the "
            "next labels vary as these do. A narrower interval needs a larger run"
        )
    return (
        f"plan: about {more} more labelled samples ({item.n_labelled + more} in all) bring the corrected interval "
        f"from ± {item.half_width:.3f} to ± {half_width:g}, if the next labels vary as these do"
    )


def corrected_section(items: Sequence[CorrectedMean]) -> str:
    """The "Corrected by people" ``<section>``: per metric, the three means, their intervals and meanings."""
    if not items:
        return ""
    rows = []
    for item in items:
        for name, estimate, meaning in item.describe():
            # On a phone each row is a card (the report's table.cards): the estimate leads, its interval next.
            rows.append(
                f"<tr><td class='lead' data-label='estimate'>{_e(item.metric or '')}: {_e(name)}</td>"
                f"<td class='num' data-label='mean'>{estimate.mean:.3f}</td>"
                f"<td class='num key' data-label='95% CI'>[{estimate.low:.3f}, {estimate.high:.3f}]</td>"
                f"<td class='muted' data-label='what it means'>{_e(meaning)}</td></tr>"
            )
    counts = "; ".join(
        f"{_e(item.metric or '')}: {item.n_labelled} labelled of {item.n_labelled + item.n_unlabelled}"
        + (", weighted by inclusion probabilities" if item.weighted else "")
        + "".join(f"; {_e(left.text())}" for left in item.left_out)
        + (f"; note: {_e(item.note)}" if item.note else "")
        for item in items
    )
    return (
        "<section id='corrected'><h2>Corrected by people</h2>"
        "<p class='muted'>The judge's mean with its bias, measured on samples people labelled, taken away "
        f"(prediction-powered inference, PPI++). {counts}.</p><div class='scroll'><table class='cards'><thead><tr>"
        "<th>estimate</th><th class=num>mean</th><th class=num>95% CI</th><th>what it means</th></tr></thead>"
        f"<tbody>{''.join(rows)}</tbody></table></div></section>"
    )


def _e(text: str) -> str:
    return html.escape(text, quote=True)
