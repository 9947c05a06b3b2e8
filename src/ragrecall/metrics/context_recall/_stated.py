"""Claims code can decide without the judge, and "unsupported" verdicts code can contradict.

- A claim written word for word in a passage (folded as quotes are: case, width, spacing, punctuation, Traditional
  and Simplified Chinese), with its numbers (no scale word after them that the claim lacks), that the passage
  *asserts* — as evidence it passes every check of :mod:`._checks`: no negation, denial, hedge, condition,
  attribution, fiction or question stands over it that the claim does not write itself — is *stated*:
  supported by code, its support the located span, and the judge is not asked about it. Written inside a
  frame ("Critics claimed that …", "…, which was later disproven", 据传…), it goes to the judge. A claim that is
  its whole sentence as written is read only against the sentence after it (a denial there: "The company's own
  history denies this"); every other check would compare the claim with itself.
- An "unsupported" verdict is *contestable* when one sentence of one passage says the claim: it holds every
  content term (stemmed words; CJK characters) and number of the claim, and as the claim's evidence it passes
  every check (the same polarity, frames, cue values, roles, numbers in the same clauses). The judge is asked
  again once; a verdict that stays unsupported is recorded as ``"contested"``. A sentence holding the claim's
  words in another order or frame is no reason to ask again.

Both need a claim of :data:`MIN_TERMS` content terms or more and
:data:`~ragrecall.text.locate.FUZZY_MIN_CHARS` folded characters (with CJK text,
:data:`~ragrecall.text.locate.FUZZY_MIN_CJK_CHARS`): a shorter claim ("Lyon is on the Rhône.")
says too little for matching to decide it, and goes to the judge.
"""

from __future__ import annotations

import re

from ...text.clauses import clause_spans
from ...text.cues import FRAMES, cues_in
from ...text.locate import FUZZY_MIN_CHARS, FUZZY_MIN_CJK_CHARS, fold, locate
from ...text.names import claim_names, folded_words
from ...text.negation import denied_after, denies_the_next_sentence, negations
from ...text.numbers import numbers_in, quantities
from ...text.segment import has_cjk, last_sentence
from ...text.terms import content_terms
from ._checks import check_evidence
from ._evidence import QUOTE_WINDOW, Quote
from ._facts import ClaimFacts, Evidence, claim_facts, failed
from ._scope import reports_itself
from ._verify import Contexts
from ._words import words

__all__ = ["MIN_TERMS", "contestable", "stated_support"]

MIN_TERMS = 3
"""Content terms a claim needs to be decided or contested by matching."""


def stated_support(claim: str, contexts: Contexts) -> Quote | None:
    """The passage that writes ``claim`` word for word and asserts it (see the module docstring), located, or
    None."""
    facts = claim_facts(claim)
    if not _long_enough(claim, facts.terms):
        return None
    for i in range(len(contexts)):
        found = locate(claim, contexts.folded(i), threshold=1.0)
        if found is None:
            continue
        quote = _quote(i, found.start, found.end, contexts)
        if numbers_in(quote.passage or "") != facts.numbers:
            continue  # the passage goes on with a scale word: "$1.2" of "$1.2 billion"
        evidence = Evidence.of(quote, contexts)
        if not _whole_sentence(evidence) or _set_apart(evidence):
            continue  # part of a sentence ("Critics claimed that …", "In the novel …, …"), or one framed around it
        if _same_text(evidence.text, claim):
            # The claim is its sentence: each check compares the claim with itself, but the sentence after it.
            if denied_after(evidence.later, opening=True) and not reports_itself(claim, evidence.text):
                continue  # "… in 1851. The company's own history denies this."
        elif check_evidence(claim, [quote], [evidence], contexts) is not None:  # a note of what is unread too
            continue  # written, not asserted: "Critics claimed that …", "…, which was later disproven"
        return quote.model_copy(update={"sentence": evidence.text})
    return None


def _same_text(sentence: str, claim: str) -> bool:
    """Whether ``sentence`` is ``claim`` as written, but for case, spacing and closing marks ("12 km" is not
    "12 km²", though they fold alike)."""
    return _as_written(sentence) == _as_written(claim)


def _as_written(text: str) -> str:
    return " ".join(text.split()).rstrip(" .。!！?？;；").casefold()


_CITATION = re.compile(r"\[\d+(?:[,–-]\s*\d+)*\]")
_CORRECTION = re.compile(
    r"^\W*(?:in (?:reality|fact|practice|truth)|actually|this (?:is|was) (?:wrong|incorrect|false|untrue|a myth)"
    r"|so (?:say|says|said|claim|claims)|but |however|no (?:evidence|record)|there is no|the story|the claim"
    r"|事实上|实际上|其实|现实中|历史上|然而|但|不过|这一说法|此说|该说法|这种说法|这则|这个说法)",
    re.IGNORECASE,
)


