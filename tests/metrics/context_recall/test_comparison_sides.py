"""A comparison keeps its two sides: "A before B" is not stated by "B before A" in the same direction, while the
converse with the sides swapped is ("B later than A"). In Chinese the adjective closing 比… is the one a number,
a degree or the clause's end follows, not one inside a name (比跨海长堤…早四年, 比沧浪大剧院早三年)."""

from __future__ import annotations

import pytest

from ragrecall.metrics.context_recall._replies import Support
from ragrecall.metrics.context_recall._verify import Contexts, check_support
from ragrecall.text.cues import cues_in
from ragrecall.text.negation import negations


def checked(claim: str, context: str, quote: str) -> tuple[str, str | None]:
    result = check_support(claim, True, [Support(context=1, quote=quote)], Contexts([context]), threshold=0.9)
    return result.verification, result.problem


FERRY = "东屿渡轮航线于1962年开通，比跨海长堤的建成早四年。"
THEATRE = "沧浪大剧院于1985年落成，比青岚剧场早三年。"
CAUSEWAY = "The Skell ferry service opened in 1962, four years earlier than the Skell causeway."


@pytest.mark.parametrize(
    ("claim", "context"),
    [
        ("跨海长堤比东屿渡轮航线早四年建成。", FERRY),
        ("青岚剧场比沧浪大剧院早三年落成。", THEATRE),
        ("The Skell causeway opened four years earlier than the Skell ferry service.", CAUSEWAY),
        (
            "The Brigham ground is older than Hollowell's ground.",
            "Hollowell's ground is older than the Brigham ground.",
        ),
    ],
)
def test_the_same_comparison_with_its_sides_swapped_is_caught(claim: str, context: str) -> None:
    verification, problem = checked(claim, context, context.rstrip("。."))
    assert verification != "verified"
    assert problem is not None and problem.startswith("comparison differs")


@pytest.mark.parametrize(
    ("claim", "context"),
    [
        ("跨海长堤比东屿渡轮航线晚四年建成。", FERRY),
        ("青岚剧场比沧浪大剧院晚三年落成。", THEATRE),
        ("The Skell causeway opened four years later than the Skell ferry service.", CAUSEWAY),
        (
            "The Brigham ground is younger than Hollowell's ground.",
            "Hollowell's ground is older than the Brigham ground.",
        ),
        (
            "The Dunley network is smaller than the Marwick network.",
            "The Marwick network is larger than the Dunley network.",
        ),
    ],
)
def test_the_converse_verifies(claim: str, context: str) -> None:
    verification, problem = checked(claim, context, context.rstrip("。."))
    assert verification == "verified", problem


@pytest.mark.parametrize(
    ("text", "value", "written"),
    [
        (FERRY, "time-", "比跨海长堤的建成早"),
        (THEATRE, "time-", "比青岚剧场早"),
        ("青岚剧场比沧浪大剧院早三年落成。", "time-", "比沧浪大剧院早"),
        ("鹿鸣山铁路隧道比临渚隧道早建成一百多年。", "time-", "比临渚隧道早"),
        ("洛文霍尔特大学比布拉赫姆大学早将近半个世纪。", "time-", "比布拉赫姆大学早"),
        ("这座桥比那座桥长200米。", "length+", "比那座桥长"),
    ],
)
def test_the_chinese_comparison_closes_on_its_adjective(text: str, value: str, written: str) -> None:
    found = [(c.value, c.text) for c in cues_in(text) if c.cls == "comparative"]
    assert found == [(value, written)]


@pytest.mark.parametrize(
    "text", ["该试验入组512名非小细胞肺癌患者。", "这是一项非物质文化遗产。", "该基金会是一家非营利机构。"]
)
def test_a_prefix_non_is_no_negation(text: str) -> None:
    assert negations(text) == ()


def test_a_denial_by_non_still_negates() -> None:
    assert negations("该协议并非正式文件。")
