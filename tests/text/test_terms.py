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


def test_a_stemmed_term_starts_a_word_of_its_text() -> None:
    """What the contestable-claim check relies on: a stemmed term's first three letters (a stem may change an ending:
    cities, city; harbour, harbor) are found in the lower-cased text it came from."""
    import random

    words = [
        "cities",
        "studies",
        "flies",
        "played",
        "houses",
        "metres",
        "uses",
        "running",
        "quickly",
        "bus",
        "glass",
        "status",
        "agencies",
        "series",
        "boxes",
        "tries",
        "Founded",
        "harbour's",
        "rebuilt",
        "ENLARGED",
        "mapped",
        "opened",
        "lottery",
        "engineers",
        "disputes",
        "floods",
    ]
    rng = random.Random(5)
    texts = [" ".join(rng.choices(words, k=8)) + "." for _ in range(500)]
    for text in texts:
        lowered = text.lower()
        for term in content_terms(text, stem=True, cjk="chars"):
            assert term[:3] in lowered, (term, text)
