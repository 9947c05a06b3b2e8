"""Forms of world XX, read after its blind scoring (its figures stay those of that scoring), and of the names the
earlier worlds left to another passage: a month named alone ("that August") is a month; "for that day" names the
date the sentence before wrote; a month the passage set before the evidence; 无霜期 negates nothing and a clause
after an ASCII comma before a Chinese character is a clause of its own; 第三医院's 3 names the hospital a passage
writes; 输给 and "lost to" have two roles; a claim about what is still to be done (需要更换的) rests on a plan; a
name the evidence calls by the noun it is ("the farm", "The album's producer", a clause opening on 机场 for
澜川机场; "The theatre has 640 seats" in a passage of its own, for the Crane Theatre) or by its place's adjective
(Vendian); 400米栏 names a race as "the 10,000 m final" does; "whether to fund the raising, which was costed at
…" leaves the cost asserted; "last erupted in 1640" is "has not erupted since 1640". The lie beside each is caught."""

from __future__ import annotations

import pytest

from helpers.claims import assert_caught, assert_verified
from ragrecall.text.numbers import numbers_in

RESERVOIR = [
    "During the drought of 2022 several utilities in the region agreed to share water.",
    "Ledbury Water serves about 210,000 customers. Its largest reservoir, Cold Harbour, fell to 38 per cent of "
    "capacity that August.",
]
CAIRNHOPE = [
    "For decades it was reported that Cairnhope station recorded 38.1 °C on 9 August 1911.",
    "The corrected maximum for that day is 31.4 °C. Cairnhope has been automated since 1999.",
]
ONIONS = ["Wholesale potato prices in the Lund valley fell 14 percent in October. Onion prices stayed flat."]
STATION = ["北坨子气象站位于嫩源县。该站年平均气温为2.1℃，无霜期仅一百零五天，全年没有台风记录。"]
HOSPITAL = ["在南州市第三医院参与调查的护士中，大多数表示每周加班超过五小时。", "该院共有注册护士一千零五十人。"]
ROWING = ["在半决赛中，临江俱乐部的双人单桨组合以0.8秒之差输给了湖州队。"]
PIPES = ["公司计划在五年内更换这批管道，总长约二百四十公里。"]
LINE = [
    "Opened in 1889, the line carries about 9 million passengers a year between Kestrel Street and Gallen Head. "
    "The Harbour Line was electrified in 1957.",
]
ALBUM = [
    "Harbour Lights (1996) was the second album by the Glasgow band The Fennimores.",
    "The album's producer, Joy Adair, has said the sessions took place at Castlemilk Studios.",
]
AIRPORT = ["受台风影响，澜川机场当日部分航班取消。", "当天滞留旅客约三千人，机场为其提供了临时住宿。"]
RAISING = [
    "The Kelder Dam is an earth-fill dam. The water board has not yet decided whether to fund the raising, which "
    "was costed at 140 million pounds."
]
CALDERA = ["The caldera has not erupted since 1640. Since 1993 the service has recorded 38 swarms."]
VOLCANO = ["该火山自1640年以来再未喷发。"]
THEATRE = [
    "Visitors are often wrongly told that Charles Mabey designed the Crane Theatre in 1879. The architect was in "
    "fact Walter Grice, and the theatre opened in 1881.",
    "The theatre has 640 seats.",
]
HURDLES = ["在2019年联赛总决赛男子400米栏决赛中，冉松以49秒12屈居第二。冠军由来自西岭队的柏文韬获得。"]
TAX = ["The airport tax was approved by the Storting of Vendia on 14 May by 88 votes to 81."]


@pytest.mark.parametrize(
    ("text", "month"),
    [("fell that August.", True), ("Since June, prices rose.", True), ("Mary March was a potter.", False),
     ("August Strindberg wrote it.", False), ("The Long March began.", False), ("It may rain.", False)],
)  # fmt: skip
def test_a_month_named_alone_is_a_month_and_a_name_is_not(text: str, month: bool) -> None:
    assert any(n.startswith("month:") for n in numbers_in(text)) == month


