"""The denominator covers the whole reference: gaps in the decomposition are asked about once and then filled
with the sentence itself; invented and repeated claims are dropped and recorded."""

from __future__ import annotations

from typing import Any

import pytest

from helpers.claims import CLAIMS, CONTEXTS, JUDGED, REFERENCE, single_claim, verdict
from ragrecall.llm import FakeLLM, LLMRequest
from ragrecall.metrics.context_recall import ClaimList, ClaimRecallEvidence, ContextRecall
from ragrecall.metrics.context_recall._coverage import analyse


def evidence_of(result: Any) -> ClaimRecallEvidence:
    assert isinstance(result.evidence, ClaimRecallEvidence)
    return result.evidence


# -- the check itself ------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("reference", "claims"),
    [
        (
            "Marie Curie won the 1903 Nobel Prize in Physics. She later won one in Chemistry too.",
            ["Marie Curie won the 1903 Nobel Prize in Physics.", "Marie Curie won a Nobel Prize in Chemistry."],
        ),
        (
            "居里夫人获得了1903年诺贝尔物理学奖。她后来还获得了化学奖。",
            ["居里夫人获得了1903年诺贝尔物理学奖。", "居里夫人获得了诺贝尔化学奖。"],
        ),
        (
            "The router restarts automatically after a firmware update, which takes about five minutes. "
            "Users should not unplug it during that time.",
            [
                "The router restarts automatically after a firmware update.",
                "A firmware update takes about five minutes.",
                "Users should not unplug the router while it is updating its firmware.",
            ],
        ),
        (
            "The Eiffel Tower is 330 metres tall and was finished in 1889.",
            ["The Eiffel Tower has a height of 330 metres.", "Construction of the Eiffel Tower ended in 1889."],
        ),
    ],
    ids=["pronoun", "chinese", "split-sentence", "paraphrase"],
)
def test_faithful_decompositions_pass(reference: str, claims: list[str]) -> None:
    report = analyse(reference, claims)
    assert report.uncovered == [] and report.ungrounded == [] and report.kept == claims


def test_a_greeting_in_the_reference_is_a_sentence_to_cover() -> None:
    # Only sentences without a content word or number ("It is so.") need no claim.
    report = analyse("Thanks for asking! Paris is the capital.", ["Paris is the capital."])
    assert [f.text for f in report.uncovered] == ["Thanks for asking!"]


def test_a_missing_sentence_is_found_by_its_terms_and_by_its_numbers() -> None:
    reference = "Paris is the capital of France. Lyon has a famous silk museum. The tower is 330 metres tall."
    report = analyse(reference, ["Paris is the capital of France.", "The tower is tall."])
    assert [(f.index, f.reason) for f in report.uncovered] == [
        (1, "0 of 4 terms occur in the claims"),
        (2, "number in no claim: 330"),
    ]


def test_invented_claims_are_found_by_their_terms_and_by_their_numbers() -> None:
    reference = "Paris is the capital of France. Paris hosted the 1900 Olympics."
    report = analyse(
        reference,
        [
            "Paris is the capital of France.",
            "The Louvre is the most visited museum.",
            "Paris hosted the 1924 Olympics.",
        ],
    )
    assert [(f.index, f.reason) for f in report.ungrounded] == [
        (1, "not grounded in the reference: 0 of 3 terms occur in it"),
        (2, "number not in the reference: 1924"),
    ]
    # Only kept claims cover: the 1900 sentence is a gap, whatever the invented claim said.
    assert [f.index for f in report.uncovered] == [1]


def test_duplicates_are_dropped_and_sentences_without_content_need_no_claim() -> None:
    report = analyse("It is so. Paris is the capital.", ["Paris is the capital.", "paris is the CAPITAL"])
    assert report.kept == ["Paris is the capital."]
    assert [(f.index, f.reason) for f in report.duplicates] == [(1, "duplicate of claim 1")]
    assert report.uncovered == [] and not report.needs_attention


# -- through the metric -----------------------------------------------------------------------------------


def test_a_dropped_sentence_is_asked_about_then_becomes_a_claim_of_its_own() -> None:
    partial = {"claims": CLAIMS[:2]}
    judged = {"verdicts": [*JUDGED["verdicts"][:2], verdict(3, False)]}
    llm = FakeLLM([partial, partial, judged])
    result = ContextRecall(llm).score(reference=REFERENCE, retrieved_contexts=CONTEXTS)

    decompose, cover, judge = llm.requests
    assert cover.task == "context_recall.cover" and cover.output is ClaimList
    assert cover.messages[: len(decompose.messages)] == decompose.messages
    asked = cover.messages[-1]["content"]
    assert "- <sentence>Paris hosted the 1900 Olympics.</sentence> (number in no claim: 1900)" in asked
    assert cover.prompt_version == "context_recall/decompose.en/3+context_recall/cover.en/2"
    assert judge.inputs["claims"] == CLAIMS  # the gap is judged like every claim

    evidence = evidence_of(result)
    assert [c.origin for c in evidence.claims] == ["decomposition", "decomposition", "coverage"]
    assert evidence.claims[2].claim == "Paris hosted the 1900 Olympics."
    assert (evidence.coverage_claims, evidence.reasks) == (1, 1)
    assert result.value == pytest.approx(2 / 3)  # without the gap it would have been 2 / 2


