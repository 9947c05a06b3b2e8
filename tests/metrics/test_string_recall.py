"""NonLLMContextRecall: the worked example, thresholds, scorers, normalisation, evidence and properties."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from rapidfuzz.distance import Levenshtein

from ragrecall import (
    ConfigurationError,
    InvalidSampleError,
    MissingFieldError,
    NonLLMContextRecall,
    StringRecallEvidence,
)

PARIS = "Paris is the capital of France."
EIFFEL = "The Eiffel Tower is one of the most famous landmarks in Paris."


def evidence(result: object) -> StringRecallEvidence:
    ev = getattr(result, "evidence", None)
    assert isinstance(ev, StringRecallEvidence)
    return ev


def test_worked_example() -> None:
    result = NonLLMContextRecall().score(retrieved_contexts=[PARIS], reference_contexts=[PARIS, EIFFEL])
    assert result.value == 0.5
    matches = evidence(result).matches
    assert [m.recalled for m in matches] == [True, False]
    assert matches[0].best_retrieved_index == 0 and matches[0].similarity == 1.0
    assert matches[1].similarity == pytest.approx(Levenshtein.normalized_similarity(EIFFEL, PARIS))


def test_empty_reference_is_unscorable() -> None:
    result = NonLLMContextRecall().score(retrieved_contexts=[PARIS], reference_contexts=[])
    assert result.status == "unscorable" and result.value is None and result.reason


def test_empty_retrieval_scores_zero() -> None:
    result = NonLLMContextRecall().score(retrieved_contexts=[], reference_contexts=[PARIS])
    assert result.value == 0.0
    assert evidence(result).matches[0].best_retrieved_index is None


def test_missing_field_is_an_error() -> None:
    with pytest.raises(MissingFieldError, match="field 'retrieved_contexts'"):
        NonLLMContextRecall().score(reference_contexts=[PARIS])


def test_blank_reference_passage_is_an_input_error() -> None:
    with pytest.raises(
        InvalidSampleError, match=r"field 'reference_contexts': item \[1\]: the reference passage is blank"
    ):
        NonLLMContextRecall().score(retrieved_contexts=[PARIS], reference_contexts=[PARIS, "  "])


def test_similarity_exactly_on_threshold_is_recalled() -> None:
    # "abcd" vs "abxy": 2 substitutions over length 4 -> similarity exactly 0.5
    assert Levenshtein.normalized_similarity("abcd", "abxy") == 0.5
    assert NonLLMContextRecall(threshold=0.5).score(retrieved_contexts=["abxy"], reference_contexts=["abcd"]).value == 1
    # 3 edits over 10 characters -> 0.7, a threshold that is not exact in binary
    assert (
        NonLLMContextRecall(threshold=0.7)
        .score(retrieved_contexts=["abcdefgxyz"], reference_contexts=["abcdefghij"])
        .value
        == 1.0
    )
    just_above = NonLLMContextRecall(threshold=0.5000001)
    assert just_above.score(retrieved_contexts=["abxy"], reference_contexts=["abcd"]).value == 0.0


def test_best_match_is_chosen_over_all_retrieved() -> None:
    result = NonLLMContextRecall().score(
        retrieved_contexts=["unrelated text", EIFFEL, PARIS], reference_contexts=[PARIS]
    )
    assert evidence(result).matches[0].best_retrieved_index == 2


def test_reference_duplicates_count_as_given() -> None:
    result = NonLLMContextRecall().score(retrieved_contexts=[PARIS], reference_contexts=[PARIS, PARIS, EIFFEL])
    assert result.value == pytest.approx(2 / 3)


def test_partial_scorer_finds_a_sentence_buried_in_a_long_chunk() -> None:
    chunk = (
        "The city hosts many museums and parks. " * 5 + EIFFEL + " It was completed in 1889 for the World's Fair. " * 3
    )
    sample = {"retrieved_contexts": [chunk], "reference_contexts": [EIFFEL]}
    assert NonLLMContextRecall().score(**sample).value == 0.0
    result = NonLLMContextRecall(scorer="partial").score(**sample)
    assert result.value == 1.0 and evidence(result).matches[0].similarity == 1.0


def test_chinese_and_other_scripts() -> None:
    zh_ref = "巴黎是法国的首都，也是最大的城市。"
    zh_ret = ["巴黎是法国的首都，也是法国最大的城市。", "埃菲尔铁塔位于巴黎。"]
    result = NonLLMContextRecall(threshold=0.8).score(retrieved_contexts=zh_ret, reference_contexts=[zh_ref])
    assert result.value == 1.0 and evidence(result).matches[0].best_retrieved_index == 0
    ru = "Париж — столица Франции."
    assert NonLLMContextRecall().score(retrieved_contexts=[ru], reference_contexts=[ru, "Токио"]).value == 0.5


def test_normalize_folds_case_width_and_whitespace() -> None:
    ref = "ＰＡＲＩＳ  is the\ncapital of FRANCE."
    plain = NonLLMContextRecall(threshold=0.95).score(retrieved_contexts=[PARIS], reference_contexts=[ref])
    normal = NonLLMContextRecall(threshold=0.95, normalize=True).score(
        retrieved_contexts=[PARIS], reference_contexts=[ref]
    )
    assert plain.value == 0.0
    assert normal.value == 1.0 and evidence(normal).matches[0].similarity == 1.0


@pytest.mark.parametrize("scorer", ["levenshtein", "indel", "jaro_winkler", "token_set", "partial"])
def test_every_named_scorer_gives_one_for_identical_and_low_for_unrelated(scorer: str) -> None:
    metric = NonLLMContextRecall(scorer=scorer)
    same = metric.score(retrieved_contexts=[PARIS], reference_contexts=[PARIS])
    assert evidence(same).matches[0].similarity == pytest.approx(1.0)
    other = metric.score(retrieved_contexts=["zzzz qqqq"], reference_contexts=[PARIS])
    assert evidence(other).matches[0].similarity < 0.5


def test_custom_callable_scorer() -> None:
    def first_word_equal(a: str, b: str) -> float:
        return 1.0 if a.split()[0] == b.split()[0] else 0.0

    metric = NonLLMContextRecall(scorer=first_word_equal, threshold=1.0)
    result = metric.score(retrieved_contexts=["Paris hosts..."], reference_contexts=[PARIS, EIFFEL])
    assert result.value == 0.5 and evidence(result).scorer == "first_word_equal"


def test_custom_scorer_out_of_range_is_reported() -> None:
    metric = NonLLMContextRecall(scorer=lambda a, b: 87.0)
    with pytest.raises(ConfigurationError, match="must return a similarity in \\[0, 1\\]"):
        metric.score(retrieved_contexts=["a"], reference_contexts=["b"])


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"threshold": 1.5}, "threshold must be a number in \\[0, 1\\]"),
        ({"threshold": "0.5"}, "threshold must be a number"),
        ({"scorer": "cosine"}, "unknown scorer 'cosine'; expected one of levenshtein, indel"),
        ({"scorer": 3}, "scorer must be a name or a callable"),
    ],
)
def test_bad_settings_are_refused(kwargs: dict[str, object], message: str) -> None:
    with pytest.raises(ConfigurationError, match=message):
        NonLLMContextRecall(**kwargs)  # type: ignore[arg-type]


def test_batch_equals_one_by_one_and_keeps_order() -> None:
    metric = NonLLMContextRecall()
    samples = [
        {"id": i, "retrieved_contexts": [PARIS, EIFFEL][: i % 3], "reference_contexts": [PARIS, EIFFEL, "x" * i]}
        for i in range(1, 30)
    ]
    batch = metric.batch_score(samples)
    assert [r.sample_id for r in batch] == list(range(1, 30))
    assert [r.value for r in batch] == [metric.score(s).value for s in samples]


texts = st.text(alphabet=st.characters(codec="utf-8", exclude_categories=("Cs",)), min_size=1, max_size=30).filter(
    lambda t: bool(t.strip())
)


@settings(max_examples=60, deadline=None)
@given(retrieved=st.lists(texts, max_size=6), reference=st.lists(texts, min_size=1, max_size=4), data=st.data())
def test_properties(retrieved: list[str], reference: list[str], data: st.DataObject) -> None:
    metric = NonLLMContextRecall()
    value = metric.score(retrieved_contexts=retrieved, reference_contexts=reference).value
    assert value is not None and 0.0 <= value <= 1.0
    shuffled = data.draw(st.permutations(retrieved))
    assert metric.score(retrieved_contexts=shuffled, reference_contexts=reference).value == value
    extra = data.draw(texts)
    more = metric.score(retrieved_contexts=[*retrieved, extra], reference_contexts=reference).value
    assert more is not None and more >= value


def test_batch_kernel_matches_a_naive_pairwise_computation() -> None:
    import random

    rng = random.Random(5)
    words = ["alpha", "beta", "gamma", "delta", "alpha beta", "beta gamma"]
    samples = []
    for i in range(200):
        refs = [rng.choice(words) for _ in range(rng.randint(1, 4))]
        rets = [rng.choice(words) for _ in range(rng.randint(0, 5))]  # repeats make ties on the maximum
        samples.append({"id": i, "reference_contexts": refs, "retrieved_contexts": rets})
    metric = NonLLMContextRecall(threshold=0.6)
    for sample, result in zip(samples, metric.batch_score(samples), strict=True):
        matches = evidence(result).matches
        for i, ref in enumerate(sample["reference_contexts"]):
            sims = [Levenshtein.normalized_similarity(ref, r) for r in sample["retrieved_contexts"]]
            best = max(sims, default=0.0)
            assert matches[i].similarity == pytest.approx(best)
            assert matches[i].best_retrieved_index == (sims.index(best) if sims else None)
            assert matches[i].recalled == (bool(sims) and best >= 0.6)
