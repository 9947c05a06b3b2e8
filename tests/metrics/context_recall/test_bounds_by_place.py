"""A bound rounds to the place of its last written digit: 二十多公里 is 20 to 30 km, 两百多万 2 to 3 million, 五十多亿
5 to 6 billion, 超过九成 above 90%, "more than a thousand" 1,000 to 2,000, "fewer than a hundred" below 100; a
nautical mile, an inch, a pound of weight and 亩 are units; two quotes of one sentence write its figure once. The lie
beside each (the figure past the place, or on the wrong side of the bound) is caught. A count of years (an age, how
long something stood) is the gap between two years the evidence writes; one more for an age."""

from __future__ import annotations

import pytest

from helpers.claims import assert_caught, assert_verified
from ragrecall.text.numbers import quantities

RIVER = ["漓溪发源于苍岭山脉南麓，全长214公里，流域面积约5,830平方公里，在柳渡镇汇入浔江。"]
FIRM = ["远帆物流2022年实现营业收入53.6亿元，员工12,400名。"]
TOWN = ["2019年青阳古镇共接待游客213万人次。"]
FOREST = ["云雾山山区森林覆盖率达到93%，已记录维管植物1,870余种。"]
HILLS = ["青峰岭山区森林覆盖率达到87%。"]
THEATRE = ["The theatre seats 1,150 people across three levels."]
PERMITS = ["In the bylaw's first year the harbour office issued 87 skipper's permits."]
FERRY = ["The crossing to Skarva is 33 km and takes about ninety minutes."]
GECKO = ["The Tallow Island gecko grows to 7.5 cm long."]


@pytest.mark.parametrize(
    ("claim", "contexts", "quotes"),
    [
        ("漓溪长两百多公里，在柳渡镇注入浔江。", RIVER, [(1, "全长214公里"), (1, "在柳渡镇汇入浔江")]),
        ("远帆物流2022年营收五十多亿元。", FIRM, [(1, "远帆物流2022年实现营业收入53.6亿元")]),
        ("2019年青阳古镇接待游客两百多万人次。", TOWN, [(1, TOWN[0][:-1])]),
        ("云雾山的森林覆盖率超过九成。", FOREST, [(1, "云雾山山区森林覆盖率达到93%")]),
        ("The theatre has seating for more than a thousand people.", THEATRE, [(1, THEATRE[0][:-1])]),
        ("Fewer than a hundred skipper's permits were issued in the bylaw's first year.", PERMITS,
         [(1, PERMITS[0][:-1])]),
        ("The crossing to Skarva is about 18 nautical miles.", FERRY, [(1, "The crossing to Skarva is 33 km")]),
        ("The Tallow Island gecko grows to roughly three inches long.", GECKO, [(1, GECKO[0][:-1])]),
    ],
)  # fmt: skip
def test_a_bound_rounded_to_its_place_verifies(claim: str, contexts: list[str], quotes: list[tuple[int, str]]) -> None:
    assert_verified(claim, contexts, *quotes)


@pytest.mark.parametrize(
    ("claim", "contexts", "quotes"),
    [
        ("漓溪长一百多公里，在柳渡镇注入浔江。", RIVER, [(1, "全长214公里")]),
        ("远帆物流2022年营收四十多亿元。", FIRM, [(1, "远帆物流2022年实现营业收入53.6亿元")]),
        ("2019年青阳古镇接待游客三百多万人次。", TOWN, [(1, TOWN[0][:-1])]),
        ("青峰岭的森林覆盖率超过九成。", HILLS, [(1, HILLS[0][:-1])]),
        ("The theatre has seating for more than 1,200 people.", THEATRE, [(1, THEATRE[0][:-1])]),
        ("Fewer than eighty skipper's permits were issued in the bylaw's first year.", PERMITS,
         [(1, PERMITS[0][:-1])]),
        ("The crossing to Skarva is about 25 nautical miles.", FERRY, [(1, "The crossing to Skarva is 33 km")]),
        ("The Tallow Island gecko grows to roughly five inches long.", GECKO, [(1, GECKO[0][:-1])]),
    ],
)  # fmt: skip
def test_a_bound_past_its_place_or_on_the_wrong_side_is_caught(
    claim: str, contexts: list[str], quotes: list[tuple[int, str]]
) -> None:
    assert_caught(claim, contexts, quotes, "number not in evidence")


def test_chinese_numbers_with_more_before_their_scale_and_their_unit() -> None:
    read = [(q.value, q.units) for q in quantities("营收五十多亿元，游客两百多万人次，全长二十多公里")]
    assert read == [
        ("5000000000", frozenset({"CNY"})),
        ("2000000", frozenset({"people"})),
        ("20", frozenset({"km"})),
    ]


