"""What an honest judge quotes from one place while the passages say the rest elsewhere: a name referred back to
across passages, a year the other passages set, a number in the sentence before, a margin after "by", a word of
ending against a negated claim, abbreviated life dates. Each honest case verifies; the lie beside it does not."""

from __future__ import annotations

import pytest

from helpers.claims import checked

HERBARIUM = [
    "Roughly three quarters of the Threlkeld herbarium's 90,000 sheets were lost in February 1947.",
    "The herbarium had been founded in 1871 with the private collection of Amos Fenwright.",
]
FESTIVAL = [
    "The 2019 Oszby Lantern Festival was marred by three days of heavy rain.",
    "The festival committee reported a loss of £12,500 for the year. It bought rain insurance from 2020 onwards.",
]
TELESCOPE = [
    "In 1998 the Ollery Observatory replaced its 1.2-metre telescope with a 2.4-metre instrument. "
    "The old telescope was given to a school observatory in Farrow."
]


@pytest.mark.parametrize(
    ("claim", "contexts", "quote"),
    [
        ("The Threlkeld herbarium was founded in 1871.", HERBARIUM, (2, "The herbarium had been founded in 1871")),
        ("The committee made a loss of £12,500 in 2019.", FESTIVAL, (2, "reported a loss of £12,500 for the year")),
        (
            "The old 1.2 m telescope went to a school observatory in Farrow.",
            TELESCOPE,
            (1, "The old telescope was given to a school observatory in Farrow"),
        ),
        (
            "Marta Seglin was defeated by Ilse Korvath in the 1938 final.",
            ["In the 1938 final Ilse Korvath defeated Marta Seglin by 3 points to 1."],
            (1, "In the 1938 final Ilse Korvath defeated Marta Seglin by 3 points to 1"),
        ),
        (
            "The fire of 1703 destroyed the choir roof but not the nave.",
            ["The fire of 1703 destroyed the choir roof but spared the nave."],
            (1, "The fire of 1703 destroyed the choir roof but spared the nave"),
        ),
        (
            "自1958年起，蘅渠运河不再承担客运。",
            ["1958年，蘅渠运河停止客运，此后仅用于农田灌溉。"],
            (1, "1958年，蘅渠运河停止客运"),
        ),
        (
            "Piet Lommersen was born on 17 February 1898.",
            ["Piet Lommersen (b. 1898-02-17, Delfzand; d. 1961-09-04, Utrecht) was a chess master."],
            (1, "b. 1898-02-17"),
        ),
        ("萱河运河的航道深度达到2.5米。", ["萱河运河经过两次疏浚，航道加深至二点五米。"], (1, "航道加深至二点五米")),
        ("Ennaholm covers 48 km².", ["Ennaholm is a lake island that covers 48 km²."], (1, "covers 48 km²")),
        (
            "Amos Fenwright was curator at Threlkeld for 35 years, from 1858 to 1893.",
            ["Fenwright was curator at Threlkeld from 1858 to 1893."],
            (1, "Fenwright was curator at Threlkeld from 1858 to 1893"),
        ),
        ("滨河绿道全长一点五公里。", ["新修的滨河绿道全长1.5公里。"], (1, "新修的滨河绿道全长1.5公里")),
        ("清河老街两侧有一百多间商铺。", ["清河老街两侧保存有商铺百余间。"], (1, "两侧保存有商铺百余间")),
        (
            "鹿鸣水电站1954年建成。",
            ["鹿鸣水电站工程于1948年开工，历时六年建成。"],
            (1, "鹿鸣水电站工程于1948年开工，历时六年建成"),
        ),
        (
            "进入凤栖山森林公园不收门票。",
            ["凤栖山森林公园位于永丰县城以南，门票免费。"],
            (1, "凤栖山森林公园位于永丰县城以南，门票免费"),
        ),
        (
            "2021年环保部门检查时没有发现丰泰纺织违规。",
            ["其竞争对手声称，丰泰纺织偷排污水，但环保部门2021年的检查未发现违规。"],
            (1, "环保部门2021年的检查未发现违规"),
        ),
        (
            "科技馆有三个常设展厅。",
            ["县科技馆于2014年对外开放。", "馆内设有三个常设展厅。"],
            (2, "馆内设有三个常设展厅"),
        ),
        (
            "Eleven men were killed building the tunnel.",
            ["Eleven workers died building the tunnel."],
            (1, "Eleven workers died building the tunnel"),
        ),
        (
            "Clement Haye restored the church in the 1870s.",
            ["The church was restored by Clement Haye between 1871 and 1874."],
            (1, "The church was restored by Clement Haye between 1871 and 1874"),
        ),
        (
            "Calder finished the Brell railway in 1910.",
            ["Moritz Calder died in 1911, a year after finishing the Brell railway."],
            (1, "Moritz Calder died in 1911, a year after finishing the Brell railway"),
        ),
        (
            "南屏队在1988年重新夺得冠军。",
            ["在1987年全国象棋团体赛决赛中，北川队击败了南屏队。", "南屏队在第二年卷土重来，夺回了冠军。"],
            [(1, "在1987年全国象棋团体赛决赛中"), (2, "南屏队在第二年卷土重来，夺回了冠军")],
        ),
        (
            "红旗水库大坝于1959年汛期之前合龙。",
            ["一九五八年三月，红旗水库动工兴建，次年汛期前大坝合龙。"],
            [(1, "一九五八年三月"), (1, "次年汛期前大坝合龙")],
        ),
        (
            "The Aldenhof water tower supplied Lüdingen with water from 1907 until 1968.",
            [
                "The Aldenhof water tower is in Lüdingen.",
                "Built in 1907, the tower stored water for the town until 1968.",
            ],
            (2, "Built in 1907, the tower stored water for the town until 1968"),
        ),
        (
            "Fenwick Row was built in 1853 for workers of the Arden Ironworks.",
            ["The model village of Fenwick Row was built by the Arden Ironworks in 1853 to house its workers."],
            (1, "The model village of Fenwick Row was built by the Arden Ironworks in 1853 to house its workers"),
        ),
        (
            "The Tarran plant was enlarged in 2013.",
            [
                "In 2011 Brenholt Foods was acquired by Castellan Group, "
                "and its Tarran plant was expanded two years later."
            ],
            [
                (1, "In 2011 Brenholt Foods was acquired by Castellan Group"),
                (1, "its Tarran plant was expanded two years later"),
            ],
        ),
        (
            "国家市场监管总局在2024年7月启动了对该交易的反垄断审查。",
            ["泰和乳业与北牧集团于2024年4月宣布合并计划，国家市场监管总局已于同年7月对该交易启动反垄断审查。"],
            (1, "国家市场监管总局已于同年7月对该交易启动反垄断审查"),
        ),
        (
            "南屿省2023年共有26个高温日。",
            ["据《2023年南屿省气候公报》，全省年平均气温为19.4℃。", "公报指出，2023年全省共出现高温日数26天。"],
            (2, "2023年全省共出现高温日数26天"),
        ),
        (
            "Halo Cycles sold 84,000 bikes in 2023.",
            ["Sales of Halo Cycles bikes doubled in 2023, to 84,000 units."],
            (1, "Sales of Halo Cycles bikes doubled in 2023, to 84,000 units"),
        ),
        (
            "The Westfold Marathon was not held in 2020 or 2021.",
            ["The Westfold Marathon is run each autumn.", "The race was cancelled in 2020 and 2021."],
            (2, "The race was cancelled in 2020 and 2021"),
        ),
        (
            "Paul Ng said that no staff would lose their jobs.",
            [
                "Minister Ada Renwick said the closure was needed; "
                "the director, Paul Ng, said that no staff would lose their jobs."
            ],
            (1, "the director, Paul Ng, said that no staff would lose their jobs"),
        ),
        (
            "Castellan Freight's lawyers said they would not appeal.",
            ["The court set damages at €3.4 million; Castellan's lawyers said they would not appeal."],
            (1, "Castellan's lawyers said they would not appeal"),
        ),
        (
            "刘敏表示，所有医护人员都将得到妥善安置。",
            ["市卫健委主任王建平表示，停诊是为了建设妇产中心；医院院长刘敏则表示，所有医护人员都将得到妥善安置。"],
            (1, "医院院长刘敏则表示，所有医护人员都将得到妥善安置"),
        ),
        (
            "Hedda Solm won the 2022 Brask Prize with The Salt Orchard.",
            ["The Brask Prize is awarded each autumn.", "The 2022 prize went to Hedda Solm for The Salt Orchard."],
            (2, "The 2022 prize went to Hedda Solm for The Salt Orchard"),
        ),
        (
            "No one was hurt when Flight 208 diverted to Calvey.",
            ["Flight 208 diverted to Calvey on 3 August. Nobody was injured."],
            (1, "Nobody was injured"),
        ),
        (
            "In 2000 Okoro ran a national record of 22.41 seconds.",
            ["At the 1998 Games Nadia Okoro came second. Two years later she set a national record of 22.41 seconds."],
            (1, "Two years later she set a national record of 22.41 seconds"),
        ),
        (
            "Korrin 4 is designed to last 15 years.",
            ["The Korrin 4 satellite was launched in 2022. It serves ships. Its design life is 15 years."],
            (1, "Its design life is 15 years"),
        ),
        (
            "Onion prices in the Lund valley did not change in October.",
            ["Potato prices in the Lund valley fell 14 percent in October. Onion prices stayed flat."],
            (1, "Onion prices stayed flat"),
        ),
        (
            "程慕云在紫峰观象台工作了三十多年，从1901年一直到1938年。",
            ["程慕云1901年至1938年在紫峰观象台工作。"],
            (1, "程慕云1901年至1938年在紫峰观象台工作"),
        ),
        (
            "杨守拙的出生日期是1853年3月20日。",
            ["县志记载：杨守拙生于一八五三年三月二十日。"],
            (1, "杨守拙生于一八五三年三月二十日"),
        ),
        (
            "Footfall in Fennick stores dropped by 25%.",
            ["At Fennick, footfall in its 30 department stores fell by a quarter."],
            (1, "footfall in its 30 department stores fell by a quarter"),
        ),
        (
            "Tess and Rolf Varney climbed together for twenty years.",
            ["Tess and Rolf Varney married in 1960. They climbed together for two decades."],
            (1, "They climbed together for two decades"),
        ),
        (
            "白沙港2023年集装箱吞吐量是2018年的两倍。",
            ["白沙港集装箱吞吐量2023年比2018年翻了一番。"],
            (1, "白沙港集装箱吞吐量2023年比2018年翻了一番"),
        ),
        (
            "云岫铁路延伸线的公众咨询六月截止。",
            ["云岫铁路延伸线的公众咨询将于六月结束。"],
            (1, "云岫铁路延伸线的公众咨询将于六月结束"),
        ),
        ("新增求职者大多不到25岁。", ["2023年，新增求职者中多数未满25岁。"], (1, "新增求职者中多数未满25岁")),
        (
            "“青年学者计划”首批资助了24个项目。",
            ["“青年学者计划”首批资助了24个项目。"],
            (1, "“青年学者计划”首批资助了24个项目"),
        ),
        (
            "Seawind Energy rejects the fishermen's claim.",
            ["Fishermen allege that the wind farm drove the crabs away. The operator, Seawind Energy, denies this."],
            (1, "The operator, Seawind Energy, denies this"),
        ),
        ("Motorboats are banned in both parks.", ["Both parks ban motorboats."], (1, "Both parks ban motorboats")),
        ("2020年鹤岭矿业没有发生死亡事故。", ["2020年，鹤岭矿业实现零死亡。"], (1, "2020年，鹤岭矿业实现零死亡")),
        (
            "两市约定每年轮流主办论坛。",
            ["江州与岚川两市于2019年签订合作协议。", "两市约定每年轮流主办论坛。"],
            (2, "两市约定每年轮流主办论坛"),
        ),
        (
            "Buying identical shares within 30 days before or after selling them at a loss makes the sale a wash sale.",
            [
                "You make a wash sale when you sell shares at a loss and, "
                "within 30 days before or after the sale, you buy identical shares."
            ],
            (
                1,
                "within 30 days before or after the sale, you buy identical shares",
            ),
        ),
    ],
    ids=[
        "herbarium",
        "year-of-another-passage",
        "number-in-the-sentence-before",
        "margin-after-by",
        "spared",
        "停止",
        "b-date",
        "二点五",
        "km2-no-name",
        "years-between",
        "一点五",
        "百余",
        "历时",
        "免费",
        "但-ends-the-frame",
        "馆内",
        "men-workers",
        "decade",
        "a-year-after",
        "第二年-across-passages",
        "一九五八年-次年",
        "until",
        "agentless-passive",
        "a-year-anchor",
        "同年7月",
        "全省",
        "units",
        "cancelled",
        "speaker-surname",
        "speaker-possessive",
        "说话人-头衔",
        "prize-went-to",
        "nobody-injured",
        "two-years-later-is-no-year",
        "name-with-a-number",
        "stayed-flat",
        "三十多年",
        "生于",
        "a-quarter-is-25%",
        "two-decades",
        "翻了一番",
        "六月",
        "未满",
        "named-programme",
        "denies",
        "ban",
        "零死亡",
        "两市",
        "before-or-after",
    ],
)
def test_an_honest_quote_told_elsewhere_verifies(
    claim: str, contexts: list[str], quote: tuple[int, str] | list[tuple[int, str]]
) -> None:
    quotes = quote if isinstance(quote, list) else [quote]
    assert checked(claim, contexts, *quotes) == ("verified", None)


