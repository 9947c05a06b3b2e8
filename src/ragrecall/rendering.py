"""What a metric's evidence renders itself with in the report: escaping, passages named and linked, the notes a
metric puts on a sample's inputs, and the plain view of any evidence.

Each evidence class (see :class:`ragrecall.results.Evidence`) says how it shows: its summed counts in words
(``counts_text``), its verdict on one sample (``to_html``), its marks on the sample's inputs (``note_inputs``),
a legend shown once above the samples (``legend_html``) and its columns in exports (``columns``). The report,
the summary and the exports call those alone, whatever the kind.

Evidence indices are 0-based in results (``Quote.context``, ``ContextMatch.best_retrieved_index``); in the
report, as in the judge's prompts, passages are numbered from 1.
"""

from __future__ import annotations

import html
import json
from collections import defaultdict
from dataclasses import dataclass, field
from typing import Any

__all__ = ["InputNotes", "Passages", "Span", "escape", "fields_html", "passage_anchor"]


def escape(text: object) -> str:
    """``text`` as HTML text or attribute value: every ``<``, ``>``, ``&`` and quote escaped."""
    return html.escape(str(text), quote=True)


def passage_anchor(sample_index: int, passage: int) -> str:
    """The element id of retrieved passage ``passage`` (0-based) of a sample; shown as ``passage + 1``."""
    return f"s{sample_index}-p{passage + 1}"


class Passages:
    """Names retrieved passages 1-based, linked to the passage shown in the sample's inputs when it is there.

    Args:
        sample_index: the sample's index in the run (the links' target ids carry it).
        shown: how many of its retrieved passages the page shows (0: none, so no links).
    """

    def __init__(self, sample_index: int, shown: int) -> None:
        self.sample_index, self.shown = sample_index, shown

    def __call__(self, passage: Any) -> str:
        """``passage`` (0-based) as HTML: ``passage 3``, a link when that passage is shown."""
        if not isinstance(passage, int) or isinstance(passage, bool):
            return f"passage {escape(passage)}"
        if 0 <= passage < self.shown:
            return f"<a href='#{passage_anchor(self.sample_index, passage)}'>passage {passage + 1}</a>"
        return f"passage {passage + 1}"


@dataclass(frozen=True)
class Span:
    """A stretch of a retrieved passage that a metric points at (a verified quote), highlighted in the inputs."""

    start: int
    end: int
    label: str
    """Shown after the span, e.g. the number of the claim it supports."""
    title: str
    """Shown on hover, e.g. the metric and the claim."""


@dataclass
class InputNotes:
    """What the metrics said about each passage of one sample (0-based keys); notes are HTML, escaped by the
    metric that writes them."""

    spans: dict[int, list[Span]] = field(default_factory=lambda: defaultdict(list))
    """Retrieved passage → spans to highlight in it."""
    retrieved: dict[int, list[str]] = field(default_factory=lambda: defaultdict(list))
    """Retrieved passage → notes shown above it."""
    reference: dict[int, list[str]] = field(default_factory=lambda: defaultdict(list))
    """Reference passage → notes shown above it."""


def fields_html(data: Any) -> str:
    """Any JSON-like value as nested HTML lists: mappings as ``key: value`` items, lists of scalars inline."""
    if isinstance(data, dict):
        items = "".join(f"<li><strong>{escape(k)}</strong>: {fields_html(v)}</li>" for k, v in data.items())
        return f"<ul>{items}</ul>"
    if isinstance(data, list):
        if all(not isinstance(v, (dict, list)) for v in data):
            return escape(", ".join(json.dumps(v, ensure_ascii=False) for v in data)) or "[]"
        return "<ol>" + "".join(f"<li>{fields_html(v)}</li>" for v in data) + "</ol>"
    return escape(json.dumps(data, ensure_ascii=False))
