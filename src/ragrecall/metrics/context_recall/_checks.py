"""What code checks on the evidence of a "supported" verdict: the sentence that holds each quote, not only the
quoted span. Deterministic, no LLM call.

Each located quote is widened to the sentence(s) of its context that hold it (:class:`Evidence`). Against that
evidence, in this order, a claim must pass:

- *script*: a quote that shares no word and no number with the claim fails whenever the claim and the quote's
  context share a script (the exemption is only for a passage written in another script than the claim);
- *polarity*: the clauses stating the claim (:class:`._scope.Scope`) negate as the claim does, a sentence-wide
  cue before them ("It is false that", as far as a semicolon) included, a denial after them ("…, which was
  later disproven", opening the next sentence too) turning it round;
- *what the sentence asserts*: its frames and cue values (:mod:`._reading`) and the roles of its parties
  (:mod:`._roles`);
- *subject* (:mod:`._subject`): every name of the claim is named by the evidence, or earlier in its passage;
- *numbers* (:mod:`._quantities`, as units and ranges): every number of the claim, written with digits or in
  words, scale words read, dates as dates, is in the evidence sentences (a year or date may be the passage's:
  written earlier, or counted from it, "the following year"; or, in a passage writing no year, another's);
- *units*: a number of the claim with a unit is written in the evidence with the same unit, or with none
  (``42 miles`` is not ``42 km``; ``42 km`` is ``42公里``; percentage points are not per cent);
- *ranges*: a range the claim states is a range of the evidence, or a start and an end it writes;
- *several quotes*: quotes from different passages each carry a part of the claim's terms that the others
  lack; fragments that each share a word do not add up;
- *predicate* (:mod:`._predicate`): the evidence says what the claim says beyond its names and numbers; what
  code cannot read there is a note, not a failure.

Evidence written in another script than the claim (a Chinese passage for an English claim) is checked for
numbers and ranges only: its words cannot be compared with the claim's. Each failure has its own
:data:`PROBLEMS` key and problem text.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence

from ...text.anaphora import opens_with
from ...text.negation import (
    admits,
    denied_after,
    denies_the_next_sentence,
    denies_the_sentence_before,
    endings,
    negates,
    negations,
    sentence_cues,
    sentence_negated_before,
    unnegated,
    verbal_negation,
)
from ...text.numbers import numbers_in, quantities
from ...text.relative_years import derived_years
from ...text.segment import has_cjk, last_sentence
from ...text.terms import base_form
from ._described import described
from ._evidence import Quote
from ._facts import PROBLEMS, ClaimFacts, Evidence, Failure, SentenceSource, claim_facts, failed
from ._predicate import held_terms, meanings, predicate_failure
from ._quantities import is_year, numbers_failure, ranges_failure, units_failure
from ._reading import reading_failure
from ._roles import roles_failure
from ._scope import Scope, reports_itself
from ._speaker import speaker_failure
from ._subject import named, refers_back, shortened, subject_failure
from ._words import base_forms, script_of, strict_terms, words

__all__ = ["check_evidence", "negated_around"]


def check_evidence(
    claim: str, quotes: Sequence[Quote], evidence: list[Evidence], contexts: SentenceSource
) -> Failure | None:
    """The first check (module docstring) that the located ``quotes``, widened to ``evidence`` (one each, in
    order), fail as evidence of ``claim``, or None.

    Quotes from several passages pass when each passage's quotes alone pass every check (the claim stated
    several times over), or when together they pass and add up (:func:`_several`)."""
    facts = claim_facts(claim)
    if facts.scripts and not any(facts.scripts & script_of(contexts.texts[ev.context]) for ev in evidence):
        # Evidence in another script than the claim: its words cannot be compared, its numbers can.
        return numbers_failure(facts, quotes, evidence, contexts) or ranges_failure(facts, quotes, evidence, contexts)
    stated_nothing = _script(facts, quotes, evidence, contexts)  # every quote must say something, whatever else
    if stated_nothing is not None:
        return stated_nothing
    passages = sorted({ev.context for ev in evidence})
    if len(passages) > 1:
        alone = [
            _run(
                facts,
                [q for q, ev in zip(quotes, evidence, strict=True) if ev.context == c],
                [ev for ev in evidence if ev.context == c],
                contexts,
            )
            for c in passages
        ]
        if all(f is None for f in alone):
            return None
        return _several(facts, quotes, evidence, contexts) or _run(facts, quotes, evidence, contexts)
    return _run(facts, quotes, evidence, contexts)


_Check = Callable[[ClaimFacts, Sequence[Quote], list[Evidence], SentenceSource], "Failure | None"]


def _run(
    facts: ClaimFacts, quotes: Sequence[Quote], evidence: list[Evidence], contexts: SentenceSource
) -> Failure | None:
    """The checks after the script check, which :func:`check_evidence` runs first on every quote."""
    checks: tuple[_Check, ...] = (
        _polarity,
        _asserted,
        subject_failure,
        numbers_failure,
        units_failure,
        ranges_failure,
        predicate_failure,
    )
    note: Failure | None = None
    for check in checks:
        result = check(facts, quotes, evidence, contexts)
        if failed(result):
            return result
        note = note or result
    return note


def _script(
    facts: ClaimFacts, quotes: Sequence[Quote], evidence: list[Evidence], contexts: SentenceSource
) -> Failure | None:
    for q in quotes:
        said = words(q.passage or "")
        if _anchors_a_year(facts, q.passage or "", evidence):
            continue  # "In 2011 …" quoted for the year another quote counts from ("… expanded two years later")
        if not said and not _states_numbers(facts, q.passage or ""):
            return Failure("states_nothing", PROBLEMS["states_nothing"])
        if (
            facts.terms
            and not facts.terms & said
            and not meanings(facts.text) & meanings(q.passage or "")
            and not facts.numbers & numbers_in(q.passage or "")
            and facts.scripts & script_of(contexts.texts[q.context])
            and not _antecedent(q, quotes)
        ):
            return Failure("off_topic", PROBLEMS["off_topic"])
    return None


def _antecedent(quote: Quote, quotes: Sequence[Quote]) -> bool:
    """Whether ``quote`` says what another quote's opening pronoun refers to: it stands before that quote in the
    same passage ("The island is small" for "it has a big seabird colony")."""
    return any(
        other is not quote
        and other.context == quote.context
        and opens_with(other.passage or "", "subject pronoun")
        and quote.end is not None
        and other.start is not None
        and quote.end <= other.start
        for other in quotes
    )


def _anchors_a_year(facts: ClaimFacts, quote: str, evidence: list[Evidence]) -> bool:
    """Whether ``quote`` writes the year a relative year of an evidence sentence counts from, giving a year of
    the claim."""
    years = [n for n in numbers_in(quote) if is_year(n)]
    return bool(years) and bool(facts.numbers & frozenset().union(*(derived_years(ev.text, quote) for ev in evidence)))


_AGE_QUOTED = re.compile(r"(?:he|she|they)\s+(?:was|is|were|are)\s+(?:aged\s+)?\d{1,3}", re.IGNORECASE)
_AGE = re.compile(r"\b(?:age|aged|years\s+old)\b", re.IGNORECASE)


def _states_numbers(facts: ClaimFacts, quote: str) -> bool:
    """Whether a quote of no words states the claim's numbers: a bare number from a list states nothing, but a
    whole date ("b. 1898-02-17"), two of the claim's numbers ("up from 940 in 2001"), one with its unit ("to
    4.1%") or an age ("He was 91" for a claim of the age of 91) do."""
    ours = facts.numbers & numbers_in(quote)
    if any(len(n) == 10 and n[4] == "-" for n in ours) or len(ours) >= 2:
        return True
    if ours and _AGE_QUOTED.fullmatch(quote.strip(" .")) and _AGE.search(facts.text):
        return True  # "He was 91" for "died … at the age of 91"
    return any(q.units and q.value in ours for q in quantities(quote))


