"""Locating a quote: folding maps back to the original text; exact, fuzzy and guarded matches."""

from __future__ import annotations

import pytest

from ragrecall.text.locate import FUZZY_MIN_CHARS, Folded, has_ellipsis, locate

TEXT = "In the 2020 review, the drug is now safe for children and adults. It was approved in 1,900 cases."


def passage(quote: str, text: str = TEXT, threshold: float = 0.9) -> str | None:
    found = locate(quote, Folded.of(text), threshold=threshold)
    return None if found is None else text[found.start : found.end]


@pytest.mark.parametrize("text", [TEXT, TEXT.replace("drug", "drüg"), "Ｆｕｌｌ　ｗｉｄｔｈ，ﬁne. e\u0301t\u00e9"])
def test_every_folded_character_maps_back_to_its_original(text: str) -> None:
    folded = Folded.of(text)
    assert len(folded.text) == len(folded.starts) == len(folded.ends)
    for i, ch in enumerate(folded.text):
        start, end = folded.span(i, i + 1)
        assert 0 <= start < end <= len(text)
        assert ch in Folded.of(text[start:end]).text


def test_exact_after_folding() -> None:
    assert passage("THE DRUG IS NOW SAFE  for children!") == "the drug is now safe for children"
    assert passage("approved in 1,900") == "approved in 1,900"


def test_a_match_must_start_and_end_on_word_boundaries() -> None:
    assert passage("rug is now safe for chil") is None
    assert passage("is", "Paris is a big city.") == "is"
    assert (
        passage("is", "Paris is a big city.")
        and locate("is", Folded.of("Paris is a big city."), threshold=0.9).start == 6
    )
    assert passage("approved in 1,9") is None


def test_fuzzy_above_the_threshold_only() -> None:
    found = locate("drug is now safe for childern and adlts", Folded.of(TEXT), threshold=0.9)
    assert found is not None and found.match == "fuzzy" and 0.9 <= found.similarity < 1.0
    assert TEXT[found.start : found.end] == "drug is now safe for children and adults"
    assert locate("drug is now safe for childern and adlts", Folded.of(TEXT), threshold=1.0) is None
    assert passage("the medicine has been judged harmless for kids") is None


@pytest.mark.parametrize(
    ("quote", "text"),
    [
        ("the drug is not safe for children", TEXT),
        ("It was approved in 1,800 cases", TEXT),
        ("The estate went to John Smith after his death", "The estate went to John Jones after his death."),
        ("The drug was approved in France in 2004", "The drug was approved in Canada in 2004."),
        ("Sales decreased sharply in the second quarter", "Sales increased sharply in the second quarter."),
        ("The river flows west through the valley", "The river flows east through the valley."),
        ("The patient was unable to walk after surgery", "The patient was able to walk after surgery."),
        ("the drug is now safe for young children", TEXT),  # a word the passage does not have
    ],
)
def test_a_fuzzy_match_cannot_change_a_word_a_number_or_a_negation(quote: str, text: str) -> None:
    assert passage(quote, text, threshold=0.8) is None


def test_short_quotes_must_match_exactly() -> None:
    assert len(Folded.of("2021 rev").text) < FUZZY_MIN_CHARS
    assert passage("2021 review", threshold=0.5) is None
    assert passage("2020 review") == "2020 review"


def test_a_quote_longer_than_the_text_is_compared_whole() -> None:
    assert passage("It was approved in 1,900 cases and then some more.", text="It was approved in 1,900 cases.") is None


@pytest.mark.parametrize("quote", ["the drug … in 1,900 cases", "the drug is nw safe... for children"])
def test_a_quote_that_leaves_text_out_with_an_ellipsis_is_no_verbatim_passage(quote: str) -> None:
    assert has_ellipsis(quote) and passage(quote, threshold=0.5) is None


def test_an_ellipsis_the_text_writes_too_is_verbatim() -> None:
    assert passage("He waited… then left", "At dawn he waited… then left.") == "he waited… then left"
    assert passage("the drug is now safe... for children") == "the drug is now safe for children"


def test_a_sign_or_point_opening_a_number_belongs_to_the_passage() -> None:
    assert passage("5 degrees", "Overnight it fell to -5 degrees.") == "-5 degrees"
    assert passage("5 percent", "Rates rose .5 percent.") == ".5 percent"


