"""Repeated judgements, per-context judging, and claims given with the sample, against scripted judges."""

from __future__ import annotations

import math
import random
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from helpers.claims import verdict
from ragrecall import ConfigurationError, Dataset, MissingFieldError
from ragrecall.evaluation import evaluate
from ragrecall.llm import FakeLLM, LLMRequest, LLMStack, ResponseCache
from ragrecall.metrics.context_recall import ClaimRecallEvidence, ContextRecall
from ragrecall.metrics.context_recall._votes import context_orders

Judge = Callable[[LLMRequest[Any]], Any]


def evidence_of(result: Any) -> ClaimRecallEvidence:
    assert isinstance(result.evidence, ClaimRecallEvidence), result
    return result.evidence


def said_as(claim: str) -> str:
    """How the contexts state ``claim``: in other words, so that code cannot decide it and the judge is asked."""
    return claim.replace(" weighs ", " has a weight of ")


def located(claim: str, contexts: list[str]) -> int | None:
    """1-based number of the shown context that states ``claim``, or None."""
    return next((i for i, c in enumerate(contexts, start=1) if said_as(claim) in c), None)


def flipping_judge(rng: random.Random, p: float) -> Judge:
    """Says the truth (a claim is supported when a shown context holds it), flipped with probability p."""

    def judge(request: LLMRequest[Any]) -> Any:
        contexts = list(request.inputs["contexts"])
        if request.task == "context_recall.recheck":  # asked about an unverifiable "supported": it stands by it
            return {"verdicts": [verdict(n, True, [(1, contexts[0][:20])]) for n in request.inputs["numbers"]]}
        assert request.task == "context_recall.judge", request.task
        out = []
        for n, claim in enumerate(request.inputs["claims"], start=1):
            where = located(claim, contexts)
            said = (where is not None) != (rng.random() < p)
            quote = [(where or 1, said_as(claim) if where else contexts[0][:20])] if said else []
            out.append(verdict(n, said, quote))
        return {"verdicts": out}

    return judge


def first_shown_judge(request: LLMRequest[Any]) -> Any:
    """Sees only the context shown first: supports a claim when that context holds it, whatever the others say."""
    contexts = list(request.inputs["contexts"])
    out = []
    for n, claim in enumerate(request.inputs["claims"], start=1):
        said = claim in contexts[0]
        out.append(verdict(n, said, [(1, claim)] if said else []))
    return {"verdicts": out}


def fact_samples(count: int, claims_each: int) -> list[dict[str, Any]]:
    """Samples whose even-numbered claims are stated by one of three contexts and odd ones by none."""
    samples = []
    for s in range(count):
        claims = [f"Item {s}-{c} weighs {c + 10} kilograms." for c in range(claims_each)]
        held = [c for i, c in enumerate(claims) if i % 2 == 0]
        contexts = [" ".join(map(said_as, held[k::3])) or "Nothing here." for k in range(3)]
        samples.append({"id": f"s{s}", "reference_claims": claims, "retrieved_contexts": contexts})
    return samples


