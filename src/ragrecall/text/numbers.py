"""Numbers written with digits, in one canonical form, so that ``1,900``, ``１９００`` and ``1900`` compare equal,
and names written with digits (``AX3000``), which must not pass for one another.

Rules (after Unicode NFKC, which turns full-width digits into ASCII; superscript and subscript digits, which
mark footnotes and powers, are left out first):

- a number is a run of digits, possibly with ``.``, ``,`` or ``'`` between digit groups, or with a no-break,
  narrow no-break or thin space before groups of exactly three digits (``2 000``); a plain space separates
  numbers (``Table 3 100 patients`` holds 3 and 100), and so do ``x`` and ``×`` between digits
  (``1920x1080``);
- a minus sign (``-``, ``−``, ``–``) right before the digits is kept when it does not join two words or
  numbers (``-5`` and ``(−5)`` are negative; ``2020-05``, ``5–10`` and ``COVID-19`` are not); a leading point
  is a decimal point (``.5`` is 0.5);
- spaces and apostrophes are thousands separators;
- with both ``.`` and ``,``, the last one is the decimal mark and the other separates thousands
  (``1,234.5`` and ``1.234,5`` are both ``1234.5``);
- a lone ``,`` is a thousands separator when exactly three digits follow it (``1,500``), a decimal comma
  otherwise (``1,5``); several commas separate thousands;
- a lone ``.`` is a decimal point (``1.500`` is 1.5); several dots separate thousands when every group after
  the first has three digits (``1.000.000``), else the text is kept as it is (a version or a dotted date,
  ``1.2.3``);
- a scale word right after the number multiplies it: ``thousand``, ``million``, ``billion``, ``trillion``,
  ``bn``, ``mn``, ``万``, ``亿`` (``1.2 million`` is ``1200000``, as is ``1,200,000``);
- leading zeros of the integer part and trailing zeros of the fraction are dropped (``007`` → ``7``,
  ``3.50`` → ``3.5``, ``2.0`` → ``2``).

Digits right after a letter belong to a name, not a quantity (``AX3000``, ``B12``, ``v3.12``,
``USD1.5bn``): :func:`names_in` reads those. Digits followed by letters are numbers (``200mg``, ``2nd``,
``1990s``). A Chinese scale word counts whatever follows it (``3万名游客`` is 30000).

Numbers spelled in words, English and Chinese, are read as their digit forms give them (``three`` and
``三`` are 3, ``三千五百`` is 3500, ``a dozen`` is 12: :mod:`.number_words`). A range is two numbers joined by a
dash, ``to``, ``through``, ``until``, 至 or 到 (``from 2019 to 2021``, ``between 5 and 10``,
``2019年至2021年``); one written short (``1939–45``) also holds its full end (1945). :func:`quantities`
gives each number with its unit (:mod:`.units`), :func:`ranges_in` the ranges.
"""

from __future__ import annotations

import itertools
import re
import unicodedata
from dataclasses import dataclass
from decimal import Decimal
from functools import lru_cache

from .dates import MONTHS, dates_in, decades_in
from .number_words import chinese_numbers, english_numbers
from .segment import CJK_RANGES, has_cjk
from .units import units_after, units_before

__all__ = [
    "Quantity",
    "canonical_number",
    "names_in",
    "number_start",
    "numbers_in",
    "opens_number",
    "quantities",
    "ranges_in",
    "scale_end",
]

