"""Content terms: the words (or CJK characters) that carry a text's facts, for lexical comparison without a model.

A term is a lower-cased word of two or more letters that is not an English function word, a number (digits
with their separators), or, for Chinese, Japanese and Korean runs, a character bigram (``cjk="bigrams"``) or a
single character other than a common function character (``cjk="chars"``). Bigrams are the stricter
evidence that a text comes from another; single characters are the more forgiving test that a text mentions
what another says, in other words.

With ``stem=True`` English words lose one common inflection (``-ing``, ``-ies``, ``-ed``, ``-es``, ``-ly``,
``-s``) and a final ``e``, and are cut to six letters, so that ``hosted``, ``hosts`` and ``hosting`` meet, and
``metre`` and ``metres``; the stemming is deliberately crude, since it only has to make paraphrases overlap.
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Literal

from .chinese import simplified
from .datafile import sections
from .normalize import normalize_text
from .segment import CJK_RANGES

__all__ = ["STOPWORDS", "base_form", "content_terms", "is_function_word", "spelling", "stem"]

_WORD = re.compile(r"[^\W\d_]{2,}|\d+(?:[.,]\d+)*", re.UNICODE)
_ASCII_WORD = re.compile(r"[a-z]{2,}|\d+(?:[.,]\d+)*")
_CJK_RUN = re.compile(f"[{CJK_RANGES}]+")
_SUFFIXES = (("ing", ""), ("ies", "y"), ("ed", ""), ("es", "e"), ("ly", ""), ("s", ""))
_STEM_LENGTH = 6

_STOPWORD_TEXT = """
    a about above after again against all also am an and any are as at be been before being below between both
    but by can cannot could did do does doing down during each either few for from further had has have having
    he her here hers herself him himself his how however i if in into is it its itself just may me might more
    most much my myself neither no nor not of off on once one only or other our ours ourselves out over own same
    shall she should so some such than that the their theirs them themselves then there these they this those
    though through thus to too under until up upon us very was we were what when where whether which while who
    whom whose why will with within would yet you your yours yourself
"""
STOPWORDS = frozenset(_STOPWORD_TEXT.split())
"""English function words, left out of the terms."""

_CJK_FUNCTION = frozenset("的了是在和与及也还就而或被把将于其这那之个他她它们我你着过吗呢吧啊又并且")


def content_terms(text: str, *, stem: bool = False, cjk: Literal["bigrams", "chars"] = "bigrams") -> frozenset[str]:
    """The content terms of ``text`` (see the module docstring), after NFKC normalisation and case folding."""
    if text.isascii():  # NFKC changes no ASCII text and there is no CJK run (``cjk`` changes nothing)
        return _ascii_terms(text, stem)
    return _terms(text, stem, cjk)


@lru_cache(maxsize=4096)  # a claim is read by the coverage check and again by the quote check
def _ascii_terms(text: str, stem: bool) -> frozenset[str]:
    words = frozenset(_ASCII_WORD.findall(text.lower())).difference(STOPWORDS)
    return frozenset(map(_stem, words)) if stem else words


@lru_cache(maxsize=4096)
def _terms(text: str, stem: bool, cjk: Literal["bigrams", "chars"]) -> frozenset[str]:
    norm = simplified(normalize_text(text))
    out: set[str] = set()
    for run in _CJK_RUN.findall(norm):
        if cjk == "bigrams":
            out.update(run[i : i + 2] for i in range(max(1, len(run) - 1)))
        else:
            out.update(ch for ch in run if ch not in _CJK_FUNCTION)
    for word in _WORD.findall(_CJK_RUN.sub(" ", norm)):
        if word not in STOPWORDS:
            out.add(_stem(word) if stem else word)
    return frozenset(out)


def is_function_word(word: str) -> bool:
    """True for an English function word or a common Chinese function character (lower-cased input)."""
    return word in STOPWORDS or word in _CJK_FUNCTION


def stem(word: str) -> str:
    """``word`` (lower case) stemmed as :func:`content_terms` stems with ``stem=True``."""
    return _stem(word)


def base_form(word: str) -> str:
    """``word`` (lower case) with an irregular past form or participle made its base form (``won`` → ``win``,
    ``built`` → ``build``; ``data/irregular.txt``); any other word unchanged."""
    return _IRREGULAR.get(word, word)


_IRREGULAR = {
    form.strip(): base.strip()
    for line in sections("irregular.txt").get("irregular", [])
    for form, _, base in [line.partition("=")]
}


def spelling(word: str) -> str:
    """``word`` (lower case) in one English spelling: British ``-our``, ``-tre``, ``-ise`` and ``grey`` as
    American ``-or``, ``-ter``, ``-ize`` and ``gray`` (harbour and harbor, centre and center meet)."""
    if len(word) < 5 or not word.isascii():
        return word
    for british, american in _SPELLINGS:
        if word.endswith(british) and len(word) - len(british) >= 3:
            return word[: -len(british)] + american
    return "gray" if word == "grey" else word


_SPELLINGS = (
    ("ours", "ors"),
    ("our", "or"),
    ("tres", "ters"),
    ("tre", "ter"),
    ("ised", "ized"),
    ("ising", "izing"),
    ("ise", "ize"),
    ("isation", "ization"),
    ("ogue", "og"),
    ("lled", "led"),
    ("lling", "ling"),
)


@lru_cache(maxsize=1 << 16)
def _stem(word: str) -> str:
    if word[0].isdigit():
        return word
    word = spelling(word)
    for suffix, replacement in _SUFFIXES:
        if word.endswith(suffix) and len(word) - len(suffix) >= 3 and not word.endswith(("ss", "us")):
            word = word[: -len(suffix)] + replacement
            break
    if len(word) > 3 and word.endswith("e"):
        word = word[:-1]  # metre / metres, use / uses
    return word[:_STEM_LENGTH]
