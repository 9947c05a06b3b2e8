"""Exact agreement with pytrec_eval (trec_eval 9) on randomised judgments and runs."""

from __future__ import annotations

import numpy as np
import pytest
import pytrec_eval

from ragrecall.ranking import evaluate_run

# ours -> trec_eval's name; F(beta) matches set_F with x = beta² (trec_eval's parameter is not squared).
PAIRS = {
    "P@5": "P_5",
    "P@100": "P_100",
    "Recall@5": "recall_5",
    "Recall@100": "recall_100",
    "AP": "map",
    "AP@5": "map_cut_5",
    "AP@100": "map_cut_100",
    "nDCG": "ndcg",
    "nDCG@5": "ndcg_cut_5",
    "nDCG@100": "ndcg_cut_100",
    "RR": "recip_rank",
    "Rprec": "Rprec",
    "Success@1": "success_1",
    "Success@5": "success_5",
    "P": "set_P",
    "Recall": "set_recall",
    "F": "set_F",
}
TREC = {"P.5,100", "recall.5,100", "map", "map_cut.5,100", "ndcg", "ndcg_cut.5,100", "recip_rank", "Rprec"}
TREC |= {"success.1,5", "set_P", "set_recall", "set_F"}


def random_case(seed: int) -> tuple[dict[str, dict[str, int]], dict[str, dict[str, float]]]:
    """Graded 0-3 judgments, tied scores, queries missing on either side, queries without relevant docs."""
    rng = np.random.default_rng(seed)
    qrels: dict[str, dict[str, int]] = {}
    run: dict[str, dict[str, float]] = {}
    for q in range(40):
        qid = f"q{q}"
        if q % 9 != 0:
            n = int(rng.integers(1, 20))
            grades = rng.integers(0, 4, n) if q % 4 else np.zeros(n, dtype=int)  # q%4==0: nothing relevant
            qrels[qid] = {f"d{d}": int(g) for d, g in zip(rng.choice(60, n, replace=False), grades, strict=True)}
        if q % 7 != 0:
            n = int(rng.integers(1, 50))
            coarse = rng.integers(0, 8, n) / 4.0  # many exact ties
            fine = rng.normal(size=n)
            scores = coarse if q % 2 else fine
            run[qid] = {f"d{d}": float(s) for d, s in zip(rng.choice(60, n, replace=False), scores, strict=True)}
    return qrels, run


@pytest.mark.parametrize("rel", [1, 2])
@pytest.mark.parametrize("seed", range(6))
def test_every_trec_eval_measure_agrees(seed: int, rel: int) -> None:
    qrels, run = random_case(seed)
    expected = pytrec_eval.RelevanceEvaluator(qrels, TREC, relevance_level=rel).evaluate(run)
    ours = [m if rel == 1 or m.startswith("nDCG") else _with_rel(m, rel) for m in PAIRS]
    result = evaluate_run(qrels, run, ours, per_query=True)
    assert result.per_query is not None
    assert list(result.query_ids) == sorted(expected)
    for qid, values in expected.items():
        for mine, theirs in zip(ours, PAIRS.values(), strict=True):
            assert abs(result.per_query[qid][str(result.measures[ours.index(mine)])] - values[theirs]) <= 1e-9, (
                qid,
                mine,
            )


def _with_rel(measure: str, rel: int) -> str:
    name, _, cutoff = measure.partition("@")
    return f"{name}(rel={rel})" + (f"@{cutoff}" if cutoff else "")


@pytest.mark.parametrize("beta", [0.5, 2.0])
def test_f_beta_is_set_f_with_beta_squared(beta: float) -> None:
    qrels, run = random_case(11)
    expected = pytrec_eval.RelevanceEvaluator(qrels, {f"set_F.{beta * beta}"}).evaluate(run)
    result = evaluate_run(qrels, run, [f"F(beta={beta})"], per_query=True)
    assert result.per_query is not None
    for qid, values in expected.items():
        assert abs(result.per_query[qid][f"F(beta={beta:g})"] - values["set_F"]) <= 1e-9


def test_cutoff_measures_without_trec_eval_twin_match_on_truncated_runs() -> None:
    """RR@k and F@k: trec_eval's recip_rank / set_F on the run cut to its first k documents."""
    qrels, run = random_case(5)
    k = 5
    truncated = {}
    for qid, docs in run.items():
        # score descending in float32, then doc ID descending: Python's str order is UTF-8 byte order.
        order = sorted(docs, key=lambda d: (np.float32(docs[d]), d), reverse=True)
        truncated[qid] = {d: docs[d] for d in order[:k]}
    expected = pytrec_eval.RelevanceEvaluator(qrels, {"recip_rank", "set_F", "num_ret"}).evaluate(truncated)
    result = evaluate_run(qrels, run, [f"RR@{k}", f"F@{k}"], per_query=True)
    assert result.per_query is not None
    for qid, values in expected.items():
        assert abs(result.per_query[qid][f"RR@{k}"] - values["recip_rank"]) <= 1e-9
        if values["num_ret"] == k:  # F@k's precision divides by k, set_F's by the number retrieved
            assert abs(result.per_query[qid][f"F@{k}"] - values["set_F"]) <= 1e-9


def test_means_match_trec_eval_means_with_and_without_missing_queries() -> None:
    qrels, run = random_case(3)
    expected = pytrec_eval.RelevanceEvaluator(qrels, {"map", "ndcg_cut.10"}).evaluate(run)
    skip = evaluate_run(qrels, run, ["AP", "nDCG@10"])
    assert abs(skip["AP"] - np.mean([v["map"] for v in expected.values()])) <= 1e-9
    zero = evaluate_run(qrels, run, ["AP"], missing="zero")
    assert zero.n_missing == len(set(qrels) - set(run)) > 0
    assert abs(zero["AP"] - sum(v["map"] for v in expected.values()) / len(qrels)) <= 1e-9
