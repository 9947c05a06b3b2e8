"""Does a claim list cover its reference, and only its reference? Deterministic, no LLM call.

- **Covered**: a sentence of the reference (:func:`ragrecall.text.split_sentences`) is covered when at least
  :data:`COVERAGE_SHARE` of its content terms occur in the claims and every number it writes outside
  parentheses occurs in a claim. Terms are stemmed words and, for CJK text, single characters (a claim may
  say the same in other words). Citation marks (``[1]``, ``[2, 3]``, ``(Smith et al., 2019)``) are not part
  of a sentence's facts, nor are links, Markdown headings and step labels (``Step 1:``); numbers in
  parentheses (``330 m (1,083 ft)``) are often conversions or references and need no claim of their own. At
  least one of the sentence's *own* terms (those no other sentence has) must occur in the claims, so that a
  sentence repeating another's subject is not covered by that other sentence's claim; and a sentence with a
  negation needs a claim with one. A sentence with no content term and no number (``"It is so."``), and a
  lead-in that ends with a colon and writes no number (``"Steps:"``), need no claim.
- **Grounded**: a claim is grounded when at least :data:`GROUNDING_SHARE` of its content terms occur in the
  reference (a third: a claim may use its own words, "the firm was established" for "the company was
  founded", but not bring facts of its own), every number it writes occurs there, and it writes no negation
  unless the reference does. Terms are stemmed words and, for CJK text, character bigrams (the stricter
  test: a claim must come from the reference, not merely share its characters). And it says what its
  sentence says (:func:`._grounded.misread`): the same roles, negation, frames and cue values.
- **Duplicate**: a claim equal to an earlier one after normalisation (case, width, whitespace, punctuation).

Only grounded, non-duplicate claims count towards coverage.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from ...text import split_sentences
from ...text.locate import fold
from ...text.negation import negations
from ...text.numbers import numbers_in
from ...text.segment import CJK_RANGES
from ...text.terms import content_terms
from ._evidence import DroppedClaim
from ._grounded import misread

__all__ = ["COVERAGE_SHARE", "GROUNDING_SHARE", "CoverageReport", "Flagged", "analyse", "states_facts"]

COVERAGE_SHARE = 0.5
"""Least share of a sentence's terms that the claims must contain for the sentence to count as covered."""
GROUNDING_SHARE = 1 / 3
"""Least share of a claim's terms that the reference must contain for the claim to count as grounded."""
_CITATION = re.compile(
    r"\[\d+(?:\s*[,;–-]\s*\d+)*\]"  # [1], [2, 3], [4-6]
    r"|\((?:[A-Z][\w'’-]+(?:\s+(?:et\s+al\.?|and|&)\s*(?:[A-Z][\w'’-]+)?)?,?\s+\d{4}[a-z]?(?:;\s*)?)+\)"
)
_PARENTHESES = re.compile(r"\([^()]*\)|（[^（）]*）")
_HEADING = re.compile(r"^[ \t]*#{1,6}[ \t]+[^\n]*$", re.MULTILINE)
_SURFACE_WORD = re.compile(f"[{CJK_RANGES}]|[^\\W\\d_{CJK_RANGES}]+")
_URL = re.compile(r"\b(?:https?://|www\.)\S+")
_STEP_LABEL = re.compile(r"^\s*(?:step|item|part|no\.?)\s*\d+\s*[:.)]", re.IGNORECASE)


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

    claims: list[str]
    """The claim list given."""
    kept_indices: list[int]
    """0-based positions in it of the grounded claims, without duplicates, in order."""
    uncovered: list[Flagged]
    """Sentences of the reference that the kept claims do not cover."""
    ungrounded: list[Flagged]
    """Claims the reference does not state."""
    duplicates: list[Flagged]
    """Claims repeating an earlier one."""

    @property
    def kept(self) -> list[str]:
        """The grounded claims, without duplicates, in order."""
        return [self.claims[i] for i in self.kept_indices]

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
    body = _HEADING.sub("\n", reference)
    ref_terms = content_terms(reference, stem=True)
    ref_numbers = numbers_in(reference)
    ref_negated = bool(negations(reference))
    kept_indices: list[int] = []
    seen: dict[str, int] = {}
    ungrounded: list[Flagged] = []
    duplicates: list[Flagged] = []
    for i, claim in enumerate(claims):
        reason = _ungrounded_reason(claim, ref_terms, ref_numbers, ref_negated) or misread(claim, reference)
        if reason is not None:
            ungrounded.append(Flagged(claim, reason, i))
            continue
        key = fold(claim)
        if key in seen:
            duplicates.append(Flagged(claim, f"duplicate of claim {seen[key] + 1}", i))
            continue
        seen[key] = i
        kept_indices.append(i)
    sentences = split_sentences(body)
    facts = [_facts_of(s) for s in sentences]
    terms = [content_terms(f, stem=True, cjk="chars") for f in facts]
    sentences_with = Counter(t for ts in terms for t in ts)  # how many sentences hold each term
    kept = [claims[i] for i in kept_indices]
    claimed = _Claimed(
        frozenset().union(*(content_terms(c, stem=True, cjk="chars") for c in kept)),
        frozenset().union(*(numbers_in(c) for c in kept)),
        any(negations(c) for c in kept),
    )
    uncovered = []
    for i, (sentence, fact) in enumerate(zip(sentences, facts, strict=True)):
        own = frozenset(t for t in terms[i] if sentences_with[t] == 1)
        reason = _uncovered_reason(fact, terms[i], own, claimed)
        if reason is not None:
            uncovered.append(Flagged(sentence, reason, i))
    return CoverageReport(list(claims), kept_indices, uncovered, ungrounded, duplicates)


