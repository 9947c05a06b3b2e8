"""HTML pieces the report's sections share: escaping, scrolling tables, anchors and labels."""

from __future__ import annotations

import html
from collections.abc import Iterable, Sequence

from ..evaluation import SampleRow
from ..results import MetricResult

__all__ = ["card_table", "e", "sample_anchor", "sample_label", "sample_link", "scroll_table", "value_cell"]


def e(text: object) -> str:
    """``text`` as HTML text or attribute value: every ``<``, ``>``, ``&`` and quote escaped."""
    return html.escape(str(text), quote=True)


def scroll_table(
    head: Sequence[str], rows: Iterable[Sequence[str]], *, numeric: Iterable[int] = (), css: str = ""
) -> str:
    """A table inside a box that scrolls sideways when the table is wider than the screen.

    ``head`` is plain text (escaped here); the cells of ``rows`` are HTML, escaped by the caller.
    """
    nums = set(numeric)

    def cls(i: int) -> str:
        return " class=num" if i in nums else ""

    top = "".join(f"<th{cls(i)}>{e(h)}</th>" for i, h in enumerate(head))
    body = "".join("<tr>" + "".join(f"<td{cls(i)}>{c}</td>" for i, c in enumerate(row)) + "</tr>" for row in rows)
    extra = f" {css}" if css else ""
    return f"<div class='scroll{extra}'><table><thead><tr>{top}</tr></thead><tbody>{body}</tbody></table></div>"


def card_table(
    head: Sequence[str], rows: Iterable[Sequence[str]], *, numeric: Iterable[int] = (), key: int | None = None
) -> str:
    """A table that is a table on a wide screen and, on a phone (600 px or less), one card per row: each cell on
    its own line after its heading, the first cell leading and cell ``key`` next, larger. Cells are HTML,
    escaped by the caller; ``head`` is plain text."""
    nums = set(numeric)

    def cell(i: int, content: str) -> str:
        classes = [c for c, on in (("num", i in nums), ("lead", i == 0), ("key", i == key)) if on]
        attr = f" class='{' '.join(classes)}'" if classes else ""
        return f"<td{attr} data-label='{e(head[i])}'>{content}</td>"

    top = "".join(f"<th{' class=num' if i in nums else ''}>{e(h)}</th>" for i, h in enumerate(head))
    body = "".join("<tr>" + "".join(cell(i, c) for i, c in enumerate(row)) + "</tr>" for row in rows)
    return f"<div class='scroll'><table class='cards'><thead><tr>{top}</tr></thead><tbody>{body}</tbody></table></div>"


def sample_anchor(index: int) -> str:
    """The element id of a sample's entry in the samples section."""
    return f"s{index}"


def sample_label(row: SampleRow) -> str:
    """How a sample is named: its id, else its 0-based position as error messages name it (``sample 3``)."""
    return str(row.sample_id) if row.sample_id is not None else f"sample {row.index}"


def sample_link(row: SampleRow) -> str:
    """A link to the sample's entry in the samples section."""
    return f"<a href='#{sample_anchor(row.index)}'>{e(sample_label(row))}</a>"


def value_cell(result: MetricResult | None) -> str:
    """The value to three decimals, or the status coloured when there is no value."""
    if result is None:
        return "<span class='muted'>absent</span>"
    if result.value is not None:
        return f"{result.value:.3f}"
    css = "warn" if result.status == "unscorable" else "miss"
    return f"<span class='{css}'>{result.status}</span>"
