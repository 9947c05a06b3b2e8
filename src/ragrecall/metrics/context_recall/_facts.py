"""What the checks read: a claim's facts (read once per claim), a quote widened to its evidence sentences, and a
failed check with its problem text (:data:`PROBLEMS`)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cached_property, lru_cache
from typing import Protocol

from ...text.names import Name, claim_names
from ...text.negation import negations
from ...text.numbers import Quantity, numbers_in, quantities, ranges_in
from ._evidence import Quote
from ._words import script_of, strict_terms, words

__all__ = ["PROBLEMS", "ClaimFacts", "Evidence", "Failure", "SentenceSource", "claim_facts", "failed"]

PROBLEMS: dict[str, str] = {
    "not_found": "quote not found in any context",
    "ellipsis": "quote with an ellipsis",
    "states_nothing": "quote states nothing",
    "off_topic": "quote is about something else",
    "polarity": "negation differs",
    "subject": "subject not in evidence",
    "number": "number not in evidence",
    "unit": "unit differs",
    "range": "range not in evidence",
    "unrelated": "quotes do not add up",
    "predicate": "evidence states something else",
    "unread": "predicate not checked by code",
    "modality": "the evidence hedges it",
    "conditional": "the evidence states it under a condition",
    "attribution": "the evidence only reports it",
    "fiction": "the evidence tells it as fiction",
    "question": "the evidence leaves it open",
    "comparative": "comparison differs",
    "superlative": "rank differs",
    "temporal": "time order differs",
    "direction": "direction differs",
    "quantifier": "quantifier differs",
    "bound": "bound differs",
    "fraction": "fraction differs",
    "status": "the evidence says it no longer holds",
    "membership": "membership differs",
    "outcome": "outcome differs",
    "contrast": "a word of the claim is another in the evidence",
    "roles": "roles differ",
    "speaker": "speaker differs",
    "year": "year differs",
    "contested": "a passage states the claim",
    "refuted": "not confirmed",
}
"""Check → the problem text a failure of it opens with (details may follow after a colon)."""


class SentenceSource(Protocol):
    """The retrieved contexts with the sentence spans of each (``_verify.Contexts``)."""

    @property
    def texts(self) -> Sequence[str]: ...

    def sentences(self, index: int) -> tuple[tuple[int, int], ...]:
        """The sentence spans of context ``index``."""
        ...


@dataclass(frozen=True)
class Evidence:
    """A located quote widened to the sentence(s) of its context that hold it."""

    context: int
    start: int
    """Start of the first sentence holding the quote, in the context's text."""
    end: int
    """End of the last one."""
    quote_start: int
    quote_end: int
    text: str
    """The sentence(s)."""
    earlier: str
    """The context's text before them."""
    later: str = ""
    """The sentence after them, if any."""

    @classmethod
    def of(cls, quote: Quote, contexts: SentenceSource) -> Evidence:
        """``quote`` (located) widened to its sentences."""
        assert quote.start is not None and quote.end is not None
        return cls.at(quote.context, quote.start, quote.end, contexts)

    @classmethod
    def at(cls, context: int, quote_start: int, quote_end: int, contexts: SentenceSource) -> Evidence:
        """The span ``[quote_start, quote_end)`` of context ``context`` widened to its sentences."""
        text = contexts.texts[context]
        spans = contexts.sentences(context)
        holding = [(s, e) for s, e in spans if s < quote_end and quote_start < e] or [(quote_start, quote_end)]
        start, end = min(holding[0][0], quote_start), max(holding[-1][1], quote_end)
        after = next((text[s:e] for s, e in spans if s >= end), "")
        return cls(context, start, end, quote_start, quote_end, text[start:end], text[:start], after)


@dataclass(frozen=True)
class Failure:
    """A failed check: its key in :data:`PROBLEMS` and the problem text for the evidence; or, with ``unread``,
    what code could not read (a predicate in other words), a note that fails nothing."""

    check: str
    problem: str
    unread: bool = False


def failed(result: Failure | None) -> bool:
    """True when ``result`` fails the evidence (a note of what code could not read does not)."""
    return result is not None and not result.unread


class ClaimFacts:
    """What the checks read of a claim, each part read once and only when a check asks for it (a claim that a
    passage states word for word is decided on its terms, numbers and polarity; its names are never read)."""

    def __init__(self, text: str) -> None:
        self.text = text

    @cached_property
    def terms(self) -> frozenset[str]:
        """Content terms, stemmed (CJK as single characters), numbers left out."""
        return words(self.text)

    @cached_property
    def bigrams(self) -> frozenset[str]:
        """CJK bigrams and stemmed words: the stricter terms, for finding the claim's words in a clause."""
        return strict_terms(self.text)

    @cached_property
    def numbers(self) -> frozenset[str]:
        return numbers_in(self.text)

    @cached_property
    def quantities(self) -> tuple[Quantity, ...]:
        return quantities(self.text)

    @cached_property
    def ranges(self) -> frozenset[tuple[str, str]]:
        return ranges_in(self.text)

    @cached_property
    def names(self) -> tuple[Name, ...]:
        return claim_names(self.text)

    @cached_property
    def name_terms(self) -> frozenset[str]:
        """The strict terms of the names (for a Chinese subject, its bigrams)."""
        return _name_terms(self.text)

    @cached_property
    def negated(self) -> bool:
        return bool(negations(self.text))

    @cached_property
    def scripts(self) -> frozenset[str]:
        return script_of(self.text)


@lru_cache(maxsize=4096)
def claim_facts(claim: str) -> ClaimFacts:
    """The facts of ``claim`` the checks need (cached: a claim is checked once per quote and per vote)."""
    return ClaimFacts(claim)


def _name_terms(claim: str) -> frozenset[str]:
    """The strict terms of the claim's names; for a Chinese subject, also the bigram joining it to what
    follows (江口渡轮在: 轮在)."""
    out: set[str] = set()
    for name in claim_names(claim):
        at = claim.find(name.text) if name.cjk else -1
        out |= strict_terms(claim[at : at + len(name.text) + 1] if at >= 0 else name.text)
    return frozenset(out)