@pytest.mark.parametrize(
    ("claim", "contexts", "quotes"),
    [
        ("Cold Harbour reservoir fell to 38 per cent of capacity in August 2022.", RESERVOIR,
         [(2, "Its largest reservoir, Cold Harbour, fell to 38 per cent of capacity that August")]),
        ("The corrected maximum for 9 August 1911 is 31.4 °C.", CAIRNHOPE,
         [(2, "The corrected maximum for that day is 31.4 °C")]),
        ("Onion prices in the Lund valley did not change in October.", ONIONS, [(1, "Onion prices stayed flat")]),
        ("北坨子气象站的年平均气温为2.1℃。", STATION, [(1, "该站年平均气温为2.1℃")]),
        ("南州市第三医院共有注册护士一千零五十人。", HOSPITAL, [(2, "该院共有注册护士一千零五十人")]),
        ("临江俱乐部的双人单桨组合以0.8秒之差输给了湖州队。", ROWING,
         [(1, "临江俱乐部的双人单桨组合以0.8秒之差输给了湖州队")]),
        ("湖州队以0.8秒之差战胜了临江俱乐部的双人单桨组合。", ["临江俱乐部的双人单桨组合以0.8秒之差输给了湖州队。"],
         [(1, "临江俱乐部的双人单桨组合以0.8秒之差输给了湖州队")]),
        ("需要更换的铸铁管道总长约二百四十公里。", PIPES, [(1, "公司计划在五年内更换这批管道，总长约二百四十公里")]),
        ("Around nine million passengers use the Harbour Line each year.", LINE,
         [(1, "the line carries about 9 million passengers a year")]),
        ("Joy Adair produced Harbour Lights.", ALBUM, [(2, "The album's producer, Joy Adair")]),
        ("The Vendian airport tax passed on 14 May by 88 votes to 81.", TAX,
         [(1, "The airport tax was approved by the Storting of Vendia on 14 May by 88 votes to 81")]),
        ("澜川机场为约3,000名滞留旅客安排了临时住宿。", AIRPORT, [(2, "当天滞留旅客约三千人，机场为其提供了临时住宿")]),
        ("Raising the Kelder Dam was costed at 140 million pounds.", RAISING,
         [(1, "the raising, which was costed at 140 million pounds")]),
        ("The Tavella caldera last erupted in 1640.", CALDERA, [(1, "The caldera has not erupted since 1640")]),
        ("该火山最后一次喷发是在1640年。", VOLCANO, [(1, "该火山自1640年以来再未喷发")]),
        ("The Crane Theatre opened in 1881 and seats 640.", THEATRE,
         [(1, "the theatre opened in 1881"), (2, "The theatre has 640 seats")]),
        ("2019年联赛总决赛男子400米栏冠军由西岭队的柏文韬获得。", HURDLES, [(1, "冠军由来自西岭队的柏文韬获得")]),
    ],
)  # fmt: skip
def test_the_honest_form_verifies(claim: str, contexts: list[str], quotes: list[tuple[int, str]]) -> None:
    assert_verified(claim, contexts, *quotes)


@pytest.mark.parametrize(
    ("claim", "contexts", "quotes", "check"),
    [
        ("Cold Harbour reservoir fell to 38 per cent of capacity in July 2022.", RESERVOIR,
         [(2, "Its largest reservoir, Cold Harbour, fell to 38 per cent of capacity that August")],
         "number not in evidence"),
        ("The corrected maximum for 10 August 1911 is 31.4 °C.", CAIRNHOPE,
         [(2, "The corrected maximum for that day is 31.4 °C")], "number not in evidence"),
        ("Onion prices in the Lund valley did not change in November.", ONIONS, [(1, "Onion prices stayed flat")],
         "number not in evidence"),
        ("北坨子气象站全年有台风记录。", STATION, [(1, "全年没有台风记录")], "negation differs"),
        ("南州市第四医院共有注册护士一千零五十人。", HOSPITAL, [(2, "该院共有注册护士一千零五十人")],
         "number not in evidence"),
        ("湖州队以0.8秒之差输给了临江俱乐部的双人单桨组合。", ROWING,
         [(1, "临江俱乐部的双人单桨组合以0.8秒之差输给了湖州队")], "roles differ"),
        ("Hale lost to Kirkby in the final.", ["In the final, Kirkby lost to Hale by two sets."],
         [(1, "Kirkby lost to Hale by two sets")], "roles differ"),
        ("公司在五年内更换了这批管道。", PIPES, [(1, "公司计划在五年内更换这批管道")], "the evidence hedges it"),
        ("Around nine million passengers use the Harbour Line each year.",
         [LINE[0].replace("The Harbour Line was", "The Dunlow Line, its rival, was")],
         [(1, "the line carries about 9 million passengers a year")], "subject not in evidence"),
        ("Joy Adair produced Harbour Lights.",
         [ALBUM[0] + " Tidewater (1998) was the third album by the band.", ALBUM[1]],
         [(2, "The album's producer, Joy Adair")], "subject not in evidence"),
        ("The Vendian airport tax passed on 14 May by 88 votes to 81.",
         ["The airport tax was approved by the Storting of Carsia on 14 May by 88 votes to 81."],
         [(1, "The airport tax was approved by the Storting of Carsia on 14 May by 88 votes to 81")],
         "subject not in evidence"),
        ("澜川机场为约3,000名滞留旅客安排了临时住宿。", [AIRPORT[0][:-1] + "，部分航班改降首都机场。", AIRPORT[1]],
         [(2, "当天滞留旅客约三千人，机场为其提供了临时住宿")], "subject not in evidence"),
        ("The water board decided to fund the raising.", RAISING,
         [(1, "The water board has not yet decided whether to fund the raising")], "negation differs"),
        ("The raising costs 140 million pounds.",
         ["The board may fund the raising, which would cost 140 million pounds."],
         [(1, "the raising, which would cost 140 million pounds")], "the evidence hedges it"),
        ("The caldera last erupted in 1641.", CALDERA, [(1, "The caldera has not erupted since 1640")],
         "negation differs"),
        ("The caldera last collapsed in 1640.", CALDERA, [(1, "The caldera has not erupted since 1640")],
         "negation differs"),
        ("该火山在1640年喷发。", VOLCANO, [(1, "该火山自1640年以来再未喷发")], "negation differs"),
        ("The Crane Theatre opened in 1881 and seats 640.", [THEATRE[0], "The Lyric Theatre has 640 seats."],
         [(1, "the theatre opened in 1881"), (2, "The Lyric Theatre has 640 seats")], "quotes do not add up"),
        ("2019年联赛总决赛男子110米栏冠军由西岭队的柏文韬获得。", HURDLES, [(1, "冠军由来自西岭队的柏文韬获得")],
         "number not in evidence"),
    ],
)  # fmt: skip
def test_the_lie_beside_it_is_caught(
    claim: str, contexts: list[str], quotes: list[tuple[int, str]], check: str
) -> None:
    assert_caught(claim, contexts, quotes, check)


