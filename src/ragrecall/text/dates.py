"""Dates read as dates, so that ``1876-04-11``, ``11 April 1876``, ``April 11, 1876``, ``1876年4月11日`` and
``一八七六年四月十一日`` are one date, and ``1876-04-11`` is never the range 4–11 nor ``April`` a name.

A date is read in any of these shapes (after NFKC): ``YYYY-MM-DD`` (or with ``/`` or ``.``), ``DD.MM.YYYY``,
``YYYY.MM`` before Chinese, ``D Month YYYY``, ``Month D, YYYY``, ``Month YYYY``, ``D Month``, ``Month D``
(English month names, in full or short), a month named alone ("that August"), and ``Y年M月D日`` (``号`` for 日),
``Y年M月``, ``M月D日`` with digits or Chinese numerals. Its *tokens* are what a text writing it states: the year
(as a number), ``month:MM``, ``MM-DD`` with a day, and ``YYYY-MM-DD`` when all three are written; a claim's date
is in its evidence when its tokens are.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from .number_words import parse_chinese

__all__ = ["FULL_MONTHS", "MONTHS", "DateSpan", "dates_in"]

MONTHS = {
    "january": 1, "jan": 1, "february": 2, "feb": 2, "march": 3, "mar": 3, "april": 4, "apr": 4, "may": 5,
    "june": 6, "jun": 6, "july": 7, "jul": 7, "august": 8, "aug": 8, "september": 9, "sep": 9, "sept": 9,
    "october": 10, "oct": 10, "november": 11, "nov": 11, "december": 12, "dec": 12,
}  # fmt: skip
"""English month names and their numbers."""

_MONTH = r"(?P<{}>" + "|".join(sorted(MONTHS, key=len, reverse=True)) + r")\.?"
_DAY = r"(?P<{}>\d{{1,2}})(?:st|nd|rd|th)?"
_YEAR = r"(?P<{}>\d{{4}})"
_CN = "〇零一二两三四五六七八九十"
FULL_MONTHS = "|".join(m.capitalize() for m in MONTHS if len(m) > 3 and m != "sept")
"""The English month names in full, capitalised, as a regular expression's alternatives."""
# a month named alone ("that August", "in March"): capitalised, in full, beside no other capitalised word
_ALONE = re.compile(rf"(?<![\w])(?P<m>{FULL_MONTHS})(?![\w'’-])(?!\s+[A-Z])")
_PATTERNS = [
    re.compile(r"(?<![\d.\-/])(?P<y>\d{4})([-/.])(?P<m>\d{1,2})\2(?P<d>\d{1,2})(?![\d])"),
    # 1994.05, 2012.11: a year and a month, as a Chinese timeline writes them (Chinese after, no unit or digit)
    re.compile(
        r"(?<![\d.\-/])(?P<y>1[89]\d{2}|20\d{2})\.(?P<m>0[1-9]|1[0-2])(?![\d.]|\s*[元万亿%‰年月日号个只件吨米])"
        r"(?=\s*[\u3400-\u9fff；，])"
    ),
    # 17.06.2023: day, month, year, as Europe writes it with dots
    re.compile(r"(?<![\d.\-/])(?P<d>\d{1,2})\.(?P<m>\d{1,2})\.(?P<y>\d{4})(?![\d])"),
    re.compile(
        rf"(?<![\w]){_DAY.format('d')}\s+(?:of\s+)?{_MONTH.format('m')}(?:,?\s+{_YEAR.format('y')})?(?![\w])",
        re.IGNORECASE,
    ),
    re.compile(
        rf"(?<![\w]){_MONTH.format('m')}\s+{_DAY.format('d')}(?:,?\s+{_YEAR.format('y')})?(?![\w])", re.IGNORECASE
    ),
    re.compile(rf"(?<![\w]){_MONTH.format('m')},?\s+{_YEAR.format('y')}(?![\w])", re.IGNORECASE),
    _ALONE,
    re.compile(
        rf"(?:(?P<y>\d{{4}}|[{_CN}]{{4}})\s*年\s*)?(?P<m>\d{{1,2}}|[{_CN}]{{1,3}})\s*月"
        rf"(?:\s*(?P<d>\d{{1,2}}|[{_CN}]{{1,3}})\s*[日号號]|(?P<part>初|中旬|上旬|下旬|底|末))?"
    ),
]
# A capitalised word right before a month named alone, other than a word that opens a sentence with it.
_NAME_BEFORE = re.compile(
    r"(?<![\w'’])(?!(?:In|By|Since|Until|Till|During|From|That|This|Last|Next|Early|Late|Mid|Each|Every|On|Of|To"
    r"|Before|After|Through|Throughout|For|And|But|Or|Then|Also|Only)\s)[A-Z][\w'’.-]*\s+$"
)
_ORDINALS = {
    "eleventh": 11, "twelfth": 12, "thirteenth": 13, "fourteenth": 14, "fifteenth": 15, "sixteenth": 16,
    "seventeenth": 17, "eighteenth": 18, "nineteenth": 19, "twentieth": 20, "twenty-first": 21,
}  # fmt: skip
_DECADES = [
    (re.compile(r"(?<![\w-])(?:the\s+)?(?:early|mid|late)?[\s-]?(?P<y>1\d|20)(?P<d>\d)0s\b", re.IGNORECASE), "en"),
    (re.compile(r"(?P<c>\d{2}|[二十一九]{2,3})\s*世纪\s*(?P<d>\d0|[一二三四五六七八九]十)\s*年代"), "zh-century"),
    (re.compile(r"(?P<y>1\d|20)(?P<d>\d)0\s*年代"), "zh-digits"),
    # 八十年代, 上世纪八十年代 ("of the last century"): the twentieth century's
    (re.compile(r"(?:(?<=上世纪)|(?<![\d世纪]))(?P<d>[一二三四五六七八九]十)\s*年代"), "zh-bare"),
    (re.compile(r"(?P<c>\d{1,2})(?:st|nd|rd|th)[\s-]+century", re.IGNORECASE), "en-century"),
    (re.compile(rf"(?P<w>{'|'.join(_ORDINALS)})[\s-]+century", re.IGNORECASE), "en-century-word"),
    (re.compile(r"(?P<c>\d{2}|[一二十]{2,3})\s*世纪(?!\s*(?:\d0|[一二三四五六七八九]十)\s*年代)"), "zh-century-only"),
]


