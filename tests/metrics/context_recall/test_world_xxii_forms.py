"""Lies of world XXII (read after it was scored blind), each beside the honest form it must not flag: a weekday, a
medal or a side of town swapped (Tuesday for Thursday, 银牌 for 铜牌, 东郊 for 西郊); "all" against "almost all";
超过 against 低于 or 仅次于; "B defeated A" against "A was beaten by B", "acquired" against "was acquired by" past an
apposition; a pronoun or 公司 that opens the evidence standing for the name of the sentence before (they, 他,
公司); a life in years with 年 (（1902年—1978年）) says when the person died, and 通车 that a tunnel opened; "only
when" and 只有当 make conditions, "was offered" and 请求撤销 hedge, 据开发商宣传 reports, "outright" is sole against
"jointly", exports are not imports."""

from __future__ import annotations

import pytest

from helpers.claims import assert_caught, assert_verified

MARKET = ["The Hexley farmers' market is held on the first Thursday of each month in the Corn Exchange."]
HURDLES = ["At the 1998 European Indoor Championships, Tamsin Reade took bronze in the 60 metres hurdles."]
TEMPLE = ["宝林寺位于县城西郊的凤凰山麓，始建于唐开元年间。"]
JUMP = ["骆骁在第十二届全国学生运动会上获得男子跳远铜牌。"]
VOTE = ["Almost all of the 214 delegates voted for the new charter, though a handful abstained."]
TUNNEL = ["梅岭隧道全长6.2公里，在全省公路隧道中长度仅次于青峰隧道。"]
GROWTH = ["滨江新区今年第二季度规模以上工业增加值同比增长7.8%，增速略低于全市平均水平。"]
FINAL = [
    "The Harwick Rovers reached the final of the 1987 Dalmond Cup after a replayed semi-final. In the final at "
    "Pellow Park they were beaten 2–1 by Ostrey Athletic."
]
BEATEN = "In the final at Pellow Park they were beaten 2–1 by Ostrey Athletic"
SCANNERS = [
    "Brenlow Systems, a maker of warehouse scanners, was acquired by the logistics group Castaway Freight in March "
    "2011."
]
PAINTER = ["蒋慕庭（1902年—1978年），浙江嘉禾人，现代山水画家。他十六岁赴广州，师从岭南画家方介眉，习写意山水三年。"]
DAIRY = ["恒禾股份是一家总部位于石家庄的食品企业。2016年，公司以约十二亿元收购了南溪乳业百分之七十的股权。"]
SWAP = "a word of the claim is another"
BOUGHT = "2016年，公司以约十二亿元收购了南溪乳业百分之七十的股权"
LIFE = ["蒋慕庭（1902年—1978年），浙江嘉禾人，现代山水画家。"]
OPENED = ["梅岭隧道位于汝川县与安平县交界处，2011年12月通车，全长6.2公里。"]


@pytest.mark.parametrize(
    ("claim", "contexts", "quotes", "check"),
    [
        ("The Hexley farmers' market is held on the first Tuesday of each month.", MARKET, [(1, MARKET[0][:-1])],
         "a word of the claim is another"),
        ("Tamsin Reade won silver in the 60 metres hurdles at the 1998 European Indoor Championships.", HURDLES,
         [(1, HURDLES[0][:-1])], "a word of the claim is another"),
        ("宝林寺位于县城东郊的凤凰山麓。", TEMPLE, [(1, "宝林寺位于县城西郊的凤凰山麓")], SWAP),
        ("骆骁在第十二届全国学生运动会上获得男子跳远银牌。", JUMP, [(1, JUMP[0][:-1])], SWAP),
        ("All of the delegates voted for the new charter.", VOTE, [(1, "Almost all of the 214 delegates voted for the "
         "new charter")], "quantifier differs"),
        ("梅岭隧道的长度超过青峰隧道。", TUNNEL, [(1, TUNNEL[0][:-1])], "comparison differs"),
        ("滨江新区第二季度的工业增加值增速超过全市平均水平。", GROWTH, [(1, GROWTH[0][:-1])], "comparison differs"),
        ("Harwick Rovers defeated Ostrey Athletic in the 1987 Dalmond Cup final.", FINAL, [(1, BEATEN)],
         "roles differ"),
        ("Brenlow Systems acquired Castaway Freight in 2011.", SCANNERS, [(1, SCANNERS[0][:-1])], "roles differ"),
        ("方介眉曾师从蒋慕庭学习写意山水。", PAINTER, [(1, "师从岭南画家方介眉，习写意山水三年")], "roles differ"),
        ("南溪乳业在2016年收购了恒禾股份七成股权。", DAIRY, [(1, BOUGHT)], "roles differ"),
        ("蒋慕庭于一九七九年去世。", LIFE, [(1, "蒋慕庭（1902年—1978年）")], "number not in evidence"),
        ("梅岭隧道在2012年十二月开通。", OPENED, [(1, "2011年12月通车")], "number not in evidence"),
    ],
)  # fmt: skip
def test_the_lie_is_caught(claim: str, contexts: list[str], quotes: list[tuple[int, str]], check: str) -> None:
    assert_caught(claim, contexts, quotes, check)


