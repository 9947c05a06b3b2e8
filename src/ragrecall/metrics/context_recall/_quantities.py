"""The checks on a claim's quantities against its evidence sentences: its numbers (:func:`numbers_failure`), the
units they carry (:func:`units_failure`) and the ranges it states (:func:`ranges_failure`). A number may be told
elsewhere than in the quoted sentence where the passages say so: in the sentence before one referring back to
it, as a year the passage (or, writing none, another passage) sets, or counted from one ("two years later",
次年). Deterministic, no LLM call."""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence

from ...text.anaphora import opens_with, words_of
from ...text.chinese import simplified
from ...text.clauses import clause_spans
from ...text.dates import dates_in
from ...text.names import folded_words
from ...text.number_words import measure_word_at
from ...text.numbers import Quantity, numbers_in, quantities, ranges_in
from ...text.relative_years import derived_years, spans_in_years
from ...text.segment import has_cjk
from ...text.terms import STOPWORDS, base_form, stem
from ._evidence import Quote
from ._facts import PROBLEMS, ClaimFacts, Evidence, Failure, SentenceSource
from ._naming import month_of_passage, named_before, part_of_a_name
from ._predicate import meanings
from ._said_otherwise import (
    about,
    by_arithmetic,
    centuries,
    converted,
    dated,
    decades,
    is_year,
    rounded,
    said_in_other_words,
    small_in_words,
    written_as_year,
    years_apart,
)
from ._subject import sentences_of
from ._words import strict_terms

__all__ = ["is_year", "numbers_failure", "ranges_failure", "units_failure"]

_REFERS_BACK = ("pronoun", "demonstrative", "same time")
"""The openings of a sentence that refers back to the one before it (:mod:`ragrecall.text.anaphora`)."""
_TOKEN = re.compile(r"[^\W_]+")


def numbers_failure(
    facts: ClaimFacts, quotes: Sequence[Quote], evidence: list[Evidence], contexts: SentenceSource
) -> Failure | None:
    """Every number of the claim is in the evidence sentences, or told where they leave it:
    - in the sentence before one that refers back to it ("This was …", 这是…), or that continues it (it writes
      no number the claim lacks, and names the claim's subject or opens with "The <a noun of the sentence
      before>": "… its 1.2-metre telescope … . The old telescope was given to …");
    - a year (or the year of a date) earlier in the passage, provided the sentences write no other year of their
      own, and a month likewise; or, when the evidence's passage writes no year at all, in another passage on the
      same topic;
    - counted from a year ("two years later", 次年), a span of years ("for 35 years, from 1858 to 1893"), a
      name's number ("Korrin 4") or in words ("a quarter" for 25%, "doubled", "two decades")."""
    written = own = frozenset().union(*(numbers_in(ev.text) for ev in evidence))
    if facts.numbers - written:
        # The sentence before: when the evidence refers back to it, or writes no number the claim lacks ("In 1998
        # the observatory replaced its 1.2-metre telescope … . The old telescope was given to …").
        alone = written <= facts.numbers
        before = [
            s
            for ev in evidence
            for s in sentences_of(ev.earlier)[-1:]
            if opens_with(ev.text, *_REFERS_BACK) or (alone and _continues(s, ev.text, facts))
        ]
        written = written.union(*(numbers_in(s) for s in before), *(_the_day_before(ev, contexts) for ev in evidence))
    missing: set[str] = set(facts.numbers - written)
    if missing:  # "the following year", "two years earlier", 次年: years counted from a year before them
        written = written.union(*(derived_years(ev.text, _year_before(ev, evidence)) for ev in evidence))
        years = sorted(int(n) for n in written if is_year(n))
        spans = {str(b - a) for a in years for b in years if b > a}
        lasting = spans_in_years(facts.text)
        missing = {
            n
            for n in facts.numbers - written
            if not ((n in lasting and n in spans) or about(n, facts.text, spans) or years_apart(n, facts.text, spans))
        }
    # "Korrin 4", "Apollo 11": a number that is part of a name the passage wrote before
    missing = {n for n in missing if not named_before(n, facts.text, evidence)}
    # "Orvel-4 is designed to last seven years": a number inside a name a passage writes
    missing = {n for n in missing if not part_of_a_name(n, facts, contexts.texts)}
    # 25% for "a quarter", 2 for "doubled" (两倍, 翻了一番), 20 years for "two decades"
    missing = {n for n in missing if not said_in_other_words(n, facts, evidence)}
    # "won by 35 points" from "by 310 points to 275"; "led it until 2009" from "in 1988 … for 21 years"
    missing = {n for n in missing if not by_arithmetic(n, facts, evidence)}
    # "0.4 m" for "40 centimetres"
    missing = {n for n in missing if not converted(n, facts, evidence)}
    # "about 500 feet" for "152 m", "nearly 10,000" for 9,800, "more than two million" for 2.1 million
    missing = {n for n in missing if not rounded(n, facts, evidence)}
    # "one route", 两个学科, "both": one and two in words are said in too many ways ("a single", 神学和法学) to ask for
    missing = {n for n in missing if not small_in_words(n, facts.text, own, evidence)}
    # a century the claim names ("the mid-1800s") is the century of a year or decade the evidence writes
    missing = {n for n in missing if not (n.startswith("century:") and n in centuries(written))}
    # a decade the claim names ("in the 1870s") holds a year the evidence writes ("between 1871 and 1874")
    missing = {n for n in missing if not (n.startswith("decade:") and n in decades(written))}
    if missing and not {n for n in written if is_year(n)} - facts.numbers - _counts(evidence):
        earlier = frozenset().union(*(numbers_in(ev.earlier) for ev in evidence))
        missing = {n for n in missing if not _set_by_passage(n, written, earlier)}
    # "… fell in October. Onion prices stayed flat."
    missing = {n for n in missing if not month_of_passage(n, facts.text, evidence)}
    if missing:  # a passage that writes no year leaves it to the other passages ("… a loss for the year")
        missing = {n for n in missing if not _year_of_sample(n, evidence, contexts)}
    if missing:
        return Failure("number", f"{PROBLEMS['number']}: {', '.join(sorted(missing))}")
    return None


