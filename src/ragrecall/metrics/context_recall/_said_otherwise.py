"""Numbers a claim's evidence says in other words or around the quoted words: "a quarter" for 25 per cent,
"doubled", "three decades" for thirty years, a name's number the passage wrote before ("Korrin 4", 5号线), a
small count in words, the century of a year. Deterministic, no LLM call."""

from __future__ import annotations

import itertools
import math
import re
from collections.abc import Sequence

from ...text.cues import cues_in, plain
from ...text.names import fold_word
from ...text.number_words import parse_chinese
from ...text.numbers import Quantity, quantities
from ...text.relative_years import count_of, spans_in_years
from ...text.segment import has_cjk
from ...text.terms import STOPWORDS
from ._facts import ClaimFacts, Evidence

__all__ = [
    "about",
    "by_arithmetic",
    "centuries",
    "converted",
    "decades",
    "is_year",
    "named_before",
    "part_of_a_name",
    "said_as_fraction",
    "small_in_words",
    "written_as_year",
]


def about(n: str, claim: str, spans: set[str]) -> bool:
    """Whether the claim says "more than n years" (三十多年, "over 30 years") and a span of the evidence's years
    is from n to n + 9."""
    said = [m.group(1) or m.group(2) for m in _MORE_THAN_YEARS.finditer(claim)]
    if not any(c == n or (not c.isdigit() and parse_chinese(c) == n) for c in said):
        return False
    return any(int(n) <= int(s) < int(n) + 10 for s in spans)


_MORE_THAN_YEARS = re.compile(
    r"(?:more than|over)\s+(\d+)\s+years|([\d〇零一二两三四五六七八九十百]+)\s*(?:多|余|餘)\s*年", re.IGNORECASE
)


def said_as_fraction(n: str, facts: ClaimFacts, evidence: list[Evidence]) -> bool:
    """Whether the claim's ``n`` is a fraction, a multiplier or a span of years the evidence writes otherwise:
    ``25`` per cent as "a quarter" (四分之一), ``2`` times as "doubled" (翻了一番), ``20`` years as "two decades",
    "three decades" as "thirty years"."""
    try:
        value = float(n)
    except ValueError:
        return False
    claim = plain(facts.text)
    fractions = [c.value for ev in evidence for c in cues_in(ev.text) if c.cls == "fraction"]
    if re.search(rf"(?<![\d.]){re.escape(n)}\s*(?:%|percent|per cent|％)", claim):
        shares = [share for v in fractions if (share := _share(v)) is not None]
        return any(abs(share * 100 - value) < 1 for share in shares)
    if re.search(rf"(?<![\d.]){re.escape(n)}\s*(?:times|倍)|两倍|二倍|翻一番|doubled|twice", claim):
        return f"x{n}" in fractions
    # "three decades" for "thirty years", "20 years" for "two decades", "over a hundred years" for "more than a
    # century"
    ours = {years for count, years in _spans_of_years(claim) if count == value}
    return bool(ours & {years for ev in evidence for _, years in _spans_of_years(ev.text)})


def _spans_of_years(text: str) -> list[tuple[float, float]]:
    """The spans of time ``text`` writes in English as (the count written, the years it comes to): "thirty
    years" (30, 30), "three decades" (3, 30), "a century" (1, 100)."""
    out = []
    for m in _SPAN.finditer(text):
        count = 1 if m.group(1).casefold() in ("a", "an", "one") else count_of(m.group(1))
        if count is not None:
            out.append((float(count), float(count * _YEARS_IN[m.group(2).casefold().rstrip("s")])))
    return out


_SPAN = re.compile(
    r"\b((?:a|an|one)\s+[a-z]+|\d+|[a-z]+(?:-[a-z]+)?)\s+(years?|decades?|century|centuries)\b", re.IGNORECASE
)
_YEARS_IN = {"year": 1, "decade": 10, "century": 100, "centurie": 100}


def _share(value: str) -> float | None:
    """A fraction cue's value as a share ("1/4" → 0.25), or None for a multiplier ("x2")."""
    top, slash, bottom = value.partition("/")
    if not slash or not top.isdigit() or not bottom.isdigit() or bottom == "0":
        return None
    return int(top) / int(bottom)


