"""RankingMetric: ranking measures on one Sample, with evidence."""

from __future__ import annotations

import pytest

from ragrecall import ConfigurationError, MetricResult, MissingFieldError, Sample
from ragrecall.ranking import RankingEvidence, RankingMetric, evaluate_run, nDCG


def test_reference_ids_are_grade_one_and_evidence_gives_ranks() -> None:
    result = RankingMetric("RR").score(retrieved_context_ids=["x", "b", "a", "b"], reference_context_ids=["a", "b"])
    assert result.value == 0.5 and result.metric == "RR"
    assert isinstance(result.evidence, RankingEvidence)
    assert [(i.id, i.grade, i.rank) for i in result.evidence.relevant] == [("b", 1, 2), ("a", 1, 3)]
    assert result.evidence.retrieved_considered == 3  # the repeated "b" keeps its first position


def test_graded_relevance_wins_and_matches_bulk_evaluation() -> None:
    sample = Sample(id="s1", retrieved_context_ids=[3, "1", "9"], relevance={"1": 2, "3": 1, "7": 3})
    result = RankingMetric(nDCG @ 3).score(sample)
    bulk = evaluate_run({"s": {"1": 2, "3": 1, "7": 3}}, {"s": {"3": 3.0, "1": 2.0, "9": 1.0}}, ["nDCG@3"])
    assert result.value == pytest.approx(bulk["nDCG@3"]) and result.sample_id == "s1"
    assert isinstance(result.evidence, RankingEvidence)
    assert [(i.id, i.rank) for i in result.evidence.relevant] == [("7", None), ("1", 2), ("3", 1)]


def test_no_relevant_document_is_unscorable_and_empty_retrieval_scores_zero() -> None:
    unscorable = RankingMetric("AP").score(retrieved_context_ids=["a"], relevance={"a": 0})
    assert unscorable.status == "unscorable" and unscorable.reason and "grade >= 1" in unscorable.reason
    assert RankingMetric("P(rel=2)@1").score(retrieved_context_ids=["a"], relevance={"a": 1}).status == "unscorable"
    assert RankingMetric("AP").score(retrieved_context_ids=[], reference_context_ids=["a"]).value == 0.0


def test_missing_judgments_is_an_error_naming_the_field() -> None:
    with pytest.raises(MissingFieldError) as info:
        RankingMetric("AP").score(retrieved_context_ids=["a"])
    assert info.value.field == "reference_context_ids"
    with pytest.raises(MissingFieldError) as info:
        RankingMetric("AP").score(reference_context_ids=["a"])
    assert info.value.field == "retrieved_context_ids"


async def test_batch_and_async_agree_and_results_survive_json() -> None:
    metric = RankingMetric("nDCG@5")
    samples = [
        {"retrieved_context_ids": ["a", "b"], "reference_context_ids": ["b"]},
        {"retrieved_context_ids": ["c"], "relevance": {"c": 2, "d": 1}},
        {"retrieved_context_ids": ["c"]},
    ]
    batch = metric.batch_score(samples)
    assert [r.status for r in batch] == ["scored", "scored", "failed"]
    assert batch[0].value == (await metric.ascore(samples[0])).value
    again = MetricResult.model_validate_json(batch[1].model_dump_json())
    assert isinstance(again.evidence, RankingEvidence) and again == batch[1]


@pytest.mark.parametrize(
    ("fields", "reason"),
    [
        ({"reference_context_ids": []}, "reference_context_ids is empty: no relevant document, nothing to rank"),
        ({"relevance": {}}, "relevance is empty: no judged document, nothing to rank"),
        ({"relevance": {"a": 0}}, "relevance has no document with a grade >= 1: nothing to rank"),
    ],
)
@pytest.mark.parametrize("measure", ["nDCG@10", "Recall@5", "AP", "RR", "ERR@10", "Rprec", "ExtRR"])
def test_a_sample_with_nothing_judged_is_unscorable_with_the_reason(
    measure: str, fields: dict[str, object], reason: str
) -> None:
    # Reported: KeyError: '0' from a sample with no judged ID, alone or in a batch.
    metric = RankingMetric(measure)
    alone = metric.score(retrieved_context_ids=["a", "b"], **fields)
    assert alone.status == "unscorable" and alone.reason == reason and alone.value is None
    batch = metric.batch_score(
        [{"retrieved_context_ids": ["a"], **fields}, {"retrieved_context_ids": ["a"], "reference_context_ids": ["a"]}]
    )
    assert [r.status for r in batch] == ["unscorable", "scored"] and (batch[1].value or 0) > 0


@pytest.mark.parametrize("measure", ["NumRet", "NumRel", "NumRelRet", "Utility", "NumQ"])
def test_counts_and_utility_are_refused_as_metric_values(measure: str) -> None:
    with pytest.raises(ConfigurationError, match=f"{measure}.* not a score in \\[0, 1\\].*evaluate_run"):
        RankingMetric(measure)
