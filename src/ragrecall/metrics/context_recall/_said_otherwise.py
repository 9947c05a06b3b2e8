"""Numbers a claim's evidence says in other words or around the quoted words: "a quarter" for 25 per cent,
"doubled", "three decades" for thirty years, a small count in words, the century of a year, a difference or a
conversion worked out. Deterministic, no LLM call (numbers that name a thing: :mod:`._naming`)."""

from __future__ import annotations

import dataclasses
import itertools
import math
import re

from ...text.anaphora import opens_with
from ...text.clauses import clause_spans
from ...text.cues import cues_in, plain
from ...text.names import Name, folded_words
from ...text.number_words import parse_chinese
from ...text.numbers import Quantity, quantities
from ...text.relative_years import count_of, spans_in_years
from ._bounded import SCALES, base, bounds_around, bounds_before, measure, place, within
from ._facts import ClaimFacts, Evidence

__all__ = [
    "about",
    "by_arithmetic",
    "centuries",
    "converted",
    "dated",
    "decades",
    "is_year",
    "rounded",
    "said_in_other_words",
    "small_in_words",
    "written_as_year",
    "years_apart",
]


def about(n: str, claim: str, spans: set[str]) -> bool:
    """Whether the claim says "more than n years" (三十多年, "over 30 years") and a span of the evidence's years
    is from n to n + 9."""
    said = [m.group(1) or m.group(2) for m in _MORE_THAN_YEARS.finditer(claim)]
    if not any(c == n or (not c.isdigit() and parse_chinese(c) == n) for c in said):
        return False
    return any(int(n) <= int(s) < int(n) + 10 for s in spans)


def years_apart(n: str, claim: str, spans: set[str]) -> bool:
    """Whether the claim's ``n`` counts years (an age, how long something lasted or stood: "was 74 years old",
    "owned them for seven years", 已成立二十二年, 约三十六岁, 三十岁出头) that two years of the evidence are apart:
    the same count, one fewer for an age (a birthday may not have come yet), or a count the claim's bound reaches
    (:func:`._bounded.within`). Only where the evidence writes two years: of three, which two an age spans is not
    known (born 1920, founded 1950, retired 1985 gives no age of 65 at the founding)."""
    if len(spans) != 1:
        return False
    text = plain(claim)
    for q in quantities(text):
        if q.value != n or "year" not in q.units or not n.isdigit() or written_as_year(q, text):
            continue
        bounds = bounds_around(text, q)
        if bounds:
            return any(within(int(n), int(s), bounds, place(n)) for s in spans)
        age = _AGE.match(text, q.end) is not None
        return n in spans or (age and str(int(n) + 1) in spans)
    return False


_AGE = re.compile(r"\s*(?:years?\s+old|岁|歲|周岁|週歲)", re.IGNORECASE)
_MORE_THAN_YEARS = re.compile(
    r"(?:more than|over)\s+(\d+)\s+years|([\d〇零一二两三四五六七八九十百]+)\s*(?:多|余|餘)\s*年", re.IGNORECASE
)


def said_in_other_words(n: str, facts: ClaimFacts, evidence: list[Evidence]) -> bool:
    """Whether the claim's ``n`` is a fraction, a multiplier or a span of years the evidence writes otherwise:
    ``25`` per cent as "a quarter" (四分之一; 42% as 四成二), ``2`` times as "doubled" (翻了一番), 18 as the one
    count the evidence doubles (nine) and 8,000 as a third of its 24,000, ``20`` years as "two decades", "three
    decades" as "thirty years"."""
    try:
        value = float(n)
    except ValueError:
        return False
    claim = plain(facts.text)
    fractions = [c.value for ev in evidence for c in cues_in(ev.text) if c.cls == "fraction"]
    if re.search(rf"(?<![\d.]){re.escape(n)}\s*(?:%|percent|per cent|％)", claim):
        shares = [share for v in fractions if (share := _share(v)) is not None]
        shares += [_tenths(m) for ev in evidence for m in _CHENG.finditer(plain(ev.text))]
        return any(abs(share * 100 - value) < 1 for share in shares)
    if re.search(rf"(?<![\d.]){re.escape(n)}\s*(?:times|倍)|两倍|二倍|翻一番|doubled|twice", claim):
        return f"x{n}" in fractions
    # 18 seats for "winning nine seats … it doubled its seat count", 8,000 for "24,000 students, a third of them":
    # the one count the evidence multiplies or takes a share of
    factors = [float(v[1:]) for v in fractions if v.startswith("x") and _number(v[1:])]
    factors += [share for v in fractions if (share := _share(v)) is not None]
    counts = [
        float(q.value)
        for ev in evidence
        for q in quantities(ev.text)
        if _number(q.value) and not q.units and not is_year(q.value)
    ]
    if len(factors) == 1 and len(counts) == 1 and math.isclose(counts[0] * factors[0], value):
        return True
    # "three decades" for "thirty years", "20 years" for "two decades", "over a hundred years" for "more than a
    # century"
    # The evidence's one span, with the same bound before it ("over" and "more than", not "less than").
    # The span in the clause naming the claim's subject ("stood for forty years; Ida Marr ran it for the last
    # ten" gives the building's forty years, not Ida Marr's), where the evidence writes more than one.
    ours = {(years, bound) for count, years, bound, _ in _spans_of_years(claim) if count == value}
    subject = next((name for name in facts.names if not name.cjk), None)
    theirs = [
        (years, bound)
        for ev in evidence
        for _, years, bound, at in _spans_of_years(ev.text)
        if subject is None or _about(subject, _clause_at(ev.text, at), ev.text)
    ]
    # "about thirty years" for "three decades": a claim that rounds may round an exact span
    ours |= {(years, frozenset()) for years, bound in ours if bound == _ABOUT}
    return len(theirs) == 1 and bool(ours & set(theirs))