_ANY_DIGIT = re.compile(r"\d")
_MAY_HAVE_WORDS = re.compile(
    r"(?i:zero|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|teen|twenty|thirty|forty|fifty|sixty"
    r"|seventy|eighty|ninety|hundred|thousand|million|billion|trillion|dozen)|[〇零一二两兩三四五六七八九十百千万萬亿億"
    r"壹贰叁肆伍陆陸柒捌玖拾佰仟]"
)
_SCRIPT_DIGITS = re.compile(r"[\u00b2\u00b3\u00b9\u2070-\u209f]")
_GROUP_SPACE = re.compile(r"(?<=\d)[\u00a0\u202f\u2009](?=\d{3}(?!\d))")
# Opening with one digit outside the alternation lets the pattern be scanned for its first digit at C speed.
_NUMBER = re.compile(r"\d(?:\d{0,2}(?:'\d{3})+(?:[.,]\d+)?(?!\d)|\d*(?:[.,']\d+)*)")
# A Latin scale word ends at a word boundary; a Chinese one counts what follows it (3万名 is 30000 people).
_SCALE = re.compile(
    r"\s?(?:(thousand|million|billion|trillion|bn|mn)s?(?![^\W\d_])|(万亿|万|亿|萬|億))|(k)(?![^\W\d_])", re.IGNORECASE
)
_SCALES = {
    "thousand": 3, "million": 6, "mn": 6, "billion": 9, "bn": 9, "trillion": 12,
    "万亿": 12, "万": 4, "萬": 4, "亿": 8, "億": 8, "k": 3,
}  # fmt: skip
_CURRENCIES = "$€£¥"
_MILLIONS = re.compile(r"m(?![^\W\d_])")
_RANGE_JOIN = re.compile(
    r"\s*(?:年|月|日)?\s*(?:[-\u2010-\u2015~～－]|至|到|to|through|thru|till|until|and)\s*", re.IGNORECASE
)
_BETWEEN = re.compile(r"between\s+$", re.IGNORECASE)
_NAME = re.compile(
    f"(?<![^\\W_{CJK_RANGES}])[^\\W\\d_{CJK_RANGES}]+(?:[-_]?\\d(?:[^\\W{CJK_RANGES}]|\\.)*)+", re.UNICODE
)
# An area or volume unit as NFKC writes it (km² is km2): no name.
_SQUARED_UNIT = re.compile(r"(?:[kcmd]?m|ft|in|mi|yd|sq)[23]")
_LETTER_DIGIT = re.compile(r"[^\W\d_][-_]?\d")
"""A letter before a digit, perhaps with a hyphen or underscore between them: what every name holds."""
_MINUS = "-\u2212\u2013"
_OPENERS = "([{<=:~≈$€£¥"
_BETWEEN_DIGITS = "x×"


@dataclass(frozen=True)
class Quantity:
    """A number of a text: its canonical value, where it is (in the text after NFKC normalisation), and the
    canonical units written with it (:func:`~ragrecall.text.units.units_after`; empty when none is known)."""

    value: str
    start: int
    end: int
    units: frozenset[str] = frozenset()


@lru_cache(maxsize=4096)  # a claim is read by the coverage check and again by the quote check
def numbers_in(text: str) -> frozenset[str]:
    """The canonical forms of the numbers of ``text``: written with digits or in words, with the full end of a
    range written short (``1939–45`` holds 1939 and 1945, not 45)."""
    found = {value for value, _, _ in _number_spans(text)[1]}
    for _, high in ranges_in(text):
        if high not in found:  # written short: "1939–45" holds 1945, and its 45 is no number of its own
            found.discard(str(int(high[-2:])))
            found.add(high)
    return frozenset(found)


@lru_cache(maxsize=4096)
def quantities(text: str) -> tuple[Quantity, ...]:
    """The numbers of ``text`` in order, each with its units (see the module docstring)."""
    norm, spans = _number_spans(text)
    return tuple(
        Quantity(value, start, end, units_after(norm, end) | units_before(norm, start)) for value, start, end in spans
    )


