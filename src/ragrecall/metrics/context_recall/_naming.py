"""Numbers that name a thing rather than count it: a name's number the passage wrote before ("Korrin 4", 5号线,
"the 10,000 m final", 三月换届选举), a month the passage set before the evidence, a number inside a name a
passage writes ("Orvel-4", SP-20, 第三医院). Deterministic, no LLM call."""

from __future__ import annotations

import re
from collections.abc import Sequence

from ...text.cues import plain
from ...text.names import fold_word
from ...text.numbers import Quantity, names_in, numbers_in, quantities
from ...text.segment import has_cjk
from ...text.terms import STOPWORDS
from ._facts import ClaimFacts, Evidence
from ._said_otherwise import is_year

__all__ = ["month_of_passage", "named_before", "part_of_a_name"]


def named_before(n: str, claim: str, evidence: list[Evidence]) -> bool:
    """Whether ``n`` names a thing in the claim (:func:`_names_a_thing`: "Korrin 4", "the women's 10,000 m final",
    5号线, 总决赛第五场, 三月换届选举, "the 2023 festival"; not a count, "40 engineers") and the evidence's passage,
    before the evidence sentence or in it, writes it with a word the claim writes beside it ("The 2023 Oszby
    Lantern Festival": the word three words on at most); while the evidence sentence writes no other number
    beside that word (not 2018年产量 for 2010年产量)."""
    for q in quantities(claim):
        if q.value != n or not _names_a_thing(claim, q):
            continue
        ours = _beside(claim, q)
        for ev in evidence:
            if any(o.value != n and _shares(ours, _beside(ev.text, o)) for o in quantities(ev.text)):
                continue
            upto = ev.earlier + ev.text
            named = [p for p in quantities(ev.earlier) if _shares(ours, _beside(upto, p, reach=3))]
            # 该线路 after "地铁5号线一期…": the last thing of its kind named before is the claim's
            last = bool(named) and named[-1].value == n
            if _another_of_its_kind(ours, ev.text, back=last):
                continue  # 上一场比赛, 已开通的线路, 上届选举: the evidence names a thing of that kind of its own
            if any(p.value == n for p in named):
                return True
    return False


def month_of_passage(n: str, claim: str, evidence: list[Evidence]) -> bool:
    """Whether the claim's month ``n`` (``month:MM``) is the one the evidence's passage wrote before it ("Potato
    prices fell in October. Onion prices stayed flat."), while no evidence sentence writes a month of its own or
    names another thing of what the month names (上届选举 for 三月换届选举)."""
    if not n.startswith("month:") or any(m.startswith("month:") for ev in evidence for m in numbers_in(ev.text)):
        return False
    named = [_beside(claim, q) for q in quantities(claim) if q.value == n]
    return any(
        n in numbers_in(ev.earlier) and not any(_another_of_its_kind(ours, ev.text) for ours in named)
        for ev in evidence
    )


def _another_of_its_kind(ours: tuple[str, tuple[str, ...]], text: str, *, back: bool = False) -> bool:
    """Whether Chinese ``text`` writes a character of what the claim's number names (场 of 第五场中, 线 of 5号线)
    after a word that points to another one (上一场, 已开通的线路, 上届); with ``back`` (the last thing of that kind
    named before is the claim's), 该, 这, 此 and 本 point back to it."""
    after = ours[1][0] if ours[1] else ""
    other = _ANOTHER_AFTER_THIS if back else _OTHER_ONE
    return any(re.search(f"[{other}][^，。；]{{0,2}}{re.escape(c)}", text) for c in after if c not in "的之了中里上")


_OTHER_ONE = "上下本前首另这那该已的此"
_ANOTHER_AFTER_THIS = "".join(c for c in _OTHER_ONE if c not in "该这此本")


def _names_a_thing(claim: str, q: Quantity) -> bool:
    """Whether a quantity of ``claim`` is part of what names a thing rather than a count of it: a year or a month,
    an ordinal (第五场) or a number (5号线), a measure with a noun after it ("the 10,000 m final", 400米栏), or a
    number after a capitalised word ("Korrin 4")."""
    if is_year(q.value) or q.value.startswith("month:") or claim[q.start - 1 : q.start] == "第":
        return True
    if has_cjk(claim[q.end : q.end + 1]):
        return claim[q.end : q.end + 1] == "号" or _CJK_EVENT.match(claim, q.end) is not None
    before = _WORD_BEFORE.search(claim[: q.start])
    return bool(q.units and _WORDS_AFTER.match(claim, q.end)) or bool(before and before.group(1)[0].isupper())


# A distance that names a race (男子400米栏, 10000米决赛), as "the 10,000 m final" does.
_CJK_EVENT = re.compile(r"(?:米|公里|千米)(?:栏|跑|赛跑|决赛|自由泳|蛙泳|仰泳|蝶泳|混合泳|接力|越野|竞走|障碍|短跑)")


def _beside(text: str, q: Quantity, reach: int = 1) -> tuple[str, tuple[str, ...]]:
    """The word right before a quantity of ``text`` and the ``reach`` words after it (two characters in Chinese),
    folded; none for a function word, or where a mark or the text's end stands between."""
    before, after = text[: q.start], text[q.end :]
    if has_cjk(before[-1:]) or has_cjk(after[:1]):
        return (before[-2:] if has_cjk(before[-2:]) else "", (after[:2],) if has_cjk(after[:2]) else ())
    left = _WORD_BEFORE.search(before)
    right = _WORDS_AFTER.match(after)
    word = fold_word(left.group(1)) if left else ""
    following = [fold_word(w) for w in right.group().split()[:reach]] if right else []
    return ("" if word in STOPWORDS else word, tuple(w for w in following if w not in STOPWORDS))


_WORD_BEFORE = re.compile(r"([^\W\d_]+(?:['’]s)?)\s+$")
_WORDS_AFTER = re.compile(r"(?:\s+[^\W\d_]+)+")


def _shares(ours: tuple[str, tuple[str, ...]], theirs: tuple[str, tuple[str, ...]]) -> bool:
    """Whether two quantities have the same word before them, or the first word after one is among the words
    after the other."""
    return bool(ours[0] and ours[0] == theirs[0]) or bool(ours[1] and ours[1][0] in theirs[1])


def _names(texts: Sequence[str]) -> frozenset[str]:
    return frozenset().union(*(names_in(t) for t in texts))


def part_of_a_name(n: str, facts: ClaimFacts, texts: Sequence[str]) -> bool:
    """Whether ``n`` is written inside a name of the claim ("Orvel-4", "Apollo 11", SP-20, 第三医院) that a passage
    of the sample writes: it names the thing, it counts nothing of it."""
    inside = re.compile(rf"(?<![\d.,]){re.escape(n)}(?![\d.,]\d)")
    if any(not name.cjk and inside.search(name.text) and any(name.text in t for t in texts) for name in facts.names):
        return True
    # 晴川SP-20电热水壶: letters and digits a passage writes as they stand
    if any(n in re.findall(r"\d+(?:\.\d+)?", name) for name in names_in(facts.text) & _names(texts)):
        return True
    # 南州市第三医院: an ordinal and the two characters after it, as a passage writes them, name a thing
    claim = plain(facts.text)
    return any(
        q.value == n
        and claim[q.start - 1 : q.start] == "第"
        and has_cjk(claim[q.end : q.end + 2])
        and any(claim[q.start - 1 : q.end + 2] in plain(t) for t in texts)
        for q in quantities(claim)
    )
