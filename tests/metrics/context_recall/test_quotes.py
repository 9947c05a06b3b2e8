"""Verified quotes through ContextRecall: honest quotes verify, misplaced ones are corrected, invented ones are
re-asked once and then counted by the policy. Every judge is scripted (FakeLLM), no network."""

from __future__ import annotations

from typing import Any

import pytest

from helpers.claims import CLAIMS, CONTEXTS, JUDGED, REFERENCE, single_claim, verdict
from ragrecall.errors import UnverifiedVerdictError
from ragrecall.llm import FakeLLM, LLMRequest, OfflineJudge
from ragrecall.metrics.context_recall import ClaimRecallEvidence, ContextRecall, JudgedClaims
from ragrecall.usage import Usage

HONEST_1 = verdict(1, True, [(1, "Paris is the capital city of France.")])
UNSUPPORTED_3 = verdict(3, False)


def judged_with(second: dict[str, Any]) -> dict[str, Any]:
    """JUDGED with the verdict on claim 2 replaced."""
    return {"verdicts": [HONEST_1, second, UNSUPPORTED_3]}


def evidence_of(result: Any) -> ClaimRecallEvidence:
    assert isinstance(result.evidence, ClaimRecallEvidence)
    return result.evidence


@pytest.mark.parametrize(
    ("quote", "match"),
    [
        ("the eiffel tower, IN PARIS, is 330 METRES tall", "exact"),  # case
        ("The Eiffel   Tower,\nin Paris, is 330 metres tall", "exact"),  # spacing
        ("The Eiffel Tower in Paris is 330 metres tall!", "exact"),  # punctuation
        ("Ｔｈｅ Ｅｉｆｆｅｌ Ｔｏｗｅｒ，ｉｎ Ｐａｒｉｓ，ｉｓ ３３０ ｍｅｔｒｅｓ ｔａｌｌ", "exact"),  # full width
        ("The Eifel Tower, in Paris, is 330 metrse tall", "fuzzy"),  # slips of the pen, above the threshold
    ],
)
def test_honest_quotes_verify_whatever_copying_changed(quote: str, match: str) -> None:
    llm = FakeLLM([{"claims": CLAIMS}, judged_with(verdict(2, True, [(2, quote)]))])
    result = ContextRecall(llm).score(reference=REFERENCE, retrieved_contexts=CONTEXTS)
    claim = evidence_of(result).claims[1]
    assert (claim.verification, claim.supported, claim.supporting_contexts) == ("verified", True, [1])
    located = claim.support[0]
    assert located.match == match and located.similarity >= 0.9
    assert located.start is not None and located.end is not None
    assert CONTEXTS[1][located.start : located.end] == located.passage
    assert located.passage.startswith("The Eiffel Tower") and located.passage.rstrip(".").endswith("tall")
    assert result.value == pytest.approx(2 / 3) and len(llm.requests) == 2  # nothing asked again


def test_a_quote_cited_to_the_wrong_context_is_corrected_and_counted() -> None:
    llm = FakeLLM(
        [{"claims": CLAIMS}, judged_with(verdict(2, True, [(3, "The Eiffel Tower, in Paris, is 330 metres")]))]
    )
    result = ContextRecall(llm).score(reference=REFERENCE, retrieved_contexts=CONTEXTS)
    evidence = evidence_of(result)
    claim = evidence.claims[1]
    assert claim.verification == "corrected" and claim.supported
    assert (claim.support[0].context, claim.support[0].cited) == (1, 2)
    assert claim.supporting_contexts == [1] and evidence.contexts_used == [0, 1]
    assert (evidence.verified, evidence.corrected, evidence.unverified) == (1, 1, 0)
    assert len(llm.requests) == 2


FABRICATED = verdict(2, True, [(2, "The tower was repainted gold for the anniversary")])
PARAPHRASED = verdict(2, True, [(2, "In Paris stands a tower whose height reaches 330 metres")])
# A real quote, found verbatim, but of another year than the claim's 1900.
OLYMPICS_1924 = [*CONTEXTS[:2], "Paris hosted the Summer Olympics in 1924, a century after 1824."]
WRONG_YEAR = verdict(3, True, [(3, "Paris hosted the Summer Olympics in 1924")])


