"""Forms of the fourteenth held-out world, after its blind scoring: a surname, or a name's distinctive first word,
names the whole name another passage writes; an agent noun says its verb ("Its manager is" for "manages"); two
names around predicates of two dimensions ("north of", "older than") are no swapped roles; a Chinese role noun
opening a sentence takes its team from the sentence before; 对此予以否认 denies the sentence before, not the
speaker of its own; "This story, however, is untrue" and 这只是…谣言 deny what they refer back to; an opening
that contradicts a belief ("…, but in fact") or a finding after a lead-in (经过检测，研究人员证实，) asserts.
The lie beside each is caught."""

from __future__ import annotations

import pytest

from helpers.claims import assert_caught, assert_verified
from ragrecall.metrics.context_recall._stated import stated_support
from ragrecall.metrics.context_recall._verify import Contexts

DAIRY = ["The Selham dairy's first director was Lydia Varga.", "Varga later sat on the county council."]
ROWING = [
    "The Hollin Rowing Club won the county cup in 1902.",
    "Hollin was founded in 1874 and rowed from a boathouse on the Ouse.",
]
DEPOT = ["The Holm Street depot employs 80 people. Its manager is Petra Lund."]
CAMPS = ["The Ashby Hill fort is older than the camp at Cray.", "Cray camp lies three miles to the north."]
THEATRE = ["有观众认为，青枫剧院今年的票价过高。剧院院长周明对此予以否认。"]
CLUB = ["上赛季，东岭足球俱乐部青年队险些降级。主教练赵立赛后表示，球队将重建。"]


@pytest.mark.parametrize(
    ("claim", "contexts", "quotes"),
    [
        (
            "Lydia Varga later sat on the county council.",
            DAIRY,
            [(1, "The Selham dairy's first director was Lydia Varga"), (2, "Varga later sat on the county council")],
        ),
        ("The Hollin Rowing Club was founded in 1874.", ROWING, [(2, "Hollin was founded in 1874")]),
        ("Petra Lund manages the depot.", DEPOT, [(1, "Its manager is Petra Lund")]),
        (
            "Cray camp lies three miles north of Ashby Hill.",
            CAMPS,
            [(1, "The Ashby Hill fort is older than the camp at Cray"), (2, "Cray camp lies three miles to the north")],
        ),
        ("周明是青枫剧院的院长。", THEATRE, [(1, "剧院院长周明对此予以否认")]),
        ("有观众认为青枫剧院今年的票价过高。", THEATRE, [(1, "有观众认为，青枫剧院今年的票价过高")]),
        ("赵立是东岭足球俱乐部青年队的主教练。", CLUB, [(1, "主教练赵立赛后表示")]),
    ],
)
def test_the_honest_form_verifies(claim: str, contexts: list[str], quotes: list[tuple[int, str]]) -> None:
    assert_verified(claim, contexts, *quotes)


@pytest.mark.parametrize(
    ("claim", "contexts", "quotes", "check"),
    [
        (
            "Lydia Varga later sat on the county council.",
            [DAIRY[0], "Tomas Varga was her brother. Varga later sat on the county council."],
            [(1, "The Selham dairy's first director was Lydia Varga"), (2, "Varga later sat on the county council")],
            "quotes do not add up",
        ),
        (
            "The Hollin Rowing Club was founded in 1874.",
            [ROWING[0], "Hollin Grammar School was founded in 1874."],
            [(2, "Hollin Grammar School was founded in 1874")],
            "subject not in evidence",
        ),
        ("Petra Lund owns the depot.", DEPOT, [(1, "Its manager is Petra Lund")], "evidence states something else"),
        (
            "Cray camp lies three miles north of Ashby Hill.",
            ["Ashby Hill lies three miles north of Cray camp."],
            [(1, "Ashby Hill lies three miles north of Cray camp")],
            "direction differs",
        ),
        (
            "The Brindle Mill was built in 1790.",
            ["The Brindle Mill was built in 1790. This story, however, is untrue; the mill dates from 1822."],
            [(1, "The Brindle Mill was built in 1790")],
            "negation differs",
        ),
        (
            "青龙桥建于1650年。",
            ["青龙桥建于1650年，这只是一个流传甚广的谣言。桥身碑刻记载的年份是1712年。"],
            [(1, "青龙桥建于1650年")],
            "negation differs",
        ),
        (
            "青枫剧院今年的票价过高。",
            THEATRE,
            [(1, "青枫剧院今年的票价过高")],
            "negation differs",  # denied by the next sentence, and reported
        ),
    ],
)
def test_the_lie_beside_it_is_caught(
    claim: str, contexts: list[str], quotes: list[tuple[int, str]], check: str
) -> None:
    assert_caught(claim, contexts, quotes, check)


@pytest.mark.parametrize(
    ("claim", "context", "stated"),
    [
        ("the Tolley Canal stayed open to barges until 1961", "Many believed the railway would close it, but in "
         "fact the Tolley Canal stayed open to barges until 1961.", True),
        ("the Tolley Canal stayed open to barges until 1961", "Many believed that the Tolley Canal stayed open to "
         "barges until 1961.", False),
        ("石门茶场的古茶树树龄约为三百年", "经过年轮取样，研究人员证实，石门茶场的古茶树树龄约为三百年。", True),
        ("石门茶场的古茶树树龄约为三百年", "经过年轮取样，有人声称，石门茶场的古茶树树龄约为三百年。", False),
        ("The Brindle Mill was built in the year 1790", "The Brindle Mill was built in the year 1790. This story, "
         "however, is untrue.", False),
        ("The Brindle Mill was built in the year 1790", "The Brindle Mill was built in the year 1790. That year, "
         "however, the river flooded.", True),
    ],
)  # fmt: skip
def test_stated_only_where_asserted(claim: str, context: str, stated: bool) -> None:
    assert (stated_support(claim, Contexts([context])) is not None) == stated


