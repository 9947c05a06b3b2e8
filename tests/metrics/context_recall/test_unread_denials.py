"""A negated claim is held to its evidence only where code can read the denial: the evidence writes every word
of the claim but its negations ("did not close" against "closed"). A denial said in other words ("does not
freeze" against "stays ice-free") is the judge's reading, never a flag; a quantifier of none ("none survived",
无一生还) is still not "a few survived"; a sentence-wide denial of a negated statement asserts it ("It is false
that the well never froze", 并非…从未结冰); an existential opening (有专家认为, 没有史料) names no subject."""

from __future__ import annotations

import pytest

from helpers.claims import assert_caught, assert_verified, checked
from ragrecall.metrics.context_recall._stated import contestable
from ragrecall.metrics.context_recall._verify import Contexts

WELL = [
    "Local guidebooks repeat many stories about the Cawley Well. It is false that Cawley Well never froze during "
    "the winter of 1947; parish records describe it frozen solid for nine days. The well was capped in 1962."
]
WELL_ZH = ["导游常讲述许多关于龙眼井的故事。并非龙眼井在1947年冬天从未结冰，据乡志记载，井水当年曾冻结九天。"]


def test_not_every_reads_as_a_quantifier_of_part() -> None:
    # "not every delegate stayed" agrees with "some stayed" (which implies not all did) and differs from "all
    # stayed"; it is read as a value of the quantifier class, not as a negation of the clause
    part = ["Some of the 40 delegates to the Vell congress stayed for the closing vote."]
    verification, problem = checked(
        "Not every delegate to the Vell congress stayed for the closing vote.", part, (1, part[0][:-1])
    )
    assert verification == "verified", problem
    every = ["All of the 40 delegates to the Vell congress stayed for the closing vote."]
    verification, problem = checked(
        "Not all delegates to the Vell congress stayed for the closing vote.", every, (1, every[0][:-1])
    )
    assert verification != "verified" and problem is not None and problem.startswith("quantifier differs")


@pytest.mark.parametrize(
    ("claim", "contexts", "quote"),
    [
        (
            "Voss Harbour does not freeze at any time of year.",
            ["Voss Harbour, on the Skerring coast, stays ice-free all year round."],
            (1, "Voss Harbour, on the Skerring coast, stays ice-free all year round"),
        ),
        (
            "鹤岭矿业2020年没有发生死亡事故。",
            ["2020年，鹤岭矿业实现全年零伤亡，产量创下新高。"],
            (1, "2020年，鹤岭矿业实现全年零伤亡"),
        ),
        (
            "有专家认为《秋江图》是宋人真迹。",
            ["收藏家韩伯远声称《秋江图》是画商伪造的。省博物馆的专家则认为该画确为宋人真迹。"],
            (1, "省博物馆的专家则认为该画确为宋人真迹"),
        ),
    ],
)
def test_a_denial_code_cannot_read_is_not_flagged(claim: str, contexts: list[str], quote: tuple[int, str]) -> None:
    assert_verified(claim, contexts, quote)


@pytest.mark.parametrize(
    ("claim", "contexts", "quote", "check"),
    [
        (
            "The Brandle mill did not close in 1990.",
            ["The Brandle mill closed in 1990 after a century of weaving."],
            (1, "The Brandle mill closed in 1990"),
            "negation differs",
        ),
        (
            "Orla Venn never won the Carrick Cup.",
            ["Orla Venn won the Carrick Cup twice, in 1961 and 1964."],
            (1, "Orla Venn won the Carrick Cup twice"),
            "negation differs",
        ),
        (
            "None of the 46 passengers on Nordvest Flight 212 were hurt.",
            ["Only a handful of the 46 passengers on Nordvest Flight 212 were hurt, none of them seriously."],
            (1, "Only a handful of the 46 passengers on Nordvest Flight 212 were hurt, none of them seriously"),
            "negation differs",
        ),
        (
            "“海燕号”沉没时，船上四十三名船员无一生还。",
            ["1931年“海燕号”在礁石区沉没，船上四十三名船员中仅有少数生还。"],
            (1, "船上四十三名船员中仅有少数生还"),
            "quantifier",
        ),
        (
            "Cawley Well never froze during the winter of 1947.",
            WELL,
            (1, "It is false that Cawley Well never froze during the winter of 1947"),
            "negation differs",
        ),
        (
            "龙眼井在1947年冬天从未结冰。",
            WELL_ZH,
            (1, "并非龙眼井在1947年冬天从未结冰"),
            "negation differs",
        ),
    ],
)
def test_a_denial_code_reads_is_caught(claim: str, contexts: list[str], quote: tuple[int, str], check: str) -> None:
    assert_caught(claim, contexts, [quote], check)


@pytest.mark.parametrize(
    ("claim", "contexts"),
    [("Cawley Well never froze during the winter of 1947.", WELL), ("龙眼井在1947年冬天从未结冰。", WELL_ZH)],
)
def test_a_denied_negation_does_not_contest_an_honest_unsupported(claim: str, contexts: list[str]) -> None:
    assert not contestable(claim, Contexts(contexts))


def test_the_same_sentence_unframed_still_contests_an_unsupported() -> None:
    sentence = "Cawley Well never froze during the winter of 1947, the parish records say."
    assert contestable("Cawley Well never froze during the winter of 1947.", Contexts([sentence]))


@pytest.mark.parametrize(
    ("claim", "context"),
    [
        (
            "The Orm Valley Water Company built a second reservoir at Haddon Clough in 1914.",
            "The Orm Valley Water Company was to have built a second reservoir at Haddon Clough in 1914, but the war "
            "intervened.",
        ),
        (
            "云台书院藏书楼曾收藏宋刻本《水经注》。",
            "民间一直流传云台书院藏书楼曾收藏宋刻本《水经注》，但现存书目中并无记载。",
        ),
    ],
)
def test_a_plan_never_carried_out_or_a_rumour_no_record_bears_out_does_not_contest(claim: str, context: str) -> None:
    assert not contestable(claim, Contexts([context]))
