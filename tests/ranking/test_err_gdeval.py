"""ERR@k against ir_measures' ERR, which runs the TREC Web track's gdeval script (needs perl)."""

from __future__ import annotations

import shutil

import numpy as np
import pytest

from ragrecall.ranking import evaluate_run

ir_measures = pytest.importorskip("ir_measures")
pytestmark = pytest.mark.skipif(shutil.which("perl") is None, reason="gdeval needs perl")


def test_err_matches_gdeval_to_its_printed_precision() -> None:
    rng = np.random.default_rng(2)
    qrels, run = {}, {}
    for q in range(25):
        qid = str(100 + q)  # gdeval wants numeric topics
        qrels[qid] = {f"d{d}": int(rng.integers(0, 5)) for d in rng.choice(40, 12, replace=False)}
        run[qid] = {f"d{d}": float(rng.random()) for d in rng.choice(40, 25, replace=False)}  # no ties
    theirs = {
        (m.query_id, str(m.measure)): m.value
        for m in ir_measures.iter_calc([ir_measures.ERR @ 10, ir_measures.ERR @ 20], qrels, run)
    }
    ours = evaluate_run(qrels, run, ["ERR@10", "ERR@20"], per_query=True).per_query
    assert ours is not None
    for qid in qrels:
        for k in (10, 20):
            assert abs(ours[qid][f"ERR@{k}"] - theirs[(qid, f"ERR@{k}")]) <= 1e-5  # gdeval prints 5 decimals
