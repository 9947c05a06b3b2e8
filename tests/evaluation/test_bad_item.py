"""One ``None`` inside a list field fails only the metrics that read that field, with a one-line message; the
metrics that do not read it score the sample."""

from __future__ import annotations

import warnings

from ragrecall import ContextRecall, IDBasedContextRecall, NonLLMContextRecall, OfflineJudge, RankingMetric, evaluate


def test_a_none_item_fails_only_the_metrics_that_read_its_field() -> None:
    good = {
        "id": "b",
        "reference": "Paris is the capital of France.",
        "reference_contexts": ["Paris is the capital of France."],
        "retrieved_contexts": ["Paris is the capital of France."],
        "retrieved_context_ids": ["d1"],
        "reference_context_ids": ["d1"],
    }
    bad = dict(good, id="a", reference_contexts=["Paris is the capital of France.", None])
    metrics = [IDBasedContextRecall(), NonLLMContextRecall(), RankingMetric("nDCG@10"), ContextRecall(OfflineJudge())]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        result = evaluate([bad, good], metrics, show_progress=False)
    first = result.rows[0].results
    assert {name: r.status for name, r in first.items()} == {
        "id_based_context_recall": "scored",
        "non_llm_context_recall": "failed",
        "nDCG@10": "scored",
        "context_recall": "scored",
    }
    assert first["context_recall"].value == result.rows[1].results["context_recall"].value == 1.0
    failure = first["non_llm_context_recall"].failure
    assert failure is not None
    assert failure.message == (
        "sample 0 (id='a'): field 'reference_contexts': item [1]: expected a string, got None (NoneType)"
    )
