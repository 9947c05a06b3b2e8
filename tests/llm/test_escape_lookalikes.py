"""Tag names spelt with lookalike letters or invisible characters inside are escaped like the plain ones."""

from __future__ import annotations

import pytest

from ragrecall.llm._prompts import data_block, escape_data, read_data_blocks, unescape_data

DISGUISED = [
    "<\u0441ontext>",  # Cyrillic es
    "</\u0441\u043ent\u0435\u0445t>",  # Cyrillic es, o, ie, ha
    "</c\u03bfntext>",  # Greek omicron
    "<\uff43\uff4f\uff4e\uff54\uff45\uff58\uff54>",  # full width
    "</CON\u200bTEXT>",  # a zero-width space inside the name
    "</cl\u00adaim>",  # a soft hyphen
    "<\u0421l\u0430im>",  # Cyrillic capital es, a
    "</refe\u200drence>",  # a zero-width joiner
    "<sen\u2060tence>",  # a word joiner
    "</\u0455entence>",  # Cyrillic dze
]


@pytest.mark.parametrize("text", DISGUISED)
def test_a_disguised_tag_is_escaped_and_restored(text: str) -> None:
    escaped = escape_data(f"before {text} after")
    assert "<" not in escaped.replace("&lt;", "") and "&lt;" in escaped
    assert unescape_data(escaped) == f"before {text} after"
    block = data_block("context", f"x {text} y", 1)
    assert [b.text for b in read_data_blocks(block)] == [f"x {text} y"]


@pytest.mark.parametrize("text", ["<div>", "a < b", "<con>", "<\u0441at>", "x<y"])
def test_other_markup_is_left_as_written(text: str) -> None:
    assert escape_data(text) == text
