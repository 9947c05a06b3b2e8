"""Forms of an honest-only stress world (every verdict right; a tuning world, not a measure): 17.06.2023 is a date;
"left … without power" says they lost power; "He was 91" states an age; a quote saying what another quote's "it"
refers to; "about two centuries", "three decades" after "and", "a century and a half"
are spans of years; £640m is 640 million pounds; a surname or a pronoun after "In 1931", "By 1675"; "The defense
argued" may stand for any party the sentence before names; in Chinese, 2012.11 before Chinese is a month, SP-20
names a kettle, 本院 is 法院, 四成二 is 42%, a span of time (从教四十余年间，) or 经过…， leads a sentence in, 县境
refers back, 由A委托B reads A as who acts, 位于 parts what is placed from its landmark, and "比省内最大的湖泊X小"
compares with X, not "最大". The lie beside each is caught."""

from __future__ import annotations

import pytest

from helpers.claims import assert_caught, assert_verified, checked
from ragrecall.text.numbers import numbers_in

CUP = ["Northern Counties Cup — Final, 17.06.2023, Moorfield Park, att. 8,412."]
FLOOD = ["Flooding along the River Tessel has left nearly a quarter of a million homes without power."]
OBITUARY = ["The jazz pianist Clem Ashdown died on Friday at his home in New Orleans. He was 91."]
ISLAND = [
    "The ferry to Inchmore takes forty minutes. The island is small, but it has a big seabird colony on its "
    "western cliffs. There is no cash machine; the shop takes cards."
]
CHAPEL = ["The Chapel of St Brannoc is about two centuries younger than the parish church of Holy Cross."]
SCULPTOR = [
    "Odile Varennes (1898–1971) was a French-born sculptor.",
    "She settled in Leeds in 1924 and taught at the city's art school for three decades.",
]
CATHEDRAL = [
    "Varnholm is a port city. Its cathedral, begun in 1230 and finished a century and a half later, is the largest "
    "in the region."
]
TERMINAL = ["The £640m terminal will raise the airport's capacity to 12 million passengers a year."]
AVIATOR = [
    "Rosalind Fenn (1904–1988) was a British aviator.",
    "In 1931 Fenn married the engineer Hugo Castellane. The couple divorced in 1946.",
]
ENGRAVER = [
    "Little is known of the engraver Tobias Quarle's early life.",
    "His earliest dated plate is from 1668. By 1675 he was working in London.",
]
COURT = [
    "In Harlan v. Greystone Logistics, the Ninth District Court of Appeals ruled 2–1 for the company. The defense "
    "argued that the drivers were independent contractors because they owned their trucks."
]


TIMELINE = ["远舟航运大事记：1994.05 公司在宁波注册成立；2012.11 在上海证券交易所挂牌上市。", "上市当年营收27.4亿元。"]
KETTLE = ["【產品說明】晴川牌SP-20型電熱水壺容量為1.7公升。請勿將壺身浸入水中清洗。"]
VERDICT = ["原告青禾公司诉被告陈某某买卖合同纠纷一案，本院于二〇二〇年六月十七日立案后，依法适用简易程序。"]
SURVEY = ["调查显示，每天使用手机阅读超过一小时的受访者占比为四成二。该调查由青川市图书馆委托市统计局开展。"]
TEACHER = ["许慕兰1935年生于浙江绍兴，是声乐教育家。", "从教四十余年间，她培养的学生中有十余人在国际比赛中获奖。"]
BRIDGE = ["桐河大桥于2019年4月开工建设，全长1,860米。", "经过近三年施工，该桥于2022年1月建成通车。"]
COUNTY = ["岚山县地处省境西北部，户籍人口约31万。", "县境内地势西高东低。该县是省内重要的核桃产区，年产量约一万吨。"]
METRO = ["南江市地铁5号线一期工程已完成全部土建施工。市轨道交通集团表示，该线路预计于今年12月底开通试运营。"]
LISTED = [
    "远舟航运大事记：1994.05 公司在宁波注册成立；2012.11 在上海证券交易所挂牌上市。",
    "上市当年，该公司完成营业收入27.4亿元。",
]
RULING = [
    "In Harlan v. Greystone Logistics, the Court of Appeals ruled 2–1 that the company had not violated the state's "
    "overtime statute."
]
LAKES = [
    "碧螺湖是云岭省第二大淡水湖，比省内最大的湖泊苍渊海小约40平方公里。",
    "苍渊海位于碧螺湖以北约90公里处，平均水深10.5米。",
]


