"""Find a quoted passage in a text, forgiving what copying changes and nothing else, and say where it is.

Both texts are *folded*: Unicode NFKC (full-width forms, ligatures, compatibility characters), case folding,
and every whitespace and punctuation character removed (Unicode categories ``Z*``, ``Cc`` and ``P*``), so
``"U.S. capital"`` matches ``"US Capital"`` and ``巴黎，法国`` matches ``巴黎,法国``. Each folded character
remembers the span of the original text it came from, so a match is reported as a span of the original.

:func:`locate` tries, in order: the folded quote as an exact substring; then, when the folded quote has at
least :data:`FUZZY_MIN_CHARS` characters, the best fuzzy alignment (rapidfuzz's ``partial_ratio_alignment``,
an InDel similarity in [0, 1]) at or above the threshold, provided it writes the same numbers and the same
negations as the quote (a one-letter edit must not turn "not" into "now" or 1867 into 1861). A quote with
an ellipsis (``...``, ``…``) is located part by part, in order, within one text.
"""

from __future__ import annotations

import re
import unicodedata
from collections import Counter
from dataclasses import dataclass
from functools import lru_cache
from typing import Literal

import numpy as np
from rapidfuzz import fuzz

from .numbers import numbers_in
from .segment import has_cjk

__all__ = ["FUZZY_MIN_CHARS", "Folded", "Located", "locate"]

FUZZY_MIN_CHARS = 12
"""Folded quotes shorter than this must match exactly: a fuzzy score on a few characters means nothing."""

_ELLIPSIS = re.compile(r"\s*(?:\.\s*\.\s*\.|…|⋯)+\s*")
_NEGATION = re.compile(
    r"\b(?:not|no|never|none|nor|neither|cannot|without|nothing|nobody)\b|n't\b|[不没沒无無非未别莫勿]"
)
# ASCII bytes dropped by folding: whitespace, control characters and the punctuation of category P.
_ASCII_DROP = np.zeros(128, dtype=bool)
for _code in range(128):
    _ASCII_DROP[_code] = chr(_code).isspace() or unicodedata.category(chr(_code))[0] in "PC"


@dataclass(frozen=True, eq=False)
class Folded:
    """A text folded for matching, with the original span of every folded character."""

    original: str
    text: str
    """The folded text."""
    starts: np.ndarray
    """For each folded character, the index in ``original`` where the character it came from starts."""
    ends: np.ndarray
    """... and where it ends (exclusive)."""

    @classmethod
    def of(cls, original: str) -> Folded:
        """Fold ``original`` (see the module docstring)."""
        if original.isascii():
            return cls._of_ascii(original)
        chars: list[str] = []
        starts: list[int] = []
        ends: list[int] = []
        i, n = 0, len(original)
        while i < n:
            j = i + 1
            while j < n and unicodedata.combining(original[j]):  # keep a letter with its accents
                j += 1
            folded = _fold(original[i]) if j == i + 1 else _fold_cluster(original[i:j])
            for ch in folded:
                chars.append(ch)
                starts.append(i)
                ends.append(j)
            i = j
        return cls(original, "".join(chars), np.asarray(starts, dtype=np.int64), np.asarray(ends, dtype=np.int64))

    @classmethod
    def _of_ascii(cls, original: str) -> Folded:
        codes = np.frombuffer(original.encode("ascii"), dtype=np.uint8)
        kept = np.flatnonzero(~_ASCII_DROP[codes])
        text = codes[kept].tobytes().decode("ascii").lower()
        return cls(original, text, kept, kept + 1)

    def span(self, start: int, end: int) -> tuple[int, int]:
        """The original span of folded characters ``[start, end)`` (``end > start``)."""
        return int(self.starts[start]), int(self.ends[end - 1])


@dataclass(frozen=True)
class Located:
    """Where a quote sits in a text."""

    start: int
    """Start of the passage in the original text, widened to whole words."""
    end: int
    """End (exclusive), widened to whole words."""
    similarity: float
    """1.0 for an exact match after folding, else the fuzzy similarity in [0, 1]."""
    match: Literal["exact", "fuzzy"]


