"""The predicate check: the evidence says what the claim says beyond its names and numbers, in the claim's words
or in words code knows to mean the same (:mod:`ragrecall.text.cues`); what it cannot read is a note, not a
failure. Deterministic, no LLM call."""

from __future__ import annotations

import re
from collections.abc import Sequence

from ...text.anaphora import opens_with
from ...text.cues import cues_in, plain, verb_of
from ...text.negation import negations
from ...text.numbers import numbers_in
from ...text.segment import has_cjk
from ...text.terms import is_function_word
from ._evidence import Quote
from ._facts import PROBLEMS, ClaimFacts, Evidence, Failure, SentenceSource
from ._said_otherwise import dated
from ._subject import sentences_of
from ._words import strict_terms, words

__all__ = ["held_terms", "meanings", "predicate_failure"]

_MIN_COVERAGE = 0.5


def predicate_failure(
    facts: ClaimFacts, quotes: Sequence[Quote], evidence: list[Evidence], _: SentenceSource
) -> Failure | None:
    """The evidence holds what the claim says beyond its names and numbers: one of those terms (for Chinese, a
    bigram, counting the sentence before the evidence, which may name the thing), or a word of the same meaning
    (:func:`_meanings`: "passed away" for "died", "smaller" for "larger" in a converse); and half of all the
    claim's terms.

    When it does not, but the claim has two names or numbers or more, all in the evidence (the checks before
    passed), its predicate is no event code knows the kind of ("was born", "won": a contrast or an outcome of
    :mod:`ragrecall.text.cues`) and no word of it is one code knows to mean another thing than a word of the
    evidence's ("graduated" is not "entered"), the predicate is *unread*: said in the evidence as a note, left
    to the judge and the confirmer, not a failure."""
    if not facts.terms:
        return None
    text = " ".join(ev.text for ev in evidence)
    ours, theirs = meanings(facts.text), meanings(text)
    if ours & theirs or not _predicate_missing(facts, evidence, text) or _change_in_figures(facts, ours, text):
        return None
    other = any(m.startswith("syn:") for m in ours) and any(m.startswith("syn:") for m in theirs)
    # An event code knows the kind of (born, died, founded, won: a contrast or an outcome) is not left unread.
    event = any(m.startswith(_EVENTS) for m in ours)
    if len(facts.names) + len(facts.numbers) >= 2 and not other and not event:
        return Failure("unread", f"{PROBLEMS['unread']}: its words are not in the evidence", unread=True)
    return Failure("predicate", PROBLEMS["predicate"])


def _change_in_figures(facts: ClaimFacts, ours: frozenset[str], text: str) -> bool:
    """Whether the claim's rise or fall ("grew from 400 in 2010 to 650 in 2018") is what the evidence's figures of
    two years say ("had 400 staff in 2010 and 650 in 2018"): the claim's numbers, dated, later larger for a rise,
    smaller for a fall."""
    direction = "up" if "con:change:up" in ours else "down" if "con:change:down" in ours else None
    if direction is None:
        return False
    figures = sorted((year, float(q.value)) for year, q in dated(text) if q.value in facts.numbers)
    if len(figures) < 2 or figures[0][0] == figures[-1][0]:
        return False
    first, last = figures[0][1], figures[-1][1]
    return last > first if direction == "up" else last < first


def _predicate_missing(facts: ClaimFacts, evidence: list[Evidence], text: str) -> bool:
    rest = {t for t in facts.bigrams - facts.name_terms if not _functional(t)}
    if rest:
        said = strict_terms(text) | (words(text) if "cjk" in facts.scripts else frozenset())
        if "cjk" in facts.scripts:  # the thing may be named in the sentence before ("…红豆杉。保护区内现存约1,300棵")
            before = " ".join(s for ev in evidence for s in sentences_of(ev.earlier)[-1:])
            said |= strict_terms(before) | words(before)
        if not rest & said and not {_root(t) for t in rest} & _roles_held(text):
            return True
    held = frozenset().union(*(held_terms(ev) for ev in evidence))
    # A sentence opening with a pronoun, or with "The" and a noun of the sentence before, says what it is about
    # there ("… the mail route between Vienna and Budapest. She flew it for six years …"; "… opened a new day
    # surgery centre. The centre has six operating theatres")
    held = held.union(
        *(
            words(s)
            for ev in evidence
            for s in sentences_of(ev.earlier)[-1:]
            if "cjk" in facts.scripts or opens_with(ev.text, "pronoun", "demonstrative") or _definite(ev.text, s, facts)
        )
    )
    named = frozenset().union(*(words(n.text) for n in facts.names))
    return len(facts.terms & (held | named)) / len(facts.terms) < _MIN_COVERAGE


