"""A name the evidence writes in other words: by the noun it is ("the farm" for the Harlen Bee Farm, "The album's
producer" where a passage says "Harbour Lights (1996) was the second album"; a clause opening on 机场 for
澜川机场), or by the adjective of a place it names ("The Vendian airport tax" against "the Storting of Vendia").
Deterministic, no LLM call.

The noun refers to the name only where no passage names another thing by it ("the Dunlow Railway" beside the
Sennet Valley Railway leaves "the railway" unread; 首都机场 beside 澜川机场), and it stands in the evidence sentence
or before it in its passage, after "the" (with one word between at most: "the 23-mile line"); a Chinese head noun
opens a clause of the evidence sentence."""

from __future__ import annotations

import re
from collections.abc import Sequence
from functools import lru_cache

from ...text.anaphora import words_of
from ...text.cues import plain
from ...text.locate import fold
from ...text.names import Name, fold_word, folded_words
from ...text.segment import has_cjk
from ...text.terms import STOPWORDS
from ._facts import Evidence, SentenceSource

__all__ = ["described"]


def described(name: Name, ev: Evidence, contexts: SentenceSource) -> bool:
    """Whether ``ev`` refers to ``name`` by the noun it is or by a place's adjective (see the module docstring)."""
    if name.cjk:
        return _by_its_head(fold(name.words[0]), ev, contexts.texts)
    return _by_its_noun(name, ev, contexts.texts) or _by_adjective(name, ev.text)


def _by_its_head(term: str, ev: Evidence, texts: Sequence[str]) -> bool:
    """Whether a clause of the evidence sentence opens with the head noun of the Chinese subject ``term`` a passage
    writes (…，机场为其提供了临时住宿 for 澜川机场), and no passage writes that noun after other words of a name
    (首都机场)."""
    head = term[-2:]
    if len(term) < 3 or not has_cjk(head) or not any(term in fold(t) for t in texts):
        return False
    if not any(_CLAUSE_OPENING.sub("", plain(fold(c))).startswith(head) for c in _CJK_CLAUSE.split(ev.text)):
        return False
    for text in texts:
        written = plain(text)
        for m in re.finditer(re.escape(head), written):
            before = written[: m.start()]
            if not before.endswith(term[:-2]) and before[-1:] and before[-1] not in _BEFORE_A_HEAD:
                return False  # 首都机场: another of its kind
    return True


# What may open a clause before the head noun: a time word (此后, 随后), a demonstrative and its measure word (这座).
_CLAUSE_OPENING = re.compile(
    rf"^(?:{'|'.join(map(re.escape, words_of('time lead-in')))})?(?:[该本这此其][座个家所间条]?)?"
)
# What may stand before a head noun that names no other thing: a demonstrative, a preposition, a mark, a measure
# word.
_BEFORE_A_HEAD = frozenset('该本这此其的在从到往为与和及于、，。；：「“（ ,.;:("座个家所间条后')
_CJK_CLAUSE = re.compile(r"[，,；;：:。]")


def _by_its_noun(name: Name, ev: Evidence, texts: Sequence[str]) -> bool:
    if not any(set(name.words) <= folded_words(t) for t in texts):
        return False
    kinds = ({name.words[-1]} if len(name.words) > 1 else set()) | {k for t in texts for k in _kinds_said(name, t)}
    before = texts[ev.context][: len(ev.earlier) + len(ev.text)]
    nouns = {fold_word(w) for m in _THE_NOUN.finditer(before) for w in m.groups() if w}
    return any(
        kind in nouns and not any(_another_of_its_kind(kind, name, t) for t in texts) for kind in kinds - STOPWORDS
    )


def _kinds_said(name: Name, text: str) -> set[str]:
    """The nouns ``text`` says ``name`` is: "Hohenfels is a small mining town whose …" → town."""
    return {fold_word(m.group("kind")) for m in _said_to_be(_POSSESSIVE.sub("", name.text)).finditer(text)}


@lru_cache(maxsize=1024)
def _said_to_be(name: str) -> re.Pattern[str]:
    return re.compile(
        rf"\b{re.escape(name)}(?:\s*\([^)]*\))?\s+(?:is|was|are|were)\s+(?:a|an|the)\s+(?:[\w-]+\s+){{0,3}}?"
        rf"(?P<kind>[a-z]+)(?=[,.;:]|\s+(?:whose|which|that|who|in|on|of|by|from|with|at|near|for|and)\b)"
    )


_POSSESSIVE = re.compile(r"['’]s$")
# "the farm", "the old line", "The album's": the word after "the" or the one after it
_THE_NOUN = re.compile(r"\bthe\s+([^\W\d_]+)(?:['’]s)?(?:\s+([^\W\d_]+))?", re.IGNORECASE)
_NAMED_KIND = re.compile(r"((?:[A-Z][\w'’-]*\s+){1,4})([A-Z][^\W\d_]*)\b")
_IS_A = re.compile(
    r"((?:[A-Z][\w'’-]*\s+)*[A-Z][\w'’-]*)(?:\s*\([^)]*\))?\s+(?:is|was)\s+(?:a|an|the)\s+((?:[\w-]+\s+){0,3}[\w-]+)"
)


def _another_of_its_kind(kind: str, name: Name, text: str) -> bool:
    """Whether ``text`` names another thing ``kind``: "the Dunlow Railway", "Carnbeg is a town" beside "the town"
    of Hohenfels (words compared folded: "theatre" is "theater")."""
    others = [m.group(1) for m in _NAMED_KIND.finditer(text) if fold_word(m.group(2)) == kind]
    others += [m.group(1) for m in _IS_A.finditer(text) if kind in {fold_word(w) for w in m.group(2).split()}]
    return any({fold_word(w) for w in words.split()} - STOPWORDS - set(name.words) for words in others)


def _by_adjective(name: Name, sentence: str) -> bool:
    """Whether each word of ``name`` the sentence lacks is the adjective of a capitalised word it writes: Vendian
    for Vendia, Carsonese for Carson."""
    written = folded_words(sentence)
    places = {fold_word(w) for w in _CAPITALISED.findall(sentence)}
    missing = [w for w in name.words if w not in written]
    return bool(missing) and all(
        any(w.startswith(p) and w[len(p) :] in _ADJECTIVE_ENDINGS and len(p) >= 4 for p in places) for w in missing
    )


_CAPITALISED = re.compile(r"\b[A-Z][\w'’-]+")
_ADJECTIVE_ENDINGS = frozenset(["n", "an", "ian", "ese", "ish", "i"])
