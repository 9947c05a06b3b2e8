"""Claims code can decide without the judge, and "unsupported" verdicts code can contradict.

- A claim written word for word in a passage (folded as quotes are: case, width, spacing, punctuation), with its
  numbers (no scale word after them that the claim lacks) and no negation around it, is *stated*: supported by
  code, its support the located span, and the judge is not asked about it.
- An "unsupported" verdict is *contestable* when one sentence of one passage holds every content term (stemmed
  words; CJK characters) and number of the claim, negating as the claim does. The judge is asked again once; a
  verdict that stays unsupported is recorded as ``"contested"``.

Both need a claim of :data:`MIN_TERMS` content terms or more and
:data:`~ragrecall.text.locate.FUZZY_MIN_CHARS` folded characters (with CJK text,
:data:`~ragrecall.text.locate.FUZZY_MIN_CJK_CHARS`): a shorter claim ("Lyon is on the Rhône.")
says too little for matching to decide it, and goes to the judge.
"""

from __future__ import annotations

from ...text.locate import FUZZY_MIN_CHARS, FUZZY_MIN_CJK_CHARS, fold, locate
from ...text.negation import negations
from ...text.numbers import numbers_in
from ...text.segment import has_cjk
from ...text.terms import content_terms
from ._checks import negated_around
from ._evidence import QUOTE_WINDOW, Quote
from ._facts import Evidence, claim_facts
from ._verify import Contexts
from ._words import words

__all__ = ["MIN_TERMS", "contestable", "stated_support"]

MIN_TERMS = 3
"""Content terms a claim needs to be decided or contested by matching."""


def stated_support(claim: str, contexts: Contexts) -> Quote | None:
    """The passage that writes ``claim`` word for word (see the module docstring), located, or None."""
    facts = claim_facts(claim)
    if not _long_enough(claim, facts.terms):
        return None
    for i in range(len(contexts)):
        found = locate(claim, contexts.folded(i), threshold=1.0)
        if found is None:
            continue
        text = contexts.texts[i]
        passage = text[found.start : found.end]
        if numbers_in(passage) != facts.numbers:
            continue  # the passage goes on with a scale word: "$1.2" of "$1.2 billion"
        evidence = Evidence.at(i, found.start, found.end, contexts)
        if negated_around(evidence, facts) != facts.negated:
            continue
        return Quote(
            context=i,
            cited=i,
            quote=passage,
            match="exact",
            start=found.start,
            end=found.end,
            similarity=1.0,
            passage=passage,
            before=text[max(0, found.start - QUOTE_WINDOW) : found.start],
            after=text[found.end : found.end + QUOTE_WINDOW],
            sentence=evidence.text,
        )
    return None


def _long_enough(claim: str, terms: frozenset[str]) -> bool:
    folded = fold(claim)
    return len(terms) >= MIN_TERMS and len(folded) >= (FUZZY_MIN_CJK_CHARS if has_cjk(folded) else FUZZY_MIN_CHARS)


def contestable(claim: str, contexts: Contexts) -> bool:
    """True when one sentence of one passage holds every content term and number of ``claim`` with the same
    polarity (see the module docstring)."""
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
            if (
                facts.terms <= words(sentence)
                and facts.numbers <= numbers_in(sentence)
                and bool(negations(sentence)) == facts.negated
            ):
                return True
    return False
