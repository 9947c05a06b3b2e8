"""Every measure of ``-m all_trec`` that pytrec_eval (trec_eval's code) also computes agrees with it per query,
on randomised graded judgments with unjudged (negative) grades, ties, missing queries, ``-l`` and ``-J``."""

from __future__ import annotations

import numpy as np
import pytest
import pytrec_eval

from ragrecall.ranking.evaluate import rank_run
from ragrecall.ranking.trec_names import trec_columns

# pytrec_eval's copy of trec_eval predates these, or gives gm_* per query as logarithms.
NOT_IN_PYTREC = {"runid", "num_q", "gm_map", "gm_bpref", "relstring", "rbp", "rbp_resid", "unj"}
# trec_eval 10 rounds recall levels to relevant counts with lround; pytrec_eval's copy adds 0.9 and truncates.
ROUNDING_CHANGED = {"iprec_at_recall", "11pt_avg"}


def random_case(seed: int) -> tuple[dict[str, dict[str, int]], dict[str, dict[str, float]]]:
    """Grades -1..4, tied scores, queries on one side only, queries without relevant documents."""
    rng = np.random.default_rng(seed)
    qrels: dict[str, dict[str, int]] = {}
    run: dict[str, dict[str, float]] = {}
    for q in range(30):
        qid = f"q{q:02d}"
        if q % 9 != 0:
            n = int(rng.integers(1, 30))
            grades = rng.integers(-1, 5, n) if q % 5 else np.zeros(n, dtype=int)
            qrels[qid] = {f"d{d}": int(g) for d, g in zip(rng.choice(80, n, replace=False), grades, strict=True)}
        if q % 7 != 0:
            n = int(rng.integers(1, 60))
            scores = rng.integers(0, 8, n) / 4.0 if q % 2 else rng.normal(size=n)
            run[qid] = {f"d{d}": float(s) for d, s in zip(rng.choice(80, n, replace=False), scores, strict=True)}
    return qrels, run


@pytest.mark.parametrize("judged_only", [False, True])
@pytest.mark.parametrize("rel", [1, 2])
@pytest.mark.parametrize("seed", range(4))
def test_all_trec_agrees_with_pytrec_eval(seed: int, rel: int, judged_only: bool) -> None:
    qrels, run = random_case(seed)
    columns = [c for c in trec_columns(["all_trec"], rel=rel) if c.family.name not in NOT_IN_PYTREC | ROUNDING_CHANGED]
    names = {c.family.name for c in columns}
    assert len(names) >= 25
    evaluator = pytrec_eval.RelevanceEvaluator(qrels, names, relevance_level=rel, judged_docs_only_flag=judged_only)
    expected = evaluator.evaluate(run)
    ranked, _ = rank_run(qrels, run, judged_only=judged_only)
    assert list(ranked.query_ids) == sorted(expected)
    for column in columns:
        assert column.measure is not None
        ours = column.measure.compute(ranked)
        for i, qid in enumerate(ranked.query_ids):
            theirs = expected[qid][column.label]
            if np.isnan(theirs):  # trec_eval divides 0 by 0 for a query without relevant documents
                assert ours[i] == 0.0, (qid, column.label)
            else:
                assert ours[i] == pytest.approx(theirs, abs=1e-9), (qid, column.label)


def test_iprec_differs_from_pytrec_eval_only_where_trec_eval_10_rounds_differently() -> None:
    qrels, run = random_case(3)
    columns = [c for c in trec_columns(["iprec_at_recall", "11pt_avg"])]
    expected = pytrec_eval.RelevanceEvaluator(qrels, {"iprec_at_recall", "11pt_avg"}).evaluate(run)
    ranked, _ = rank_run(qrels, run)
    num_rel = ranked.num_rel(1)
    compared = 0
    for column in columns:
        assert column.measure is not None
        ours = column.measure.compute(ranked)
        for i, qid in enumerate(ranked.query_ids):
            level = column.param if column.family.name == "iprec_at_recall" else None
            same_rounding = level is not None and int(level * num_rel[i] + 0.9) == int(
                np.floor(level * num_rel[i] + 0.5)
            )
            if same_rounding:
                compared += 1
                assert ours[i] == pytest.approx(expected[qid][column.label], abs=1e-9), (qid, column.label)
    assert compared > 100