def _definite(sentence: str, before: str, facts: ClaimFacts) -> bool:
    """Whether ``sentence`` opens with "The" and a noun ``before`` writes after a word of the claim ("The centre"
    after "a new day surgery centre" for the day surgery unit; not "The clinic" after "a dental clinic" for the
    eye unit)."""
    found = _THE_NOUN.match(sentence)
    if found is None:
        return False
    noun = re.compile(rf"([^\W\d_]+)\s+{re.escape(found.group(1))}\b", re.IGNORECASE)
    return any(words(m.group(1)) & facts.terms for m in noun.finditer(before))


_THE_NOUN = re.compile(r"\W*the\s+([^\W\d_]+)\b", re.IGNORECASE)
_DATE_OF_LIFE = r"\d{4}(?:[-./]\d{1,2}[-./]\d{1,2})?年?"  # 1871, 1898-02-17, 1902年
_LIFE_DATES = re.compile(rf"\(\s*(?:b\.\s*|born\s+)?{_DATE_OF_LIFE}\s*[–—-]+\s*(?:d\.\s*)?{_DATE_OF_LIFE}\s*\)")
# "(b. 1898-02-17, Delfzand; d. 1961-09-04, Utrecht)": born and died, abbreviated before a date.
_BORN_SHORT = re.compile(r"\(\s*b\.\s*[^()]*?\d{4}")
_DIED_SHORT = re.compile(r"(?:\(|[;,]\s)\s*d\.\s*[^()]*?\d{4}")
_EVENTS = ("out:", "con:life:", "con:works:", "con:body:", "con:open:", "con:member:", "con:change:")
"""The meanings that name an event (born, built, founded, opened, joined, rose; won): a claim of one is not
left unread."""
_MEANING_CLASSES = {"synonym": "syn", "contrast": "con", "outcome": "out", "relation": "rel"}


def meanings(text: str) -> frozenset[str]:
    """What the cue words of ``text`` mean, as keys two texts share when they say the same thing in other words:
    a synonym group, a contrast value, an outcome, a relation, the dimension of a comparison; a person's life
    dates after the name ("Ottilie Brankstone (1871–1940)") say born and died."""
    out = set()
    if _LIFE_DATES.search(plain(text)):
        out |= {"con:life:born", "con:life:died", "syn:die"}
    if _BORN_SHORT.search(text):
        out.add("con:life:born")
    if _DIED_SHORT.search(text):
        out |= {"con:life:died", "syn:die"}
    for cue in cues_in(text):
        if cue.cls in _MEANING_CLASSES:
            value = verb_of(cue) if cue.cls == "relation" else cue.value
            out.add(f"{_MEANING_CLASSES[cue.cls]}:{value}")
        elif cue.cls in ("comparative", "temporal", "direction"):
            out.add("pol:" + cue.value.rstrip("0123456789").rstrip("+-"))
    return frozenset(out)


def _root(term: str) -> str:
    """A stemmed English verb without its ending: "manages" and "manage" share "manag"."""
    return _ENDING.sub("", term) if len(term) > 4 and term.isascii() else term


_ENDING = re.compile(r"(?:e?r|or|e)$")


def _roles_held(text: str) -> set[str]:
    """The roots of the agent nouns ``text`` writes as someone's role ("Its manager is Imogen Walsh", "the
    editor, Ann Cole", "Quillfire's founder"): they say the verb ("manages", "edits", "founded"); not "a founder
    member", a kind of membership."""
    return {_root(t) for m in _AGENT_ROLE.finditer(text) for t in strict_terms(m.group(1))}


_AGENT_ROLE = re.compile(
    r"(?:\b(?:its|the|his|her|their|whose)|['’]s)\s+([a-z]+(?:er|or))\b(?!\s+(?:member|members)\b)", re.I
)


def _functional(term: str) -> bool:
    """True for a CJK bigram holding a function character (于, 是, 在, 至 …) or a negation (the polarity check
    reads those): it says how, not what."""
    return (
        has_cjk(term)
        and len(term) == 2
        and (any(is_function_word(c) or c in "至到" for c in term) or bool(negations(term)))
    )


def held_terms(ev: Evidence) -> frozenset[str]:
    return words(ev.text) | numbers_in(ev.text)