def _whole_sentence(evidence: Evidence) -> bool:
    """Whether the located claim is its sentence: nothing but punctuation and citation marks around it, but an
    opening that affirms it ("In fact,", "It is true that", 事实上，) and a clause after it that adds a fact
    without a frame, a negation, a denial, a report or a "but" (", bringing back more than 20,000 specimens")."""
    before = _CITATION.sub("", evidence.text[: evidence.quote_start - evidence.start])
    end = evidence.quote_end - evidence.start
    while end > 0 and evidence.text[end - 1] in ",;，；":  # the claim's full stop matched the clause's comma
        end -= 1
    after = _CITATION.sub("", evidence.text[end:])
    # what stands after "…, but in fact" opens the claim's statement; a belief before it is contradicted
    contrasts = list(_IN_FACT.finditer(before))
    opening = before[contrasts[-1].end() :] if contrasts else before
    if fold(before) and (not _AFFIRMED.fullmatch(before.strip()) or negations(opening) or _reports(opening)):
        return False  # not an affirming opening, or a negated or reported one: "没有任何证据表明，", "小说中，…证实，"
    if not fold(after):
        return True
    return bool(_ADDED.match(after)) and not (
        negations(after) or denied_after(after) or _CORRECTION.search(after) or _reports(after)
    )


_AFFIRMED = re.compile(
    r"(?:in fact|indeed|actually|in reality|it is true that|it is certain that|it is confirmed that"
    r"|(?:[\w'’ -]{0,40}\s)?(?:records?|documents?|tests?|studies|surveys?|analysis|research|researchers|experts?"
    r"|archives?|excavations?|inquiry|inquiries|investigations?|investigators|audits?|the court|reviews?)"
    r"(?:\s+(?:from|at|of)\s+[\w'’ -]{1,40}?)?"
    r" (?:show|showed|shows|confirm|confirmed|confirms|establish|established|prove|proved"
    r"|proves) that|as (?:the )?[\w ]{0,40} (?:confirmed|confirms?|established|establish(?:es)?|showed|shows?|proved"
    r"|proves?)"
    r"|undoubtedly|without (?:a )?doubt|certainly|contrary to [\w ]{1,30}"
    r"|(?:although|though|while|虽然|尽管)[^,，;；]{0,80}[,，]\s*(?:but|但是|但|却)?"
    r"|事实上|实际上|的确|确实|经考证|事实证明|可以确定的是|可以肯定的是|经核实|经证实|经查证|经调查"
    r"|毫无疑问|无疑|显然|与[\u4e00-\u9fff]{1,8}相反"
    r"|(?:[\u4e00-\u9fff]{1,12}[，,])?[\u4e00-\u9fff]{0,10}(?:证实|确认|查明|表明|显示|证明)(?:了)?"
    # "Many believed the ferry would replace it, but in fact …": what came before is contradicted, not a frame
    r"|[^.!?。！？]*[,，;；]\s*(?:but|yet|但|但是|然而|不过)\s*[,，]?\s*"
    r"(?:in fact|actually|in reality|事实上|实际上|其实))"
    r"[\s,，:：]*",
    re.IGNORECASE,
)
# A contrast that closes what came before ("Many believed …, but in fact", 虽然有人怀疑…，但): what follows it is
# the statement, read on its own.
_IN_FACT = re.compile(
    r"[,，;；]\s*(?:but|yet|但是|但|然而|不过|却)(?:\s*[,，]?\s*(?:in fact|actually|in reality|事实上|实际上|其实))?",
    re.I,
)
_ADDED = re.compile(r"^\s*[,，;；]\s*\S")


def _reports(text: str) -> bool:
    return any(c.cls in FRAMES or c.cls in ("attribution verb", "attribution source") for c in cues_in(text))


def _set_apart(evidence: Evidence) -> bool:
    """Whether the sentences around the claim's frame it: the one before ends in a colon ("The plaque reads:") or
    calls the next false ("The following account … is false."),
    or the one after opens by correcting or reporting it ("In fact …", "So say the programmes", 事实上…)."""
    if evidence.earlier.rstrip().endswith((":", "：")):
        return True
    if evidence.earlier and denies_the_next_sentence(last_sentence(evidence.earlier)):
        return True  # "The following account, printed in the 1930 guidebook, is false."
    return _CORRECTION.match(evidence.later) is not None