def states_facts(reference: str) -> bool:
    """True when some sentence of ``reference`` needs a claim by the rules above, that is, an empty claim list
    would leave it uncovered; False for a reference made only of layout (headings, citation marks, links, step
    labels, lead-ins ending in a colon) and of sentences with no content term, number or negation."""
    return bool(analyse(reference, []).uncovered)


@dataclass(frozen=True)
class _Claimed:
    """What the kept claims say, together."""

    terms: frozenset[str]
    numbers: frozenset[str]
    negated: bool


def _ungrounded_reason(
    claim: str, ref_terms: frozenset[str], ref_numbers: frozenset[str], ref_negated: bool
) -> str | None:
    extra = numbers_in(claim) - ref_numbers
    if extra:
        return f"number not in the reference: {', '.join(sorted(extra))}"
    if negations(claim) and not ref_negated:
        return "a negation the reference does not write"
    terms = content_terms(claim, stem=True)
    if not terms:
        return None
    shared = len(terms & ref_terms)
    if shared < GROUNDING_SHARE * len(terms):
        return f"not grounded in the reference: {shared} of {len(terms)} terms occur in it"
    return None


def _surface(text: str, terms: frozenset[str]) -> list[str]:
    """The words of ``text`` (at most five, in order) whose terms are ``terms``: "tallest", not its stem."""
    out: list[str] = []
    for word in _SURFACE_WORD.findall(text.casefold()):
        if word not in out and content_terms(word, stem=True, cjk="chars") & terms:
            out.append(word)
    return out[:5]


def _facts_of(sentence: str) -> str:
    """The sentence without what states no fact: citation marks, links, a step label opening it."""
    return _STEP_LABEL.sub(" ", _URL.sub(" ", _CITATION.sub(" ", sentence)))


def _uncovered_reason(fact: str, terms: frozenset[str], own: frozenset[str], claimed: _Claimed) -> str | None:
    missing = numbers_in(_PARENTHESES.sub(" ", fact)) - claimed.numbers
    if missing:
        return f"number in no claim: {', '.join(sorted(missing))}"
    if fact.rstrip().endswith((":", "：")):
        return None  # a lead-in to what follows (its numbers, if any, were checked above)
    if negations(fact) and not claimed.negated:
        return "its negation is in no claim"
    if not terms:
        return None
    shared = len(terms & claimed.terms)
    if shared < COVERAGE_SHARE * len(terms):
        return f"{shared} of {len(terms)} terms occur in the claims"
    if own and not own & claimed.terms:
        # Terms this sentence shares with others can come from their claims; its own must appear somewhere.
        return f"none of its own terms ({', '.join(_surface(fact, own))}) occur in the claims"
    return None
