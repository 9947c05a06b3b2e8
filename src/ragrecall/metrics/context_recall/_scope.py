"""Which part of an evidence sentence states a claim, and which frames stand over that part.

A sentence is read in clauses (:func:`~ragrecall.text.clauses.clause_spans`). The clauses that state the claim
(:class:`Scope`) are the quoted ones holding what the claim says (its terms beyond its names, or its numbers;
failing that, its names) and, for each term or number that they lack, the nearest clause holding it that is
not parted from them by a "but" or a semicolon. Frame cues (:data:`~ragrecall.text.cues.FRAMES`) stand over
the quoted clauses when they are written:

- in one of them ("Critics claimed that …", "… may have been built …", "… whether …");
- in a clause that leads in to them or sits between them, unless that clause is a statement of its own (it
  opens with which, who, although, but …; 虽然, 但 …; it ends with a semicolon; its frame has a complement of
  its own: "Critics claimed that A, but B"; in Chinese, it is longer than a lead-in): "According to a local
  rumour, …", "据传，…", "In the novel …, …"; a conditional lead-in ("If the dam is raised, …", "如果…，…")
  stands over the next clause only, and a modal one only when it is a word or two long ("Perhaps, …");
- in a short clause after them reporting who says so ("…, critics claimed", "…, according to legend").

A neutral verb of saying ("said", "according to"; 表示, 称, 认为) makes an attribution frame only with a source
whose word is doubtful in its clause ("His rival said that …", "Critics say …"; 批评者认为).
"""

from __future__ import annotations

import re
from bisect import bisect_right
from dataclasses import dataclass
from functools import cached_property, lru_cache

from ...text.clauses import clause_spans
from ...text.cues import FRAMES, Cue, cues_in, plain, pole
from ...text.negation import counterfactual
from ...text.numbers import numbers_in
from ...text.segment import has_cjk
from ._facts import ClaimFacts, Evidence
from ._words import strict_terms

__all__ = ["Scope", "frames_of", "reports_itself"]

_OWN_STATEMENT = re.compile(
    r"^\W*(?:which|who|whom|whose|where|when|while|whereas|although|though|but|and|yet|however|despite|"
    r"虽然|尽管|但是|但|而|却|然而|并且|且|其中)",
    re.IGNORECASE,
)
_RELATIVE = re.compile(r"^\W*(?:which|who|whose)\b", re.IGNORECASE)
# What a frame before a relative clause leaves to it: a hedge, a condition or a question about its antecedent
# (who claims or tells a story stands over the relative clause too)
_ABOUT_THE_ANTECEDENT = ("modality", "conditional", "question")
_COMPLEMENT = re.compile(r"\b(?:that|whether)\b\s+\S+\s+\S+", re.IGNORECASE)
_SHORT_WORDS = 3
_LEAD_CJK = 10
_SHORT_CJK = 6
_TRAILING_WORDS = 6
_TRAILING_CJK = 12
_SAYING = ("attribution source", "attribution verb")
_ATTRIBUTING = ("attribution", *_SAYING)


