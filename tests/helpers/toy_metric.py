"""A toy metric in one file, as a user would write one: the share of the reference's words that occur in some
retrieved passage, with evidence that says how it shows in the summary, the report and the exports."""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, ClassVar, Literal

from ragrecall.metrics import SyncMetric
from ragrecall.rendering import InputNotes, Passages, Span, escape
from ragrecall.results import Evidence, MetricResult
from ragrecall.schema import Sample

_WORD = re.compile(r"\w+")


class WordEvidence(Evidence):
    """Each reference word and the passage it was first found in (None: in none)."""

    kind: Literal["toy_words"] = "toy_words"
    words: list[str]
    found_in: list[int | None]
    starts: list[int | None]

    def counts(self) -> dict[str, int]:
        return {"words": len(self.words), "found": sum(p is not None for p in self.found_in)}

    @classmethod
    def counts_text(cls, counts: Mapping[str, int]) -> str:
        return f"{counts['found']} of {counts['words']} reference words found (toy)"

    def to_html(self, passages: Passages) -> str:
        items = "".join(
            f"<li class='toy-word'>{escape(w)}: {passages(p) if p is not None else 'nowhere'}</li>"
            for w, p in zip(self.words, self.found_in, strict=True)
        )
        return f"<ul class='toy'>{items}</ul>"

    def note_inputs(self, notes: InputNotes, metric: str, prefix: str) -> None:
        for word, passage, start in zip(self.words, self.found_in, self.starts, strict=True):
            if passage is not None and start is not None:
                notes.spans[passage].append(Span(start, start + len(word), f"{prefix}w", f"{metric}: {word}"))

    @classmethod
    def legend_html(cls) -> str:
        return "<p class='toy-legend'>toy: each reference word and where it was found</p>"

    def columns(self) -> dict[str, Any]:
        return {"missing": " ".join(w for w, p in zip(self.words, self.found_in, strict=True) if p is None)}


@dataclass(frozen=True)
class ToyWordRecall(SyncMetric):
    """Share of the reference's words (of at least ``min_chars`` characters) found in a retrieved passage."""

    min_chars: int = 1
    name: str = ""

    required_fields: ClassVar[tuple[str, ...]] = ("reference", "retrieved_contexts")
    metric_name: ClassVar[str] = "toy_word_recall"

    def _score_sample(self, sample: Sample) -> MetricResult:
        assert sample.reference is not None and sample.retrieved_contexts is not None
        words = [w for w in _WORD.findall(sample.reference) if len(w) >= self.min_chars]
        found_in: list[int | None] = []
        starts: list[int | None] = []
        for word in words:
            hits = [(i, m.start()) for i, c in enumerate(sample.retrieved_contexts) if (m := _find(word, c))]
            found_in.append(hits[0][0] if hits else None)
            starts.append(hits[0][1] if hits else None)
        evidence = WordEvidence(words=words, found_in=found_in, starts=starts)
        if not words:
            return MetricResult.unscorable(self.name, "no reference words", evidence, sample_id=sample.id)
        value = sum(p is not None for p in found_in) / len(words)
        return MetricResult.scored(self.name, value, evidence, sample_id=sample.id)


def _find(word: str, text: str) -> re.Match[str] | None:
    return re.search(rf"\b{re.escape(word)}\b", text)
