"""IDBasedContextRecall: the worked example, edge cases, evidence and properties."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from ragrecall import ConfigurationError, IDBasedContextRecall, IDRecallEvidence, MissingFieldError, Sample


def test_worked_example() -> None:
    result = IDBasedContextRecall().score(
        retrieved_context_ids=["doc_1", "doc_2", "doc_3"],
        reference_context_ids=["doc_1", "doc_4", "doc_5", "doc_6"],
    )
    assert result.value == 0.25
    assert isinstance(result.evidence, IDRecallEvidence)
    assert [(f.id, f.rank) for f in result.evidence.found] == [("doc_1", 1)]
    assert result.evidence.missing == ["doc_4", "doc_5", "doc_6"]


def test_empty_reference_is_unscorable_not_zero() -> None:
    result = IDBasedContextRecall().score(retrieved_context_ids=["a"], reference_context_ids=[])
    assert result.status == "unscorable" and result.value is None
    assert result.reason is not None and "reference_context_ids is empty" in result.reason


def test_empty_retrieval_scores_zero() -> None:
    result = IDBasedContextRecall().score(retrieved_context_ids=[], reference_context_ids=["a", "b"])
    assert result.status == "scored" and result.value == 0.0


def test_missing_field_is_an_error_naming_it() -> None:
    with pytest.raises(MissingFieldError) as info:
        IDBasedContextRecall().score(retrieved_context_ids=["a"])
    assert info.value.field == "reference_context_ids"


def test_duplicates_count_once_and_rank_is_first_occurrence() -> None:
    result = IDBasedContextRecall().score(
        retrieved_context_ids=["x", "a", "a", "b"], reference_context_ids=["a", "a", "c"]
    )
    assert result.value == 0.5
    assert isinstance(result.evidence, IDRecallEvidence)
    assert [(f.id, f.rank) for f in result.evidence.found] == [("a", 2)]
    assert result.evidence.missing == ["c"]


def test_int_and_str_ids_are_equal() -> None:
    assert IDBasedContextRecall().score(retrieved_context_ids=[1, 2], reference_context_ids=["1", "3"]).value == 0.5


def test_cutoff_k() -> None:
    sample = Sample(retrieved_context_ids=["a", "b", "c"], reference_context_ids=["c", "a"])
    assert IDBasedContextRecall().score(sample).value == 1.0
    result = IDBasedContextRecall(k=2).score(sample)
    assert result.value == 0.5 and result.metric == "id_based_context_recall@2"
    assert isinstance(result.evidence, IDRecallEvidence) and result.evidence.retrieved_considered == 2


@pytest.mark.parametrize("k", [0, -1, 1.5, True])
def test_bad_k_is_refused(k: object) -> None:
    with pytest.raises(ConfigurationError, match="k must be a positive integer"):
        IDBasedContextRecall(k=k)  # type: ignore[arg-type]


ids = st.lists(st.one_of(st.integers(0, 20), st.sampled_from(list("abcdefgh"))), max_size=15)


@given(retrieved=ids, reference=ids.filter(bool))
def test_value_in_unit_interval(retrieved: list[str | int], reference: list[str | int]) -> None:
    value = IDBasedContextRecall().score(retrieved_context_ids=retrieved, reference_context_ids=reference).value
    assert value is not None and 0.0 <= value <= 1.0


@given(retrieved=ids, reference=ids.filter(bool), data=st.data())
def test_invariant_to_duplicates(retrieved: list[str | int], reference: list[str | int], data: st.DataObject) -> None:
    metric = IDBasedContextRecall()
    base = metric.score(retrieved_context_ids=retrieved, reference_context_ids=reference).value
    extra_ret = data.draw(st.lists(st.sampled_from(retrieved), max_size=5)) if retrieved else []
    extra_ref = data.draw(st.lists(st.sampled_from(reference), max_size=5))
    doubled = metric.score(retrieved_context_ids=retrieved + extra_ret, reference_context_ids=reference + extra_ref)
    assert doubled.value == base


@given(retrieved=ids, reference=ids.filter(bool), new=st.one_of(st.integers(0, 20), st.sampled_from(list("abcdefgh"))))
def test_monotone_when_an_item_is_retrieved(
    retrieved: list[str | int], reference: list[str | int], new: str | int
) -> None:
    metric = IDBasedContextRecall()
    before = metric.score(retrieved_context_ids=retrieved, reference_context_ids=reference).value
    after = metric.score(retrieved_context_ids=[*retrieved, new], reference_context_ids=reference).value
    assert before is not None and after is not None and after >= before