COMPOSER = ["The composer Teodor Valsky was born in Kessin in 1934 and died in Vienna in 2009."]
SHOPS = ["Marlow Foods bought the Greystone shops in 2014 and sold them to Harwick Retail in 2021."]
PAINTER = ["馮雪汀生於1921年，浙江嘉興人。", "1957年，他創作了長卷《江畔漁歌》。"]
GROUP = ["宁海食品集团成立于1996年。2018年，集团收购了清溪牧业。"]
PAINTED = [(1, "馮雪汀生於1921年"), (2, "1957年，他創作了長卷《江畔漁歌》")]


@pytest.mark.parametrize(
    ("claim", "contexts", "quotes"),
    [
        ("Teodor Valsky was 74 years old when he died.", COMPOSER, [(1, COMPOSER[0][:-1])]),
        ("Marlow Foods owned the Greystone shops for seven years.", SHOPS, [(1, SHOPS[0][:-1])]),
        ("馮雪汀創作《江畔漁歌》時約三十六歲。", PAINTER, PAINTED),
        ("收购清溪牧业时，宁海食品集团已成立二十二年。", GROUP, [(1, GROUP[0][:-1])]),
    ],
)  # fmt: skip
def test_a_count_of_years_two_years_are_apart_verifies(
    claim: str, contexts: list[str], quotes: list[tuple[int, str]]
) -> None:
    assert_verified(claim, contexts, *quotes)


@pytest.mark.parametrize(
    ("claim", "contexts", "quotes"),
    [
        ("Teodor Valsky was 71 years old when he died.", COMPOSER, [(1, COMPOSER[0][:-1])]),
        ("Marlow Foods owned the Greystone shops for nine years.", SHOPS, [(1, SHOPS[0][:-1])]),
        ("馮雪汀創作《江畔漁歌》時約四十歲。", PAINTER, PAINTED),
        ("收购清溪牧业时，宁海食品集团已成立十二年。", GROUP, [(1, GROUP[0][:-1])]),
    ],
)  # fmt: skip
def test_a_count_of_years_no_two_years_are_apart_is_caught(
    claim: str, contexts: list[str], quotes: list[tuple[int, str]]
) -> None:
    assert_caught(claim, contexts, quotes, "number not in evidence")


@pytest.mark.parametrize(
    ("claim", "contexts"),
    [
        ("Fewer than 1,000 people attended the festival.",
         ["The festival was attended by 12,000 people; 5 people were injured."]),
        ("Fewer than a hundred permits were issued in 2020.",
         ["In 2020 the office issued 870 permits and revoked 3 permits."]),
        ("In 2020 the fair drew more than 1,000 visitors.",
         ["In 2019 the fair drew 1,900 visitors; in 2020 it drew 800 visitors."]),
        ("该厂2020年产量两百多万吨。", ["该厂2019年产量280万吨，2020年产量150万吨。"]),
        ("该队十人多为女性。", ["该队共有十五人，多为女性。"]),
        ("陈立投资三十万元出头。", ["陈立投资三十九万元。"]),
        ("Anna Berg was 65 years old when she founded Berg Print.",
         ["Anna Berg was born in 1920, founded Berg Print in 1950 and retired in 1985."]),
        ("陈立创办立华纺织时六十五岁。", ["陈立1940年出生，1970年创办立华纺织，2005年退休。"]),
        ("The bell weighs about 90 pounds.", ["The bell weighs 60 kg and cost £88."]),
    ],
)  # fmt: skip
def test_a_bound_does_not_reach_a_figure_of_another_year_or_thing_nor_an_age_three_years_leave_open(
    claim: str, contexts: list[str]
) -> None:
    assert_caught(claim, contexts, [(1, contexts[0].rstrip("。."))], "number not in evidence")


@pytest.mark.parametrize(
    ("claim", "contexts"),
    [
        ("The bell weighs about 500 pounds.", ["The bell weighs 227 kg."]),
        ("该镇有十来万人。", ["该镇有十二万人。"]),
        ("该厂2020年产量两百多万吨。", ["该厂2019年产量150万吨，2020年产量280万吨。"]),
        ("In 2020 the fair drew more than 1,000 visitors.",
         ["In 2019 the fair drew 800 visitors; in 2020 it drew 1,100 visitors."]),
    ],
)  # fmt: skip
def test_pounds_of_weight_ten_odd_ten_thousands_and_the_figure_of_the_claims_year_verify(
    claim: str, contexts: list[str]
) -> None:
    assert_verified(claim, contexts, (1, contexts[0].rstrip("。.")))