@dataclass(frozen=True)
class Scope:
    """An evidence sentence read for one claim: its plain text (:func:`~ragrecall.text.cues.plain`), its
    clauses and those that state the claim."""

    text: str
    clauses: tuple[tuple[int, int], ...]
    chosen: frozenset[int]
    core: frozenset[int]
    """The chosen clauses that hold the quote: frames are read over these (a clause chosen only for a term the
    quote's clauses lack, "It was once believed that the source of the Dunn …; surveyors showed that it …",
    lends the claim its subject, not its frame)."""
    quote_end: int = -1
    """Where the quote ends in ``text`` (-1: not known)."""
    quote_start: int = -1
    """Where the quote starts in ``text`` (-1: not known)."""
    aside: int = -1
    """The last core clause when it is a relative clause after a comma that holds every number of the claim
    ("…, which was costed at 140 million pounds"): a frame before it is about its antecedent (-1: none)."""

    @classmethod
    def of(cls, ev: Evidence, facts: ClaimFacts) -> Scope:
        """The clauses of ``ev``'s sentence that state ``facts``' claim (see the module docstring); read once per
        evidence and claim (the polarity and the reading checks share it)."""
        return _scope(ev, facts)

    @classmethod
    def read(cls, ev: Evidence, facts: ClaimFacts) -> Scope:
        """:meth:`of`, uncached."""
        sentence = plain(ev.text)
        # Clauses are cut in the text as written: NFKC makes a full-width comma an ASCII one with no space after.
        written = ev.text if len(ev.text) == len(sentence) else sentence
        clauses = clause_spans(written) or ((0, len(sentence)),)
        terms = [strict_terms(sentence[s:e]) | numbers_in(sentence[s:e]) for s, e in clauses]
        claim_terms = facts.bigrams | facts.numbers
        qs, qe = _offsets(ev, sentence)
        quoted = [i for i, (s, e) in enumerate(clauses) if s < qe and qs < e] or [0]
        said = (facts.bigrams - facts.name_terms) | facts.numbers
        # A quoted clause holding only the claim's names ("Salloway denied the charge and won …") lends the
        # subject, not the statement: the clauses holding what the claim says come first.
        chosen = {i for i in quoted if terms[i] & said} or {i for i in quoted if terms[i] & claim_terms} or set(quoted)
        core = frozenset(chosen)
        held = frozenset().union(*(terms[i] for i in chosen))
        missing = (claim_terms - held) and ((facts.bigrams - facts.name_terms) | facts.numbers) - held
        if _compared_elsewhere(facts.text, [sentence[clauses[i][0] : clauses[i][1]] for i in chosen]):
            # "founded in 1851, earlier than the Quayside Chess Circle": the other side of a comparison is a name
            missing = missing | (claim_terms - held)
        for term in sorted(missing):
            holders = [i for i, t in enumerate(terms) if term in t and not _parted(written, clauses, i, core)]
            if holders:
                chosen.add(min(holders, key=lambda i: min(abs(i - c) for c in chosen)))
        last = max(core)
        aside = (
            last
            if last > min(core)
            and facts.numbers
            and facts.numbers <= terms[last]
            and _RELATIVE.match(sentence[clauses[last][0] : clauses[last][1]])
            else -1
        )
        return cls(sentence, clauses, frozenset(chosen), core, quote_end=qe, quote_start=qs, aside=aside)

    @property
    def first(self) -> int:
        """Where the first chosen clause starts."""
        return self.clauses[min(self.chosen)][0]

    @property
    def last(self) -> int:
        """Where the last chosen clause ends."""
        return self.clauses[max(self.chosen)][1]

    @cached_property
    def stated(self) -> str:
        """The chosen clauses' text, in order, joined by a space."""
        return " ".join(self.text[s:e] for i, (s, e) in enumerate(self.clauses) if i in self.chosen)

    def clause_of(self, at: int) -> int:
        """The index of the clause holding offset ``at`` (the last clause for an offset past them all)."""
        i = bisect_right(self._starts, at) - 1  # the clauses are in order and do not overlap
        return i if i >= 0 and at < self.clauses[i][1] else len(self.clauses) - 1

    @cached_property
    def _starts(self) -> list[int]:
        return [s for s, _ in self.clauses]

    @cached_property
    def _placed(self) -> list[tuple[Cue, int]]:
        """Each cue of the sentence with the index of its clause (read once per scope)."""
        return [(cue, self.clause_of(cue.start)) for cue in cues_in(self.text)]

    def clauses_text(self, *, core: bool = False) -> str:
        """The text of the chosen clauses (with ``core``, of those holding the quote), in order."""
        clauses = self.core if core else self.chosen
        return " ".join(self.text[s:e] for i, (s, e) in enumerate(self.clauses) if i in clauses)

    def cues(self, *, core: bool = False) -> list[Cue]:
        """The cues of the chosen clauses (with ``core``, of the clauses holding the quote)."""
        clauses = self.core if core else self.chosen
        return [c for c, k in self._placed if k in clauses]

    def frames(self) -> dict[str, str]:
        """Frame class → the words that write it, for each frame standing over the chosen clauses."""
        out: dict[str, str] = {}
        by_clause: dict[int, list[Cue]] = {}
        quoted = self.text[self.quote_start : self.quote_end] if self.quote_start >= 0 else ""
        for cue, k in self._placed:
            if cue.cls in _ATTRIBUTING and self._speaker_quoted(cue) and k in self.core:
                continue  # "the former harbour master Niels Grebe alleged that …": who speaks is not what is said
            if cue.cls == "conditional" and _opens_counterfactual(quoted):
                continue  # "… would have been withdrawn had the islanders not raised £40,000": they raised it
            if cue.cls in FRAMES and 0 <= self.quote_end <= cue.start and self._aside_between(cue.start):
                # "painted … in 1902 so that it could be told apart", "by 24 growers who wanted to sell …",
                # "erected in 1888 to mark the legend": what the quote's thing is for is no frame over the quote
                continue
            if k < self.aside and cue.cls in _ABOUT_THE_ANTECEDENT:
                continue  # "has not decided whether to fund the raising, which was costed at …": the cost stands
            by_clause.setdefault(k, []).append(cue)
        low, high = min(self.core), max(self.core)
        for k, cues in by_clause.items():
            for cls, words in frames_of(cues).items():
                if k in self.core or self._stands_over(k, cls, low, high):
                    out.setdefault(cls, words)
        return out

    def _aside_between(self, at: int) -> bool:
        """Whether a purpose cue ("so that", 以便) or a relative pronoun ("who", "which") stands between the end of
        the quote and offset ``at``: what follows says what the quote's last noun is for or wanted, not that the
        quote is hedged."""
        if _RELATIVE_PRONOUN.search(self.text, self.quote_end, at):
            return True
        return any(c.cls == "purpose" and self.quote_end <= c.start < at for c, _ in self._placed)

    def _speaker_quoted(self, cue: Cue) -> bool:
        """Whether the quote is who speaks: it ends right before the verb of saying ``cue`` ("the former harbour
        master Niels Grebe| alleged that …", 清代藏书家沈观澜|声称), which is no source phrase ("according to")."""
        if not 0 <= self.quote_end <= cue.start or self.text[self.quote_end : cue.start].strip(" ,，"):
            return False
        return not cue.text.casefold().startswith(("according", "as ", "据", "根据", "據", "根據"))

    def _stands_over(self, k: int, cls: str, low: int, high: int) -> bool:
        s, e = self.clauses[k]
        clause = self.text[s:e]
        if _OWN_STATEMENT.match(clause) or (k < low and clause.rstrip().endswith((";", "；"))):
            return False  # a statement of its own: "…, which …", "It was once believed that …; in 1902 …"
        if k < low and _parted(self.text, self.clauses, k, self.core):
            return False  # "Rivals claimed A, but the inspection found B": the frame stops at "but"
        if k > high:
            return cls in ("attribution", "fiction") and _short(clause, _TRAILING_WORDS, _TRAILING_CJK)
        if cls == "conditional":
            return k + 1 in self.core
        if cls == "modality":
            return _short(clause, _SHORT_WORDS, _SHORT_CJK)
        # "Critics claimed that A, but B", 所谓A的说法并不属实，B: a frame with its own complement stands over
        # that complement only
        lead_in = not has_cjk(clause) or _short(clause, 0, _LEAD_CJK) or _SAYING_ENDS.search(clause) is not None
        return k < high and not _COMPLEMENT.search(clause) and lead_in


