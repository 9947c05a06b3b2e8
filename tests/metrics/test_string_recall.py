"""NonLLMContextRecall: the worked example, thresholds, scorers, normalisation, evidence and properties."""

from __future__ import annotations

import itertools
import threading

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from rapidfuzz import process
from rapidfuzz.distance import Levenshtein

from ragrecall import (
    ConfigurationError,
    InvalidSampleError,
    MissingFieldError,
    NonLLMContextRecall,
    StringRecallEvidence,
)
from ragrecall.metrics import _pair_work, string_recall
from ragrecall.metrics.base import StopRequested

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


def test_groups_overlapping_the_kernel_give_the_results_of_one_pass(monkeypatch: pytest.MonkeyPatch) -> None:
    import random

    rng = random.Random(7)
    words = ["alpha", "beta", "gamma", "delta", "alpha beta", "beta gamma", ""]
    samples = [
        {
            "id": i,
            "reference_contexts": [rng.choice(words[:-1]) for _ in range(rng.randint(1, 4))],
            "retrieved_contexts": [rng.choice(words) for _ in range(rng.randint(0, 5))],
        }
        for i in range(300)
    ]
    metric = NonLLMContextRecall(threshold=0.6)
    whole = metric.batch_score(samples)
    monkeypatch.setattr(_pair_work, "PARALLEL_MIN_PAIRS", 50)  # so that 300 samples make 4 groups
    calls: list[int] = []
    original = string_recall.NonLLMContextRecall._group_best

    def counted(self: NonLLMContextRecall, texts: list[tuple[list[str], list[str]]], stop: object) -> object:
        calls.append(len(texts))
        return original(self, texts, stop)  # type: ignore[arg-type]

    monkeypatch.setattr(string_recall.NonLLMContextRecall, "_group_best", counted)
    grouped = metric.batch_score(samples)
    assert len(calls) == 4 and sum(calls) == 300
    assert [r.model_dump() for r in grouped] == [r.model_dump() for r in whole]


def test_two_groups_are_compared_at_once(monkeypatch: pytest.MonkeyPatch) -> None:
    # The first two groups each wait for the other: with one helper thread the second never starts while the
    # first waits, and the barrier breaks.
    samples = [
        {"id": i, "reference_contexts": ["alpha beta"], "retrieved_contexts": ["beta gamma"] * 4} for i in range(200)
    ]
    metric = NonLLMContextRecall()
    whole = metric.batch_score(samples)
    monkeypatch.setattr(_pair_work, "PARALLEL_MIN_PAIRS", 100)
    both = threading.Barrier(2, timeout=10)
    first_two: list[int] = []
    original = string_recall.NonLLMContextRecall._group_best

    def meeting(self: NonLLMContextRecall, texts: list[tuple[list[str], list[str]]], stop: object) -> object:
        if len(first_two) < 2:
            first_two.append(len(texts))
            both.wait()
        return original(self, texts, stop)  # type: ignore[arg-type]

    monkeypatch.setattr(string_recall.NonLLMContextRecall, "_group_best", meeting)
    grouped = metric.batch_score(samples)
    assert len(first_two) == 2 and not both.broken
    assert [r.model_dump() for r in grouped] == [r.model_dump() for r in whole]


def test_groups_cover_the_samples_in_order_with_balanced_pairs() -> None:
    pairs = [10, 0, 30, 5, 5, 50, 0, 20]
    assert string_recall._groups(pairs, split=False) == [(0, 8)]
    assert string_recall._groups([100] * 3, split=True) == [(0, 3)]  # too few pairs for threads to pay
    big = [p * 1000 for p in pairs]
    groups = string_recall._groups(big, split=True)
    assert groups[0][0] == 0 and groups[-1][1] == len(pairs)
    assert all(a[1] == b[0] and a[0] < a[1] for a, b in itertools.pairwise(groups))
    assert 1 < len(groups) <= string_recall._GROUPS


# -- size limits ----------------------------------------------------------------------------------------------


