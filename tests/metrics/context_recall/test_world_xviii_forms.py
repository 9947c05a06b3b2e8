"""Forms of the eighteenth held-out world, after its blind scoring: "Vega-R" is not "Vega-S"; a sentence-wide
cue over the claim's own negation ("It is not true that … voted against") denies it; "No. 9" and 无党派 are no
negations; 一吨半 is 1.5 t; a Chinese sentence opening on the head noun another passage names its subject with
(卫星 after 星河一号卫星); "finds are held by" for "finds are kept at"; a modal in a relative clause after the quote;
a verb after a number counts nothing; "2,000 voters" writes no year; a number inside a name a passage writes.
The lie beside each is caught."""

from __future__ import annotations

import pytest

from helpers.claims import assert_caught, assert_verified
from ragrecall.metrics.context_recall._stated import contestable
from ragrecall.metrics.context_recall._verify import Contexts
from ragrecall.text.numbers import quantities

VEGA = ["The satellite Vega-S was launched in 2011, two years after Vega-R. Both were built by Lunde Optics."]
BROOK = ["It is not true that Senator Hal Brook voted against the 1967 budget; the journal records his vote in favour."]


def test_names_told_apart_by_a_letter_are_read_as_two() -> None:
    assert contestable("The satellite Vega-S was launched in 2011, two years after Vega-R.", Contexts(VEGA))
    assert not contestable("The satellite Vega-R was launched in 2011, two years after Vega-S.", Contexts(VEGA))


@pytest.mark.parametrize(
    ("text", "value", "unit"),
    [
        ("整星重约一吨半", "1.5", "t"),
        ("两年半", "2.5", "year"),
        ("一个半小时", "1.5", "hour"),
        ("三个半月", "3.5", "month"),
    ],
)
def test_a_number_and_a_half(text: str, value: str, unit: str) -> None:
    assert [(q.value, unit in q.units) for q in quantities(text)] == [(value, True)]


@pytest.mark.parametrize("text", ["一半的人", "一大半", "第一季半决赛", "两场半决赛"])
def test_a_half_of_its_own_is_no_number_and_a_half(text: str) -> None:
    assert not any(q.value.endswith(".5") for q in quantities(text))


@pytest.mark.parametrize(
    ("claim", "contexts", "quotes"),
    [
        ("It is not true that Senator Hal Brook voted against the 1967 budget.", BROOK,
         [(1, "It is not true that Senator Hal Brook voted against the 1967 budget")]),
        ("Engine No. 9 was built by Fowler & Crane.",
         ["Engine No. 9, a tank engine built by Fowler & Crane, is kept at Pellin."],
         [(1, "a tank engine built by Fowler & Crane")]),
        ("郑国梁此前已连任两届。", ["无党派候选人苏婉清击败了连任两届的郑国梁。"], [(1, "连任两届的郑国梁")]),
        ("长风卫星整星重约1.5吨。", ["长风卫星由华西公司研制，整星重约一吨半。"], [(1, "整星重约一吨半")]),
        ("星河一号运行在约645公里高的轨道上。",
         ["2016年发射了星河一号卫星。", "卫星运行在高度约645公里的轨道上。"],
         [(2, "卫星运行在高度约645公里的轨道上")]),
        ("The Croyle finds are kept at the Tarrant Museum.", ["The Croyle finds are held by the Tarrant Museum."],
         [(1, "The Croyle finds are held by the Tarrant Museum")]),
        ("The Stanway Cooperative was founded in 1932 by 24 growers.",
         ["The Stanway Cooperative was founded in 1932 by 24 growers who wanted to sell direct to brewers."],
         [(1, "The Stanway Cooperative was founded in 1932 by 24 growers")]),
        ("Drury held the Hessing seat by 640 votes in 1983.",
         ["The 1983 Hessing election was bitter. Critics claimed that Paul Drury paid 2,000 voters. "
          "Drury held the seat by 640 votes."], [(1, "Drury held the seat by 640 votes")]),
        ("Orvel-4 is designed to last seven years.",
         ["Orvel-4 is a radar satellite.", "It is designed for a life of seven years."],
         [(2, "It is designed for a life of seven years")]),
    ],
)  # fmt: skip
def test_the_honest_form_verifies(claim: str, contexts: list[str], quotes: list[tuple[int, str]]) -> None:
    assert_verified(claim, contexts, *quotes)


@pytest.mark.parametrize(
    ("claim", "contexts", "quotes", "check"),
    [
        ("Senator Hal Brook voted against the 1967 budget.", BROOK,
         [(1, "It is not true that Senator Hal Brook voted against the 1967 budget")], "negation differs"),
        ("There were no 9 engines at Pellin.", ["There were 9 engines at Pellin."],
         [(1, "There were 9 engines at Pellin")], "negation differs"),
        ("Drury held the Hessing seat by 640 votes in 1983.",
         ["The 1983 Hessing election was bitter. In 1987 Drury held the seat by 640 votes."],
         [(1, "In 1987 Drury held the seat by 640 votes")], "year differs"),
        ("Orvel-5 is designed to last seven years.",
         ["Orvel-4 is a radar satellite.", "It is designed for a life of seven years."],
         [(2, "It is designed for a life of seven years")], "number not in evidence"),
    ],
)  # fmt: skip
def test_the_lie_beside_it_is_caught(
    claim: str, contexts: list[str], quotes: list[tuple[int, str]], check: str
) -> None:
    assert_caught(claim, contexts, quotes, check)
