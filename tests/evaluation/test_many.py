"""Several systems at once: Holm's adjustment and the paired effect size by hand, every pair of three runs,
and ``ragrecall compare A B C`` with its table, labels and report page."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from ragrecall import IDBasedContextRecall, evaluate
from ragrecall.evaluation import EvaluationResult, compare, compare_many, effect_size, holm

SCRIPT = Path(sys.executable).with_name("ragrecall")


def test_holm_by_hand() -> None:
    # m = 4: sorted 0.01, 0.02, 0.03, 0.04 -> 0.04, 0.06, 0.06 (monotone), 0.06; None is not a test.
    assert holm([0.03, 0.01, None, 0.04, 0.02]) == pytest.approx([0.06, 0.04, None, 0.06, 0.06])  # type: ignore[arg-type]
    assert holm([0.5, 0.9]) == [1.0, 1.0]
    assert holm([]) == []


def test_effect_size_by_hand() -> None:
    diff = np.array([0.1, 0.3, 0.2, 0.4])
    d, low, high = effect_size(diff)
    assert d == pytest.approx(0.25 / np.std(diff, ddof=1))
    assert low is not None and high is not None and low < d < high
    assert effect_size(np.array([0.2, 0.2, 0.2])) == (None, None, None)
    assert effect_size(np.array([0.2])) == (None, None, None)


def runs(found: tuple[int, ...]) -> list[EvaluationResult]:
    """Runs of 30 samples whose system k retrieves the first ``found[k]`` of 4 relevant IDs, one more or less on
    odd samples (noise of its own, seeded by the system's position)."""
    out = []
    for system, k in enumerate(found):
        noise = np.random.default_rng(system).integers(-1, 2, size=30)
        samples = [
            {
                "id": f"q{i}",
                "reference_context_ids": ["a", "b", "c", "d"],
                "retrieved_context_ids": ["a", "b", "c", "d"][: max(0, min(4, k + int(noise[i]) * (i % 2)))],
            }
            for i in range(30)
        ]
        out.append(evaluate(samples, [IDBasedContextRecall()], show_progress=False))
    return out


def test_every_pair_of_three_runs() -> None:
    results = runs((1, 2, 2))
    pairs = compare_many(results, ["x", "y", "z"], "id_based_context_recall")
    assert [(p.a, p.b) for p in pairs] == [("x", "y"), ("x", "z"), ("y", "z")]
    for p, (i, j) in zip(pairs, [(0, 1), (0, 2), (1, 2)], strict=True):
        assert p.comparison == compare(results[i], results[j], "id_based_context_recall")
    smallest = min(pairs, key=lambda p: p.comparison.p_value or 1.0)
    assert smallest.p_holm == pytest.approx(min(1.0, 3 * (smallest.comparison.p_value or 1.0)))
    assert holm([p.comparison.p_value for p in pairs]) == [p.p_holm for p in pairs]
    assert pairs[0].effect is not None and pairs[0].effect > 0.5  # y retrieves one more ID: a large effect
    same = compare_many([results[1], results[1]], ["y", "y again"], "id_based_context_recall")
    assert same[0].effect is None and same[0].p_holm == 1.0  # every difference is 0


def _result_files(tmp_path: Path) -> list[str]:
    """The runs a, b and c written as result files."""
    files = []
    for name, result in zip("abc", runs((1, 2, 3)), strict=True):
        path = tmp_path / f"{name}.jsonl"
        result.to_jsonl(path)
        files.append(str(path))
    return files


def _write_labels(path: Path, files: list[str]) -> None:
    """People's scores of the first 12 samples, labelled on each system's retrieved IDs: one labels file for the
    three systems, each row pairing with the run that retrieved what it was labelled on."""
    rows = []
    for file in files:
        for row in EvaluationResult.from_jsonl(file).rows[:12]:
            assert row.sample is not None
            seen = {
                k: v for k, v in row.sample.to_dict().items() if k in ("retrieved_context_ids", "reference_context_ids")
            }
            rows.append({"id": row.sample_id, **seen, "human_score": 0.5 + 0.01 * row.index})
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")


def test_compare_three_runs_on_the_command_line(tmp_path: Path) -> None:
    files = _result_files(tmp_path)
    labels = tmp_path / "labels.jsonl"
    _write_labels(labels, files)
    page = tmp_path / "compare.html"
    done = subprocess.run(
        [str(SCRIPT), "compare", *files, "--labels", str(labels), "--report", str(page)],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    out = done.stdout
    assert "p (Holm)" in out and "adjusted over the 3 pairs" in out
    table = [line.split() for line in out.splitlines() if line.startswith(("a.jsonl", "b.jsonl"))]
    assert [row[:2] for row in table] == [["a.jsonl", "b.jsonl"], ["a.jsonl", "c.jsonl"], ["b.jsonl", "c.jsonl"]]
    p_values = [float(row[8]) for row in table]
    holm_values = [float(row[9]) for row in table]
    assert holm_values == pytest.approx(holm(p_values), abs=2e-4)  # printed to 4 decimals
    assert "corrected by people (PPI++)" in out
    assert all(f"  {name}.jsonl  " in out for name in "abc")
    html = page.read_text(encoding="utf-8")
    assert "<section id='systems'><h2>Systems compared</h2>" in html and "p (Holm)" in html
    assert "Corrected by people (PPI++)" in html

    one = subprocess.run([str(SCRIPT), "compare", files[0]], capture_output=True, text=True, timeout=60)
    assert one.returncode == 2 and "compare needs two or more result files, got 1" in one.stderr


def test_compare_prints_json_for_two_runs_and_for_three_with_labels(tmp_path: Path) -> None:
    files = _result_files(tmp_path)
    two = subprocess.run([str(SCRIPT), "compare", *files[:2], "--json"], capture_output=True, text=True, timeout=120)
    assert two.returncode == 0, two.stderr
    data = json.loads(two.stdout)  # nothing but the JSON on stdout
    assert [r["letter"] for r in data["runs"]] == ["A", "B"] and data["runs"][1]["path"] == files[1]
    [pair] = data["metrics"]["id_based_context_recall"]["pairs"]
    table = compare_many(runs((1, 2, 3))[:2], ["a.jsonl", "b.jsonl"], "id_based_context_recall")[0]
    assert (pair["a"], pair["b"]) == ("a.jsonl", "b.jsonl") and pair == table.model_dump(mode="json")
    assert data["metrics"]["id_based_context_recall"]["corrected"] == {}

    labels = tmp_path / "labels.jsonl"
    _write_labels(labels, files)
    three = subprocess.run(
        [str(SCRIPT), "compare", *files, "--labels", str(labels), "--json"], capture_output=True, text=True, timeout=120
    )
    assert three.returncode == 0, three.stderr
    metric = json.loads(three.stdout)["metrics"]["id_based_context_recall"]
    assert [(p["a"], p["b"]) for p in metric["pairs"]] == [
        ("a.jsonl", "b.jsonl"),
        ("a.jsonl", "c.jsonl"),
        ("b.jsonl", "c.jsonl"),
    ]
    assert sorted(metric["corrected"]) == ["a.jsonl", "b.jsonl", "c.jsonl"]
    assert all(0.0 <= c["low"] <= c["mean"] <= c["high"] <= 1.0 for c in metric["corrected"].values())
