"""Several systems compared: per metric the best system when one is, every pair's verdict at the Holm-adjusted
level with its difference, interval and p-values, the samples that moved most between systems, and with labels
each system's corrected mean. One section that a page embeds, and a self-contained page around it (kept apart
from the two-run comparison of the report); on a phone every table is a column of cards."""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING

from .._files import atomic_text
from ..evaluation import ALPHA, EvaluationResult, PairComparison, best_system
from ._css import CSS
from ._html import card_table, e

if TYPE_CHECKING:
    from ..calibration import CorrectedMean

__all__ = ["MOVED_SHOWN", "many_comparison_section", "render_comparison_page", "write_comparison_page"]

MOVED_SHOWN = 10
"""Samples listed per metric under "moved most"."""

Corrected = Mapping[str, Mapping[str, "CorrectedMean | str"]]


def many_comparison_section(
    pairs: Mapping[str, Sequence[PairComparison]],
    corrected: Corrected | None = None,
    runs: Mapping[str, EvaluationResult] | None = None,
) -> str:
    """The "Systems compared" ``<section>``: ``pairs`` per metric from :func:`ragrecall.evaluation.compare_many`;
    ``corrected`` per metric, per system, from :func:`ragrecall.calibration.corrected_mean` (or the one-line
    reason a system has none); ``runs`` by system name, for the samples that moved most."""
    parts = [
        "<section id='systems'><h2>Systems compared</h2>",
        "<p class='muted'>Every pair, B − A over the samples both scored (paired by id). A verdict says "
        f"<b>better</b> or <b>worse</b> when the pair's p-value, adjusted by Holm's method over the pairs of the "
        f"metric, is below {ALPHA:g} (so that the chance of any false verdict stays at {ALPHA:.0%}), and <b>no "
        "difference</b> otherwise — none shown, not proof of equality. Interval: 95% paired bootstrap of the "
        "difference; p: paired sign-flip randomisation test; d<sub>z</sub>: the mean difference over its "
        "standard deviation, with a 95% bootstrap interval.</p>",
    ]
    for metric, items in pairs.items():
        parts.append(f"<h3>{e(metric)}</h3>")
        parts.append(_best_line(items))
        parts.append(_pair_cards(items))
        if runs:
            parts.append(_moved(metric, runs))
        systems = (corrected or {}).get(metric)
        if systems:
            parts.append(_corrected_rows(systems))
    parts.append("</section>")
    return "".join(parts)


def render_comparison_page(
    pairs: Mapping[str, Sequence[PairComparison]],
    corrected: Corrected | None = None,
    *,
    title: str = "ragrecall comparison",
    runs: Mapping[str, EvaluationResult] | None = None,
) -> str:
    """A self-contained HTML document holding :func:`many_comparison_section`."""
    return (
        "<!doctype html><html lang='en'><head><meta charset='utf-8'>"
        "<meta name='viewport' content='width=device-width, initial-scale=1'>"
        f"<title>{e(title)}</title><style>{CSS}</style></head><body><h1>{e(title)}</h1>"
        f"{many_comparison_section(pairs, corrected, runs)}</body></html>"
    )


def write_comparison_page(
    pairs: Mapping[str, Sequence[PairComparison]],
    path: str | os.PathLike[str],
    corrected: Corrected | None = None,
    *,
    title: str = "ragrecall comparison",
    runs: Mapping[str, EvaluationResult] | None = None,
) -> None:
    """Write :func:`render_comparison_page` to ``path`` atomically."""
    page = render_comparison_page(pairs, corrected, title=title, runs=runs)
    with atomic_text(path) as out:
        out.write(page)


def _best_line(items: Sequence[PairComparison]) -> str:
    best = best_system(items)
    if best is not None:
        return (
            f"<p class='best'><b>Best: {e(best)}</b> — better than every other system "
            f"(Holm-adjusted p &lt; {ALPHA:g} in each of its pairs).</p>"
        )
    return (
        "<p class='best muted'>No single best system: no system is better than every other one at the "
        f"Holm-adjusted level {ALPHA:g}.</p>"
    )


def _verdict(item: PairComparison) -> str:
    word = item.verdict()
    if word == "no difference":
        return f"<span class='muted'>no difference between {e(item.b)} and {e(item.a)}</span>"
    css = "ok" if word == "better" else "miss"
    return f"<span class='{css}'>{e(item.b)} {word} than {e(item.a)}</span>"


def _pair_cards(items: Sequence[PairComparison]) -> str:
    head = ("pair", "verdict", "B − A", "95% CI", "p (Holm)", "p", "mean A", "mean B", "paired", "d_z", "d_z 95% CI")
    rows = []
    for item in items:
        a, b, paired, mean_a, mean_b, delta, ci, p, p_holm, d, d_ci, _ = item.cells()
        rows.append(
            [
                f"{e(b)} − {e(a)}",
                _verdict(item),
                e(delta),
                e(ci),
                e(p_holm),
                e(p),
                f"{e(mean_a)} <span class='muted'>({e(a)})</span>",
                f"{e(mean_b)} <span class='muted'>({e(b)})</span>",
                e(paired),
                e(d),
                e(d_ci),
            ]
        )
    return card_table(head, rows, numeric=(2, 3, 4, 5, 8, 9, 10), key=1)


def _moved(metric: str, runs: Mapping[str, EvaluationResult]) -> str:
    """The samples whose value differs most between systems (highest minus lowest), paired by id."""
    names = list(runs)
    values: dict[str, dict[str, float]] = {}
    for name, run in runs.items():
        if metric not in run.metrics:
            return ""
        for row in run.rows:
            value = row.results[metric].value
            if row.sample_id is not None and value is not None:
                values.setdefault(str(row.sample_id), {})[name] = value
    spread = [(max(v.values()) - min(v.values()), sid, v) for sid, v in values.items() if len(v) == len(names)]
    moved = sorted((s for s in spread if s[0] > 0), key=lambda s: (-s[0], s[1]))[:MOVED_SHOWN]
    if not moved:
        return "<h4>Samples that moved most</h4><p class='muted'>Every sample scored alike in every system.</p>"
    rows = []
    for size, sid, v in moved:
        low, high = min(v, key=v.__getitem__), max(v, key=v.__getitem__)
        rows.append(
            [e(sid), f"{size:.3f} <span class='muted'>({e(low)} → {e(high)})</span>"]
            + [f"{v[name]:.3f}" for name in names]
        )
    head = ("sample", "moved", *names)
    return (
        f"<h4>Samples that moved most</h4><p class='muted'>The {len(moved)} samples whose {e(metric)} differs most "
        "between the systems (highest minus lowest), of those every system scored.</p>"
        + card_table(head, rows, numeric=range(1, len(head)), key=1)
    )


def _corrected_rows(systems: Mapping[str, CorrectedMean | str]) -> str:
    rows = [
        [e(name), "no corrected mean", "", "", "", e(item)]
        if isinstance(item, str)
        else [
            e(name),
            f"{item.mean:.4f}",
            f"[{item.low:.4f}, {item.high:.4f}]",
            f"{item.judge_only.mean:.4f}",
            f"{item.classical.mean:.4f}",
            str(item.n_labelled)
            + "".join(f"<br><span class='muted'>{e(left.text())}</span>" for left in item.left_out)
            + (f"<br><span class='muted'>note: {e(item.note)}</span>" if item.note else ""),
        ]
        for name, item in systems.items()
    ]
    head = ("system", "corrected by people", "95% CI", "judge only", "labels only", "labelled")
    return "<h4>Corrected by people (PPI++)</h4>" + card_table(head, rows, numeric=range(1, 5), key=2)