def _polarity(
    facts: ClaimFacts, quotes: Sequence[Quote], evidence: list[Evidence], _: SentenceSource
) -> Failure | None:
    note: Failure | None = None
    if denies_the_sentence_before(facts.text) and not any(
        denies_the_sentence_before(ev.text) or negations(ev.text) for ev in evidence
    ):
        # "安和药业否认了这一说法" against "安和药业承认了这一说法": a denial the evidence does not write
        return Failure("polarity", f"{PROBLEMS['polarity']}: the claim denies, its evidence does not")
    if admits(facts.text) and any(denies_the_sentence_before(ev.text) for ev in evidence):
        # "周明承认票价过高" against "周明对此予以否认"
        return Failure("polarity", f"{PROBLEMS['polarity']}: the evidence denies what the claim says was granted")
    for ev in evidence:
        around = negated_around(ev, facts)
        if facts.negated and around and set(sentence_cues(ev.text)) - set(sentence_cues(facts.text)):
            # "It is not true that Hal Brook voted against the budget" for "Hal Brook voted against the budget": a
            # sentence-wide cue over the claim's own negation (no verb's, which it would turn round) denies it
            return Failure("polarity", f"{PROBLEMS['polarity']}: the evidence denies the claim")
        if around and not facts.negated and _last_since(facts.text, ev.text):
            continue  # "last erupted in 1640" is what "has not erupted since 1640" says
        if around != facts.negated and not _ceasing(facts, ev, negated=facts.negated):
            if facts.negated and not _denies_what_it_says(facts, ev):
                note = note or Failure("unread", f"{PROBLEMS['unread']}: the claim denies in other words", unread=True)
                continue
            side = "the claim is negated, its evidence is not" if facts.negated else "the evidence negates the claim"
            return Failure("polarity", f"{PROBLEMS['polarity']}: {side}")
    return note