@pytest.mark.parametrize(
    ("judged", "contexts", "claim", "problem", "feedback"),
    [
        (
            judged_with(FABRICATED),
            CONTEXTS,
            2,
            "quote not found in any context",
            "is not in context 2, word for word",
        ),
        (
            judged_with(PARAPHRASED),
            CONTEXTS,
            2,
            "quote not found in any context",
            "is not in context 2, word for word",
        ),
        (
            {"verdicts": [HONEST_1, JUDGED["verdicts"][1], WRONG_YEAR]},
            OLYMPICS_1924,
            3,
            "number not in evidence: 1900",
            "the quoted passage does not state this claim",
        ),
    ],
    ids=["fabricated", "paraphrase", "year"],
)
@pytest.mark.parametrize("policy", ["unsupported", "supported", "fail"])
def test_an_unverified_verdict_is_asked_again_once_then_counted_by_the_policy(
    judged: dict[str, Any], contexts: list[str], claim: int, problem: str, feedback: str, policy: str
) -> None:
    # The judge repeats itself when asked again: the verdict stays unverified.
    repeat = {"verdicts": [v for v in judged["verdicts"] if v["claim"] == claim]}
    llm = FakeLLM([{"claims": CLAIMS}, judged, repeat], usage=Usage(requests=1, prompt_tokens=10))
    metric = ContextRecall(llm, unverified=policy)  # type: ignore[arg-type]
    if policy == "fail":
        with pytest.raises(UnverifiedVerdictError) as info:
            metric.score(reference=REFERENCE, retrieved_contexts=contexts)
        assert problem in str(info.value) and CLAIMS[claim - 1] in str(info.value)
        assert info.value.usage == Usage(requests=3, prompt_tokens=30)
    else:
        result = metric.score(reference=REFERENCE, retrieved_contexts=contexts)
        verdict_ = evidence_of(result).claims[claim - 1]
        if claim == 3:
            assert verdict_.support[0].passage == "Paris hosted the Summer Olympics in 1924"
        assert verdict_.verification == "unverified" and verdict_.problem == problem
        assert verdict_.supported is (policy == "supported")
        assert evidence_of(result).unverified == 1 and evidence_of(result).reasks == 1
        supported = 1 + (claim == 3) + (policy == "supported")
        assert result.value == pytest.approx(supported / 3)
    _, judge, recheck = llm.requests
    assert recheck.task == "context_recall.recheck" and recheck.output is JudgedClaims
    assert recheck.messages[: len(judge.messages)] == judge.messages
    assert recheck.messages[-2]["role"] == "assistant"
    asked = recheck.messages[-1]["content"]
    assert f'- <claim id="{claim}">' in asked and feedback in asked
    assert recheck.inputs["numbers"] == [claim]
    assert recheck.prompt_version == "context_recall/judge.en/4+context_recall/recheck.en/4"


def test_a_failing_policy_is_a_recorded_failure_in_a_batch() -> None:
    def respond(request: LLMRequest[Any]) -> Any:
        if request.task == "context_recall.decompose":
            return {"claims": CLAIMS}
        if request.task == "context_recall.recheck":
            return {"verdicts": [FABRICATED]}
        return judged_with(FABRICATED)

    metric = ContextRecall(FakeLLM(respond), unverified="fail")
    [result] = metric.batch_score([{"id": "q", "reference": REFERENCE, "retrieved_contexts": CONTEXTS}])
    assert result.status == "failed" and result.failure is not None
    assert result.failure.type == "UnverifiedVerdictError"
    assert "quote not found in any context" in result.failure.message
    assert result.usage.requests == 3


def test_the_answer_to_the_re_ask_replaces_only_the_unverified_verdicts() -> None:
    fixed = {"verdicts": [verdict(2, True, [(2, "The Eiffel Tower, in Paris, is 330 metres tall")])]}
    llm = FakeLLM([{"claims": CLAIMS}, judged_with(FABRICATED), fixed])
    result = ContextRecall(llm).score(reference=REFERENCE, retrieved_contexts=CONTEXTS)
    evidence = evidence_of(result)
    assert [c.verification for c in evidence.claims] == ["verified", "verified", "none"]
    assert evidence.claims[1].support[0].quote.startswith("The Eiffel Tower")
    assert evidence.reasks == 1 and evidence.unverified == 0
    assert result.value == pytest.approx(2 / 3)