def _the_day_before(ev: Evidence, contexts: SentenceSource) -> frozenset[str]:
    """The tokens of the last date with a day written before ``ev`` when ``ev`` names it ("the maximum for that
    day", 当天): in its passage, or, when that dates no day before it, at the end of the passage before."""
    if not _THAT_DATE.search(ev.text):
        return frozenset()
    for text in (ev.earlier, contexts.texts[ev.context - 1] if ev.context else ""):
        days = [d for d in dates_in(unicodedata.normalize("NFKC", text)) if d.day is not None]
        if days:
            return frozenset(value for value, _, _ in days[-1].tokens)
    return frozenset()


_THAT_DATE = re.compile(
    "|".join(rf"\b{re.escape(w)}\b" if w.isascii() else re.escape(w) for w in words_of("that date")), re.IGNORECASE
)


def _year_before(ev: Evidence, evidence: list[Evidence]) -> str:
    """What a relative year of ``ev`` counts from: its passage before it, or, when that writes no year, the other
    evidence sentences ("在1987年全国象棋团体赛决赛中" quoted with another passage's "南屏队在第二年夺回了冠军")."""
    if any(is_year(n) for n in numbers_in(ev.earlier)):
        return ev.earlier
    return " ".join(other.text for other in evidence if other is not ev)


def _year_of_sample(n: str, evidence: list[Evidence], contexts: SentenceSource) -> bool:
    """Whether the claim's year ``n`` is written in another passage on the same topic (the two share a content
    word: "The 2019 … Festival" and "The festival committee …") while no evidence passage writes any year up to
    its evidence sentence."""
    if not is_year(n) or any(is_year(m) for ev in evidence for m in numbers_in(ev.earlier + ev.text)):
        return False
    cited = {ev.context for ev in evidence}
    topic = frozenset().union(*(strict_terms(contexts.texts[c]) for c in cited))
    return any(
        n in numbers_in(text) and strict_terms(text) & topic for c, text in enumerate(contexts.texts) if c not in cited
    )