def _denies_what_it_says(facts: ClaimFacts, ev: Evidence) -> bool:
    """Whether code can read that the evidence sentence says the opposite of the negated claim: it writes the verb
    the claim's negation governs ("did not win the cup" against "won the cup", "never formally approved" against
    "approved", 青石大桥没有通车 against 青石大桥已经通车), or every word of the claim but its negations and names.
    A claim that denies in words the evidence does not write ("does not freeze" against "stays ice-free", "No
    lighthouse is as tall as Kells Point" against "Kells Point is the tallest lighthouse") is the judge's reading,
    and said so in a note."""
    held = strict_terms(base_forms(ev.text))
    governed = _governed(facts.text)
    if governed is not None and governed in held:
        return True
    return strict_terms(base_forms(unnegated(facts.text))) - facts.name_terms <= held


def _governed(claim: str) -> str | None:
    """The term of the verb a negation of ``claim`` governs, past auxiliaries and adverbs ("did not formally
    approve" → approve; 没有正式通车 → 通车), or None when no verbal negation stands in it ("No lighthouse …")."""
    found = verbal_negation(claim)
    if found is None:
        return None
    rest = claim[found.end() :]
    if has_cjk(found.group()):
        rest = _CJK_BEFORE_VERB.sub("", rest)
        return rest[:2] if len(rest) >= 2 and has_cjk(rest[:2]) else None
    for word in _LATIN_WORD.findall(rest.lower()):
        if word in _AUXILIARIES or word.endswith("ly"):
            continue
        terms = strict_terms(base_form(word))
        return next(iter(terms), None)
    return None


# What may stand between a Chinese negation and its verb: 没有曾经…, 未能…, 没有被…, 没有正式…
_CJK_BEFORE_VERB = re.compile(r"^(?:曾经|曾|能够|能|再|会|被|得到|得|有|正式|完全)+")
_AUXILIARIES = frozenset(
    [
        "be", "been", "being", "is", "was", "were", "are", "am", "have", "has", "had", "do", "does", "did", "yet",
        "ever", "even", "always", "once", "still", "also", "quite", "really", "actually", "fully", "officially",
        "entirely", "completely",
    ]
)  # fmt: skip


