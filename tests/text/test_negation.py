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


def test_chinese_words_that_only_contain_a_negation_character() -> None:
    assert negations("这座城市的未来规划非常清楚，不少居民支持，特别是年轻人。") == ()
    assert negations("非洲和莫斯科不断变化，无论如何。") == ()
    assert negations("这座城市没有未来规划，也不清楚。") == ("不", "没")