# A Chinese clause ending on a verb of saying leads in to what follows, however long: "…的前鼓手李冬在回忆录中声称，".
_RELATIVE_PRONOUN = re.compile(r"\b(?:who|whom|whose|which)\b", re.IGNORECASE)
_SAYING_ENDS = re.compile(r"(?:声称|聲稱|宣称|宣稱|据称|據稱|写道|寫道|回忆道|回憶道)\s*[，,:：]\s*$")
_CONTRAST = re.compile(r"^\W*(?:but|however|yet|whereas|although|though|但是|但|然而|却|可是|不过)", re.IGNORECASE)


def _parted(text: str, clauses: tuple[tuple[int, int], ...], i: int, core: frozenset[int]) -> bool:
    """Whether clause ``i`` belongs to another statement than the clauses holding the quote: a clause between
    them (the later of the two included) opens with "but" (但, 然而), or an earlier one ends with a semicolon or
    a colon ("… have never been relegated, but this is a myth: the club went down in 1931 …")."""
    lo, hi = (i, min(core)) if i < min(core) else (max(core), i)
    between = [text[s:e] for s, e in clauses[lo + 1 : hi + 1]]
    ends = [text[s:e].rstrip() for s, e in clauses[lo:hi]]
    return any(_CONTRAST.match(c) for c in between) or any(e.endswith((";", "；", ":", "：")) for e in ends)


