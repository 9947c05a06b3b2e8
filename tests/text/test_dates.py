"""Dates, decades, centuries and relative years read as dates, in English and Chinese."""

from __future__ import annotations

import pytest

from ragrecall.text.names import claim_names
from ragrecall.text.numbers import numbers_in, quantities, ranges_in
from ragrecall.text.relative_years import derived_years, spans_in_years

ONE_DATE = {"1876", "month:04", "04-11", "1876-04-11"}


@pytest.mark.parametrize(
    "text",
    [
        "born 1876-04-11",
        "born on 11 April 1876",
        "born April 11, 1876",
        "生于1876年4月11日",
        "生于一八七六年四月十一日",
    ],
)
def test_one_date_in_every_form(text: str) -> None:
    assert numbers_in(text) == ONE_DATE
    assert ranges_in(text) == frozenset()  # 1876-04-11 is no range 4–11


def test_a_month_is_no_name_and_may_is_a_verb_unless_a_date() -> None:
    assert [n.text for n in claim_names("Harald Oste was born on 11 April 1876.")] == ["Harald Oste"]
    assert numbers_in("It may have 5 rooms.") == {"5"}
    assert numbers_in("in January 1987") == {"1987", "month:01"}


@pytest.mark.parametrize(
    ("text", "token"),
    [
        ("in the 1970s", "decade:1970"),
        ("20世纪70年代", "decade:1970"),
        ("1970年代", "decade:1970"),
        ("七十年代末", "decade:1970"),
        ("the mid-1800s", "century:19"),
        ("the nineteenth century", "century:19"),
        ("19世纪后期", "century:19"),
    ],
)
def test_decades_and_centuries(text: str, token: str) -> None:
    assert numbers_in(text) == {token}


def test_relative_years_count_from_the_year_before_them() -> None:
    assert derived_years("In 1934 she married Weiss, who had directed her debut two years earlier.") == {"1932"}
    assert derived_years("首架已于次年交付。", "2018年，北溟航空订购了八架客机。") == {"2019"}
    assert derived_years("The airline closed its base the following year.", "Traffic fell in 2009.") == {"2010"}
    assert spans_in_years("The track was taken up three years after the trains stopped.") == {"3"}


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("half a million specimens", {"500000"}),
        ("a quarter of a million", {"250000"}),
        ("three quarters of a million", {"750000"}),
        ("one and a half kilometres", {"1.5"}),
        ("two dozen arches", {"24"}),
        ("a twelve-arch bridge", {"12"}),
        ("不低于八成", {"80"}),
        ("零下8摄氏度", {"-8"}),
        ("12 degrees below zero", {"-12"}),
        ("一座古塔", set()),  # an article, not a count
    ],
)
def test_numbers_in_words(text: str, expected: set[str]) -> None:
    assert numbers_in(text) == expected


@pytest.mark.parametrize(
    ("text", "unit"),
    [
        ("9 percentage points", "pp"),
        ("9个百分点", "pp"),
        ("12 km²", "km2"),
        ("5 million m³", "m3"),
        ("18 knots", "knot"),
    ],
)
def test_units_that_change_a_number(text: str, unit: str) -> None:
    assert unit in quantities(text)[0].units
