"""Sentence segmentation for English-like and CJK text, without a model.

Rules, in order:

1. A blank line ends a paragraph; a line that starts with a list marker (``-``, ``*``, ``•``, ``+``, ``–``,
   ``▪``, ``→``, ``1.``, ``1)``, ``(a)``, ``a.``, ``iv.``) starts a new segment and the marker is dropped; any
   other line break is a space (hard-wrapped text stays whole).
2. CJK full stops ``。！？`` (and ``！？`` in half width after CJK text) end a sentence wherever they stand,
   together with any closing quotes or brackets that follow them; no space is needed after them.
3. ``.``, ``!``, ``?``, ``…`` end a sentence only when followed by whitespace and then something that can
   open a sentence (not a lower-case letter), and, for ``.``, when the word before it is not a known
   abbreviation (``e.g.``, ``Dr.``, ``U.S.``) or a single-letter initial. So ``3.14``, ``v1.2``, ``a.m. today``
   and ``Dr. Smith`` stay whole.
"""

from __future__ import annotations

import itertools
import re
from functools import lru_cache

__all__ = ["CJK_RANGES", "has_cjk", "last_sentence", "sentence_spans", "split_sentences"]

CJK_RANGES = (
    "\u3040-\u30ff"  # Hiragana, Katakana
    "\u3400-\u4dbf"  # CJK Extension A
    "\u4e00-\u9fff"  # CJK Unified Ideographs
    "\uac00-\ud7af"  # Hangul syllables
    "\uf900-\ufaff"  # CJK Compatibility Ideographs
)
"""The Chinese, Japanese and Korean characters, as the body of a regular-expression character class."""
_CJK_CHAR = re.compile(f"[{CJK_RANGES}]")
_CLOSERS = "\"'”’」』）》】〉)]}"
_CJK_END = re.compile(f"[。！？｡]+[{re.escape(_CLOSERS)}]*|(?<=[{CJK_RANGES}])[!?]+[{re.escape(_CLOSERS)}]*")
_NOT_SPACE = re.compile(r"\S")
# Opening with a character class, the pattern is scanned for it at C speed ("..." is three of them).
_LATIN_END = re.compile(f"[.!?…]+[{re.escape(_CLOSERS)}]*(?=\\s)")
_LIST_MARKER = re.compile(
    r"^\s*(?:[-*•·+–—▪▫■□►▸‣◦→⁃]|\d{1,3}[.)、]|\(?[a-zA-Z]\)|[a-z][.]|(?:i|ii|iii|iv|v|vi|vii|viii|ix|x)[.)])\s+"
)
_ABBREVIATIONS = frozenset(
    [
        "mr",
        "mrs",
        "ms",
        "dr",
        "prof",
        "sr",
        "jr",
        "st",
        "vs",
        "etc",
        "e.g",
        "i.e",
        "cf",
        "al",
        "fig",
        "figs",
        "no",
        "nos",
        "vol",
        "eq",
        "approx",
        "dept",
        "est",
        "inc",
        "ltd",
        "co",
        "corp",
        "jan",
        "feb",
        "mar",
        "apr",
        "jun",
        "jul",
        "aug",
        "sep",
        "sept",
        "oct",
        "nov",
        "dec",
        "mt",
        "ft",
        "u.s",
        "u.k",
        "u.n",
        "a.m",
        "p.m",
        "ph.d",
    ]
)


def has_cjk(text: str) -> bool:
    """True when ``text`` contains at least one Chinese, Japanese or Korean character."""
    return _CJK_CHAR.search(text) is not None


def split_sentences(text: str) -> list[str]:
    """Split ``text`` into sentences, stripped, in order, without empty strings (see the module rules)."""
    out: list[str] = []
    for block in _blocks(text):
        for piece in _split_cjk(block):
            out.extend(_split_latin(piece))
    return [s for s in (s.strip() for s in out) if s]


