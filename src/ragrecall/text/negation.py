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
# Common words that write a negation character but negate nothing: 非常 "very", 非洲 "Africa", 未来 "future",
# 无论 "whatever", 不仅/不但 "not only", 不过 "but", 不断 "constantly", 不少 "many", 不久 "soon", 不管 "no
# matter", 特别 "especially" and the other 别 words ("other", "kind", "tell apart"...), 淹没 "flood"...
_FALSE_FRIENDS = re.compile(
    "非常|非洲|未来|未來|无论|無論|不仅|不僅|不但|不过|不過|不断|不斷|不少|不久|不管"
    "|特别|区别|分别|个别|别人|别的|级别|类别|性别|识别|差别|告别|淹没|淹沒|出没|出沒|埋没|埋沒|莫斯科"
)


@lru_cache(maxsize=4096)  # a claim is read by the coverage check and again by the quote check
def negations(text: str) -> tuple[str, ...]:
    """The negation markers of ``text``, case-folded and sorted, once per occurrence (``"n't"`` counts as itself,
    not as ``"not"``): equal for two texts that negate alike, empty for one that negates nothing. Common Chinese
    words that merely contain a negation character (非常 "very", 未来 "future", 不少 "many", 特别
    "especially"...) are not negations."""
    norm = text if text.isascii() else _FALSE_FRIENDS.sub(" ", unicodedata.normalize("NFKC", text))
    return tuple(sorted(m.casefold() for m in _NEGATION.findall(norm)))
