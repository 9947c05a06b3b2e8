"""Numbers written with digits, in one canonical form, so that ``1,900``, ``１９００`` and ``1900`` compare equal.

Rules (after Unicode NFKC, which turns full-width digits into ASCII):

- a number is a run of digits, possibly with ``.``, ``,`` or ``'`` between digit groups, or with a no-break,
  narrow no-break or thin space before groups of exactly three digits (``2 000``); a plain space separates
  numbers (``Table 3 100 patients`` holds 3 and 100);
- a minus sign (``-``, ``−``) right before the digits is kept when it does not join two words or numbers
  (``-5`` and ``(−5)`` are negative; ``2020-05``, ``5-10`` and ``COVID-19`` are not); a leading point is a
  decimal point (``.5`` is 0.5);
- spaces and apostrophes are thousands separators;
- with both ``.`` and ``,``, the last one is the decimal mark and the other separates thousands
  (``1,234.5`` and ``1.234,5`` are both ``1234.5``);
- a lone ``,`` is a thousands separator when exactly three digits follow it (``1,500``), a decimal comma
  otherwise (``1,5``); several commas separate thousands;
- a lone ``.`` is a decimal point (``1.500`` is 1.5); several dots separate thousands when every group after
  the first has three digits (``1.000.000``), else the text is kept as it is (a version, ``1.2.3``);
- leading zeros of the integer part and trailing zeros of the fraction are dropped (``007`` → ``7``,
  ``3.50`` → ``3.5``, ``2.0`` → ``2``).

Digits right after a Latin, Greek or Cyrillic letter belong to a name, not a quantity (``AX3000``, ``B12``,
``v3.12``) and are not numbers here; digits followed by letters are (``200mg``, ``2nd``, ``1990s``). Numbers
spelled in words (``three``, ``三``) are not numbers here either.
"""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache

__all__ = ["canonical_number", "numbers_in", "opens_number"]

_ANY_DIGIT = re.compile(r"\d")
_GROUP_SPACE = re.compile(r"(?<=\d)[\u00a0\u202f\u2009](?=\d{3}(?!\d))")
_NUMBER = re.compile(r"\d{1,3}(?:'\d{3})+(?:[.,]\d+)?(?!\d)|\d+(?:[.,']\d+)*")
_LETTER = re.compile(r"[A-Za-z\u00c0-\u024f\u0370-\u03ff\u0400-\u04ff]")
_MINUS = "-\u2212"
_OPENERS = "([{<=:~≈"


@lru_cache(maxsize=4096)  # a claim is read by the coverage check and again by the quote check
def numbers_in(text: str) -> frozenset[str]:
    """The canonical forms of the numbers written with digits in ``text``."""
    if not _ANY_DIGIT.search(text):
        return frozenset()
    norm = text if text.isascii() else unicodedata.normalize("NFKC", _GROUP_SPACE.sub("'", text))
    found: set[str] = set()
    for m in _NUMBER.finditer(norm):
        start = m.start()
        before = norm[start - 1] if start else ""
        if before and _LETTER.match(before):
            continue  # a name: AX3000
        point = before == "." and opens_number(norm, start - 1)
        tail = before in ".,'" and not point and start >= 2
        if tail and (norm[start - 2].isdigit() or _LETTER.match(norm[start - 2])):
            continue  # the tail of a name or of a number already read: v3.12
        sign_at = start - 1 - point
        negative = sign_at >= 0 and norm[sign_at] in _MINUS and opens_number(norm, sign_at)
        value = canonical_number(("0." if point else "") + m.group())
        found.add(f"-{value}" if negative and value != "0" else value)
    return frozenset(found)


def canonical_number(token: str) -> str:
    """One unsigned number token (digits and separators) in canonical form."""
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
    whole, _, fraction = digits.partition(".")
    whole = whole.lstrip("0") or "0"
    fraction = fraction.rstrip("0")
    return f"{whole}.{fraction}" if fraction else whole


def opens_number(text: str, at: int) -> bool:
    """True when a minus sign or point at ``at`` (before digits) opens a number rather than joining two words
    or numbers: nothing, a space or an opening bracket or symbol stands before it."""
    return at == 0 or text[at - 1].isspace() or text[at - 1] in _OPENERS