def test_a_chinese_timeline_date_and_a_share_in_tenths() -> None:
    assert {"2012", "month:11"} <= numbers_in(TIMELINE[0]) and "2012.11" not in numbers_in(TIMELINE[0])
    assert numbers_in("价格为2012.11元") == {"2012.11"} and numbers_in("rate 2019.12 and") == {"2019.12"}


@pytest.mark.parametrize(
    ("claim", "contexts", "quotes"),
    [
        ("远舟航运于2012年11月上市。", TIMELINE, [(1, "2012.11 在上海证券交易所挂牌上市")]),
        ("使用晴川SP-20电热水壶时，不要把壶身泡在水里清洗。", KETTLE, [(1, "請勿將壺身浸入水中清洗")]),
        ("法院于2020年6月17日对该案立案。", VERDICT, [(1, "本院于二〇二〇年六月十七日立案")]),
        ("每天用手机阅读一小时以上的受访者占42%。", SURVEY, [(1, "每天使用手机阅读超过一小时的受访者占比为四成二")]),
        ("许慕兰的学生中有十多人在国际比赛中获过奖。", TEACHER, [(2, "她培养的学生中有十余人在国际比赛中获奖")]),
        ("桐河大桥在2022年1月竣工通车。", BRIDGE, [(2, "该桥于2022年1月建成通车")]),
        ("岚山县核桃年产量约一万吨。", COUNTY, [(2, "该县是省内重要的核桃产区，年产量约一万吨")]),
        ("苍渊海的水域面积比碧螺湖大约40平方公里。", LAKES, [(1, "比省内最大的湖泊苍渊海小约40平方公里")]),
        ("碧螺湖在苍渊海以南大约90公里。", LAKES, [(2, "苍渊海位于碧螺湖以北约90公里处")]),
        ("Lake Bira lies about 90 km south of Lake Cana.", ["Lake Cana lies about 90 km north of Lake Bira."],
         [(1, "Lake Cana lies about 90 km north of Lake Bira")]),
        ("青川市图书馆委托市统计局开展了该调查。", SURVEY, [(1, "该调查由青川市图书馆委托市统计局开展")]),
        ("地铁5号线一期预计今年12月底开通试运营。", METRO, [(1, "该线路预计于今年12月底开通试运营")]),
        ("远舟航运2012年的营业收入为27.4亿元。", LISTED,
         [(1, "2012.11 在上海证券交易所挂牌上市"), (2, "上市当年，该公司完成营业收入27.4亿元")]),
        ("The appeals court's ruling was split 2–1.", RULING, [(1, "the Court of Appeals ruled 2–1")]),
    ],
)  # fmt: skip
def test_the_chinese_honest_form_verifies(claim: str, contexts: list[str], quotes: list[tuple[int, str]]) -> None:
    assert_verified(claim, contexts, *quotes)


@pytest.mark.parametrize(
    ("claim", "contexts", "quotes", "check"),
    [
        ("远舟航运于2013年11月上市。", TIMELINE, [(1, "2012.11 在上海证券交易所挂牌上市")], "number not in evidence"),
        ("使用晴川SP-30电热水壶时，不要把壶身泡在水里清洗。", KETTLE, [(1, "請勿將壺身浸入水中清洗")],
         "number not in evidence"),
        ("每天用手机阅读一小时以上的受访者占24%。", SURVEY, [(1, "每天使用手机阅读超过一小时的受访者占比为四成二")],
         "number not in evidence"),
        ("碧螺湖的水域面积比苍渊海大约40平方公里。", LAKES, [(1, "比省内最大的湖泊苍渊海小约40平方公里")],
         "comparison differs"),
        ("碧螺湖在苍渊海以北大约90公里。", LAKES, [(2, "苍渊海位于碧螺湖以北约90公里处")], "direction differs"),
        ("Lake Bira lies about 90 km north of Lake Cana.", ["Lake Cana lies about 90 km north of Lake Bira."],
         [(1, "Lake Cana lies about 90 km north of Lake Bira")], "direction differs"),
        ("该调查由青川市统计局委托市图书馆开展。", SURVEY, [(1, "该调查由青川市图书馆委托市统计局开展")],
         "roles differ"),
        ("地铁5号线一期预计今年12月底开通试运营。", [METRO[0].replace("。市轨道", "。4号线正在建设。市轨道")],
         [(1, "该线路预计于今年12月底开通试运营")], "number not in evidence"),
        ("The court ruled that Greystone Logistics violated the state's overtime statute.", RULING,
         [(1, RULING[0][:-1].split(", ", 1)[1])], "negation differs"),
    ],
)  # fmt: skip
def test_the_chinese_lie_beside_it_is_caught(
    claim: str, contexts: list[str], quotes: list[tuple[int, str]], check: str
) -> None:
    assert_caught(claim, contexts, quotes, check)


