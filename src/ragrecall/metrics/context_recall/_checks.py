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
- *numbers*: every number of the claim, written with digits or in words, scale words read, dates as dates, is
  in the evidence sentences (a year or date may be the passage's: written earlier, or counted from it, "the
  following year");
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
import unicodedata
from collections.abc import Callable, Sequence

from ...text.chinese import simplified
from ...text.clauses import clause_spans
from ...text.negation import denied_after, negations, sentence_negated_before
from ...text.number_words import measure_word_at
from ...text.numbers import Quantity, numbers_in, quantities, ranges_in
from ...text.relative_years import derived_years, spans_in_years
from ...text.segment import has_cjk
from ...text.terms import STOPWORDS, stem
from ._evidence import Quote
from ._facts import PROBLEMS, ClaimFacts, Evidence, Failure, SentenceSource, claim_facts, failed
from ._predicate import held_terms, meanings, predicate_failure
from ._reading import reading_failure
from ._roles import roles_failure
from ._scope import Scope
from ._subject import named, sentences_of, subject_failure
from ._words import script_of, words

__all__ = ["check_evidence", "negated_around"]

_REFERS_BACK = re.compile(
    r"^\W*(?:this|that|these|those|it|its|he|she|they|his|her|their|the same|in the same|in that|by then"
    r"|over the same|during the same|at the same time)\b"
    r"|^\W*(?:[这此该其他她它]|同期|同年|当年|此后|其后|该年|期间)",
    re.IGNORECASE,
)
_TOKEN = re.compile(r"[^\W_]+(?:-[^\W_]+)*")


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
        return _numbers(facts, quotes, evidence, contexts) or _ranges(facts, quotes, evidence, contexts)
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
    checks: tuple[_Check, ...] = (_polarity, _asserted, subject_failure, _numbers, _units, _ranges, predicate_failure)
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
            and not facts.numbers & numbers_in(q.passage or "")
            and facts.scripts & script_of(contexts.texts[q.context])
        ):
            return Failure("off_topic", PROBLEMS["off_topic"])
    return None


def _anchors_a_year(facts: ClaimFacts, quote: str, evidence: list[Evidence]) -> bool:
    """Whether ``quote`` writes the year a relative year of an evidence sentence counts from, giving a year of
    the claim."""
    years = [n for n in numbers_in(quote) if _year(n)]
    return bool(years) and bool(facts.numbers & frozenset().union(*(derived_years(ev.text, quote) for ev in evidence)))


def _states_numbers(facts: ClaimFacts, quote: str) -> bool:
    """Whether a quote of no words states the claim's numbers: a bare number from a list states nothing, but a
    whole date ("b. 1898-02-17"), two of the claim's numbers ("up from 940 in 2001") or one with its unit
    ("to 4.1%") do."""
    ours = facts.numbers & numbers_in(quote)
    if any(len(n) == 10 and n[4] == "-" for n in ours) or len(ours) >= 2:
        return True
    return any(q.units and q.value in ours for q in quantities(quote))


def _polarity(
    facts: ClaimFacts, quotes: Sequence[Quote], evidence: list[Evidence], _: SentenceSource
) -> Failure | None:
    for ev in evidence:
        if negated_around(ev, facts) != facts.negated and not _ceasing(facts.text, ev.text, negated=facts.negated):
            side = "the claim is negated, its evidence is not" if facts.negated else "the evidence negates the claim"
            return Failure("polarity", f"{PROBLEMS['polarity']}: {side}")
    return None


# Words of ending, changing, sparing or waiving, which say "no longer" or "no" without a negation: a negated claim
# ("no longer carried passengers", 不再承担客运, 不收门票) and a sentence that says it ended ("stopped carrying
# passengers", 停止客运) or was waived (门票免费) agree.
_CEASING = re.compile(
    r"\b(?:ceased?|ceasing|stopped|stops|ended|discontinued|abandoned|gave up|spared|closed|withdrawn|except"
    r"|cancell?ed|called off|scrapped)\b"
    r"|免费|免費|免收|免除|豁免|停止|停办|停辦|停运|停運|停用|结束|結束|终止|終止|放弃|放棄|撤销|撤銷|取消|撤走|撤出|撤离|撤離|改为|改為",
    re.IGNORECASE,
)


def _ceasing(claim: str, sentence: str, *, negated: bool) -> bool:
    """Whether the side that does not negate says something ended, with a word of ending the other side lacks
    ("did not close" against "closed" is no agreement)."""
    plain_side, other = (sentence, claim) if negated else (claim, sentence)
    return any(m.group()[:4].casefold() not in other.casefold() for m in _CEASING.finditer(plain_side))