@lru_cache(maxsize=4096)  # a passage is read by every claim's checks
def sentence_spans(text: str) -> tuple[tuple[int, int], ...]:
    """Where each sentence of ``text`` is, as ``(start, end)`` spans of ``text`` itself, by the same rules as
    :func:`split_sentences` (a list marker is left out of its sentence; line breaks inside a paragraph do
    not end one), each span stripped of surrounding whitespace."""
    spans: list[tuple[int, int]] = []
    for b_start, b_end in _block_spans(text):
        block = text[b_start:b_end]
        cuts = {0, len(block)}
        if not block.isascii():  # CJK marks, and the CJK text that half-width ones must follow, are not ASCII
            cuts.update(m.end() for m in _CJK_END.finditer(block))
        for match in _LATIN_END.finditer(block):
            end = match.end()
            if _opens_no_sentence(block, end):
                continue
            if block[match.start()] == ".":
                last = max(c for c in cuts if c <= match.start())
                if _is_abbreviation(block[last : match.start()]):
                    continue
            cuts.add(end)
        ordered = sorted(cuts)
        for start, end in itertools.pairwise(ordered):
            piece = block[start:end]
            stripped = piece.strip()
            if stripped:
                lead = len(piece) - len(piece.lstrip())
                spans.append((b_start + start + lead, b_start + start + lead + len(stripped)))
    return tuple(spans)


def _block_spans(text: str) -> list[tuple[int, int]]:
    """The paragraphs and list items of ``text`` as spans (a list marker left out)."""
    blocks: list[tuple[int, int]] = []
    start: int | None = None
    end = 0
    at = 0
    for line in text.splitlines(keepends=True):
        marker = _LIST_MARKER.match(line)
        if not line.strip() or marker:
            if start is not None:
                blocks.append((start, end))
                start = None
            if marker and line[marker.end() :].strip():
                start, end = at + marker.end(), at + len(line.rstrip())
        else:
            if start is None:
                start = at + len(line) - len(line.lstrip())
            end = at + len(line.rstrip())
        at += len(line)
    if start is not None:
        blocks.append((start, end))
    return blocks


def _blocks(text: str) -> list[str]:
    blocks: list[str] = []
    current: list[str] = []
    for line in text.splitlines():
        marker = _LIST_MARKER.match(line)
        if not line.strip() or marker:
            if current:
                blocks.append(" ".join(current))
                current = []
            if marker:
                current.append(line[marker.end() :].strip())  # the marker is layout, not part of the sentence
            continue
        current.append(line.strip())
    if current:
        blocks.append(" ".join(current))
    return blocks


def _split_cjk(text: str) -> list[str]:
    if text.isascii():
        return [text]
    pieces: list[str] = []
    start = 0
    for match in _CJK_END.finditer(text):
        pieces.append(text[start : match.end()])
        start = match.end()
    pieces.append(text[start:])
    return pieces


def _split_latin(text: str) -> list[str]:
    pieces: list[str] = []
    start = 0
    for match in _LATIN_END.finditer(text):
        end = match.end()
        if _opens_no_sentence(text, end):
            continue
        if text[match.start()] == "." and _is_abbreviation(text[start : match.start()]):
            continue
        pieces.append(text[start:end])
        start = end
    pieces.append(text[start:])
    return pieces


def _opens_no_sentence(text: str, end: int) -> bool:
    """True when nothing but whitespace follows ``end``, or the first character after it is a lower-case letter."""
    after = _NOT_SPACE.search(text, end)
    return after is None or after.group().islower()


def _is_abbreviation(before: str) -> bool:
    words = before.rsplit(maxsplit=1)
    if not words:
        return False
    word = words[-1].lstrip("(\"'“‘").lower()
    if len(word) == 1 and word.isalpha():
        return True  # an initial, as in "J. Smith"
    return word in _ABBREVIATIONS


def last_sentence(text: str) -> str:
    """The last sentence of ``text``, cut after the full stop before its own (". ", 。, "! ", "? "): cheap, and
    enough to read how the sentence opens (abbreviations inside it may cut it short)."""
    body = text.rstrip().rstrip(".。!?！？")
    cut = max(body.rfind(mark) for mark in (". ", "。", "! ", "? ", "！", "？"))
    return text[cut + 1 :].strip() if cut >= 0 else text.strip()
