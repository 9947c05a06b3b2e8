"""Score retrieval three ways on one sample, then the built-in demo set: no key, no network.

Run: python examples/quickstart.py
"""

from __future__ import annotations

import ragrecall
from ragrecall import (
    ContextRecall,
    IDBasedContextRecall,
    NonLLMContextRecall,
    OfflineJudge,
    RankingMetric,
    Sample,
    evaluate,
)

sample = Sample(
    id="q1",
    user_input="What is the capital of France, and what is its best-known landmark?",
    reference="Paris is the capital of France. The Eiffel Tower is its most famous landmark.",
    retrieved_contexts=["Paris is the capital of France.", "France is a country in Western Europe."],
    reference_contexts=[
        "Paris is the capital of France.",
        "The Eiffel Tower is one of the most famous landmarks in Paris.",
    ],
    retrieved_context_ids=["doc_1", "doc_2", "doc_3"],
    reference_context_ids=["doc_1", "doc_4", "doc_5", "doc_6"],
    relevance={"doc_1": 2, "doc_4": 3, "doc_5": 1, "doc_6": 1},
)


def main() -> None:
    # 1. Only a reference answer: split it into claims, judge each against the retrieved contexts.
    #    OfflineJudge is a lexical stand-in for a real model (it matches words, for demos and tests);
    #    use ragrecall.llm_factory("gpt-4o-mini") for a judge.
    claims = ContextRecall(OfflineJudge()).score(sample)
    print(f"LLM claim recall: {claims.value:.2f}")
    for verdict in claims.evidence.claims:
        mark = "supported" if verdict.supported else "NOT supported"
        print(f"  - {verdict.claim!r}: {mark} ({verdict.verification})")
        # Every "supported" quotes the context; ragrecall found the quote there and records where.
        for quote in verdict.support:
            print(f"      context {quote.context} [{quote.start}:{quote.end}]: {quote.passage!r}")

    # 2. Reference passages: each counts as recalled when some retrieved passage is similar enough.
    passages = NonLLMContextRecall().score(sample)
    print(f"string-similarity recall: {passages.value:.2f}")
    for m in passages.evidence.matches:
        print(f"  - reference passage {m.reference_index}: similarity {m.similarity:.2f}, recalled={m.recalled}")

    # 3. Reference IDs and graded judgments: ID recall and the ranking measures of the IR literature.
    ids = IDBasedContextRecall().score(sample)
    print(f"ID recall: {ids.value:.2f}; missing {ids.evidence.missing}")
    print(f"nDCG@10: {RankingMetric('nDCG@10').score(sample).value:.3f}")

    # The same metrics over the built-in demo set (12 English and Chinese samples), with statistics.
    metrics = [
        ContextRecall(OfflineJudge()),
        NonLLMContextRecall(scorer="partial", normalize=True, threshold=0.9),
        IDBasedContextRecall(),
        RankingMetric("nDCG@10"),
    ]
    result = evaluate(ragrecall.demo_dataset(), metrics, show_progress=False)
    print()
    print(result.summary_table())


if __name__ == "__main__":
    main()
