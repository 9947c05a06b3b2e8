"""Claims code can decide without the judge, and "unsupported" verdicts code can contradict.

- A claim written word for word in a passage (folded as quotes are: case, width, spacing, punctuation, Traditional
  and Simplified Chinese), with its numbers (no scale word after them that the claim lacks), that the passage
  *asserts* — as evidence it passes every check of :mod:`._checks`: no negation, denial, hedge, condition,
  attribution, fiction or question stands over it that the claim does not write itself — is *stated*:
  supported by code, its support the located span, and the judge is not asked about it. Written inside a
  frame ("Critics claimed that …", "…, which was later disproven", 据传…), it goes to the judge.
- An "unsupported" verdict is *contestable* when one sentence of one passage says the claim: it holds every
  content term (stemmed words; CJK characters) and number of the claim, and as the claim's evidence it passes
  every check (the same polarity, frames, cue values, roles, numbers in the same clauses). The judge is asked
  again once; a verdict that stays unsupported is recorded as ``"contested"``. A sentence holding the claim's
  words in another order or frame is no reason to ask again.

Both need a claim of :data:`MIN_TERMS` content terms or more and
:data:`~ragrecall.text.locate.FUZZY_MIN_CHARS` folded characters (with CJK text,
:data:`~ragrecall.text.locate.FUZZY_MIN_CJK_CHARS`): a shorter claim ("Lyon is on the Rhône.")
says too little for matching to decide it, and goes to the judge.
"""

from __future__ import annotations

from ...text.clauses import clause_spans
from ...text.locate import FUZZY_MIN_CHARS, FUZZY_MIN_CJK_CHARS, fold, locate
from ...text.numbers import numbers_in, quantities
from ...text.segment import has_cjk
from ...text.terms import content_terms
from ._checks import check_evidence
from ._evidence import QUOTE_WINDOW, Quote
from ._facts import ClaimFacts, Evidence, claim_facts, failed
from ._verify import Contexts
from ._words import words

__all__ = ["MIN_TERMS", "contestable", "stated_support"]

MIN_TERMS = 3
"""Content terms a claim needs to be decided or contested by matching."""


def stated_support(claim: str, contexts: Contexts) -> Quote | None:
    """The passage that writes ``claim`` word for word and asserts it (see the module docstring), located, or
    None."""
    facts = claim_facts(claim)
    if not _long_enough(claim, facts.terms):
        return None
    for i in range(len(contexts)):
        found = locate(claim, contexts.folded(i), threshold=1.0)
        if found is None:
            continue
        quote = _quote(i, found.start, found.end, contexts)
        if numbers_in(quote.passage or "") != facts.numbers:
            continue  # the passage goes on with a scale word: "$1.2" of "$1.2 billion"
        evidence = Evidence.of(quote, contexts)
        if check_evidence(claim, [quote], [evidence], contexts) is not None:  # a note of what is unread too
            continue  # written, not asserted: "Critics claimed that …", "…, which was later disproven"
        return quote.model_copy(update={"sentence": evidence.text})
    return None


def _quote(context: int, start: int, end: int, contexts: Contexts) -> Quote:
    """The span ``[start, end)`` of a context as an exact quote of it."""
    text = contexts.texts[context]
    passage = text[start:end]
    return Quote(
        context=context,
        cited=context,
        quote=passage,
        match="exact",
        start=start,
        end=end,
        similarity=1.0,
        passage=passage,
        before=text[max(0, start - QUOTE_WINDOW) : start],
        after=text[end : end + QUOTE_WINDOW],
    )


def _other_figure(facts: ClaimFacts, sentence: str) -> bool:
    """Whether the clauses of ``sentence`` holding the claim's words also hold a figure of the kind of one of the
    claim's (a year for a year) that the claim does not write: "The North Stand was opened in 1956 and the South
    Stand in 1972" does not say the South Stand was opened in 1956."""
    clauses = clause_spans(sentence) or ((0, len(sentence)),)
    holding = [i for i, (s, e) in enumerate(clauses) if words(sentence[s:e]) & facts.terms]
    if not holding or not facts.numbers:
        return False
    span = sentence[clauses[min(holding)][0] : clauses[max(holding)][1]]
    kinds = {_kind(q.value, facts.text) for q in quantities(facts.text)}
    return any(q.value not in facts.numbers and _kind(q.value, span) in kinds for q in quantities(span))


def _kind(value: str, text: str) -> str:
    return "year" if value.isdigit() and len(value) == 4 and 1000 <= int(value) <= 2100 else "figure"


def _long_enough(claim: str, terms: frozenset[str]) -> bool:
    folded = fold(claim)
    return len(terms) >= MIN_TERMS and len(folded) >= (FUZZY_MIN_CJK_CHARS if has_cjk(folded) else FUZZY_MIN_CHARS)


def contestable(claim: str, contexts: Contexts) -> bool:
    """True when one sentence of one passage says ``claim``: it holds every content term and number of the
    claim, and as evidence it passes every check (see the module docstring)."""
    facts = claim_facts(claim)
    if not _long_enough(claim, facts.terms):
        return False
    # A stemmed term is the start of the word it came from, but for the "y" of "ies" (cities: city): what is
    # left is found in the lower-cased text of any sentence that holds the term.
    starts = [t[:-1] if t.endswith("y") else t for t in facts.terms]
    for i, text in enumerate(contexts.texts):
        for start, end in contexts.sentences(i):
            sentence = text[start:end]
            # The words of ASCII text are among its plain terms (numbers take no word away from it), which
            # cost a tenth of reading its numbers: most sentences lack a term of the claim, found here, most
            # of them by looking for the terms' letters before reading the sentence's terms.
            if sentence.isascii():
                lowered = sentence.lower()
                if not all(s in lowered for s in starts):
                    continue
                if not facts.terms <= content_terms(sentence, stem=True, cjk="chars"):
                    continue
            if not (facts.terms <= words(sentence) and facts.numbers <= numbers_in(sentence)):
                continue
            if _other_figure(facts, sentence):
                continue
            quote = _quote(i, start, end, contexts)
            if not failed(check_evidence(claim, [quote], [Evidence.of(quote, contexts)], contexts)):
                return True
    return False