@pytest.mark.parametrize(
    ("claim", "contexts", "quote", "problem"),
    [
        (  # another passage names the claim's subject, but the sentence quoted is about another one
            "The Threlkeld herbarium was founded in 1871.",
            ["The Threlkeld herbarium is in Wenlow.", "Amos Fenwright founded the Marsh museum in 1871."],
            (2, "Amos Fenwright founded the Marsh museum in 1871"),
            "subject not in evidence",
        ),
        (  # the evidence writes its own year: the other passage's year is not the claim's
            "The committee made a loss of £12,500 in 2019.",
            ["The 2019 Oszby Lantern Festival was marred by rain.", "In 2018 the committee lost £12,500."],
            (2, "In 2018 the committee lost £12,500"),
            "year differs",
        ),
        (  # the sentence before holds the number, but the evidence writes another one
            "The old telescope was 1.2 m wide.",
            ["The observatory once had a 1.2-metre telescope. The old telescope was 2.4 m wide."],
            (1, "The old telescope was 2.4 m wide"),
            "number not in evidence",
        ),
        (
            "The canal did not close in 1958.",
            ["The canal closed in 1958."],
            (1, "The canal closed in 1958"),
            "negation differs",
        ),
        (
            "Ilse Korvath was defeated by Marta Seglin in the 1938 final.",
            ["In the 1938 final Ilse Korvath defeated Marta Seglin by 3 points to 1."],
            (1, "In the 1938 final Ilse Korvath defeated Marta Seglin by 3 points to 1"),
            "roles differ",
        ),
        (
            "Fenwright was curator at Threlkeld for 30 years, from 1858 to 1893.",
            ["Fenwright was curator at Threlkeld from 1858 to 1893."],
            (1, "Fenwright was curator at Threlkeld from 1858 to 1893"),
            "number not in evidence",
        ),
        (  # 该公司 refers to the company named before it, not to the claim's
            "明光制药成立于2003年。",
            ["明光制药成立于1995年，总部位于武汉。", "远航船舶公司的总部设在宁波。该公司成立于2003年。"],
            (2, "该公司成立于2003年"),
            "subject not in evidence",
        ),
        (
            "Eleven women were killed building the tunnel.",
            ["Eleven men died building the tunnel."],
            (1, "Eleven men died building the tunnel"),
            "a word of the claim is another",
        ),
        (
            "Ada Renwick said that no staff would lose their jobs.",
            [
                "Minister Ada Renwick said the closure was needed; "
                "the director, Paul Ng, said that no staff would lose their jobs."
            ],
            (1, "the director, Paul Ng, said that no staff would lose their jobs"),
            "speaker differs",
        ),
        (
            "市卫健委主任王建平表示，所有医护人员都将得到妥善安置。",
            ["市卫健委主任王建平表示，停诊是为了建设妇产中心；医院院长刘敏则表示，所有医护人员都将得到妥善安置。"],
            (1, "医院院长刘敏则表示，所有医护人员都将得到妥善安置"),
            "speaker differs",
        ),
        (
            "All services on the line call at Pennick Halt on request.",
            ["Some services on the line call at Pennick Halt on request."],
            (1, "Some services on the line call at Pennick Halt on request"),
            "quantifier differs",
        ),
        (
            "Castellan Freight sued Hedrick Marine for breach of contract.",
            [
                "The court upheld the ruling against Castellan Freight, "
                "which had been sued by Hedrick Marine for breach of contract."
            ],
            (1, "Castellan Freight, which had been sued by Hedrick Marine for breach of contract"),
            "roles differ",
        ),
        (
            "Velparin will be launched in Europe in 2026.",
            ["Corvane expects Velparin to be launched in Europe in 2026."],
            (1, "Corvane expects Velparin to be launched in Europe in 2026"),
            "the evidence hedges it",
        ),
        (
            "澄江是白溪河的一级支流。",
            ["白溪河是澄江的一级支流，全长164公里。"],
            (1, "白溪河是澄江的一级支流"),
            "roles differ",
        ),
        (
            "北牧集团的液态奶工厂于2018年投产。",
            ["北牧集团位于松原的液态奶工厂于2018年关闭。"],
            (1, "北牧集团位于松原的液态奶工厂于2018年关闭"),
            "a word of the claim is another",
        ),
        (
            "The Saltey causeway was built before the ferry service started.",
            ["The Saltey ferry service started in 1962, four years before the causeway was built."],
            (1, "The Saltey ferry service started in 1962, four years before the causeway was built"),
            "roles differ",
        ),
        (
            "程慕云在紫峰观象台工作了三十多年，从1901年一直到1923年。",
            ["程慕云1901年至1923年在紫峰观象台工作。"],
            (1, "程慕云1901年至1923年在紫峰观象台工作"),
            "number not in evidence",
        ),
        (
            "Footfall in Fennick stores dropped by 30%.",
            ["At Fennick, footfall in its stores fell by a quarter."],
            (1, "footfall in its stores fell by a quarter"),
            "number not in evidence",
        ),
        (
            "Tess and Rolf Varney climbed together for thirty years.",
            ["They married in 1960. Tess and Rolf Varney climbed together for two decades."],
            (1, "Tess and Rolf Varney climbed together for two decades"),
            "number not in evidence",
        ),
        (
            "Ada Renwick praised the stone chapel.",
            ["Ada Renwick criticised the village hall."],
            (1, "Ada Renwick criticised the village hall"),
            "evidence states something else",
        ),
        (
            "The club did not end its season early.",
            ["The club ended its season early."],
            (1, "The club ended its season early"),
            "negation differs",
        ),
        (
            "The museum did not charge admission in 2020.",
            ["The museum charged admission every day in 2020 except on Mondays."],
            (1, "The museum charged admission every day in 2020 except on Mondays"),
            "negation differs",
        ),
        (
            "The Dace bridge is as strong as the Harlow bridge.",
            ["The Dace bridge is not as strong as the Harlow bridge."],
            (1, "The Dace bridge is not as strong as the Harlow bridge"),
            "negation differs",
        ),
        ("居民对涨价表示满意。", ["居民对涨价表示不满。"], (1, "居民对涨价表示不满"), "negation differs"),
        (
            "The studio was sold in 1968.",
            ["The studio opened in 1970 and two years later it was sold."],
            (1, "The studio opened in 1970 and two years later it was sold"),
            "number not in evidence",
        ),
        (
            "Orvel Mining hired 300 workers and 40 engineers.",
            ["Dace Holdings hired 40 engineers. Orvel Mining hired 300 workers."],
            (1, "Orvel Mining hired 300 workers"),
            "number not in evidence",
        ),
        (
            "Orvel Mining posted a loss in 2015.",
            ["Orvel Mining posted a loss for the year.", "Dace Holdings was founded in 2015."],
            (1, "Orvel Mining posted a loss for the year"),
            "number not in evidence",
        ),
        (
            "Over three years the chain opened 30 stores.",
            ["Over three decades the chain opened 45 stores."],
            (1, "Over three decades the chain opened 45 stores"),
            "number not in evidence",
        ),
        (
            "Orvel and Dace jointly built two plants.",
            ["Both firms, Orvel and Dace, jointly built six plants."],
            (1, "Both firms, Orvel and Dace, jointly built six plants"),
            "number not in evidence",
        ),
        (
            "The Harlow plant produced 300 buses.",
            ["The Harlow plant produced 300 high-speed trains."],
            (1, "The Harlow plant produced 300 high-speed trains"),
            "unit differs",
        ),
        (
            "Orvel Mining was merged into Dace Holdings in 1990.",
            ["Dace Holdings was merged into Orvel Mining in 1990."],
            (1, "Dace Holdings was merged into Orvel Mining in 1990"),
            "roles differ",
        ),
        (
            "The Sennet Valley Railway closed in 1964.",
            [
                "The Sennet Valley Railway opened in 1884.",
                "The line closed in 1964, when the Harlow Tramway Company went bankrupt.",
            ],
            (2, "The line closed in 1964, when the Harlow Tramway Company went bankrupt"),
            "subject not in evidence",
        ),
        (
            "Henrik Ost lived in Bergen.",
            ["Henrik Ost was a botanist.", "Maria Ost was a painter. Ost lived in Bergen."],
            (2, "Ost lived in Bergen"),
            "subject not in evidence",
        ),
        (
            "组委会表示会议将推迟到明年。",
            ["组委会表示会议“可能推迟”到明年。"],
            (1, "组委会表示会议“可能推迟”到明年"),
            "the evidence hedges it",
        ),
    ],
    ids=[
        "other-subject",
        "own-year",
        "other-number",
        "not-closed",
        "roles",
        "wrong-span",
        "该公司-of-another",
        "men-women",
        "speaker",
        "说话人",
        "all-from-some-before-halt",
        "sued-in-a-relative-clause",
        "expects",
        "一级支流",
        "投产-from-关闭",
        "before-with-the-events-swapped",
        "more-than-30-years-from-22",
        "30%-from-a-quarter",
        "three-decades-from-two",
        "one-name-other-predicate",
        "did-not-end",
        "except",
        "as-strong-as",
        "不满",
        "two-years-later",
        "number-of-another-sentence",
        "year-of-another-topic",
        "three-years-from-three-decades",
        "both-six",
        "hyphenated-noun",
        "merged-into",
        "the-line",
        "another-ost",
        "quoted-hedge",
    ],
)
def test_the_lie_beside_it_is_not_verified(
    claim: str, contexts: list[str], quote: tuple[int, str], problem: str
) -> None:
    verification, found = checked(claim, contexts, quote)
    assert verification == "unverified" and found is not None and found.startswith(problem), found
