"""Clauses of a sentence, for telling which words a negation governs: a clause ends at a comma, semicolon or
colon (ASCII ones before a space or a Chinese character, so ``1,000`` and ``10:30`` stay whole; full-width ones
anywhere), and a new
one starts at a conjunction that joins two statements (``but``, ``although``, ``while``, ``and`` …; 但是,
而, 却, 然而 …)."""

from __future__ import annotations

import itertools
import re
from functools import lru_cache

__all__ = ["clause_spans"]

_BREAK = re.compile(
    r"(?<=[,;:])(?=\s|[\u3400-\u9fff])|(?<=[，；：、])"
    r"|(?<=\s)(?=(?:but|whereas|while|although|though|however|yet|and|or|because|unlike|whilst)\b)"
    r"|(?=但是|但|然而|而且|而|却|卻|可是|只是|不过|不過)",
    re.IGNORECASE,
)


@lru_cache(maxsize=1 << 14)
def clause_spans(sentence: str) -> tuple[tuple[int, int], ...]:
    """The clauses of ``sentence`` as ``(start, end)`` spans, in order; only white space lies between them."""
    cuts = sorted({0, len(sentence), *(m.start() for m in _BREAK.finditer(sentence))})
    return tuple((a, b) for a, b in itertools.pairwise(cuts) if sentence[a:b].strip())
