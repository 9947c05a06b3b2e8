"""The batch result counts verified, corrected, unverified and contested verdicts, coverage and dropped claims over a
dataset, prints them, and keeps them through JSONL and a resumed checkpoint."""

from __future__ import annotations

import io
from pathlib import Path

from helpers.claims import BATCH_REPLIES, batch_samples
from ragrecall import evaluate
from ragrecall.evaluation import EvaluationResult
from ragrecall.llm import FakeLLM
from ragrecall.metrics.context_recall import ContextRecall


def test_counts_are_summed_printed_and_kept(tmp_path: Path) -> None:
    llm = FakeLLM(BATCH_REPLIES)
    metric = ContextRecall(llm)
    result = evaluate(
        batch_samples(), [metric], show_progress=False, max_concurrency=1, checkpoint=tmp_path / "run.ckpt"
    )
    assert llm.remaining == 0 and result.failures == []
    counts = result.summary["context_recall"].counts
    assert counts == {
        "claims": 15,
        "supported": 3,
        "stated": 0,
        "verified": 2,
        "corrected": 1,
        "unverified": 1,
        "contested": 1,
        "coverage_claims": 1,
        "dropped_claims": 1,
    }
    line = (
        "context_recall: 15 claims, 3 supported; verdicts 0 stated, 2 verified, 1 corrected, 1 unverified, "
        "1 contested; "
        "1 coverage claims added, 1 claims dropped"
    )
    assert line in result.summary_table()

    out = io.StringIO()
    result.to_jsonl(out)
    assert EvaluationResult.from_jsonl(io.StringIO(out.getvalue())).summary["context_recall"].counts == counts
    resumed = evaluate(batch_samples(), [metric], show_progress=False, checkpoint=tmp_path / "run.ckpt")
    assert resumed.summary["context_recall"].counts == counts
