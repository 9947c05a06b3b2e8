"""Openings that refer back, read from the data file: whole English words after any marks, Chinese prefixes."""

from __future__ import annotations

import pytest

from ragrecall.text.anaphora import SECTIONS, opening, opens_with, words_of


@pytest.mark.parametrize(
    ("sentence", "sections"),
    [
        ("It was rebuilt in 1921.", ("pronoun",)),
        ("“Their first ship sank.", ("pronoun",)),
        ("These were sold in 1910.", ("demonstrative",)),
        ("In the same year the mill closed.", ("same time",)),
        ("该公司于2015年上市。", ("demonstrative",)),
        ("全省共有九座水库。", ("generic",)),
        ("同年7月，大桥通车。", ("same time",)),
        ("We left at dawn.", ("first person",)),
    ],
)
def test_an_opening_that_refers_back_is_found(sentence: str, sections: tuple[str, ...]) -> None:
    assert opens_with(sentence, *sections)


@pytest.mark.parametrize(
    ("sentence", "sections"),
    [
        ("Italy won the cup.", ("pronoun",)),  # "it" is no whole word here
        ("Hers was the first.", ("pronoun",)),
        ("Thesis defended in 1990.", ("demonstrative",)),
        ("The same year he left.", ("pronoun",)),  # a section not asked for
        ("公园于2015年开放。", ("generic",)),
    ],
)
def test_other_openings_are_not(sentence: str, sections: tuple[str, ...]) -> None:
    assert not opens_with(sentence, *sections)


def test_the_match_covers_the_opening_word() -> None:
    found = opening("  (At the same time, prices rose.", "same time")
    assert found is not None and found.group().strip(" (").casefold() == "at the same time"


def test_the_sections_are_the_data_s() -> None:
    assert SECTIONS == (
        "pronoun",
        "subject pronoun",
        "first person",
        "demonstrative",
        "same time",
        "generic",
        "not an opening",
        "time lead-in",
        "a work",
        "that date",
    )
    assert "its" in words_of("pronoun") and "其" in words_of("pronoun")
    with pytest.raises(KeyError):
        words_of("no such section")
