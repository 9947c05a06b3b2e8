"""What code checks on the evidence of a "supported" verdict: the sentence that holds each quote, not only the
quoted span. Deterministic, no LLM call.

Each located quote is widened to the sentence(s) of its context that hold it (:class:`Evidence`). Against that
evidence, in this order, a claim must pass:

- *script*: a quote that shares no word with the claim fails whenever the claim and the quote's context share
  a script (the exemption is only for a passage written in another script than the claim);
- *polarity*: the clauses that hold the quote, and the nearest clause holding each claim term the quote's
  clauses lack, negate as the claim does (a clause cue such as "not", 没有, or a sentence-wide cue before
  them such as "It is false that", 并非); a negation in another clause of a long sentence does not count;
- *subject*: every name of the claim (:func:`~ragrecall.text.names.claim_names`) occurs in an evidence
  sentence or earlier in the same passage ("He was born in 1879" after a sentence naming him); for the term a
  Chinese claim opens with, whose end no space marks, its first two characters;
- *numbers*: every number of the claim, written with digits or in words, scale words read, is in the
  evidence sentences;
- *units*: a number of the claim with a unit is written in the evidence with the same unit, or with none
  (``42 miles`` is not ``42 km``; ``42 km`` is ``42公里``);
- *ranges*: a range the claim states is a range of the evidence ("from 2019 to 2021" is not "in 2019 and again
  in 2021");
- *several quotes*: quotes from different passages each carry a part of the claim's terms that the others
  lack; fragments that each share a word do not add up;
- *predicate*: the evidence holds a term of what the claim says beyond its names and numbers, and at least
  half of the claim's terms in all.

Evidence written in another script than the claim (a Chinese passage for an English claim) is checked for
numbers and ranges only: its words cannot be compared with the claim's. Each failure has its own
:data:`PROBLEMS` key and problem text.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable, Sequence
from functools import lru_cache

from ...text.clauses import clause_spans
from ...text.locate import fold
from ...text.names import Name, claim_names, folded_words
from ...text.negation import denied_after, negations, sentence_negated_before
from ...text.numbers import Quantity, numbers_in, quantities, ranges_in
from ...text.segment import has_cjk, sentence_spans
from ...text.terms import STOPWORDS, is_function_word, stem
from ._evidence import Quote
from ._facts import PROBLEMS, ClaimFacts, Evidence, Failure, SentenceSource, claim_facts
from ._words import script_of, strict_terms, words

__all__ = ["check_evidence", "negated_around"]

_MIN_COVERAGE = 0.5
_TOKEN = re.compile(r"[^\W_]+")


def check_evidence(
    claim: str, quotes: Sequence[Quote], evidence: list[Evidence], contexts: SentenceSource
) -> Failure | None:
    """The first check (module docstring) that the located ``quotes``, widened to ``evidence`` (one each, in
    order), fail as evidence of ``claim``, or None.

    Quotes from several passages pass when each passage's quotes alone pass every check (the claim stated
    several times over), or when together they pass and add up (:func:`_several`)."""
    facts = claim_facts(claim)
    if facts.scripts and not any(facts.scripts & script_of(contexts.texts[ev.context]) for ev in evidence):
        # Evidence in another script than the claim: its words cannot be compared, its numbers can.
        return _numbers(facts, quotes, evidence, contexts) or _ranges(facts, quotes, evidence, contexts)
    stated_nothing = _script(facts, quotes, evidence, contexts)  # every quote must say something, whatever else
    if stated_nothing is not None:
        return stated_nothing
    passages = sorted({ev.context for ev in evidence})
    if len(passages) > 1:
        alone = [
            _run(
                facts,
                [q for q, ev in zip(quotes, evidence, strict=True) if ev.context == c],
                [ev for ev in evidence if ev.context == c],
                contexts,
            )
            for c in passages
        ]
        if all(failed is None for failed in alone):
            return None
        return _several(facts, quotes, evidence, contexts) or _run(facts, quotes, evidence, contexts)
    return _run(facts, quotes, evidence, contexts)


_Check = Callable[[ClaimFacts, Sequence[Quote], list[Evidence], SentenceSource], "Failure | None"]


def _run(
    facts: ClaimFacts, quotes: Sequence[Quote], evidence: list[Evidence], contexts: SentenceSource
) -> Failure | None:
    """The checks after the script check, which :func:`check_evidence` runs first on every quote."""
    checks: tuple[_Check, ...] = (_polarity, _subject, _numbers, _units, _ranges, _predicate)
    for check in checks:
        failed = check(facts, quotes, evidence, contexts)
        if failed is not None:
            return failed
    return None


def _script(
    facts: ClaimFacts, quotes: Sequence[Quote], evidence: list[Evidence], contexts: SentenceSource
) -> Failure | None:
    for q in quotes:
        said = words(q.passage or "")
        if not said:
            return Failure("states_nothing", PROBLEMS["states_nothing"])
        if facts.terms and not facts.terms & said and facts.scripts & script_of(contexts.texts[q.context]):
            return Failure("off_topic", PROBLEMS["off_topic"])
    return None


def _polarity(
    facts: ClaimFacts, quotes: Sequence[Quote], evidence: list[Evidence], _: SentenceSource
) -> Failure | None:
    for ev in evidence:
        if negated_around(ev, facts) != facts.negated:
            side = "the claim is negated, its evidence is not" if facts.negated else "the evidence negates the claim"
            return Failure("polarity", f"{PROBLEMS['polarity']}: {side}")
    return None


def negated_around(ev: Evidence, facts: ClaimFacts) -> bool:
    """Whether the clauses of ``ev`` that state the claim negate: those holding the quote and a term or number
    of the claim, and for each term of what the claim says (its names left out: the subject check reads those)
    or number that those clauses lack, the nearest clause holding it; or a sentence-wide cue before the first
    of them; or a denial after them ("…, but that is a legend", 其实并非如此) in the sentence or opening the next
    one. A clause that holds none of the claim's terms ("The ferry, which did not run in the war, carried …";
    "Its white flowers, which open in July, have no leaves") is not read."""
    sentence = ev.text
    if not negations(sentence) and not denied_after(sentence):
        # No cue of any kind in the sentence, so none in any of its clauses or after them: only the next
        # sentence can deny it.
        return denied_after(ev.later, opening=True)
    clauses = clause_spans(sentence) or ((0, len(sentence)),)
    terms = [strict_terms(sentence[s:e]) | numbers_in(sentence[s:e]) for s, e in clauses]
    claim_terms = facts.bigrams | facts.numbers
    qs, qe = ev.quote_start - ev.start, ev.quote_end - ev.start
    quoted = [i for i, (s, e) in enumerate(clauses) if s < qe and qs < e] or [0]
    chosen = {i for i in quoted if terms[i] & claim_terms} or set(quoted)
    held = frozenset().union(*(terms[i] for i in chosen))
    missing = (claim_terms - held) and ((facts.bigrams - facts.name_terms) | facts.numbers) - held
    for term in missing:
        holders = [i for i, t in enumerate(terms) if term in t]
        if holders:
            chosen.add(min(holders, key=lambda i: min(abs(i - c) for c in chosen)))
    if any(negations(sentence[clauses[i][0] : clauses[i][1]]) for i in chosen):
        return True
    first, last = clauses[min(chosen)][0], clauses[max(chosen)][1]
    return (
        sentence_negated_before(sentence, first)
        or denied_after(sentence[last:])
        or denied_after(ev.later, opening=True)
    )


def _subject(
    facts: ClaimFacts, quotes: Sequence[Quote], evidence: list[Evidence], contexts: SentenceSource
) -> Failure | None:
    """Each name of the claim is in an evidence sentence or earlier in its passage, unless that passage names
    nothing else there (a manual's chunk about "the router" need not name the router)."""
    for name in facts.names:
        if any(_named(name, ev, contexts.texts[ev.context]) for ev in evidence):
            continue
        if any(_other_names(facts, ev) for ev in evidence):
            return Failure("subject", f"{PROBLEMS['subject']}: {name.text}")
    return None


def _other_names(facts: ClaimFacts, ev: Evidence) -> bool:
    """True when the evidence sentence, or its passage before it, names something the claim does not: a
    capitalised word or sequence inside a sentence (not its first word, not a function word, not an acronym),
    or, in Chinese, a subject whose first two characters differ from the claim's."""
    ours = {w for n in facts.names for w in n.words}
    ours_cjk = [fold(n.words[0])[:2] for n in facts.names if n.cjk]
    for sentence in _sentences_of(ev.earlier + ev.text):
        for name in claim_names(sentence):
            if name.cjk:
                if ours_cjk and fold(name.words[0])[:2] not in ours_cjk:
                    return True
                continue
            if name.initial or set(name.words) <= ours:
                continue
            if len(name.words) == 1 and (name.words[0] in STOPWORDS or name.text.isupper()):
                continue
            return True
    return False


def _sentences_of(text: str) -> list[str]:
    return [text[s:e] for s, e in sentence_spans(text)] if text else []


def _named(name: Name, ev: Evidence, context: str) -> bool:
    """True when ``name`` occurs in the evidence sentence or earlier in its passage (a capitalised word opening
    the claim counts as a name only when the passage never writes it in lower case)."""
    upto = ev.earlier + ev.text
    if name.cjk:  # where a Chinese subject ends is not marked: its first two characters must be written
        return fold(name.words[0])[:2] in fold(upto)
    if name.initial and name.words[0] in _lower_words(context):
        return True
    return set(name.words) <= folded_words(upto)


@lru_cache(maxsize=1024)
def _lower_words(text: str) -> frozenset[str]:
    return frozenset(w for w in folded_words(text) if w in unicodedata.normalize("NFKC", text))


def _numbers(facts: ClaimFacts, quotes: Sequence[Quote], evidence: list[Evidence], _: SentenceSource) -> Failure | None:
    written = frozenset().union(*(numbers_in(ev.text) for ev in evidence))
    missing = sorted(facts.numbers - written)
    if missing:
        return Failure("number", f"{PROBLEMS['number']}: {', '.join(missing)}")
    return None


def _units(facts: ClaimFacts, quotes: Sequence[Quote], evidence: list[Evidence], _: SentenceSource) -> Failure | None:
    found = [(q, ev) for ev in evidence for q in quantities(ev.text)]
    counted = _counted(facts, found)
    if counted is not None:
        return counted
    claim_units = [q for q in facts.quantities if q.units]
    for wanted in claim_units:
        same = [q for q, _ in found if q.value == wanted.value]
        if same and all(q.units and not q.units & wanted.units for q in same):
            theirs = sorted(set().union(*(q.units for q in same)))
            return Failure(
                "unit",
                f"{PROBLEMS['unit']}: {wanted.value} {'/'.join(sorted(wanted.units))} in the claim, "
                f"{wanted.value} {'/'.join(theirs)} in the evidence",
            )
    return None


def _counted(facts: ClaimFacts, found: list[tuple[Quantity, Evidence]]) -> Failure | None:
    """A number of the claim with no known unit but a noun after it ("300 cars", 300辆) against the same number
    in the evidence followed by another noun, the claim's not among the next three words ("300 passengers")."""
    claim = unicodedata.normalize("NFKC", facts.text)
    for q in facts.quantities:
        if q.units:
            continue
        noun = _after(claim, q.end, 1)
        if not noun:
            continue
        same = [(e, ev) for e, ev in found if e.value == q.value and not e.units]
        theirs = [_after(unicodedata.normalize("NFKC", ev.text), e.end, 3) for e, ev in same]
        if theirs and all(t and noun[0] not in t for t in theirs):
            return Failure(
                "unit",
                f"{PROBLEMS['unit']}: {q.value} {noun[0]} in the claim, {q.value} {theirs[0][0]} in the evidence",
            )
    return None


def _after(text: str, end: int, n: int) -> list[str]:
    """The first ``n`` words right after offset ``end`` (stemmed; a CJK character counts as a word), or []
    when a function word, a punctuation mark or nothing follows first."""
    follow = text[end : end + 40]
    if not follow or not (follow[0] == " " or has_cjk(follow[0])):
        return []
    if has_cjk(follow.lstrip()[:1]):
        return [follow.lstrip()[0]] if n == 1 else list(follow.lstrip()[:n])
    tokens = _TOKEN.findall(follow.lower())[:n]
    if not tokens or tokens[0] in STOPWORDS or not tokens[0].isalpha():
        return []
    return [stem(t) for t in tokens]


def _ranges(facts: ClaimFacts, quotes: Sequence[Quote], evidence: list[Evidence], _: SentenceSource) -> Failure | None:
    written = frozenset().union(*(ranges_in(ev.text) for ev in evidence))
    missing = sorted(facts.ranges - written)
    if missing:
        shown = ", ".join(f"{low}–{high}" for low, high in missing)
        return Failure("range", f"{PROBLEMS['range']}: {shown}")
    return None


def _several(
    facts: ClaimFacts, quotes: Sequence[Quote], evidence: list[Evidence], contexts: SentenceSource
) -> Failure | None:
    """Quotes from several passages that do not each state the claim add up only when each passage names the
    claim's subject (its first name) and each carries a part of the claim's terms and numbers the others lack."""
    passages = {ev.context for ev in evidence}
    if len(passages) < 2:
        return None
    subject = next(iter(facts.names), None)
    if subject is not None:
        for c in passages:
            if not any(_named(subject, ev, contexts.texts[c]) for ev in evidence if ev.context == c):
                return Failure("unrelated", f"{PROBLEMS['unrelated']}: passage {c + 1} does not name {subject.text}")
    wanted = facts.terms | facts.numbers
    parts = {c: wanted & frozenset().union(*(_held(ev) for ev in evidence if ev.context == c)) for c in passages}
    for c, part in parts.items():
        others = frozenset().union(*(p for o, p in parts.items() if o != c))
        if not part - others or (len(part) < 2 and not part & facts.numbers):
            return Failure("unrelated", PROBLEMS["unrelated"])
    return None


def _predicate(
    facts: ClaimFacts, quotes: Sequence[Quote], evidence: list[Evidence], _: SentenceSource
) -> Failure | None:
    """The evidence holds what the claim says beyond its names and numbers: one of those terms, and for Chinese
    (whose subject's end is a guess, and whose characters say little alone) half of its bigrams, counting the
    sentence before the evidence, which may name the thing; and half of all the claim's terms."""
    if not facts.terms:
        return None
    text = " ".join(ev.text for ev in evidence)
    rest = {t for t in facts.bigrams - facts.name_terms if not _functional(t)}
    if rest:
        said = strict_terms(text) | (words(text) if "cjk" in facts.scripts else frozenset())
        if not rest & said:
            return Failure("predicate", PROBLEMS["predicate"])
        if "cjk" in facts.scripts:  # the thing may be named in the sentence before ("…红豆杉。保护区内现存约1,300棵")
            before = " ".join(s for ev in evidence for s in _sentences_of(ev.earlier)[-1:])
            said |= strict_terms(before) | words(before)
            if len(rest & said) < len(rest) / 2:
                return Failure("predicate", PROBLEMS["predicate"])
    held = frozenset().union(*(_held(ev) for ev in evidence))
    named = frozenset().union(*(words(n.text) for n in facts.names))
    if len(facts.terms & (held | named)) / len(facts.terms) < _MIN_COVERAGE:
        return Failure("predicate", PROBLEMS["predicate"])
    return None


def _functional(term: str) -> bool:
    """True for a CJK bigram holding a function character (于, 是, 在, 至 …) or a negation (the polarity check
    reads those): it says how, not what."""
    return (
        has_cjk(term)
        and len(term) == 2
        and (any(is_function_word(c) or c in "至到" for c in term) or bool(negations(term)))
    )


def _held(ev: Evidence) -> frozenset[str]:
    return words(ev.text) | numbers_in(ev.text)
