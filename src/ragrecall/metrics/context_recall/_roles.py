"""Who does what to whom: when a claim and the clauses of its evidence hold the same two parties around the same
predicate, the parties keep their roles. Deterministic, no LLM call.

Two readings, each only where it can tell:

- around a predicate with two roles (``[relation]`` cues: defeated, succeeded, studied under, a tributary of;
  击败, 接替, 师从, 支流) or a comparison (larger than, 大于, 甲比乙大), the words before the predicate and after
  it are compared with the evidence's (:func:`sides_swapped`): the claim's left side found on the evidence's
  right and its right side on the left is a swap, unless one of them is passive ("was defeated by", 被, 由) and
  the other is not;
- for any other predicate, two names of the claim (capitalised, :func:`~ragrecall.text.names.claim_names`)
  with a word of the claim's predicate between them in the evidence must stand in the claim's order, or in the
  other order with a passive between them.

A symmetric predicate ("met", "married", "borders", "A and B"; 与, 和, 会面, 接壤) reads the same both ways and
is not checked; nor is a possessive ("Y's capital is X"), which turns roles around without a passive.
"""

from __future__ import annotations

import itertools
import re
from functools import lru_cache

from ...text.cues import Cue, cues_in, plain, pole, verb_of
from ...text.names import claim_names
from ...text.segment import sentence_spans
from ...text.terms import STOPWORDS, base_form
from ._facts import PROBLEMS, ClaimFacts, Failure
from ._predicate import meanings
from ._scope import Scope
from ._words import base_forms, strict_terms

__all__ = ["roles_failure", "sides_swapped"]

# "by" before a number gives a margin ("defeated Marta Seglin by 3 points"), not who acted.
_MARGIN = (
    r"(?!\s+(?:[\d¼½¾⅓]|(?:one|two|three|four|five|six|seven|eight|nine|ten|half|a\s+(?:single|narrow|wide|margin"
    r"|length|head|neck|nose|goal|point|run|wicket|stroke|shot|mile|distance)|(?:lengths|goals|points|runs|wickets))"
    r"\b))"
)
_PASSIVE_AFTER = re.compile(
    rf"^\s*(?:[^\W_]+\s+){{0,2}}?by\b{_MARGIN}|^\s*(?:[^\W_]+\s+){{0,3}}?under\b", re.IGNORECASE
)
# A passive with no agent, followed by an adjunct: "was built in 1853 for …" says nothing of who built it.
_AGENTLESS = re.compile(
    r"^\s*(?:was|were|is|are|has been|had been|have been)\s+[^\W\d_]+(?:ed|en|t)\s+(?:in|on|at|during|for)\b", re.I
)
_RELATIVE = re.compile(r"\W*(?:which|who|whom|that)\b", re.IGNORECASE)
_PASSIVE_CJK = re.compile(r"[被由遭]")
_PREPOSITION_AFTER = re.compile(r"^\s+(?:in|on|at|by|from|during|as|after|before|for|with|under)\b", re.IGNORECASE)
# "was founded", "was formally founded", "was in fact founded", "was later jointly founded"
_BE_BEFORE = re.compile(
    r"\b(?:was|were|is|are|been|being|be|got|get)\s+"
    r"(?:(?:[^\W\d_]+ly|in fact|indeed|also|later|then|first|once|never|not|still|soon|since)\s+){0,2}$",
    re.IGNORECASE,
)
_COPULA_CJK = re.compile(r"[是为乃]")
_TOWARDS_CJK = re.compile(r"对(?=[^对]*的\s*$)")
_LOCATED_CJK = re.compile(r"(?:位于|地处|处于|坐落于|坐落在|在)(?!.*(?:位于|地处|处于|坐落|在))")
# "Vost's own teacher was …", "The bill's sponsor in the upper chamber was …", "The observatory's founder, the …"
_ROLE_HELD = re.compile(r"\w['’]s\s+(?:[^\W\d_]+\s+)?$")
_ROLE_BEARER = re.compile(
    r"^(?:\s+(?:in|at|of|for|from)\s+[^,.;]{1,40}?)?\s+(?:was|is|had\s+been|has\s+been|became)\b|^\s*,", re.IGNORECASE
)
_SYMMETRIC = re.compile(
    r"\b(?:and|with|versus|vs|against|met|meets?|married|marries|borders?|bordered|adjoins?|between)\b|[与和同跟及]",
    re.IGNORECASE,
)


