"""Two gaps the review left: "won" against "lost the final" (输掉, 失利) is an outcome of its own, read for the
party that lost ("Kirkby lost the final to Hale" says nothing against "Hale won the final"); and a role noun after
a possessive names who acts after "was" or a comma ("Petra Lund's trainer was Mia Hale": Mia Hale trained her),
while a role noun in any other shape ("the coach Lars Enqvist", "the biggest employer in Tressel") orders nothing."""

from __future__ import annotations

import pytest

from helpers.claims import assert_caught, assert_verified

FINAL = ["Kirkby lost the 1998 final to Hale."]
TRAINER = ["Petra Lund's trainer was Mia Hale."]
FOUNDER = ["The observatory's founder, the banker Henry Pole, left it to the town."]


@pytest.mark.parametrize(
    ("claim", "contexts", "quote"),
    [
        ("Hale won the 1998 final.", FINAL, FINAL[0][:-1]),
        ("Ambry Town won the first leg 3–1.", ["Pellisford Rovers lost the first leg 3–1 at Ambry Town."],
         "Pellisford Rovers lost the first leg 3–1 at Ambry Town"),
        ("临江队在决赛中获胜。", ["湖州队在决赛中输给了临江队。"], "湖州队在决赛中输给了临江队"),
        ("Mia Hale trained Petra Lund.", TRAINER, TRAINER[0][:-1]),
        ("Henry Pole, a banker, founded the observatory.", FOUNDER, "The observatory's founder, the banker Henry Pole"),
        ("Lord Evershed sponsored the bill in the upper chamber.",
         ["The bill's sponsor in the upper chamber was Lord Evershed."],
         "The bill's sponsor in the upper chamber was Lord Evershed"),
        ("The Norvale hub is the biggest employer in Tressel.", ["Tressel's largest employer is the Norvale hub."],
         "Tressel's largest employer is the Norvale hub"),
        ("Varga is coached by Lars Enqvist.", ["Varga trains in Westby under the coach Lars Enqvist."],
         "Varga trains in Westby under the coach Lars Enqvist"),
    ],
)  # fmt: skip
def test_the_honest_form_verifies(claim: str, contexts: list[str], quote: str) -> None:
    assert_verified(claim, contexts, (1, quote))


@pytest.mark.parametrize(
    ("claim", "contexts", "quote", "check"),
    [
        ("Kirkby won the 1998 final.", FINAL, FINAL[0][:-1], "outcome differs"),
        ("湖州队在决赛中获胜。", ["湖州队在决赛中失利。"], "湖州队在决赛中失利", "outcome differs"),
        ("湖州队赢得了决赛。", ["湖州队输掉了决赛。"], "湖州队输掉了决赛", "outcome differs"),
        ("Petra Lund trained Mia Hale.", TRAINER, TRAINER[0][:-1], "roles differ"),
        ("The observatory founded Henry Pole.", FOUNDER, "The observatory's founder, the banker Henry Pole",
         "roles differ"),
        ("Hanna Vost taught Emil Sarn.", ["Vost's own teacher was the court engraver Emil Sarn."],
         "Vost's own teacher was the court engraver Emil Sarn", "roles differ"),
    ],
)  # fmt: skip
def test_the_lie_beside_it_is_caught(claim: str, contexts: list[str], quote: str, check: str) -> None:
    assert_caught(claim, contexts, [(1, quote)], check)
