"""Names referred back to across passages: a passage that opens on a pronoun and names nothing else continues the
subject another passage names ("It spans 92 metres"), 此亭 names 亭子, and a prize "contested by" six clubs is no
claim in doubt. The stitched lie beside each (a passage about something else, "The <noun>" of another name) is
still caught."""

from __future__ import annotations

import pytest

from helpers.claims import assert_caught, assert_verified

BRIDGE = [
    "The Vellum Bridge was designed by Letitia Marsh and opened in 1846.",
    "It spans 92 metres across the Orran gorge.",
]


@pytest.mark.parametrize(
    ("claim", "contexts", "quotes"),
    [
        (
            "The Vellum Bridge opened in 1846 and spans 92 metres.",
            BRIDGE,
            [(1, "opened in 1846"), (2, "It spans 92 metres across the Orran gorge")],
        ),
        (
            "这座亭子于1921年3月14日落成。",
            ["碑文记载：此亭落成于一九二一年三月十四日，由乡绅吴德馨捐资建造。", "1993年，村民集资对亭子进行了维修。"],
            [(1, "此亭落成于一九二一年三月十四日")],
        ),
        (
            "Six clubs compete for the Kestrel Cup.",
            ["The Kestrel Cup is contested by six clubs from the upper league."],
            [(1, "The Kestrel Cup is contested by six clubs")],
        ),
        (
            "光明印刷厂2005年迁入城东工业园。",
            [
                "光明印刷厂位于城东工业园，是本省最早采用数码印刷设备的企业之一。",
                "工厂于1978年由市出版局创办，2005年迁入现址。",
            ],
            [(1, "光明印刷厂位于城东工业园"), (2, "2005年迁入现址")],
        ),
    ],
)
def test_a_name_referred_back_to_verifies(claim: str, contexts: list[str], quotes: list[tuple[int, str]]) -> None:
    assert_verified(claim, contexts, *quotes)


@pytest.mark.parametrize(
    ("claim", "contexts", "quotes", "check"),
    [
        (
            "The Vellum Bridge opened in 1846 and spans 92 metres.",
            [BRIDGE[0], "The Corran viaduct is older. It spans 92 metres across the Orran gorge."],
            [(1, "opened in 1846"), (2, "It spans 92 metres across the Orran gorge")],
            "quotes do not add up",
        ),
        (
            "Lena Farrow won the Hartley Medal.",
            ["Lena Farrow is a British marine biologist.", "The Hartley Medal is awarded by a chemical society."],
            [
                (1, "Lena Farrow is a British marine biologist"),
                (2, "The Hartley Medal is awarded by a chemical society"),
            ],
            "quotes do not add up",
        ),
        (
            "The attribution of the Kestrel portrait to Ivo Dane is certain.",
            ["The attribution of the Kestrel portrait to Ivo Dane is contested."],
            [(1, "The attribution of the Kestrel portrait to Ivo Dane is contested")],
            "the evidence leaves it open",
        ),
        (
            "光明印刷厂2005年迁入城东工业园。",
            ["光明印刷厂位于城东工业园。", "红星纸箱厂于1978年由市轻工局创办，2005年迁入现址。"],
            [(1, "光明印刷厂位于城东工业园"), (2, "2005年迁入现址")],
            "quotes do not add up",
        ),
    ],
)
def test_the_lie_beside_it_is_caught(
    claim: str, contexts: list[str], quotes: list[tuple[int, str]], check: str
) -> None:
    assert_caught(claim, contexts, quotes, check)
