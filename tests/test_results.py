"""MetricResult states, invariants and JSON round trip with typed evidence."""

from __future__ import annotations

import math

import pytest
from pydantic import ValidationError

from ragrecall import (
    ContextMatch,
    FoundID,
    IDRecallEvidence,
    LLMOutputError,
    MetricResult,
    StringRecallEvidence,
    Usage,
)


def test_scored_result_requires_a_finite_value_in_unit_interval() -> None:
    assert MetricResult.scored("m", 0.25).value == 0.25
    for bad in (math.nan, math.inf, -0.1, 1.5):
        with pytest.raises(ValidationError):
            MetricResult.scored("m", bad)


def test_unscorable_has_no_value_and_needs_a_reason() -> None:
    result = MetricResult.unscorable("m", "reference is empty")
    assert result.value is None and not result.is_scored
    with pytest.raises(ValidationError):
        MetricResult(metric="m", status="unscorable")
    with pytest.raises(ValidationError):
        MetricResult(metric="m", status="unscorable", reason="x", value=0.0)


def test_failed_keeps_type_message_and_cause() -> None:
    try:
        try:
            raise ValueError("bad JSON at column 3")
        except ValueError as cause:
            raise LLMOutputError("claims reply failed validation 3 times") from cause
    except LLMOutputError as exc:
        result = MetricResult.failed("context_recall", exc, sample_id="q1")
    assert result.status == "failed" and result.value is None
    assert result.failure is not None
    assert result.failure.type == "LLMOutputError"
    assert "caused by ValueError: bad JSON at column 3" in result.failure.message
    assert result.failure.traceback is not None and "LLMOutputError" in result.failure.traceback
    assert result.sample_id == "q1"


def test_json_round_trip_restores_evidence_class() -> None:
    results = [
        MetricResult.scored(
            "id_based_context_recall",
            0.5,
            IDRecallEvidence(found=[FoundID(id="a", rank=2)], missing=["b"], k=None, retrieved_considered=3),
            usage=Usage(requests=1, prompt_tokens=10, completion_tokens=2, cost_usd=0.01),
        ),
        MetricResult.scored(
            "non_llm_context_recall",
            1.0,
            StringRecallEvidence(
                scorer="levenshtein",
                threshold=0.5,
                matches=[ContextMatch(reference_index=0, best_retrieved_index=1, similarity=0.9, recalled=True)],
            ),
        ),
    ]
    for result in results:
        back = MetricResult.model_validate_json(result.model_dump_json())
        assert back == result
        assert type(back.evidence) is type(result.evidence)


def test_usage_adds_up() -> None:
    total = Usage.total([Usage(requests=1, prompt_tokens=5), Usage(prompt_tokens=3, completion_tokens=2, cost_usd=0.5)])
    assert (total.requests, total.prompt_tokens, total.completion_tokens, total.total_tokens) == (1, 8, 2, 10)
    assert total.cost_usd == 0.5
    assert Usage.total([]).cost_usd is None


def test_a_sum_of_usages_is_the_usage_validation_would_build() -> None:
    a = Usage(requests=1, prompt_tokens=5, completion_tokens=2, cached_tokens=4, cost_usd=0.25)
    b = Usage(requests=2, prompt_tokens=3, cached_requests=1)
    total = a + b
    # Every field set, as validating the summed values would set them.
    built = Usage(
        requests=3,
        prompt_tokens=8,
        completion_tokens=2,
        cached_requests=1,
        cached_tokens=4,
        unknown_requests=0,
        cost_usd=0.25,
    )
    assert total == built and hash(total) == hash(built)
    assert total.model_dump() == built.model_dump() and total.model_fields_set == built.model_fields_set
    assert Usage.model_validate_json(total.model_dump_json()) == built
    assert (a + Usage()) is a and (Usage() + b) is b  # adding nothing: the other usage itself (usages are frozen)
    with pytest.raises(ValidationError):
        total.requests = 0  # type: ignore[misc]


def test_repr_shows_value_or_state() -> None:
    assert repr(MetricResult.scored("m", 0.5)) == "MetricResult(m=0.5000)"
    assert "unscorable (nothing)" in repr(MetricResult.unscorable("m", "nothing"))


def test_unknown_evidence_kind_keeps_its_fields() -> None:
    data = {"metric": "mine", "status": "scored", "value": 1.0, "evidence": {"kind": "my_metric", "hits": [1, 2]}}
    result = MetricResult.model_validate(data)
    assert result.evidence is not None and result.evidence.model_dump() == {"kind": "my_metric", "hits": [1, 2]}


def test_lazily_imported_evidence_kinds_are_restored_in_a_fresh_interpreter() -> None:
    import subprocess
    import sys

    code = (
        "import json, sys\n"
        "from ragrecall.results import MetricResult\n"
        "assert 'ragrecall.metrics.context_recall' not in sys.modules\n"
        "r = MetricResult.model_validate_json(sys.stdin.read())\n"
        "print(type(r.evidence).__name__)\n"
    )
    from ragrecall import ClaimRecallEvidence, ClaimVerdict

    evidence = ClaimRecallEvidence(
        mode="claims",
        language="en",
        model="m",
        claims=[ClaimVerdict(claim="c", supported=True, supporting_contexts=[0], reason="r")],
    )
    payload = MetricResult.scored("context_recall", 1.0, evidence).model_dump_json()
    done = subprocess.run([sys.executable, "-c", code], input=payload, capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "ClaimRecallEvidence"


def test_printing_a_result_is_one_short_line() -> None:
    from ragrecall import ContextRecall, MetricResult, OfflineJudge, Sample

    sample = Sample(
        reference="Paris is the capital of France. The Eiffel Tower is its most famous landmark.",
        retrieved_contexts=["Paris is the capital of France. " * 40],
    )
    result = ContextRecall(OfflineJudge()).score(sample)
    text = str(result)
    assert text == "context_recall = 0.5000; 1 missing, first: claim 'The Eiffel Tower is its most famous landmark.'"
    unscorable = MetricResult.unscorable("id_based_context_recall", "reference_context_ids is empty")
    assert str(unscorable) == "id_based_context_recall: unscorable (reference_context_ids is empty)"
    assert all(len(str(r)) <= 160 and "\n" not in str(r) for r in (result, unscorable))
