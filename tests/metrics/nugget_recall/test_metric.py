"""NuggetRecall with a scripted judge speaking the protocol: labels, checked quotes, the five scores, the recheck,
per-passage judging, votes, nuggets from a reference. Every judge is a FakeLLM; no network."""

from __future__ import annotations

from typing import Any

import pytest

from ragrecall import NuggetRecall, Sample
from ragrecall.errors import ConfigurationError, MissingFieldError
from ragrecall.llm import FakeLLM, LLMRequest, OfflineJudge
from ragrecall.metrics import NuggetRecallEvidence
from ragrecall.nuggets import SCORES, nugget_scores

CONTEXTS = [
    "The Eiffel Tower is a wrought-iron tower in Paris. It is 330 metres tall.",
    "Gustave Eiffel's company designed and built the tower. Work on it ended in 1889.",
]
NUGGETS = [
    {"text": "The Eiffel Tower is 330 metres tall", "importance": "vital"},  # support, quoted from passage 1
    {"text": "The tower was built by Gustave Eiffel's company for the 1900 World's Fair", "importance": "vital"},
    {"text": "Work on the tower ended in 1889", "importance": "okay"},  # support, passage 2
    {"text": "The tower is painted yellow", "importance": "okay"},  # not_support
]
QUERY = "Tell me about the Eiffel Tower"


def sample(**changes: Any) -> Sample:
    return Sample(
        **{"id": "eiffel", "user_input": QUERY, "retrieved_contexts": CONTEXTS, "reference_nuggets": NUGGETS, **changes}
    )


def support(context: int, quote: str) -> list[dict[str, Any]]:
    return [{"context": context, "quote": quote}]


GOOD = {
    1: {"label": "support", "support": support(1, "It is 330 metres tall.")},
    2: {
        "label": "partial_support",
        "support": support(2, "Gustave Eiffel's company designed and built the tower."),
        "part": "The tower was built by Gustave Eiffel's company",
        "reason": "the World's Fair is not mentioned",
    },
    3: {"label": "support", "support": support(2, "Work on it ended in 1889.")},
    4: {"label": "not_support", "reason": "no colour is given"},
}


def judge_with(labels: dict[int, dict[str, Any]], recheck: dict[int, dict[str, Any]] | None = None) -> FakeLLM:
    """A judge answering every assignment with ``labels`` (by nugget number shown) and a recheck with ``recheck``."""

    def respond(request: LLMRequest[Any]) -> dict[str, Any]:
        if request.task == "nugget_recall.recheck":
            chosen = recheck or labels
            return {"assignments": [{"nugget": n, **chosen[n]} for n in request.inputs["numbers"]]}
        assert request.task == "nugget_recall.assign"
        texts = request.inputs["nuggets"]
        numbers = [next(i for i, n in enumerate(NUGGETS, 1) if n["text"] == t) for t in texts]
        return {"assignments": [{"nugget": shown, **labels[n]} for shown, n in enumerate(numbers, 1)]}

    return FakeLLM(respond)


def evidence_of(result: Any) -> NuggetRecallEvidence:
    assert isinstance(result.evidence, NuggetRecallEvidence)
    return result.evidence


@pytest.mark.parametrize("score", SCORES)
def test_each_score_is_its_formula_over_the_set_labels(score: str) -> None:
    result = NuggetRecall(judge_with(GOOD), score=score).score(sample())  # type: ignore[arg-type]
    evidence = evidence_of(result)
    assert [n.label for n in evidence.nuggets] == ["support", "partial_support", "support", "not_support"]
    assert [n.verification for n in evidence.nuggets] == ["verified", "verified", "verified", "none"]
    # by hand: vital = {support, partial}, okay = {support, not}
    expected = {
        "strict_vital": 1 / 2,
        "vital": 1.5 / 2,
        "strict_all": 2 / 4,
        "all": 2.5 / 4,
        "weighted": (1 + 0.5 + 0.5 * 1 + 0) / (1 + 1 + 0.5 + 0.5),
    }
    assert evidence.scores == pytest.approx(expected)
    assert result.value == pytest.approx(expected[score])
    assert evidence.scores == nugget_scores([(n.importance, n.label) for n in evidence.nuggets])
    assert evidence.nuggets[1].part == "The tower was built by Gustave Eiffel's company"
    assert evidence.nuggets[0].passage_labels == {0: "support"}
    assert evidence.nuggets[1].passage_labels == {1: "partial_support"}
    assert evidence.contexts_used == [0, 1]


def test_the_default_score_is_strict_vital_and_names_carry_other_choices() -> None:
    assert NuggetRecall(OfflineJudge()).score_kind == "strict_vital"
    assert NuggetRecall(OfflineJudge()).named_by_settings().name == "nugget_recall"
    assert NuggetRecall(OfflineJudge(), score="all").named_by_settings().name == "nugget_recall(score=all)"
    with pytest.raises(ConfigurationError, match="score must be one of"):
        NuggetRecall(OfflineJudge(), score="recall")  # type: ignore[arg-type]