@lru_cache(maxsize=4096)
def _number_spans(text: str) -> tuple[str, tuple[tuple[str, int, int], ...]]:
    """``text`` normalised, and its numbers in order as (canonical value, start, end) without their units."""
    if text.isascii():  # no normalising to do, no Chinese numerals, and number words are told at once
        norm, words = text, english_numbers(text)
        if not (words or _ANY_DIGIT.search(text) or "century" in text.lower() or _MAY_BE_DATE.search(text)):
            return text, ()
    else:
        norm = _normalised(text)
        words = english_numbers(norm) if _MAY_HAVE_WORDS.search(norm) else []
        words += chinese_numbers(norm) if has_cjk(norm) else []
    spans = _digit_numbers(norm) if _ANY_DIGIT.search(norm) else []
    taken = [(s, e) for _, s, e in spans]
    spans += [(w.value, w.start, w.end) for w in words if not any(s < w.end and w.start < e for s, e in taken)]
    if _MAY_BE_DATE.search(norm):
        dates = dates_in(norm)
        if dates:  # a date's numbers are its tokens: 1876-04-11 is no range 4–11, and its day no count
            spans = [sp for sp in spans if not any(d.start <= sp[1] < d.end for d in dates)]
            spans += [token for d in dates for token in d.tokens]
    if _MAY_BE_DECADE.search(norm):
        decades = decades_in(norm)  # 20世纪70年代 is the 1970s, not 20 and 70
        spans = [sp for sp in spans if not any(d.start <= sp[1] < d.end for d in decades)]
        spans += [(d.token, d.start, d.end) for d in decades]
    spans = [_signed(norm, span) for span in spans]
    if "半" in norm:
        spans = _and_a_half(norm, spans)
    spans.sort(key=lambda span: span[1])
    return norm, tuple(spans)


def _and_a_half(norm: str, spans: list[tuple[str, int, int]]) -> list[tuple[str, int, int]]:
    """The numbers with a half after their measure word: 两年半 is 2.5 years, 一吨半 1.5 t, 一个半小时 1.5 hours
    (一半 alone is a half, no number); after 个 the unit follows 半, so the number's span takes it in."""
    taken = {s for _, s, _ in spans}
    spans = spans + [("1", m.start(), m.start() + 1) for m in _ONE_AND_A_HALF.finditer(norm) if m.start() not in taken]
    out = []
    for value, start, end in spans:
        half = _AND_A_HALF.match(norm, end)
        if half is None or not value.isdigit() or norm[start - 1 : start] == "第":
            out.append((value, start, end))
        else:
            out.append((f"{value}.5", start, half.end() if half.group(1) else end))
    return out


# 两年半, 一吨半, 三个半月: a measure word (or 个 and the unit after 半) between a whole number and 半 (一大半 "most
# of it" is none)
# (not 半决赛 "semi-final", 半场 "half-time", 半岛 "peninsula": a word of its own; not after 第, an ordinal)
_NOT_A_HALF = "(?![决場场岛島导導径徑数數身夜球壁程])"
_AND_A_HALF = re.compile(rf"\s*(?:([个個])半{_NOT_A_HALF}|[^\W\d_个個半大小多](?=半{_NOT_A_HALF}))")
_ONE_AND_A_HALF = re.compile(
    rf"(?<![一二三四五六七八九十百千万亿两〇零第\d])一(?=[个個]半{_NOT_A_HALF}|[^\W\d_个個半大小多]半{_NOT_A_HALF})"
)


_MAY_BE_DECADE = re.compile(r"\d0s\b|年代|世纪|century", re.IGNORECASE)
# A date writes digits joined by dashes, slashes or dots, 月, or a month's name, capitalised ("May", "Sept."):
# every one opens on one of these three letters.
_MONTH_OPENINGS = "|".join(sorted({m[:3].capitalize() for m in MONTHS}))
_MAY_BE_DATE = re.compile(  # 1876-04-11, 17.06.2023, 2012.11, 6月, Aug
    rf"\d[-/.]\d{{1,2}}[-/.]\d|(?:1[89]|20)\d\d\.(?:0[1-9]|1[0-2])(?!\d)|月|\b(?:{_MONTH_OPENINGS})"
)
_BELOW_ZERO = re.compile(r"(?:零下|minus\s+|negative\s+)$", re.IGNORECASE)
_BELOW_ZERO_AFTER = re.compile(
    r"^\s*(?:°\s*[CF]?|degrees?\s*(?:celsius|fahrenheit|C|F)?)?\s*below\s+zero", re.IGNORECASE
)


