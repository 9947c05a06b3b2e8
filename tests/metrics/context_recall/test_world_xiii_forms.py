"""Forms of the thirteenth held-out world, after its blind scoring: a margin "by a length" is no agent, 邓氏 names
邓怀远, 当地 names no subject, "denied this" in a sentence of its own denies the sentence before it (not the
manager who denied), a reported claim is not denied by a denial of what was reported, "meets" is symmetric, the
other side of a comparison may stand in a clause chosen for its name. The lie beside each is caught."""

from __future__ import annotations

import pytest

from helpers.claims import assert_caught, assert_verified
from ragrecall.metrics.context_recall._stated import contestable
from ragrecall.metrics.context_recall._verify import Contexts

FINAL = "In the 1932 Ferris Cup final Hallam Rowing Club defeated Northby by a length"
DENG = ["铸钟匠人邓怀远或许生于1650年前后。", "邓氏铸坊在他1711年去世后关闭。"]
CRITICS = [
    "Critics claimed that the Stanmore Orchestra's 1978 recording was edited from several takes. "
    "The orchestra's manager, Joan Pike, denied this."
]
KELSO = [
    "The Kelso Glass Company supplied the windows of the royal palace in 1851. The company's own history denies "
    "this, crediting a London firm instead."
]
ROWING = ["The Carnbrae Rowing Club was founded in 1891, after the Carnbrae Sailing Club."]


@pytest.mark.parametrize(
    ("claim", "contexts", "quotes"),
    [
        ("Northby was defeated by Hallam Rowing Club in the 1932 Ferris Cup final.", [FINAL + "."], [(1, FINAL)]),
        ("邓怀远于1711年去世。", DENG, [(2, "在他1711年去世后关闭")]),
        (
            "当地年均可观测夜数约为250个。",
            ["凤凰山天文台现有科研人员46名。", "天文台所在地夜空暗度较好，年均可观测夜数约250个。"],
            [(2, "年均可观测夜数约250个")],
        ),
        (
            "Joan Pike was the Stanmore Orchestra's manager.",
            CRITICS,
            [(1, "The orchestra's manager, Joan Pike, denied this")],
        ),
        (
            "Critics claimed that the Stanmore Orchestra's 1978 recording was edited from several takes.",
            CRITICS,
            [(1, "Critics claimed that the Stanmore Orchestra's 1978 recording was edited from several takes")],
        ),
        (
            "The River Eske meets the Tarn Canal at Holme Lock.",
            ["The Tarn Canal meets the River Eske at Holme Lock."],
            [(1, "The Tarn Canal meets the River Eske at Holme Lock")],
        ),
    ],
)
def test_the_honest_form_verifies(claim: str, contexts: list[str], quotes: list[tuple[int, str]]) -> None:
    assert_verified(claim, contexts, *quotes)


@pytest.mark.parametrize(
    ("claim", "contexts", "quotes", "check"),
    [
        (
            "Hallam Rowing Club was defeated by Northby in the 1932 Ferris Cup final.",
            [FINAL + "."],
            [(1, FINAL)],
            "roles differ",
        ),
        (
            "The Stanmore Orchestra's 1978 recording was edited from several takes.",
            CRITICS,
            [(1, "the Stanmore Orchestra's 1978 recording was edited from several takes")],
            "negation differs",  # denied by the next sentence, and reported
        ),
        (
            "The Kelso Glass Company supplied the windows of the royal palace in 1851.",
            KELSO,
            [(1, "The Kelso Glass Company supplied the windows of the royal palace in 1851")],
            "negation differs",
        ),
        (
            "The Carnbrae Rowing Club was founded before the Carnbrae Sailing Club.",
            ROWING,
            [(1, ROWING[0][:-1])],
            "time order differs",
        ),
        (
            "The Kellow Botanic Garden once owned the oldest cycad in Europe.",
            ["Some say the Kellow Botanic Garden once owned the oldest cycad in Europe."],
            [(1, "Some say the Kellow Botanic Garden once owned the oldest cycad in Europe")],
            "the evidence only reports it",
        ),
    ],
)
def test_the_lie_beside_it_is_caught(
    claim: str, contexts: list[str], quotes: list[tuple[int, str]], check: str
) -> None:
    assert_caught(claim, contexts, quotes, check)


def test_an_honest_unsupported_on_the_other_order_is_not_contested() -> None:
    assert not contestable("The Carnbrae Rowing Club was founded before the Carnbrae Sailing Club.", Contexts(ROWING))
