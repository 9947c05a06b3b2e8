"""evaluate_run: the semantics trec_eval fixes, pinned one by one."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import pytest

from ragrecall import ConfigurationError, InputError, NothingToEvaluateError
from ragrecall.ranking import Qrels, Run, evaluate_run


def test_ties_break_by_doc_id_descending_bytewise() -> None:
    run = {"q": {"a": 1.0, "b": 1.0, "B": 1.0, "ab": 1.0}}  # byte order descending: b, ab, a, B
    for doc, rank in [("b", 1), ("ab", 2), ("a", 3), ("B", 4)]:
        assert evaluate_run({"q": {doc: 1}}, run, ["RR"])["RR"] == 1 / rank


def test_scores_equal_in_float32_are_ties() -> None:
    run = {"q": {"a": 1.0 + 1e-12, "b": 1.0}}  # distinct doubles, same float32: "b" wins the tie
    assert evaluate_run({"q": {"b": 1}}, run, ["RR"])["RR"] == 1.0
    run = {"q": {"a": 1.001, "b": 1.0}}
    assert evaluate_run({"q": {"b": 1}}, run, ["RR"])["RR"] == 0.5


def test_negative_zero_ties_with_zero() -> None:
    assert evaluate_run({"q": {"a": 1}}, {"q": {"a": -0.0, "b": 0.0}}, ["RR"])["RR"] == 0.5


def test_missing_queries_skip_or_zero() -> None:
    qrels = {"q1": {"a": 1}, "q2": {"b": 1}}
    run = {"q1": {"a": 1.0}, "q3": {"c": 1.0}}
    skip = evaluate_run(qrels, run, ["RR"], per_query=True)
    assert skip.query_ids == ("q1",) and skip["RR"] == 1.0 and skip.n_missing == 1
    zero = evaluate_run(qrels, run, ["RR"], per_query=True, missing="zero")
    assert zero.query_ids == ("q1", "q2") and zero["RR"] == 0.5
    assert zero.per_query == {"q1": {"RR": 1.0}, "q2": {"RR": 0.0}}


def test_query_without_relevant_documents_counts_as_zero() -> None:
    result = evaluate_run({"q1": {"a": 1}, "q2": {"b": 0}}, {"q1": {"a": 1.0}, "q2": {"b": 1.0}}, ["AP", "nDCG@5"])
    assert result["AP"] == 0.5 and result["nDCG@5"] == 0.5


def test_ap_divides_by_all_relevant_documents_in_the_judgments() -> None:
    assert evaluate_run({"q": {"a": 1, "b": 1, "c": 1, "d": 1}}, {"q": {"a": 1.0}}, ["AP"])["AP"] == 0.25


def test_relevance_threshold_and_unjudged_documents() -> None:
    qrels = {"q": {"a": 1, "b": 2}}
    run = {"q": {"a": 3.0, "u": 2.0, "b": 1.0}}
    assert evaluate_run(qrels, run, ["RR(rel=2)"])["RR(rel=2)"] == pytest.approx(1 / 3)


def test_unsorted_rows_and_ints_as_ids_give_the_same_answer() -> None:
    rng = np.random.default_rng(0)
    docs = [f"d{i}" for i in range(50)]
    scores = rng.integers(0, 5, 50).astype(float)
    qrels = {"q": {d: int(g) for d, g in zip(docs, rng.integers(0, 3, 50), strict=True)}}
    forward = {"q": dict(zip(docs, scores.tolist(), strict=True))}
    backward = {"q": dict(reversed(list(forward["q"].items())))}
    measures = ["AP", "nDCG@10", "RR", "P@5"]
    assert evaluate_run(qrels, forward, measures).means == evaluate_run(qrels, backward, measures).means
    assert evaluate_run({1: {7: 1}}, {1: {7: 1.0}}, ["RR"])["RR"] == 1.0


def test_columnar_inputs_are_reused() -> None:
    qrels = Qrels.from_dict({"q": {"a": 1}})
    run = Run.from_dict({"q": {"a": 1.0, "b": 2.0}})
    assert evaluate_run(qrels, run, "RR")["RR"] == 0.5


def test_bad_arguments() -> None:
    with pytest.raises(ConfigurationError):
        evaluate_run({}, {}, ["AP"], missing="ignore")  # type: ignore[arg-type]
    with pytest.raises(ConfigurationError):
        evaluate_run({}, {}, [])
    with pytest.raises(InputError, match="NaN"):
        evaluate_run({"q": {"a": 1}}, {"q": {"a": float("nan")}}, ["AP"])
    with pytest.raises(InputError, match="integer grade"):
        evaluate_run({"q": {"a": 1.5}}, {"q": {"a": 1.0}}, ["AP"])  # type: ignore[dict-item]
    with pytest.raises(InputError, match="expected_positions"):
        evaluate_run({"q": {"a": 1}}, {"q": {"a": 1.0}}, ["ExtRR"], expected_positions={"q": {"a": 0}})


@pytest.mark.parametrize("missing", ["skip", "zero"])
@pytest.mark.parametrize(
    ("qrels", "run"),
    [
        ({}, {}),  # nothing at all
        ({"q1": {"a": 1}}, {}),  # an empty run
        ({}, {"q1": {"a": 1.0}}),  # empty judgments
        ({"q1": {"a": 1}, "q2": {"b": 1}}, {"q3": {"a": 1.0}, "Q1": {"a": 2.0}}),  # no query in common
    ],
)
def test_nothing_to_evaluate_is_an_error(qrels: Any, run: Any, missing: Any) -> None:
    # A mean over no query is not a score of 0: with missing="zero" it would read as a real, terrible result.
    with pytest.raises(NothingToEvaluateError, match=r"no query of the run .* is in the judgments"):
        evaluate_run(qrels, run, ["AP"], per_query=True, missing=missing)


def test_nothing_to_evaluate_names_both_files(tmp_path: Path) -> None:
    qrels, run = tmp_path / "topics-2024.qrels", tmp_path / "bm25-2023.run"
    qrels.write_text("401 0 d1 1\n402 0 d2 1\n", encoding="utf-8")
    run.write_text("301 Q0 d1 1 2.0 t\n302 Q0 d2 1 1.0 t\n", encoding="utf-8")
    with pytest.raises(NothingToEvaluateError) as info:
        evaluate_run(qrels, run, ["AP"])
    assert isinstance(info.value, InputError)
    assert f"({run})" in str(info.value) and f"({qrels})" in str(info.value)
    # One query in common is enough.
    run.write_text("301 Q0 d1 1 2.0 t\n402 Q0 d2 1 1.0 t\n", encoding="utf-8")
    assert evaluate_run(qrels, run, ["AP"], missing="zero")["AP"] == 0.5
