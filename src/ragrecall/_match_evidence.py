"""Evidence of the metrics that match retrieved items against reference items: ID recall (which reference IDs
were retrieved, and where) and string recall (each reference passage's closest retrieved passage)."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict

from .rendering import InputNotes, Passages, escape
from .results import Evidence

__all__ = ["ContextMatch", "FoundID", "IDRecallEvidence", "StringRecallEvidence"]


class FoundID(BaseModel):
    """A reference ID that was retrieved, and where."""

    model_config = ConfigDict(frozen=True)

    id: str
    """The reference ID, as a string."""
    rank: int
    """1-based position of its first occurrence in the retrieved IDs."""


class IDRecallEvidence(Evidence):
    """Which reference IDs were retrieved (with their ranks) and which were missed."""

    kind: Literal["id_recall"] = "id_recall"
    found: list[FoundID]
    """Reference IDs found in the retrieved IDs considered, in reference order."""
    missing: list[str]
    """Reference IDs not found, in reference order."""
    k: int | None
    """The cutoff applied to the retrieved IDs (None: all)."""
    retrieved_considered: int
    """How many retrieved IDs were looked at (``min(k, len(retrieved))``)."""

    def missing_items(self) -> list[str]:
        return [f"ID {doc!r}" for doc in self.missing]

    def judged_fields(self) -> tuple[str, ...]:
        return ("retrieved_context_ids", "reference_context_ids")

    def to_html(self, passages: Passages) -> str:
        found = ", ".join(f"<code>{escape(f.id)}</code> at rank {f.rank}" for f in self.found) or "none"
        missing = ", ".join(f"<code>{escape(m)}</code>" for m in self.missing) or "none"
        return f"<ul><li class='ok'>found: {found}</li><li class='miss'>missing: {missing}</li></ul>"


class ContextMatch(BaseModel):
    """For one reference context: its closest retrieved context and their similarity."""

    model_config = ConfigDict(frozen=True)

    reference_index: int
    """0-based index into ``reference_contexts``."""
    best_retrieved_index: int | None
    """0-based index into ``retrieved_contexts`` of the most similar one (first on ties); None if none."""
    similarity: float
    """Similarity in [0, 1] between the reference context and its best retrieved context."""
    recalled: bool
    """True when ``similarity >= threshold``."""


class StringRecallEvidence(Evidence):
    """Per reference context, the best retrieved match and whether it passed the threshold."""

    kind: Literal["string_recall"] = "string_recall"
    scorer: str
    """Name of the similarity function."""
    threshold: float
    """Similarity at or above which a reference context counts as recalled."""
    matches: list[ContextMatch]
    """One entry per reference context, in reference order."""

    def missing_items(self) -> list[str]:
        return [
            f"reference passage {m.reference_index + 1} (best similarity {m.similarity:.2f} < {self.threshold})"
            for m in self.matches
            if not m.recalled
        ]

    def judged_fields(self) -> tuple[str, ...]:
        return ("retrieved_contexts", "reference_contexts")

    def to_html(self, passages: Passages) -> str:
        items = []
        for m in self.matches:
            css, verdict = ("ok", "recalled") if m.recalled else ("miss", "missed")
            best = m.best_retrieved_index
            where = passages(best) if best is not None else "nothing retrieved"
            items.append(
                f"<li class='{css}'>reference passage {m.reference_index + 1}: {verdict} "
                f"(closest: {where}, similarity {m.similarity:.2f}; threshold {self.threshold})</li>"
            )
        return f"<ul>{''.join(items)}</ul>"

    def note_inputs(self, notes: InputNotes, metric: str, prefix: str) -> None:
        for m in self.matches:
            best, ref = m.best_retrieved_index, m.reference_index
            css, verdict = ("ok", "recalled") if m.recalled else ("miss", "missed")
            if best is not None:
                notes.retrieved[best].append(
                    f"<span class='{css}'>closest to reference passage {ref + 1} "
                    f"({m.similarity:.2f}, {escape(metric)})</span>"
                )
                notes.reference[ref].append(
                    f"<span class='{css}'>{verdict}: closest is passage {best + 1} ({m.similarity:.2f})</span>"
                )
            else:
                notes.reference[ref].append(f"<span class='miss'>{verdict}: nothing retrieved</span>")
