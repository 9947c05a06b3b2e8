"""The runs of letters of ASCII text, found quickly, for telling at once that a text holds none of a list of words.

Case-blind patterns over long alternations (negation cues, number words) are searched at every position of a
text; most texts hold none of their words. A word a pattern finds whole (no letter before or after it) is a
whole run of letters of the text, so when no run is one of its words, the pattern would find nothing: a set
lookup says so many times faster. Only ASCII text is read this way (its letters are ``[A-Za-z]``, and
lower-casing keeps its length); other text goes to the pattern.
"""

from __future__ import annotations

__all__ = ["letter_runs"]

_LETTERS_KEPT = bytes(code if code < 128 and chr(code).isalpha() else 32 for code in range(256))
"""A byte table keeping ASCII letters and making every other byte a space."""


def letter_runs(text: str) -> list[bytes]:
    """The runs of letters of ASCII ``text`` (``[A-Za-z]+``, the runs of ``[^\\W\\d_]`` in ASCII text),
    lower-cased, as ASCII bytes, in order. Raises UnicodeEncodeError for text that is not ASCII."""
    return text.encode("ascii").lower().translate(_LETTERS_KEPT).split()