def test_a_date_written_day_dot_month_dot_year_is_a_date_and_pounds_in_millions_are_millions() -> None:
    assert {"2023-06-17", "month:06"} <= numbers_in(CUP[0])
    assert numbers_in(TERMINAL[0]) >= {"640000000"} and "640" not in numbers_in(TERMINAL[0])
    assert numbers_in("the 640m tower") == {"640"}  # metres: no money before it


@pytest.mark.parametrize(
    ("claim", "contexts", "quotes"),
    [
        ("The Northern Counties Cup final was played on 17 June 2023.", CUP, [(1, "Final, 17.06.2023")]),
        ("Nearly 250,000 homes lost power because of the Tessel flooding.", FLOOD, [(1, FLOOD[0][:-1])]),
        ("Clem Ashdown passed away at his home in New Orleans at the age of 91.", OBITUARY,
         [(1, "died on Friday at his home in New Orleans"), (1, "He was 91")]),
        ("Inchmore has a large seabird colony on its western cliffs.", ISLAND,
         [(1, "it has a big seabird colony on its western cliffs"), (1, "The island is small")]),
        ("The parish church of Holy Cross is about two hundred years older than the Chapel of St Brannoc.", CHAPEL,
         [(1, CHAPEL[0][:-1])]),
        ("Varennes taught at the art school in Leeds for about thirty years.", SCULPTOR,
         [(2, "She settled in Leeds in 1924 and taught at the city's art school for three decades")]),
        ("Varnholm's cathedral took about 150 years to build.", CATHEDRAL,
         [(1, "Its cathedral, begun in 1230 and finished a century and a half later")]),
        ("Hugo Castellane married Rosalind Fenn in 1931.", AVIATOR,
         [(2, "In 1931 Fenn married the engineer Hugo Castellane")]),
        ("By 1675, Quarle was working in London.", ENGRAVER, [(2, "By 1675 he was working in London")]),
        ("Greystone's defence argued that its drivers were independent contractors because they owned their trucks.",
         COURT,
         [(1, "The defense argued that the drivers were independent contractors because they owned their trucks")]),
    ],
)  # fmt: skip
def test_the_honest_form_verifies(claim: str, contexts: list[str], quotes: list[tuple[int, str]]) -> None:
    assert_verified(claim, contexts, *quotes)


@pytest.mark.parametrize(
    ("claim", "contexts", "quotes", "check"),
    [
        ("The Northern Counties Cup final was played on 16 June 2023.", CUP, [(1, "Final, 17.06.2023")],
         "number not in evidence"),
        ("Nearly 250,000 homes lost power.", ["Nearly 250,000 homes did not lose power."],
         [(1, "Nearly 250,000 homes did not lose power")], "negation differs"),
        ("Clem Ashdown owned 91 pianos.", OBITUARY, [(1, "He was 91")], "quote states nothing"),
        ("The parish church of Holy Cross is about three hundred years older than the Chapel of St Brannoc.", CHAPEL,
         [(1, CHAPEL[0][:-1])], "number not in evidence"),
        ("Varnholm's cathedral took about 250 years to build.", CATHEDRAL,
         [(1, "Its cathedral, begun in 1230 and finished a century and a half later")], "number not in evidence"),
        ("The new terminal will cost £640 billion.", TERMINAL, [(1, "The £640m terminal")], "number not in evidence"),
        ("Hugo Castellane married Rosalind Fenn in 1932.", AVIATOR,
         [(2, "In 1931 Fenn married the engineer Hugo Castellane")], "number not in evidence"),
        ("Mayor Lena Quist argued that the drivers were independent contractors.", COURT,
         [(1, "The defense argued that the drivers were independent contractors")], "speaker differs"),
    ],
)  # fmt: skip
def test_the_lie_beside_it_is_caught(
    claim: str, contexts: list[str], quotes: list[tuple[int, str]], check: str
) -> None:
    assert_caught(claim, contexts, quotes, check)


