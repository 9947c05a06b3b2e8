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

from .chinese import simplified
from .datafile import sections
from .letters import letter_runs

__all__ = [
    "admits",
    "counterfactual",
    "denied_after",
    "denies_the_next_sentence",
    "denies_the_sentence_before",
    "endings",
    "negates",
    "negations",
    "sentence_cues",
    "sentence_negated_before",
    "unnegated",
    "verbal_negation",
]


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


_ASCII = "".join(map(chr, range(128)))


class _Cues:
    """A pattern of cues, with a quick test that ASCII text holds none of them.

    A cue is found as whole words: each run of letters it writes is a whole run of letters of the text (the
    pattern asks for no letter before and after it, and its inner spaces and marks are no letters). ASCII text
    none of whose cues has all its runs among the text's (:func:`~ragrecall.text.letters.letter_runs`) holds no
    cue. Cues written in another script match no ASCII text; one that a case-blind match could find in ASCII
    text turns the quick test off.
    """

    def __init__(self, pattern: re.Pattern[str], cues: list[str]) -> None:
        self.pattern = pattern
        self.words = [frozenset(letter_runs(c)) for c in cues if c.isascii() and c != "n't"]
        # Each cue's longest word, the rarest: a text holding none of them holds no cue, told in one set lookup.
        self.keys = frozenset(max(words, key=len) for words in self.words if words)
        self.marks = ["n't"] if "n't" in cues else []
        others = [ch for c in cues if not c.isascii() for ch in c if not ch.isascii()]
        self.quick = all(words for words in self.words) and all(
            re.search(re.escape(ch), _ASCII, re.IGNORECASE) is None for ch in others
        )

    def absent(self, text: str) -> bool:
        """True when ``text`` surely holds no cue; False when it may (then the pattern decides)."""
        if not (self.quick and text.isascii()):
            return False
        if self.marks and any(mark in text.lower() for mark in self.marks):
            return False
        runs = set(letter_runs(text))
        return runs.isdisjoint(self.keys) or not any(words <= runs for words in self.words)


def _cues(section: str | list[str], pattern: re.Pattern[str] | None = None) -> _Cues:
    cues = _CUES[section] if isinstance(section, str) else section
    return _Cues(pattern or _pattern(cues), cues)


_CUES = sections("negation.txt")
_CLAUSE = _cues(_CUES["clause"] + _CUES["sentence"])
_SENTENCE = _cues("sentence")
_DENIAL = _cues("denial")
_BEFORE = _cues("denial of the sentence before")
_ADMITS = _cues("admits")
_FALSE_FRIENDS = _cues(
    "not a negation",
    re.compile(
        "|".join(
            r"\b" + r"\s+".join(map(re.escape, c.split())) + r"\b" if c.isascii() else re.escape(c)
            for c in sorted(_CUES["not a negation"], key=len, reverse=True)
        ),
        re.IGNORECASE,
    ),
)


def _plain(text: str) -> str:
    """``text`` as the cues are matched in it: NFKC, Traditional Chinese as Simplified (ASCII text as it is)."""
    return text if text.isascii() else simplified(unicodedata.normalize("NFKC", text))


@lru_cache(maxsize=1 << 14)  # every clause of an evidence sentence is read once per claim checked against it
def _cleaned(text: str) -> str:
    norm = _plain(text)
    if "until" in norm:  # "was not climbed until 1957": it was, in 1957
        norm = _NOT_UNTIL.sub(lambda m: " " * len(m.group()), norm)
    if "o." in norm:  # "Engine No. 9": a number sign
        norm = _NUMBER_SIGN.sub(lambda m: " " * len(m.group()), norm)
    # Same length, so offsets still hold: each false friend becomes spaces, and so does a denial of the sentence
    # before ("林可欣对此予以否认"), which denies nothing of its own sentence.
    if not _BEFORE.absent(norm):
        norm = _BEFORE.pattern.sub(lambda m: " " * len(m.group()), norm)
    if _FALSE_FRIENDS.absent(norm):
        return norm
    return _FALSE_FRIENDS.pattern.sub(lambda m: " " * len(m.group()), norm)


_NUMBER_SIGN = re.compile(r"\b[Nn]o\.(?=\s?\d)")
_NOT_UNTIL = re.compile(r"\bnot\b(?=(?:\s+[^\W\d_]+){0,3}\s+until\b)", re.IGNORECASE)


@lru_cache(maxsize=4096)  # a claim is read by the coverage check and again by the quote check
def negations(text: str) -> tuple[str, ...]:
    """The negation cues of ``text``, case-folded and sorted, once per occurrence (``"n't"`` counts as itself,
    not as ``"not"``): equal for two texts that negate alike, empty for one that negates nothing. Words that
    merely write a cue (``not only``, 非常 "very", 未来 "future", 不少 "many") are not negations."""
    cleaned = _cleaned(text)
    if _CLAUSE.absent(cleaned):
        return ()
    return tuple(sorted(" ".join(m.group().casefold().split()) for m in _CLAUSE.pattern.finditer(cleaned)))