def test_cjk() -> None:
    text = "据报道，巴黎是法国的首都和最大城市。埃菲尔铁塔高３３０米。"
    assert passage("巴黎是法国的首都", text) == "巴黎是法国的首都"
    assert passage("埃菲尔铁塔高330米", text) == "埃菲尔铁塔高３３０米"
    assert passage("巴黎不是法国的首都和最大城市", text, threshold=0.8) is None
    # One miscopied character in a long quote is a slip (the checks read the passage, not the copy); two are not,
    # nor one that writes a number or a negation.
    assert passage("巴黎是法國的首都和最大城市", text, threshold=0.8) == "巴黎是法国的首都和最大城市"
    assert passage("巴黎是法國的首都和最大城巿", text, threshold=0.8) is None
    assert passage("巴黎是法国的首都和三大城市", text, threshold=0.8) is None
    assert passage("巴黎是法国", text.replace("巴黎是法国", "巴黎是法囯"), threshold=0.8) is None  # too short
    assert passage("巴黎是法国首都和最大城市", text, threshold=0.9) == "巴黎是法国的首都和最大城市"  # one left out


def test_a_quote_ending_a_sentence_keeps_the_closing_punctuation() -> None:
    assert passage("It was approved in 1,900 cases.") == "It was approved in 1,900 cases."
    assert passage("It was approved in 1,900 cases") == "It was approved in 1,900 cases"
    assert passage("巴黎是法国的首都。", "巴黎是法国的首都。埃菲尔铁塔高330米。") == "巴黎是法国的首都。"


@pytest.mark.parametrize(
    ("quote", "text", "expected"),
    [
        ("is big", "Paris is big", "is big"),
        ("Paris", "Paris is big", "Paris"),
        ("Paris is big", "Paris is big", "Paris is big"),
        ("330 metres", "It is 330 metres", "330 metres"),
        ("big", "Paris is big", "big"),
    ],
)
def test_a_quote_at_either_end_of_the_text(quote: str, text: str, expected: str) -> None:
    assert passage(quote, text) == expected


@pytest.mark.parametrize(
    ("quote", "text"),
    [
        ("The budget rose to 1.2 million dollars last year", "The budget rose to 1.2 billion dollars last year."),
        ("The award went to Maria Lopez in the spring", "The award went to Mario Lopez in the spring."),
        ("Noise levels affect sleeping patients badly", "Noise levels effect sleeping patients badly."),
        ("The molecule is symmetric in both planes", "The molecule is asymmetric in both planes."),
        ("The compound is toxic to fish in rivers", "The compound is non-toxic to fish in rivers."),
        ("It is the tallest structure in the old city", "It is the second tallest structure in the old city."),
        ("The Lumio AX3000 supports the new standard", "The Lumio AX5400 supports the new standard."),
    ],
    ids=["million-billion", "name", "affect-effect", "prefix", "non", "left-out-word", "model-name"],
)
def test_a_fuzzy_match_forgives_slips_not_other_words(quote: str, text: str) -> None:
    assert passage(quote, text, threshold=0.8) is None


def test_slips_of_the_pen_and_left_out_function_words_are_forgiven() -> None:
    text = "The committee approved the proposal after a long debate."
    assert passage("The comittee approved proposal after a long debaet", text) == text.rstrip(".")


def test_a_number_keeps_its_scale_word() -> None:
    assert passage("The budget was $1.2", "The budget was $1.2 billion in 2020.") == "The budget was $1.2 billion"


@pytest.mark.parametrize(
    ("quote", "text"),
    [
        ("データ", "ﾃﾞｰﾀの保存"),  # half-width katakana with its voicing mark
        ("한국어", "\u1112\u1161\u11ab\u1100\u116e\u11a8\u110b\u1165 교육"),  # decomposed Hangul
        ("istanbul is large", "İstanbul is large."),
        ("built in 1889", "It was built in 1889¹ for the fair."),  # a footnote mark
        ("café au lait", "Un cafe\u0301 au lait."),
    ],
)
def test_honest_copies_in_other_unicode_forms_are_found(quote: str, text: str) -> None:
    assert passage(quote, text) is not None