@pytest.mark.parametrize(
    ("claim", "contexts", "quotes"),
    [
        (
            "Mira Osei won the men's 5,000 m final in 13:41.",
            ["Wind troubled the men's 5,000 m final at Elmford. Mira Osei won in 13:41."],
            [(1, "Mira Osei won in 13:41")],
        ),
        ("溪城地铁3号线一期工程2021年开工。", ["溪城地铁3号线一期工程全长18公里。工程于2021年开工。"],
         [(1, "工程于2021年开工")]),
        ("四月换届选举的投票率是58%。", ["四月换届选举后，联盟占多数席位。投票率为58%。"], [(1, "投票率为58%")]),
        ("小说的故事发生在七十年代的矿区。", ["小说以上世纪七十年代的矿区为背景。"],
         [(1, "小说以上世纪七十年代的矿区为背景")]),
        ("Harlan Foods makes Tessivar in Ghent.", ["Tessivar is made at Harlan Foods's plant in Ghent."],
         [(1, "Tessivar is made at Harlan Foods's plant in Ghent")]),
    ],
)  # fmt: skip
def test_a_number_or_party_told_around_it_verifies(
    claim: str, contexts: list[str], quotes: list[tuple[int, str]]
) -> None:
    assert_verified(claim, contexts, *quotes)


@pytest.mark.parametrize(
    ("claim", "contexts", "quotes", "check"),
    [
        (
            "溪城地铁3号线2014年开通。",
            ["溪城地铁3号线预计2027年开通。1号线于2014年开通。"],
            [(1, "1号线于2014年开通")],
            "number not in evidence",
        ),
        (
            "该厂2010年产量为400吨。",
            ["该厂2010年产量为250吨。2018年产量为400吨。"],
            [(1, "2018年产量为400吨")],
            "year differs",
        ),
        (
            "Dunmore Rovers beat Kestrel Town 3–1 in the final.",
            ["Dunmore Rovers were beaten 3–1 by Kestrel Town in the final."],
            [(1, "Dunmore Rovers were beaten 3–1 by Kestrel Town in the final")],
            "roles differ",
        ),
    ],
)
def test_the_number_or_party_of_another_is_caught(
    claim: str, contexts: list[str], quotes: list[tuple[int, str]], check: str
) -> None:
    assert_caught(claim, contexts, quotes, check)


# World XV, after its blind scoring: a passive read past "in fact", a span of years in other units, "The centre"
# naming what the sentence before named, Chinese time words before a subject, 厂方, a shortened word, 该书.
@pytest.mark.parametrize(
    ("claim", "contexts", "quotes"),
    [
        ("The Pell Rowing Club was founded in 1871 by three curates.",
         ["The Pell Rowing Club was in fact founded in 1871 by three curates."],
         [(1, "The Pell Rowing Club was in fact founded in 1871 by three curates")]),
        ("Ida Marr ran the dispensary for four decades.", ["Ida Marr ran the Quay Dispensary for forty years."],
         [(1, "Ida Marr ran the Quay Dispensary for forty years")]),
        ("The two towns held a joint fair for over a hundred years.",
         ["Tarn and Hexley held a joint fair for more than a century."],
         [(1, "Tarn and Hexley held a joint fair for more than a century")]),
        ("The eye unit has four consulting rooms.",
         ["Ashby General opened a new eye unit in 2019. The unit has four consulting rooms and a laser suite."],
         [(1, "The unit has four consulting rooms and a laser suite")]),
        ("永丰纱厂目前每天生产棉纱约18吨。", ["永丰纱厂是沅江最老的纱厂。", "厂方表示将扩产。目前该厂日产棉纱约18吨。"],
         [(2, "目前该厂日产棉纱约18吨")]),
        ("首航的目的地是海州。", ["澄江航空的首个航班于2009年起飞，目的地是海州。"], [(1, "目的地是海州")]),
        ("《雪线》出版于2001年。",
         ["长篇小说《雪线》写的是高原铁路。", "作者韩冬曾是一名铁路工人。该书2001年出版后广受好评。"],
         [(2, "该书2001年出版后广受好评")]),
    ],
)  # fmt: skip
def test_world_xv_honest_forms_verify(claim: str, contexts: list[str], quotes: list[tuple[int, str]]) -> None:
    assert_verified(claim, contexts, *quotes)


@pytest.mark.parametrize(
    ("claim", "contexts", "quotes", "check"),
    [
        ("Ida Marr ran the dispensary for four decades.", ["Ida Marr ran the Quay Dispensary for four years."],
         [(1, "Ida Marr ran the Quay Dispensary for four years")], "unit differs"),
        ("The Pell Rowing Club founded three curates in 1871.",
         ["The Pell Rowing Club was in fact founded in 1871 by three curates."],
         [(1, "The Pell Rowing Club was in fact founded in 1871 by three curates")], "roles differ"),
        ("《雪线》出版于2001年。",
         ["长篇小说《雪线》写的是高原铁路。", "同年出版的《冰河》是其续作。该书2001年出版后广受好评。"],
         [(2, "该书2001年出版后广受好评")], "subject not in evidence"),
    ],
)  # fmt: skip
def test_world_xv_lies_beside_are_caught(
    claim: str, contexts: list[str], quotes: list[tuple[int, str]], check: str
) -> None:
    assert_caught(claim, contexts, quotes, check)