# The second honest-only stress world (tuning): rounded figures and conversions, relative years, a doubled count.
BRIDGE_SPAN = ["The Kessington Bridge was opened in 1931. The steel arch spans 152 metres over the river."]
BAY = ["Merrow Bay is 14 miles wide at its mouth and 30 miles long."]
STAFF = ["Norvane Systems reported revenue of US$2.4 billion. The company employs about 9,800 people."]
LIBRARY = ["The university library holds 2.1 million volumes."]
FESTIVAL = ["The Valdora Film Festival was founded in 1987. A decade later it added a section for documentaries."]
PARTY = ["The party first entered parliament in 2003, winning nine seats. Four years later it doubled its seat count."]
COUNTY = ["白塔县面积约2870平方千米，户籍人口约42万。"]


@pytest.mark.parametrize(
    ("claim", "contexts", "quotes"),
    [
        ("The Kessington Bridge's steel arch has a span of about 500 feet.", BRIDGE_SPAN,
         [(1, "The steel arch spans 152 metres")]),
        ("Merrow Bay is roughly 22 km wide at its mouth.", BAY, [(1, BAY[0][:-1])]),
        ("Norvane Systems has nearly 10,000 employees.", STAFF, [(1, "The company employs about 9,800 people")]),
        ("The university library holds more than two million volumes.", LIBRARY, [(1, LIBRARY[0][:-1])]),
        ("The Valdora Film Festival added a documentary section in 1997.", FESTIVAL, [(1, FESTIVAL[0][:-1])]),
        ("The party won 18 seats in 2007.", PARTY, [(1, PARTY[0][:-1])]),
        ("白塔县面积约2870平方千米。", COUNTY, [(1, "白塔县面积约2870平方千米")]),
    ],
)  # fmt: skip
def test_a_rounded_or_worked_out_figure_verifies(
    claim: str, contexts: list[str], quotes: list[tuple[int, str]]
) -> None:
    assert_verified(claim, contexts, *quotes)


@pytest.mark.parametrize(
    ("claim", "contexts", "quotes"),
    [
        ("The Kessington Bridge's steel arch has a span of about 600 feet.", BRIDGE_SPAN,
         [(1, "The steel arch spans 152 metres")]),
        ("Merrow Bay is roughly 26 km wide at its mouth.", BAY, [(1, BAY[0][:-1])]),
        ("Norvane Systems has more than 10,000 employees.", STAFF, [(1, "The company employs about 9,800 people")]),
        ("The university library holds nearly two million volumes.", LIBRARY, [(1, LIBRARY[0][:-1])]),
        ("The university library holds more than 1.5 million volumes.", LIBRARY, [(1, LIBRARY[0][:-1])]),
        ("The Valdora Film Festival added a documentary section in 1998.", FESTIVAL, [(1, FESTIVAL[0][:-1])]),
        ("The party won 27 seats in 2007.", PARTY, [(1, PARTY[0][:-1])]),
    ],
)  # fmt: skip
def test_a_figure_rounded_too_far_or_the_wrong_way_is_caught(
    claim: str, contexts: list[str], quotes: list[tuple[int, str]]
) -> None:
    assert_caught(claim, contexts, quotes, "number not in evidence")


WETLAND = ["《湿地保护条例》自2015年起施行。条例规定，在重要湿地内禁止开垦和填埋。"]
FILM = ["《霧港來信》於2021年9月在台北首映。", "該片票房突破一億元。同年，它獲得了銀杏影展最佳劇本獎。"]


@pytest.mark.parametrize(
    ("claim", "contexts", "quotes"),
    [
        ("Around 8,000 of the university's students are postgraduates.",
         ["The University of Carrow has about 24,000 students, a third of them postgraduates."],
         [(1, "The University of Carrow has about 24,000 students, a third of them postgraduates")]),
        ("The museum's collection comprises roughly 12,000 objects.",
         ["The Farrow Museum opened in 1990. It holds about 12,000 objects."], [(1, "It holds about 12,000 objects")]),
        ("该条例禁止在重要湿地内开垦和填埋。", WETLAND, [(1, "在重要湿地内禁止开垦和填埋")]),
        ("从县城开车到石门村约需1.5小时。", ["碧落湖东岸的石门村距县城一个半小时车程。"],
         [(1, "碧落湖东岸的石门村距县城一个半小时车程")]),
        ("这场平局让北港码头队以一分之差错失冠军。", ["这场平局使北港码头队以一分之差无缘冠军。"],
         [(1, "这场平局使北港码头队以一分之差无缘冠军")]),
        ("《雾港来信》获得了银杏影展最佳剧本奖。", FILM, [(2, "同年，它獲得了銀杏影展最佳劇本獎")]),
    ],
)  # fmt: skip
def test_more_honest_forms_of_the_second_stress_world_verify(
    claim: str, contexts: list[str], quotes: list[tuple[int, str]]
) -> None:
    assert_verified(claim, contexts, *quotes)