def test_a_gap_filled_when_asked_needs_no_coverage_claim() -> None:
    llm = FakeLLM([{"claims": CLAIMS[:2]}, {"claims": CLAIMS}, JUDGED])
    result = ContextRecall(llm).score(reference=REFERENCE, retrieved_contexts=CONTEXTS)
    evidence = evidence_of(result)
    assert [c.origin for c in evidence.claims] == ["decomposition"] * 3
    assert evidence.coverage_claims == 0 and evidence.reasks == 1


def test_an_invented_claim_is_asked_about_then_dropped_and_recorded() -> None:
    invented = {"claims": [*CLAIMS, "The Louvre is the most visited museum in the world."]}

    def respond(request: LLMRequest[Any]) -> Any:
        if request.task in ("context_recall.decompose", "context_recall.cover"):
            return invented
        return JUDGED

    llm = FakeLLM(respond)
    result = ContextRecall(llm).score(reference=REFERENCE, retrieved_contexts=CONTEXTS)
    asked = llm.requests[1].messages[-1]["content"]
    assert '- <claim id="4">The Louvre is the most visited museum in the world.</claim> (not grounded' in asked
    assert llm.requests[2].inputs["claims"] == CLAIMS  # never judged
    evidence = evidence_of(result)
    assert evidence.dropped_claims == 1
    assert evidence.dropped[0].claim.startswith("The Louvre")
    assert evidence.dropped[0].reason == "not grounded in the reference: 0 of 4 terms occur in it"
    assert result.value == pytest.approx(2 / 3)


def test_repeated_claims_are_dropped_without_asking() -> None:
    llm = FakeLLM([{"claims": [*CLAIMS, CLAIMS[0].upper()]}, JUDGED])
    result = ContextRecall(llm).score(reference=REFERENCE, retrieved_contexts=CONTEXTS)
    assert len(llm.requests) == 2
    assert [d.reason for d in evidence_of(result).dropped] == ["duplicate of claim 1"]


def test_an_empty_claim_list_for_a_real_reference_is_completed_from_its_sentences() -> None:
    llm = FakeLLM([{"claims": []}, {"claims": []}, JUDGED])
    result = ContextRecall(llm).score(reference=REFERENCE, retrieved_contexts=CONTEXTS)
    evidence = evidence_of(result)
    assert [c.claim for c in evidence.claims] == CLAIMS and evidence.coverage_claims == 3
    assert result.value == pytest.approx(2 / 3)


def test_without_repairs_gaps_are_filled_without_asking() -> None:
    llm = FakeLLM([{"claims": CLAIMS[:2]}, JUDGED])
    result = ContextRecall(llm, max_repairs=0).score(reference=REFERENCE, retrieved_contexts=CONTEXTS)
    assert len(llm.requests) == 2 and evidence_of(result).coverage_claims == 1


def test_the_coverage_check_can_be_switched_off() -> None:
    llm = FakeLLM([{"claims": CLAIMS[:2]}, {"verdicts": JUDGED["verdicts"][:2]}])
    result = ContextRecall(llm, coverage=False).score(reference=REFERENCE, retrieved_contexts=CONTEXTS)
    assert len(llm.requests) == 2 and result.value == 1.0
    assert evidence_of(result).coverage_claims == 0


def test_single_mode_judges_a_sentence_still_missing_after_the_re_ask() -> None:
    reply = {"claims": [single_claim(CLAIMS[0], True, [(1, "Paris is the capital city of France")])]}
    reference = " ".join(CLAIMS[:2])

    def respond(request: LLMRequest[Any]) -> Any:
        if request.task in ("context_recall.single", "context_recall.single_fix"):
            return reply
        assert request.task == "context_recall.judge"
        return {"verdicts": [verdict(1, True, [(2, "is 330 metres tall")])]}

    llm = FakeLLM(respond)
    result = ContextRecall(llm, mode="single").score(reference=reference, retrieved_contexts=CONTEXTS)
    assert [r.task for r in llm.requests] == [
        "context_recall.single",
        "context_recall.single_fix",
        "context_recall.judge",
    ]
    assert (
        "- <sentence>The Eiffel Tower is 330 metres tall.</sentence>: no claim states this sentence"
        in (llm.requests[1].messages[-1]["content"])
    )
    evidence = evidence_of(result)
    assert [(c.origin, c.verification) for c in evidence.claims] == [
        ("decomposition", "verified"),
        ("coverage", "verified"),
    ]
    assert result.value == 1.0
    assert evidence.prompt_versions["judge"] == "context_recall/judge.en/4"


