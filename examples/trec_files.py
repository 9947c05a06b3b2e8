"""Evaluate a TREC run against qrels, as trec_eval would, then score the same run per query.

Run: python examples/trec_files.py [WORKDIR]
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

from ragrecall.ranking import evaluate_run, parse_ranking, read_qrels, read_run, write_qrels, write_run


def main(workdir: Path) -> None:
    # Judgments (query -> document -> grade) and a run (query -> document -> score), written as TREC files.
    qrels = {
        "q1": {"d1": 2, "d2": 0, "d3": 1, "d7": 3},
        "q2": {"d4": 1, "d9": 2},
        "q3": {"d5": 1},  # judged but not run: skipped by default, counted as 0 with missing="zero"
    }
    run = {
        "q1": {"d2": 9.1, "d1": 8.7, "d3": 8.7, "d8": 3.0},  # d1 and d3 tie: trec_eval puts d3 first (ID desc)
        "q2": {"d9": 1.5, "d4": 0.2},
    }
    write_qrels(qrels, workdir / "test.qrels")
    write_run(run, workdir / "test.run.gz", tag="bm25")

    result = evaluate_run(
        read_qrels(workdir / "test.qrels"),
        read_run(workdir / "test.run.gz"),
        ["nDCG@10", "AP", "Recall@100", "P@2", "RR", "ERR@10"],
        per_query=True,
    )
    for measure, mean in result.means.items():
        print(f"{measure:<12} {mean:.4f}")
    print(f"per query nDCG@10: { {q: round(v['nDCG@10'], 4) for q, v in (result.per_query or {}).items()} }")
    strict = evaluate_run(workdir / "test.qrels", workdir / "test.run.gz", ["AP"], missing="zero")
    print(f"AP counting the unrun query as 0: {strict['AP']:.4f}")

    # An LLM reranker's answer, parsed into a ranking; IDs outside the candidates are dropped and reported.
    reply = "Most relevant first: [d7] > [d1] > [d42] > [d3]"
    ranking = parse_ranking(reply, candidates=["d1", "d2", "d3", "d7"])
    print(f"reranked: {ranking.ids}; not among the candidates: {ranking.unknown}")
    reranked = {"q1": {doc: float(len(ranking.ids) - i) for i, doc in enumerate(ranking.ids)}}
    print(f"nDCG@10 after reranking q1: {evaluate_run(qrels, reranked, 'nDCG@10')['nDCG@10']:.4f}")


if __name__ == "__main__":
    if len(sys.argv) > 1:
        main(Path(sys.argv[1]))
    else:
        with tempfile.TemporaryDirectory() as tmp:
            main(Path(tmp))