def _weights(text: str, *, before: bool, antecedent: frozenset[str] = frozenset()) -> dict[str, float]:
    """The terms of ``text`` (one side of a predicate), each weighted by its nearness to the predicate: 1 for
    the nearest, 1/2 for the next … (a party stands next to its predicate; a shared object further away); with
    the terms of ``antecedent`` at full weight where the side holds a pronoun that refers back to it ("they
    were beaten by …", 他…师从…)."""
    folded = text.casefold()
    terms = strict_terms(text) | {m.casefold() for m in _IDENTIFIER.findall(text)}  # "Vega-R" is not "Vega-S"
    placed = sorted(terms, key=lambda t: folded.find(t) if t in folded else len(folded))
    if before:
        placed.reverse()
    side = {t: 1 / (1 + i) for i, t in enumerate(placed)}
    if antecedent and _refers_back(text):
        side.update(dict.fromkeys(antecedent, 1.0))
    return side


def _refers_back(text: str) -> bool:
    """Whether a side holds a pronoun (or 公司, "the company") standing for what the sentence before named: no
    party is named before it in the side ("In the final at Pellow Park they were beaten", not "Harlow Mining said
    it had been acquired"; a place after a preposition is no party); not 其他, 其中, 吉他."""
    m = _PRONOUN.search(text)
    if m is None:
        return False
    before = text[: m.start()]
    names = [n for n in _CAPITALISED.finditer(before) if n.group().split()[0].casefold() not in STOPWORDS]
    return all(_AFTER_PREPOSITION.search(before[: n.start()]) for n in names)


_PRONOUN = re.compile(
    r"\b(?:they|it|he|she)\b|^\W*(?:its|his|her|their)\b"
    r"|(?<![其吉])[他她它](?!们)|(?:^|[，,；;：:])\s*(?:其(?![他它中实余次])|该公司|公司|该厂)",
    re.IGNORECASE,
)
_CAPITALISED = re.compile(r"\b[A-Z][\w'’-]*(?:\s+[A-Z][\w'’-]*)*")
_AFTER_PREPOSITION = re.compile(r"\b(?:at|in|on|from|of|for|with|near|during|after|before|to)\s+(?:the\s+)?$", re.I)


Side = dict[str, float]
# A name of letters and digits joined by hyphens ("Vega-R", "Orvel-4"), which terms would cut to its first word.
_IDENTIFIER = re.compile(r"(?<![\w-])[A-Z][\w]*(?:-[\w]+)+")


def _roles(text: str, cue: Cue, start: int, end: int, antecedent: frozenset[str] = frozenset()) -> tuple[Side, Side]:
    """(who acts, who undergoes) around the predicate ``cue`` in ``text[start:end]``: before and after it when
    active; after and before it with "by" after it; in Chinese, between 被/由 and the predicate for who acts and
    before 被/由 for who undergoes, and for a predicate closing its clause (X是Y的支流) before and after 是."""
    before, after = text[start : cue.start], text[cue.end : end]

    def side(words: str, leading: bool) -> Side:
        return _weights(words, before=leading, antecedent=antecedent)

    passive_cjk = _PASSIVE_CJK.search(before)
    if passive_cjk is not None and passive_cjk.group() == "由" and strict_terms(after):
        # 该调查由青川市图书馆委托市统计局开展: 由 names who acts, and what it acts on follows the verb
        return side(before[passive_cjk.end() :], True), side(after, False)
    if passive_cjk is not None:
        return side(before[passive_cjk.end() :], True), side(before[: passive_cjk.start()], True)
    towards = _TOWARDS_CJK.search(before) if cue.cls == "relation" and not strict_terms(after) else None
    if towards is not None:  # 禾丰公司已完成对瑞昌斋酱园的收购: who acts before 对, what it acts on after
        return side(before[: towards.start()], True), side(before[towards.end() :], True)
    located = _LOCATED_CJK.search(before) if cue.cls == "direction" else None
    if located is not None:  # 苍渊海位于碧螺湖以北: what is placed before 位于, the landmark after it
        return side(before[: located.start()], True), side(before[located.end() :], True)
    if _COPULA_CJK.match(after.lstrip()):  # 鹤川最长的支流是墨溪: the tributary is after 是
        return side(after.lstrip()[1:], False), side(before, True)
    if not strict_terms(after):
        copula = list(_COPULA_CJK.finditer(before))
        if copula:
            at = copula[-1]
            return side(before[: at.start()], True), side(before[at.end() :], False)
    agent, patient = side(before, True), side(after, False)
    if cue.value.startswith("rel:"):  # a role noun: "Petra Lund's trainer was Mia Hale" (Mia Hale trained her)
        bearer = _ROLE_BEARER.match(after)
        if _ROLE_HELD.search(before) is None or bearer is None:
            return {}, {}  # "the coach Lars Enqvist", "the biggest employer in Tressel": no order to read
        return side(after[bearer.end() :], False), side(before, True)
    if cue.cls == "relation" and _passive(cue, before, after):
        return patient, agent
    return agent, patient


