"""Unicode-aware text normalisation for string comparison."""

from __future__ import annotations

import unicodedata

__all__ = ["normalize_text"]


def normalize_text(text: str) -> str:
    """Return ``text`` in NFKC form, case-folded, with runs of whitespace collapsed to one space and trimmed.

    NFKC maps compatibility forms to their canonical letters (full-width ``Ａ`` → ``A``, ``ﬁ`` → ``fi``),
    which matters for CJK text copied from different sources; ``casefold`` is the Unicode-correct
    lower-casing (``ß`` → ``ss``).
    """
    return " ".join(unicodedata.normalize("NFKC", text).casefold().split())