def test_a_share_of_the_wrong_size_is_caught() -> None:
    assert_caught(
        "Around 12,000 of the university's students are postgraduates.",
        ["The University of Carrow has about 24,000 students, a third of them postgraduates."],
        [(1, "The University of Carrow has about 24,000 students, a third of them postgraduates")],
        "number not in evidence",
    )


STAFFING = ["The Calder Valley Line is a regional railway operator. It had 400 staff in 2010 and 650 in 2018."]
BAND = [
    "The Corvane Quartet is a folk band from Easterby.",
    "The band's second album, Harbour Lights (2012), was a tribute to the neighbourhood where its members grew up.",
]
METRO_COST = ["The line cost €1.9 billion, about 30 per cent more than planned."]


@pytest.mark.parametrize(
    ("claim", "contexts", "quotes", "verified"),
    [
        ("The Calder Valley Line's workforce grew from 400 in 2010 to 650 in 2018.", STAFFING,
         [(1, "It had 400 staff in 2010 and 650 in 2018")], True),
        ("The Calder Valley Line's workforce fell from 400 in 2010 to 650 in 2018.", STAFFING,
         [(1, "It had 400 staff in 2010 and 650 in 2018")], False),
        ("The Corvane Quartet's second album was a tribute to the neighborhood where its members grew up.", BAND,
         [(2, BAND[1][:-1])], True),
        ("The Green Line cost €1.9 billion, around 30% over budget.", METRO_COST, [(1, METRO_COST[0][:-1])], True),
        ("The Green Line cost €1.9 billion.", ["The line was planned to cost €1.9 billion."],
         [(1, "The line was planned to cost €1.9 billion")], False),
    ],
)  # fmt: skip
def test_a_change_told_by_two_dated_figures_a_band_by_its_noun_and_a_cost_over_plan(
    claim: str, contexts: list[str], quotes: list[tuple[int, str]], verified: bool
) -> None:
    assert (checked(claim, contexts, *quotes)[0] == "verified") == verified


# World XXI's flagged honest forms, read after its blind scoring: small Chinese numbers in words before 处, 区, 臺
# and scores in words (二比三); 传给 has two roles; a head noun after 此后 or 这座 names the subject.
@pytest.mark.parametrize(
    ("text", "numbers"),
    [("沿途开凿隧洞九处", {"9"}), ("决赛中以二比三惜败", {"2", "3"}), ("以一比零取胜", {"1", "0"}),
     ("館內展出舊式礱穀機三臺", {"3"}), ("江阳市下辖三区两县", {"3", "2"}), ("比赛开始", set())],
)  # fmt: skip
def test_small_chinese_numbers_in_words(text: str, numbers: set[str]) -> None:
    assert numbers_in(text) == numbers


SALT_STORE = [
    "1953年，县供销社买下了一座旧盐仓。这座盐仓建于清同治年间。",
    "此后盐仓长期闲置，直到2017年被改造成社区图书室。",
]
TEA_HOUSE = ["1936年，宋伯谦把茶庄传给了侄子宋立言，自己回乡养老。"]


def test_a_head_noun_after_a_time_word_names_the_subject_and_a_handing_over_has_two_roles() -> None:
    assert_verified("旧盐仓在2017年被改造成社区图书室。", SALT_STORE, (2, "直到2017年被改造成社区图书室"))
    assert_verified("1936年，宋伯谦把茶庄传给了宋立言。", TEA_HOUSE, (1, "宋伯谦把茶庄传给了侄子宋立言"))
    assert_caught(
        "1936年，宋立言把茶庄传给了宋伯谦。", TEA_HOUSE, [(1, "宋伯谦把茶庄传给了侄子宋立言")], "roles differ"
    )


def test_watts_and_residents_are_read() -> None:
    assert_verified("The Meridian 12 is rated at 300 W.", ["The Meridian 12 is rated at 300 watts."],
                    (1, "The Meridian 12 is rated at 300 watts"))  # fmt: skip
    assert_verified("Brennock has roughly 6,800 residents.", ["Brennock has 6,800 inhabitants."],
                    (1, "Brennock has 6,800 inhabitants"))  # fmt: skip
    assert_caught("The Meridian 12 is rated at 300 kW.", ["The Meridian 12 is rated at 300 watts."],
                  [(1, "The Meridian 12 is rated at 300 watts")], "unit differs")  # fmt: skip
