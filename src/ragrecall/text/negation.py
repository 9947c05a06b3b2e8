"""Negation markers, English and Chinese: the words whose presence turns a statement into its opposite."""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache

__all__ = ["negations"]

_NEGATION = re.compile(
    r"\b(?:not|no|never|none|nor|neither|cannot|without|nothing|nobody|non)\b|n't\b|[不没沒无無非未别莫勿]",
    re.IGNORECASE,
)


@lru_cache(maxsize=4096)  # a claim is read by the coverage check and again by the quote check
def negations(text: str) -> tuple[str, ...]:
    """The negation markers of ``text``, case-folded and sorted, once per occurrence (``"n't"`` counts as itself,
    not as ``"not"``): equal for two texts that negate alike, empty for one that negates nothing."""
    norm = text if text.isascii() else unicodedata.normalize("NFKC", text)
    return tuple(sorted(m.casefold() for m in _NEGATION.findall(norm)))
