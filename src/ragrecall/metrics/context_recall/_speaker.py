"""The speaker check: what the claim gives to a named person ("Ada Renwick said that …", 王建平表示…) is what the
evidence gives to the same person, not to another speaker of the same sentence ("…; the hospital's director,
Paul Ng, said that …"). Deterministic, no LLM call.

The claim's speaker is what it writes before a verb of saying: its capitalised words, or in Chinese the two
characters before the verb. In the evidence sentence, the verb of saying
nearest before the end of the clauses stating the claim opens what was said; its speaker is written between
that verb and the clause boundary before it (a semicolon, a full stop, or the verb of saying before). A speaker
written as a pronoun ("She said", 他表示) is not read: coreference is not resolved. The claim's speaker counts as
written when one of its words (in Chinese, its two characters) is.
"""

from __future__ import annotations

import re

from ...text.anaphora import opens_with
from ...text.cues import plain
from ...text.locate import fold
from ...text.names import claim_names, folded_words
from ...text.segment import has_cjk, sentence_spans
from ...text.terms import STOPWORDS
from ._facts import PROBLEMS, ClaimFacts, Failure
from ._scope import Scope

__all__ = ["speaker_failure"]

_SAYING = re.compile(
    r"\b(?:said|says|stated|told|argued|claimed|insisted|announced|warned)\b"
    r"|表示|指出|声称|聲稱|强调|強調|透露|宣布",
    re.IGNORECASE,
)
# Where what a speaker said ends, looking back from a verb of saying.
_BOUNDARY = re.compile(r"[;；。.!?！？]")
_CAPITALISED = re.compile(r"\b[A-Z][^\W\d_]+")
# Adverbs between a Chinese speaker and the verb: 刘敏则表示, 他也称.
_CJK_PARTICLES = re.compile(r"[则則也还還又曾亦就均都]+$")
# A speaker opening with a pronoun ("She later said", 他随后表示) is not read: coreference is not resolved.
_PRONOUNS = ("pronoun", "first person")
# Titles two speakers may share: "Mayor" names no one.
_TITLES = frozenset(
    [
        "mayor",
        "deputy",
        "minister",
        "director",
        "president",
        "chair",
        "chairman",
        "chairwoman",
        "chief",
        "dr",
        "mr",
        "mrs",
        "ms",
        "professor",
        "prof",
        "sir",
    ]
)


def speaker_failure(facts: ClaimFacts, scope: Scope, earlier: str = "") -> Failure | None:
    """A failure when the claim's speaker is not the speaker of what the evidence's clauses say, or None. A
    speaker named by a noun ("The company said") is a name the sentence before ``earlier`` (the passage before the
    evidence) writes, when it writes one: the claim's speaker when that is among them, else the last."""
    claim = plain(facts.text)
    said = _SAYING.search(claim)
    if said is None:
        return None
    speaker = _claim_speaker(claim, said.start())
    if speaker is None:
        return None
    theirs = _evidence_speaker(scope)
    if theirs is None:
        before = _named_before(scope, earlier)
        # "The defense argued" after "In Harlan v. Greystone Logistics, the … Court of Appeals ruled": the noun may
        # stand for any name the sentence before writes
        if any(_written(speaker, name) for name in before):
            return None
        theirs = before[-1] if before else None
    if theirs is None or _written(speaker, theirs):
        return None
    return Failure("speaker", f"{PROBLEMS['speaker']}: {speaker} in the claim, “{theirs.strip()}” in the evidence")


def _claim_speaker(claim: str, at: int) -> str | None:
    """Who the claim says spoke, before the verb of saying at ``at``: its capitalised words ("Castellan Freight's
    lawyers": Castellan Freight), or, in Chinese, the last two characters (a person's name after a title:
    市卫健委主任王建平); None when it names no one."""
    head = claim[max([m.end() for m in _BOUNDARY.finditer(claim, 0, at)] + [0]) : at]
    if has_cjk(head):
        head = _CJK_PARTICLES.sub("", head.rstrip())
        return head[-2:] if len(head) >= 2 and not opens_with(head[-1:], *_PRONOUNS) else None
    names = [w for w in _CAPITALISED.findall(head) if w.casefold() not in STOPWORDS | _TITLES]
    return " ".join(names) or None


def _evidence_speaker(scope: Scope) -> str | None:
    """The words naming who says the clauses of ``scope``, or None when no verb of saying opens them or the
    speaker is unnamed (a pronoun, nothing)."""
    text = scope.text
    verbs = [m for m in _SAYING.finditer(text) if m.start() < scope.last]
    if not verbs:
        return None
    verb = verbs[-1]
    start = max([m.end() for m in _BOUNDARY.finditer(text, 0, verb.start())] + [0])
    start = max([start] + [m.end() for m in verbs[:-1] if m.end() <= verb.start()])
    who = _CJK_PARTICLES.sub("", text[start : verb.start()].rstrip())
    if not who.strip() or opens_with(who, *_PRONOUNS):
        return None
    if not has_cjk(who) and not any(w.casefold() not in STOPWORDS for w in _CAPITALISED.findall(who)):
        return None  # "the court said", "The company said": no name to compare
    return who


def _named_before(scope: Scope, earlier: str) -> list[str]:
    """For a speaker written as "The company", "the council": the names, not opening their sentence alone, of the
    sentence before the evidence, in order; none for any other speaker, or none named."""
    text = scope.text
    verbs = [m for m in _SAYING.finditer(text) if m.start() < scope.last]
    if not verbs or not _DEFINITE.match(text[: verbs[-1].start()]):
        return []
    before = sentence_spans(earlier)
    if not before:
        return []
    s, e = before[-1]
    return [n.text for n in claim_names(earlier[s:e]) if not n.initial and not n.cjk]


# "The company said", "The firm's spokesman said": a noun standing for a name.
_DEFINITE = re.compile(r"^\W*the\s+[a-z]+(?:['’]s\s+[a-z]+)?\s*$", re.IGNORECASE)


def _written(speaker: str, words: str) -> bool:
    """Whether the evidence's speaker ``words`` name the claim's: its two characters, or one of its words."""
    if has_cjk(speaker):
        return fold(speaker) in fold(words)
    return bool(folded_words(speaker) & folded_words(words))
