"""The verification world (English and Chinese): every lie a scripted adversarial judge tells is caught, no
honest verdict is flagged, no sample fails; with an honest confirming model every lie is caught and the
sample scores are within 0.03 of the true ones on average. Definitions in :mod:`helpers.verification_world`.

The world's data are checked first: every quote meant to be real passage text occurs verbatim in the context
it cites, the slipped ones (typos, full width, line breaks) are within 90% of it once folded, the fabricated ones
are found by the quote locator in no context.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest
from rapidfuzz import fuzz

from helpers.verification_world import (
    HONEST_CLASSES,
    LIE_CLASSES,
    SampleOutcome,
    has_confirm,
    load_world,
    score_world,
    scripted_judge,
)
from ragrecall.llm import FakeLLM
from ragrecall.metrics.context_recall import ContextRecall
from ragrecall.text import split_sentences
from ragrecall.text.locate import Folded, fold, locate
from ragrecall.text.terms import content_terms

WORLD = load_world()
LIES = [s for s in WORLD if s["class"] in LIE_CLASSES]
SLIPPED = ("typo_quote", "full_width", "line_break")
"""Honest classes whose target quote is the passage as copied with a slip, not verbatim."""
needs_confirm = pytest.mark.skipif(not has_confirm(), reason="ContextRecall has no confirm= yet")


def ids(sample: dict[str, Any]) -> str:
    return str(sample["id"])


def verdicts_of(claim: dict[str, Any]) -> list[tuple[str, dict[str, Any]]]:
    return [(step, claim[step]) for step in ("judge", "recheck") if step in claim]


def describe(outcome: SampleOutcome) -> str:
    return (
        "; ".join(
            f"{c.role} {c.text!r}: supported={c.supported}, verification={c.verification}, problem={c.problem}"
            for c in outcome.claims
        )
        or f"{outcome.status}: {outcome.failure}"
    )


@pytest.fixture(scope="module")
def outcomes() -> dict[str, SampleOutcome]:
    return {o.id: o for o in score_world(WORLD)}


@pytest.fixture(scope="module")
def confirmed_outcomes() -> dict[str, SampleOutcome]:
    return {o.id: o for o in score_world(WORLD, confirmed=True)}


def test_the_world_has_every_class_in_both_languages() -> None:
    counts = Counter((s["language"], s["class"]) for s in WORLD)
    assert len({s["id"] for s in WORLD}) == len(WORLD)
    for language in ("en", "zh"):
        assert all(counts[language, c] >= 5 for c in LIE_CLASSES), counts
        assert all(counts[language, c] >= 3 for c in HONEST_CLASSES), counts
    assert set(s["class"] for s in WORLD) == set(LIE_CLASSES) | set(HONEST_CLASSES)


@pytest.mark.parametrize("sample", WORLD, ids=ids)
def test_a_sample_is_well_formed(sample: dict[str, Any]) -> None:
    claims, contexts = sample["claims"], sample["contexts"]
    assert sample["language"] in ("en", "zh")
    assert all(3 <= len(split_sentences(c)) <= 6 for c in contexts)
    roles = Counter(c["role"] for c in claims)
    assert roles["target"] == 1 and 1 <= roles["background"] <= 2 and len(claims) == sum(roles.values())
    assert len({c["text"] for c in claims}) == len(claims)
    [target] = [c for c in claims if c["role"] == "target"]
    lie = sample["class"] in LIE_CLASSES and sample["class"] != "false_unsupported"
    assert target["truth"] is not lie
    assert target["judge"]["supported"] is (sample["class"] != "false_unsupported")
    for claim in claims:
        for _, verdict in verdicts_of(claim):
            assert bool(verdict["support"]) is verdict["supported"]
            assert all(1 <= s["context"] <= len(contexts) for s in verdict["support"])
    for claim in (c for c in claims if c["role"] == "background"):
        assert claim["truth"] is True and claim["judge"]["supported"] and "recheck" not in claim


@pytest.mark.parametrize("sample", WORLD, ids=ids)
def test_every_quote_meant_to_be_real_is_passage_text(sample: dict[str, Any]) -> None:
    contexts = sample["contexts"]
    for claim in sample["claims"]:
        for step, verdict in verdicts_of(claim):
            for s in verdict["support"]:
                text, quote = contexts[s["context"] - 1], s["quote"]
                target = claim["role"] == "target"
                if target and step == "judge" and sample["class"] == "recheck_switch":
                    assert all(locate(quote, Folded.of(c), threshold=0.9) is None for c in contexts), quote
                elif target and sample["class"] in SLIPPED:
                    assert quote not in text and fuzz.partial_ratio(fold(quote), fold(text)) >= 90, quote
                else:
                    assert quote in text, quote


@pytest.mark.parametrize("sample", [s for s in WORLD if s["class"] == "no_shared_word"], ids=ids)
def test_a_no_shared_word_quote_shares_no_word_with_its_claim(sample: dict[str, Any]) -> None:
    [target] = [c for c in sample["claims"] if c["role"] == "target"]
    words = content_terms(target["text"], stem=True, cjk="chars")
    for s in target["judge"]["support"]:
        assert words and not words & content_terms(s["quote"], stem=True, cjk="chars")


def test_the_scripted_judge_refuses_a_claim_the_sample_does_not_have() -> None:
    sample = WORLD[0]
    metric = ContextRecall(FakeLLM(scripted_judge(sample)), max_repairs=0)
    [result] = metric.batch_score(
        [{"reference_claims": ["The Moon is made of cheese."], "retrieved_contexts": sample["contexts"]}]
    )
    assert result.status == "failed" and result.failure is not None
    assert "not one of its claims" in result.failure.message


# Lies that code does not catch, and why (the README's limits list them; confirmation catches all of them):
# where every name and number of a claim is in its evidence and its predicate is no event code knows the kind
# of, the predicate is left unread (a note, not a failure: "passed away" for "died" must not be flagged), so a
# Chinese claim whose verb the evidence does not share passes code (夺得冠军 / 获得称号, 实现电气化 / 延伸至动物园,
# 毕业 / 考入: a place name in the predicate, 南京大学, is read as the predicate's word); "可停放300辆汽车" shares the
# count and noun of "可搭载300辆汽车"; a Chinese sentence opening with a book title names no subject code can see.
CODE_MISSES = {
    "zh-recheck_switch-2": "a Chinese place name is read as part of the predicate",
    "zh-recheck_switch-3": "the predicates differ by one verb the evidence does not need to share",
    "zh-recheck_switch-5": "a Chinese person named after a role noun is not read as a name",
    "zh-other_predicate-2": "an unread predicate: every name and number agrees (夺得冠军 / 获得国际大师称号)",
    "zh-other_predicate-4": "an unread predicate: every name and number agrees (实现电气化 / 延伸至动物园)",
    "zh-other_predicate-5": "a place name in the predicate is read as its word (从南京大学毕业 / 考入南京大学)",
}


def _lie(sample: dict[str, Any]) -> Any:
    reason = CODE_MISSES.get(sample["id"])
    return pytest.param(sample, marks=pytest.mark.xfail(reason=reason, strict=True)) if reason else sample


@pytest.mark.parametrize("sample", [_lie(s) for s in LIES], ids=ids)
def test_a_lie_is_caught(sample: dict[str, Any], outcomes: dict[str, SampleOutcome]) -> None:
    outcome = outcomes[sample["id"]]
    assert not outcome.failed, outcome.failure
    assert outcome.caught, describe(outcome)


@pytest.mark.parametrize("sample", WORLD, ids=ids)
def test_no_honest_or_background_verdict_is_flagged(sample: dict[str, Any], outcomes: dict[str, SampleOutcome]) -> None:
    outcome = outcomes[sample["id"]]
    assert not outcome.failed, outcome.failure
    honest = outcome.claims if sample["class"] in HONEST_CLASSES else outcome.background
    assert not [c for c in honest if c.flagged], describe(outcome)


@needs_confirm
@pytest.mark.parametrize("sample", LIES, ids=ids)
def test_with_an_honest_confirmer_a_lie_is_caught(
    sample: dict[str, Any], confirmed_outcomes: dict[str, SampleOutcome]
) -> None:
    outcome = confirmed_outcomes[sample["id"]]
    assert not outcome.failed, outcome.failure
    assert outcome.caught, describe(outcome)


@needs_confirm
def test_with_an_honest_confirmer_sample_scores_are_within_0_03_of_the_truth(
    confirmed_outcomes: dict[str, SampleOutcome],
) -> None:
    failed = [o.id for o in confirmed_outcomes.values() if o.failed]
    assert not failed
    errors = [o.error for o in confirmed_outcomes.values() if o.error is not None]
    assert len(errors) == len(WORLD)
    assert sum(errors) / len(errors) <= 0.03


def test_a_judge_replying_in_the_grouped_shape_meets_the_same_checks_with_the_same_outcomes() -> None:
    world = load_world()
    earlier, grouped = score_world(world), score_world(world, grouped=True)
    assert [(o.id, o.value, o.caught, [c.flagged for c in o.claims]) for o in grouped] == [
        (o.id, o.value, o.caught, [c.flagged for c in o.claims]) for o in earlier
    ]
    assert sum(o.caught for o in grouped if o.lie) >= 103  # the documented code figure
