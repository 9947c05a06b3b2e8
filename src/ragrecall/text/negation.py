"""Negation markers, English and Chinese: the words whose presence turns a statement into its opposite."""

from __future__ import annotations

import re
import unicodedata
from collections import Counter

__all__ = ["negations"]

_NEGATION = re.compile(
    r"\b(?:not|no|never|none|nor|neither|cannot|without|nothing|nobody|non)\b|n't\b|[不没沒无無非未别莫勿]"
)


def negations(text: str) -> Counter[str]:
    """The negation markers of ``text`` and how often each occurs (``"n't"`` counts as itself, not ``"not"``)."""
    return Counter(_NEGATION.findall(unicodedata.normalize("NFKC", text).casefold()))