def test_a_fabricated_support_is_asked_again_once_then_counts_not_support() -> None:
    fabricated = {1: {"label": "support", "support": support(1, "The Eiffel Tower is 500 metres tall.")}}
    judge = judge_with({**GOOD, **fabricated})
    result = NuggetRecall(judge).score(sample())
    evidence = evidence_of(result)
    first = evidence.nuggets[0]
    assert first.label == "not_support" and first.judged == "support"
    assert first.verification == "unverified" and first.problem
    assert [r.task for r in judge.requests] == ["nugget_recall.assign", "nugget_recall.recheck"]
    recheck = judge.requests[1]
    assert recheck.inputs["numbers"] == [1] and recheck.inputs["nuggets"] == [NUGGETS[0]["text"]]
    assert recheck.inputs["problems"] and recheck.inputs["contexts"] == CONTEXTS
    assert result.value == 0.0  # the only other vital nugget is partial: 0 in the strict score
    assert evidence.scores["vital"] == pytest.approx(0.5 / 2)


def test_a_recheck_that_quotes_honestly_is_counted() -> None:
    fabricated = {1: {"label": "support", "support": support(1, "It is 500 metres tall.")}}
    result = NuggetRecall(judge_with({**GOOD, **fabricated}, recheck=GOOD)).score(sample())
    assert evidence_of(result).nuggets[0].label == "support"
    assert result.value == 0.5


def test_unverified_policy_supported_trusts_the_judge_but_flags_it() -> None:
    fabricated = {1: {"label": "support", "support": support(1, "The Eiffel Tower is 500 metres tall.")}}
    result = NuggetRecall(judge_with({**GOOD, **fabricated}), unverified="supported").score(sample())
    first = evidence_of(result).nuggets[0]
    assert first.label == "support" and first.verification == "unverified"


def test_a_partial_whose_part_is_not_in_the_nugget_counts_not_support() -> None:
    invented = {2: {**GOOD[2], "part": "Gustave Eiffel's company designed the tower"}}  # "designed": not the nugget's
    evidence = evidence_of(NuggetRecall(judge_with({**GOOD, **invented})).score(sample()))
    assert evidence.nuggets[1].label == "not_support"
    assert evidence.nuggets[1].check == "part"


def test_a_partial_whose_sentence_contradicts_the_rest_counts_not_support() -> None:
    contexts = [CONTEXTS[0], "Gustave Eiffel's company did not build the tower for the fair. Work on it ended in 1889."]
    partial = {
        2: {
            "label": "partial_support",
            "support": support(2, "Gustave Eiffel's company did not build the tower for the fair."),
            "part": "Gustave Eiffel's company",
        }
    }
    evidence = evidence_of(NuggetRecall(judge_with({**GOOD, **partial})).score(sample(retrieved_contexts=contexts)))
    assert evidence.nuggets[1].label == "not_support"
    assert evidence.nuggets[1].verification == "unverified"


def test_per_context_judging_takes_the_best_label_over_passages() -> None:
    def respond(request: LLMRequest[Any]) -> dict[str, Any]:
        (passage,) = request.inputs["contexts"]
        first = passage == CONTEXTS[0]
        out = []
        for shown, _ in enumerate(request.inputs["nuggets"], 1):
            n = shown
            label = GOOD[n] if (n == 1) == first and n != 4 else {"label": "not_support", "reason": "not here"}
            if label.get("support"):
                label = {**label, "support": [{**label["support"][0], "context": 1}]}
            out.append({"nugget": shown, **label})
        return {"assignments": out}

    judge = FakeLLM(respond)
    evidence = evidence_of(NuggetRecall(judge, judging="per_context").score(sample()))
    assert len(judge.requests) == 2
    assert [n.label for n in evidence.nuggets] == ["support", "partial_support", "support", "not_support"]
    assert evidence.nuggets[2].passage_labels == {1: "support"}
    assert evidence.judging == "per_context"


def test_votes_take_the_lower_median_label() -> None:
    answers = iter([GOOD, {**GOOD, 1: {"label": "not_support"}}, {**GOOD, 1: GOOD[2] | {"part": "The Eiffel Tower"}}])
    labels_by_call: list[dict[int, dict[str, Any]]] = []

    def respond(request: LLMRequest[Any]) -> dict[str, Any]:
        labels = next(answers)
        labels_by_call.append(labels)
        order = [CONTEXTS.index(c) + 1 for c in request.inputs["contexts"]]
        out = []
        for shown in range(1, 5):
            label = dict(labels[shown])
            if label.get("support"):
                label["support"] = [{**q, "context": order.index(q["context"]) + 1} for q in label["support"]]
            out.append({"nugget": shown, **label})
        return {"assignments": out}

    evidence = evidence_of(NuggetRecall(FakeLLM(respond), votes=3).score(sample()))
    first = evidence.nuggets[0]
    assert first.votes[0] == "support" and first.votes[1] == "not_support"
    assert first.label == sorted(first.votes, key=["not_support", "partial_support", "support"].index)[1]
    assert evidence.agreement is not None and evidence.agreement < 1.0


