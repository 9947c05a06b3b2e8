"""Lies a review constructed against this round's relaxations (a surname for a whole name, agent nouns, a
possessive name, a denial of the sentence before, a reporting claim, numbers told around the quote, arithmetic,
spans of years, shortened Chinese words, 该书 after a title, time lead-ins, "without …", "The company said",
"The <noun>" of the sentence before), each caught; and the honest texts a denial reading must leave alone."""

from __future__ import annotations

import pytest

from helpers.claims import checked
from ragrecall.metrics.context_recall._stated import stated_support
from ragrecall.metrics.context_recall._verify import Contexts

Z = "永泰药业曾在2015年向监管官员行贿三百万元"
THEATRE = ["有观众认为，青枫剧院今年的票价过高。剧院院长周明对此予以否认。"]

CASES = [
    (
        "Owen Mercer became a magistrate in 1850.",
        [
            "Owen Mercer was a carpenter in Hull.",
            "Ruth Hale married a shipwright called Mercer, who became a magistrate in 1850.",
        ],
        [(2, "Ruth Hale married a shipwright called Mercer, who became a magistrate in 1850")],
    ),
    (
        "Lydia Varga later sat on the county council.",
        [
            "The Selham dairy's first director was Lydia Varga.",
            "Tomas Hale bought the dairy from the widow of a man named Varga, who later sat on the county council.",
        ],
        [(2, "Tomas Hale bought the dairy from the widow of a man named Varga, who later sat on the county council")],
    ),
    (
        "The Hollin Rowing Club was founded in 1874.",
        [
            "The Hollin Rowing Club won the county cup in 1902.",
            "Ada Voss taught at the Hollin school for girls. Hollin was founded in 1874 by the vicar.",
        ],
        [(2, "Hollin was founded in 1874 by the vicar")],
    ),
    (
        "Tom Reed founded the Harlow Museum.",
        ["Tom Reed was a founder member of the Harlow Museum's friends society."],
        [(1, "Tom Reed was a founder member of the Harlow Museum's friends society")],
    ),
    (
        "Lake Orm lies higher than Lake Brin.",
        ["Lake Brin lies above Lake Orm in the valley."],
        [(1, "Lake Brin lies above Lake Orm in the valley")],
    ),
    (
        "Harwick Bridge was built before Lenton Bridge.",
        ["Lenton Bridge, built in 1790, is older than Harwick Bridge."],
        [(1, "Lenton Bridge, built in 1790, is older than Harwick Bridge")],
    ),
    (
        "Harlan Foods supplies Medivale.",
        ["Medivale supplies Harlan Foods's plant in Ghent."],
        [(1, "Medivale supplies Harlan Foods's plant in Ghent")],
    ),
    ("安和药业隐瞒了两例病例。", ["安和药业对隐瞒两例病例一事予以否认。"], [(1, "安和药业对隐瞒两例病例一事予以否认")]),
    ("周明承认青枫剧院今年的票价过高。", THEATRE, [(1, "剧院院长周明对此予以否认")]),
    (
        "Ada Voss wrote the Harlow Charter in 1921.",
        ["Ada Voss wrote the Harlow Charter in 1921, but this is a myth: Tom Reed drafted it."],
        [(1, "Ada Voss wrote the Harlow Charter in 1921")],
    ),
    (
        "Charles Darwin described the Tolby finch in 1838.",
        ["Charles Darwin described the Tolby finch in 1838, but this is a myth: John Gould described it in 1841."],
        [(1, "Charles Darwin described the Tolby finch in 1838")],
    ),
    (
        "Harlow Motors recalled 30,000 cars in 2004.",
        ["Harlow Motors recalled 30,000 cars in 2004. This claim is false; the recall covered 3,000 vans."],
        [(1, "Harlow Motors recalled 30,000 cars in 2004")],
    ),
    (
        "The mayor announced that the Tarn bridge would reopen in May.",
        [
            "Local papers reported that the mayor announced that the Tarn bridge would reopen in May. "
            "The mayor's office denied this."
        ],
        [(1, "the mayor announced that the Tarn bridge would reopen in May")],
    ),
    (
        "总决赛第五场的观众人数为1.2万。",
        ["总决赛第五场改在周日进行。上一场比赛的观众人数为1.2万。"],
        [(1, "上一场比赛的观众人数为1.2万")],
    ),
    (
        "溪城地铁5号线全长18公里。",
        ["溪城地铁5号线仍在规划中。已开通的线路全长18公里。"],
        [(1, "已开通的线路全长18公里")],
    ),
    (
        "三月换届选举的投票率是58%。",
        ["三月换届选举因暴雨推迟。上届选举的投票率为58%。"],
        [(1, "上届选举的投票率为58%")],
    ),
    (
        "Tolby Airport's staff grew by 150 between 2010 and 2018.",
        ["Tolby Airport had 400 staff in 2010 and 250 in 2018."],
        [(1, "Tolby Airport had 400 staff in 2010 and 250 in 2018")],
    ),
    (
        "沙河县2023年本科上线率比上一年上升了5个百分点。",
        ["沙河县2023年本科上线率为58%，低于2022年的63%。"],
        [(1, "沙河县2023年本科上线率为58%，低于2022年的63%")],
    ),
    (
        "Harrow Academy won the final by 40 points.",
        ["In the final, Dunmore School beat Harrow Academy by 320 points to 280."],
        [(1, "In the final, Dunmore School beat Harrow Academy by 320 points to 280")],
    ),
    (
        "The Tarn bridge is 30 metres longer than the Hexley bridge.",
        ["The Tarn bridge is 120 metres long. The Hexley bridge is 150 metres long."],
        [(1, "The Tarn bridge is 120 metres long"), (1, "The Hexley bridge is 150 metres long")],
    ),
    (
        "Ticket prices at the Oster hall rose by 5 pounds in 2019.",
        ["In 2019, the Oster hall charged 20 pounds for adults and 15 pounds for children."],
        [(1, "In 2019, the Oster hall charged 20 pounds for adults and 15 pounds for children")],
    ),
    (
        "Ilse Brand led the Oster Philharmonic until 2009.",
        ["Ilse Brand took over the Oster Philharmonic in 1988. She led it for 12 years and taught for 21 years."],
        [
            (1, "Ilse Brand took over the Oster Philharmonic in 1988"),
            (1, "She led it for 12 years and taught for 21 years"),
        ],
    ),
    (
        "The Hesk bell weighs 2.5 tonnes.",
        ["The Hesk bell weighs 25 tonnes; its clapper alone weighs 2,500 kg."],
        [(1, "The Hesk bell weighs 25 tonnes; its clapper alone weighs 2,500 kg")],
    ),
    (
        "The Tarn tunnel took 18 months to build.",
        ["Work on the Tarn tunnel began 1.5 years after the plans were approved and took 4 years."],
        [(1, "Work on the Tarn tunnel began 1.5 years after the plans were approved and took 4 years")],
    ),
    (
        "Ida Marr ran the Quay Dispensary for four decades.",
        ["The Quay Dispensary stood for forty years; Ida Marr ran it for the last ten."],
        [(1, "The Quay Dispensary stood for forty years; Ida Marr ran it for the last ten")],
    ),
    (
        "The two towns held a joint fair for over a hundred years.",
        ["Tarn and Hexley held a joint fair for less than a century."],
        [(1, "Tarn and Hexley held a joint fair for less than a century")],
    ),
    (
        "Tarn and Hexley held a joint fair for more than three decades.",
        ["Tarn and Hexley held a joint fair for almost thirty years."],
        [(1, "Tarn and Hexley held a joint fair for almost thirty years")],
    ),
    (
        "Tolby Airport's staff grew by 150 between 2010 and 2018.",
        ["Tolby Airport, which opened in 2010, had 250 staff in 2015 and 400 in 2018."],
        [(1, "Tolby Airport, which opened in 2010, had 250 staff in 2015 and 400 in 2018")],
    ),
    (
        "永丰纱厂的产量在2010年至2018年间增长了150吨。",
        ["永丰纱厂2010年改制，2015年产量为250吨，2018年产量为400吨。"],
        [(1, "永丰纱厂2010年改制，2015年产量为250吨，2018年产量为400吨")],
    ),
    ("张伟在决赛中获得金牌。", ["张小伟在决赛中获得金牌。"], [(1, "张小伟在决赛中获得金牌")]),
    (
        "李明是东岭足球俱乐部的主教练。",
        ["李明是东岭足球俱乐部的球员。", "李晓明是东岭足球俱乐部的主教练。"],
        [(2, "李晓明是东岭足球俱乐部的主教练")],
    ),
    ("北大的校庆日是5月4日。", ["北方大学的校庆日是5月4日。"], [(1, "北方大学的校庆日是5月4日")]),
    (
        "《雪线》出版于2001年。",
        ["长篇小说《雪线》写的是高原铁路。", "作者韩冬的第二部小说写矿工生活。该书2001年出版后广受好评。"],
        [(2, "该书2001年出版后广受好评")],
    ),
    (
        "永丰纱厂目前每天生产棉纱约18吨。",
        ["永丰纱厂是沅江最老的纱厂。", "后来红星纱厂并入了沅江纺织集团。目前该厂日产棉纱约18吨。"],
        [(2, "目前该厂日产棉纱约18吨")],
    ),
    (
        "永丰纱厂目前每天生产棉纱约18吨。",
        ["永丰纱厂是沅江最老的纱厂。", "如今，红星纱厂是沅江规模最大的纱厂，目前日产棉纱约18吨。"],
        [(2, "如今，红星纱厂是沅江规模最大的纱厂，目前日产棉纱约18吨")],
    ),
    (
        "永丰纱厂计划扩产。",
        ["永丰纱厂是沅江最老的纱厂。", "近年来红星纱厂订单大增。厂方表示将扩产。"],
        [(2, "厂方表示将扩产")],
    ),
    (
        "The regulator approved quenbimab in 2020 after further trials.",
        ["The regulator approved quenbimab in 2020 without requiring more studies."],
        [(1, "The regulator approved quenbimab in 2020 without requiring more studies")],
    ),
    (
        "The Tarn ferry had an accident in its first year.",
        ["The Tarn ferry ran its first year without incident."],
        [(1, "The Tarn ferry ran its first year without incident")],
    ),
    (
        "Hale was paid for the Tarn mural.",
        ["Hale painted the Tarn mural without pay."],
        [(1, "Hale painted the Tarn mural without pay")],
    ),
    (
        "Harlow Foods said it would cut 300 jobs.",
        [
            "Harlow Foods said sales fell. Dorrance Pharma, its main rival, reported a loss of 40 million. "
            "The company said it would cut 300 jobs."
        ],
        [(1, "The company said it would cut 300 jobs")],
    ),
    (
        "The new eye unit has a laser suite.",
        ["Ashby General opened a new eye unit and a dental clinic in 2019. The clinic has a laser suite."],
        [(1, "The clinic has a laser suite")],
    ),
    (
        "The new day surgery centre has six operating theatres.",
        [
            "Tarn Hospital built a new day surgery centre next to its maternity wing. "
            "The wing has six operating theatres."
        ],
        [(1, "The wing has six operating theatres")],
    ),
]


