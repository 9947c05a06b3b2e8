"""Several systems compared: per metric every pair's difference with its interval, the randomisation p-value
and its Holm adjustment, the paired effect size; with labels, each system's corrected mean. One section that a
page embeds, and a self-contained page around it (kept apart from the two-run comparison of the report)."""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING

from .._files import atomic_text
from ..evaluation import PAIR_HEADINGS, PairComparison
from ._css import CSS
from ._html import e, scroll_table

if TYPE_CHECKING:
    from ..calibration import CorrectedMean

__all__ = ["many_comparison_section", "render_comparison_page", "write_comparison_page"]


def many_comparison_section(
    pairs: Mapping[str, Sequence[PairComparison]],
    corrected: Mapping[str, Mapping[str, CorrectedMean | str]] | None = None,
) -> str:
    """The "Systems compared" ``<section>``: ``pairs`` per metric from :func:`ragrecall.evaluation.compare_many`;
    ``corrected`` per metric, per system, from :func:`ragrecall.calibration.corrected_mean`."""
    parts = [
        "<section id='systems'><h2>Systems compared</h2>",
        "<p class='muted'>Every pair, B − A over the samples both scored (paired by id). Interval: 95% paired "
        "bootstrap of the difference; p: paired sign-flip randomisation test; p (Holm): adjusted for the number of "
        "pairs of the metric, so that the chance of any false difference stays at the level chosen; d<sub>z</sub>: "
        "the mean difference over its standard deviation, with a 95% bootstrap interval.</p>",
    ]
    for metric, items in pairs.items():
        rows = [[e(cell) for cell in item.cells()] for item in items]
        parts.append(f"<h3>{e(metric)}</h3>")
        parts.append(scroll_table(PAIR_HEADINGS, rows, numeric=range(2, len(PAIR_HEADINGS)), css="wide"))
        systems = (corrected or {}).get(metric)
        if systems:
            parts.append(_corrected_rows(systems))
    parts.append("</section>")
    return "".join(parts)


def render_comparison_page(
    pairs: Mapping[str, Sequence[PairComparison]],
    corrected: Mapping[str, Mapping[str, CorrectedMean | str]] | None = None,
    *,
    title: str = "ragrecall comparison",
) -> str:
    """A self-contained HTML document holding :func:`many_comparison_section`."""
    return (
        "<!doctype html><html lang='en'><head><meta charset='utf-8'>"
        "<meta name='viewport' content='width=device-width, initial-scale=1'>"
        f"<title>{e(title)}</title><style>{CSS}</style></head><body><h1>{e(title)}</h1>"
        f"{many_comparison_section(pairs, corrected)}</body></html>"
    )


def write_comparison_page(
    pairs: Mapping[str, Sequence[PairComparison]],
    path: str | os.PathLike[str],
    corrected: Mapping[str, Mapping[str, CorrectedMean | str]] | None = None,
    *,
    title: str = "ragrecall comparison",
) -> None:
    """Write :func:`render_comparison_page` to ``path`` atomically."""
    page = render_comparison_page(pairs, corrected, title=title)
    with atomic_text(path) as out:
        out.write(page)


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
    return "<h4>Corrected by people (PPI++)</h4>" + scroll_table(head, rows, numeric=range(1, 6))