def test_a_re_ask_answering_other_claims_is_repaired_within_the_budget() -> None:
    everything = judged_with(verdict(2, True, [(2, "The Eiffel Tower, in Paris, is 330 metres tall")]))
    fixed = {"verdicts": [everything["verdicts"][1]]}
    llm = FakeLLM([{"claims": CLAIMS}, judged_with(FABRICATED), everything, fixed])
    result = ContextRecall(llm, max_repairs=2).score(reference=REFERENCE, retrieved_contexts=CONTEXTS)
    assert "exactly one verdict for each claim 2" in llm.requests[3].messages[-1]["content"]
    assert evidence_of(result).claims[1].verification == "verified"


def test_a_re_ask_that_stays_invalid_keeps_the_first_verdicts_and_their_cost() -> None:
    llm = FakeLLM([{"claims": CLAIMS}, judged_with(FABRICATED), "not json", "still not json"])
    result = ContextRecall(llm, max_repairs=2).score(reference=REFERENCE, retrieved_contexts=CONTEXTS)
    assert result.status == "scored" and result.usage.requests == 4
    assert evidence_of(result).claims[1].verification == "unverified"
    assert result.value == pytest.approx(1 / 3)


def test_with_no_repairs_left_nothing_is_asked_again() -> None:
    llm = FakeLLM([{"claims": CLAIMS}, judged_with(FABRICATED)])
    result = ContextRecall(llm, max_repairs=0).score(reference=REFERENCE, retrieved_contexts=CONTEXTS)
    assert len(llm.requests) == 2 and evidence_of(result).reasks == 0
    assert evidence_of(result).claims[1].verification == "unverified"


def test_a_repair_spent_on_the_schema_leaves_the_re_ask_what_remains() -> None:
    llm = FakeLLM([{"claims": CLAIMS}, "oops", judged_with(FABRICATED)])
    ContextRecall(llm, max_repairs=1).score(reference=REFERENCE, retrieved_contexts=CONTEXTS)
    assert [r.task for r in llm.requests] == [
        "context_recall.decompose",
        "context_recall.judge",
        "context_recall.judge",
    ]


def test_a_fuzzy_match_cannot_change_a_number() -> None:
    contexts = [CONTEXTS[0], "The Eiffel Tower, in Paris, is 300 metres tall."]
    # The quote is one digit away from the context: close enough for the fuzzy alignment, not for the check.
    llm = FakeLLM(
        [{"claims": CLAIMS}, judged_with(verdict(2, True, [(2, "The Eiffel Tower, in Paris, is 330 metres tall")]))]
    )
    result = ContextRecall(llm, max_repairs=0).score(reference=REFERENCE, retrieved_contexts=contexts)
    claim = evidence_of(result).claims[1]
    assert claim.verification == "unverified" and not claim.supported
    assert claim.support[0].start is None and claim.support[0].similarity > 0.9


def test_a_fuzzy_match_cannot_drop_a_negation() -> None:
    reference = "The drug is not safe for children."
    contexts = ["Since the 2020 review, the drug is now safe for children of all ages."]
    llm = FakeLLM(
        [{"claims": [reference]}, {"verdicts": [verdict(1, True, [(1, "the drug is not safe for children")])]}]
    )
    result = ContextRecall(llm, max_repairs=0).score(reference=reference, retrieved_contexts=contexts)
    assert evidence_of(result).claims[0].verification == "unverified" and result.value == 0.0


def test_a_chinese_quote_verifies_across_punctuation_and_full_width_digits() -> None:
    reference = "巴黎是法国的首都。埃菲尔铁塔高330米。"
    claims = ["巴黎是法国的首都。", "埃菲尔铁塔高330米。"]
    # Neither claim is written word for word in a passage (that would be decided without the judge).
    contexts = ["据介绍，巴黎是法国首都，也是最大的城市。", "埃菲尔铁塔位于巴黎，高３３０米。"]
    judged = {
        "verdicts": [
            verdict(1, True, [(1, "巴黎是法国首都,也是最大的城市")]),
            verdict(2, True, [(2, "埃菲尔铁塔位于巴黎，高330米")]),
        ]
    }
    result = ContextRecall(FakeLLM([{"claims": claims}, judged])).score(
        reference=reference, retrieved_contexts=contexts
    )
    evidence = evidence_of(result)
    assert [c.verification for c in evidence.claims] == ["verified", "verified"] and result.value == 1.0
    assert evidence.claims[1].support[0].passage == "埃菲尔铁塔位于巴黎，高３３０米"
    assert evidence.claims[0].support[0].before == "据介绍，"


