"""The shared vectorised steps give trec_eval's numbers bit for bit: sums added row by row within a query,
maxima that are one of the values, whatever the other queries hold."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
import pytrec_eval

from ragrecall.cli._main import main
from ragrecall.ranking import evaluate_run
from ragrecall.ranking.measures._walk import cumulative, suffix_max


def _groups(seed: int) -> tuple[np.ndarray, np.ndarray]:
    """Rows sorted by query; early queries hold large values, so a sum over all queries loses their low bits."""
    rng = np.random.default_rng(seed)
    n = int(rng.integers(1, 400))
    query = np.sort(rng.integers(0, 30, n))
    if seed % 2:  # one query holds about half the rows: far past twice the mean length
        query = np.sort(np.where(rng.random(n) < 0.5, 7, query))
    values = rng.random(len(query)) * np.where(query < 10, 1e6, 1.0) / rng.integers(1, 997, len(query))
    return query.astype(np.int64), values


def _loop_sums(query: np.ndarray, values: np.ndarray, inclusive: bool) -> list[float]:
    out, total = [], 0.0
    for i, v in enumerate(values.tolist()):
        if i == 0 or query[i] != query[i - 1]:
            total = 0.0
        out.append(total + v if inclusive else total)
        total += v
    return out


@pytest.mark.parametrize("seed", range(20))
@pytest.mark.parametrize("inclusive", [True, False])
def test_cumulative_is_the_row_by_row_sum_of_each_query(seed: int, inclusive: bool) -> None:
    query, values = _groups(seed)
    assert cumulative(query, values, inclusive=inclusive).tolist() == _loop_sums(query, values, inclusive)


@pytest.mark.parametrize("seed", range(20))
def test_suffix_max_is_one_of_the_values(seed: int) -> None:
    query, values = _groups(seed)
    values = values / values.max()  # in [0, 1], as precisions are
    expected = [max(values[i:][query[i:] == query[i]].tolist()) for i in range(len(values))]
    assert suffix_max(query, values).tolist() == expected


def test_walks_of_nothing_are_empty() -> None:
    empty_q, empty_v = np.zeros(0, dtype=np.int64), np.zeros(0)
    assert cumulative(empty_q, empty_v).shape == (0,)
    assert cumulative(empty_q, empty_v, inclusive=False).shape == (0,)
    assert suffix_max(empty_q, empty_v).shape == (0,)


def _one_relevant_at(position: int) -> tuple[dict[str, dict[str, int]], dict[str, dict[str, float]]]:
    """Query "a" finds its only relevant document at ``position``; "b" and "c", after it, at 1."""
    qrels = {q: {f"rel-{q}": 1} for q in "abc"}
    run = {
        q: {(f"rel-{q}" if i == (position if q == "a" else 1) else f"d{i}"): 1000.0 - i for i in range(1, 201)}
        for q in "abc"
    }
    return qrels, run


def test_interpolated_precision_of_an_early_query_is_trec_evals_exactly() -> None:
    # 1/160 prints as 0.0063; rounded by the other queries' offsets it printed 0.0062.
    qrels, run = _one_relevant_at(160)
    theirs = pytrec_eval.RelevanceEvaluator(qrels, {"iprec_at_recall"}).evaluate(run)["a"]
    ours = evaluate_run(qrels, run, ["IPrec@0", "IPrec@0.5", "IPrec@1"], per_query=True).per_query
    assert ours is not None
    assert ours["a"] == {
        "IPrec@0": theirs["iprec_at_recall_0.00"],
        "IPrec@0.5": theirs["iprec_at_recall_0.50"],
        "IPrec@1": theirs["iprec_at_recall_1.00"],
    }
    assert ours["a"]["IPrec@0"] == 1 / 160


def test_trec_prints_the_early_querys_interpolated_precision_as_trec_eval(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = tmp_path
    qrels, run = _one_relevant_at(160)
    (folder / "qrels").write_text("".join(f"{q} 0 {d} {g}\n" for q, docs in qrels.items() for d, g in docs.items()))
    (folder / "run").write_text("".join(f"{q} Q0 {d} 1 {s} r\n" for q, docs in run.items() for d, s in docs.items()))
    assert main(["trec", "-q", "-m", "iprec_at_recall.0", str(folder / "qrels"), str(folder / "run")]) == 0
    assert "iprec_at_recall_0.00  \ta\t0.0063\n" in capsys.readouterr().out


def test_run_starts_marks_the_first_row_of_each_run_of_equal_rows() -> None:
    from ragrecall.ranking._ranked import run_starts

    assert run_starts(np.zeros(0, dtype=np.int64)).tolist() == []
    assert run_starts(np.array([3])).tolist() == [0]
    assert run_starts(np.array([1, 1, 2, 2, 2, 5])).tolist() == [0, 2, 5]
    assert run_starts(np.array([1, 1, 1, 2]), np.array([0, 0, 4, 4])).tolist() == [0, 2, 3]
