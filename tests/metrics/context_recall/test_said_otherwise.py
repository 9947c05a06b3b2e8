"""Numbers the evidence gives by arithmetic or in another unit: a difference the claim reads as a change, a
comparison or a margin, the year a span of years ends, a measure in another unit of it. The lie beside each (a
difference the claim does not read as one, a per-cent change from two counts, a wrong conversion) fails."""

from __future__ import annotations

import pytest

from helpers.claims import assert_caught, assert_verified


@pytest.mark.parametrize(
    ("claim", "contexts", "quotes"),
    [
        ("Harrow Academy won the final by 40 points.", ["Harrow Academy won the final by 320 points to 280."],
         [(1, "Harrow Academy won the final by 320 points to 280")]),
        ("Tolby Airport's staff grew by 150 between 2010 and 2018.",
         ["Tolby Airport had 250 staff in 2010 and 400 in 2018."],
         [(1, "Tolby Airport had 250 staff in 2010 and 400 in 2018")]),
        ("沙河县2023年本科上线率比上一年下降了5个百分点。", ["沙河县2023年本科上线率为58%，低于2022年的63%。"],
         [(1, "沙河县2023年本科上线率为58%，低于2022年的63%")]),
        ("Ilse Brand led the Oster Philharmonic until 2009.",
         ["Ilse Brand took over the Oster Philharmonic in 1988. She led the orchestra for 21 years."],
         [(1, "Ilse Brand took over the Oster Philharmonic in 1988"), (1, "She led the orchestra for 21 years")]),
        ("The Marle's flood walls were raised by 0.4 m.",
         ["The flood walls along the Marle were raised by 40 centimetres."],
         [(1, "The flood walls along the Marle were raised by 40 centimetres")]),
        ("The Hesk bell weighs 2.5 tonnes.", ["The Hesk bell weighs 2,500 kg."],
         [(1, "The Hesk bell weighs 2,500 kg")]),
    ],
)  # fmt: skip
def test_a_number_the_evidence_comes_to_verifies(
    claim: str, contexts: list[str], quotes: list[tuple[int, str]]
) -> None:
    assert_verified(claim, contexts, *quotes)


@pytest.mark.parametrize(
    ("claim", "contexts", "quotes", "check"),
    [
        ("Tolby Airport had 150 staff in 2018.", ["Tolby Airport had 250 staff in 2010 and 400 in 2018."],
         [(1, "Tolby Airport had 250 staff in 2010 and 400 in 2018")], "number not in evidence"),
        ("Tolby Airport's traffic grew by 20 per cent.", ["Tolby Airport handled 200 flights in 2010 and 220 in 2018."],
         [(1, "Tolby Airport handled 200 flights in 2010 and 220 in 2018")], "number not in evidence"),
        ("The Marle's flood walls were raised by 4 m.",
         ["The flood walls along the Marle were raised by 40 centimetres."],
         [(1, "The flood walls along the Marle were raised by 40 centimetres")], "number not in evidence"),
        ("Ilse Brand led the Oster Philharmonic until 2011.",
         ["Ilse Brand took over the Oster Philharmonic in 1988. She led the orchestra for 21 years."],
         [(1, "Ilse Brand took over the Oster Philharmonic in 1988"), (1, "She led the orchestra for 21 years")],
         "number not in evidence"),
    ],
)  # fmt: skip
def test_a_number_it_does_not_come_to_is_caught(
    claim: str, contexts: list[str], quotes: list[tuple[int, str]], check: str
) -> None:
    assert_caught(claim, contexts, quotes, check)
