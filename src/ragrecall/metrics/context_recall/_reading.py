"""Does the evidence assert what the claim asserts? The cue classes (:mod:`ragrecall.text.cues`) of a claim and of
the clauses of its evidence that state it (:class:`._scope.Scope`) must agree. Deterministic, no LLM call.

- *frames*: every frame standing over the evidence (modality, conditional, attribution, fiction, question)
  is one the claim writes too: "was built" is not "was planned to be built", "holds 5 million m³" not "if the
  dam is raised, will hold 5 million m³", "X was a forger" not "his rival claimed X was a forger";
- *polar values* (comparative and superlative, temporal, direction): where the claim and the evidence write
  the same dimension, they write the same direction, or the opposite one with the two sides of the comparison
  swapped ("Y is larger than X" for "X is smaller than Y"; :func:`._roles.sides_swapped`); a superlative has
  the same rank ("the largest" is not "the second-largest" nor "one of the largest");
- *exclusive values* (quantifier, membership, outcome, fraction, one-word contrasts): where both write a value
  of a group, every value the claim writes is one the evidence writes ("all" is not "most", "the sole founder"
  not "one of five founders", "won" not "was shortlisted", "tripled" not "doubled", "red" not "blue");
- *status*: a claim saying what is ("is the mayor") is not stated by evidence saying only what was ("served as
  mayor from 1990 to 1998");
- *bounds*: a number the claim bounds ("at least 300") is bounded alike wherever the evidence bounds it
  ("up to 300" is not; "about 300" is not "exactly 300");
- *years*: a figure the claim gives for a year is given for that year in the evidence, not for another year
  of the same sentence (each number's year is the one its clause writes).

What a side does not write is not read: a claim with no quantifier is not held to the evidence's, and a value
the evidence does not write at all (a synonym code does not know) is left to the judge and the confirmer.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from ...text.cues import Cue, cues_in, plain, pole
from ...text.names import claim_names, folded_words
from ...text.negation import negations
from ...text.numbers import Quantity, quantities
from ._facts import PROBLEMS, ClaimFacts, Failure
from ._roles import sides_swapped
from ._said_otherwise import written_as_year
from ._scope import Scope, frames_of
from ._words import strict_terms

__all__ = ["reading_failure"]

_POLAR = ("comparative", "temporal", "direction")
_EXCLUSIVE = ("quantifier", "membership", "outcome", "fraction", "contrast")
_ORDINAL = re.compile(r"(?:\b(second|third|fourth|fifth|2nd|3rd|4th|5th)[\s-]+)$", re.IGNORECASE)
_RANKS = {"second": 2, "third": 3, "fourth": 4, "fifth": 5, "2nd": 2, "3rd": 3, "4th": 4, "5th": 5}


def reading_failure(facts: ClaimFacts, scope: Scope) -> Failure | None:
    """The first cue class on which ``scope`` (an evidence sentence read for the claim) does not assert what the
    claim asserts, or None (see the module docstring)."""
    claim_cues = cues_in(facts.text)
    core = scope.cues(core=True)
    evidence_cues = core or scope.cues()
    read = scope.clauses_text(core=bool(core))
    # a comparison's other side may stand in a clause chosen for its name ("founded in 1891, after the Sailing Club"):
    # its cues count where the clauses holding the quote compare along no such dimension
    compared = {_dimension(c) for c in evidence_cues if c.cls in _POLAR}
    polar = evidence_cues + [
        c for c in scope.cues() if c.cls in _POLAR and c not in evidence_cues and _dimension(c) not in compared
    ]
    return (
        _frames(facts, scope)
        or _polar(facts, scope, claim_cues, polar)
        or _exclusive(claim_cues, evidence_cues, facts.text, read, scope.text)
        or _status(claim_cues, evidence_cues, read)
        or _bounds(facts, scope)
        or _years(facts, scope)
    )


def _dimension(cue: Cue) -> str | None:
    read = pole(cue.value)
    return None if read is None else read[0]


def _fail(check: str, detail: str) -> Failure:
    return Failure(check, f"{PROBLEMS[check]}: {detail}")


def _frames(facts: ClaimFacts, scope: Scope) -> Failure | None:
    """Every frame over the evidence is one the claim writes: a hypothetical claim ("… would let the reservoir
    hold …") may rest on a condition, a claim about what is still to be done ("pipes that need to be replaced",
    需要更换的) on a plan, and a claim about a work of fiction ("a novel by Marian Coyle") on its telling."""
    cues = cues_in(facts.text)
    own = frames_of(list(cues))
    hypothetical = [c.text for c in cues if c.cls == "modality" and _HYPOTHETICAL.fullmatch(c.text)]
    if hypothetical:
        own.setdefault("conditional", hypothetical[0])
    if _KIND_OF_FICTION.search(facts.text):
        own.setdefault("fiction", "")
    unrealised = _UNREALISED.search(facts.text)
    if unrealised is not None:  # 需要更换的管道: a claim about what is still to be done rests on a plan of it
        own.setdefault("modality", unrealised.group())
    theirs = scope.frames()
    for cls, words in theirs.items():
        # "慧明禅师可能生于1150年前后" from "据寺志推测，慧明禅师可能生于…": the claim keeps the conjecture
        if cls == "attribution" and "modality" in own and "modality" in theirs and _conjecture(scope):
            continue
        if cls not in own:
            return _fail(cls, f"“{words}” in the evidence")
    return None


def _conjecture(scope: Scope) -> bool:
    """Whether the evidence sentence's source conjectures (the cue class ``conjecture``: 推测, "speculated")."""
    return any(c.cls == "conjecture" for c in cues_in(scope.text))