def negated_around(ev: Evidence, facts: ClaimFacts, scope: Scope | None = None) -> bool:
    """Whether the clauses of ``ev`` that state the claim (:class:`._scope.Scope`) negate, or a sentence-wide
    cue before the first of them does ("It is false that …", as far back as a semicolon), unless a denial
    after them ("…, but that is a legend", "…, which was later disproven", 其实并非如此), in the sentence or
    opening the next one, turns it round; or, with no negation, whether such a denial follows. A clause that
    holds none of the claim's terms ("The ferry, which did not run in the war, carried …"; "Its white flowers,
    which open in July, have no leaves") is not read."""
    sentence = ev.text
    if not negations(sentence) and not denied_after(sentence):
        # No cue of any kind in the sentence, so none in any of its clauses or after them: only the next
        # sentence can deny it.
        return denied_after(ev.later, opening=True)
    scope = scope or Scope.of(ev, facts)
    text, clauses = scope.text, scope.clauses
    # A sentence-wide cue reaches no further than a semicolon: "It is false that A; B".
    since = max(text.rfind(";", 0, scope.first), text.rfind("；", 0, scope.first)) + 1
    negated = any(negations(text[clauses[i][0] : clauses[i][1]]) for i in scope.chosen) or sentence_negated_before(
        text[since:], scope.first - since
    )
    denied = denied_after(text[scope.last :]) or denied_after(ev.later, opening=True)
    return negated != denied  # "… have never been relegated, but this is a myth": denied, a negation is not


def _asserted(
    facts: ClaimFacts, quotes: Sequence[Quote], evidence: list[Evidence], _: SentenceSource
) -> Failure | None:
    """Each evidence sentence asserts what the claim asserts: the same frames and cue values
    (:mod:`._reading`) and the same roles (:mod:`._roles`)."""
    for ev in evidence:
        scope = Scope.of(ev, facts)
        failed = reading_failure(facts, scope) or roles_failure(facts, scope)
        if failed is not None:
            return failed
    return None


def _numbers(
    facts: ClaimFacts, quotes: Sequence[Quote], evidence: list[Evidence], contexts: SentenceSource
) -> Failure | None:
    """Every number of the claim is in the evidence sentences, or in the sentence before one that opens by
    referring back to it ("This was …", 这是…); and a year (or the year of a date) the evidence sentences leave
    to their passage ("In 2019 the festival … . The fireworks were put off until January.") is written earlier
    in that passage, provided the sentences write no other year of their own."""
    written = own = frozenset().union(*(numbers_in(ev.text) for ev in evidence))
    if facts.numbers - written:
        # The sentence before: when the evidence refers back to it, or writes no number the claim lacks ("In 1998
        # the observatory replaced its 1.2-metre telescope … . The old telescope was given to …").
        alone = written <= facts.numbers
        before = [s for ev in evidence if alone or _REFERS_BACK.match(ev.text) for s in sentences_of(ev.earlier)[-1:]]
        written = written.union(*(numbers_in(s) for s in before))
    missing: set[str] = set(facts.numbers - written)
    if missing:  # "the following year", "two years earlier", 次年: years counted from a year before them
        written = written.union(*(derived_years(ev.text, _year_before(ev, evidence)) for ev in evidence))
        years = sorted(int(n) for n in written if _year(n))
        spans = {str(b - a) for a in years for b in years if b > a}
        missing = {n for n in facts.numbers - written if not (n in spans_in_years(facts.text) and n in spans)}
    # "one route", 两个学科, "both": one and two in words are said in too many ways ("a single", 神学和法学) to ask for
    missing = {n for n in missing if not _small_in_words(n, facts.text, own, evidence)}
    # a century the claim names ("the mid-1800s") is the century of a year or decade the evidence writes
    missing = {n for n in missing if not (n.startswith("century:") and n in _centuries(written))}
    # a decade the claim names ("in the 1870s") holds a year the evidence writes ("between 1871 and 1874")
    missing = {n for n in missing if not (n.startswith("decade:") and n in _decades(written))}
    if missing and not {n for n in written if _year(n)} - facts.numbers:
        earlier = frozenset().union(*(numbers_in(ev.earlier) for ev in evidence))
        missing = {n for n in missing if not _set_by_passage(n, written, earlier)}
    if missing:  # a passage that writes no year leaves it to the other passages ("… a loss for the year")
        missing = {n for n in missing if not _year_of_sample(n, evidence, contexts)}
    if missing:
        return Failure("number", f"{PROBLEMS['number']}: {', '.join(sorted(missing))}")
    return None


_PAIR = re.compile(r"\b(?:both|pair|twin|two)\b|[双雙两兩俩倆]", re.IGNORECASE)


