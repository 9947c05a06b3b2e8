"""The corrected mean on the command line: ``calibrate --results/--plan/--json``, ``eval --labels --report``,
``report --labels``, and the one-line exit when the calibrate extra is missing."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from ragrecall import demo_dataset

SCRIPT = Path(sys.executable).with_name("ragrecall")
EXAMPLE = Path(__file__).parent.parent / "examples" / "calibration"


EVAL_WITH_LABELS = (
    "eval",
    str(EXAMPLE / "dataset.jsonl"),
    "-m",
    "context_recall",
    "--offline",
    "--labels",
    str(EXAMPLE / "labels.jsonl"),
    "--no-progress",
)


def run(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    if not SCRIPT.exists():
        pytest.skip(f"the console script is not installed next to {sys.executable}")
    return subprocess.run([str(SCRIPT), *args], capture_output=True, text=True, cwd=cwd, timeout=300)


@pytest.fixture(scope="module")
def results(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The shipped example's run: its labelled samples (labels taken off) and the demo samples, judged offline."""
    out = tmp_path_factory.mktemp("run") / "results.jsonl"
    done = run(
        "eval", str(EXAMPLE / "dataset.jsonl"), "-m", "context_recall", "--offline", "--out", str(out), "--no-progress"
    )
    assert done.returncode == 0, done.stderr
    return out


def test_the_example_dataset_is_the_labelled_samples_and_the_demo() -> None:
    labels = [json.loads(line) for line in (EXAMPLE / "labels.jsonl").read_text(encoding="utf-8").splitlines()]
    rows = [json.loads(line) for line in (EXAMPLE / "dataset.jsonl").read_text(encoding="utf-8").splitlines()]
    assert [r["id"] for r in rows] == [r["id"] for r in labels] + [s.id for s in demo_dataset()]
    assert not any("claim_labels" in r or "human_score" in r for r in rows)


def test_calibrate_prints_the_corrected_mean_beside_the_other_two(results: Path) -> None:
    labels = str(EXAMPLE / "labels.jsonl")
    done = run("calibrate", labels, "--llm", "offline", "--results", str(results), "--plan", "0.05", "--no-progress")
    assert done.returncode == 0, done.stderr
    text = done.stdout
    assert "corrected by people: context_recall over 28 samples, 16 of them labelled" in text
    for name in ("corrected", "labels only", "judge only"):
        assert f"\n  {name} " in text
    assert "holds even when the judge is biased" in text
    # 16 labels of a 28-sample run: ± 0.05 would take more labelled samples than the run has, and it says so.
    assert "plan: ± 0.05 is out of reach for this run: it would take about " in text
    assert "the run has 28; labelling all 28 gives about ± " in text

    done = run("calibrate", labels, "--llm", "offline", "--results", str(results), "--plan", "0.05", "--json")
    data = json.loads(done.stdout)
    corrected = data["corrected"]
    assert corrected["n_labelled"] == 16 and corrected["n_unlabelled"] == 12
    assert corrected["low"] < corrected["mean"] < corrected["high"]
    assert set(corrected["classical"]) == {"mean", "low", "high"} == set(corrected["judge_only"])
    assert 0.0 <= corrected["lam"] <= 1.0 and corrected["metric"] == "context_recall"
    assert set(corrected["meanings"]) == {"corrected", "labels only", "judge only"}
    assert data["plan"]["half_width"] == 0.05 and data["plan"]["more_labels"] > 0
    assert data["kappa"] is not None  # the calibration's own figures are still all there
    # The labels' mean is the mean of people's labels on the 16 samples: claim shares, or human_score.
    shares = []
    for line in (EXAMPLE / "labels.jsonl").read_text(encoding="utf-8").splitlines():
        row = json.loads(line)
        labels_ = row.get("claim_labels")
        shares.append(sum(labels_) / len(labels_) if labels_ else row["human_score"])
    assert corrected["classical"]["mean"] == pytest.approx(sum(shares) / len(shares))


@pytest.mark.parametrize(
    ("args", "expected"),
    [
        (["--plan", "0.05"], "--plan needs --results"),
        (["--metric", "x"], "--metric names the metric of --results"),
        (["--results", "nowhere.jsonl"], "no such results file: nowhere.jsonl"),
    ],
)
def test_bad_flags_exit_2_in_one_line(args: list[str], expected: str, tmp_path: Path) -> None:
    done = run("calibrate", str(EXAMPLE / "labels.jsonl"), "--llm", "offline", *args, cwd=tmp_path)
    assert done.returncode == 2
    assert done.stderr.count("\n") == 1 and expected in done.stderr