_HYPOTHETICAL = re.compile(r"would|could(?: have| be)?|might(?: have)?|may have", re.IGNORECASE)
_UNREALISED = re.compile(
    r"\b(?:needs?|needed|needing)\s+to\s+be\b|\b(?:due|scheduled|slated|set)\s+to\s+be\b"
    r"|需要|需(?!求)|亟待|有待|待(?:建|修|更换|改造)"
)
_KIND_OF_FICTION = re.compile(
    r"\b(?:novel|novella|film|movie|opera|play|poem|musical|series|episode|drama)s?\b"
    r"|小说|电影|影片|电视剧|话剧|戏剧|剧集|动画|漫画|童话|寓言",
    re.IGNORECASE,
)


def _poles(cues: Sequence[Cue], text: str) -> list[tuple[Cue, str, str, str]]:
    """The polar cues as (cue, group, sign, rank): rank "" for a comparative, "1" … for a superlative, "among"
    for one among others ("one of the largest", 最大的…之一)."""
    amongs = [c for c in cues if c.cls == "membership" and c.value == "among"]
    out = []
    for cue in cues:
        if cue.cls not in _POLAR:
            continue
        read = pole(cue.value)
        if read is None:
            continue
        group, sign, rank = read
        if rank:
            ordinal = _ORDINAL.search(text[: cue.start])
            among = any(_governs_rank(a, cue, text) for a in amongs)
            rank = "among" if among else str(_RANKS[ordinal.group(1).lower()]) if ordinal else rank
        out.append((cue, group, sign, rank))
    return out


def _governs_rank(among: Cue, superlative: Cue, text: str) -> bool:
    """Whether "one of", "among" (just before) or 之一 (after, in the same phrase) makes the superlative one
    among others: "one of the largest", "among the first", 最大的水库之一."""
    if among.end <= superlative.start:
        return superlative.start - among.end <= 12 and not re.search(r"[,;，；]", text[among.end : superlative.start])
    # 首批获准开展细胞治疗临床研究的六家医院之一: the phrase may run to twenty characters
    return among.start - superlative.end <= 20 and not re.search(r"[,;，；。]", text[superlative.end : among.start])


def _polar(facts: ClaimFacts, scope: Scope, claim_cues: Sequence[Cue], evidence_cues: Sequence[Cue]) -> Failure | None:
    theirs = _poles(evidence_cues, scope.text)
    ours = _poles(claim_cues, plain(facts.text))
    for cue, group, sign, rank in ours:
        same = [t for t in theirs if t[1] == group]
        alike = [t for t in same if t[2] == sign and t[3] == rank]
        # Both ways ("within 30 days before or after the sale") order nothing; a temporal "before"/"after"
        # between two events is the roles check's (:mod:`._roles`).
        one_way = not any(o[1] == group and o[2] != sign for o in ours)
        if (
            alike
            and not rank
            and cue.cls in ("comparative", "direction")
            and one_way
            and not facts.negated
            and sides_swapped(plain(facts.text), cue, scope, alike[0][0])
        ):
            # "A was finished four years before B" from "B was finished four years before A" (a negated claim
            # may say the same with the sides swapped: "no lighthouse is taller than Kells Point")
            return _fail(cue.cls, f"“{cue.text}” in the claim, its two sides the other way round in the evidence")
        if not same or alike:
            continue
        if rank and rank != "among" and any(t[2] == sign for t in same):
            shown = next(t[0].text for t in same if t[2] == sign)
            return _fail("superlative", f"“{cue.text}” in the claim, “{shown}” in the evidence")
        if rank == "among" or any(t[3] == "among" for t in same):
            return _fail("superlative", f"“{cue.text}” in the claim, one among others in the evidence")
        opposite = [t for t in same if t[2] != sign and t[3] == rank]
        if opposite and not rank:
            swapped = sides_swapped(plain(facts.text), cue, scope, opposite[0][0])
            if swapped is None or swapped:
                continue  # a converse, or sides code cannot tell apart
        if opposite:
            return _fail(cue.cls, f"“{cue.text}” in the claim, “{opposite[0][0].text}” in the evidence")
    return None


