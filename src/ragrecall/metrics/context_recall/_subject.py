"""The subject check: every name of the claim is named by its evidence, or earlier in the evidence's passage.

A name (:func:`~ragrecall.text.names.claim_names`) is named when its words occur in the evidence sentence or
before it in the same passage ("He was born in 1879" after a sentence naming him); a capitalised word opening
the claim counts as a name only when the passage writes it, and never in lower case ("Construction began …",
"Ships longer than …" are no names); a Chinese subject, whose end no space marks, when its first two characters are
written, or half its bigrams (two at least), or the evidence sentence opens with its head noun (学院 for
汀澜音乐学院). A missing name fails only where the evidence names something else.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence
from functools import lru_cache

from ...text.anaphora import opens_with, words_of
from ...text.cues import plain
from ...text.dates import FULL_MONTHS
from ...text.locate import fold
from ...text.names import Name, claim_names, fold_word, folded_words
from ...text.segment import has_cjk, sentence_spans
from ...text.terms import STOPWORDS
from ._described import described
from ._evidence import Quote
from ._facts import PROBLEMS, ClaimFacts, Evidence, Failure, SentenceSource

__all__ = ["named", "refers_back", "sentences_of", "shortened", "subject_failure"]


def subject_failure(
    facts: ClaimFacts, quotes: Sequence[Quote], evidence: list[Evidence], contexts: SentenceSource
) -> Failure | None:
    """Each name of the claim is in an evidence sentence or earlier in its passage, unless that passage names
    nothing else there (a manual's chunk about "the router" need not name the router)."""
    for name in facts.names:
        if any(
            named(name, ev, contexts.texts[ev.context])
            or shortened(name, ev, contexts)
            or described(name, ev, contexts)
            for ev in evidence
        ):
            continue
        if any(_other_names(facts, ev) for ev in evidence) and not refers_back(name, facts, evidence, contexts):
            return Failure("subject", f"{PROBLEMS['subject']}: {name.text}")
    return None


# What a Chinese sentence opens with when it refers back to what was named before it: a demonstrative or pronoun,
# or a generic head noun (公司, 学校, 全省 "the whole province", 市教育局 "the city's education bureau").
_CJK_BACK = tuple(w for w in words_of("demonstrative", "pronoun", "generic") if not w.isascii())
# A date, a span of time or a source leading a Chinese sentence in: "2023年", "从教四十余年间，", "两年后，",
# "经过近三年施工，", "公报指出，".
# A word of time, with what it dates as far as a comma: "目前", "全盛时期的1980年代末，".
_CJK_TIME = "|".join(re.escape(w) for w in words_of("time lead-in"))
_CJK_LEAD_IN = re.compile(
    r"^(?:[\d〇零一二三四五六七八九十]+\s*[年月日]\s*[，,]?|[^，,。]{1,8}(?:指出|显示|表示|称)[，,]"
    r"|[^，,。；]{0,10}?(?:年间|期间|以来|之后|以后|之前|以前|年后|年前|当年|同年|次年|当天|同期|同一时期)[，,]"
    r"|经过[^，,。；]{1,10}[，,]"
    rf"|(?:{_CJK_TIME})(?:的?[^，,。；]{{0,10}}?(?:年代末|年代初|年代|年间|时期|期间|以来|时)[，,])?[，,]?)+"
)
# What opens a passage that goes on about a subject another passage names: a subject pronoun ("It spans …", not
# "Its rival …"), a demonstrative (该厂, "This"), a Chinese generic head noun (工厂, 公司); not "The <noun>", which
# as often names a thing of its own.
_BACK = ("subject pronoun", "demonstrative", "generic")
_ANAPHORS = frozenset(["the", *(w for w in words_of("pronoun", "demonstrative") if w.isascii())])


def refers_back(
    name: Name, facts: ClaimFacts, evidence: list[Evidence], contexts: SentenceSource, *, passage_opening: bool = False
) -> bool:
    """True when another passage of the sample names ``name`` and an evidence sentence refers back to it (a
    pronoun, "The" and a noun of the claim, 该园, 寺中, 全省: :func:`_opens_anaphorically`; with
    ``passage_opening``, only a passage's first sentence opening on a subject pronoun, a demonstrative or a Chinese
    generic head noun; without it, also any sentence of a passage whose first sentence opens so) while neither it
    nor its passage before it opens with another name."""
    for ev in evidence:
        others = [t for c, t in enumerate(contexts.texts) if c != ev.context]
        if not any(_written(name, t) for t in others):
            continue
        # with ``passage_opening``, only a passage's first sentence: later ones refer to what their passage named
        if passage_opening:
            opens = not ev.earlier.strip() and opens_with(_CJK_LEAD_IN.sub("", ev.text), *_BACK)
        else:
            opens = _opens_anaphorically(ev.text, facts)
            if not opens and _opens_on_its_head(name, ev.text, others) and not ev.earlier.strip():
                return True  # 卫星运行在… opening the passage, after 星河一号卫星: its head is no other name
            # "该物种的繁殖期集中在… 。雌性每次产卵…": a passage that opens by referring back goes on about it
            first = sentences_of(ev.earlier)[:1]
            opens = opens or bool(first and opens_with(_CJK_LEAD_IN.sub("", first[0]), *_BACK))
        if opens and (not _other_names(facts, ev, whole=False) or _a_work_named_before(name, facts, ev)):
            return True
    return False


def _opens_on_its_head(name: Name, sentence: str, others: list[str]) -> bool:
    """Whether a Chinese ``sentence`` opens with the head noun another passage writes ``name`` with: 卫星运行在…
    after 星河一号卫星 (the name's first two characters, then the head within six characters)."""
    if not name.cjk:
        return False
    head = plain(_CJK_LEAD_IN.sub("", sentence.lstrip('“"《（(')))[:2]
    if len(head) < 2 or not has_cjk(head):
        return False
    written = re.compile(f"{re.escape(fold(name.words[0])[:2])}[^，。；]{{0,6}}?{re.escape(head)}")
    return any(written.search(fold(t)) for t in others)


def _a_work_named_before(name: Name, facts: ClaimFacts, ev: Evidence) -> bool:
    """Whether ``name`` is a title (《云上航线》) and the evidence sentence opens with words that refer back to a
    work (该书, 该片) while its passage before it names no work, in a title or in words: the other names there
    are a person or a place, not what 该书 refers to."""
    return (
        name.cjk
        and f"《{name.text}》" in facts.text
        and opens_with(ev.text, "a work")
        and not _A_WORK.search(ev.earlier)
    )


# Another work named before in its passage, in a title or in words ("作者韩冬的第二部小说"; not 小说作者, the
# author of the novel named).
_A_WORK = re.compile(r"《|(?:第[一二三四五六七八九十\d]+|另一?|一|新)[部本]?(?:小说|书|作品|电影|影片|剧)")


def shortened(name: Name, ev: Evidence, contexts: SentenceSource) -> bool:
    """True when a passage of the sample writes the whole of an English ``name`` of two words or more and the
    evidence, or its passage before it, writes the name's first or last word on its own: "Corley was founded in
    1889" for the Corley Chess Club, "Mercer later became a magistrate" for Owen Mercer.

    On its own: capitalised, opening its sentence with no capitalised word after it; and the passage never writes
    it in lower case ("club"), beside a capitalised word not of the name ("Maria Ost was a painter. Ost lived in
    Bergen": that Ost is Maria) or alone inside a sentence ("a shipwright called Mercer", "the Hollin school").
    A short name another passage would read as something else (a town Corley beside the Corley Chess Club) is
    read as the name; the judge and the confirmer see it."""
    if name.cjk or len(name.words) < 2 or not any(_written(name, t) for t in contexts.texts):
        return False
    passage = contexts.texts[ev.context]
    upto = len(ev.earlier) + len(ev.text)
    lower = _lower_words(passage)
    for word in {name.words[0], name.words[-1]} - STOPWORDS - lower:
        alone = False
        for m in _word_at(word).finditer(passage):
            before = _CAPITALISED_END.search(passage[: m.start()].rstrip())
            after = _CAPITALISED_START.match(passage[m.end() :].lstrip())
            beside = [w for w in (before, after) if w is not None and w.group().casefold() not in STOPWORDS]
            lead = _TIME_LEAD_IN.search(passage, 0, m.start())
            ahead = passage[: lead.start()] if lead else passage[: m.start()]
            opening = not ahead.strip() or ahead.rstrip().endswith((".", "!", "?"))
            if any(fold_word(w.group()) not in name.words for w in beside) or not (beside or opening):
                alone = False  # another's name, or the word inside a sentence ("a shipwright called Mercer")
                break
            alone = alone or (not beside and m.start() < upto and m.group()[0].isupper())
        if alone:
            return True
    return False


@lru_cache(maxsize=1024)
def _word_at(word: str) -> re.Pattern[str]:
    return re.compile(rf"(?<![^\W\d_]){re.escape(word)}(?:['’]s)?(?![^\W\d_])", re.IGNORECASE)


# A capitalised word right before (not one opening a sentence) or right after a word.
_CAPITALISED_END = re.compile(r"(?<![.!?:;]\s)(?<![^\W\d_])[A-Z][^\W\d_]*$")
_CAPITALISED_START = re.compile(r"[A-Z][^\W\d_]*")
# A time opening a sentence before its subject: "In 1931 Fenn married …", "By 1675, he was …"
_TIME = (
    r"(?:In|By|On|From|After|Before|During|Since|Until)\s+(?:the\s+)?(?:(?:early|late|mid-?)\s*)?"
    rf"(?:\d{{4}}s?|(?:{FULL_MONTHS}|May)(?:\s+\d{{4}})?)\s*,?\s*"
)
_TIME_LEAD_IN = re.compile(rf"\b{_TIME}$")
_TIME_LEAD_IN_OPENING = re.compile(_TIME)


def _written(name: Name, text: str) -> bool:
    if name.cjk:
        return any(head in fold(text) for head in _heads(fold(name.words[0])))
    return set(name.words) <= folded_words(text)


_POSSESSIVE = re.compile(r"['’]s$")


def _opens_anaphorically(sentence: str, facts: ClaimFacts) -> bool:
    """Whether ``sentence`` opens by referring back: a pronoun, "The" and a noun of the claim ("The herbarium"
    for the Threlkeld herbarium, not "The line" for the Sennet Valley Railway), or in Chinese a demonstrative, a
    generic head noun (公司, 全省) or a place word after one character (馆内)."""
    words = sentence.lstrip(' "“(（').split(maxsplit=2)
    if not words:
        return False
    if unicodedata.east_asian_width(words[0][0]) in "WF":
        opening = plain(_CJK_LEAD_IN.sub("", words[0]))
        return opening.startswith(_CJK_BACK) or (len(opening) > 1 and opening[1] in "中内里")
    lead = _TIME_LEAD_IN_OPENING.match(sentence.lstrip(' "“(（'))
    if lead is not None:  # "By 1675 he was working in London"
        words = sentence.lstrip(' "“(（')[lead.end() :].split(maxsplit=2) or words
    first = _POSSESSIVE.sub("", words[0].lower().strip(",;:"))
    if first == "the":
        noun = _POSSESSIVE.sub("", words[1].lower().strip(",;:")) if len(words) > 1 else ""
        return bool(noun) and noun in {fold_word(w) for w in facts.text.split()} | set(facts.terms)
    return first in _ANAPHORS


def _heads(term: str) -> set[str]:
    """The first two characters of a Chinese subject, with a locative after one character read alike: 园中, 园内
    and 园里 all say "in the garden"."""
    if len(term) > 1 and term[1] in "中内里":
        return {term[0] + c for c in "中内里"}
    return {term[:2]}


def _other_names(facts: ClaimFacts, ev: Evidence, *, whole: bool = True) -> bool:
    """True when the evidence sentence, or its passage before it, is about something the claim does not name: the
    first name of one of those sentences, a capitalised word or sequence inside a sentence (not its first word,
    not a function word, not an acronym; with ``whole`` only), or, in Chinese, a subject whose first two
    characters differ from the claim's. A name holding one of the claim's ("Captain Roderick Amsel") is no other
    name, nor are the function words around one ("The Lamplighter's Daughter")."""
    ours = {w for n in facts.names for w in n.words}
    ours_cjk = [fold(n.words[0])[:2] for n in facts.names if n.cjk]
    claim_word_sets = [set(n.words) for n in facts.names if not n.cjk]
    claim = fold(facts.text)
    earlier = sentences_of(ev.earlier)
    for sentence in [*earlier, ev.text]:
        # What a sentence before the evidence is about is a name it opens with; in the evidence sentence itself,
        # also any name of two words or more, or with digits ("… a 1962 novel by Marta Hein", "AX5400"): a place
        # named further on ("… shot near Halvey") is no other subject, nor is what 该, 这 refer back to.
        for name in _subjects(sentence, whole=whole and sentence is ev.text):
            if name.cjk:
                if ours_cjk and not any(h in claim for h in _heads(fold(name.words[0]))):
                    return True
                continue
            words = set(name.words)
            if name.initial or words - STOPWORDS <= ours or any(n <= words for n in claim_word_sets):
                continue
            if len(name.words) == 1 and (name.words[0] in STOPWORDS or name.text.isupper()):
                continue
            return True
    return False


_OPENING_WORDS = 4


def _subjects(sentence: str, *, whole: bool) -> list[Name]:
    """The names that may say what ``sentence`` is about: the name it opens with, when it starts within its first
    few words (a Chinese subject only when no demonstrative opens the sentence); with ``whole``, also its names
    of two words or more and its names with digits."""
    names = claim_names(sentence)
    out: list[Name] = []
    if names and names[0].cjk and not _CJK_LEAD_IN.sub("", names[0].text):
        names = claim_names(_CJK_LEAD_IN.sub("", sentence))  # "如今，红星纱厂…": the subject after the time word
    if names:
        name = names[0]
        if name.cjk:
            opening = plain(_CJK_LEAD_IN.sub("", sentence.lstrip('“"《（(')))
            back = opening.startswith(_CJK_BACK) or (len(opening) > 1 and opening[1] in "中内里上")
            # a time word before the name ("近年来红星纱厂…") is no part of it
            text = _CJK_LEAD_IN.sub("", name.text)
            named = Name(text, (fold(text),), cjk=True) if text != name.text else name
            out += [] if back or not text or text not in opening else [named]
        else:
            at = sentence.find(name.text)
            out += [name] if at >= 0 and len(sentence[:at].split()) < _OPENING_WORDS else []
    if whole:
        out += [
            n for n in names if not n.cjk and n not in out and (len(n.words) > 1 or any(c.isdigit() for c in n.text))
        ]
    return out


def sentences_of(text: str) -> list[str]:
    return [text[s:e] for s, e in sentence_spans(text)] if text else []


def named(name: Name, ev: Evidence, context: str) -> bool:
    """True when ``name`` occurs in the evidence sentence or earlier in its passage (a capitalised word opening
    the claim counts as a name only when the passage never writes it in lower case)."""
    upto = ev.earlier + ev.text
    if name.cjk:  # where a Chinese subject ends is not marked: its first two characters must be written
        return _cjknamed(fold(name.words[0]), fold(upto), fold(ev.text))
    if name.initial and (name.words[0] in _lower_words(context) or name.words[0] not in folded_words(context)):
        return True  # an opening word the passage writes in lower case, or never: "Ships longer than …"
    return set(name.words) <= folded_words(upto)


def _cjknamed(term: str, upto: str, sentence: str) -> bool:
    """A Chinese subject is named when its first two characters are written, or half its bigrams and two at least
    are (its opening word may be a verb: 连接南屿岛的大桥), or the evidence sentence opens with its head noun, perhaps
    after 该, 本, 这: 学院最初… for 汀澜音乐学院; a noun in 子 is named by its first character after a demonstrative
    (此亭 for 亭子), a person by surname and 氏 (邓氏 for 邓怀远); a word of two characters by its second after 该,
    本 or 此 in the sentence (本院 for 法院) or by the longer word it shortens past its classifier (首航 for
    首个航班)."""
    if any(head in upto for head in _heads(term)):
        return True
    bigrams = [term[i : i + 2] for i in range(len(term) - 1)]
    found = sum(b in upto for b in bigrams)
    if found >= 2 and found * 2 >= len(bigrams):
        return True
    if len(term) == 2 and term[1] == "子" and any(d + term[0] in upto for d in "该这此本其"):
        return True  # 此亭 for 亭子: the noun without its suffix, after a demonstrative
    if 2 <= len(term) <= 3 and term[0] + "氏" in upto:
        return True  # 邓氏 for 邓怀远: a person by surname and 氏
    if len(term) == 2 and has_cjk(term) and any(d + term[1] in sentence for d in "该本此"):
        return True  # 本院于…立案 for 法院, 该校 for 学校: the noun's head after a demonstrative
    if len(term) == 2 and f"{term[0]}个{term[1]}" in sentence:
        return True  # 首航 for 首个航班: a word shortened past its classifier (not 张伟 for 张小伟)
    head = term[-2:]
    return len(term) > 2 and sentence.lstrip("该本这此其").startswith(head)


@lru_cache(maxsize=1024)
def _lower_words(text: str) -> frozenset[str]:
    return frozenset(w for w in folded_words(text) if w in unicodedata.normalize("NFKC", text))