def test_a_run_without_the_labelled_ids_is_refused_in_one_line(tmp_path: Path) -> None:
    other = tmp_path / "other.jsonl"
    done = run("demo", "--out", str(other))
    assert done.returncode == 0, done.stderr
    done = run("calibrate", str(EXAMPLE / "labels.jsonl"), "--llm", "offline", "--results", str(other), "--no-progress")
    assert done.returncode == 2
    assert done.stderr.count("\n") == 1
    assert "none of the 16 labelled samples has an id among the 12 samples of the results" in done.stderr


def test_eval_with_labels_prints_and_reports_the_corrected_mean(tmp_path: Path) -> None:
    page = tmp_path / "report.html"
    done = run(*EVAL_WITH_LABELS, "--report", str(page))
    assert done.returncode == 0, done.stderr
    summary, _, rest = done.stdout.partition("corrected by people: context_recall")
    assert "metric " in summary and rest
    html = page.read_text(encoding="utf-8")
    assert "<section id='corrected'><h2>Corrected by people</h2>" in html
    assert html.index("id='summary'") < html.index("id='corrected'") < html.index("id='samples'")

    done = run("report", str(tmp_path / "nothing.jsonl"), "--labels", "x")
    assert done.returncode == 2


def test_eval_json_carries_every_figure() -> None:
    done = run(*EVAL_WITH_LABELS, "--json")
    assert done.returncode == 0, done.stderr
    data = json.loads(done.stdout)
    assert data["summary"]["context_recall"]["scored"] == 28
    [corrected] = data["corrected"]
    assert corrected["metric"] == "context_recall" and corrected["n_labelled"] == 16
    for key in ("mean", "low", "high", "lam", "half_width", "classical", "judge_only", "meanings"):
        assert key in corrected
    assert corrected["judge_only"]["mean"] == pytest.approx(data["summary"]["context_recall"]["mean"])
    assert data["not_corrected"] == []


def test_a_metric_the_labels_do_not_speak_to_is_named_not_dropped(tmp_path: Path) -> None:
    from ragrecall.cli._eval import corrected_by_labels
    from ragrecall.demo import demo_metrics
    from ragrecall.evaluation import evaluate

    result = evaluate(demo_dataset(), demo_metrics(), show_progress=False)
    labels = tmp_path / "labels.jsonl"
    rows = [
        {
            "id": s.id,
            "reference": s.reference,
            "retrieved_contexts": s.retrieved_contexts,
            "reference_claims": ["a claim.", "another claim."],
            "claim_labels": [True, i % 3 == 0],
        }
        for i, s in enumerate(demo_dataset())
    ]
    labels.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    items, notes = corrected_by_labels(result, str(labels))
    assert [item.metric for item in items] == ["context_recall"]
    assert len(notes) == len(result.metrics) - 1
    assert all(" not corrected: no corrected mean of " in note for note in notes)
    assert all("0 labelled samples apply to this run and it needs at least 10 (" in n for n in notes)
    # Every one of the 12 labelled samples is left out, for one stated reason or another.
    assert all(sum(map(int, re.findall(r"(\d+) labelled samples left out", n))) == 12 for n in notes)
    nuggets = next(n for n in notes if n.startswith("nugget_recall"))
    assert "3 labelled samples left out: their labels do not record the reference nuggets this run judged" in nuggets
    ids = next(n for n in notes if n.startswith("id_based_context_recall"))
    assert "their labels do not record the retrieved IDs this run judged" in ids
    ranking = next(n for n in notes if n.startswith("nDCG@10"))
    assert "they carry no label this metric reads" in ranking


def test_report_with_labels_adds_the_section(results: Path, tmp_path: Path) -> None:
    page = tmp_path / "r.html"
    done = run("report", str(results), "--labels", str(EXAMPLE / "labels.jsonl"), "-o", str(page))
    assert done.returncode == 0, done.stderr
    assert "Corrected by people" in page.read_text(encoding="utf-8")


NO_SCIPY = """
import sys
class Block:
    def find_spec(self, name, path=None, target=None):
        if name.split(".")[0] in ("scipy", "sklearn"):
            raise ModuleNotFoundError(f"No module named {name!r}", name=name)
        return None
sys.meta_path.insert(0, Block())
from ragrecall.cli import main
sys.exit(main(sys.argv[1:]))
"""


def test_without_the_calibrate_extra_one_line_and_exit_2(results: Path) -> None:
    labels = str(EXAMPLE / "labels.jsonl")
    done = subprocess.run(
        [sys.executable, "-c", NO_SCIPY, "calibrate", labels, "--llm", "offline", "--results", str(results)],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 2
    assert done.stderr.count("\n") == 1
    assert "pip install 'ragrecall[calibrate]'" in done.stderr and "Traceback" not in done.stderr
    # The corrected mean itself needs numpy only: eval --labels works without the extra.
    done = subprocess.run(
        [sys.executable, "-c", NO_SCIPY, "report", str(results), "--labels", labels, "-o", str(results) + ".html"],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
