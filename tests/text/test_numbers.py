"""Numbers in one canonical form: separators, decimal marks, full width, leading and trailing zeros."""

from __future__ import annotations

import pytest

from ragrecall.text.numbers import numbers_in


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("in 1900", {"1900"}),
        ("1,900 cases", {"1900"}),
        ("１９００年", {"1900"}),
        ("2\u00a0000 and 1\u202f500 and 3\u2009000", {"2000", "1500", "3000"}),
        ("Table 3 100 patients", {"3", "100"}),
        ("1'000'000 francs", {"1000000"}),
        ("1,234.5 or 1.234,5", {"1234.5"}),
        ("3.50 and 3.5", {"3.5"}),
        ("1,5 kg", {"1.5"}),
        ("2.0 and 2", {"2"}),
        ("agent 007", {"7"}),
        ("1.000.000", {"1000000"}),
        ("version 1.2.3", {"1.2.3"}),
        ("on 2024-05-01.", {"2024", "5", "1"}),
        ("fell to -5 degrees, (−3) and 5-10", {"-5", "-3", "5", "10"}),
        ("rose .5 percent, then 0.5", {"0.5"}),
        ("COVID-19 and -0", {"19", "0"}),
        ("1, 2 and 3", {"1", "2", "3"}),
        ("330 metres, 5% and 12:30", {"330", "5", "12", "30"}),
        ("three hundred", set()),
        ("埃菲尔铁塔高330米，建于1889年", {"330", "1889"}),
    ],
)
def test_numbers_in_canonical_form(text: str, expected: set[str]) -> None:
    assert numbers_in(text) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("the Lumio AX3000", set()),
        ("vitamin B12", set()),
        ("Python v3.12 and 3.12", {"3.12"}),
        ("200mg, 2nd", {"200", "2"}),
    ],
)
def test_digits_after_a_letter_are_part_of_a_name(text: str, expected: set[str]) -> None:
    assert numbers_in(text) == expected