@pytest.mark.parametrize(
    ("claim", "contexts", "quotes"),
    [
        ("The Hexley farmers' market is held on the first Thursday of each month.", MARKET, [(1, MARKET[0][:-1])]),
        ("Tamsin Reade won bronze in the 60 metres hurdles at the 1998 European Indoor Championships.", HURDLES,
         [(1, HURDLES[0][:-1])]),
        ("宝林寺位于县城西郊的凤凰山麓。", TEMPLE, [(1, "宝林寺位于县城西郊的凤凰山麓")]),
        ("骆骁在第十二届全国学生运动会上获得男子跳远铜牌。", JUMP, [(1, JUMP[0][:-1])]),
        ("Almost all of the delegates voted for the new charter.", VOTE, [(1, "Almost all of the 214 delegates "
         "voted for the new charter")]),
        ("青峰隧道比梅岭隧道长。", TUNNEL, [(1, TUNNEL[0][:-1])]),
        ("滨江新区第二季度的工业增加值增速低于全市平均水平。", GROWTH, [(1, GROWTH[0][:-1])]),
        ("Ostrey Athletic defeated Harwick Rovers in the 1987 Dalmond Cup final.", FINAL, [(1, BEATEN)]),
        ("Castaway Freight acquired Brenlow Systems in 2011.", SCANNERS, [(1, SCANNERS[0][:-1])]),
        ("蒋慕庭曾师从方介眉学习写意山水。", PAINTER, [(1, "师从岭南画家方介眉，习写意山水三年")]),
        ("恒禾股份在2016年收购了南溪乳业七成股权。", DAIRY, [(1, BOUGHT)]),
        ("蒋慕庭于一九七八年去世。", LIFE, [(1, "蒋慕庭（1902年—1978年）")]),
        ("梅岭隧道在2011年十二月开通。", OPENED, [(1, "2011年12月通车")]),
    ],
)  # fmt: skip
def test_the_honest_form_verifies(claim: str, contexts: list[str], quotes: list[tuple[int, str]]) -> None:
    assert_verified(claim, contexts, *quotes)


TRIAL = [
    "In trials at the Pennard Institute, the compound reduced tumour growth in mice only when given together with "
    "radiotherapy."
]
METRO = ["根据规划，只有当一期日均客流达到十五万人次时，二期向南延伸至机场的工程才会启动。"]
OFFER = ["The composer Isaac Verlaine was offered the directorship of the Hallbridge Conservatoire in 1953."]
APPEALED = "味源公司提起行政诉讼，请求撤销该处罚"
APPEAL = ["因不服区市场监管局作出的二十万元罚款决定，餐饮企业味源公司提起行政诉讼，请求撤销该处罚。"]
ESTATE = ["锦澜苑小区位于城南新区，2022年交房。据开发商宣传，小区绿化率达到百分之四十五。"]
TROPHY = [
    "The 2004 Kessock Trophy was won jointly by Ardrie Rowing Club and Fenwick Boat Club after the final was abandoned."
]
PORT = ["In the 1880s Port Hallan was the country's main port for timber imports from the Baltic."]