_ABOUT = frozenset(["approx"])


def _about(subject: Name, clause: str, sentence: str) -> bool:
    """Whether ``clause`` of ``sentence`` is about ``subject``: it names it or opens on a subject pronoun, or it
    goes on with "and" and a verb from a first clause that names it or opens on a pronoun ("She settled in Leeds in
    1924 and taught …", "Its cathedral, begun in 1230 and finished a century and a half later")."""
    if set(subject.words) & folded_words(clause) or opens_with(clause, "subject pronoun"):
        return True
    first = _clause_at(sentence, 0)
    return (
        _GOES_ON.match(clause) is not None
        and first != clause
        and (bool(set(subject.words) & folded_words(first)) or opens_with(first, "pronoun"))
    )


# "and" and a verb in the past: "and taught", "and settled", "and won"
_GOES_ON = re.compile(r"\s*and\s+[a-z]+(?:ed|t|ught|ew|an|on)\b")


def _clause_at(text: str, at: int) -> str:
    """The clause of ``text`` holding offset ``at``."""
    return next((text[s:e] for s, e in clause_spans(text) if s <= at < e), text)


def _spans_of_years(text: str) -> list[tuple[float, float, frozenset[str], int]]:
    """The spans of time ``text`` writes in English as (the count written, the years it comes to, the bound
    before it, where it starts): "thirty years" (30, 30, none, 0), "over three decades" (3, 30, lower, 5), "a century"
    (1, 100, none, 0), "a century and a half" (1.5, 150, none, 0)."""
    out = []
    for m in _SPAN.finditer(text):
        count: float | None = 1 if m.group(1).casefold() in ("a", "an", "one") else count_of(m.group(1))
        if count is not None:
            if _AND_A_HALF.match(text, m.end()):
                count += 0.5  # "a century and a half"
            bound = bounds_before(text, m.start())
            out.append((float(count), float(count * _YEARS_IN[m.group(2).casefold().rstrip("s")]), bound, m.start()))
    return out


_AND_A_HALF = re.compile(r"\s+and\s+a\s+half\b", re.IGNORECASE)


_SPAN = re.compile(
    r"\b((?:a|an|one)\s+[a-z]+|\d+|[a-z]+\s+(?:hundred|thousand)|[a-z]+(?:-[a-z]+)?)\s+(years?|decades?|century|centuries)\b",
    re.IGNORECASE,
)
_YEARS_IN = {"year": 1, "decade": 10, "century": 100, "centurie": 100}


# 四成二 "four tenths and two": 42%; 七成 70% (not 成立, 成为, 成员 …)
_CHENG = re.compile(
    r"([一二三四五六七八九])成([一二三四五六七八九](?![十百千万成]))?(?![立为員员功果本绩長长都熟型品交])"
)
_DIGIT = {c: i for i, c in enumerate("〇一二三四五六七八九")}


def _tenths(m: re.Match[str]) -> float:
    return _DIGIT[m.group(1)] / 10 + (_DIGIT[m.group(2)] / 100 if m.group(2) else 0)


def _share(value: str) -> float | None:
    """A fraction cue's value as a share ("1/4" → 0.25), or None for a multiplier ("x2")."""
    top, slash, bottom = value.partition("/")
    if not slash or not top.isdigit() or not bottom.isdigit() or bottom == "0":
        return None
    return int(top) / int(bottom)