def test_a_quote_with_an_ellipsis_is_asked_about_as_such() -> None:
    # Stitched from two sentences, it would "prove" a year the context gives to another city.
    contexts = ["Paris hosted the Olympics in 1924. London hosted them in 1900."]
    stitched = verdict(1, True, [(1, "Paris hosted the ... 1900")])
    llm = FakeLLM([{"claims": [CLAIMS[2]]}, {"verdicts": [stitched]}, {"verdicts": [stitched]}])
    result = ContextRecall(llm).score(reference=CLAIMS[2], retrieved_contexts=contexts)
    claim = evidence_of(result).claims[0]
    assert (claim.verification, claim.problem, claim.supported) == ("unverified", "quote with an ellipsis", False)
    assert "leaves text out with an ellipsis: quote one continuous passage" in llm.requests[2].messages[-1]["content"]


def test_one_invented_quote_among_real_ones_leaves_the_verdict_unverified() -> None:
    both = verdict(2, True, [(2, "The Eiffel Tower, in Paris, is 330 metres tall"), (1, "The tower is made of gold")])
    llm = FakeLLM([{"claims": CLAIMS}, judged_with(both)])
    result = ContextRecall(llm, max_repairs=0).score(reference=REFERENCE, retrieved_contexts=CONTEXTS)
    claim = evidence_of(result).claims[1]
    assert claim.verification == "unverified" and [q.found for q in claim.support] == [True, False]


def test_single_mode_asks_once_for_a_corrected_reply() -> None:
    reference = "Paris is the capital of France. The Eiffel Tower is 330 metres tall."
    first = {
        "claims": [
            single_claim("Paris is the capital of France.", True, [(1, "Paris is the capital city of France")]),
            single_claim("The Eiffel Tower is 330 metres tall.", True, [(2, "The tower is 330 metres of gold")]),
        ]
    }
    fixed = {
        "claims": [
            first["claims"][0],
            single_claim("The Eiffel Tower is 330 metres tall.", True, [(2, "in Paris, is 330 metres tall")]),
        ]
    }
    llm = FakeLLM([first, fixed])
    result = ContextRecall(llm, mode="single").score(reference=reference, retrieved_contexts=CONTEXTS)
    assert [r.task for r in llm.requests] == ["context_recall.single", "context_recall.single_fix"]
    asked = llm.requests[1].messages[-1]["content"]
    assert '- <claim id="2">' in asked and "is not in context 2, word for word" in asked
    evidence = evidence_of(result)
    assert [c.verification for c in evidence.claims] == ["verified", "verified"] and result.value == 1.0
    assert evidence.reasks == 1


@pytest.mark.parametrize(
    ("claim", "context", "quote", "problem"),
    [
        (
            "The estate went to John Smith.",
            "After his death the estate went to John Jones.",
            "the estate went to John Smith",
            "quote not found in any context",
        ),
        (
            "Temperatures fell to -5 degrees.",
            "Overnight, temperatures fell to 5 degrees.",
            "temperatures fell to 5 degrees",
            "number not in evidence: -5",
        ),
        (
            "Rates rose 5 percent.",
            "In March, rates rose .5 percent.",
            "rates rose .5 percent",
            "number not in evidence: 5",
        ),
        ("Paris is the capital of France.", "Paris is a big city.", "is", "quote states nothing"),
        (
            "The budget was $1.2 million.",
            "The budget was $1.2 billion in 2020.",
            "The budget was $1.2",
            "number not in evidence: 1200000",
        ),
        (
            "The Lumio AX3000 restarts after an update.",
            "The Lumio AX5400 restarts after an update.",
            "The Lumio AX5400 restarts after an update",
            "subject not in evidence: ax3000",
        ),
        (
            "Paris is the capital of France.",
            "Paris is lovely in spring. Berlin is in Germany.",
            "Berlin is in Germany",
            "quote is about something else",
        ),
    ],
    ids=["changed-name", "lost-minus", "leading-point", "word-inside-a-word", "scale", "model-name", "other-topic"],
)
def test_quotes_that_do_not_state_the_claim_are_unverified(claim: str, context: str, quote: str, problem: str) -> None:
    llm = FakeLLM([{"claims": [claim]}, {"verdicts": [verdict(1, True, [(1, quote)])]}])
    result = ContextRecall(llm, max_repairs=0).score(reference=claim, retrieved_contexts=[context])
    verdict_ = evidence_of(result).claims[0]
    assert (verdict_.verification, verdict_.problem, result.value) == ("unverified", problem, 0.0)