def counterfactual(text: str) -> re.Match[str] | None:
    """The negated antecedent of a counterfactual in ``text``, which asserts what it negates: "had the islanders
    not raised £40,000" (they raised it), "if the fire had not destroyed …", 要不是…, 若不是…; or None."""
    return _COUNTERFACTUAL.search(text)


# "had <the/a pronoun/a name> … not …" opening a clause, or after "would have …"; "if X had not …"; 要不是. A plain
# past perfect ("the bridge had still not opened", "…, had still not opened") is no counterfactual.
_COUNTERFACTUAL = re.compile(
    r"(?:^\W*|[,;—–]\s*|\b(?:would|could|might)(?:\s+not|n['’]t)?\s+have\s+(?:[^\s,;.]+\s+){0,8}?)"
    r"had\s+(?:the|an?|it|he|she|they|we|its|his|her|their|this|that|these|those|(?-i:[A-Z])[\w'’-]*)\s+"
    r"(?:[^\s,;.]+\s+){0,4}?not\b"
    r"|\bif\s+(?:[^\s,;.]+\s+){1,6}?(?:had\s+not|hadn['’]t)\b|要不是|若不是|如果不是",
    re.IGNORECASE,
)


@lru_cache(maxsize=1 << 14)
def sentence_cues(text: str) -> tuple[str, ...]:
    """The sentence-wide cues of ``text`` ("it is not true that", 并非), case-folded, in order."""
    cleaned = _cleaned(text)
    if _SENTENCE.absent(cleaned):
        return ()
    return tuple(" ".join(m.group().casefold().split()) for m in _SENTENCE.pattern.finditer(cleaned))


def negates(text: str) -> bool:
    """Whether ``text`` (a clause) negates what it says: it holds a negation cue, unless a sentence-wide cue or
    并非 opens a statement that negates again ("It is false that the well never froze", 并非…从未结冰: it froze),
    or the cue negates a counterfactual's antecedent (:func:`counterfactual`)."""
    if (antecedent := counterfactual(text)) is not None:
        text = text[: antecedent.start()] + " " * (antecedent.end() - antecedent.start()) + text[antecedent.end() :]
    cleaned = _cleaned(text)
    if _CLAUSE.absent(cleaned):
        return False
    found = [" ".join(m.group().casefold().split()) for m in _CLAUSE.pattern.finditer(cleaned)]
    if len(found) == 2 and found[0] in _WIDE and found[1] in _VERBAL:
        return False
    return bool(found)


_WIDE = frozenset(_CUES["sentence"] + _CUES["turns round"])
_VERBAL = frozenset(_CUES["verbal"])
_VERBAL_CUES = _pattern(_CUES["verbal"])


def verbal_negation(text: str) -> re.Match[str] | None:
    """The first negation of a verb in ``text`` (the section ``verbal`` of the data: "not", "never", 没有, 未), at
    its offsets in ``text``, or None."""
    return _VERBAL_CUES.search(text.replace("’", "'"))  # the same length: offsets hold


def unnegated(text: str) -> str:
    """``text`` (NFKC, Simplified) with each of its negation cues made a space: what it says once its negations
    are taken away ("The mill did not close" → "The mill     close")."""
    cleaned = _NOT_HAVE.sub(" ", _cleaned(text))  # 没有 is one negation: its 有 says nothing of its own
    if _CLAUSE.absent(cleaned):
        return cleaned
    return _CLAUSE.pattern.sub(" ", cleaned)


_NOT_HAVE = re.compile("[没沒]有")


_ENDING = _cues("ending")


def endings(text: str) -> tuple[str, ...]:
    """The words of ``text`` saying that something ended, was spared or waived ("stopped", "cancelled", 停止, 免费:
    the section ``ending`` of the data), case-folded, in order."""
    norm = _plain(text)
    if _ENDING.absent(norm):
        return ()
    return tuple(" ".join(m.group().casefold().split()) for m in _ENDING.pattern.finditer(norm))


def sentence_negated_before(sentence: str, at: int) -> bool:
    """True when a sentence-wide cue ("it is false that", 并非) stands in ``sentence`` before offset ``at``:
    it negates everything after it, whatever the clauses."""
    before = _cleaned(sentence)[:at]
    return not _SENTENCE.absent(before) and _SENTENCE.pattern.search(before) is not None


def denied_after(text: str, *, opening: bool = False) -> bool:
    """True when ``text``, which follows a statement, denies it ("but that is a legend", "In fact, this is not
    true", 其实并非如此): a denial cue anywhere in it, or with ``opening`` (the next sentence) at its start."""
    if not text:
        return False
    cleaned = _cleaned(text)
    # "… of 1911. It did not, as is sometimes written; …", "… in 1851. The company's own history denies this."
    if opening and (_ELLIPTICAL.match(cleaned) or denies_the_sentence_before(text)):
        return True
    if not _DENIED_AS.absent(cleaned) and _denied_as(cleaned):
        return True
    if _DENIAL.absent(cleaned):
        return False
    found = _DENIAL.pattern.search(cleaned)
    if found is None or (opening and found.start() > 12):
        return False
    # "It is false that X": a statement of its own about X, not a denial of what came before.
    return not (opening and _OPENS_STATEMENT.match(cleaned, found.start()))


