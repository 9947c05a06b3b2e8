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
``1990s``). Numbers spelled in words (``three``, ``三``), ranges written short (``1939–45``) and dates in
words are not read as the same numbers as their digit forms.
"""

from __future__ import annotations

import re
import unicodedata
from decimal import Decimal
from functools import lru_cache

from .segment import has_cjk

__all__ = ["canonical_number", "names_in", "number_start", "numbers_in", "opens_number", "scale_end"]

_ANY_DIGIT = re.compile(r"\d")
_SCRIPT_DIGITS = re.compile(r"[\u00b2\u00b3\u00b9\u2070-\u209f]")
_GROUP_SPACE = re.compile(r"(?<=\d)[\u00a0\u202f\u2009](?=\d{3}(?!\d))")
_NUMBER = re.compile(r"\d{1,3}(?:'\d{3})+(?:[.,]\d+)?(?!\d)|\d+(?:[.,']\d+)*")
_SCALE = re.compile(r"\s?(thousand|million|billion|trillion|bn|mn|万|亿)s?(?![^\W\d_])", re.IGNORECASE)
_SCALES = {"thousand": 3, "million": 6, "mn": 6, "billion": 9, "bn": 9, "trillion": 12, "万": 4, "亿": 8}
_NAME = re.compile(r"(?<![^\W_])[^\W\d_]+(?:[-_]?\d[\w.]*)+", re.UNICODE)
_MINUS = "-\u2212\u2013"
_OPENERS = "([{<=:~≈$€£¥"
_BETWEEN_DIGITS = "x×"


@lru_cache(maxsize=4096)  # a claim is read by the coverage check and again by the quote check
def numbers_in(text: str) -> frozenset[str]:
    """The canonical forms of the numbers written with digits in ``text``."""
    if not _ANY_DIGIT.search(text):
        return frozenset()
    norm = _normalised(text)
    found: set[str] = set()
    for m in _NUMBER.finditer(norm):
        start = m.start()
        before = norm[start - 1] if start else ""
        if _is_letter(before) and not (before in _BETWEEN_DIGITS and start >= 2 and norm[start - 2].isdigit()):
            continue  # a name: AX3000
        opening = norm[number_start(norm, start) : start]  # "", ".", "-" or "-."
        point = "." in opening
        tail = before in ".,'" and not point and start >= 2
        if tail and (norm[start - 2].isdigit() or _is_letter(norm[start - 2])):
            continue  # the tail of a name or of a number already read: v3.12
        negative = bool(opening) and opening[0] in _MINUS
        scale = _SCALE.match(norm, m.end())
        value = canonical_number(("0." if point else "") + m.group(), _SCALES[scale.group(1).lower()] if scale else 0)
        found.add(f"-{value}" if negative and value != "0" else value)
    return frozenset(found)


@lru_cache(maxsize=4096)
def names_in(text: str) -> frozenset[str]:
    """Names written with letters then digits (``AX3000``, ``B12``, ``GPT-4o``, ``USD1.5bn``), case-folded."""
    if not _ANY_DIGIT.search(text):
        return frozenset()
    return frozenset(m.group().casefold().rstrip(".") for m in _NAME.finditer(_normalised(text)))


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
    return at == 0 or text[at - 1].isspace() or text[at - 1] in _OPENERS


def _normalised(text: str) -> str:
    if text.isascii():
        return text
    return unicodedata.normalize("NFKC", _GROUP_SPACE.sub("'", _SCRIPT_DIGITS.sub(" ", text)))


def _is_letter(ch: str) -> bool:
    """An alphabetic letter that can start a name (not a CJK character, which may stand before a number)."""
    return ch.isalpha() and not has_cjk(ch)
