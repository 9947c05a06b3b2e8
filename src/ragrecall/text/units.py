"""Units written with numbers, read through a table of equivalent spellings (``data/units.txt``), so that
``42 km``, ``42 kilometres`` and ``42公里`` agree and ``42 miles`` does not.

A unit is read right after a number (after at most one space: ``42 km``, ``42km``, ``42公里``, ``3万名``) or,
for symbols and currency codes, right before it (``$5``, ``USD 5``, ``百分之三十``). The longest spelling wins
(``平方公里`` before ``公里``); a spelling in Latin letters must end at a word boundary (``5 m`` is metres, ``5
miles`` is not ``5 m``).
"""

from __future__ import annotations

import re
from functools import lru_cache
from importlib import resources

__all__ = ["UNIT_SPELLINGS", "units_after", "units_before"]


def _load() -> dict[str, frozenset[str]]:
    table: dict[str, set[str]] = {}
    text = resources.files(__package__).joinpath("data/units.txt").read_text(encoding="utf-8")
    for line in text.splitlines():
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        name, _, spellings = line.partition("=")
        for spelling in spellings.split(","):
            table.setdefault(spelling.strip().casefold(), set()).add(name.strip())
    return {spelling: frozenset(names) for spelling, names in table.items()}


UNIT_SPELLINGS: dict[str, frozenset[str]] = _load()
"""Each spelling (case-folded) → the canonical units it may mean (several for an ambiguous one, such as ¥)."""

_ORDERED = sorted(UNIT_SPELLINGS, key=len, reverse=True)
_AFTER = re.compile(r"[ \u00a0]?(" + "|".join(re.escape(s) for s in _ORDERED) + ")", re.IGNORECASE)
_APPROXIMATE = frozenset("多余来")
"""What stands between a Chinese number and its unit when the number is approximate: 二十多公里, 百余米, 十来岁."""
_PREFIXES = ["us$", "$", "usd", "€", "eur", "£", "gbp", "¥", "rmb", "cny", "jpy", "百分之"]
_BEFORE = re.compile("(" + "|".join(re.escape(s) for s in _PREFIXES) + r")[ \u00a0]?$", re.IGNORECASE)


@lru_cache(maxsize=1 << 14)
def units_after(text: str, end: int) -> frozenset[str]:
    """The canonical units written right after a number ending at ``end`` in ``text`` (empty when none)."""
    m = _AFTER.match(text, end + 1 if text[end : end + 1] in _APPROXIMATE else end)
    if m is None:
        return frozenset()
    spelling = m.group(1)
    if spelling.isascii() and spelling[-1].isalpha() and m.end() < len(text) and text[m.end()].isalpha():
        return frozenset()
    return UNIT_SPELLINGS[spelling.casefold()]


def units_before(text: str, start: int) -> frozenset[str]:
    """The canonical units written right before a number starting at ``start`` (currency signs and codes,
    百分之)."""
    m = _BEFORE.search(text[max(0, start - 5) : start])
    if m is None:
        return frozenset()
    spelling = m.group(1)
    if spelling.isascii() and spelling.isalpha():
        head = start - len(m.group())
        if head > 0 and text[head - 1].isalpha():
            return frozenset()  # the end of a word, not a code
    return UNIT_SPELLINGS[spelling.casefold()]