def test_votes_bring_wrong_verdicts_down_to_the_binomial_rate() -> None:
    p, k = 0.3, 5
    samples = fact_samples(40, 10)
    truth = [[located(c, s["retrieved_contexts"]) is not None for c in s["reference_claims"]] for s in samples]

    def wrong_share(votes: int) -> tuple[float, list[ClaimRecallEvidence]]:
        llm = FakeLLM(flipping_judge(random.Random(7), p))
        metric = ContextRecall(llm, votes=votes, unverified="supported")
        result = evaluate(samples, [metric], show_progress=False, max_concurrency=4)
        evidence = [evidence_of(r) for r in result.results(result.metrics[0])]
        wrong = [
            v.supported != t for e, ts in zip(evidence, truth, strict=True) for v, t in zip(e.claims, ts, strict=True)
        ]
        return sum(wrong) / len(wrong), evidence

    single, _ = wrong_share(1)
    voted, evidence = wrong_share(k)
    expected = sum(math.comb(k, j) * p**j * (1 - p) ** (k - j) for j in range(k // 2 + 1, k + 1))  # 0.163
    assert abs(single - p) < 0.06
    assert abs(voted - expected) < 0.06, (voted, expected)
    for e in evidence:
        assert all(len(c.votes) == k for c in e.claims)
        assert all(c.supported == (sum(c.votes) * 2 > k) for c in e.claims)
        unanimous = sum(len(set(c.votes)) == 1 for c in e.claims) / len(e.claims)
        assert e.agreement == pytest.approx(unanimous)
        per_vote = [sum(c.votes[j] for c in e.claims) / len(e.claims) for j in range(k)]
        assert e.judgement_values == pytest.approx(per_vote)


def test_a_position_biased_judge_shows_up_as_disagreement() -> None:
    claims = ["Lyon is on the Rhône.", "Nice is on the coast.", "Lille is in the north."]
    contexts = ["Lyon is on the Rhône.", "Nice is on the coast.", "Lille is in the north."]
    sample = {"reference_claims": claims, "retrieved_contexts": contexts}

    once = evidence_of(ContextRecall(FakeLLM(first_shown_judge)).score(sample))
    assert [c.supported for c in once.claims] == [True, False, False]
    assert once.agreement is None and once.judgement_values == [pytest.approx(1 / 3)]

    voted = evidence_of(ContextRecall(FakeLLM(first_shown_judge), votes=6).score(sample))
    orders = context_orders(contexts, 6, 0)
    for i, claim in enumerate(voted.claims):
        # Judgement j supports claim i exactly when context i was shown first; quotes are renumbered back.
        assert claim.votes == [order[0] == i for order in orders]
        if claim.supported:
            assert claim.supporting_contexts == [i]
    assert voted.agreement is not None and voted.agreement < 1
    assert len(voted.unstable_claims) == sum(len(set(c.votes)) > 1 for c in voted.claims) > 0
    assert voted.counts()["unstable_claims"] == len(voted.unstable_claims)


def test_judging_each_context_alone_is_immune_to_position_bias() -> None:
    claims = ["Lyon is on the Rhône.", "Nice is on the coast.", "Paris is flat."]
    contexts = ["Lyon is on the Rhône.", "Nice is on the coast.", "Lille is in the north."]
    llm = FakeLLM(first_shown_judge)
    result = ContextRecall(llm, judging="per_context", votes=2).score(
        reference_claims=claims, retrieved_contexts=contexts
    )
    e = evidence_of(result)
    assert [c.supported for c in e.claims] == [True, True, False]
    assert [c.supporting_contexts for c in e.claims] == [[0], [1], []]
    # The judge's reason numbers the one passage it saw as 1: the verdict says which passage that was.
    assert "[passage 2 shown alone]" in e.claims[1].reason and "shown alone" not in e.claims[0].reason
    assert e.agreement == 1.0 and e.judging == "per_context"
    assert len(llm.requests) == 2 * 3  # votes × contexts, all claims in one request each
    assert all(len(r.inputs["contexts"]) == 1 for r in llm.requests)


def test_given_claims_are_judged_as_given_with_no_decomposition() -> None:
    claims = ["Lyon is on the Rhône.", "Paris is flat."]
    llm = FakeLLM(first_shown_judge)
    result = ContextRecall(llm).score(reference_claims=claims, retrieved_contexts=["Lyon is on the Rhône."])
    e = evidence_of(result)
    assert [r.task for r in llm.requests] == ["context_recall.judge"]
    assert e.claims_given and [c.claim for c in e.claims] == claims
    assert {c.origin for c in e.claims} == {"given"}
    assert result.value == 0.5
    assert set(e.prompt_versions) == {"judge", "recheck"}


def test_given_claims_with_nothing_retrieved_are_listed_unsupported_without_a_request() -> None:
    llm = FakeLLM([])
    result = ContextRecall(llm, votes=3).score(reference_claims=["A is B."], retrieved_contexts=[])
    e = evidence_of(result)
    assert result.value == 0.0 and llm.requests == []
    assert [(c.claim, c.supported, c.votes) for c in e.claims] == [("A is B.", False, [False, False, False])]


def test_an_empty_claim_list_is_unscorable_and_claims_need_contexts() -> None:
    result = ContextRecall(FakeLLM([])).score(reference_claims=[], retrieved_contexts=["x"])
    assert result.status == "unscorable" and "reference_claims is empty" in (result.reason or "")
    with pytest.raises(MissingFieldError, match="retrieved_contexts"):
        ContextRecall(FakeLLM([])).score(reference_claims=["A is B."])


def test_votes_reuse_one_decomposition_in_claims_mode() -> None:
    from helpers.claims import CLAIMS, CONTEXTS, REFERENCE

    def judge(request: LLMRequest[Any]) -> Any:
        if request.task == "context_recall.decompose":
            return {"claims": CLAIMS}
        return first_shown_judge(request)

    llm = FakeLLM(judge)
    e = evidence_of(ContextRecall(llm, votes=3).score(reference=REFERENCE, retrieved_contexts=CONTEXTS))
    assert [r.task for r in llm.requests].count("context_recall.decompose") == 1
    assert [r.task for r in llm.requests].count("context_recall.judge") == 3
    assert [r.variant for r in llm.requests if r.task == "context_recall.judge"] == [None, 1, 2]
    assert not e.claims_given and len(e.judgement_values) == 3


def test_each_judgement_is_its_own_cache_entry_and_replays(tmp_path: Path) -> None:
    path = tmp_path / "cache.sqlite"
    sample = {"reference_claims": ["Lyon is on the Rhône."], "retrieved_contexts": ["Lyon is on the Rhône."]}
    live = FakeLLM(first_shown_judge)
    first = ContextRecall(LLMStack(live, cache=ResponseCache(path)), votes=3).score(sample)
    assert len(live.requests) == 3  # one context: the same messages three times, asked three times
    assert ResponseCache(path).counts()["valid"] == 3
    replay = ContextRecall(LLMStack(FakeLLM([]), cache=ResponseCache(path, mode="replay-only")), votes=3)
    again = replay.score(sample)
    assert (again.value, again.evidence) == (first.value, first.evidence)


def test_context_orders_are_seeded_distinct_and_start_with_the_original() -> None:
    texts = ["a", "b", "c"]
    orders = context_orders(texts, 6, 0)
    assert orders[0] == [0, 1, 2]
    assert len({tuple(o) for o in orders}) == 6  # 3! orders, all used before any repeats
    assert context_orders(texts, 6, 0) == orders
    assert context_orders(texts, 6, 1) != orders
    assert context_orders(["a", "b"], 5, 0)[:2] == [[0, 1], [1, 0]]


def test_settings_are_checked_and_join_the_identity() -> None:
    with pytest.raises(ConfigurationError, match="votes"):
        ContextRecall(FakeLLM([]), votes=0)
    with pytest.raises(ConfigurationError, match="judging"):
        ContextRecall(FakeLLM([]), judging="each")  # type: ignore[arg-type]
    with pytest.raises(ConfigurationError, match="per_context"):
        ContextRecall(FakeLLM([]), judging="per_context", mode="single")
    assert "votes" not in ContextRecall(FakeLLM([])).settings()
    assert ContextRecall(FakeLLM([]), votes=3).settings()["votes"] == 3


def test_loaders_accept_the_label_fields(tmp_path: Path) -> None:
    csv_path = tmp_path / "d.csv"
    csv_path.write_text(
        'id,reference_claims,claim_labels,human_score,retrieved_contexts\nq1,"[""A is B."", ""C is D.""]",'
        '"[true, false]",0.5,"[""A is B.""]"\n',
        encoding="utf-8",
    )
    (sample,) = Dataset.load(csv_path)
    assert sample.reference_claims == ["A is B.", "C is D."] and sample.claim_labels == [True, False]
    assert sample.human_score == 0.5


def test_the_batch_result_reports_agreement_and_lists_unstable_claims() -> None:
    contexts = ["Lyon is on the Rhône.", "Nice is on the coast."]
    samples = [
        {
            "id": "mixed",
            "reference_claims": ["Lyon is on the Rhône.", "Paris is flat."],
            "retrieved_contexts": contexts,
        },
        {"id": "none", "reference_claims": ["Paris is flat."], "retrieved_contexts": contexts},
    ]
    result = evaluate(samples, [ContextRecall(FakeLLM(first_shown_judge), votes=4)], show_progress=False)
    per_sample = [evidence_of(r).agreement for r in result.results(result.metrics[0])]
    assert per_sample == [0.5, 1.0]
    summary = result.summary[result.metrics[0]]
    assert summary.agreement == pytest.approx(0.75)
    assert summary.counts["unstable_claims"] == 1
    (unstable,) = result.unstable_claims()
    votes = [order[0] == 0 for order in context_orders(contexts, 4, 0)]
    assert (unstable.sample_id, unstable.claim, unstable.votes) == ("mixed", "Lyon is on the Rhône.", votes)
    assert sorted(votes) == [False, False, True, True]  # two orders, each shown twice
    table = result.summary_table()
    signs = "".join("+" if v else "-" for v in votes)
    assert "agreement 0.750" in table and f"votes {signs}: Lyon is on the Rhône." in table


def test_a_checkpoint_of_one_vote_does_not_resume_with_three(tmp_path: Path) -> None:
    from ragrecall import CheckpointError

    sample = {"reference_claims": ["Lyon is on the Rhône."], "retrieved_contexts": ["Lyon is on the Rhône."]}
    ckpt = tmp_path / "run.ckpt.jsonl"
    evaluate([sample], [ContextRecall(FakeLLM(first_shown_judge))], show_progress=False, checkpoint=ckpt)
    with pytest.raises(CheckpointError):
        evaluate([sample], [ContextRecall(FakeLLM(first_shown_judge), votes=3)], show_progress=False, checkpoint=ckpt)


def test_the_report_shows_agreement_votes_and_unstable_claims() -> None:
    from ragrecall.report import render_report

    contexts = ["Lyon is on the Rhône.", "Nice is on the coast."]
    samples = [
        {
            "id": "mixed",
            "reference_claims": ["Lyon is on the <Rhône>.", "Paris is flat."],
            "retrieved_contexts": contexts,
        }
    ]
    samples[0]["retrieved_contexts"] = ["Lyon is on the <Rhône>.", "Nice is on the coast."]
    result = evaluate(samples, [ContextRecall(FakeLLM(first_shown_judge), votes=3)], show_progress=False)
    page = render_report(result)
    assert "Stability of the judge" in page and "agreement 0.500" in page
    (unstable,) = result.unstable_claims()
    signs = "".join("+" if v else "−" for v in unstable.votes)
    assert f"votes {signs} ({sum(unstable.votes)} of 3 supported)" in page
    assert "Lyon is on the &lt;Rhône&gt;." in page and "<Rhône>" not in page
    assert "given claim" in page and "3 judgements per claim" in page
    once = evaluate(samples, [ContextRecall(FakeLLM(first_shown_judge))], show_progress=False)
    assert "Stability of the judge" not in render_report(once)
