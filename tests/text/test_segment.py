"""Sentence segmentation: English punctuation rules, CJK full stops, lists and line breaks."""

from __future__ import annotations

import pytest

from ragrecall.text import has_cjk, split_sentences


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("One. Two! Three? Four", ["One.", "Two!", "Three?", "Four"]),
        ("Dr. Smith arrived. He left.", ["Dr. Smith arrived.", "He left."]),
        ("It costs $3.50 today. Version 1.2 shipped.", ["It costs $3.50 today.", "Version 1.2 shipped."]),
        ("See e.g. Fig. 3 for details. Done.", ["See e.g. Fig. 3 for details.", "Done."]),
        ("J. R. R. Tolkien wrote it. Yes.", ["J. R. R. Tolkien wrote it.", "Yes."]),
        ("He moved to the U.S. in 1990. Then back.", ["He moved to the U.S. in 1990.", "Then back."]),
        ("a lower case. continues here", ["a lower case. continues here"]),
        ('She said "Stop." Then she left.', ['She said "Stop."', "Then she left."]),
        ("Wait... What happened?", ["Wait...", "What happened?"]),
    ],
)
def test_english_sentences(text: str, expected: list[str]) -> None:
    assert split_sentences(text) == expected


def test_chinese_full_stops_need_no_space() -> None:
    text = "巴黎是法国的首都。它位于塞纳河畔！人口约两百万吗？是的"
    assert split_sentences(text) == ["巴黎是法国的首都。", "它位于塞纳河畔！", "人口约两百万吗？", "是的"]


def test_chinese_closing_quote_stays_with_its_sentence() -> None:
    assert split_sentences("他说：“我来了。”然后走了。") == ["他说：“我来了。”", "然后走了。"]


def test_mixed_scripts_and_decimal_in_chinese() -> None:
    assert split_sentences("圆周率约为3.14。Paris is in France. 东京在日本。") == [
        "圆周率约为3.14。",
        "Paris is in France.",
        "东京在日本。",
    ]


def test_half_width_marks_after_cjk_end_sentences() -> None:
    assert split_sentences("你好!我很好?") == ["你好!", "我很好?"]


def test_blank_lines_and_list_items_separate_but_wrapped_lines_join() -> None:
    text = "Intro line\ncontinues here.\n\n- first item\n- second item\n1. numbered item\n2. Capitalised item."
    assert split_sentences(text) == [
        "Intro line continues here.",
        "first item",
        "second item",
        "numbered item",
        "Capitalised item.",
    ]


def test_empty_and_blank_text_give_no_sentences() -> None:
    assert split_sentences("") == []
    assert split_sentences("  \n\n ") == []


def test_has_cjk() -> None:
    assert has_cjk("abc 東京")
    assert has_cjk("한국어")
    assert not has_cjk("plain ASCII and café")