LEADER = ["林秀贞于1984年至1996年间担任黄礁乡乡长。"]
MAYOR = ["Dana Holt has been mayor since 1996."]


# Lies of world XX that code missed, read afterwards: each is caught, the honest form beside it verifies.
@pytest.mark.parametrize(
    ("claim", "context", "quote", "check"),
    [
        ("西郊净水厂一期工程每日至少可处理原水三十万立方米。", "西郊净水厂一期工程每日最多可处理原水三十万立方米。",
         "西郊净水厂一期工程每日最多可处理原水三十万立方米", "bound differs"),
        ("蟹爪岛上唯一的灯塔建在岛的北端。", "蟹爪岛上唯一的灯塔建在岛的南端。", "蟹爪岛上唯一的灯塔建在岛的南端",
         "a word of the claim is another in the evidence"),
        ("林秀贞目前担任黄礁乡乡长。", LEADER[0], LEADER[0][:-1], "the evidence says it no longer holds"),
        ("Dana Holt is currently the mayor.", "Dana Holt was mayor from 1984 to 1996.",
         "Dana Holt was mayor from 1984 to 1996", "the evidence says it no longer holds"),
        ("瑞昌斋酱园已完成对禾丰食品公司的收购。", "禾丰食品公司宣布，已完成对瑞昌斋酱园的收购。",
         "禾丰食品公司宣布，已完成对瑞昌斋酱园的收购", "roles differ"),
        ("魏淑兰总是在凌晨三点起床。", "魏淑兰常常在凌晨三点起床。", "魏淑兰常常在凌晨三点起床", "quantifier differs"),
        ("南州市第一人民医院是全省第一家获准开展细胞治疗临床研究的医院。",
         "南州市第一人民医院成为全省首批获准开展细胞治疗临床研究的六家医院之一。",
         "南州市第一人民医院成为全省首批获准开展细胞治疗临床研究的六家医院之一", "rank differs"),
    ],
)  # fmt: skip
def test_a_missed_lie_of_world_xx_is_caught(claim: str, context: str, quote: str, check: str) -> None:
    assert_caught(claim, [context], [(1, quote)], check)


@pytest.mark.parametrize(
    ("claim", "context", "quote"),
    [
        ("西郊净水厂一期工程每日最多可处理原水三十万立方米。", "西郊净水厂一期工程每日最多可处理原水三十万立方米。",
         "西郊净水厂一期工程每日最多可处理原水三十万立方米"),
        ("林秀贞曾任黄礁乡乡长。", LEADER[0], LEADER[0][:-1]),
        ("Dana Holt is currently the mayor.", MAYOR[0], MAYOR[0][:-1]),
        ("禾丰食品公司已完成对瑞昌斋酱园的收购。", "禾丰食品公司宣布，已完成对瑞昌斋酱园的收购。",
         "禾丰食品公司宣布，已完成对瑞昌斋酱园的收购"),
        ("魏淑兰常在凌晨三点起床。", "魏淑兰常常在凌晨三点起床。", "魏淑兰常常在凌晨三点起床"),
    ],
)  # fmt: skip
def test_the_honest_form_beside_a_missed_lie_verifies(claim: str, context: str, quote: str) -> None:
    assert_verified(claim, [context], (1, quote))
