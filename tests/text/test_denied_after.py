"""A next sentence that denies the one before in a few words ("It did not, as is sometimes written") is a denial;
one that goes on with a negated verb of its own ("It did not last long") is not."""

from __future__ import annotations

import pytest

from ragrecall.text.negation import counterfactual, denied_after, negates


@pytest.mark.parametrize(
    "text",
    [
        "It did not, as is sometimes written; it played a week later.",
        "It was not.",
        "They did not — the records show otherwise.",
    ],
)
def test_an_elliptical_denial_opening_the_next_sentence_denies(text: str) -> None:
    assert denied_after(text, opening=True)


@pytest.mark.parametrize(
    "text",
    ["It did not last long.", "It was not until 1950 that the line opened.", "The band did not, in fact, split."],
)
def test_a_negated_statement_of_its_own_does_not(text: str) -> None:
    assert not denied_after(text, opening=True)


@pytest.mark.parametrize(
    ("clause", "antecedent", "negated"),
    [
        ("had the islanders not raised £40,000 to repair the slipway", True, False),
        ("if the fire had not destroyed the east wing", True, False),
        ("要不是村民筹集了四万元", True, False),
        ("the islanders had not raised the money", False, True),
        ("had the islanders raised the money", False, False),
    ],
)
def test_a_negated_counterfactual_antecedent_asserts_it(clause: str, antecedent: bool, negated: bool) -> None:
    assert (counterfactual(clause) is not None) is antecedent
    assert negates(clause) is negated