def _continues(before: str, sentence: str, facts: ClaimFacts) -> bool:
    """Whether ``sentence`` goes on about what the sentence ``before`` it is about: that sentence names the
    claim's first name, or ``sentence`` opens with a pronoun or with "The" and a noun ``before`` writes."""
    name = next(iter(facts.names), None)
    if name is not None and not name.cjk and set(name.words) <= folded_words(before):
        return True
    if opens_with(sentence, "pronoun", "demonstrative"):
        return True
    opening = _THE_NOUN.match(sentence)
    return opening is not None and opening.group(1).casefold() in before.casefold()


_THE_NOUN = re.compile(r"\W*the\s+(?:\w+\s+)?(\w+)", re.I)


def _counts(evidence: list[Evidence]) -> set[str]:
    """The numbers the evidence's passages write as no year ("paid 2,000 voters" writes no year of its own)."""
    return {
        q.value for ev in evidence for t in (ev.earlier, ev.text) for q in quantities(t) if not written_as_year(q, t)
    }


def _set_by_passage(n: str, written: frozenset[str], earlier: frozenset[str]) -> bool:
    """Whether the claim's year ``n`` (or date ``YYYY-MM-DD``) is the passage's: the year written earlier in the
    passage, and a date's month and day written in the evidence."""
    if is_year(n):
        return n in earlier
    year, _, day = n.partition("-")
    return is_year(year) and len(n) == 10 and year in (earlier | written) and day in written


def units_failure(
    facts: ClaimFacts, quotes: Sequence[Quote], evidence: list[Evidence], _: SentenceSource
) -> Failure | None:
    """A number of the claim with a unit is written in the evidence with the same unit or none (``42 miles`` is
    not ``42 km``), and a number counting a noun counts the same noun ("300 cars" is not "300 passengers")."""
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
    claim = simplified(unicodedata.normalize("NFKC", facts.text))
    for q in facts.quantities:
        if q.units or is_year(q.value) or not q.value.lstrip("-").replace(".", "", 1).isdigit():
            continue  # "the 1958 semi-final": a year (or a date, a decade) names the event, it counts nothing
        noun = _after(claim, q.end, 3)
        if not noun:
            continue
        same = [(e, simplified(unicodedata.normalize("NFKC", ev.text))) for e, ev in found if e.value == q.value]
        same = [(e, text) for e, text in same if not e.units]
        theirs = [(_after(text, e.end, 3), text[e.end : e.end + 30]) for e, text in same]
        mine = claim[q.end : q.end + 30]
        if theirs and all(t and not set(noun) & set(t) and not _same_noun(mine, raw, noun, t) for t, raw in theirs):
            return Failure(
                "unit",
                f"{PROBLEMS['unit']}: {q.value} {noun[0]} in the claim, {q.value} {theirs[0][0][0]} in the evidence",
            )
    return None


# Nouns that count people of any kind ("eleven men" for "eleven workers"), against the stems of kinds of people.
_ANY_THING = frozenset(["unit", "item"])
_ANY_PEOPLE = frozenset(["peopl", "person", "individu", "men", "man", "live", "member"])
_PEOPLE = _ANY_PEOPLE | frozenset(
    [
        "worker",
        "labour",
        "labor",
        "miner",
        "navvi",
        "employe",
        "staff",
        "resid",
        "inhabit",
        "soldier",
        "sailor",
        "fisher",
    ]
)


def _same_noun(ours: str, theirs: str, noun: list[str], their_noun: list[str]) -> bool:
    """Whether the words after the same number say the same in other words (2,300 employees, 2,300 staff), or
    count people, one of them of any kind, or one of them counts anything ("units")."""
    if meanings(ours) & meanings(theirs):
        return True
    if {*noun[:1], *their_noun[:1]} & _ANY_THING:
        return True  # "84,000 units" counts whatever the other side names
    mine, other = set(noun[:1]) & _PEOPLE, set(their_noun[:1]) & _PEOPLE
    return bool(mine and other and (mine | other) & _ANY_PEOPLE)