def _group(cue: Cue) -> str:
    return cue.value.partition(":")[0] if cue.cls == "contrast" else cue.cls


def _exclusive(
    claim_cues: Sequence[Cue], evidence_cues: Sequence[Cue], claim_text: str, evidence_text: str, sentence: str
) -> Failure | None:
    """Every value the claim writes of a group the evidence's clauses (``evidence_text``, cues placed in
    ``sentence``) also write a value of, is one of theirs."""
    ours = _values(claim_cues, plain(claim_text))
    theirs = _values(evidence_cues, evidence_text)
    folded = evidence_text.casefold()
    for key, values in ours.items():
        written = theirs.get(key)
        if not written:
            continue
        said = {c.value: c.text.casefold() for c in claim_cues if _key(c) == key}
        # a value the evidence writes in a form no cue reads ("so Blue light is scattered") is still written, but
        # not inside a cue of another value ("all" in "almost all")
        rest = folded
        for c in evidence_cues:
            if _key(c) == key:
                rest = rest.replace(c.text.casefold(), " ")
        missing = [v for v in values if v not in written and not _writes(rest, said[v])]
        if key[0] == "quantifier":
            missing = [v for v in missing if _same_noun(claim_cues, evidence_cues, v, claim_text, sentence)]
        if key[0] == "outcome" and not _loser_is_the_winner(claim_cues, evidence_cues, claim_text, sentence):
            continue  # "Ambry Town won the first leg" against "Pellisford Rovers lost the first leg … at Ambry Town"
        if key[0] == "contrast" and negations(claim_text):
            # "该馆周一不开放" against "该馆每周一闭馆": a negated value against its other, for the polarity check
            continue
        if missing:
            cls = key[0]
            shown = ", ".join(sorted({c.text for c in evidence_cues if _key(c) == key}))
            words = next(c.text for c in claim_cues if _key(c) == key and c.value == missing[0])
            return _fail(cls, f"“{words}” in the claim, “{shown}” in the evidence")
    return None


def _loser_is_the_winner(claim_cues: Sequence[Cue], evidence_cues: Sequence[Cue], claim: str, sentence: str) -> bool:
    """Whether an outcome the claim gives its subject ("Kirkby won") is one the evidence denies that subject: the
    evidence writes the claim's first name before a word of losing ("Kirkby lost the final"); a loss of another
    party ("Kirkby lost the final to Hale" for "Hale won") or a winner unnamed says nothing against it."""
    won = [c for c in claim_cues if c.cls == "outcome" and c.value == "won"]
    lost = [c for c in evidence_cues if c.cls == "outcome" and c.value == "lost"]
    if not won or not lost:
        return True
    names = claim_names(claim[: won[0].start])
    if not names:
        return True
    name = names[0]
    text = plain(sentence)
    return any(
        (name.text[:2] in text[: c.start]) if name.cjk else set(name.words) <= folded_words(text[: c.start])
        for c in lost
    )


def _writes(text: str, words: str) -> bool:
    """Whether ``text`` writes ``words``: as whole words in a Latin script ("all" is not in "Halt")."""
    if not words.isascii():
        return words in text
    return re.search(rf"(?<![^\W\d_]){re.escape(words)}(?![^\W\d_])", text) is not None


def _same_noun(claim_cues: Sequence[Cue], evidence_cues: Sequence[Cue], value: str, claim: str, evidence: str) -> bool:
    """Whether a quantifier of the claim and one of the evidence count the same thing: the words after them
    share a term ("most of the blue light" and "all visible wavelengths" count different things)."""
    ours = [c for c in claim_cues if c.cls == "quantifier" and c.value == value]
    theirs = [c for c in evidence_cues if c.cls == "quantifier"]
    after = [strict_terms(plain(claim)[c.end : c.end + 40]) for c in ours]
    return any(a & strict_terms(evidence[c.end : c.end + 40]) for a in after for c in theirs)


def _key(cue: Cue) -> tuple[str, str]:
    return cue.cls, _group(cue)


def _values(cues: Sequence[Cue], text: str) -> dict[tuple[str, str], set[str]]:
    out: dict[tuple[str, str], set[str]] = {}
    for cue in cues:  # "some 500 people" is a bound of the number, no quantifier (the cue data says so)
        if cue.cls in _EXCLUSIVE:
            out.setdefault(_key(cue), set()).add(cue.value)
    return out


