"""Grades and depths anywhere in 64 bits: no measure wraps an int64 key, loops over every grade, or fails to
hold a depth, and the small trec path and the numpy path print the same."""

from __future__ import annotations

import math
import random
from pathlib import Path

import numpy as np
import pytest

from ragrecall.cli import _trec
from ragrecall.cli._main import main
from ragrecall.ranking import evaluate_run
from ragrecall.ranking.measures.rbp import _gain_range

BIG = 999_999_999_999_999_999


def _loop_gain_range(top: np.ndarray, gains: tuple[tuple[int, float], ...]) -> tuple[np.ndarray, np.ndarray]:
    """The range of gains over grades 0..top and the named ones, grade by grade."""
    named = dict(gains)
    if not named:
        return np.zeros(len(top)), np.maximum(top, 0).astype(np.float64)
    low, high = np.full(len(top), math.inf), np.full(len(top), -math.inf)
    for grade in range(int(top.max(initial=0)) + 1):
        present = top >= grade
        low[present] = np.minimum(low[present], named.get(grade, float(grade)))
        high[present] = np.maximum(high[present], named.get(grade, float(grade)))
    for value in named.values():
        low, high = np.minimum(low, value), np.maximum(high, value)
    return low, high


def test_rbps_gain_range_is_the_grade_by_grade_range_without_the_walk() -> None:
    rng = random.Random(7)
    for _ in range(2000):
        top = np.array([rng.randint(-3, 12) for _ in range(rng.randint(1, 8))], dtype=np.int64)
        gains = tuple(
            sorted(
                {rng.randint(0, 10): rng.choice([-2.0, 0.0, 0.5, 3.0, 20.0]) for _ in range(rng.randint(0, 6))}.items()
            )
        )
        ours, loop = _gain_range(top, gains), _loop_gain_range(top, gains)
        assert ours[0].tolist() == loop[0].tolist() and ours[1].tolist() == loop[1].tolist(), (top, gains)
    low, high = _gain_range(np.array([BIG, 5]), ((1, 2.0),))  # would walk 10**18 grades
    assert low.tolist() == [0.0, 0.0] and high.tolist() == [float(BIG), 5.0]


def _judgments(top: int) -> dict[str, dict[str, int]]:
    return {f"q{i:02d}": {"a": top, "b": 1, "c": 1} for i in range(12)}


def test_extended_reciprocal_rank_with_grades_far_apart_is_as_with_grades_close() -> None:
    run = {f"q{i:02d}": {"b": 3.0, "c": 2.0, "a": 1.0} for i in range(12)}
    far = evaluate_run(_judgments(BIG), run, ["ExtRR"], per_query=True).per_query
    close = evaluate_run(_judgments(2), run, ["ExtRR"], per_query=True).per_query
    assert far == close
    assert far is not None and len({v["ExtRR"] for v in far.values()}) == 1  # the twelve queries are alike
    top = evaluate_run({"q": {"a": 2**63 - 1, "b": 1}}, {"q": {"b": 2.0, "a": 1.0}}, ["ExtRR"])
    assert top.means["ExtRR"] > 0


@pytest.mark.parametrize("depth", [str(2**63 - 1), str(2**63), str(2**70)])
def test_a_depth_past_int64_cuts_nothing_on_either_path(
    depth: str, tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "qrels").write_text("q1 0 d1 1\nq1 0 d2 0\n")
    (tmp_path / "run").write_text("q1 Q0 d2 1 2.0 r\nq1 Q0 d1 2 1.0 r\n")
    files = [str(tmp_path / "qrels"), str(tmp_path / "run")]
    assert main(["trec", "-q", "-M", depth, *files]) == 0
    small = capsys.readouterr().out
    monkeypatch.setattr(_trec, "_official_only", lambda _args: False)
    assert main(["trec", "-q", "-M", depth, *files]) == 0
    assert capsys.readouterr().out == small
    assert main(["trec", "-M", depth, "-m", "P@5", *files]) == 0
    assert "map                   \tq1\t0.5000\n" in small


def test_an_exponential_gain_past_float64_is_refused_naming_the_query() -> None:
    from ragrecall.errors import InputError

    run = {"p": {"x": 1.0}, "q": {"a": 1.0, "c": 2.0}}
    fine = evaluate_run({"p": {"x": 1}, "q": {"a": 1000, "c": 0}}, run, ["nDCG(gain=exp)"])
    assert 0 < fine.means["nDCG(gain=exp)"] <= 1
    with pytest.raises(InputError, match=r"nDCG\(gain=exp\): the ideal DCG of query 'q' .*grade up to 1024"):
        evaluate_run({"p": {"x": 1}, "q": {"a": 1024, "c": 0}}, run, ["nDCG(gain=exp)"])
