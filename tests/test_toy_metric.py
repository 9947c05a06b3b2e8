"""A metric added in one file (tests/helpers/toy_metric.py) plus one registration line reaches ``-m``, the
summary, the report (written with the run, and from the results file) and the exports, with no change to the
command line, the report or the exports: its evidence renders itself."""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from pathlib import Path
from typing import Literal

import pytest

import ragrecall
from ragrecall.cli import main
from ragrecall.evaluation import EvaluationResult
from ragrecall.metric_specs import register_metric, unregister_metric

from .helpers.toy_metric import ToyWordRecall

NAME = "toy_word_recall(min_chars=3)"
SAMPLES = [
    # words of 3+ characters: Paris, the, capital, France; "the" is in no passage → 3 of 4
    {
        "id": "q1",
        "reference": "Paris is the capital of France",
        "retrieved_contexts": ["France has Paris as its capital."],
    },
    # Rome and Italy, both in passage 2 → 2 of 2
    {"id": "q2", "reference": "Rome is in Italy", "retrieved_contexts": ["Madrid is in Spain.", "Rome, Italy."]},
    # Berlin, in no passage → 0 of 1
    {"id": "q3", "reference": "Berlin", "retrieved_contexts": ["Nothing here."]},
]


@pytest.fixture(scope="module", autouse=True)
def toy_registered() -> Iterator[None]:
    register_metric("toy_word_recall", ToyWordRecall)  # the one registration line
    yield
    unregister_metric("toy_word_recall")


@pytest.fixture
def data(tmp_path: Path) -> Path:
    path = tmp_path / "data.jsonl"
    path.write_text("".join(json.dumps(s) + "\n" for s in SAMPLES), encoding="utf-8")
    return path


def _check_page(page: str) -> None:
    """The toy evidence as it renders itself: its legend once, each word's verdict, passage links, marked spans."""
    assert page.count("<p class='toy-legend'>toy: each reference word and where it was found</p>") == 1
    assert "<li class='toy-word'>Berlin: nowhere</li>" in page
    assert "<li class='toy-word'>Rome: <a href='#s1-p2'>passage 2</a></li>" in page
    assert f"<mark title='{NAME}: Rome'>Rome</mark><sup class='cl'>w</sup>" in page
    assert f"<mark title='{NAME}: Paris'>Paris</mark>" in page
    assert "What the verification levels promise" not in page  # no claim recall in this run: no claim legend