def _quote(context: int, start: int, end: int, contexts: Contexts) -> Quote:
    """The span ``[start, end)`` of a context as an exact quote of it."""
    text = contexts.texts[context]
    passage = text[start:end]
    return Quote(
        context=context,
        cited=context,
        quote=passage,
        match="exact",
        start=start,
        end=end,
        similarity=1.0,
        passage=passage,
        before=text[max(0, start - QUOTE_WINDOW) : start],
        after=text[end : end + QUOTE_WINDOW],
    )


def _other_figure(facts: ClaimFacts, sentence: str) -> bool:
    """Whether the clauses of ``sentence`` holding the claim's words also hold a figure of the kind of one of the
    claim's (a year for a year) that the claim does not write: "The North Stand was opened in 1956 and the South
    Stand in 1972" does not say the South Stand was opened in 1956."""
    clauses = clause_spans(sentence) or ((0, len(sentence)),)
    holding = [i for i, (s, e) in enumerate(clauses) if words(sentence[s:e]) & facts.terms]
    if not holding or not facts.numbers:
        return False
    span = sentence[clauses[min(holding)][0] : clauses[max(holding)][1]]
    kinds = {_kind(q.value, facts.text) for q in quantities(facts.text)}
    return any(q.value not in facts.numbers and _kind(q.value, span) in kinds for q in quantities(span))


def _other_subject(facts: ClaimFacts, sentence: str) -> bool:
    """Whether ``sentence`` opens with a name the claim does not write ("Brankstone joined the society in 1899,
    four years before Henrik Ost" says nothing of when Ost joined)."""
    opening = claim_names(sentence)[:1]
    if not opening or opening[0].cjk:
        return False
    name = opening[0]
    at = sentence.find(name.text)
    return len(sentence[:at].split()) < 3 and not set(name.words) <= folded_words(facts.text)


def _paired_otherwise(claim: str, sentence: str) -> bool:
    """Whether the claim pairs its figures with other words than the sentence does: a clause of the claim with a
    figure shares more words with another clause of the sentence than with the one holding that figure
    (冰川体育馆于2015年落成，2008年进行了第一次扩建 against 于2008年落成，2015年进行了第一次扩建)."""
    ours = clause_spans(claim) or ((0, len(claim)),)
    theirs = clause_spans(sentence) or ((0, len(sentence)),)
    if len(ours) < 2 or len(theirs) < 2:
        return False
    their_words = [words(sentence[s:e]) for s, e in theirs]
    their_numbers = [numbers_in(sentence[s:e]) for s, e in theirs]
    for s, e in ours:
        part = claim[s:e]
        for n in numbers_in(part):
            holding = [k for k, ns in enumerate(their_numbers) if n in ns]
            if len(holding) != 1:
                continue
            shared = [len(words(part) & w) for w in their_words]
            best = max(range(len(theirs)), key=lambda k: shared[k])
            if shared[best] > shared[holding[0]]:
                return True
    return False


def _kind(value: str, text: str) -> str:
    return "year" if value.isdigit() and len(value) == 4 and 1000 <= int(value) <= 2100 else "figure"


def _long_enough(claim: str, terms: frozenset[str]) -> bool:
    folded = fold(claim)
    return len(terms) >= MIN_TERMS and len(folded) >= (FUZZY_MIN_CJK_CHARS if has_cjk(folded) else FUZZY_MIN_CHARS)


def contestable(claim: str, contexts: Contexts) -> bool:
    """True when one sentence of one passage says ``claim``: it holds every content term and number of the
    claim, and as evidence it passes every check (see the module docstring)."""
    facts = claim_facts(claim)
    if not _long_enough(claim, facts.terms):
        return False
    # A stemmed term's first three letters start the word it came from (cities: city, harbour: harbor): they are
    # found in the lower-cased text of any sentence that holds the term.
    starts = [t[:3] for t in facts.terms]
    for i, text in enumerate(contexts.texts):
        for start, end in contexts.sentences(i):
            sentence = text[start:end]
            # The words of ASCII text are among its plain terms (numbers take no word away from it), which
            # cost a tenth of reading its numbers: most sentences lack a term of the claim, found here, most
            # of them by looking for the terms' letters before reading the sentence's terms.
            if sentence.isascii():
                lowered = sentence.lower()
                if not all(s in lowered for s in starts):
                    continue
                if not facts.terms <= content_terms(sentence, stem=True, cjk="chars"):
                    continue
            if not (facts.terms <= words(sentence) and facts.numbers <= numbers_in(sentence)):
                continue
            if _other_figure(facts, sentence) or _other_subject(facts, sentence) or _paired_otherwise(claim, sentence):
                continue
            quote = _quote(i, start, end, contexts)
            if not failed(check_evidence(claim, [quote], [Evidence.of(quote, contexts)], contexts)):
                return True
    return False
