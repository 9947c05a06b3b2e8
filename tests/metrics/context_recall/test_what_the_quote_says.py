"""A sentence's frame or negation is read where the quote stands: a speaker named right before "alleged" is not
what is alleged ("the former harbour master Niels Grebe alleged that …"), and a clause that only lends the claim
its subject lends it no negation ("并非所有…都源于昆曲，其中不少取材于…"); "under the direction of" names who acts;
a claim keeping a conjecture's hedge (可能) keeps what 据…推测 says; a negated counterfactual antecedent ("had the
islanders not raised £40,000") says what it negates; a purpose ("so that it could be told apart") frames nothing
before it; "after whom it is named" orders no events. The lie beside each quotes the framed or negated words, or
swaps the parties, and is caught."""

from __future__ import annotations

import pytest

from helpers.claims import assert_caught, assert_verified

MEMOIR = [
    "In his memoirs, the former harbour master Niels Grebe alleged that the steamer Calloway was deliberately "
    "scuttled for the insurance money in 1903."
]
MEMOIR_ZH = ["清代藏书家沈观澜声称，其所藏《南华拾遗》为宋刻孤本。"]
OPERA = ["并非所有的溪州滩簧剧目都源于昆曲，其中不少取材于当地民间故事。"]
LINE = ["The Carrow line never reached Tolme, but it carried 2 million passengers in 1950."]
DIG = ["Excavation at Dunmere started in 2015 under the direction of Dr Mair Rhys."]
TEMPLE = ["据寺志推测，慧明禅师可能生于1150年前后的安平县。"]
RECALL = ["Pharmacies were told to return affected stock within 21 days.", "Staff were told that the batch was safe."]
FERRY = ["The Marrow Isles ferry would have been withdrawn in 1987 had the islanders not raised £40,000 to repair it."]
LIGHT = ["The Holm Ness lighthouse was painted with red bands in 1902 so that it could be told apart by day."]
TOWER = ["The tower was the work of the harbour engineer James Corley, after whom it is named."]


@pytest.mark.parametrize(
    ("claim", "contexts", "quote"),
    [
        ("Niels Grebe was a harbour master.", MEMOIR, (1, "the former harbour master Niels Grebe")),
        ("沈观澜是清代藏书家。", MEMOIR_ZH, (1, "清代藏书家沈观澜")),
        ("不少溪州滩簧剧目取材于当地民间故事。", OPERA, (1, "其中不少取材于当地民间故事")),
        ("The Carrow line carried 2 million passengers in 1950.", LINE, (1, "it carried 2 million passengers in 1950")),
        ("Excavation at Dunmere began in 2015, directed by Dr Mair Rhys.", DIG, (1, DIG[0][:-1])),
        ("慧明禅师可能生于1150年前后。", TEMPLE, (1, "慧明禅师可能生于1150年前后的安平县")),
        (
            "The islanders raised £40,000 to repair the ferry.",
            FERRY,
            (1, "had the islanders not raised £40,000 to repair it"),
        ),
        ("The Holm Ness lighthouse was painted with red bands in 1902.", LIGHT, (1, LIGHT[0].split(" so that")[0])),
        ("The Corley tower is named after James Corley.", TOWER, (1, "James Corley, after whom it is named")),
    ],
)
def test_what_the_frame_or_negation_does_not_reach_verifies(
    claim: str, contexts: list[str], quote: tuple[int, str]
) -> None:
    assert_verified(claim, contexts, quote)


@pytest.mark.parametrize(
    ("claim", "contexts", "quote", "check"),
    [
        (
            "The steamer Calloway was deliberately scuttled for the insurance money in 1903.",
            MEMOIR,
            (1, "the steamer Calloway was deliberately scuttled for the insurance money in 1903"),
            "the evidence only reports it",
        ),
        ("《南华拾遗》为宋刻孤本。", MEMOIR_ZH, (1, "其所藏《南华拾遗》为宋刻孤本"), "the evidence only reports it"),
        ("所有的溪州滩簧剧目都源于昆曲。", OPERA, (1, "并非所有的溪州滩簧剧目都源于昆曲"), "negation differs"),
        ("The Carrow line reached Tolme.", LINE, (1, "The Carrow line never reached Tolme"), "negation differs"),
        (
            "Ilse Korvath studied under the direction of Marta Seglin.",
            ["Marta Seglin studied in Lormont under the direction of Ilse Korvath."],
            (1, "Marta Seglin studied in Lormont under the direction of Ilse Korvath"),
            "roles differ",
        ),
        ("慧明禅师生于1150年。", TEMPLE, (1, "慧明禅师可能生于1150年前后的安平县"), "the evidence"),
        ("The batch was safe.", RECALL, (2, "Staff were told that the batch was safe"), "the evidence only reports it"),
        ("The Marrow Isles ferry was withdrawn in 1987.", FERRY, (1, FERRY[0][:-1]), "the evidence"),
        (
            "The islanders raised £40,000 to repair the ferry.",
            ["The ferry would be withdrawn if the islanders raised £40,000 to repair it."],
            (1, "if the islanders raised £40,000 to repair it"),
            "the evidence",
        ),
        (
            "The Holm Ness lighthouse is told apart by day.",
            LIGHT,
            (1, "so that it could be told apart by day"),
            "the evidence hedges it",
        ),
        (
            "每份保单对室内财产至少赔付30万元。",
            ["“安居保”每份保单对室内财产的赔付上限为30万元。"],
            (1, "每份保单对室内财产的赔付上限为30万元"),
            "bound differs",
        ),
        (
            "Each Homeguard policy pays at least £300,000 for contents.",
            ["Homeguard payouts for contents are capped at £300,000 per policy."],
            (1, "Homeguard payouts for contents are capped at £300,000 per policy"),
            "bound differs",
        ),
        (
            "星海民乐团的新编《十面埋伏》改变了原曲的结构。",
            ["2016年，乐评人梁思远撰文称，星海民乐团的新编《十面埋伏》改变了原曲的结构。"],
            (1, "乐评人梁思远撰文称，星海民乐团的新编《十面埋伏》改变了原曲的结构"),
            "the evidence only reports it",
        ),
    ],
)
def test_what_it_reaches_is_caught(claim: str, contexts: list[str], quote: tuple[int, str], check: str) -> None:
    assert_caught(claim, contexts, [quote], check)
