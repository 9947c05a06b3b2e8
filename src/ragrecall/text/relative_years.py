"""Years a text gives relative to another: "the following year", "two years earlier", 次年, 三年后. Read from
the year before them in the text (or in the text before it), so that "In 1934 Holm married Weiss, who had
directed her debut two years earlier" gives 1932, and a claim's "three years after" agrees with 1962 and 1965.
"Two years after" followed by the event it counts from ("closed in 1974, two years after the studio was sold")
gives the year on either side, 1972 and 1976, since which event the year belongs to depends on the sentence.
"""

from __future__ import annotations

import re
from functools import lru_cache

from .number_words import english_numbers, parse_chinese

__all__ = ["count_of", "derived_years", "spans_in_years"]

_RELATIVE = re.compile(
    r"(?P<next>(?:the\s+)?(?:following|next|subsequent)\s+year|a\s+year\s+later|次年|翌年|第二年|转年)"
    r"|(?P<same>(?:that|the\s+same)\s+year|同年|当年|该年)"
    r"|(?P<either>a\s+year\s+after|the\s+(?:following|next)\s+(?:spring|summer|autumn|fall|winter|month))"
    r"|(?P<prev>(?:the\s+)?(?:previous|preceding)\s+year|a\s+year\s+(?:earlier|before)|前一年|上一年)"
    r"|(?P<n>\d+|[a-z]+|[一二两三四五六七八九十]+)[\s-]+(?P<unit>years?|decades?)\s+(?P<dir>later|earlier|before|after|on)"
    r"|\b(?:took|lasted)\s+(?P<espan>\d+|[a-z]+)\s+years\b"
    r"|(?P<zn>\d+|[一二两三四五六七八九十]+)\s*年(?P<zdir>后|前|之后|之前|以后|以前)"
    r"|(?:历时|歷時|历经|歷經)(?P<zspan>\d+|[一二两三四五六七八九十]+)\s*年",
    re.IGNORECASE,
)
_EVENT_AFTER = re.compile(r"\s+(?!and\b|but\b|when\b)[^\W\d_]")
_DURATION = re.compile(
    r"\b(?:for|over|during|spanning|lasting)\s+(?:some\s+|about\s+|nearly\s+)?(?P<n>\d+|[a-z]+(?:-[a-z]+)?)\s+years\b"
    r"|(?:长达|历时|歷時|前后|前後|共)(?P<zn>\d+|[一二两三四五六七八九十]+)\s*年"
    r"|(?<![\d〇零一二两三四五六七八九十])(?P<zspan>\d+|[一二两三四五六七八九十]+)\s*年(?:间|間|来|來|里|裡)",
    re.IGNORECASE,
)
_YEAR = re.compile(r"(?<!\d)(1\d{3}|20\d{2})(?!\d)|([一二][〇零一二三四五六七八九]{3})(?=年)")
_CN_DIGIT = str.maketrans("〇零一二三四五六七八九", "00123456789")


def _years(text: str) -> list[str]:
    """The years of ``text`` in order, in digits or in Chinese numerals (一九五八年)."""
    return [m.group(1) or m.group(2).translate(_CN_DIGIT) for m in _YEAR.finditer(text)]


_LATER = ("later", "after", "on", "后", "之后", "以后")


def count_of(text: str) -> int | None:
    """The count ``text`` writes: digits, English number words ("thirty-five") or Chinese numerals (三十五)."""
    if text.isdigit():
        return int(text)
    words = english_numbers(text)
    if words and words[0].value.isdigit():
        return int(words[0].value)
    value = parse_chinese(text) if all(c in "一二两三四五六七八九十" for c in text) else None
    return int(value) if value is not None and value.isdigit() else None


@lru_cache(maxsize=4096)
def derived_years(text: str, before: str = "") -> frozenset[str]:
    """The years ``text`` gives relative to a year written before them (in ``text``, or last in ``before``)."""
    out: set[str] = set()
    for m in _RELATIVE.finditer(text):
        years = _years(text[: m.start()]) or _years(before)
        if not years:
            continue
        base = int(years[-1])
        if m.group("next"):
            out.add(str(base + 1))
        elif m.group("same"):  # "that year": any year the text before it is about
            out.update(_years(text[: m.start()]) or _years(before))
        elif m.group(
            "either"
        ):  # "died in 1911, a year after finishing …"; "the following spring": this year or the next
            out.update(
                {str(base - 1), str(base + 1)} if m.group().lower().startswith("a ") else {str(base), str(base + 1)}
            )
        elif m.group("prev"):
            out.add(str(base - 1))
        else:
            written = m.group("n") or m.group("zn") or m.group("zspan") or m.group("espan")
            n = 1 if written.lower() in ("a", "an") else count_of(written)
            if n is not None and (m.group("unit") or "").lower().startswith("decade"):
                n *= 10  # "a decade later"
            if n is None or n > 200:
                continue
            spans = m.group("zspan") is not None or m.group("espan") is not None  # 历时三年, "took three years"
            later = spans or (m.group("dir") or m.group("zdir")).lower() in _LATER
            out.add(str(base + n if later else base - n))
            if (m.group("dir") or "").lower() in ("after", "before") and _EVENT_AFTER.match(text, m.end()):
                # "closed in 1974, two years after the studio was sold": the event it names is the earlier one
                out.add(str(base - n if later else base + n))
    return frozenset(out)


def spans_in_years(text: str) -> frozenset[str]:
    """The numbers of ``text`` that count years between two events ("three years after", 三年后) or how long
    something lasted ("for 35 years", 长达三十五年), which a pair of years of the evidence can bear out."""
    relative = (m.group("n") or m.group("zn") for m in _RELATIVE.finditer(text))
    lasting = (m.group("n") or m.group("zn") or m.group("zspan") for m in _DURATION.finditer(text))
    return frozenset(str(n) for count in (*relative, *lasting) if count and (n := count_of(count)) is not None)