def test_a_bare_number_from_a_list_of_other_things_is_no_evidence() -> None:
    claim = "The Eiffel Tower is 330 metres tall."
    contexts = ["The Eiffel Tower is in Paris.", "Heights: Tokyo Tower 333, Chrysler Building 319, 330, 298."]
    both = verdict(1, True, [(1, "The Eiffel Tower"), (2, "330")])
    llm = FakeLLM([{"claims": [claim]}, {"verdicts": [both]}])
    result = ContextRecall(llm, max_repairs=0).score(reference=claim, retrieved_contexts=contexts)
    # A bare "330" from a list of other heights states nothing, whatever the other quote says.
    verdict_ = evidence_of(result).claims[0]
    assert verdict_.verification == "unverified" and result.value == 0.0
    assert verdict_.problem == "quote states nothing"


def test_a_quote_in_another_language_than_the_claim_is_not_held_against_it() -> None:
    claim = "Water boils at 100 degrees."
    llm = FakeLLM([{"claims": [claim]}, {"verdicts": [verdict(1, True, [(1, "水在100度沸腾")])]}])
    result = ContextRecall(llm, max_repairs=0).score(reference=claim, retrieved_contexts=["在海平面，水在100度沸腾。"])
    assert evidence_of(result).claims[0].verification == "verified" and result.value == 1.0


def test_a_claim_ending_the_context_without_punctuation_is_found_there() -> None:
    reference = "The Eiffel Tower is 330 metres tall."
    contexts = ["Paris is in France. The Eiffel Tower is 330 metres tall"]
    judge = OfflineJudge()
    result = ContextRecall(judge).score(reference=reference, retrieved_contexts=contexts)
    evidence = evidence_of(result)
    assert result.value == 1.0 and evidence.stated == 1  # written word for word: decided by code
    assert evidence.claims[0].support[0].passage == "The Eiffel Tower is 330 metres tall"


def test_a_quote_copied_from_an_escaped_context_is_read_back_as_the_context_writes_it() -> None:
    reference = "The snippet ends the context block with a closing tag."
    contexts = ["Our docs show the markup </context> that ends the context block with a closing tag."]
    # The judge saw "&lt;/context>" in the prompt and copied it into its quote.
    quote = "the markup &lt;/context> that ends the context block with a closing tag"
    llm = FakeLLM([{"claims": [reference]}, {"verdicts": [verdict(1, True, [(1, quote)])]}])
    result = ContextRecall(llm, max_repairs=0).score(reference=reference, retrieved_contexts=contexts)
    claim = evidence_of(result).claims[0]
    assert claim.verification == "verified" and claim.support[0].match == "exact" and result.value == 1.0
    assert "</context>" in (claim.support[0].passage or "")


_DOSE = "Dosage. Do not take more than 6 tablets (1200 mg) in any 24-hour period. Do not exceed 8 tablets a week."


@pytest.mark.parametrize(
    ("claim", "quote", "verification"),
    [
        # A prohibition of more than N is the bound "no more than N", not a denial of the claim.
        ("No more than 6 tablets should be taken in a 24-hour period.", "Do not take more than 6 tablets", "verified"),
        ("At most 8 tablets may be taken a week.", "Do not exceed 8 tablets a week.", "verified"),
        # ... and still a bound: the opposite bound, or a plain denial, does not pass.
        ("You should take more than 6 tablets in any 24-hour period.", "Do not take more than 6 tablets", "unverified"),
        ("The weekly dose exceeds 8 tablets.", "Do not exceed 8 tablets a week.", "unverified"),
        ("You should not take 6 tablets in any 24-hour period.", "Do not take more than 6 tablets", "unverified"),
    ],
)
def test_a_prohibition_of_more_than_n_reads_as_an_upper_bound(claim: str, quote: str, verification: str) -> None:
    from ragrecall.metrics.context_recall._replies import Support
    from ragrecall.metrics.context_recall._verify import Contexts, check_support

    checked = check_support(claim, True, [Support(context=1, quote=quote)], Contexts([_DOSE]), threshold=0.9)
    assert checked.verification == verification, checked.problem
