"""Forms of worlds XVI and XIX, read after their blind scoring (their figures stay those of that scoring): a
Chinese comma after a date separates the year after it; 一百周年 counts years, not weeks; a negated claim against
a word of closing (不开放, 闭馆); "to mark the legend" after the quote is what the thing is for, no frame over it;
a participle after its noun ("a building society founded in Leeds") is a passive; a sentence before that points
to the next and calls it false ("The following account … is false.", 下面这个说法是错误的), or one after that calls
"that figure" untrue or says 这条消息…被…否认, denies it. The lie beside each is caught, and the same openings
without a word of falsity deny nothing."""

from __future__ import annotations

import pytest

from helpers.claims import assert_caught, assert_verified
from ragrecall.metrics.context_recall._stated import stated_support
from ragrecall.metrics.context_recall._verify import Contexts
from ragrecall.text.numbers import numbers_in, quantities

NURSERY = ["苗圃学家贺兰舟生于1876-04-11，1902年在龙首山下创办了龙首苗圃。"]
LIBRARY = ["河阳区少儿图书馆2014年对外开放。", "该馆每周一闭馆。暑假期间馆方会组织夏令营。"]
FOUNTAIN = ["The Tell fountain in the market square was erected in 1888 to mark the legend."]
SOCIETY = ["Claremont Mutual was a building society founded in Leeds in 1868."]


def test_a_chinese_comma_after_a_date_separates_the_next_year() -> None:
    assert {"1876-04-11", "1902"} <= numbers_in(NURSERY[0])


def test_an_anniversary_counts_years() -> None:
    assert [("100", "year" in q.units) for q in quantities("建校一百周年")] == [("100", True)]


@pytest.mark.parametrize(
    ("claim", "contexts", "quotes"),
    [
        ("贺兰舟在1902年创办了龙首苗圃。", NURSERY, [(1, "1902年在龙首山下创办了龙首苗圃")]),
        ("该馆周一不开放。", LIBRARY, [(2, "该馆每周一闭馆")]),
        ("The Tell fountain was erected in 1888.", FOUNTAIN,
         [(1, "The Tell fountain in the market square was erected in 1888")]),
        ("Claremont Mutual was founded in Leeds in 1868.", SOCIETY, [(1, SOCIETY[0][:-1])]),
    ],
)  # fmt: skip
def test_the_honest_form_verifies(claim: str, contexts: list[str], quotes: list[tuple[int, str]]) -> None:
    assert_verified(claim, contexts, *quotes)


@pytest.mark.parametrize(
    ("claim", "contexts", "quotes", "check"),
    [
        ("贺兰舟在1903年创办了龙首苗圃。", NURSERY, [(1, "1902年在龙首山下创办了龙首苗圃")], "number not in evidence"),
        ("该馆周一开放。", LIBRARY, [(2, "该馆每周一闭馆")], ""),
        ("The Tell fountain was erected in 1888.",
         ["According to a legend, the Tell fountain in the market square was erected in 1888."],
         [(1, "the Tell fountain in the market square was erected in 1888")], "the evidence only reports it"),
        ("Leeds founded Claremont Mutual in 1868.", ["Claremont Mutual founded Leeds in 1868."],
         [(1, "Claremont Mutual founded Leeds in 1868")], "roles differ"),
    ],
)  # fmt: skip
def test_the_lie_beside_it_is_caught(
    claim: str, contexts: list[str], quotes: list[tuple[int, str]], check: str
) -> None:
    assert_caught(claim, contexts, quotes, check)


CEDAR = "Lord Arnley planted the great cedar at Harcliffe in 1760 with his own hands"
TIN = "锁龙镇的锡矿开采始于唐代开元年间"


@pytest.mark.parametrize(
    ("context", "stated"),
    [
        (f"The following account, printed in the 1930 guidebook, is false. {CEDAR}.", False),
        (f"The following year the gardens opened to visitors. {CEDAR}.", True),
        (f"The following account, printed in the 1930 guidebook, is complete. {CEDAR}.", True),
        (f"{CEDAR}. That figure, repeated in many guidebooks, is untrue.", False),
        (f"{CEDAR}. That figure, repeated in many guidebooks, is exact.", True),
    ],
)
def test_a_denial_around_a_sentence_that_points_to_it(context: str, stated: bool) -> None:
    assert (stated_support(CEDAR, Contexts([context])) is not None) == stated


@pytest.mark.parametrize(
    ("context", "stated"),
    [
        (f"下面这个说法是错误的。{TIN}。", False),
        (f"下面介绍锁龙镇的历史。{TIN}。", True),
        (f"{TIN}。这条消息当天就被镇政府否认。", False),
    ],
)
def test_a_chinese_denial_around_a_sentence_that_points_to_it(context: str, stated: bool) -> None:
    assert (stated_support(TIN, Contexts([context])) is not None) == stated


@pytest.mark.parametrize(
    ("claim", "context"),
    [
        (f"{TIN}。", f"下面这个说法是错误的。{TIN}。考古调查表明，采锡不早于明代。"),
        (f"{CEDAR}.", f"The following account is false. {CEDAR}. Estate papers name the head gardener."),
    ],
)
def test_a_judged_quote_after_a_sentence_that_calls_it_false_is_caught(claim: str, context: str) -> None:
    assert_caught(claim, [context], [(1, claim.rstrip("。."))], "negation differs")