@pytest.mark.parametrize(
    ("claim", "contexts", "quotes", "check"),
    [
        ("The compound reduced tumour growth in mice in trials at the Pennard Institute.", TRIAL,
         [(1, "In trials at the Pennard Institute, the compound reduced tumour growth in mice")],
         "the evidence states it under a condition"),
        ("地铁五号线二期将向南延伸至机场。", METRO, [(1, "二期向南延伸至机场的工程才会启动")],
         "the evidence states it under a condition"),
        ("Isaac Verlaine became director of the Hallbridge Conservatoire in 1953.", OFFER,
         [(1, "was offered the directorship of the Hallbridge Conservatoire in 1953")], "the evidence hedges it"),
        ("区人民法院撤销了区市场监管局对味源公司的二十万元罚款。", APPEAL, [(1, APPEALED)], "the evidence hedges it"),
        ("锦澜苑小区的绿化率为45%。", ESTATE, [(1, "小区绿化率达到百分之四十五")], "the evidence only reports it"),
        ("Ardrie Rowing Club won the 2004 Kessock Trophy outright.", TROPHY,
         [(1, "The 2004 Kessock Trophy was won jointly by Ardrie Rowing Club")], "membership differs"),
        ("In the 1880s Port Hallan was the country's main port for coal exports.", PORT, [(1, PORT[0][:-1])], SWAP),
    ],
)  # fmt: skip
def test_a_condition_an_offer_a_request_an_advert_a_shared_win_or_trade_the_other_way_is_caught(
    claim: str, contexts: list[str], quotes: list[tuple[int, str]], check: str
) -> None:
    assert_caught(claim, contexts, quotes, check)


@pytest.mark.parametrize(
    ("claim", "contexts", "quotes"),
    [
        ("The compound reduced tumour growth in mice only when given together with radiotherapy.", TRIAL,
         [(1, "the compound reduced tumour growth in mice only when given together with radiotherapy")]),
        ("Ardrie Rowing Club won the 2004 Kessock Trophy jointly with Fenwick Boat Club.", TROPHY,
         [(1, "The 2004 Kessock Trophy was won jointly by Ardrie Rowing Club and Fenwick Boat Club")]),
        ("In the 1880s Port Hallan was the country's main port for timber imports.", PORT, [(1, PORT[0][:-1])]),
        ("Isaac Verlaine was offered the directorship of the Hallbridge Conservatoire in 1953.", OFFER,
         [(1, "Isaac Verlaine was offered the directorship of the Hallbridge Conservatoire in 1953")]),
    ],
)  # fmt: skip
def test_the_same_said_with_its_frame_or_value_verifies(
    claim: str, contexts: list[str], quotes: list[tuple[int, str]]
) -> None:
    assert_verified(claim, contexts, *quotes)


@pytest.mark.parametrize(
    ("claim", "contexts", "quote"),
    [
        ("Harlow Mining acquired Dunmore Steel.",
         ["Dunmore Steel reported record results. Harlow Mining said it had been acquired by Dunmore Steel."],
         "Harlow Mining said it had been acquired by Dunmore Steel"),
        ("清溪牧业收购了宁海集团。", ["宁海集团收购了清溪牧业及其他企业。"], "宁海集团收购了清溪牧业及其他企业"),
    ],
)  # fmt: skip
def test_a_pronoun_after_a_name_of_its_own_sentence_or_inside_a_word_takes_no_name_from_before(
    claim: str, contexts: list[str], quote: str
) -> None:
    assert_caught(claim, contexts, [(1, quote)], "roles differ")


def test_a_weekday_inside_a_count_or_a_word_of_publicity_inside_a_noun_is_no_cue() -> None:
    assert_verified("俱乐部每周一次集训。", ["俱乐部每周六集训一次。"], (1, "俱乐部每周六集训一次"))
    assert_verified("张华2010年起担任部长。", ["张华2010年起担任宣传部部长。"], (1, "张华2010年起担任宣传部部长"))
