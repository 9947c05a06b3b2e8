"""Labels belong to what was judged: three systems, one labels file made on one system's passages. A label
corrects a run only where that run judged the same passages and claims, in every command and in the API; the
others are left out, counted and named; a system with no label that applies gets no corrected mean; and one rule
for repeated labels everywhere (identical repeats count once, conflicting ones are refused)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from ragrecall import ContextRecall, InputError, OfflineJudge, evaluate
from ragrecall.calibration import corrected_mean, labelled_scores
from ragrecall.dataset import Dataset
from ragrecall.evaluation import EvaluationResult
from ragrecall.labelling import Chosen, page_data

SCRIPT = Path(sys.executable).with_name("ragrecall")
SAMPLES = 30
LABELLED = 19
SAME_IN_HYBRID = 12  # the hybrid system retrieved bm25's passages for the first 12 labelled samples


def cli(*args: str) -> subprocess.CompletedProcess[str]:
    if not SCRIPT.exists():
        pytest.skip(f"the console script is not installed next to {sys.executable}")
    return subprocess.run([str(SCRIPT), *args], capture_output=True, text=True, timeout=300)


def _facts(i: int) -> list[str]:
    return [f"Device {i} resets in {i + 3} seconds.", f"Device {i} ships with cable {i % 4}.", f"Model {i} is blue."]


def _system(name: str, i: int) -> list[str]:
    facts = _facts(i)
    if name == "bm25" or (name == "hybrid" and i < SAME_IN_HYBRID):
        return [facts[0], "Unrelated text about weather."]
    if name == "dense":
        return [facts[1], facts[2], "Some other passage."]
    return [facts[0], facts[1], f"Hybrid extra {i}."]


@pytest.fixture(scope="module")
def runs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    folder = tmp_path_factory.mktemp("three")
    paths: dict[str, Path] = {}
    results: dict[str, EvaluationResult] = {}
    for name in ("bm25", "dense", "hybrid"):
        samples = [
            {
                "id": f"q{i}",
                "user_input": f"About device {i}?",
                "reference": " ".join(_facts(i)),
                "retrieved_contexts": _system(name, i),
            }
            for i in range(SAMPLES)
        ]
        result = evaluate(samples, [ContextRecall(OfflineJudge())], show_progress=False)
        paths[name] = folder / f"{name}.jsonl"
        result.to_jsonl(paths[name])
        results[name] = EvaluationResult.from_jsonl(paths[name])
    # Labels made in the labelling page on bm25's passages, as its "Download labels" writes them.
    bm25 = results["bm25"]
    chosen = [Chosen(index=i, sample_id=f"q{i}", stratum="all", inclusion_probability=None) for i in range(LABELLED)]
    data = page_data(bm25, chosen, "context_recall")
    rows = []
    for k, sample in enumerate(data["samples"]):
        claims = [c["claim"] for c in sample["claims"]]
        rows.append(
            {
                "id": sample["id"],
                "user_input": sample["user_input"],
                "reference": sample["reference"],
                "retrieved_contexts": sample["retrieved_contexts"],
                "reference_claims": claims,
                "claim_labels": [j == 0 or (k + j) % 3 == 0 for j in range(len(claims))],
                "metadata": {"fingerprint": sample["fingerprint"], "labelled_by": "A. Person"},
            }
        )
    labels = folder / "labels.jsonl"
    labels.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    # The same labels as a file written elsewhere: the texts alone, no fingerprint.
    plain = folder / "plain.jsonl"
    plain.write_text(
        "".join(json.dumps({k: v for k, v in r.items() if k != "metadata"}) + "\n" for r in rows), encoding="utf-8"
    )
    # Written elsewhere with the claims and passages only: a label says "these passages support this claim".
    claims_only = folder / "claims.jsonl"
    claims_only.write_text(
        "".join(json.dumps({k: v for k, v in r.items() if k not in ("metadata", "reference")}) + "\n" for r in rows),
        encoding="utf-8",
    )
    return {
        "paths": paths,
        "results": results,
        "labels": labels,
        "plain": plain,
        "claims": claims_only,
        "rows": rows,
        "folder": folder,
    }


@pytest.mark.parametrize("which", ["labels", "plain", "claims"])
def test_the_api_pairs_by_id_and_content(runs: dict[str, Any], which: str) -> None:
    labelled = labelled_scores(Dataset.load(runs[which]))
    bm25 = corrected_mean(runs["results"]["bm25"], "context_recall", labelled)
    assert bm25.n_labelled == LABELLED and bm25.n_unlabelled == SAMPLES - LABELLED and bm25.left_out == []
    hybrid = corrected_mean(runs["results"]["hybrid"], "context_recall", labelled)
    assert hybrid.n_labelled == SAME_IN_HYBRID and hybrid.n_unlabelled == SAMPLES - SAME_IN_HYBRID
    assert [left.text() for left in hybrid.left_out] == [
        "7 labelled samples left out: their retrieved passages differ from this run's ('q12', 'q13', 'q14' and 4 more)"
    ]
    with pytest.raises(InputError) as caught:
        corrected_mean(runs["results"]["dense"], "context_recall", labelled)
    assert str(caught.value) == (
        "no corrected mean of context_recall: 0 labelled samples apply to this run and it needs at least 10 "
        "(19 labelled samples left out: their retrieved passages differ from this run's ('q0', 'q1', 'q2' and 16 "
        "more))"
    )


def test_compare_corrects_each_system_with_its_own_labels(runs: dict[str, Any]) -> None:
    paths = runs["paths"]
    done = cli(
        "compare", str(paths["bm25"]), str(paths["dense"]), str(paths["hybrid"]), "--labels", str(runs["labels"])
    )
    assert done.returncode == 0, done.stderr
    out = done.stdout
    assert "(19 labelled)" in out and "(12 labelled)" in out
    table = out[out.index("corrected by people (PPI++)") :]
    dense = next(line for line in table.splitlines() if line.strip().startswith("dense.jsonl"))
    assert "no corrected mean of context_recall: 0 labelled samples apply" in dense
    assert "19 labelled samples left out: their retrieved passages differ from this run's" in dense
    assert "7 labelled samples left out: their retrieved passages differ from this run's" in out
    done = cli(
        "compare", *(str(paths[n]) for n in ("bm25", "dense", "hybrid")), "--labels", str(runs["labels"]), "--json"
    )
    corrected = json.loads(done.stdout)["metrics"]["context_recall"]["corrected"]
    assert corrected["bm25.jsonl"]["n_labelled"] == LABELLED
    assert corrected["hybrid.jsonl"]["n_labelled"] == SAME_IN_HYBRID
    assert corrected["hybrid.jsonl"]["not_paired"] == LABELLED - SAME_IN_HYBRID
    assert "mean" not in corrected["dense.jsonl"]
    assert corrected["dense.jsonl"]["not_corrected"].startswith("no corrected mean of context_recall")
    page = runs["folder"] / "compare.html"
    done = cli(
        "compare",
        *(str(paths[n]) for n in ("bm25", "dense", "hybrid")),
        "--labels",
        str(runs["labels"]),
        "--report",
        str(page),
    )
    assert done.returncode == 0, done.stderr
    html = page.read_text(encoding="utf-8")
    assert "no corrected mean" in html and "their retrieved passages differ from this run&#x27;s" in html


def test_eval_and_report_leave_out_what_does_not_apply(runs: dict[str, Any]) -> None:
    paths = runs["paths"]
    done = cli("report", str(paths["dense"]), "--labels", str(runs["labels"]), "-o", str(runs["folder"] / "d.html"))
    assert done.returncode == 2
    assert "19 labelled samples left out: their retrieved passages differ from this run's" in done.stderr
    done = cli("report", str(paths["hybrid"]), "--labels", str(runs["labels"]), "-o", str(runs["folder"] / "h.html"))
    assert done.returncode == 0, done.stderr
    html = (runs["folder"] / "h.html").read_text(encoding="utf-8")
    assert "12 labelled of 30" in html and "7 labelled samples left out" in html
    dataset = runs["folder"] / "dense-samples.jsonl"
    dataset.write_text(
        "".join(json.dumps(row.sample.to_dict()) + "\n" for row in runs["results"]["dense"].rows if row.sample),
        encoding="utf-8",
    )
    done = cli(
        "eval", str(dataset), "-m", "context_recall", "--offline", "--labels", str(runs["labels"]), "--no-progress"
    )
    assert done.returncode == 2
    assert "their retrieved passages differ from this run's" in done.stderr


def test_calibrate_corrects_only_the_run_that_judged_the_labelled_passages(runs: dict[str, Any]) -> None:
    pytest.importorskip("sklearn")
    paths = runs["paths"]
    done = cli("calibrate", str(runs["labels"]), "--llm", "offline", "--results", str(paths["bm25"]), "--json")
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["corrected"]["n_labelled"] == LABELLED
    done = cli("calibrate", str(runs["labels"]), "--llm", "offline", "--results", str(paths["dense"]))
    assert done.returncode == 2
    assert "0 labelled samples apply to this run" in done.stderr and "retrieved passages differ" in done.stderr


def _write(path: Path, rows: list[dict[str, Any]]) -> Path:
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    return path


def test_identical_repeats_count_once_everywhere(runs: dict[str, Any]) -> None:
    rows = runs["rows"]
    twice = _write(runs["folder"] / "twice.jsonl", [*rows, dict(rows[3], metadata={"labelled_by": "B"})])
    once = corrected_mean(runs["results"]["bm25"], "context_recall", labelled_scores(Dataset.load(runs["labels"])))
    again = corrected_mean(runs["results"]["bm25"], "context_recall", labelled_scores(Dataset.load(twice)))
    assert again.n_labelled == once.n_labelled == LABELLED and again.mean == once.mean
    pytest.importorskip("sklearn")
    done = cli("calibrate", str(twice), "--llm", "offline", "--json")
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["samples"] == LABELLED


def test_conflicting_repeats_are_refused_everywhere(runs: dict[str, Any]) -> None:
    rows = runs["rows"]
    flipped = dict(rows[3], claim_labels=[not v for v in rows[3]["claim_labels"]])
    conflict = _write(runs["folder"] / "conflict.jsonl", [*rows, flipped])
    message = (
        "conflicting labels for sample id 'q3': rows 4 and 20 of the labels label the same passages and claims "
        "differently"
    )
    with pytest.raises(InputError, match=message):
        labelled_scores(Dataset.load(conflict))
    paths = runs["paths"]
    commands = [
        ("compare", str(paths["bm25"]), str(paths["dense"]), "--labels", str(conflict)),
        ("report", str(paths["bm25"]), "--labels", str(conflict), "-o", str(runs["folder"] / "c.html")),
    ]
    if _has_sklearn():
        commands.append(("calibrate", str(conflict), "--llm", "offline"))
    for args in commands:
        done = cli(*args)
        assert done.returncode == 2, (args, done.stdout)
        assert message in done.stderr, args
    # The same id labelled on two systems' passages is two labels, not a conflict: each pairs with its run.
    dense = runs["results"]["dense"].rows[3]
    assert dense.sample is not None
    other = dict(rows[3], retrieved_contexts=dense.sample.retrieved_contexts, metadata={})
    both = labelled_scores(Dataset.load(_write(runs["folder"] / "both.jsonl", [*rows, other])))
    assert len(both) == LABELLED + 1


def _has_sklearn() -> bool:
    try:
        import sklearn  # noqa: F401
    except ImportError:
        return False
    return True
