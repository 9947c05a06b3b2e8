"""Lies constructed against this round's relaxations, each caught, and the honest forms beside them: a denial is
read where the evidence writes the verb it governs (irregular forms and 没有 included); only a negated
counterfactual antecedent, not a past perfect, says what it negates; only the speaker right before a verb of
saying escapes the report; a hedge keeps only a conjecture; a passage continues another's subject only from its
first sentence, on a subject pronoun; a name may start with 有 or 无."""

from __future__ import annotations

import pytest

from helpers.claims import assert_caught, assert_verified
from ragrecall.metrics.context_recall._stated import stated_support
from ragrecall.metrics.context_recall._verify import Contexts

TOLSEY = "By 1931 the Tolsey bridge had still not opened to traffic."
CALLOWAY = "The Calloway was scuttled for the insurance money in 1903"


@pytest.mark.parametrize(
    ("claim", "contexts", "quotes", "check"),
    [
        (
            "Harwick Rovers did not win the cup in 1998.",
            ["Harwick Rovers won the cup in 1998."],
            [(1, "Harwick Rovers won the cup in 1998")],
            "negation differs",
        ),
        (
            "Harwick Rovers did not win in 1998.",
            ["Harwick Rovers won in 1998, beating Dunmore."],
            [(1, "Harwick Rovers won in 1998")],
            "negation differs",
        ),
        ("青石大桥没有通车。", ["青石大桥已经通车。"], [(1, "青石大桥已经通车")], "negation differs"),
        (
            "The Calder mill did not close permanently in 1920.",
            ["The Calder mill closed in 1920."],
            [(1, "The Calder mill closed in 1920")],
            "negation differs",
        ),
        (
            "The council never formally approved the Harbour Road plan.",
            ["The council approved the Harbour Road plan."],
            [(1, "The council approved the Harbour Road plan")],
            "negation differs",
        ),
        ("By 1931 the Tolsey bridge had opened to traffic.", [TOLSEY], [(1, TOLSEY[:-1])], "negation differs"),
        (
            "Brandt told the council he would sign the Varn treaty.",
            ["Brandt had told the council he would not sign the Varn treaty."],
            [(1, "Brandt had told the council he would not sign the Varn treaty")],
            "negation differs",
        ),
        (
            f"{CALLOWAY}.",
            [f"{CALLOWAY} according to rumours in the port."],
            [(1, CALLOWAY)],
            "the evidence only reports it",
        ),
        (
            f"{CALLOWAY}.",
            [f"{CALLOWAY} as Niels Grebe alleged in his memoirs."],
            [(1, CALLOWAY)],
            "the evidence only reports it",
        ),
        (
            "Mayor Brandt may have taken bribes from the Varn company.",
            ["His rivals alleged that Mayor Brandt may have taken bribes from the Varn company."],
            [(1, "Mayor Brandt may have taken bribes from the Varn company")],
            "the evidence only reports it",
        ),
        (
            "The Skerry lifeboat was named before the 1953 storm.",
            ["The Skerry lifeboat was named after the 1953 storm."],
            [(1, "The Skerry lifeboat was named after the 1953 storm")],
            "time order differs",
        ),
        (
            "The Harbour bridge opened in 1931 and spans 92 metres.",
            ["The Harbour bridge opened in 1931.", "Work on the crossing at Tolme began in 1925. It spans 92 metres."],
            [(1, "The Harbour bridge opened in 1931"), (2, "It spans 92 metres")],
            "quotes do not add up",
        ),
        (
            "The Harbour bridge opened in 1931 and spans 92 metres.",
            ["The Harbour bridge opened in 1931.", "Its rival upstream spans 92 metres."],
            [(1, "The Harbour bridge opened in 1931"), (2, "Its rival upstream spans 92 metres")],
            "quotes do not add up",
        ),
        (
            "青石大桥全长1.2公里，于2019年通车。",
            ["青石大桥全长1.2公里。", "其他几座桥均于2019年通车。"],
            [(1, "青石大桥全长1.2公里"), (2, "其他几座桥均于2019年通车")],
            "quotes do not add up",
        ),
        (
            "有色金属研究院成立于1952年。",
            ["稀土研究所成立于1952年。"],
            [(1, "稀土研究所成立于1952年")],
            "subject not in evidence",
        ),
        (
            "The Orla ferry sailed to Inchmore in 1921.",
            ["It is false that the Orla ferry sailed to Inchmore in 1921 without a licence."],
            [(1, "It is false that the Orla ferry sailed to Inchmore in 1921 without a licence")],
            "negation differs",
        ),
    ],
)
def test_a_constructed_lie_is_caught(
    claim: str, contexts: list[str], quotes: list[tuple[int, str]], check: str
) -> None:
    assert_caught(claim, contexts, quotes, check)


@pytest.mark.parametrize(
    ("claim", "contexts", "quotes"),
    [
        (TOLSEY, [TOLSEY], [(1, TOLSEY[:-1])]),
        (
            "The Tolsey bridge opened in 1931.",
            ["The Tolsey bridge opened in 1931. It was not, however, the first bridge at Tolme."],
            [(1, "The Tolsey bridge opened in 1931")],
        ),
        (
            "青石大桥全长1.2公里，于2019年通车。",
            ["青石大桥全长1.2公里。", "該橋於2019年通車。"],
            [(1, "青石大桥全长1.2公里"), (2, "該橋於2019年通車")],
        ),
    ],
)
def test_the_honest_form_beside_them_verifies(claim: str, contexts: list[str], quotes: list[tuple[int, str]]) -> None:
    assert_verified(claim, contexts, *quotes)


@pytest.mark.parametrize(
    ("claim", "passage", "stated"),
    [
        (
            "The Osk icefield covers 12 km of the ridge.",
            "The Osk icefield covers 12 km of the ridge. It is thinning.",
            True,
        ),
        ("The Osk icefield covers 12 km² of the ridge.", "The Osk icefield covers 12 km of the ridge.", False),
        (
            "The Kelso Glass Company supplied the palace windows in 1851.",
            "The Kelso Glass Company supplied the palace windows in 1851. The company's own history denies this.",
            False,
        ),
        (
            "Critics claimed that the Kelso Glass Company supplied the palace windows.",
            "Critics claimed that the Kelso Glass Company supplied the palace windows. The company denies this.",
            True,
        ),
    ],
)
def test_a_claim_that_is_its_sentence_is_stated_unless_written_otherwise_or_denied(
    claim: str, passage: str, stated: bool
) -> None:
    assert (stated_support(claim, Contexts([passage])) is not None) is stated
