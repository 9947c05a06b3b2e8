"""Forms of the seventeenth held-out world, after its blind scoring: "The company said" names no speaker to
compare; a "without …" phrase negates its own words only; 予以否认 denies the sentence before, as the claim's
"否认了这一说法" does; 无机 is no negation; an affirming opening after a lead-in ("Researchers from Brayford
University confirmed that", "The inquiry established that", "As the minutes confirm", 毫无疑问) asserts, a negated
one ("没有任何证据表明") does not. The lie beside each is caught."""

from __future__ import annotations

import pytest

from helpers.claims import assert_caught, assert_verified
from ragrecall.metrics.context_recall._stated import stated_support
from ragrecall.metrics.context_recall._verify import Contexts

PHARMA = ["Dorrance Pharma said its drug had failed. The company said it would cut 300 jobs."]
REGULATOR = ["The regulator approved quenbimab in 2020 without requiring further trials."]
RUMOUR = "有网帖声称安和药业隐瞒了两例病例。安和药业随即发表声明{}。"


@pytest.mark.parametrize(
    ("claim", "contexts", "quotes"),
    [
        ("Dorrance Pharma said it would cut 300 jobs.", PHARMA, [(1, "The company said it would cut 300 jobs")]),
        ("Quenbimab was approved in 2020.", REGULATOR, [(1, REGULATOR[0][:-1])]),
        ("安和药业发表声明否认了这一说法。", [RUMOUR.format("予以否认")], [(1, "安和药业随即发表声明予以否认")]),
        ("鹤溪大学化学系现设四个教研室。", ["鹤溪大学化学系现设无机、有机、分析、物理化学四个教研室。"],
         [(1, "鹤溪大学化学系现设无机、有机、分析、物理化学四个教研室")]),
    ],
)  # fmt: skip
def test_the_honest_form_verifies(claim: str, contexts: list[str], quotes: list[tuple[int, str]]) -> None:
    assert_verified(claim, contexts, *quotes)


@pytest.mark.parametrize(
    ("claim", "contexts", "quotes", "check"),
    [
        ("The regulator required further trials of quenbimab.", REGULATOR, [(1, REGULATOR[0][:-1])],
         "negation differs"),
        ("安和药业发表声明否认了这一说法。", [RUMOUR.format("承认了这一说法")],
         [(1, "安和药业随即发表声明承认了这一说法")], "negation differs"),
        ("Harlow Foods said it would cut 300 jobs.",
         ["Harlow Foods said sales fell; Dorrance Pharma said it would cut 300 jobs."],
         [(1, "Dorrance Pharma said it would cut 300 jobs")], "speaker differs"),
    ],
)  # fmt: skip
def test_the_lie_beside_it_is_caught(
    claim: str, contexts: list[str], quotes: list[tuple[int, str]], check: str
) -> None:
    assert_caught(claim, contexts, quotes, check)


CLAIM = "Mossbury's reservoir loses about 40 litres of water a second"
ZH = "永泰药业曾在2015年向监管官员行贿三百万元"


@pytest.mark.parametrize(
    ("claim", "context", "stated"),
    [
        (CLAIM, f"Researchers from Brayford University confirmed that {CLAIM}.", True),
        (CLAIM, f"The inquiry established that {CLAIM}.", True),
        (CLAIM, f"As the minutes confirm, {CLAIM}.", True),
        (CLAIM, f"No study from Brayford University confirmed that {CLAIM}.", False),
        (ZH, f"毫无疑问，{ZH}。", True),
        (ZH, f"没有任何证据表明，{ZH}。", False),
    ],
)
def test_stated_only_where_asserted(claim: str, context: str, stated: bool) -> None:
    assert (stated_support(claim, Contexts([context])) is not None) == stated


CLUBS = ["The Penhallow Chess Club was founded in 1851, earlier than the Quayside Chess Circle."]
RIVERS = ["清漪河是沅桑江的一条支流，全长80公里。"]


@pytest.mark.parametrize(
    ("claim", "contexts", "quote", "verified"),
    [
        ("The Penhallow Chess Club was founded later than the Quayside Chess Circle.", CLUBS, CLUBS[0][:-1], False),
        ("The Quayside Chess Circle was founded later than the Penhallow Chess Club.", CLUBS, CLUBS[0][:-1], True),
        ("The Penhallow Chess Club was founded earlier than the Quayside Chess Circle.", CLUBS, CLUBS[0][:-1], True),
        ("沅桑江是清漪河的一条支流。", RIVERS, "清漪河是沅桑江的一条支流", False),
        ("清漪河是沅桑江的一条支流。", RIVERS, "清漪河是沅桑江的一条支流", True),
    ],
)
def test_a_comparison_after_a_comma_and_a_classifier_are_read(
    claim: str, contexts: list[str], quote: str, verified: bool
) -> None:
    if verified:
        assert_verified(claim, contexts, (1, quote))
    else:
        assert_caught(claim, contexts, [(1, quote)], "")