def _passive(cue: Cue, before: str, after: str) -> bool:
    """A predicate read passively: "by" (or "under": trained in Lormont under her father) after it, a form of "be"
    before it, or a participle opening its clause
    or standing after a comma ("Founded in 1923, the club …"; "The museum, founded in 1904, …")."""
    if cue.text.casefold().endswith(" by") or _PASSIVE_AFTER.match(after) or _BE_BEFORE.search(before):
        return True
    if cue.text.isascii() and cue.text.endswith("ed") and _PREPOSITION_AFTER.match(after):
        return True  # "a building society founded in Leeds": a participle after its noun, no object after it
    # a participle opens its clause; "She taught at …" is no participle
    opens = not (strict_terms(before) or _PRONOUN.search(before)) or before.rstrip().endswith(",")
    return opens and cue.text.isascii() and _PREPOSITION_AFTER.match(after) is not None


def _distinct(a: Side, b: Side) -> tuple[Side, Side]:
    """The two sides without the words both hold ("Tellmark" of "Agnes Tellmark" and "Tellmark Pharmaceuticals"):
    they tell neither party apart."""
    both = a.keys() & b.keys()
    return {t: w for t, w in a.items() if t not in both}, {t: w for t, w in b.items() if t not in both}


def sides_swapped(claim: str, ours: Cue, scope: Scope, theirs: Cue, earlier: str = "") -> bool | None:
    """Whether the parties around the claim's predicate ``ours`` have each other's roles around the evidence's
    predicate ``theirs`` (read within the clauses stating the claim; a passive read as its active): True when
    a word of each party stands on the other party's side, False when no word does, None when only one does
    (the words cannot tell)."""
    agent, patient = _distinct(*_roles(claim, ours, 0, len(claim)))
    first = min(scope.chosen)
    # "… the ruling against Castellan Freight, which had been sued by …": a relative clause's party is before it
    start = scope.clauses[first - 1][0] if first and _RELATIVE.match(scope.text, scope.first) else scope.first
    # "The observatory's founder, the banker Henry Pole, …": who holds a role noun may stand in the clause after it
    last = max(scope.chosen) + (1 if theirs.value.startswith("rel:") else 0)
    end = scope.clauses[min(last, len(scope.clauses) - 1)][1]
    antecedent = _antecedent(earlier)
    their_agent, their_patient = _distinct(*_roles(scope.text, theirs, start, end, antecedent))
    if ours.cls == "relation" and not (their_agent and their_patient) and start > scope.clauses[0][0]:
        # "Brenlow Systems, a maker of scanners, was acquired by …": the party before an apposition
        start = scope.clauses[0][0]
        their_agent, their_patient = _distinct(*_roles(scope.text, theirs, start, end, antecedent))
    if ours.cls == "relation" and not (agent and patient and their_agent and their_patient):
        return None  # a party left unsaid on one side ("was founded in 1919", "She taught at …"): no order to read
    crossed = (agent.keys() & their_patient.keys(), patient.keys() & their_agent.keys())
    if all(crossed):
        return True  # each party found on the other side (shared words such as "的面积" stay where they are)
    if any(crossed):
        return None
    return False


