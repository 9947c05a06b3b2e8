"""No silent drops: a reference that states facts ends with claims or fails; only one that states none is
unscorable."""

from __future__ import annotations

from typing import Any

import pytest

from helpers.claims import CLAIMS, CONTEXTS, REFERENCE, single_claim, verdict
from ragrecall import NoClaimsError
from ragrecall.evaluation import evaluate
from ragrecall.llm import FakeLLM, LLMRequest
from ragrecall.metrics.context_recall import ClaimRecallEvidence, ContextRecall
from ragrecall.metrics.context_recall._coverage import states_facts
from ragrecall.metrics.context_recall._replies import NO_CLAIMS
from ragrecall.usage import Usage

LAYOUT_ONLY = "## Sources\n\n[1] https://example.org/paris\n\nSee also:"


@pytest.mark.parametrize(
    ("reference", "expected"),
    [
        (REFERENCE, True),
        ("Yes.", True),
        ("42.", True),
        ("No.", True),
        ("Москва — столица России.", True),
        ("东京是日本的首都。", True),
        ("So it is.", False),
        ("# Title", False),
        ("[1] https://example.org", False),
        ("Steps:", False),
        (LAYOUT_ONLY, False),
    ],
)
def test_which_references_state_facts(reference: str, expected: bool) -> None:
    assert states_facts(reference) is expected


def test_without_coverage_an_empty_list_is_asked_again_then_fails_naming_the_cause() -> None:
    llm = FakeLLM([{"claims": []}] * 3, usage=Usage(requests=1, prompt_tokens=10))
    with pytest.raises(NoClaimsError) as caught:
        ContextRecall(llm, coverage=False).score(reference=REFERENCE, retrieved_contexts=CONTEXTS)
    error = caught.value
    assert str(error).startswith("the reference has text but no claims were obtained after 3 attempts")
    assert error.attempts == 3 and error.usage == Usage(requests=3, prompt_tokens=30)
    assert len(llm.requests) == 3
    repair = llm.requests[1].messages[-1]["content"]
    assert repair.startswith("Your previous reply was rejected: " + NO_CLAIMS)


def test_without_coverage_a_repaired_empty_list_scores() -> None:
    # Contexts 1 and 2 hold every word of claims 1 and 2: their "unsupported" is put back once, and stays.
    again = {"verdicts": [verdict(i, False) for i in (1, 2)]}
    llm = FakeLLM([{"claims": []}, {"claims": CLAIMS}, {"verdicts": [verdict(i, False) for i in (1, 2, 3)]}, again])
    result = ContextRecall(llm, coverage=False).score(reference=REFERENCE, retrieved_contexts=CONTEXTS)
    assert result.status == "scored" and result.value == 0.0
    assert len(llm.requests) == 4 and isinstance(result.evidence, ClaimRecallEvidence)
    assert result.evidence.contested == 2


def test_with_no_repairs_one_empty_list_fails() -> None:
    llm = FakeLLM([{"claims": []}])
    with pytest.raises(NoClaimsError, match=r"after 1 attempt$"):
        ContextRecall(llm, coverage=False, max_repairs=0).score(reference=REFERENCE, retrieved_contexts=CONTEXTS)


def test_single_mode_without_coverage_fails_too_and_a_fix_cannot_empty_the_list() -> None:
    llm = FakeLLM([{"claims": []}] * 3)
    with pytest.raises(NoClaimsError, match="after 3 attempts"):
        ContextRecall(llm, mode="single", coverage=False).score(reference=REFERENCE, retrieved_contexts=CONTEXTS)
    # A first reply with an unverified quote is sent back; an empty "fixed" reply is refused, not taken.
    first = {"claims": [single_claim(CLAIMS[0], True, [(1, "Rome is the capital of Italy")])]}
    llm = FakeLLM([first, {"claims": []}, {"claims": []}])
    result = ContextRecall(llm, mode="single", coverage=False).score(reference=REFERENCE, retrieved_contexts=CONTEXTS)
    assert result.status == "scored" and len(llm.requests) == 3
    assert isinstance(result.evidence, ClaimRecallEvidence) and [c.claim for c in result.evidence.claims] == CLAIMS[:1]


def test_with_coverage_an_empty_list_becomes_the_reference_sentences() -> None:
    # The documented repair of the coverage check, not a drop: every sentence no claim covers is a claim.
    again = {"verdicts": [verdict(i, False) for i in (1, 2)]}  # the contested verdicts put back, unchanged
    llm = FakeLLM([{"claims": []}, {"claims": []}, {"verdicts": [verdict(i, False) for i in (1, 2, 3)]}, again])
    result = ContextRecall(llm).score(reference=REFERENCE, retrieved_contexts=CONTEXTS)
    assert result.status == "scored" and isinstance(result.evidence, ClaimRecallEvidence)
    assert result.evidence.coverage_claims == 3 == len(result.evidence.claims)


@pytest.mark.parametrize("coverage", [True, False])
@pytest.mark.parametrize("mode", ["claims", "single"])
def test_a_reference_of_layout_only_is_unscorable_after_one_request(mode: str, coverage: bool) -> None:
    llm = FakeLLM([{"claims": []}])
    metric = ContextRecall(llm, mode=mode, coverage=coverage)  # type: ignore[arg-type]
    result = metric.score(reference=LAYOUT_ONLY, retrieved_contexts=CONTEXTS)
    assert result.status == "unscorable" and result.reason == "the reference states no checkable fact"
    assert len(llm.requests) == 1


def test_a_glitch_on_a_fifth_of_the_samples_is_counted_as_failures() -> None:
    # The reported case: the model returns an empty claim list for 20% of the samples, whatever it is asked.
    def respond(request: LLMRequest[Any]) -> Any:
        if request.task == "context_recall.decompose":
            reference = str(request.inputs["reference"])
            return {"claims": [] if "glitch" in reference else [reference]}
        [claim] = request.inputs["claims"]
        return {"verdicts": [verdict(1, True, [(1, claim)])]}

    references = [f"Fact {i} holds{' (glitch)' if i % 5 == 0 else ''}." for i in range(50)]
    samples = [{"id": f"s{i}", "reference": r, "retrieved_contexts": [r]} for i, r in enumerate(references)]
    result = evaluate(samples, [ContextRecall(FakeLLM(respond), coverage=False)], show_progress=False)
    summary = result.summary["context_recall"]
    assert (summary.scored, summary.failed, summary.unscorable) == (40, 10, 0)
    assert summary.mean == 1.0  # over the 40 scored samples; the 10 failures are counted apart, not dropped
    assert [f.sample_id for f in result.failures] == [f"s{i}" for i in range(0, 50, 5)]
    assert {f.type for f in result.failures} == {"NoClaimsError"}
    assert "no claims were obtained after 3 attempts" in result.failures[0].message
