"""Does a claim say what its reference sentence says? The sentence of the reference that holds most of a
claim's terms is read as the claim's evidence, with the checks that read what a sentence asserts: negation,
frames and cue values (:mod:`._reading`), roles (:mod:`._roles`). A claim that swaps the roles of its sentence
("Wendel Abbot trained Vera Orme" from "Vera Orme trained Wendel Abbot"), drops its hedge or changes its bound
is not grounded: the judge is asked once to fix it, then the sentence itself is judged in its place.

Names, numbers and the predicate's words are left to the grounding rules of :mod:`._coverage`, which forgive
a claim its own words.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

from ...text.numbers import numbers_in
from ...text.segment import sentence_spans
from ._checks import negated_around
from ._facts import PROBLEMS, Evidence, claim_facts
from ._reading import reading_failure
from ._roles import roles_failure
from ._scope import Scope
from ._words import strict_terms, words

__all__ = ["misread"]

_SHARE = 0.5
"""Least share of a claim's terms its sentence must hold for the claim to be read against it."""
_POLARITY_SHARE = 0.7
"""... for its negation to be compared: a claim may take its negation from the next sentence."""


@dataclass(frozen=True)
class _Reference:
    """The reference as the one passage the evidence comes from."""

    texts: Sequence[str]

    def sentences(self, index: int) -> tuple[tuple[int, int], ...]:
        return sentence_spans(self.texts[index])


@lru_cache(maxsize=4096)
def misread(claim: str, reference: str) -> str | None:
    """Why ``claim`` does not say what its sentence of ``reference`` says, or None when it does as far as code
    reads (see the module docstring)."""
    facts = claim_facts(claim)
    spans = sentence_spans(reference)
    if not spans or not facts.terms:
        return None
    said = (facts.bigrams - facts.name_terms) | facts.numbers

    def held(span: tuple[int, int]) -> tuple[int, int]:
        # most of the claim's terms; of sentences holding as many, the one holding more of what it says beyond
        # its names ("该星预计于2027年…发射" rather than "鸿雁五号是…卫星" for 鸿雁五号于2027年发射)
        text = reference[span[0] : span[1]]
        return len(facts.terms & words(text)), len(said & (strict_terms(text) | numbers_in(text)))

    start, end = max(spans, key=held)
    share = len(facts.terms & words(reference[start:end])) / len(facts.terms)
    if share < _SHARE:
        return None  # a claim drawing on several sentences is not read against one of them
    source = _Reference([reference])
    evidence = Evidence.at(0, start, end, source)
    scope = Scope.of(evidence, facts)
    if share >= _POLARITY_SHARE and negated_around(evidence, facts, scope) != facts.negated:
        return f"not what its sentence says: {PROBLEMS['polarity']}"
    failed = reading_failure(facts, scope) or roles_failure(facts, scope)
    return None if failed is None else f"not what its sentence says: {failed.problem}"
