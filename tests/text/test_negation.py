"""Negation markers: English words and contractions, Chinese characters, any case or width."""

from __future__ import annotations

from ragrecall.text.negation import negations


def test_negation_markers() -> None:
    assert negations("It is not safe and never was.") == ("never", "not")
    assert negations("It isn't NON-toxic.") == ("n't", "non")
    assert negations("ＮＯＴ safe") == ("not",)
    assert negations("它不安全，也没有批准。") == ("不", "没")
    assert negations("It is safe.") == ()
    assert negations("Nothing here") == ("nothing",) and negations("nonsense") == ()