_LATIN_WORD = re.compile(r"[A-Za-z]+")


def _ceasing(facts: ClaimFacts, ev: Evidence, *, negated: bool) -> bool:
    """Whether the side that does not negate (the evidence sentence, or the claim) says that something ended,
    was spared or waived, with a word of ending the other side does not write in any form ("did not end" against
    "ended", "did not give up" against "gave up" are no agreement)."""
    plain_side, other = (ev.text, facts.text) if negated else (facts.text, ev.text)
    written = {w[:3] for w in re.findall(r"[^\W\d_]+", other.casefold().replace("gave", "give"))}
    return any(
        (word.replace("gave", "give")[:3] not in written) if word.isascii() else word not in other
        for word in endings(plain_side)
    )


def _last_since(claim: str, sentence: str) -> bool:
    """Whether ``claim`` says when something last happened ("last erupted in 1640", 最后一次喷发是在1640年) and
    ``sentence`` that it has not happened since that year, with the same verb ("has not erupted since 1640",
    1640年以来再未喷发)."""
    ours = _LAST.search(claim) or _LAST_CJK.search(claim)
    theirs = _NOT_SINCE.search(sentence) or _NOT_SINCE_CJK.search(sentence)
    if ours is None or theirs is None or ours.group("year") != theirs.group("year"):
        return False
    verb, their_verb = ours.group("verb"), theirs.group("verb")
    return verb == their_verb if has_cjk(verb) else base_form(verb.lower()) == base_form(their_verb.lower())


_LAST = re.compile(r"\blast\s+(?P<verb>[a-z]+)\s+(?:in|during)\s+(?P<year>\d{4})\b", re.IGNORECASE)
_LAST_CJK = re.compile(r"最[后近]一次(?P<verb>[\u4e00-\u9fff]{2})(?:是|发生)?在?(?P<year>\d{4})年")
_NOT_SINCE = re.compile(
    r"\b(?:has|have|had)\s+(?:not|never)\s+(?:been\s+)?(?P<verb>[a-z]+)\s+(?:again\s+)?since\s+(?P<year>\d{4})\b",
    re.IGNORECASE,
)
_NOT_SINCE_CJK = re.compile(
    r"(?P<year>\d{4})年(?:以来|之后|后)[^，。；]{0,6}?(?:未再|再未|没有再|再没有|未|没有)(?P<verb>[\u4e00-\u9fff]{2})"
)


def negated_around(ev: Evidence, facts: ClaimFacts, scope: Scope | None = None) -> bool:
    """Whether the clauses of ``ev`` that state the claim (:class:`._scope.Scope`) negate, or a sentence-wide
    cue before the first of them does ("It is false that …", as far back as a semicolon), unless a denial
    after them ("…, but that is a legend", "…, which was later disproven", 其实并非如此), in the sentence or
    opening the next one, turns it round; or, with no negation, whether such a denial follows. A clause that
    holds none of the claim's terms ("The ferry, which did not run in the war, carried …"; "Its white flowers,
    which open in July, have no leaves") is not read."""
    sentence = ev.text
    # A claim that reports ("Critics claimed that …") is not denied by a denial of what was reported.
    reported = reports_itself(facts.text, ev.text)
    # "The following account … is false. <the claim's sentence>": the sentence before denies it
    before = not reported and bool(ev.earlier) and denies_the_next_sentence(last_sentence(ev.earlier))
    if not negations(sentence) and not denied_after(sentence):
        # No cue of any kind in the sentence, so none in any of its clauses or after them: only the sentences
        # around it can deny it.
        return not reported and (before or denied_after(ev.later, opening=True))
    scope = scope or Scope.of(ev, facts)
    text, clauses = scope.text, scope.clauses
    # A sentence-wide cue reaches no further than a semicolon: "It is false that A; B".
    since = max(text.rfind(";", 0, scope.first), text.rfind("；", 0, scope.first)) + 1
    # "It is false that the well never froze": a sentence-wide cue over a negated clause asserts it froze.
    negated = any(
        negates(_aside(text[clauses[i][0] : clauses[i][1]], facts)) for i in scope.core
    ) != sentence_negated_before(text[since:], scope.first - since)
    denied = before or (not reported and (denied_after(text[scope.last :]) or denied_after(ev.later, opening=True)))
    return negated != denied  # "… have never been relegated, but this is a myth": denied, a negation is not