@pytest.mark.parametrize(("claim", "contexts", "quotes"), CASES)
def test_a_constructed_lie_is_not_verified(claim: str, contexts: list[str], quotes: list[tuple[int, str]]) -> None:
    verification, problem = checked(claim, contexts, *quotes)
    assert verification != "verified", (claim, problem)


@pytest.mark.parametrize(
    ("claim", "contexts"),
    [
        ("The Brindle Mill was built in 1822.",
         ["The Brindle Mill was built in 1822. This corrects the false date of 1790 given in older guides."]),
        ("青龙桥建于1712年。", ["青龙桥建于1712年。这一年份纠正了旧志中的错误。"]),
        ("The council approved the Tarn bypass in 1998.",
         ["The council approved the Tarn bypass in 1998. This, critics argue, was a mistaken decision."]),
        ("Ada Voss was elected to the Harlow council in 1922.",
         ["Ada Voss was elected to the Harlow council in 1922. This story is often told wrong: she was the second "
          "woman, not the first."]),
    ],
)  # fmt: skip
def test_a_sentence_after_that_is_no_denial_leaves_the_claim_verified(claim: str, contexts: list[str]) -> None:
    quote = claim.rstrip("。.")
    assert checked(claim, contexts, (1, quote)) == ("verified", None)


@pytest.mark.parametrize(
    ("claim", "context"),
    [
        (Z, f"据网友爆料，一份截图显示，{Z}。"),
        (Z, f"网上流传的帖子称，内部文件显示，{Z}。"),
        (Z, f"小说中，调查人员证实，{Z}。"),
    ],
)
def test_an_affirming_opening_after_a_report_or_a_story_is_not_stated(claim: str, context: str) -> None:
    assert stated_support(claim, Contexts([context])) is None
