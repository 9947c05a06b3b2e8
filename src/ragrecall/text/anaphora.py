"""Openings that refer back: pronouns, demonstratives, "the same year" and Chinese generic head nouns (公司,
全省), kept as data (``data/anaphora.txt``). The checks read a sentence that opens with one as going on about
what the sentence before it, or another passage, named."""

from __future__ import annotations

import re
from functools import lru_cache

from .cues import plain
from .datafile import sections

__all__ = ["SECTIONS", "opening", "opens_with", "words_of"]


_SECTIONS = {name: tuple(entries) for name, entries in sections("anaphora.txt").items()}
SECTIONS = tuple(_SECTIONS)
"""The sections of the data, in order."""


def words_of(*sections: str) -> tuple[str, ...]:
    """The entries of ``sections``, in the data's order (raises KeyError for a section the data lacks)."""
    return tuple(entry for section in sections for entry in _SECTIONS[section])


@lru_cache(maxsize=64)
def _pattern(sections: tuple[str, ...]) -> re.Pattern[str]:
    entries = sorted(words_of(*sections), key=len, reverse=True)
    latin = [r"\s+".join(map(re.escape, e.split())) for e in entries if e.isascii()]
    other = [re.escape(e) for e in entries if not e.isascii()]
    parts = [rf"(?:{'|'.join(latin)})\b"] if latin else []
    parts += [f"(?:{'|'.join(other)})"] if other else []
    return re.compile(r"^\W*(?:" + "|".join(parts) + ")", re.IGNORECASE)


def opening(sentence: str, *sections: str) -> re.Match[str] | None:
    """The match of a word of ``sections`` opening ``sentence`` (after any marks; Traditional Chinese read as
    Simplified), or None; a word that begins with an entry but refers to nothing (其他, 其中) opens nothing."""
    text = plain(sentence)
    if _pattern(("not an opening",)).match(text):
        return None
    return _pattern(sections).match(text)


def opens_with(sentence: str, *sections: str) -> bool:
    """Whether ``sentence`` opens (after any marks) with a word of ``sections``: "It was …", "These …", 该公司…"""
    return opening(sentence, *sections) is not None