def named_before(n: str, claim: str, evidence: list[Evidence]) -> bool:
    """Whether ``n`` names a thing in the claim (:func:`_names_a_thing`: "Korrin 4", "the women's 10,000 m final",
    5号线, 总决赛第五场, 三月换届选举, "the 2023 festival"; not a count, "40 engineers") and the evidence's passage,
    before the evidence sentence or in it, writes it with a word the claim writes beside it ("The 2023 Oszby
    Lantern Festival": the word three words on at most); while the evidence sentence writes no other number
    beside that word (not 2018年产量 for 2010年产量)."""
    for q in quantities(claim):
        if q.value != n or not _names_a_thing(claim, q):
            continue
        ours = _beside(claim, q)
        for ev in evidence:
            if any(o.value != n and _shares(ours, _beside(ev.text, o)) for o in quantities(ev.text)):
                continue
            upto = ev.earlier + ev.text
            if any(p.value == n and _shares(ours, _beside(upto, p, reach=3)) for p in quantities(ev.earlier)):
                return True
    return False


def _names_a_thing(claim: str, q: Quantity) -> bool:
    """Whether a quantity of ``claim`` is part of what names a thing rather than a count of it: a year or a month,
    an ordinal (第五场) or a number (5号线), a measure with a noun after it ("the 10,000 m final"), or a number
    after a capitalised word ("Korrin 4")."""
    if is_year(q.value) or q.value.startswith("month:") or claim[q.start - 1 : q.start] == "第":
        return True
    if has_cjk(claim[q.end : q.end + 1]):
        return claim[q.end : q.end + 1] == "号"
    before = _WORD_BEFORE.search(claim[: q.start])
    return bool(q.units and _WORDS_AFTER.match(claim, q.end)) or bool(before and before.group(1)[0].isupper())


def _beside(text: str, q: Quantity, reach: int = 1) -> tuple[str, tuple[str, ...]]:
    """The word right before a quantity of ``text`` and the ``reach`` words after it (two characters in Chinese),
    folded; none for a function word, or where a mark or the text's end stands between."""
    before, after = text[: q.start], text[q.end :]
    if has_cjk(before[-1:]) or has_cjk(after[:1]):
        return (before[-2:] if has_cjk(before[-2:]) else "", (after[:2],) if has_cjk(after[:2]) else ())
    left = _WORD_BEFORE.search(before)
    right = _WORDS_AFTER.match(after)
    word = fold_word(left.group(1)) if left else ""
    following = [fold_word(w) for w in right.group().split()[:reach]] if right else []
    return ("" if word in STOPWORDS else word, tuple(w for w in following if w not in STOPWORDS))


_WORD_BEFORE = re.compile(r"([^\W\d_]+(?:['’]s)?)\s+$")
_WORDS_AFTER = re.compile(r"(?:\s+[^\W\d_]+)+")


def _shares(ours: tuple[str, tuple[str, ...]], theirs: tuple[str, tuple[str, ...]]) -> bool:
    """Whether two quantities have the same word before them, or the first word after one is among the words
    after the other."""
    return bool(ours[0] and ours[0] == theirs[0]) or bool(ours[1] and ours[1][0] in theirs[1])


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
    out = set()
    for n in written:
        year = n.removeprefix("decade:")
        if is_year(year):
            out.add(f"century:{int(year) // 100 + 1}")
    return out


def decades(written: frozenset[str]) -> set[str]:
    return {f"decade:{int(n) // 10 * 10}" for n in written if is_year(n)}


def is_year(n: str) -> bool:
    """Whether ``n`` is a year (four digits, 1000–2100)."""
    return len(n) == 4 and n.isdigit() and 1000 <= int(n) <= 2100


def by_arithmetic(n: str, facts: ClaimFacts, evidence: list[Evidence]) -> bool:
    """Whether the claim's ``n`` is what two numbers of its evidence come to: their difference, where the claim
    reads it as a change, a comparison or a margin ("won by 35 points" from "by 310 points to 275", "grew by 150"
    from "250 staff in 2010 and 400 in 2018", 下降了5个百分点 from 58% and 63%), in the units of both (a change
    in per cent is not one of two counts); or the year a span of years ends ("led it until 2009" from "took over
    in 1988 … led it for 21 years")."""
    ours = [q for q in quantities(facts.text) if q.value == n]
    if not ours or not _number(n):
        return False
    value = float(n)
    found = [q for ev in evidence for q in quantities(ev.text) if _number(q.value)]
    if is_year(n):
        spans = {int(s) for ev in evidence for s in spans_in_years(ev.text)}
        return any(is_year(q.value) and int(q.value) + s == value for q in found for s in spans)
    if not _reads_a_difference(facts.text, ours[0]):
        return False
    units = ours[0].units
    return any(
        a.units == b.units
        and (not units or units & a.units or (units == {"pp"} and a.units == {"%"}))
        and not ("%" in units and "%" not in a.units)
        and abs(abs(float(a.value) - float(b.value)) - value) < 1e-9
        for a, b in itertools.combinations(found, 2)
    )