def small_in_words(n: str, claim: str, written: frozenset[str], evidence: list[Evidence]) -> bool:
    """One is said in too many ways to ask for; two too ("both", 双塔), where the evidence writes no other small
    count."""
    if n == "1":
        return True
    if n != "2" or "2" in claim:
        return False
    small = {w for w in written if w.isdigit() and 3 <= int(w) <= 10}
    return not small


def centuries(written: frozenset[str]) -> set[str]:
    """The centuries of the years and decades in ``written`` (``century:19`` for 1871 or ``decade:1870``)."""
    out = set()
    for n in written:
        year = n.removeprefix("decade:")
        if is_year(year):
            out.add(f"century:{int(year) // 100 + 1}")
    return out


def decades(written: frozenset[str]) -> set[str]:
    """The decades of the years in ``written`` (``decade:1870`` for 1871)."""
    return {f"decade:{int(n) // 10 * 10}" for n in written if is_year(n)}


def is_year(n: str) -> bool:
    """Whether ``n`` is a year (four digits, 1000–2100)."""
    return len(n) == 4 and n.isdigit() and 1000 <= int(n) <= 2100


def by_arithmetic(n: str, facts: ClaimFacts, evidence: list[Evidence]) -> bool:
    """Whether the claim's ``n`` is what two numbers of its evidence come to:
    - a change the claim gives a direction ("grew by 150", 下降了5个百分点): the difference of two figures the
      evidence gives for two years, the later less the earlier, with that sign ("250 staff in 2010 and 400 in
      2018"; 2023年为58%，低于2022年的63%), in the units of both (a change in per cent is not one of two counts);
    - a margin ("won by 35 points"): the difference of a score, two numbers joined by "to", 比 or a dash;
    - the year a span of years ends ("led it until 2009" from "took over in 1988 … led it for 21 years"), where
      the evidence writes that one span only."""
    ours = [q for q in quantities(facts.text) if q.value == n]
    if not ours or not _number(n):
        return False
    value, units = float(n), ours[0].units
    if is_year(n):
        spans = {int(s) for ev in evidence for s in spans_in_years(ev.text)}
        found = [q for ev in evidence for q in quantities(ev.text) if is_year(q.value)]
        return len(spans) == 1 and any(int(q.value) + s == value for q in found for s in spans)
    direction = {c.value for c in cues_in(facts.text) if c.value in ("change:up", "change:down")}
    if len(direction) == 1:
        sign = 1 if direction == {"change:up"} else -1
        figures = [d for ev in evidence for d in dated(ev.text) if _same_measure(units, d[1].units)]
        return any(
            y1 < y2 and abs(sign * (float(q2.value) - float(q1.value)) - value) < 1e-9
            for (y1, q1), (y2, q2) in itertools.permutations(figures, 2)
        )
    if _BY_A_MARGIN.search(facts.text[: ours[0].start]):
        # the claim's subject is who won ("Dunmore School beat Harrow Academy by 320 points to 280" gives Harrow
        # no margin); a majority is of the votes one clause counts ("Twelve … voted against and five in favour")
        majority = "majority" in facts.text.casefold()
        return any(
            (majority or _won_by_subject(facts, ev.text)) and abs(abs(float(a) - float(b)) - value) < 1e-9
            for ev in evidence
            for a, b in (_votes(ev.text) if majority else _SCORE.findall(ev.text))
        )
    return False


def _votes(text: str) -> list[tuple[str, str]]:
    """The pairs of counts the sentence ``text`` writes with no unit and no year (votes for and against)."""
    counts = [q for q in quantities(text) if _number(q.value) and not q.units and not written_as_year(q, text)]
    return [(a.value, b.value) for a, b in itertools.combinations(counts, 2)]


def _won_by_subject(facts: ClaimFacts, text: str) -> bool:
    """Whether ``text`` writes the claim's first name right before a word of winning ("Dunmore Academy defeated
    …", 青岚城队以3比1击败)."""
    subject = next(iter(facts.names), None)
    if subject is None:
        return False
    won = _WON_CJK if subject.cjk else _WON
    return re.search(re.escape(subject.text) + won, text, re.IGNORECASE) is not None


_WON = r"[^.;:]{0,40}?\b(?:defeated|beat|won|overcame|edged|outscored)\b"
_WON_CJK = r"[^。；]{0,12}?(?:击败|战胜|胜|赢)"


def _same_measure(ours: frozenset[str], theirs: frozenset[str]) -> bool:
    """Whether a change in ``ours`` can be the difference of two figures in ``theirs``: the same unit, or none,
    or percentage points of per cents; not per cent of counts."""
    if "%" in ours and "%" not in theirs:
        return False
    return not ours or bool(ours & theirs) or (ours == {"pp"} and theirs == {"%"})