def _small_in_words(n: str, claim: str, written: frozenset[str], evidence: list[Evidence]) -> bool:
    """One is said in too many ways to ask for; two too, where the evidence says a pair (双塔, "both") or writes
    no other small count."""
    if n == "1":
        return True
    if n != "2" or "2" in claim:
        return False
    small = {w for w in written if w.isdigit() and 3 <= int(w) <= 10}
    return not small or any(_PAIR.search(ev.text) for ev in evidence)


def _centuries(written: frozenset[str]) -> set[str]:
    out = set()
    for n in written:
        year = n.removeprefix("decade:")
        if _year(year):
            out.add(f"century:{int(year) // 100 + 1}")
    return out


def _decades(written: frozenset[str]) -> set[str]:
    return {f"decade:{int(n) // 10 * 10}" for n in written if _year(n)}


def _year(n: str) -> bool:
    return len(n) == 4 and n.isdigit() and 1000 <= int(n) <= 2100


def _year_before(ev: Evidence, evidence: list[Evidence]) -> str:
    """What a relative year of ``ev`` counts from: its passage before it, or, when that writes no year, the other
    evidence sentences ("在1987年全国象棋团体赛决赛中" quoted with another passage's "南屏队在第二年夺回了冠军")."""
    if any(_year(n) for n in numbers_in(ev.earlier)):
        return ev.earlier
    return " ".join(other.text for other in evidence if other is not ev)


def _year_of_sample(n: str, evidence: list[Evidence], contexts: SentenceSource) -> bool:
    """Whether the claim's year ``n`` is written in another passage while no evidence passage writes any year up
    to its evidence sentence."""
    if not _year(n) or any(_year(m) for ev in evidence for m in numbers_in(ev.earlier + ev.text)):
        return False
    cited = {ev.context for ev in evidence}
    return any(n in numbers_in(text) for c, text in enumerate(contexts.texts) if c not in cited)


def _set_by_passage(n: str, written: frozenset[str], earlier: frozenset[str]) -> bool:
    """Whether the claim's year ``n`` (or date ``YYYY-MM-DD``) is the passage's: the year written earlier in the
    passage, and a date's month and day written in the evidence."""
    if _year(n):
        return n in earlier
    year, _, day = n.partition("-")
    return _year(year) and len(n) == 10 and year in (earlier | written) and day in written


def _units(facts: ClaimFacts, quotes: Sequence[Quote], evidence: list[Evidence], _: SentenceSource) -> Failure | None:
    found = [(q, ev) for ev in evidence for q in quantities(ev.text)]
    counted = _counted(facts, found)
    if counted is not None:
        return counted
    claim_units = [q for q in facts.quantities if q.units]
    for wanted in claim_units:
        same = [q for q, _ in found if q.value == wanted.value]
        if same and all(q.units and not q.units & wanted.units for q in same):
            theirs = sorted(set().union(*(q.units for q in same)))
            return Failure(
                "unit",
                f"{PROBLEMS['unit']}: {wanted.value} {'/'.join(sorted(wanted.units))} in the claim, "
                f"{wanted.value} {'/'.join(theirs)} in the evidence",
            )
    return None


def _counted(facts: ClaimFacts, found: list[tuple[Quantity, Evidence]]) -> Failure | None:
    """A number of the claim with no known unit but a noun after it ("300 cars", 300辆) against the same number
    in the evidence followed by another noun, the claim's not among the next three words ("300 passengers")."""
    claim = simplified(unicodedata.normalize("NFKC", facts.text))
    for q in facts.quantities:
        if q.units or _year(q.value) or not q.value.lstrip("-").replace(".", "", 1).isdigit():
            continue  # "the 1958 semi-final": a year (or a date, a decade) names the event, it counts nothing
        noun = _after(claim, q.end, 3)
        if not noun:
            continue
        same = [(e, simplified(unicodedata.normalize("NFKC", ev.text))) for e, ev in found if e.value == q.value]
        same = [(e, text) for e, text in same if not e.units]
        theirs = [(_after(text, e.end, 3), text[e.end : e.end + 30]) for e, text in same]
        mine = claim[q.end : q.end + 30]
        if theirs and all(t and not set(noun) & set(t) and not _same_noun(mine, raw, noun, t) for t, raw in theirs):
            return Failure(
                "unit",
                f"{PROBLEMS['unit']}: {q.value} {noun[0]} in the claim, {q.value} {theirs[0][0][0]} in the evidence",
            )
    return None


# Nouns that count people of any kind ("eleven men" for "eleven workers"), against the stems of kinds of people.
_ANY_THING = frozenset(["unit", "item"])
_ANY_PEOPLE = frozenset(["peopl", "person", "individu", "men", "man", "live"])
_PEOPLE = _ANY_PEOPLE | frozenset(
    ["worker", "labour", "labor", "miner", "navvi", "employe", "staff", "resid", "inhabit", "soldier", "sailor"]
)


