"""Evaluate a dataset in batch with a resumable checkpoint, then export and compare.

Run: python examples/batch_checkpoint.py [WORKDIR]

Interrupt it (Ctrl-C) and run it again: the checkpoint makes the second run do only what is missing.
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

import ragrecall
from ragrecall import IDBasedContextRecall, NonLLMContextRecall, compare, evaluate


def main(workdir: Path) -> None:
    data = workdir / "samples.jsonl"
    ragrecall.demo_dataset().to_jsonl(data)  # stands in for your own JSONL or CSV file

    metrics = [IDBasedContextRecall(), NonLLMContextRecall(scorer="partial", normalize=True, threshold=0.9)]
    checkpoint = workdir / "run.ckpt.jsonl"
    result = evaluate(data, metrics, max_concurrency=8, checkpoint=checkpoint)
    print(result.summary_table())  # per-metric mean, 95% CI, scored / unscorable / failed, tokens
    for failure in result.failures:
        print(f"failed: sample {failure.index} ({failure.sample_id}) {failure.metric}: {failure.message}")

    # Resuming from a complete checkpoint recomputes nothing and gives the same numbers.
    again = evaluate(data, metrics, checkpoint=checkpoint, show_progress=False)
    assert again.values("id_based_context_recall") == result.values("id_based_context_recall")

    result.to_jsonl(workdir / "results.jsonl")
    result.to_csv(workdir / "results.csv")

    # A second system on the same questions: here, a retriever that returns only its top two passages.
    system_b = [
        s.model_copy(update={"retrieved_context_ids": (s.retrieved_context_ids or [])[:2]})
        for s in ragrecall.Dataset.load(data)
    ]
    result_b = evaluate(system_b, [IDBasedContextRecall()], show_progress=False)
    print(compare(result, result_b, "id_based_context_recall"))


if __name__ == "__main__":
    if len(sys.argv) > 1:
        main(Path(sys.argv[1]))
    else:
        with tempfile.TemporaryDirectory() as tmp:
            main(Path(tmp))