def _status(claim_cues: Sequence[Cue], evidence_cues: Sequence[Cue], read: str) -> Failure | None:
    """A claim that something holds now (现任, "is currently") against evidence that says it ended, in words
    ("served as", 曾任) or by a span of years it closes (于1984年至1996年间担任, "from 1984 to 1996")."""
    claim = {c.value for c in claim_cues if c.cls == "status"}
    evidence = {c.value: c.text for c in evidence_cues if c.cls == "status"}
    if claim != {"present"} or "present" in evidence:
        return None
    if "ended" in evidence:
        return _fail("status", f"“{evidence['ended']}” in the evidence")
    closed = _CLOSED_SPAN.search(read)
    return None if closed is None else _fail("status", f"“{closed.group()}” in the evidence")


# A span of years with both ends written: "from 1984 to 1996", "1984–1996", 1984年至1996年
_CLOSED_SPAN = re.compile(
    r"\b(?:from|between)\s+\d{4}\s+(?:to|and|until)\s+\d{4}\b|\b\d{4}\s*[–-]\s*\d{2,4}\b(?!\s*[–-])"
    r"|\d{4}\s*年?\s*(?:至|到|—|–|-)\s*\d{4}\s*年"
)


_BEFORE = re.compile(r"^\s*(?:[$€£¥]|us\$|usd|rmb|eur|gbp)?\s*$", re.IGNORECASE)
_AFTER = re.compile(r"^[\s-]*(?:[^\W\d_]{0,4})?[\s-]*$")


def _bounds_of(text: str, cues: Sequence[Cue], q: Quantity) -> frozenset[str]:
    """The bound families (lower, upper, approx, exact) written right before or after the number ``q``."""
    out: set[str] = set()
    for cue in cues:
        if cue.cls != "bound":
            continue
        between = text[cue.end : q.start] if cue.end <= q.start else text[q.end : cue.start]
        if cue.end <= q.start:
            # "at least 300", "至少可容纳1,200", "最多可处理原水三十万": a verb and its object may stand between a
            # Chinese bound and its number
            if _BEFORE.match(between) or (not cue.text.isascii() and _cjk_unit(between, reach=6)):
                out.add(cue.value)
        elif cue.start - q.end <= 5 and _AFTER.match(between) and (cue.text.isascii() or _cjk_unit(between)):
            out.add(cue.value)
    return frozenset(out)


def _cjk_unit(between: str, reach: int = 4) -> bool:
    """Nothing, or at most ``reach`` CJK characters (a measure word, a unit, a verb and its object: 人, 立方米,
    可容纳, 可处理原水)."""
    stripped = between.strip()
    return not stripped or (len(stripped) <= reach and all("\u4e00" <= ch <= "\u9fff" for ch in stripped))


def _bounds(facts: ClaimFacts, scope: Scope) -> Failure | None:
    claim = plain(facts.text)
    claim_cues = cues_in(facts.text)
    if not any(c.cls == "bound" for c in claim_cues):
        return None
    evidence_cues = cues_in(scope.text)
    found = quantities(scope.text)
    for q in quantities(claim):
        ours = _bounds_of(claim, claim_cues, q)
        if not ours:
            continue
        theirs = [_bounds_of(scope.text, evidence_cues, e) for e in found if e.value == q.value]
        if theirs and all(t and not t & ours for t in theirs):
            said = claim[max(0, q.start - 12) : q.end].strip()
            return _fail("bound", f"“{said}” in the claim; the evidence bounds {q.value} otherwise")
    return None


def _years(facts: ClaimFacts, scope: Scope) -> Failure | None:
    """Each figure stands with the year the claim gives it: where the evidence writes the claim's figure in a
    clause with a year, that year is one of the claim's ("250 staff in 2010 and 400 in 2018" does not give 400
    for 2010)."""
    claim = plain(facts.text)
    claimed = quantities(claim)
    found = quantities(scope.text)
    years = {q.value for q in claimed if written_as_year(q, claim)}
    if not years:
        return None
    written: dict[int, set[str]] = {}  # the years each clause writes
    for e in found:
        if written_as_year(e, scope.text):
            written.setdefault(scope.clause_of(e.start), set()).add(e.value)
    for q in claimed:
        places = [scope.clause_of(e.start) for e in found if e.value == q.value]
        if places and not written_as_year(q, claim):
            clause_years = [written.get(k, set()) for k in places]
            if all(ys and not ys & years for ys in clause_years):
                other = sorted(set().union(*clause_years))[0]
                return _fail(
                    "year", f"{q.value} is given for {other} in the evidence, not for {', '.join(sorted(years))}"
                )
    return None
