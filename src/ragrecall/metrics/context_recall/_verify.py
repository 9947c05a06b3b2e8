"""Check a "supported" verdict against the contexts: every quote must be in a context and about the claim, and
every number of the claim must be in a quote. Deterministic, no LLM call.

A quote is looked for in the context it cites, then in every other context (exact matches first, then the best
fuzzy one); found elsewhere, its citation is corrected. The word and number checks read the located passages
as the contexts write them, never the judge's copy, so a quote that misstates a number cannot pass.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from dataclasses import dataclass, field

from rapidfuzz import fuzz

from ...llm._prompts import unescape_data
from ...text.locate import Folded, Located, fold, has_ellipsis, locate
from ...text.numbers import names_in, numbers_in
from ...text.terms import content_terms
from ._evidence import QUOTE_WINDOW, Quote, Verification
from ._replies import Support

__all__ = ["Checked", "Contexts", "check_support"]


@dataclass
class Contexts:
    """The retrieved contexts, each folded for matching (and read for its words) on first use."""

    texts: Sequence[str]
    _folded: dict[int, Folded] = field(default_factory=dict)
    _words: dict[int, frozenset[str]] = field(default_factory=dict)

    def folded(self, index: int) -> Folded:
        """Context ``index`` (0-based), folded."""
        if index not in self._folded:
            self._folded[index] = Folded.of(self.texts[index])
        return self._folded[index]

    def words(self, index: int) -> frozenset[str]:
        """The content words (stemmed; CJK characters) of context ``index``, numbers left out."""
        if index not in self._words:
            self._words[index] = _words(self.texts[index])
        return self._words[index]

    def __len__(self) -> int:
        return len(self.texts)


@dataclass(frozen=True)
class Checked:
    """A verdict's quotes, located, and what the check concluded."""

    quotes: list[Quote]
    verification: Verification
    problem: str | None = None
    """For the evidence: why the verdict is unverified."""
    feedback: str | None = None
    """For the judge, numbering contexts from 1 as it does: what was not found where."""


def check_support(
    claim: str, supported: bool, support: Sequence[Support], contexts: Contexts, *, threshold: float
) -> Checked:
    """Locate the quotes of a verdict (``support`` numbers contexts from 1) and check that they state the claim
    as far as code can tell: each quote found, each about the claim, every number and numbered name of the
    claim in a quoted passage."""
    if not supported:
        return Checked([], "none")
    quotes = [_locate_quote(s.quote, s.context - 1, contexts, threshold) for s in support]
    for check in (_lost, _off_target):
        failed = check(claim, quotes, contexts)
        if failed is not None:
            return failed
    passages = " ".join(q.passage or "" for q in quotes)
    missing = sorted(numbers_in(claim) - numbers_in(passages)) + _other_names(claim, passages)
    if missing:
        numbers = ", ".join(missing)
        return Checked(
            quotes,
            "unverified",
            f"number not in quote: {numbers}",
            f"the claim states {numbers}, which no quoted passage contains",
        )
    corrected = any(q.context != q.cited for q in quotes)
    return Checked(quotes, "corrected" if corrected else "verified")


def _lost(claim: str, quotes: list[Quote], contexts: Contexts) -> Checked | None:
    """Unverified when a quote was found in no context."""
    lost = [q for q in quotes if not q.found]
    if not lost:
        return None
    elided = [q for q in lost if has_ellipsis(q.quote)]
    where = "; ".join(
        f"the quote {_shown(q)} for context {q.cited + 1} leaves text out with an ellipsis: quote one continuous "
        "passage"
        if q in elided
        else f"the quote {_shown(q)} is not in context {q.cited + 1} nor in any other"
        for q in lost
    )
    problem = "quote with an ellipsis" if len(elided) == len(lost) else "quote not found in any context"
    return Checked(quotes, "unverified", problem, where)


def _off_target(claim: str, quotes: list[Quote], contexts: Contexts) -> Checked | None:
    """Unverified when a quote states nothing (only numbers or function words), or shares no word with the
    claim although its context does (a context in another language, sharing nothing, is not held against it)."""
    wanted = _words(claim)
    for q in quotes:
        said = _words(q.passage or "")
        if not said:
            return Checked(
                quotes,
                "unverified",
                "quote states nothing",
                f"the quote {_shown(q)} holds no word, only numbers or function words: quote the passage that "
                "states the claim",
            )
        if wanted and not wanted & said and wanted & contexts.words(q.context):
            return Checked(
                quotes,
                "unverified",
                "quote is about something else",
                f"the quote {_shown(q)} shares no word with the claim, though context {q.context + 1} does: quote "
                "the passage that states the claim",
            )
    return None


def _other_names(claim: str, passages: str) -> list[str]:
    """Numbered names of the claim (``AX3000``) that the passages write with other digits (``AX5400``)."""
    written = names_in(passages)
    shapes = {_shape(n) for n in written}
    return sorted(n for n in names_in(claim) if n not in written and _shape(n) in shapes)


def _shape(name: str) -> str:
    return re.sub(r"\d+", "#", name)


def _words(text: str) -> frozenset[str]:
    return frozenset(t for t in content_terms(text, stem=True, cjk="chars") if not t[0].isdigit())


def _shown(quote: Quote) -> str:
    return json.dumps(quote.quote, ensure_ascii=False)


def _locate_quote(quote: str, cited: int, contexts: Contexts, threshold: float) -> Quote:
    # The judge saw the contexts with tag openers escaped (``&lt;/context>``); its copy is read back as written.
    wanted = unescape_data(quote)
    found = locate(wanted, contexts.folded(cited), threshold=threshold)
    where = cited
    if found is None:
        where, found = _elsewhere(wanted, cited, contexts, threshold)
    if found is None:
        needle = fold(wanted)
        similarity = fuzz.partial_ratio(needle, contexts.folded(cited).text) / 100.0 if needle else 0.0
        return Quote(context=cited, cited=cited, quote=quote, similarity=similarity)
    text = contexts.texts[where]
    return Quote(
        context=where,
        cited=cited,
        quote=quote,
        match=found.match,
        start=found.start,
        end=found.end,
        similarity=found.similarity,
        passage=text[found.start : found.end],
        before=text[max(0, found.start - QUOTE_WINDOW) : found.start],
        after=text[found.end : found.end + QUOTE_WINDOW],
    )


def _elsewhere(quote: str, cited: int, contexts: Contexts, threshold: float) -> tuple[int, Located | None]:
    """The other context holding the quote: the first exact match, else the best fuzzy one (``locate`` tries
    the exact match first in each context)."""
    found = [(i, locate(quote, contexts.folded(i), threshold=threshold)) for i in range(len(contexts)) if i != cited]
    hits = [(i, f) for i, f in found if f is not None]
    exact = [(i, f) for i, f in hits if f.match == "exact"]
    if exact:
        return exact[0]
    return max(hits, key=lambda hit: hit[1].similarity, default=(cited, None))