def _signed(norm: str, span: tuple[str, int, int]) -> tuple[str, int, int]:
    """``span`` negative when the text says so in words: 零下12度, minus 12, 12 degrees below zero."""
    value, start, end = span
    if value.startswith("-") or not value[:1].isdigit():
        return span
    if _BELOW_ZERO.search(norm[max(0, start - 9) : start]) or _BELOW_ZERO_AFTER.match(norm[end : end + 30]):
        return (f"-{value}", start, end) if value != "0" else span
    return span


@lru_cache(maxsize=4096)
def ranges_in(text: str) -> frozenset[tuple[str, str]]:
    """The ranges of ``text`` as (low, high) canonical pairs: two numbers joined by a dash, ``to``,
    ``through``, ``until``, 至 or 到, or ``between … and …``; the high end written short (``1939–45``) is
    read in full. A pair whose high end is not above its low end is no range (``2024-05`` is a date)."""
    norm, found = _number_spans(text)
    if len(found) < 2:
        return frozenset()
    out: set[tuple[str, str]] = set()
    for (low, a_start, a_end), (value, b_start, b_end) in itertools.pairwise(found):
        join = _RANGE_JOIN.fullmatch(norm, a_end, b_start)
        if join is None:
            continue
        if join.group().strip().lower() == "and" and not _BETWEEN.search(norm[max(0, a_start - 9) : a_start]):
            continue
        high = _full_end(low, value, norm[b_start:b_end])
        if _is_number(low) and _is_number(high) and Decimal(high) > Decimal(low):
            out.add((low, high))
    return frozenset(out)


def _full_end(low: str, high: str, written: str) -> str:
    """``high`` read in full when written short after a year-like ``low`` (1939 and 45: 1945; 2024 and 05 is a
    date, not a range)."""
    if len(low) == 4 and low.isdigit() and len(written) == 2 and written.isdigit() and written[0] != "0":
        full = low[:2] + written
        if int(full) > int(low):
            return full
    return high


def _is_number(value: str) -> bool:
    try:
        Decimal(value)
    except ArithmeticError:
        return False
    return value.count(".") <= 1


def _digit_numbers(norm: str) -> list[tuple[str, int, int]]:
    """The numbers written with digits in normalised text: (canonical value, start, end after any scale word)."""
    found: list[tuple[str, int, int]] = []
    for m in _NUMBER.finditer(norm):
        start = m.start()
        before = norm[start - 1] if start else ""
        if _is_letter(before) and not (before in _BETWEEN_DIGITS and start >= 2 and norm[start - 2].isdigit()):
            continue  # a name: AX3000
        if before == "^":
            continue  # the power of a unit: km^2
        opening = norm[number_start(norm, start) : start]  # "", ".", "-" or "-."
        point = "." in opening
        tail = before in ".,'" and not point and start >= 2
        if tail and (norm[start - 2].isdigit() or _is_letter(norm[start - 2])):
            continue  # the tail of a name or of a number already read: v3.12
        negative = bool(opening) and opening[0] in _MINUS
        scale = _SCALE.match(norm, m.end()) if _may_scale(norm, m.end()) else None
        power = _SCALES[(scale.group(1) or scale.group(2) or scale.group(3)).lower()] if scale else 0
        end = scale.end() if scale else m.end()
        if scale is None and before in _CURRENCIES and _MILLIONS.match(norm, end):
            power, end = 6, end + 1  # £640m, $2.5m: millions of money
        value = canonical_number(("0." if point else "") + m.group(), power)
        found.append((f"-{value}" if negative and value != "0" else value, start - len(opening), end))
    return found


@lru_cache(maxsize=4096)
def names_in(text: str) -> frozenset[str]:
    """Names written with letters then digits (``AX3000``, ``B12``, ``GPT-4o``, ``USD1.5bn``), case-folded; an
    area or volume unit (``km²``) is none."""
    if not _ANY_DIGIT.search(text):
        return frozenset()
    norm = _normalised(text)
    if not _LETTER_DIGIT.search(norm):  # what every name holds, found many times faster than a name
        return frozenset()
    found = (m.group().rstrip(".") for m in _NAME.finditer(norm))
    return frozenset(n.casefold() for n in found if not _SQUARED_UNIT.fullmatch(n))


