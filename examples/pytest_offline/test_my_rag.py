"""Offline tests of a RAG pipeline's retrieval, in pytest: no key, no network.

Run: pytest examples/pytest_offline

The retriever here is a toy keyword matcher standing in for yours. Three kinds of check:
ID recall against known relevant documents, claim recall with OfflineJudge (a deterministic lexical
stand-in for an LLM judge: it matches words, numbers and negations), and an exact check of what the metric
asked the LLM, with a scripted FakeLLM.
"""

from __future__ import annotations

import pytest

from ragrecall import ContextRecall, FakeLLM, IDBasedContextRecall, OfflineJudge, RankingMetric
from ragrecall.testing import assert_recall

CORPUS = {
    "kb-1": "Orders ship from our Berlin warehouse within two business days.",
    "kb-2": "Returns are free within 30 days of delivery.",
    "kb-3": "Refunds reach the original payment method within five days of the return arriving.",
    "kb-4": "Gift cards cannot be refunded or exchanged for cash.",
    "kb-5": "Our support team answers by chat on weekdays from 9:00 to 18:00.",
}


def retrieve(question: str, k: int = 3) -> list[str]:
    """Rank documents by words shared with the question (stands in for the retriever under test)."""
    words = {w.strip("?.,").lower() for w in question.split()}
    overlap = {doc: len(words & {w.strip(".,").lower() for w in text.split()}) for doc, text in CORPUS.items()}
    return [doc for doc, _ in sorted(overlap.items(), key=lambda item: (-item[1], item[0]))[:k]]


CASES = [
    ("How long do refunds take after a return?", ["kb-3", "kb-2"],
     "Returns are free within 30 days of delivery. Refunds reach the original payment method within five days."),
    ("When do orders ship?", ["kb-1"], "Orders ship within two business days."),
    ("Can gift cards be refunded?", ["kb-4"], "Gift cards cannot be refunded."),
]  # fmt: skip


def samples() -> list[dict[str, object]]:
    out = []
    for question, relevant, reference in CASES:
        ids = retrieve(question)
        out.append(
            {
                "id": question,
                "user_input": question,
                "reference": reference,
                "retrieved_context_ids": ids,
                "retrieved_contexts": [CORPUS[i] for i in ids],
                "reference_context_ids": relevant,
            }
        )
    return out


def test_retriever_finds_the_relevant_documents() -> None:
    assert_recall(samples(), IDBasedContextRecall(k=3), at_least=1.0, per_sample=True)


def test_relevant_documents_rank_high() -> None:
    assert_recall(samples(), RankingMetric("nDCG@3"), at_least=0.8)


def test_retrieved_passages_support_the_reference_answers() -> None:
    assert_recall(samples(), ContextRecall(OfflineJudge()), at_least=0.9)


def test_the_metric_asks_the_llm_what_we_expect() -> None:
    # kb-1 does not write the claim word for word (a claim it did would be decided without asking the judge).
    llm = FakeLLM(
        [
            {"claims": ["Orders ship within two business days."]},
            {
                "verdicts": [
                    {
                        "claim": 1,
                        "supported": True,
                        "support": [
                            {"context": 1, "quote": "Orders ship from our Berlin warehouse within two business days"}
                        ],
                        "reason": "Context 1 says so.",
                    }
                ]
            },
        ]
    )
    result = ContextRecall(llm).score(samples()[1])
    assert result.value == 1.0
    assert [r.task for r in llm.requests] == ["context_recall.decompose", "context_recall.judge"]
    assert "Orders ship within two business days." in llm.requests[0].messages[-1]["content"]
    # The quote was found in the retrieved passage: the verdict is verified, not merely believed.
    assert result.evidence.claims[0].verification == "verified"


def test_a_judge_that_invents_its_evidence_does_not_raise_the_score() -> None:
    invented = {"claim": 1, "supported": True, "support": [{"context": 1, "quote": "Orders ship the same day"}]}
    llm = FakeLLM(
        [
            {"claims": ["Orders ship within two business days."]},
            {"verdicts": [{**invented, "reason": "Context 1 says so."}]},
            {"verdicts": [{**invented, "reason": "Still context 1."}]},  # asked again, it insists
        ]
    )
    result = ContextRecall(llm).score(samples()[1])
    assert result.value == 0.0
    assert result.evidence.claims[0].verification == "unverified"


def test_a_broken_retriever_fails_with_the_missing_documents() -> None:
    broken = [{**s, "retrieved_context_ids": ["kb-5"]} for s in samples()]
    with pytest.raises(AssertionError, match="missing ID 'kb-3', ID 'kb-2'"):
        assert_recall(broken, IDBasedContextRecall(), at_least=1.0)
