"""Numbers in one canonical form: separators, decimal marks, full width, leading and trailing zeros."""

from __future__ import annotations

import pytest

from ragrecall.text.numbers import numbers_in, quantities, ranges_in


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
        ("on 2024-05-01.", {"2024", "month:05", "05-01", "2024-05-01"}),  # a date: its tokens
        ("fell to -5 degrees, (−3) and 5-10", {"-5", "-3", "5", "10"}),
        ("rose .5 percent, then 0.5", {"0.5"}),
        ("COVID-19 and -0", {"19", "0"}),
        ("1, 2 and 3", {"1", "2", "3"}),
        ("330 metres, 5% and 12:30", {"330", "5", "12", "30"}),
        ("three hundred", {"300"}),
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


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("three bridges and twenty-three people", {"3", "23"}),
        ("two thousand five hundred and a dozen eggs", {"2500", "12"}),
        ("a hundred years, a million visitors", {"100", "1000000"}),
        ("one bridge", {"1"}),
        # "one" as a pronoun, plurals and hyphenated compounds are no numbers
        ("one of the towers; no one came; one can see", set()),
        ("hundreds of people, dozens of bridges, a one-sided game", set()),
        ("the twenty-first century", {"century:21"}),  # a century, not twenty-one
        ("三千五百人", {"3500"}),
        ("两万名游客，十五座桥", {"20000", "15"}),
        ("二〇一九年", {"2019"}),
        ("一亿二千万元", {"120000000"}),
        ("百分之三十", {"30"}),
        ("航道加深至二点五米，零点五公里", {"2.5", "0.5"}),  # decimals read whole
        ("下午三点五十分", {"3", "50"}),  # a time of day, not 3.5
        ("年产约五千千升，全长两万千米", {"5000", "20000"}),  # 千升, 千米: the 千 is the unit's
        ("每千米收费3元", {"3"}),  # a lone 千 before 米 is the prefix "kilo" (千米: kilometre), no number
        ("二十点五米，三点五万人", {"20.5", "35000"}),
        # numerals that write words: 一起 together, 一直 always, 十分 very, 千万 by all means, 万一 in case
        ("他们一起走，一直很十分高兴，千万不要，万一下雨", set()),
        ("十分钟后", {"10"}),
    ],
)
def test_numbers_written_in_words_read_as_their_digits(text: str, expected: set[str]) -> None:
    assert numbers_in(text) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("3万名游客", {"30000"}),  # a scale word before a Han character still scales
        ("20万人", {"200000"}),
        ("1.2亿元 and 3万亿", {"120000000", "3000000000000"}),
    ],
)
def test_a_chinese_scale_word_counts_whatever_follows_it(text: str, expected: set[str]) -> None:
    assert numbers_in(text) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("from 2019 to 2021", {("2019", "2021")}),
        ("between 5 and 10 km", {("5", "10")}),
        ("the war of 1939–45", {("1939", "1945")}),
        ("2019年至2021年", {("2019", "2021")}),
        ("2019到2021年", {("2019", "2021")}),
        ("in 2019 and again in 2021", set()),  # two years, no range
        ("2019年和2021年", set()),
        ("on 2024-05-01", set()),  # a date, not a range
    ],
)
def test_ranges(text: str, expected: set[tuple[str, str]]) -> None:
    assert ranges_in(text) == expected


def test_a_range_written_short_holds_its_full_end() -> None:
    assert {"1939", "1945"} <= numbers_in("the war of 1939–45")


@pytest.mark.parametrize(
    ("text", "units"),
    [
        ("42 km", {"km"}),
        ("42 kilometres", {"km"}),
        ("42公里", {"km"}),
        ("42 miles", {"mi"}),
        ("42英里", {"mi"}),
        ("5% and", {"%"}),
        ("5 per cent", {"%"}),
        ("百分之五", {"%"}),
        ("25℃", {"°C"}),
        ("$5", {"USD"}),
        ("20万人", {"people"}),
        ("¥5", {"CNY", "JPY"}),  # ambiguous: agrees with either
        ("5 metres", {"m"}),
        ("5 apples", set()),
    ],
)
def test_units_read_through_their_spellings(text: str, units: set[str]) -> None:
    (quantity,) = quantities(text)
    assert quantity.units == units
