"""Find a quoted passage in a text, forgiving what copying changes and nothing else, and say where it is.

Both texts are *folded*: Unicode NFKC (full-width and half-width forms, ligatures, compatibility
characters, decomposed accents and Hangul), case folding, and every whitespace, punctuation and leftover
combining mark removed (Unicode categories ``Z*``, ``C*``, ``P*`` and ``Mn``), superscript and subscript
digits too (footnote marks), and Traditional Chinese written as Simplified (:mod:`.chinese`), so ``"U.S.
capital"`` matches ``"US Capital"``, ``巴黎，法国`` matches ``巴黎,法国``, ``國家圖書館`` matches ``国家图书馆`` and
``İstanbul`` matches ``istanbul``. Each folded character
remembers the span of the original text it came from, so a match is reported as a span of the original.

:func:`locate` tries, in order:

1. the folded quote as an exact substring that starts and ends on word boundaries of the original ("is" is
   not found in "Paris", "the rapist" not in "therapist");
2. when the folded quote has at least :data:`FUZZY_MIN_CHARS` characters (:data:`FUZZY_MIN_CJK_CHARS` with
   CJK text), the best fuzzy alignment (rapidfuzz's ``partial_ratio_alignment``, an InDel similarity in
   [0, 1]) at or above the threshold, widened to whole words, provided the passage writes the quote's numbers,
   the same negations, and every word of the quote, a word of five or more letters allowed one slip of the
   pen (one edit or swap: "captial" for "capital"), a quote of eight or more CJK characters one miscopied
   character that writes no number or negation. A fuzzy match forgives typos and left-out words, never a
   changed word: "Smith" for "Jones", "not" for "now", "west" for "east", 1867 for 1861.

A quote with an ellipsis (``...``, ``…``) is located only exactly: folding drops the ellipsis, so the text
must hold everything around it, contiguous, and nothing was left out; a fuzzy match could bridge what it
left out. A minus sign or decimal point opening a number at the start of a passage belongs to it (``-5``,
``.5``), and so does the scale word after a number at its end (``1.2 billion``).
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from functools import cached_property, lru_cache
from typing import Literal

import numpy as np
from rapidfuzz import fuzz
from rapidfuzz.distance import OSA, Indel

from .chinese import simplified
from .negation import negations
from .numbers import names_in, number_start, numbers_in, scale_end
from .segment import CJK_RANGES, has_cjk
from .terms import is_function_word

__all__ = ["FUZZY_MIN_CHARS", "FUZZY_MIN_CJK_CHARS", "Folded", "Located", "fold", "has_ellipsis", "locate"]

FUZZY_MIN_CHARS = 12
"""Folded quotes shorter than this must match exactly: a fuzzy score on a few characters means nothing."""
FUZZY_MIN_CJK_CHARS = 6
"""The same for quotes with CJK text, where one character carries what a short word does."""
_TYPO_MIN_LETTERS = 5
_HAN_SLIP_MIN = 8
_CN_NUMERALS = frozenset("〇零一二两兩三四五六七八九十百千万萬亿億壹贰叁肆伍陆陸柒捌玖拾佰仟")
_WORD = re.compile(f"[{CJK_RANGES}]|[^\\W_{CJK_RANGES}]+")

_SCRIPT_DIGIT = re.compile(r"[\u00b2\u00b3\u00b9\u2070-\u209f]")
_ELLIPSIS = re.compile(r"\s*(?:\.\s*\.\s*\.|…|⋯)+\s*")
# ASCII bytes dropped by folding: whitespace, control characters and the punctuation of category P.
_ASCII_DROP = np.zeros(128, dtype=bool)
for _code in range(128):
    _ASCII_DROP[_code] = chr(_code).isspace() or unicodedata.category(chr(_code))[0] in "PC"
_ASCII_DROPPED = frozenset(chr(code) for code in range(128) if _ASCII_DROP[code])
_ASCII_DELETE = str.maketrans("", "", "".join(_ASCII_DROPPED))
_NUMPY_MIN_CHARS = 256  # below this, numpy's call overhead costs more than a Python loop


class Folded:
    """A text folded for matching, with the original span of every folded character.

    The spans of ASCII text are worked out when first asked for: a search that finds nothing never needs them.
    """

    def __init__(self, original: str, text: str, starts: np.ndarray | None = None, ends: np.ndarray | None = None):
        self.original = original
        self.text = text
        """The folded text."""
        if starts is not None:
            self.__dict__["starts"] = starts
            self.__dict__["ends"] = starts + 1 if ends is None else ends

    @cached_property
    def starts(self) -> np.ndarray:
        """For each folded character, the index in ``original`` where the character it came from starts."""
        original = self.original  # ASCII: every other text is given its spans when folded
        if len(original) < _NUMPY_MIN_CHARS:
            return np.array([i for i, ch in enumerate(original) if ch not in _ASCII_DROPPED], dtype=np.int64)
        return np.flatnonzero(~_ASCII_DROP[np.frombuffer(original.encode("ascii"), dtype=np.uint8)])

    @cached_property
    def ends(self) -> np.ndarray:
        """... and where it ends (exclusive)."""
        return self.starts + 1

    @classmethod
    def of(cls, original: str) -> Folded:
        """Fold ``original`` (see the module docstring)."""
        if original.isascii():
            return cls(original, original.translate(_ASCII_DELETE).lower())
        original = simplified(original)  # the same length: Traditional Chinese matches Simplified
        chars: list[str] = []
        starts: list[int] = []
        ends: list[int] = []
        i, n = 0, len(original)
        while i < n:
            j = i + 1
            while j < n and _joins(original[j]):  # keep a letter with its accents, a syllable with its jamo
                j += 1
            folded = _fold(original[i]) if j == i + 1 else _fold_cluster(original[i:j])
            for ch in folded:
                chars.append(ch)
                starts.append(i)
                ends.append(j)
            i = j
        return cls(original, "".join(chars), np.asarray(starts, dtype=np.int64), np.asarray(ends, dtype=np.int64))

    def span(self, start: int, end: int) -> tuple[int, int]:
        """The original span of folded characters ``[start, end)`` (``end > start``)."""
        return int(self.starts[start]), int(self.ends[end - 1])


@lru_cache(maxsize=1 << 14)  # a claim is folded once per passage it is looked for in, and again by the checks
def fold(text: str) -> str:
    """``text`` folded (as :class:`Folded` does), without the offsets: for comparing texts, not locating them."""
    if text.isascii():
        return text.translate(_ASCII_DELETE).lower()
    return Folded.of(text).text


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


def locate(quote: str, text: Folded, *, threshold: float) -> Located | None:
    """Where ``quote`` sits in ``text``, or None when it is not there (see the module docstring).

    ``threshold`` is the least fuzzy similarity accepted, in [0, 1]; 1.0 accepts exact matches only.
    """
    needle = fold(quote)
    if not needle:
        return None
    found = _exact(needle, text)
    # Folded, an exact match skips nothing; a fuzzy one could bridge whatever an ellipsis left out.
    if found is None and threshold < 1.0 and not has_ellipsis(quote):
        found = _fuzzy(quote, needle, text, threshold)
    if found is None:
        return None
    # A number's scale word is part of it: a quote must not stop at "$1.2" when the context says "$1.2 billion".
    end = scale_end(text.original, found.end)
    if not _ends_with_punctuation(quote):
        return Located(found.start, end, found.similarity, found.match)
    # A quote that ends a sentence keeps the context's closing punctuation: "France." rather than "France".
    stop = end
    while stop < len(text.original) and stop - end < 3 and _is_punctuation(text.original[stop]):
        stop += 1
    return Located(found.start, stop, found.similarity, found.match)


def has_ellipsis(quote: str) -> bool:
    """True when ``quote`` leaves something out with ``...`` or ``…``: it is then no verbatim passage."""
    return _ELLIPSIS.search(quote) is not None


def _exact(needle: str, text: Folded) -> Located | None:
    """The first occurrence of the folded quote that starts and ends on word boundaries ("is" is not in "Paris")."""
    hay = text.text
    at = hay.find(needle)
    while at != -1:
        begin, stop = text.span(at, at + len(needle))
        if not _inside_word(text.original, begin) and not _inside_word(text.original, stop):
            return Located(_with_sign(text.original, begin), stop, 1.0, "exact")
        at = hay.find(needle, at + 1)
    return None


def _fuzzy(quote: str, needle: str, text: Folded, threshold: float) -> Located | None:
    """The best fuzzy alignment at or above ``threshold``, when it survives the guards of the module docstring."""
    hay = text.text
    if len(needle) < (FUZZY_MIN_CJK_CHARS if has_cjk(needle) else FUZZY_MIN_CHARS):
        return None
    if len(needle) > len(hay):
        similarity, start, end = fuzz.ratio(needle, hay) / 100.0, 0, len(hay)
    else:
        alignment = fuzz.partial_ratio_alignment(needle, hay, score_cutoff=threshold * 100.0)
        if alignment is None:
            return None
        similarity = alignment.score / 100.0
        start, end = _tightened(needle, hay, alignment.dest_start, alignment.dest_end)
    if similarity < threshold or start >= end:
        return None
    begin, stop = text.span(start, end)
    original = text.original
    while begin > 0 and _inside_word(original, begin):
        begin -= 1
    while stop < len(original) and _inside_word(original, stop):
        stop += 1
    begin = _with_sign(original, begin)
    if not _same_meaning(quote, original[begin:stop]):
        return None
    return Located(begin, stop, similarity, "fuzzy")


def _tightened(needle: str, hay: str, start: int, end: int) -> tuple[int, int]:
    """The alignment window (as long as the quote) re-aligned with some margin: a quote that leaves out a
    character is matched by a longer passage, and the window must not cut its last character off."""
    margin = max(2, len(needle) // 8)
    lo, hi = max(0, start - margin), min(len(hay), end + margin)
    blocks = [b for b in Indel.opcodes(needle, hay[lo:hi]) if b.tag == "equal"]
    solid = [b for b in blocks if b.dest_end - b.dest_start >= 2] or blocks
    if not solid:
        return start, end
    return lo + solid[0].dest_start, lo + solid[-1].dest_end


def _same_meaning(quote: str, passage: str) -> bool:
    """The guards on a fuzzy match: the passage writes the quote's numbers, names with digits and negations;
    every word of the quote is in the passage, and every content word of the passage is in the quote, up to a
    slip of the pen (:func:`_slip`). Only function words may be added or left out."""
    if not numbers_in(quote) <= numbers_in(passage) or not names_in(quote) <= names_in(passage):
        return False
    if negations(quote) != negations(passage):
        return False
    quoted, written = _words(quote), _words(passage)
    have, said = set(written), set(quoted)
    wrong = [w for w in quoted if w not in have and not _slip(w, have)]
    extra = [w for w in written if not (w in said or is_function_word(w) or _slip(w, said))]
    if not wrong and not extra:
        return True
    # One Han character miscopied in a long quote (柯马蒂 for 柯玛蒂): a slip, unless it writes a number or a negation.
    return len(wrong) == 1 == len(extra) and _han_slip(wrong[0], quoted) and _han_slip(extra[0], written)


def _han_slip(char: str, words: list[str]) -> bool:
    """True when ``char`` may be a slip of the pen in a run of ``words``: a CJK character that writes no number
    and no negation, in a text of :data:`_HAN_SLIP_MIN` CJK characters or more."""
    if not has_cjk(char) or numbers_in(char) or negations(char) or char in _CN_NUMERALS:
        return False
    return sum(1 for w in words if has_cjk(w)) >= _HAN_SLIP_MIN


def _slip(word: str, others: set[str]) -> bool:
    """True when ``word`` is one of ``others`` but for a slip of the pen: in a word of five or more letters, one
    letter left out or added, or two neighbours swapped, never the first letter. A changed letter is no slip:
    it makes another word ("million" and "billion", "Maria" and "Mario", "affect" and "effect")."""
    if len(word) < _TYPO_MIN_LETTERS or has_cjk(word):
        return False
    for other in others:
        if other[:1] != word[:1] or abs(len(other) - len(word)) > 1 or len(other) < _TYPO_MIN_LETTERS - 1:
            continue
        if len(other) != len(word):
            if Indel.distance(word, other, score_cutoff=1) == 1:
                return True
        elif sorted(other) == sorted(word) and OSA.distance(word, other, score_cutoff=1) == 1:
            return True
    return False


def _words(text: str) -> list[str]:
    return _WORD.findall(unicodedata.normalize("NFKC", text).casefold())


def _with_sign(text: str, begin: int) -> int:
    """``begin`` moved back over a decimal point or minus sign that opens the number starting there."""
    if begin >= len(text) or not text[begin].isdigit():
        return begin
    return number_start(text, begin)


def _inside_word(text: str, cut: int) -> bool:
    """True when a cut before ``text[cut]`` splits a word or a number (never between CJK characters, never at
    either end of the text)."""
    if cut <= 0 or cut >= len(text):
        return False
    left, right = text[cut - 1], text[cut]
    if _word_char(left) and _word_char(right):
        return True
    # 1,900 and 3.5: a separator between digits belongs to the number.
    if left in ".,'" and right.isdigit() and cut >= 2 and text[cut - 2].isdigit():
        return True
    return right in ".,'" and left.isdigit() and cut + 1 < len(text) and text[cut + 1].isdigit()


def _word_char(ch: str) -> bool:
    return ch.isalnum() and not has_cjk(ch) and not _SCRIPT_DIGIT.match(ch)


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
    if _SCRIPT_DIGIT.match(text):
        return ""  # a footnote mark or a power: "1889¹" is 1889
    return "".join(c for c in unicodedata.normalize("NFKC", text).casefold() if not _dropped(c))


def _dropped(ch: str) -> bool:
    # Marks left alone after NFKC and case folding (the dot of "İ") are dropped: "İstanbul" is "istanbul".
    category = unicodedata.category(ch)
    return ch.isspace() or category[0] in "PCZ" or category == "Mn"


def _joins(ch: str) -> bool:
    """True for a character that belongs with the one before it when normalising: a combining mark, a
    half-width voicing mark (ﾃﾞ is デ), a Hangul vowel or final consonant jamo (decomposed Hangul)."""
    return bool(unicodedata.combining(ch)) or ch in "\uff9e\uff9f" or "\u1160" <= ch <= "\u11ff"