def test_a_megabyte_passage_is_refused_naming_sample_field_item_and_limit() -> None:
    huge = "a" * 1_000_000
    metric = NonLLMContextRecall()
    with pytest.raises(InvalidSampleError) as caught:
        metric.score(id="big", retrieved_contexts=[PARIS, huge], reference_contexts=[PARIS])
    assert caught.value.field == "retrieved_contexts"
    message = str(caught.value)
    assert "id='big'" in message and "item [1] has 1,000,000 characters" in message
    assert "over the limit of 100,000 for scorer 'levenshtein'" in message and "raise max_chars" in message


def test_in_a_batch_only_the_oversized_sample_fails() -> None:
    samples = [
        {"id": "ok", "retrieved_contexts": [PARIS], "reference_contexts": [PARIS]},
        {"id": "big", "retrieved_contexts": [PARIS], "reference_contexts": ["b" * 100_001]},
        {"id": "ok2", "retrieved_contexts": [EIFFEL], "reference_contexts": [PARIS]},
    ]
    results = NonLLMContextRecall().batch_score(samples)
    assert [r.status for r in results] == ["scored", "failed", "scored"]
    failure = results[1].failure
    assert failure is not None and failure.type == "InvalidSampleError"
    assert failure.message.startswith("sample 1 (id='big'): field 'reference_contexts': item [0] has 100,001")
    assert "raise max_reference_chars" in failure.message


def test_the_limit_is_inclusive_and_can_be_raised() -> None:
    metric = NonLLMContextRecall(max_chars=10)
    assert metric.score(retrieved_contexts=["x" * 10], reference_contexts=["x" * 10]).value == 1.0
    with pytest.raises(InvalidSampleError, match="item \\[0\\] has 11 characters, over the limit of 10"):
        metric.score(retrieved_contexts=["x" * 11], reference_contexts=["x"])
    raised = NonLLMContextRecall(max_chars=200_000)
    assert raised.score(retrieved_contexts=["y" * 150_000], reference_contexts=["y"]).value == 0.0


def test_partial_bounds_reference_passages_at_2000_characters() -> None:
    metric = NonLLMContextRecall(scorer="partial")
    assert metric.reference_limit == 2_000 and NonLLMContextRecall().reference_limit == 100_000
    passage = ("word " * 400)[:2_000]
    chunk = "x" * 50_000 + passage + "y" * 40_000  # a long retrieved chunk is fine: the passage bounds the work
    assert metric.score(retrieved_contexts=[chunk], reference_contexts=[passage]).value == 1.0
    with pytest.raises(InvalidSampleError, match="over the limit of 2,000 for scorer 'partial'") as caught:
        metric.score(retrieved_contexts=[chunk], reference_contexts=[passage + "!"])
    assert caught.value.field == "reference_contexts" and "raise max_reference_chars" in str(caught.value)
    assert NonLLMContextRecall(scorer="partial", max_reference_chars=3_000).reference_limit == 3_000


def test_the_limits_hold_for_the_normalised_text() -> None:
    ligatures = {"retrieved_contexts": ["\ufdfa" * 10], "reference_contexts": ["x"]}  # NFKC: 18 characters each
    assert NonLLMContextRecall(max_chars=100).score(ligatures).is_scored
    with pytest.raises(InvalidSampleError, match="item \\[0\\] has 180 characters after normalisation") as caught:
        NonLLMContextRecall(max_chars=100, normalize=True).score(ligatures)
    assert caught.value.field == "retrieved_contexts"


@pytest.mark.parametrize(
    "kwargs",
    [{"max_chars": 0}, {"max_chars": True}, {"max_chars": "100"}, {"max_chars": None}, {"max_reference_chars": 0}],
)
def test_bad_limits_are_refused(kwargs: dict[str, object]) -> None:
    name = next(iter(kwargs))
    with pytest.raises(ConfigurationError, match=f"{name} must be a positive integer"):
        NonLLMContextRecall(**kwargs)  # type: ignore[arg-type]


