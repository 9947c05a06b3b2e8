"""The quick paths of the text helpers give what the patterns they spare give: on ASCII text, number words,
negation cues, false friends and names are found as the case-blind patterns find them, and an empty answer
comes only where the pattern finds nothing."""

from __future__ import annotations

import re

import pytest

from ragrecall.text import negation, number_words, numbers
from ragrecall.text.letters import letter_runs
from ragrecall.text.segment import sentence_spans, split_sentences

TEXTS = [
    "It is not safe and never was.",
    "It isn't NON-toxic, Nobody said otherwise; no-one did.",
    "Nothing here, nonsense there, NOTHING AT ALL.",
    "Not only fast but also cheap: not just a toy.",
    "Twenty-three of the one hundred and five cats, A DOZEN dogs, and Seventeen birds.",
    "Money is often written with attention; someone saw none of it, one of them said.",
    "The AX3000 and the B-12 beat model v3.12 in 2019; GPT-4o came later.",
    "It is false that the bridge opened in 1998. In fact, this is not true.",
    "The museum of Port Alder was opened to the public in 1810 with money raised by a public lottery.",
    "5not only 7no no5 ab12 x-9 e.g. Dr. Smith arrived at 3 p.m. Then he left... Did he? Yes! (No.) 'No.'",
    "",
]


def test_letter_runs_are_the_runs_of_letters_lower_cased() -> None:
    for text in TEXTS:
        assert [r.decode() for r in letter_runs(text)] == re.findall(r"[^\W\d_]+", text.lower())


@pytest.mark.parametrize("text", TEXTS)
def test_number_words_of_ascii_text_as_the_case_blind_pattern_finds_them(text: str) -> None:
    found = number_words.english_numbers(text)
    spans = [(m.start(), m.end()) for m in number_words._ENGLISH.finditer(text)]
    assert all((w.start, w.end) in spans for w in found)  # the pronoun "one" is left out after matching
    if not spans:
        assert found == []
    assert any(w.value == "23" for w in number_words.english_numbers(TEXTS[4]))
    assert [w.value for w in number_words.english_numbers("A DOZEN eggs")] == ["12"]


@pytest.mark.parametrize("cues", ["_CLAUSE", "_SENTENCE", "_DENIAL", "_FALSE_FRIENDS"])
def test_a_text_said_to_hold_no_cue_holds_none(cues: str) -> None:
    pattern = getattr(negation, cues)
    assert pattern.quick  # the cue lists hold nothing a case-blind match could find in ASCII text
    for text in TEXTS + [t.upper() for t in TEXTS] + [t.title() for t in TEXTS]:
        if pattern.absent(text):
            assert pattern.pattern.search(text) is None, text
    assert not negation._CLAUSE.absent("It is NOT so")
    assert not negation._CLAUSE.absent("It isn't so")
    assert negation._CLAUSE.absent("Nothingness and notes")


def test_negations_of_ascii_text_as_before() -> None:
    assert negation.negations("It is not safe and never was.") == ("never", "not")
    assert negation.negations("It isn't NON-toxic.") == ("n't", "non")
    assert negation.negations("Not only fast but also cheap.") == ()
    assert negation.negations("nonsense, notes, knots") == ()
    assert negation.sentence_negated_before("It is false that it opened.", 20)
    assert not negation.sentence_negated_before("It is fal", 9)
    assert negation.denied_after("In fact, this is not true.", opening=True)


def test_names_need_a_letter_before_a_digit() -> None:
    assert numbers.names_in(TEXTS[6]) == {"ax3000", "b-12", "v3.12", "gpt-4o"}
    assert numbers.names_in("In 2019 and 2020, 3 of 4.") == frozenset()
    assert numbers.names_in("ＡＸ３０００ was sold") == {"ax3000"}  # read after NFKC


def test_digit_numbers_read_as_before() -> None:
    text = "1,234.5 and 1.000.000 and 1'000 and 3.14 and 2 000 and 12345 and 007"
    # a plain space separates numbers: "2 000" holds 2 and 0
    assert numbers.numbers_in(text) == {"1234.5", "1000000", "1000", "3.14", "2", "0", "12345", "7"}
    assert numbers.numbers_in("1.2.3 and 5bn") == {"1.2.3", "5000000000"}


def test_sentence_ends_as_before() -> None:
    text = "Dr. Smith arrived at 3 p.m. Then he left... Did he? Yes! (No.) Fine. 他来了。她也来了！好"
    assert split_sentences(text) == [
        "Dr. Smith arrived at 3 p.m. Then he left...",
        "Did he?",
        "Yes!",
        "(No.) Fine.",  # "No." is an abbreviation
        "他来了。",
        "她也来了！",
        "好",
    ]
    assert [text[s:e] for s, e in sentence_spans(text)] == split_sentences(text)