def test_a_registered_metric_reaches_m_the_summary_the_report_and_the_results_file(
    data: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out, html = tmp_path / "run.jsonl", tmp_path / "run.html"
    code = main(["eval", str(data), "-m", NAME, "--out", str(out), "--report", str(html), "--no-progress"])
    assert code == 0
    printed = capsys.readouterr().out
    row = next(line for line in printed.splitlines() if line.startswith(NAME + " "))
    assert row.split()[1:3] == ["0.5833", "[0.000,"]  # mean (3/4 + 2/2 + 0/1) / 3
    assert f"{NAME}: 5 of 7 reference words found (toy)" in printed.splitlines()
    _check_page(html.read_text(encoding="utf-8"))

    # The results file reads back into the toy evidence, and the report written from it shows the same.
    back = EvaluationResult.from_jsonl(out)
    assert [type(r.evidence).__name__ for r in back.results(NAME)] == ["WordEvidence"] * 3
    assert back.summary[NAME].counts_text() == "5 of 7 reference words found (toy)"
    again = tmp_path / "again.html"
    assert main(["report", str(out), "-o", str(again)]) == 0
    _check_page(again.read_text(encoding="utf-8"))


def test_a_registered_metric_exports_its_evidence_columns(tmp_path: Path) -> None:
    result = ragrecall.evaluate(SAMPLES, [ToyWordRecall(min_chars=3)], show_progress=False)
    frame = result.to_pandas()
    assert list(frame.columns[-2:]) == ["toy_word_recall", "toy_word_recall:missing"]
    assert frame["toy_word_recall"].tolist() == [0.75, 1.0, 0.0]
    assert frame["toy_word_recall:missing"].tolist() == ["the", "", "Berlin"]
    detailed = result.to_pandas(details=True, inputs=False)
    assert list(detailed.columns) == [
        "index",
        "sample_id",
        "toy_word_recall",
        "toy_word_recall:status",
        "toy_word_recall:detail",
        "toy_word_recall:missing",
    ]
    result.to_csv(tmp_path / "run.csv")
    header = (tmp_path / "run.csv").read_text(encoding="utf-8").splitlines()[0]
    assert header.endswith("toy_word_recall,toy_word_recall:status,toy_word_recall:detail,toy_word_recall:missing")


def test_m_checks_a_registered_metrics_settings_and_knows_its_name(
    data: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["eval", str(data), "-m", "toy_word_recall(min_char=3)", "--no-progress"]) == 2
    assert "toy_word_recall has no setting 'min_char'" in capsys.readouterr().err
    assert main(["eval", str(data), "-m", "toy_word_recal", "--no-progress"]) == 2
    assert "did you mean 'toy_word_recall'?" in capsys.readouterr().err


def test_an_installed_package_adds_its_metric_to_m_through_an_entry_point(data: Path, tmp_path: Path) -> None:
    # An installed distribution (its dist-info on the path) whose entry point names the toy metric: the command
    # line finds it with no registration line at all.
    import shutil
    import subprocess
    import sys

    site = tmp_path / "site"
    site.mkdir()
    shutil.copy(Path(__file__).parent / "helpers" / "toy_metric.py", site / "toy_words.py")
    info = site / "toy_words-0.1.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: toy-words\nVersion: 0.1\n", encoding="utf-8")
    (info / "entry_points.txt").write_text(
        "[ragrecall.metrics]\nword_recall = toy_words:ToyWordRecall\n", encoding="utf-8"
    )
    done = subprocess.run(
        [sys.executable, "-m", "ragrecall.cli", "eval", str(data), "-m", "word_recall(min_chars=3)", "--no-progress"],
        capture_output=True,
        text=True,
        env={**os.environ, "PYTHONPATH": str(site)},
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert "toy_word_recall(min_chars=3): 5 of 7 reference words found (toy)" in done.stdout.splitlines()


def test_a_name_is_registered_once_and_built_in_names_stay() -> None:
    with pytest.raises(ragrecall.ConfigurationError, match="already registered"):
        register_metric("toy_word_recall", ToyWordRecall)
    with pytest.raises(ragrecall.ConfigurationError, match="no registered metric named 'context_recall'"):
        unregister_metric("context_recall")


def test_the_summary_report_and_command_line_name_no_evidence_kind() -> None:
    # What a kind shows lives in its evidence class: the code that shows results names no kind and no class.
    import ast

    from ragrecall.results import Evidence

    for kind in ("claim_recall", "ranking", "parsed_ranking", "string_similarity"):
        assert Evidence.of_kind(kind) is not Evidence  # the lazily imported kinds load
    kinds = set(Evidence._registry)
    classes = {cls.__name__ for cls in Evidence._registry.values()}
    assert {"claim_recall", "string_recall", "id_recall", "ranking"} <= kinds
    src = Path(ragrecall.__file__).parent
    files = [*(src / "report").glob("*.py"), *(src / "cli").glob("*.py"), src / "evaluation" / "_result.py"]
    found = []
    for path in files:
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Constant) and node.value in kinds:
                found.append(f"{path.name}:{node.lineno}: kind {node.value!r}")
            if isinstance(node, (ast.Name, ast.Attribute)) and (getattr(node, "id", None) or node.attr) in classes:
                found.append(f"{path.name}:{node.lineno}: class {getattr(node, 'id', None) or node.attr}")
    assert not found, found


def test_evidence_that_says_nothing_of_how_it_shows_gets_the_plain_defaults() -> None:
    from ragrecall.rendering import Passages
    from ragrecall.results import Evidence

    class Plain(Evidence):
        kind: Literal["toy_plain"] = "toy_plain"
        near_misses: list[str]

        def counts(self) -> dict[str, int]:
            return {"hits": 3, "near_miss": len(self.near_misses)}

    evidence = Plain(near_misses=["<b>"])
    assert Plain.counts_text({"hits": 3, "near_miss": 1}) == "3 hits, 1 near miss"
    assert evidence.to_html(Passages(0, 0)) == "<ul><li><strong>near_misses</strong>: &quot;&lt;b&gt;&quot;</li></ul>"
    assert evidence.columns() == {} and Plain.legend_html() == ""
    assert Evidence.of_kind("toy_plain") is Plain and Evidence.of_kind("no_such_kind") is Evidence