def _number(value: str) -> bool:
    return bool(_PLAIN_NUMBER.fullmatch(value))


def _reads_a_difference(claim: str, q: Quantity) -> bool:
    """Whether ``claim`` reads its quantity ``q`` as a change, a comparison or a margin: a cue of change or of
    comparison ("grew", 下降, 比…多), or "by" right before it ("by 35 points"), or 相差/领先/落后."""
    if any(c.cls == "comparative" or c.value.startswith("change:") for c in cues_in(claim)):
        return True
    return bool(_MARGIN.search(claim[: q.start]))


_PLAIN_NUMBER = re.compile(r"\d+(?:\.\d+)?")
_MARGIN = re.compile(r"\bby\s+(?:a\s+(?:majority|margin)\s+of\s+)?$|(?:相差|领先|落后|多出|少了|多了)\s*$", re.I)


def converted(n: str, facts: ClaimFacts, evidence: list[Evidence]) -> bool:
    """Whether the claim's ``n``, with its unit, is a number of the evidence in another unit of the same measure
    ("0.4 m" for "40 centimetres", "2.5 t" for "2,500 kg", "90 minutes" for "1.5 hours")."""
    ours = [
        (float(q.value), b) for q in quantities(facts.text) if q.value == n and _number(n) and (b := _base(q.units))
    ]
    theirs = [
        (float(q.value), b)
        for ev in evidence
        for q in quantities(ev.text)
        if _number(q.value) and (b := _base(q.units))
    ]
    return any(
        measure == their_measure and scale != their_scale and math.isclose(v * scale, w * their_scale, rel_tol=1e-6)
        for v, (measure, scale) in ours
        for w, (their_measure, their_scale) in theirs
    )


def _base(units: frozenset[str]) -> tuple[str, float] | None:
    """The measure of a unit and its size in that measure's base unit, for one unit of :data:`_SCALES`."""
    known = [_SCALES[u] for u in units if u in _SCALES]
    return known[0] if len(known) == 1 else None


_SCALES = {
    "km": ("length", 1000.0), "m": ("length", 1.0), "cm": ("length", 0.01), "mm": ("length", 0.001),
    "t": ("mass", 1000.0), "kg": ("mass", 1.0), "g": ("mass", 0.001),
    "km2": ("area", 1_000_000.0), "ha": ("area", 10_000.0), "m2": ("area", 1.0),
    "GW": ("power", 1000.0), "MW": ("power", 1.0),
    "week": ("time", 604_800.0), "day": ("time", 86_400.0), "hour": ("time", 3600.0),
    "minute": ("time", 60.0), "second": ("time", 1.0), "year": ("months", 12.0), "month": ("months", 1.0),
}  # fmt: skip


def written_as_year(q: Quantity, text: str) -> bool:
    """A year: written with 年 (or "year"), or four bare digits from 1000 to 2100 with no unit ("1,100人" is none);
    a count of years ("two years later", 两年) is none."""
    if q.units & frozenset({"year"}):
        return q.value.isdigit() and 1000 <= int(q.value) <= 2100
    written = text[q.start : q.end]
    return not q.units and written.isdigit() and len(written) == 4 and 1000 <= int(written) <= 2100


def part_of_a_name(n: str, facts: ClaimFacts, texts: Sequence[str]) -> bool:
    """Whether ``n`` is written inside a name of the claim ("Orvel-4", "Apollo 11") that a passage of the sample
    writes: it names the thing, it counts nothing of it."""
    inside = re.compile(rf"(?<![\d.,]){re.escape(n)}(?![\d.,]\d)")
    return any(not name.cjk and inside.search(name.text) and any(name.text in t for t in texts) for name in facts.names)