@lru_cache(maxsize=1 << 14)
def denies_the_sentence_before(text: str) -> bool:
    """Whether ``text`` holds words that deny the sentence before it ("The company denies this", 对此予以否认):
    they negate nothing of their own sentence (:func:`negations` leaves them out)."""
    norm = _plain(text)
    return not _BEFORE.absent(norm) and _BEFORE.pattern.search(norm) is not None


@lru_cache(maxsize=1 << 14)
def admits(text: str) -> bool:
    """Whether ``text`` says someone granted what was said ("admitted", 承认): the opposite of a denial of the
    sentence before (:func:`denies_the_sentence_before`)."""
    norm = _plain(text)
    return not _ADMITS.absent(norm) and _ADMITS.pattern.search(norm) is not None


@lru_cache(maxsize=1 << 14)
def denies_the_next_sentence(text: str) -> bool:
    """Whether the sentence ``text`` opens on words about the sentence after it and calls it false ("The
    following account, printed in the 1930 guidebook, is false.", 下面这个流传很广的说法是错误的。)."""
    if not _FORWARD.search(text) and text.isascii():
        return False  # the quick test: no opening of the kind anywhere
    norm = _plain(text)
    opening = _FORWARD.match(norm, len(norm) - len(norm.lstrip(_MARKS)))
    return opening is not None and not _FORWARD_DENIAL.absent(norm) and bool(_FORWARD_DENIAL.pattern.search(norm))


def _denied_as(text: str) -> bool:
    """Whether ``text`` opens, after a connective if any, on words that refer back to a statement ("This story",
    这) with a word that calls it false close after them, in the same sentence ("This story, however, is
    untrue", "…，这只是一个流传甚广的谣言")."""
    at = len(text) - len(text.lstrip(_MARKS))
    while (joined := _CONNECTIVE.match(text, at)) is not None:  # "but in fact this …"
        at = joined.end() + len(text[joined.end() :]) - len(text[joined.end() :].lstrip(_MARKS))
    opening = _REFERS.match(text, at)
    if opening is None:
        return False
    rest = _SENTENCE_END.split(text[opening.end() :], maxsplit=1)[0]
    window = rest[:_WINDOW] if rest.isascii() else rest[:_CJK_WINDOW]
    found = None if _DENIED_AS.absent(window) else _DENIED_AS.pattern.search(window)
    if found is None:
        return False
    # the word is said of what the opening refers to: "This story, however, is untrue", 这只是…谣言, 此说并不属实;
    # not "This corrects the false date", 这一年份纠正了旧志中的…
    between = _ASIDE.sub(" ", window[: found.start()])
    if not between.isascii():
        return bool(_CJK_COPULA.search(between) or len(between) <= 2)
    # "This story, however, is untrue"; "This is repeated in many histories, but it is untrue"
    return bool(_COPULA.fullmatch(between) or _IT_IS.search(between))


# What may stand between "This story" and the word that calls it false: a copula, "not", an article or an adverb.
_ASIDE = re.compile(r",[^,]*,")
_COPULA = re.compile(
    r"\s*(?:is|was|are|were|has been|had been|proved|proved to be|turned out to be|remains|seems|appears to be)"
    r"(?:\s+(?:not|a|an|entirely|completely|simply|only|just|pure|wholly|largely|probably|almost certainly))*\s*",
    re.IGNORECASE,
)
_IT_IS = re.compile(
    r"\b(?:it|this|that)\s+(?:is|was|has been|proved|proved to be|turned out to be)"
    r"(?:\s+(?:not|a|an|simply|entirely))*\s*$",
    re.IGNORECASE,
)
_CJK_COPULA = re.compile(r"[是属係系乃为被]|[并純纯实完根]")


_MARKS = " \t\n,;:—–-\"“”'‘’()（），、；：「」"
_CONNECTIVE = _pattern(_CUES["connective"])
_REFERS = _pattern(_CUES["refers back"])
_DENIED_AS = _cues("denied as")
_FORWARD = _pattern(_CUES["points forward"])
_FORWARD_DENIAL = _cues(_CUES["denied as"] + ["错误", "是错误的", "wrong"])
_SENTENCE_END = re.compile(r"[.!?。！？;；]")
_WINDOW, _CJK_WINDOW = 60, 16  # how far after "This story" / 这 the word that calls it false may stand


# A next sentence that denies the one before in three words: "It did not, as is sometimes written; …", "It was not."
_ELLIPTICAL = re.compile(
    r"\W*(?:it|he|she|they|this|that)\s+(?:did|was|were|had|has|is|does)\s*(?:not|n['’]t)"
    r"\s*(?:[.;:!—–]|,\s*(?:as|contrary|despite|whatever)\b)",
    re.IGNORECASE,
)
_OPENS_STATEMENT = re.compile(r"[^.!?。！？]*?\b(?:that|whether)\b", re.IGNORECASE)