def _key(cue: Cue) -> str:
    """What a predicate is compared by: its words ("defeated", "succeeded" of "succeeded by"), or the verb a role
    noun says ("trainer": trained)."""
    verb = verb_of(cue).removesuffix(" by")
    return _ONE_VERB.get(verb, verb)


# Forms of one predicate with two roles, so that "B was beaten by A" is read against "B defeated A"
_ONE_VERB = {
    "beat": "defeated", "beaten": "defeated", "beats": "defeated", "defeats": "defeated", "overcame": "defeated",
    "bought": "acquired", "buys": "acquired", "acquires": "acquired", "purchased": "acquired",
}  # fmt: skip


@lru_cache(maxsize=1024)  # asked again for every pair of predicates a claim and its evidence share
def _antecedent(earlier: str) -> frozenset[str]:
    """The words of what a pronoun opening the evidence's clause refers back to: the first name of the sentence
    before it in its passage."""
    spans = sentence_spans(earlier) if earlier.strip() else []
    names = claim_names(earlier[spans[-1][0] : spans[-1][1]]) if spans else ()
    return strict_terms(names[0].text) if names else frozenset()


def roles_failure(facts: ClaimFacts, scope: Scope, earlier: str = "") -> Failure | None:
    """The roles of the claim's parties swapped in the evidence (see the module docstring), or None."""
    claim = plain(facts.text)
    ours = [c for c in cues_in(facts.text) if _ordered(c)]
    theirs = [c for c in scope.cues() if _ordered(c)]
    if _EITHER_WAY.search(claim):
        ours = [c for c in ours if c.cls != "temporal"]  # "within 30 days before or after the sale": no order
    if any(c.value == "sym" for c in ours + theirs):
        return None
    if _converse(claim, scope.stated):
        return None  # "B was founded later than A" for "A was founded earlier than B": the comparison check reads it
    read = False
    for cue in ours:
        for other in (t for t in theirs if _key(t) == _key(cue)):
            read = read or cue.cls == "relation"
            if sides_swapped(claim, cue, scope, other, earlier):
                return Failure("roles", f"{PROBLEMS['roles']}: “{cue.text}” with its parties the other way round")
    if read:
        return None
    return _named(facts, claim, scope)


_COMPARING = ("comparative", "direction")


def _converse(ours: str, theirs: str) -> bool:
    """Whether two stretches compare or place along the same dimension in opposite directions ("younger than" and
    "older than", 小于 and 大于, "south of" and "north of"; superlatives are no comparison of two sides)."""
    sides = [
        {(p[0], p[1]) for c in cues_in(t) if c.cls in _COMPARING and (p := pole(c.value)) and not p[2]}
        for t in (ours, theirs)
    ]
    return any(g == h and s != t for g, s in sides[0] for h, t in sides[1])


def _passive_in(text: str) -> bool:
    """Whether ``text`` holds a form of "be" and a participle ("is made", "was built", "were delivered")."""
    found = _PASSIVE_NEAR.search(text)
    word = found.group(1).lower() if found else ""
    return bool(word) and (word.endswith(("ed", "en", "wn")) or base_form(word) != word)


def _shared_head(ours: str, theirs: str) -> bool:
    """Whether two stretches after a name open on the same lower-case word followed by a form of "be" or "have"
    (the word is the name's head noun, "finds" of "The Croyle finds are kept …", and the predicate follows it;
    not "rammed the steamer …", whose first word is the predicate)."""
    a, b = ours.split(maxsplit=2), theirs.split(maxsplit=2)
    return (
        len(a) == 3
        and len(b) == 3
        and a[0] == b[0]
        and a[0].islower()
        and a[1].casefold() in _AUXILIARY
        and b[1].casefold() in _AUXILIARY
    )


_AUXILIARY = frozenset(["is", "are", "was", "were", "has", "have", "had", "will", "would"])


