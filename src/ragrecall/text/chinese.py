"""Traditional and Simplified Chinese folded to one form, so that a Simplified claim and a Traditional passage
compare as the same words (國家圖書館 and 国家图书馆).

The conversion is OpenCC's ``t2s`` (Traditional to Simplified, characters and phrases): OpenCC is the
converter Chinese text tools build on, kept up to date with its dictionaries, and its C++ core converts a
passage in about 10 µs. Its import (about 45 ms with its dictionaries) happens the first time a text with
CJK characters is folded, so runs on other languages never pay it.

Callers keep offsets: the folded text has the length of the text it came from (OpenCC's conversions are
one character for one; where a phrase would change the length, the text is converted character by
character instead).
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from .segment import has_cjk

__all__ = ["simplified"]


@lru_cache(maxsize=1 << 14)
def simplified(text: str) -> str:
    """``text`` with Traditional Chinese characters written in Simplified, of the same length; text with no
    CJK character is returned as it is."""
    if text.isascii() or not has_cjk(text):
        return text
    converter = _converter()
    out: str = converter.convert(text)
    if len(out) == len(text):
        return out
    return "".join(ch if len(c := converter.convert(ch)) != 1 else c for ch in text)


@lru_cache(maxsize=1)
def _converter() -> Any:
    import opencc

    return opencc.OpenCC("t2s")