@pytest.mark.parametrize(
    ("reference", "claims"),
    [
        (
            "Steps:\n1. Preheat the oven to 200 C.\n2. Bake the bread for 30 minutes.",
            ["Preheat the oven to 200 C.", "Bake the bread for 30 minutes."],
        ),
        ("Aspirin lowers fever [1]. It also eases pain [2, 3].", ["Aspirin lowers fever.", "Aspirin eases pain."]),
        ("Aspirin lowers fever (Smith et al., 2019).", ["Aspirin lowers fever."]),
        ("The tower is 330 m (1,083 ft) tall.", ["The tower is 330 m tall."]),
    ],
    ids=["list", "numbered-citations", "author-year", "conversion"],
)
def test_layout_citations_and_own_words_are_no_gaps(reference: str, claims: list[str]) -> None:
    report = analyse(reference, claims)
    assert report.uncovered == [] and report.ungrounded == [] and report.kept == claims


def test_a_claim_in_other_words_is_kept_though_its_sentence_is_asked_about() -> None:
    # Grounding forgives other words (a third of the terms); coverage wants half, so the judge is asked
    # whether the sentence is stated: a known cost of lexical checks, paid in one follow-up.
    report = analyse("The company was founded in 1998.", ["The firm was established in 1998."])
    assert report.ungrounded == [] and report.kept == ["The firm was established in 1998."]
    assert [f.reason for f in report.uncovered] == ["1 of 3 terms occur in the claims"]


@pytest.mark.parametrize(
    ("reference", "claims", "flagged"),
    [
        (
            "Tokyo Tower is in Tokyo, Japan. Tokyo Tower is the second tallest tower in Japan.",
            ["Tokyo Tower is in Tokyo, Japan."],
            "none of its own terms (second, tallest) occur in the claims",
        ),
        (
            "The drug did not reduce hospital stays.",
            ["The drug reduced hospital stays."],
            "its negation is in no claim",
        ),
        (
            "In 2020 the company employed 5,000 people in three countries:",
            ["The company employed people in three countries."],
            "number in no claim: 2020, 5000",
        ),
    ],
    ids=["repeated-subject", "lost-negation", "lead-in-with-numbers"],
)
def test_a_sentence_covered_only_in_appearance_is_a_gap(reference: str, claims: list[str], flagged: str) -> None:
    assert [f.reason for f in analyse(reference, claims).uncovered] == [flagged]


def test_a_claim_that_negates_what_the_reference_affirms_is_not_grounded() -> None:
    report = analyse("The drug reduced hospital stays.", ["The drug did not reduce hospital stays."])
    assert [f.reason for f in report.ungrounded] == ["a negation the reference does not write"]


@pytest.mark.parametrize(
    ("reference", "claims"),
    [
        ("## Results\n\nThe model scored 90% on the test.", ["The model scored 90% on the test."]),
        ("Step 1: mix the flour with water.", ["Mix the flour with water."]),
        (
            "See https://example.org/fruits-2024 for the apple harvest figures.",
            ["The page gives apple harvest figures."],
        ),
        (
            "Benefits:\n+ cheap\n+ fast\n+ safe\n+ reliable",
            ["It is cheap.", "It is fast.", "It is safe.", "It is reliable."],
        ),
    ],
    ids=["markdown-heading", "step-label", "link", "plus-list"],
)
def test_more_layout_needs_no_claim(reference: str, claims: list[str]) -> None:
    report = analyse(reference, claims)
    assert report.uncovered == [] and report.ungrounded == []


def test_a_list_item_left_out_is_a_gap() -> None:
    report = analyse("Benefits:\n+ cheap\n+ fast\n+ safe\n+ reliable", ["It is cheap.", "It is fast.", "It is safe."])
    assert [f.text for f in report.uncovered] == ["reliable"]


def test_the_cover_message_says_none_in_the_prompt_language() -> None:
    llm = FakeLLM([{"claims": CLAIMS[:2]}, {"claims": CLAIMS}, JUDGED])
    ContextRecall(llm).score(reference=REFERENCE, retrieved_contexts=CONTEXTS)
    assert "Claims that the reference does not state:\n(none)" in llm.requests[1].messages[-1]["content"]