# -- bounded work per call, and stopping between calls ------------------------------------------------------


@settings(max_examples=200, deadline=None)
@given(work=st.lists(st.integers(min_value=1, max_value=50), max_size=40), budget=st.integers(1, 60))
def test_work_is_split_into_consecutive_bounded_ranges(work: list[int], budget: int) -> None:
    ranges = _pair_work.split_work(np.asarray(work, dtype=np.float64), budget)
    assert [i for lo, hi in ranges for i in range(lo, hi)] == list(range(len(work)))
    assert all(hi > lo for lo, hi in ranges)
    for lo, hi in ranges:
        assert sum(work[lo : hi - 1]) < budget  # only the last pair of a range may cross the budget


def test_small_chunks_give_the_same_results(monkeypatch: pytest.MonkeyPatch) -> None:
    samples = [
        {"id": i, "retrieved_contexts": [PARIS, EIFFEL, "x" * i][: 1 + i % 3], "reference_contexts": [EIFFEL, "y" * i]}
        for i in range(40)
    ]
    for scorer in ("levenshtein", "partial"):
        metric = NonLLMContextRecall(scorer=scorer)
        whole = metric.batch_score(samples)
        monkeypatch.setattr(_pair_work, "CHUNK_WORK", 5_000)
        queries, choices = [PARIS] * 80, [EIFFEL, PARIS] * 40
        bound = _pair_work.whole_bound(scorer, [[PARIS]] * 40, [[EIFFEL, PARIS]] * 40, len(queries))
        assert bound is None  # over the (lowered) budget: cut pair by pair
        assert len(_pair_work.chunks(scorer, queries, choices, bound)) > 10
        assert metric.batch_score(samples) == whole
        monkeypatch.undo()


def test_a_set_stop_flag_ends_the_batch_between_similarity_calls(monkeypatch: pytest.MonkeyPatch) -> None:
    stop = threading.Event()
    calls: list[int] = []
    cpdist = process.cpdist

    def counting_cpdist(queries: list[str], choices: list[str], **kwargs: object) -> object:
        calls.append(len(queries))
        stop.set()  # the caller gives up while the first call runs
        return cpdist(queries, choices, **kwargs)

    monkeypatch.setattr(_pair_work, "CHUNK_WORK", 5_000)
    monkeypatch.setattr(process, "cpdist", counting_cpdist)
    samples = [{"retrieved_contexts": [PARIS] * 5, "reference_contexts": [EIFFEL] * 5}] * 100
    with pytest.raises(StopRequested):
        NonLLMContextRecall()._batch_score(samples, 16, "record", stop)
    assert len(calls) == 1 and calls[0] < 100 * 25


def test_a_custom_scorer_stops_at_the_next_pair() -> None:
    stop = threading.Event()
    seen: list[str] = []

    def scorer(reference: str, retrieved: str) -> float:
        seen.append(reference)
        if len(seen) == 3:
            stop.set()
        return 0.0

    samples = [{"retrieved_contexts": ["a", "b"], "reference_contexts": ["c", "d"]}] * 50
    with pytest.raises(StopRequested):
        NonLLMContextRecall(scorer=scorer)._batch_score(samples, 16, "record", stop)
    assert len(seen) == 3


def test_a_metric_with_a_built_in_scorer_pickles_and_scores_alike_after() -> None:
    import pickle

    from ragrecall import NonLLMContextRecall, Sample

    sample = Sample(reference_contexts=["Paris is in France."], retrieved_contexts=["Paris is in France!"])
    for scorer in ("levenshtein", "jaro_winkler", "partial"):
        metric = NonLLMContextRecall(scorer=scorer, threshold=0.9, name="mine")
        copy = pickle.loads(pickle.dumps(metric))  # rapidfuzz's compiled scorers do not pickle: kept by name
        assert copy == metric and copy.name == "mine"
        assert copy.score(sample).model_dump() == metric.score(sample).model_dump()
