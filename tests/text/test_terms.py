"""Content terms: function words left out, inflections met by the crude stemmer, CJK as bigrams or characters."""

from __future__ import annotations

from ragrecall.text.terms import content_terms


def test_function_words_and_single_letters_are_not_terms() -> None:
    assert content_terms("It is a fact that Paris is in France, too.") == {"fact", "paris", "france"}


def test_stemming_meets_common_inflections() -> None:
    assert (
        content_terms("hosted", stem=True) == content_terms("hosts", stem=True) == content_terms("hosting", stem=True)
    )
    assert content_terms("1,900 metres", stem=True) == {"1,900", "metr"} == content_terms("1,900 metre", stem=True)
    assert content_terms("studies", stem=True) == content_terms("study", stem=True)


def test_cjk_terms_are_bigrams_or_content_characters() -> None:
    assert content_terms("巴黎是首都") == {"巴黎", "黎是", "是首", "首都"}
    assert content_terms("巴黎是首都", cjk="chars") == {"巴", "黎", "首", "都"}