def _after(text: str, end: int, n: int) -> list[str]:
    """The first ``n`` words right after offset ``end`` (stemmed; a CJK character counts as a word), or []
    when a function word, a punctuation mark or nothing follows first."""
    follow = text[end : end + 40]
    if not follow or not (follow[0] == " " or has_cjk(follow[0])):
        return []
    if has_cjk(follow.lstrip()[:1]):
        # 三十多首, 二十余条: an approximation belongs to the number; 个 counts anything (一个, 一位); 到, 至
        # join a range (1到3米)
        chars = follow.lstrip().lstrip("多余来几")
        if not chars or chars[:1] in "个到至比" or not measure_word_at(chars, 0):
            return []  # 4.0于…, 3.2增加: a verb or a particle after a number counts nothing
        return [chars[0]] if n == 1 else list(chars[:n])
    tokens = _TOKEN.findall(follow.lower())[:n]
    if not tokens or tokens[0] in STOPWORDS or not tokens[0].isalpha():
        return []
    if tokens[0].endswith("ed") or base_form(tokens[0]) != tokens[0]:
        return []  # "the team of six spent 40 days": a verb after a number counts nothing
    return [stem(t) for t in tokens]


def ranges_failure(
    facts: ClaimFacts, quotes: Sequence[Quote], evidence: list[Evidence], _: SentenceSource
) -> Failure | None:
    """A range the claim states is a range of the evidence (or of the sentence before one that refers back to it,
    "Over the same period …"): two numbers joined as a range, or a start and an end in one sentence ("from 2009
    …, until 2014", "自2009年起…，至2014年"), or, for a change ("grew by 150 between 2010 and 2018"), both ends
    written."""
    texts = [ev.text for ev in evidence]
    texts += [t for ev in evidence if opens_with(ev.text, *_REFERS_BACK) for t in sentences_of(ev.earlier)[-1:]]
    written = frozenset().union(*(ranges_in(t) for t in texts))
    missing = sorted(
        r for r in facts.ranges - written if not any(_spans(t, *r) or _opens_and_closes(t, *r) for t in texts)
    )
    if missing and any(m.startswith("con:change:") for m in meanings(facts.text)):
        # "grew by 150 between 2010 and 2018" from "250 staff in 2010 and 400 in 2018": a change between the
        # figures of two years both written
        years = {str(year) for t in texts for year, _ in dated(t)}  # each the year of a figure
        missing = [r for r in missing if not set(r) <= years]
    if missing:
        shown = ", ".join(f"{low}–{high}" for low, high in missing)
        return Failure("range", f"{PROBLEMS['range']}: {shown}")
    return None


_STARTS = (
    "con:open:open", "con:life:born", "con:body:founded", "con:works:built", "syn:begin", "syn:found", "syn:publish",
    "syn:open",
)  # fmt: skip
_ENDS = (
    "con:open:closed", "con:life:died", "con:body:dissolved", "con:works:demolished", "syn:end",
    "syn:withdraw",
)  # fmt: skip


_UNTIL = re.compile(r"(?:\buntil|\btill|直到|直至)\s*(?:\w+\s+){0,2}$", re.IGNORECASE)


def _opens_and_closes(text: str, low: str, high: str) -> bool:
    """Whether ``text`` says something began in ``low`` and ended in ``high`` ("opened in 1894 and was closed in
    1970"): a word of starting in the clause of the first year and one of ending in the clause of the second."""
    clauses = clause_spans(text) or ((0, len(text)),)
    lows = [text[s:e] for s, e in clauses if low in numbers_in(text[s:e])]
    highs = [text[s:e] for s, e in clauses if high in numbers_in(text[s:e])]
    ends = any(meanings(c) & set(_ENDS) or _UNTIL.search(c, 0, c.find(high)) for c in highs)
    return any(meanings(c) & set(_STARTS) for c in lows) and ends


def _spans(text: str, low: str, high: str) -> bool:
    """Whether ``text`` says that something ran from ``low`` to ``high`` in words between them."""
    norm = unicodedata.normalize("NFKC", text)
    for m in _FROM_TO.finditer(norm):
        if numbers_in(m.group("low")) == {low} and numbers_in(m.group("high")) == {high}:
            return True
    return False


_FROM_TO = re.compile(
    r"(?:from|since|自|从|從)\s*(?P<low>[\d,.]+)[^.;。；]*?(?:until|till|to|through|至|到)\s*(?P<high>[\d,.]+)",
    re.IGNORECASE,
)