def test_no_vital_nugget_is_unscorable_except_in_nuggetizer_compat_mode() -> None:
    okay_only = [{**n, "importance": "okay"} for n in NUGGETS]
    result = NuggetRecall(judge_with(GOOD)).score(sample(reference_nuggets=okay_only))
    assert result.status == "unscorable" and "no vital nugget" in (result.reason or "")
    assert evidence_of(result).scores["all"] == pytest.approx(2.5 / 4)
    compat = NuggetRecall(judge_with(GOOD), nuggetizer_compat=True).score(sample(reference_nuggets=okay_only))
    assert compat.status == "scored" and compat.value == 0.0
    assert NuggetRecall(judge_with(GOOD), score="all").score(sample(reference_nuggets=okay_only)).value == 2.5 / 4


def test_empty_inputs_make_no_request() -> None:
    judge = FakeLLM([])
    assert NuggetRecall(judge).score(sample(reference_nuggets=[])).status == "unscorable"
    nothing = NuggetRecall(judge).score(sample(retrieved_contexts=[]))
    assert nothing.value == 0.0 and {n.label for n in evidence_of(nothing).nuggets} == {"not_support"}
    assert judge.requests == []
    with pytest.raises(MissingFieldError, match="reference_nuggets"):
        NuggetRecall(judge).score(Sample(retrieved_contexts=CONTEXTS))


def test_nuggets_from_a_reference_get_their_importance_in_one_request() -> None:
    reference = "The Eiffel Tower is 330 metres tall. It is painted yellow."

    def respond(request: LLMRequest[Any]) -> dict[str, Any]:
        if request.task == "context_recall.decompose":
            return {"claims": ["The Eiffel Tower is 330 metres tall.", "The Eiffel Tower is painted yellow."]}
        if request.task == "nugget_recall.importance":
            assert request.inputs["query"] == QUERY and len(request.inputs["nuggets"]) == 2
            return {"importance": [{"nugget": 1, "importance": "vital"}, {"nugget": 2, "importance": "okay"}]}
        assert request.task == "nugget_recall.assign"
        return {"assignments": [{"nugget": 1, **GOOD[1]}, {"nugget": 2, **GOOD[4]}]}

    judge = FakeLLM(respond)
    result = NuggetRecall(judge).score(Sample(user_input=QUERY, reference=reference, retrieved_contexts=CONTEXTS))
    evidence = evidence_of(result)
    assert [(n.importance, n.label, n.origin) for n in evidence.nuggets] == [
        ("vital", "support", "reference"),
        ("okay", "not_support", "reference"),
    ]
    assert not evidence.nuggets_given and result.value == 1.0
    assert [r.task for r in judge.requests][1:] == ["nugget_recall.importance", "nugget_recall.assign"]


def test_the_offline_judge_answers_every_task() -> None:
    result = NuggetRecall(OfflineJudge()).score(
        Sample(
            user_input="Eiffel Tower height",
            reference="The Eiffel Tower is 330 metres tall.",
            retrieved_contexts=CONTEXTS,
        )
    )
    assert result.status == "scored"
    assert evidence_of(result).nuggets[0].importance == "vital"


def test_confirmation_refutes_a_label_the_confirmer_does_not_find() -> None:
    judge = judge_with(GOOD)

    def confirm(request: LLMRequest[Any]) -> dict[str, Any]:
        assert request.task == "context_recall.confirm"
        claims = request.inputs["claims"]
        assert claims == [NUGGETS[0]["text"], GOOD[2]["part"], NUGGETS[2]["text"]]  # a partial is confirmed by its part
        return {"verdicts": [{"claim": n, "entailed": n != 1} for n in range(1, len(claims) + 1)]}

    result = NuggetRecall(judge, confirm=FakeLLM(confirm, model_name="second")).score(sample())
    evidence = evidence_of(result)
    assert [n.label for n in evidence.nuggets] == ["not_support", "partial_support", "support", "not_support"]
    assert evidence.nuggets[0].verification == "refuted" and evidence.nuggets[0].confirmed is False
    assert evidence.nuggets[2].confirmed is True and evidence.confirm_model == "second"
    assert result.value == 0.0


def test_unverified_policy_fail_fails_the_sample_naming_the_nugget() -> None:
    from ragrecall.errors import UnverifiedVerdictError

    fabricated = {1: {"label": "support", "support": support(1, "The Eiffel Tower is 500 metres tall.")}}
    with pytest.raises(UnverifiedVerdictError, match="nugget 'The Eiffel Tower is 330 metres tall'"):
        NuggetRecall(judge_with({**GOOD, **fabricated}), unverified="fail").score(sample())


def test_settings_are_checked_when_built() -> None:
    for bad, words in [
        ({"votes": 0}, "votes must be an integer >= 1"),
        ({"judging": "each"}, "judging must be one of"),
        ({"unverified": "maybe"}, "unverified must be one of"),
        ({"quote_threshold": 0.0}, "quote_threshold"),
        ({"nuggetizer_compat": "yes"}, "nuggetizer_compat"),
        ({"confirm": "gpt"}, "confirm must be"),
    ]:
        with pytest.raises(ConfigurationError, match=words):
            NuggetRecall(OfflineJudge(), **bad)