def _other_dimension(ours: str, theirs: str) -> bool:
    """Whether one stretch places by a compass direction and the other compares along another dimension ("south
    of" and "larger than")."""
    dims = [{m for m in meanings(t) if m.startswith("pol:")} for t in (ours, theirs)]
    if not (dims[0] and dims[1]) or not dims[0].isdisjoint(dims[1]):
        return False
    # only a compass direction against another dimension: "higher" and "above", "before" and "older" order alike
    return any(d <= _COMPASS for d in dims) and not all(d & _COMPASS for d in dims)


_COMPASS = frozenset({"pol:ns", "pol:ew"})


# Who acts stands after "by", or after "under the direction of" ("started in 2015 under the direction of Dr Rhys").
_BY = re.compile(r"\bby\b|\bunder\s+the\s+(?:direction|leadership|command|guidance|supervision)\s+of\b", re.I)
_POSSESSIVE = re.compile(r"['’]s\b")
_PASSIVE_NEAR = re.compile(r"\b(?:is|are|was|were|been)\s+(?:[^\W\d_]+ly\s+)?([^\W\d_]+)\b", re.I)
_EITHER_WAY = re.compile(r"\b(?:before|after)\s+(?:or|and)\s+(?:before|after)\b", re.IGNORECASE)


def _ordered(cue: Cue) -> bool:
    """A predicate whose two sides are told apart: a relation, or "before"/"after" between two events ("the
    causeway was built before the ferry started" is not "the ferry started four years before the causeway was
    built")."""
    return cue.cls == "relation" or (cue.cls == "temporal" and cue.text.isascii())


def _named(facts: ClaimFacts, claim: str, scope: Scope) -> Failure | None:
    """Two names of the claim around a word of its predicate, in the other order in the evidence with no passive
    to turn them (or in the same order with a passive on one side only)."""
    names = [n for n in facts.names if not n.cjk]
    if len(names) < 2:
        return None
    folded_claim = claim.casefold()
    text = scope.text[scope.first : scope.last]
    folded = text.casefold()
    for a, b in itertools.pairwise(names):
        ca, cb = folded_claim.find(a.text.casefold()), folded_claim.find(b.text.casefold())
        ea, eb = folded.find(a.text.casefold()), folded.find(b.text.casefold())
        if min(ca, cb, ea, eb) < 0 or cb <= ca:
            continue
        between = claim[ca + len(a.text) : cb]
        predicate = strict_terms(base_forms(between))  # "beat" and "were beaten by" share their verb
        if not predicate or _SYMMETRIC.search(between):
            continue
        if _AGENTLESS.match(between) and not re.search(r"\bby\b", between, re.IGNORECASE):
            continue  # "Fenwick Row was built in 1853 for workers of the Arden Ironworks": no one said who built it
        lo, hi = sorted((ea, eb))
        near = text[lo + len((a if ea < eb else b).text) : hi]
        if _POSSESSIVE.match(text, hi + len((b if ea < eb else a).text)) and _passive_in(near):
            continue  # "Corvatan is made at Medivale's plant": a passive, the second name holds a thing, no party
        if _shared_head(between, near):
            # "The Croyle finds are kept at the Museum" and "… finds are held by the Museum": the word both open on
            # is the first name's head noun, not their predicate
            between, near = between.split(maxsplit=1)[1], near.split(maxsplit=1)[1]
            predicate = strict_terms(base_forms(between))
        if (
            not predicate & strict_terms(base_forms(near))
            or _SYMMETRIC.search(near)
            or near.lstrip().startswith(("'s", "’s"))
        ):
            continue
        if _converse(between, near):
            continue  # "B is younger than A" for "A is older than B": the comparison check reads it
        if _other_dimension(between, near):
            continue  # "B lies south of A" and "A is larger than B": two statements, each read by its own check
        reversed_ = eb < ea
        passive = bool(_BY.search(between)) != bool(_BY.search(near))
        if reversed_ != passive:
            return Failure("roles", f"{PROBLEMS['roles']}: {a.text} and {b.text} the other way round")
    return None
