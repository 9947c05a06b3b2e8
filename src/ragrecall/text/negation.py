"""Negation cues, English and Chinese: the words whose presence turns a statement into its opposite.

The cues are data (``data/negation.txt``): *clause* cues negate the clause they stand in, *sentence* cues
("it is false that", 并非) everything after them to the end of the sentence, *denial* cues ("but that is a
legend", 其实并非如此) the statement before them, and a list of words that write a
cue but negate nothing (``not only``, 非常 "very", 未来 "future", 不少 "many", 特别 "especially") is removed
before matching.
"""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache
from importlib import resources

__all__ = ["denied_after", "negations", "sentence_negated_before"]


def _load() -> dict[str, list[str]]:
    sections: dict[str, list[str]] = {}
    current = ""
    text = resources.files(__package__).joinpath("data/negation.txt").read_text(encoding="utf-8")
    for line in text.splitlines():
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        if line.startswith("[") and line.endswith("]"):
            current = line[1:-1]
            continue
        sections.setdefault(current, []).append(line)
    return sections


def _pattern(cues: list[str]) -> re.Pattern[str]:
    """One pattern for ``cues``: English ones as whole words (``n't`` right after a letter), others anywhere."""
    words = sorted((c for c in cues if c.isascii() and c != "n't"), key=len, reverse=True)
    parts = [r"(?<![^\W\d_])(?:" + "|".join(r"\s+".join(map(re.escape, c.split())) for c in words) + r")(?![^\W\d_])"]
    if "n't" in cues:
        parts.append(r"(?<=[^\W\d_])n't(?![^\W\d_])")
    other = sorted((c for c in cues if not c.isascii()), key=len, reverse=True)
    if other:
        parts.append("|".join(map(re.escape, other)))
    return re.compile("|".join(parts), re.IGNORECASE)


_CUES = _load()
_CLAUSE = _pattern(_CUES["clause"] + _CUES["sentence"])
_SENTENCE = _pattern(_CUES["sentence"])
_DENIAL = _pattern(_CUES["denial"])
_FALSE_FRIENDS = re.compile(
    "|".join(
        r"\b" + r"\s+".join(map(re.escape, c.split())) + r"\b" if c.isascii() else re.escape(c)
        for c in sorted(_CUES["not a negation"], key=len, reverse=True)
    ),
    re.IGNORECASE,
)


@lru_cache(maxsize=1 << 14)  # every clause of an evidence sentence is read once per claim checked against it
def _cleaned(text: str) -> str:
    norm = text if text.isascii() else unicodedata.normalize("NFKC", text)
    # Same length, so offsets still hold: each false friend becomes spaces.
    return _FALSE_FRIENDS.sub(lambda m: " " * len(m.group()), norm)


@lru_cache(maxsize=4096)  # a claim is read by the coverage check and again by the quote check
def negations(text: str) -> tuple[str, ...]:
    """The negation cues of ``text``, case-folded and sorted, once per occurrence (``"n't"`` counts as itself,
    not as ``"not"``): equal for two texts that negate alike, empty for one that negates nothing. Words that
    merely write a cue (``not only``, 非常 "very", 未来 "future", 不少 "many") are not negations."""
    return tuple(sorted(" ".join(m.group().casefold().split()) for m in _CLAUSE.finditer(_cleaned(text))))


def sentence_negated_before(sentence: str, at: int) -> bool:
    """True when a sentence-wide cue ("it is false that", 并非) stands in ``sentence`` before offset ``at``:
    it negates everything after it, whatever the clauses."""
    return _SENTENCE.search(_cleaned(sentence)[:at]) is not None


def denied_after(text: str, *, opening: bool = False) -> bool:
    """True when ``text``, which follows a statement, denies it ("but that is a legend", "In fact, this is not
    true", 其实并非如此): a denial cue anywhere in it, or with ``opening`` (the next sentence) at its start."""
    if not text:
        return False
    found = _DENIAL.search(_cleaned(text))
    return found is not None and (not opening or found.start() <= 12)
