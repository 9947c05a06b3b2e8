"""The words the checks compare: content words, strict terms with numbers left out, and the scripts of a text."""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache

from ...text.numbers import quantities
from ...text.segment import CJK_RANGES
from ...text.terms import base_form, content_terms

__all__ = ["base_forms", "script_of", "strict_terms", "words"]


@lru_cache(maxsize=4096)
def words(text: str) -> frozenset[str]:
    """The content words of ``text`` (stemmed; CJK as single characters), numbers and their scale words left
    out."""
    return frozenset(t for t in content_terms(_wordy(text), stem=True, cjk="chars") if not t[0].isdigit())


@lru_cache(maxsize=4096)
def strict_terms(text: str) -> frozenset[str]:
    """The content terms of ``text`` (stemmed; CJK as bigrams), numbers and their scale words left out
    (三千五百册 and 3500册 both hold 册; 1.2亿元 and 12000万元 both hold 元)."""
    return frozenset(t for t in content_terms(_wordy(text), stem=True, cjk="bigrams") if not t[0].isdigit())


def base_forms(text: str) -> str:
    """``text`` with its irregular verb forms, in lower case, in their base form ("won" → "win", "beaten" →
    "beat")."""
    return _LATIN_WORD.sub(lambda m: base_form(m.group().lower()) if m.group().islower() else m.group(), text)


_LATIN_WORD = re.compile(r"[A-Za-z]+")


def _wordy(text: str) -> str:
    """``text`` (NFKC) with each number, in digits or words, with its scale word, made a space."""
    found = quantities(text)
    if not found:
        return text
    norm = unicodedata.normalize("NFKC", text) if not text.isascii() else text
    parts, at = [], 0
    for q in found:
        parts += [norm[at : q.start], " "]
        at = max(at, q.end)
    parts.append(norm[at:])
    return "".join(parts)


@lru_cache(maxsize=4096)
def script_of(text: str) -> frozenset[str]:
    """The scripts ``text``'s letters are written in: ``"cjk"``, ``"latin"`` or ``"other"``."""
    scripts = {name for name, pattern in _SCRIPTS if pattern.search(text)}
    return frozenset(scripts)


_SCRIPTS = (
    ("cjk", re.compile(f"[{CJK_RANGES}]")),
    ("latin", re.compile("[A-Za-z\u00c0-\u00d6\u00d8-\u00f6\u00f8-\u024f\u1e00-\u1eff]")),
    ("other", re.compile(f"[^\\W\\d_A-Za-z\u00c0-\u00d6\u00d8-\u00f6\u00f8-\u024f\u1e00-\u1eff{CJK_RANGES}]")),
)