@dataclass(frozen=True)
class DateSpan:
    """A date of a text: where it is and what it writes (None for a part it leaves out)."""

    start: int
    end: int
    year: int | None
    month: int
    day: int | None

    @property
    def tokens(self) -> tuple[tuple[str, int, int], ...]:
        """The date's tokens (see the module docstring) as (value, start, end)."""
        out = []
        if self.year is not None:
            out.append((str(self.year), self.start, self.end))
        out.append((f"month:{self.month:02d}", self.start, self.end))
        if self.day is not None:
            out.append((f"{self.month:02d}-{self.day:02d}", self.start, self.end))
            if self.year is not None:
                out.append((f"{self.year}-{self.month:02d}-{self.day:02d}", self.start, self.end))
        return tuple(out)


def _number(text: str | None) -> int | None:
    if text is None:
        return None
    if text.isdigit():
        return int(text)
    value = parse_chinese(text)
    return int(value) if value is not None and value.isdigit() else None


def dates_in(norm: str) -> list[DateSpan]:
    """The dates of ``norm`` (NFKC text), in order, none overlapping another (the first shape listed wins)."""
    found: list[DateSpan] = []
    for pattern in _PATTERNS:
        for m in pattern.finditer(norm):
            if any(d.start < m.end() and m.start() < d.end for d in found):
                continue
            groups = m.groupdict()
            month_text = groups["m"]
            month = (
                MONTHS.get(month_text.lower().rstrip(".")) if month_text.isalpha() and month_text.isascii() else None
            )
            month = month if month is not None else _number(month_text)
            day, year = _number(groups.get("d")), _number(groups.get("y"))
            if month is None or not 1 <= month <= 12 or (day is not None and not 1 <= day <= 31):
                continue
            if month_text.isascii() and month_text.isalpha() and not month_text[0].isupper():
                continue  # "may", "march": a verb, not a month
            if month_text.lower() == "may" and day is None and year is None:
                continue
            if pattern is _ALONE and _NAME_BEFORE.search(norm, 0, m.start()):
                continue  # "Mary March", "King June": a name
            before = norm[max(0, m.start() - 2) : m.start()]
            counted = month_text in ("两", "兩") or (before[-1:] in "个個数數几幾近约約满滿时時" and before != "")
            if pattern is _PATTERNS[-1] and year is None and day is None and not groups.get("part") and counted:
                continue  # 两月, 近三月, 历时五月: a duration; 六月, 同年7月 are months
            found.append(DateSpan(m.start(), m.end(), year, month, day))
    return sorted(found, key=lambda d: d.start)


@dataclass(frozen=True)
class Decade:
    """A decade or a century a text names: ``decade:1970``, ``century:19`` (the 1800s, the nineteenth century,
    19世纪)."""

    start: int
    end: int
    token: str


def decades_in(norm: str) -> list[Decade]:
    """The decades of ``norm``: "the 1970s", "mid-1950s", 1970年代, 20世纪70年代, 七十年代 (the twentieth
    century's when none is named); "the 1800s" is the nineteenth century."""
    found: list[Decade] = []
    for pattern, kind in _DECADES:
        for m in pattern.finditer(norm):
            if any(d.start < m.end() and m.start() < d.end for d in found):
                continue
            if kind in ("en-century", "zh-century-only", "en-century-word"):
                century = _ORDINALS[m.group("w").lower()] if kind == "en-century-word" else _number(m.group("c"))
                if century is None:
                    continue
                found.append(Decade(m.start(), m.end(), f"century:{century}"))
                continue
            if kind == "zh-century":
                century = _number(m.group("c"))
                tens = _number(m.group("d"))
                if century is None or tens is None:
                    continue
                token = f"decade:{(century - 1) * 100 + tens}"
            elif kind == "zh-bare":
                tens = _number(m.group("d"))
                if tens is None:
                    continue
                token = f"decade:{1900 + tens}"
            elif m.group("d") == "0" and kind == "en":
                token = f"century:{int(m.group('y')) + 1}"  # the 1800s
            else:
                token = f"decade:{m.group('y')}{m.group('d')}0"
            found.append(Decade(m.start(), m.end(), token))
    return found
