"""Forms of an honest-only stress world (every verdict right; a tuning world, not a measure): 17.06.2023 is a date;
"left … without power" says they lost power; "He was 91" states an age; a quote saying what another quote's "it"
refers to; "about two centuries", "three decades" after "and", "a century and a half"
are spans of years; £640m is 640 million pounds; a surname or a pronoun after "In 1931", "By 1675"; "The defense
argued" may stand for any party the sentence before names. The lie beside each is caught."""

from __future__ import annotations

import pytest

from helpers.claims import assert_caught, assert_verified
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
