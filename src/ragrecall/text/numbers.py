"""Numbers written with digits, in one canonical form, so that ``1,900``, ``１９００`` and ``1900`` compare equal.

Rules (applied after Unicode NFKC, which turns full-width digits into ASCII and no-break or thin spaces into
plain spaces):

- a number is a run of digits, possibly with ``.``, ``,`` or ``'`` between digit groups, or with single spaces
  before groups of exactly three digits (``2 000``);
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
``v2``) and are not numbers here; digits followed by letters are (``200mg``, ``2nd``, ``1990s``). Numbers
spelled in words (``three``, ``三``) are not numbers here either.
"""

from __future__ import annotations

import re
import unicodedata

__all__ = ["canonical_number", "numbers_in"]

# Not right after a digit or an alphabetic (Latin, Greek, Cyrillic) letter; CJK characters may precede.
_NOT_IN_A_NAME = r"(?<![0-9A-Za-z\u00c0-\u024f\u0370-\u03ff\u0400-\u04ff])"
_NUMBER = re.compile(_NOT_IN_A_NAME + r"(?:\d{1,3}(?:[ ']\d{3})+(?:[.,]\d+)?(?!\d)|\d+(?:[.,']\d+)*)")


def numbers_in(text: str) -> frozenset[str]:
    """The canonical forms of the numbers written with digits in ``text``."""
    return frozenset(canonical_number(m.group()) for m in _NUMBER.finditer(unicodedata.normalize("NFKC", text)))


def canonical_number(token: str) -> str:
    """One number token (as matched in :func:`numbers_in`) in canonical form."""
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
