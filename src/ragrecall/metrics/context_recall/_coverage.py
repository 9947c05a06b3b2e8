"""Does a claim list cover its reference, and only its reference? Deterministic, no LLM call.

- **Covered**: a sentence of the reference (:func:`ragrecall.text.split_sentences`) is covered when at least
  :data:`COVERAGE_SHARE` of its content terms occur in the claims and every number it writes outside
  parentheses occurs in a claim. Terms are stemmed words and, for CJK text, single characters (a claim may
  say the same in other words). Citation marks (``[1]``, ``[2, 3]``, ``(Smith et al., 2019)``) are not part
  of a sentence's facts; numbers in parentheses (``330 m (1,083 ft)``) are often conversions or references
  and need no claim of their own. A sentence with no content term and no number (``"It is so."``), and a
  lead-in that ends with a colon (``"Steps:"``), need no claim.
- **Grounded**: a claim is grounded when at least :data:`GROUNDING_SHARE` of its content terms occur in the
  reference and every number it writes occurs there (a third: a claim may use its own words, "the firm was
  established" for "the company was founded", but not bring facts of its own). Terms are stemmed words and,
  for CJK text, character bigrams (the stricter test: a claim must come from the reference, not merely share
  its characters).
- **Duplicate**: a claim equal to an earlier one after normalisation (case, width, whitespace, punctuation).

Only grounded, non-duplicate claims count towards coverage.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from ...text import split_sentences
from ...text.locate import fold
from ...text.numbers import numbers_in
from ...text.terms import content_terms
from ._evidence import DroppedClaim

__all__ = ["COVERAGE_SHARE", "GROUNDING_SHARE", "CoverageReport", "Flagged", "analyse"]

COVERAGE_SHARE = 0.5
"""Least share of a sentence's terms that the claims must contain for the sentence to count as covered."""
GROUNDING_SHARE = 1 / 3
"""Least share of a claim's terms that the reference must contain for the claim to count as grounded."""
_CITATION = re.compile(
    r"\[\d+(?:\s*[,;–-]\s*\d+)*\]"  # [1], [2, 3], [4-6]
    r"|\((?:[A-Z][\w'’-]+(?:\s+(?:et\s+al\.?|and|&)\s*(?:[A-Z][\w'’-]+)?)?,?\s+\d{4}[a-z]?(?:;\s*)?)+\)"
)
_PARENTHESES = re.compile(r"\([^()]*\)|（[^（）]*）")


@dataclass(frozen=True)
class Flagged:
    """A sentence not covered, or a claim not kept, and why."""

    text: str
    reason: str
    index: int
    """0-based position of the sentence in the reference, or of the claim in the claim list."""


@dataclass(frozen=True)
class CoverageReport:
    """What :func:`analyse` found."""

    kept: list[str]
    """The grounded claims, without duplicates, in order."""
    kept_indices: list[int]
    """Their 0-based positions in the claim list given."""
    uncovered: list[Flagged]
    """Sentences of the reference that the kept claims do not cover."""
    ungrounded: list[Flagged]
    """Claims the reference does not state."""
    duplicates: list[Flagged]
    """Claims repeating an earlier one."""

    @property
    def needs_attention(self) -> bool:
        """True when a sentence is uncovered or a claim is ungrounded (duplicates are merely dropped)."""
        return bool(self.uncovered or self.ungrounded)

    def dropped(self) -> list[DroppedClaim]:
        """The ungrounded and duplicate claims, in claim order, as evidence."""
        flagged = sorted(self.ungrounded + self.duplicates, key=lambda f: f.index)
        return [DroppedClaim(claim=f.text, reason=f.reason) for f in flagged]


def analyse(reference: str, claims: Sequence[str]) -> CoverageReport:
    """Check ``claims`` against ``reference`` (see the module docstring)."""
    ref_terms = content_terms(reference, stem=True)
    ref_numbers = numbers_in(reference)
    kept: list[str] = []
    kept_indices: list[int] = []
    seen: dict[str, int] = {}
    ungrounded: list[Flagged] = []
    duplicates: list[Flagged] = []
    for i, claim in enumerate(claims):
        reason = _ungrounded_reason(claim, ref_terms, ref_numbers)
        if reason is not None:
            ungrounded.append(Flagged(claim, reason, i))
            continue
        key = fold(claim)
        if key in seen:
            duplicates.append(Flagged(claim, f"duplicate of claim {seen[key] + 1}", i))
            continue
        seen[key] = i
        kept.append(claim)
        kept_indices.append(i)
    claim_terms = frozenset().union(*(content_terms(c, stem=True, cjk="chars") for c in kept))
    claim_numbers = frozenset().union(*(numbers_in(c) for c in kept))
    uncovered = []
    for i, sentence in enumerate(split_sentences(reference)):
        reason = _uncovered_reason(sentence, claim_terms, claim_numbers)
        if reason is not None:
            uncovered.append(Flagged(sentence, reason, i))
    return CoverageReport(kept, kept_indices, uncovered, ungrounded, duplicates)


def _ungrounded_reason(claim: str, ref_terms: frozenset[str], ref_numbers: frozenset[str]) -> str | None:
    extra = numbers_in(claim) - ref_numbers
    if extra:
        return f"number not in the reference: {', '.join(sorted(extra))}"
    terms = content_terms(claim, stem=True)
    if not terms:
        return None
    shared = len(terms & ref_terms)
    if shared < GROUNDING_SHARE * len(terms):
        return f"not grounded in the reference: {shared} of {len(terms)} terms occur in it"
    return None


def _uncovered_reason(sentence: str, claim_terms: frozenset[str], claim_numbers: frozenset[str]) -> str | None:
    sentence = _CITATION.sub(" ", sentence)
    if sentence.rstrip().endswith((":", "：")):
        return None
    missing = numbers_in(_PARENTHESES.sub(" ", sentence)) - claim_numbers
    if missing:
        return f"number in no claim: {', '.join(sorted(missing))}"
    terms = content_terms(sentence, stem=True, cjk="chars")
    if not terms:
        return None
    shared = len(terms & claim_terms)
    if shared < COVERAGE_SHARE * len(terms):
        return f"{shared} of {len(terms)} terms occur in the claims"
    return None