def locate(quote: str | Folded, text: Folded, *, threshold: float) -> Located | None:
    """Where ``quote`` sits in ``text``, or None when it is not there (see the module docstring).

    ``threshold`` is the least fuzzy similarity accepted, in [0, 1]; 1.0 accepts exact matches only.
    """
    raw = quote.original if isinstance(quote, Folded) else quote
    parts = [p for p in _ELLIPSIS.split(raw) if p.strip()]
    if len(parts) > 1:
        found = _locate_parts(parts, text, threshold)
    else:
        folded = quote if isinstance(quote, Folded) else Folded.of(quote)
        match = _locate_one(folded, text, threshold, 0)
        found = match[0] if match else None
    if found is None or not _ends_with_punctuation(raw):
        return found
    # A quote that ends a sentence keeps the context's closing punctuation: "France." rather than "France".
    end = found.end
    while end < len(text.original) and end - found.end < 3 and _is_punctuation(text.original[end]):
        end += 1
    return Located(found.start, end, found.similarity, found.match)


def _locate_parts(parts: list[str], text: Folded, threshold: float) -> Located | None:
    cursor = 0
    found: list[Located] = []
    for part in parts:
        match = _locate_one(Folded.of(part), text, threshold, cursor)
        if match is None:
            return None
        found.append(match[0])
        cursor = match[1]
    exact = all(f.match == "exact" for f in found)
    similarity = min(f.similarity for f in found)
    return Located(found[0].start, found[-1].end, similarity, "exact" if exact else "fuzzy")


def _locate_one(quote: Folded, text: Folded, threshold: float, offset: int) -> tuple[Located, int] | None:
    """The match of ``quote`` in ``text.text[offset:]`` and the folded index where it ends."""
    needle, hay = quote.text, text.text
    if not needle:
        return None
    at = hay.find(needle, offset)
    if at != -1:
        return _widened(text, at, at + len(needle), 1.0, "exact"), at + len(needle)
    if len(needle) < FUZZY_MIN_CHARS or threshold >= 1.0:
        return None
    window = hay[offset:]
    if len(needle) > len(window):
        similarity = fuzz.ratio(needle, window) / 100.0
        start, end = offset, len(hay)
    else:
        alignment = fuzz.partial_ratio_alignment(needle, window, score_cutoff=threshold * 100.0)
        if alignment is None:
            return None
        similarity = alignment.score / 100.0
        start, end = offset + alignment.dest_start, offset + alignment.dest_end
    if similarity < threshold or start >= end:
        return None
    located = _widened(text, start, end, similarity, "fuzzy")
    passage = text.original[located.start : located.end]
    if not numbers_in(quote.original) <= numbers_in(passage) or _negations(quote.original) != _negations(passage):
        return None
    return located, end


def _widened(text: Folded, start: int, end: int, similarity: float, match: Literal["exact", "fuzzy"]) -> Located:
    """The original span of folded ``[start, end)``, widened so that it neither starts nor ends inside a word."""
    original = text.original
    begin, stop = text.span(start, end)
    while begin > 0 and _inside_word(original, begin):
        begin -= 1
    while stop < len(original) and _inside_word(original, stop):
        stop += 1
    return Located(begin, stop, similarity, match)


def _inside_word(text: str, cut: int) -> bool:
    """True when a cut before ``text[cut]`` splits a word or a number (never between CJK characters)."""
    left, right = text[cut - 1], text[cut]
    if _word_char(left) and _word_char(right):
        return True
    # 1,900 and 3.5: a separator between digits belongs to the number.
    if left in ".,'" and right.isdigit() and cut >= 2 and text[cut - 2].isdigit():
        return True
    return right in ".,'" and left.isdigit() and cut + 1 < len(text) and text[cut + 1].isdigit()


def _word_char(ch: str) -> bool:
    return ch.isalnum() and not has_cjk(ch)


def _ends_with_punctuation(text: str) -> bool:
    stripped = text.rstrip()
    return bool(stripped) and _is_punctuation(stripped[-1])


def _is_punctuation(ch: str) -> bool:
    return unicodedata.category(ch)[0] == "P"


@lru_cache(maxsize=1 << 14)
def _fold(ch: str) -> str:
    """One character folded: NFKC, case folded, without whitespace and punctuation (often empty)."""
    return _fold_cluster(ch)


def _fold_cluster(text: str) -> str:
    return "".join(c for c in unicodedata.normalize("NFKC", text).casefold() if not _dropped(c))


def _dropped(ch: str) -> bool:
    return ch.isspace() or unicodedata.category(ch)[0] in "PCZ"


def _negations(text: str) -> Counter[str]:
    return Counter(_NEGATION.findall(unicodedata.normalize("NFKC", text).casefold()))