@lru_cache(maxsize=4096)
def _scope(ev: Evidence, facts: ClaimFacts) -> Scope:
    return Scope.read(ev, facts)


def _compared_elsewhere(claim: str, clauses: list[str]) -> bool:
    """Whether ``claim`` compares or orders ("later than", 以后) along a dimension none of the ``clauses`` (those
    holding what it says) compares along: the comparison, with its other side, stands in another clause."""
    dims = {p[0] for c in cues_in(claim) if c.cls in ("comparative", "temporal") and (p := pole(c.value))}
    if not dims:
        return False
    written = {
        p[0] for t in clauses for c in cues_in(t) if c.cls in ("comparative", "temporal") and (p := pole(c.value))
    }
    return not dims <= written


@lru_cache(maxsize=4096)
def reports_itself(claim: str, sentence: str) -> bool:
    """Whether ``claim`` itself reports what the evidence ``sentence`` reports first ("Critics claimed that …",
    有评论者认为…): a denial of what was reported ("The manager denied this") does not deny that it was reported.
    A claim that reports something else than the sentence's first report ("the mayor announced that …" from
    "Local papers reported that the mayor announced that …") is what that denial denies."""
    text = plain(claim)
    ours = {c.text.casefold() for c in cues_in(claim) if c.cls in _ATTRIBUTING and _reporting(c, text)}
    if not ours:
        return False
    first = next((c for c in cues_in(sentence) if c.cls in _ATTRIBUTING and len(c.text) > 1), None)
    return first is not None and first.text.casefold() in ours


def _reporting(cue: Cue, text: str) -> bool:
    """Whether a cue of saying in ``text`` reports what follows it: "claimed that …", "according to", 认为…; not
    "wrote the charter", "recalled 30,000 cars" (a verb of one character, 称 or 说, writes other words too)."""
    if len(cue.text) < 2:
        return False
    if not cue.text.isascii():
        return has_cjk(text[cue.end : cue.end + 2].lstrip("，,：: "))
    return cue.cls != "attribution verb" or bool(_THAT_AFTER.match(text, cue.end))


_THAT_AFTER = re.compile(r"\s+(?:[\w'’]+\s+){0,3}?that\b", re.IGNORECASE)


def frames_of(cues: list[Cue]) -> dict[str, str]:
    """Frame class → the words writing it, among ``cues`` (one text's or one clause's): the frame cues, and an
    attribution where a neutral verb of saying has a doubtful source beside it."""
    out: dict[str, str] = {}
    for cue in cues:
        if cue.cls in FRAMES:
            out.setdefault(cue.cls, cue.text)
    saying = {c.cls: c.text for c in cues if c.cls in _SAYING}
    if len(saying) == 2:
        out.setdefault("attribution", f"{saying[_SAYING[0]]} … {saying[_SAYING[1]]}")
    return out


def _opens_counterfactual(quote: str) -> bool:
    """Whether ``quote`` is the negated antecedent of a counterfactual, from its start ("had the islanders not
    raised £40,000 …"): what it says happened; the consequent it leaves out did not."""
    found = counterfactual(quote)
    return found is not None and not quote[: found.start()].strip(" ,;:—-")


def _short(clause: str, words: int, cjk: int) -> bool:
    if has_cjk(clause):
        return len(re.sub(r"\W", "", clause)) <= cjk
    return len(clause.split()) <= words


def _offsets(ev: Evidence, sentence: str) -> tuple[int, int]:
    """The quote's span in the plain sentence (the same as in the sentence, unless NFKC changed a length)."""
    qs, qe = ev.quote_start - ev.start, ev.quote_end - ev.start
    if len(sentence) == len(ev.text):
        return qs, qe
    return len(plain(ev.text[:qs])), len(plain(ev.text[:qe]))