def canonical_number(token: str, power: int = 0) -> str:
    """One unsigned number token (digits and separators) in canonical form, times ``10 ** power``."""
    digits = token.replace(" ", "").replace("'", "")
    has_dot, has_comma = "." in digits, "," in digits
    if has_dot and has_comma:
        decimal = "." if digits.rfind(".") > digits.rfind(",") else ","
        thousands = "," if decimal == "." else "."
        digits = digits.replace(thousands, "").replace(decimal, ".")
    elif has_comma:
        groups = digits.split(",")
        grouped = len(groups) > 2 or len(groups[1]) == 3
        digits = ("" if grouped else ".").join(groups)
    elif digits.count(".") > 1:
        groups = digits.split(".")
        if all(len(g) == 3 for g in groups[1:]):
            digits = "".join(groups)
        else:
            return ".".join(g.lstrip("0") or "0" for g in groups)
    if power:  # digits and at most one point by now: always a valid Decimal
        digits = format(Decimal(digits).scaleb(power), "f")
    whole, _, fraction = digits.partition(".")
    whole = whole.lstrip("0") or "0"
    fraction = fraction.rstrip("0")
    return f"{whole}.{fraction}" if fraction else whole


def number_start(text: str, at: int) -> int:
    """Where the number whose digits start at ``at`` starts: before the decimal point and the minus sign that
    open it (``-.5``, ``.5``, ``-5``), when they open it rather than join it to what stands before."""
    if at > 0 and text[at - 1] == "." and opens_number(text, at - 1):
        at -= 1
    if at > 0 and text[at - 1] in _MINUS and opens_number(text, at - 1):
        at -= 1
    return at


def scale_end(text: str, end: int) -> int:
    """Where a passage ending at ``end`` with a digit ends once the scale word after it is taken in
    (``"$1.2"`` in ``"$1.2 billion"`` becomes ``"$1.2 billion"``); ``end`` when there is none."""
    if end <= 0 or not text[end - 1].isdigit():
        return end
    scale = _SCALE.match(text, end)
    return scale.end() if scale else end


def opens_number(text: str, at: int) -> bool:
    """True when a minus sign or point at ``at`` (before digits) opens a number rather than joining two words
    or numbers: nothing, a space, or an opening bracket, currency or comparison sign stands before it."""
    return at == 0 or text[at - 1].isspace() or text[at - 1] in _OPENERS or has_cjk(text[at - 1])


def _may_scale(text: str, end: int) -> bool:
    """False when no scale word can follow a number ending at ``end``: it would open there or after one space,
    with one of the letters t, m, b, k in either case (or a character that is not ASCII: 万, 亿, the Kelvin sign
    that a case-blind ``k`` matches)."""
    return any(not ch.isascii() or ch in "tmbkTMBK" for ch in text[end : end + 2])


def _normalised(text: str) -> str:
    if text.isascii():
        return text
    # A power after a unit is part of it (km², m³: "km2"); elsewhere a script digit marks a footnote.
    text = _UNIT_POWER.sub(lambda m: m.group(1) + "^" + unicodedata.normalize("NFKC", m.group(2)), text)
    if "½" in text or "¼" in text or "¾" in text:  # 6½ is 6.5, not 6 1⁄2
        text = _VULGAR.sub(lambda m: m.group(1) + _VULGARS[m.group(2)], text)
    # A Chinese comma separates (1876-04-11，1902年); NFKC would make it an ASCII comma that groups digits.
    text = text.replace("，", " ")
    return unicodedata.normalize("NFKC", _GROUP_SPACE.sub("'", _SCRIPT_DIGITS.sub(" ", text)))


_VULGARS = {"½": ".5", "¼": ".25", "¾": ".75"}
_VULGAR = re.compile(r"(\d)([½¼¾])")
_UNIT_POWER = re.compile(r"(?<![^\W\d_])((?:k|c|m)?m|ft|mi)([²³])")


def _is_letter(ch: str) -> bool:
    """An alphabetic letter that can start a name (not a CJK character, which may stand before a number)."""
    return ch.isalpha() and not has_cjk(ch)