def _same_noun(ours: str, theirs: str, noun: list[str], their_noun: list[str]) -> bool:
    """Whether the words after the same number say the same in other words (2,300 employees, 2,300 staff), or
    count people, one of them of any kind, or one of them counts anything ("units")."""
    if meanings(ours) & meanings(theirs):
        return True
    if {*noun[:1], *their_noun[:1]} & _ANY_THING:
        return True  # "84,000 units" counts whatever the other side names
    mine, other = set(noun[:1]) & _PEOPLE, set(their_noun[:1]) & _PEOPLE
    return bool(mine and other and (mine | other) & _ANY_PEOPLE)


def _after(text: str, end: int, n: int) -> list[str]:
    """The first ``n`` words right after offset ``end`` (stemmed; a CJK character counts as a word), or []
    when a function word, a punctuation mark or nothing follows first."""
    follow = text[end : end + 40]
    if not follow or not (follow[0] == " " or has_cjk(follow[0])):
        return []
    if has_cjk(follow.lstrip()[:1]):
        # 三十多首, 二十余条: an approximation belongs to the number; 个 counts anything (一个, 一位); 到, 至
        # join a range (1到3米)
        chars = follow.lstrip().lstrip("多余来几")
        if not chars or chars[:1] in "个到至比" or not measure_word_at(chars, 0):
            return []  # 4.0于…, 3.2增加: a verb or a particle after a number counts nothing
        return [chars[0]] if n == 1 else list(chars[:n])
    tokens = _TOKEN.findall(follow.lower())[:n]
    if not tokens or tokens[0] in STOPWORDS or not tokens[0].isalpha():
        return []
    return [stem(t) for t in tokens]


def _ranges(facts: ClaimFacts, quotes: Sequence[Quote], evidence: list[Evidence], _: SentenceSource) -> Failure | None:
    """A range the claim states is a range of the evidence (or of the sentence before one that refers back to it,
    "Over the same period …"): two numbers joined as a range, or a start and an end in one sentence ("from 2009
    …, until 2014", "自2009年起…，至2014年")."""
    texts = [ev.text for ev in evidence]
    texts += [t for ev in evidence if _REFERS_BACK.match(ev.text) for t in sentences_of(ev.earlier)[-1:]]
    written = frozenset().union(*(ranges_in(t) for t in texts))
    missing = sorted(
        r for r in facts.ranges - written if not any(_spans(t, *r) or _opens_and_closes(t, *r) for t in texts)
    )
    if missing:
        shown = ", ".join(f"{low}–{high}" for low, high in missing)
        return Failure("range", f"{PROBLEMS['range']}: {shown}")
    return None


_STARTS = (
    "con:open:open", "con:life:born", "con:body:founded", "con:works:built", "syn:begin", "syn:found", "syn:publish",
    "syn:open",
)  # fmt: skip
_ENDS = (
    "con:open:closed", "con:life:died", "con:body:dissolved", "con:works:demolished", "syn:end", "syn:close",
    "syn:withdraw",
)  # fmt: skip


_UNTIL = re.compile(r"(?:\buntil|\btill|直到|直至)\s*(?:\w+\s+){0,2}$", re.IGNORECASE)


def _opens_and_closes(text: str, low: str, high: str) -> bool:
    """Whether ``text`` says something began in ``low`` and ended in ``high`` ("opened in 1894 and was closed in
    1970"): a word of starting in the clause of the first year and one of ending in the clause of the second."""
    clauses = clause_spans(text) or ((0, len(text)),)
    lows = [text[s:e] for s, e in clauses if low in numbers_in(text[s:e])]
    highs = [text[s:e] for s, e in clauses if high in numbers_in(text[s:e])]
    ends = any(meanings(c) & set(_ENDS) or _UNTIL.search(c, 0, c.find(high)) for c in highs)
    return any(meanings(c) & set(_STARTS) for c in lows) and ends


def _spans(text: str, low: str, high: str) -> bool:
    """Whether ``text`` says that something ran from ``low`` to ``high`` in words between them."""
    norm = unicodedata.normalize("NFKC", text)
    for m in _FROM_TO.finditer(norm):
        if numbers_in(m.group("low")) == {low} and numbers_in(m.group("high")) == {high}:
            return True
    return False


_FROM_TO = re.compile(
    r"(?:from|since|自|从|從)\s*(?P<low>[\d,.]+)[^.;。；]*?(?:until|till|to|through|至|到)\s*(?P<high>[\d,.]+)",
    re.IGNORECASE,
)


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
            if not any(named(subject, ev, contexts.texts[c]) for ev in evidence if ev.context == c):
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
