"""Check a "supported" verdict against the contexts: every quote must be in a context, and the sentences that
hold the quotes must state the claim as far as code can tell (:mod:`._checks`). Deterministic, no LLM call.

A quote is looked for in the context it cites, then in every other context (exact matches first, then the best
fuzzy one); found elsewhere, its citation is corrected. The checks read the located passages and their
sentences as the contexts write them, never the judge's copy, so a quote that misstates a number cannot pass.

What goes back to the judge when a verdict fails (``Checked.feedback``) names the claim's failure and the rule
to follow, never where else to look: a judge told which sentence would pass could move to it.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, field

from rapidfuzz import fuzz

from ...llm import unescape_data
from ...text.locate import Folded, Located, fold, has_ellipsis, locate
from ...text.segment import sentence_spans
from ._checks import check_evidence
from ._evidence import QUOTE_WINDOW, Quote, Verification
from ._facts import PROBLEMS, Evidence, failed
from ._replies import Support

__all__ = ["Checked", "Contexts", "check_support"]


@dataclass
class Contexts:
    """The retrieved contexts, each folded for matching (and read for its words) on first use."""

    texts: Sequence[str]
    _folded: dict[int, Folded] = field(default_factory=dict)
    _sentences: dict[int, tuple[tuple[int, int], ...]] = field(default_factory=dict)

    def folded(self, index: int) -> Folded:
        """Context ``index`` (0-based), folded."""
        if index not in self._folded:
            self._folded[index] = Folded.of(self.texts[index])
        return self._folded[index]

    def sentences(self, index: int) -> tuple[tuple[int, int], ...]:
        """The sentence spans of context ``index`` (0-based)."""
        if index not in self._sentences:
            self._sentences[index] = sentence_spans(self.texts[index])
        return self._sentences[index]

    def __len__(self) -> int:
        return len(self.texts)


@dataclass(frozen=True)
class Checked:
    """A verdict's quotes, located, and what the check concluded."""

    quotes: list[Quote]
    verification: Verification
    problem: str | None = None
    """For the evidence: why the verdict is not verified."""
    feedback: str | None = None
    """For the judge, numbering contexts from 1 as it does: what failed and the rule to follow."""
    check: str | None = None
    """The key in :data:`._facts.PROBLEMS` of the check that failed."""
    note: str | None = None
    """What code could not read and left to the judge (a predicate in other words), for the evidence."""


_FEEDBACK = {
    "not_found": "the quote {quote} is not in context {cited}, word for word",
    "ellipsis": "the quote {quote} for context {cited} leaves text out with an ellipsis: quote one continuous passage",
}
_RULE = "the quoted passage does not state this claim"


def check_support(
    claim: str, supported: bool, support: Sequence[Support], contexts: Contexts, *, threshold: float
) -> Checked:
    """Locate the quotes of a verdict (``support`` numbers contexts from 1) and check that the sentences holding
    them state the claim as far as code can tell (:mod:`._checks`)."""
    if not supported:
        return Checked([], "none")
    quotes = [_locate_quote(s.quote, s.context - 1, contexts, threshold) for s in support]
    lost = _lost(quotes)
    if lost is not None:
        return lost
    evidence = [Evidence.of(q, contexts) for q in quotes]
    quotes = [q.model_copy(update={"sentence": ev.text}) for q, ev in zip(quotes, evidence, strict=True)]
    result = check_evidence(claim, quotes, evidence, contexts)
    if failed(result):
        assert result is not None
        return Checked(quotes, "unverified", result.problem, _RULE, result.check)
    corrected = any(q.context != q.cited for q in quotes)
    return Checked(quotes, "corrected" if corrected else "verified", note=result.problem if result else None)


def _lost(quotes: list[Quote]) -> Checked | None:
    """Unverified when a quote was found in no context."""
    lost = [q for q in quotes if not q.found]
    if not lost:
        return None
    elided = [q for q in lost if has_ellipsis(q.quote)]
    feedback = "; ".join(
        _FEEDBACK["ellipsis" if q in elided else "not_found"].format(quote=_shown(q), cited=q.cited + 1) for q in lost
    )
    check = "ellipsis" if len(elided) == len(lost) else "not_found"
    return Checked(quotes, "unverified", PROBLEMS[check], feedback, check)


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