def dated(text: str) -> list[tuple[int, Quantity]]:
    """The figures of ``text`` (placed in ``text``) with the year of their clause nearest to them ("250 staff in
    2010 and 400 in 2018": 2010 and 2018), figures with no year in their clause left out."""
    out = []
    for s, e in clause_spans(text) or ((0, len(text)),):
        found = quantities(text[s:e])
        years = [q for q in found if written_as_year(q, text[s:e])]
        for q in found:
            if q in years or not _number(q.value) or not years:
                continue
            year = min(years, key=lambda y: abs(y.start - q.start))
            out.append((int(year.value), dataclasses.replace(q, start=q.start + s, end=q.end + s)))
    return out


def _number(value: str) -> bool:
    return bool(_PLAIN_NUMBER.fullmatch(value))


_PLAIN_NUMBER = re.compile(r"\d+(?:\.\d+)?")
_BY_A_MARGIN = re.compile(r"\bby\s+(?:a\s+(?:majority|margin)\s+of\s+)?$|(?:相差|领先|落后|净胜)\s*$", re.I)
# A score: "310 points to 275", 3比1, 3–1.
_SCORE = re.compile(r"(\d+(?:\.\d+)?)(?:\s+[a-z]+)?\s*(?:to|比|[–-])\s*(\d+(?:\.\d+)?)(?!\.?\d)", re.I)


def converted(n: str, facts: ClaimFacts, evidence: list[Evidence]) -> bool:
    """Whether the claim's ``n``, with its unit, is the evidence's one figure of that measure in another unit
    ("0.4 m" for "40 centimetres", "2.5 t" for "2,500 kg", "90 minutes" for "1.5 hours")."""
    ours = [(float(q.value), b) for q in quantities(facts.text) if q.value == n and _number(n) and (b := base(q.units))]
    theirs = [
        (float(q.value), b) for ev in evidence for q in quantities(ev.text) if _number(q.value) and (b := base(q.units))
    ]
    # the evidence writes one figure of that measure: "25 tonnes; its clapper alone weighs 2,500 kg" gives the
    # bell's weight, not 2.5 t
    return any(
        len([1 for _, (m, _) in theirs if m == measure]) == 1
        and measure == their_measure
        and scale != their_scale
        and math.isclose(v * scale, w * their_scale, rel_tol=1e-6)
        for v, (measure, scale) in ours
        for w, (their_measure, their_scale) in theirs
    )


def rounded(n: str, facts: ClaimFacts, evidence: list[Evidence]) -> bool:
    """Whether the claim's ``n``, written with a word of approximation or a bound ("about 500 feet", "roughly 22
    km", "nearly 10,000", "more than two million", 约, 近, 逾, 左右, 多), rounds a figure of the evidence of the same
    measure, in its unit or another (152 m, 14 miles, 9,800, 2.1 million), as far as :func:`._bounded.within`
    lets the bound reach; the figure is not one the evidence gives for a year the claim does not name, and only
    one figure of the evidence is so near."""
    claim = plain(facts.text)
    found = [(ev.text, e) for ev in evidence for e in quantities(ev.text) if _number(e.value)]
    measures = frozenset(m[0] for _, e in found if (m := measure(e)) is not None)
    years = {int(y) for y in facts.numbers if is_year(y)}
    # "该厂2019年产量280万吨，2020年产量150万吨": 280万 is no figure for 2020
    texts = dict.fromkeys(ev.text for ev in evidence) if years else {}
    other_year = {(text, q.start) for text in texts for y, q in dated(text) if y not in years}
    for q in quantities(claim):
        bounds = bounds_around(claim, q) if q.value == n and _number(n) else frozenset()
        ours = (SCALES["%"] if claim[q.end - 1] == "成" else measure(q, measures)) if bounds else None  # 九成: 90%
        if ours is None:
            continue
        near = {  # a set: two quotes of one sentence write its figure once
            (text, e.start)
            for text, e in found
            if not written_as_year(e, text)
            and (text, e.start) not in other_year
            and (theirs := measure(e, frozenset({ours[0]}))) is not None
            and theirs[0] == ours[0]
            and within(float(n) * ours[1], float(e.value) * theirs[1], bounds, place(n) * ours[1])
        }
        if len(near) == 1:
            return True
    return False


def written_as_year(q: Quantity, text: str) -> bool:
    """A year: written with 年 (or "year"), or four bare digits from 1000 to 2100 with no unit ("1,100人" is none);
    a count of years ("two years later", 两年) is none."""
    if q.units & frozenset({"year"}):
        return q.value.isdigit() and 1000 <= int(q.value) <= 2100
    return not q.units and is_year(text[q.start : q.end])