def _aside(clause: str, facts: ClaimFacts) -> str:
    """``clause`` without a "without …" phrase that holds none of the claim's terms, where the rest holds them
    all: "approved quenbimab in 2020 without requiring further trials" negates the trials, not the approval; and
    without what a verb of ruling or finding says after "that" when that holds none of the claim's terms but its
    names ("ruled 2–1 that the company had not violated the statute" for "the ruling was split 2–1")."""
    found = _WITHOUT.search(clause)
    if found is not None and not strict_terms(found.group()) & facts.terms:
        rest = clause[: found.start()] + clause[found.end() :]
        # the claim says nothing the rest does not ("had an accident" against "ran its first year without incident")
        if facts.terms <= words(rest):
            return rest
    found = _RULED_THAT.search(clause)
    if found is not None and not strict_terms(found.group("what")) & (facts.terms - facts.name_terms):
        return clause[: found.start("what")]
    return clause


_WITHOUT = re.compile(r"\bwithout\b[^,;:—–]*", re.IGNORECASE)
_RULED_THAT = re.compile(
    r"\b(?:ruled|found|held|concluded|decided|determined)\b[^,;:]{0,12}?\bthat\b(?P<what>[^;:—–]*)", re.IGNORECASE
)


def _asserted(
    facts: ClaimFacts, quotes: Sequence[Quote], evidence: list[Evidence], _: SentenceSource
) -> Failure | None:
    """Each evidence sentence asserts what the claim asserts: the same frames and cue values
    (:mod:`._reading`), the same roles (:mod:`._roles`) and the same speaker (:mod:`._speaker`)."""
    for ev in evidence:
        scope = Scope.of(ev, facts)
        failed = (
            reading_failure(facts, scope)
            or roles_failure(facts, scope, ev.earlier)
            or speaker_failure(facts, scope, ev.earlier)
        )
        if failed is not None:
            return failed
    return None


def _several(
    facts: ClaimFacts, quotes: Sequence[Quote], evidence: list[Evidence], contexts: SentenceSource
) -> Failure | None:
    """Quotes from several passages that do not each state the claim add up only when each passage names the
    claim's subject (its first name) and each carries a part of the claim's terms and numbers the others lack."""
    passages = {ev.context for ev in evidence}
    if len(passages) < 2:
        return None
    subject = next(iter(facts.names), None)
    if subject is not None:
        for c in passages:
            here = [ev for ev in evidence if ev.context == c]
            # "It spans 92 metres": a passage that opens on a pronoun and names nothing else refers back to the
            # subject another passage names (:func:`._subject.refers_back`)
            if not any(
                named(subject, ev, contexts.texts[c])
                or shortened(subject, ev, contexts)
                or described(subject, ev, contexts)
                for ev in here
            ) and not refers_back(subject, facts, here, contexts, passage_opening=True):
                return Failure("unrelated", f"{PROBLEMS['unrelated']}: passage {c + 1} does not name {subject.text}")
    wanted = facts.terms | facts.numbers
    parts = {c: wanted & frozenset().union(*(held_terms(ev) for ev in evidence if ev.context == c)) for c in passages}
    for c in passages:  # the year a relative year of another passage counts from ("1987年…" with "第二年")
        base = " ".join(ev.text for ev in evidence if ev.context == c)
        parts[c] |= facts.numbers & frozenset().union(
            *(derived_years(ev.text, base) for ev in evidence if ev.context != c)
        )
    for c, part in parts.items():
        others = frozenset().union(*(p for o, p in parts.items() if o != c))
        if not part - others or (len(part) < 2 and not part & facts.numbers):
            return Failure("unrelated", PROBLEMS["unrelated"])
    return None
