"""The command line for people arriving from Ragas and pandas: DataFrame files, column maps, spelling help."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from ragrecall.cli import main

ROWS = [
    {"qid": "q1", "question": "a?", "docs": ["a", "b"], "gold": ["a", "c"]},
    {"qid": "q2", "question": "b?", "docs": ["c"], "gold": ["c"]},
    {"qid": "q3", "question": "c?", "docs": ["d"], "gold": []},
]
MAP = [
    "--map",
    "question=user_input",
    "--map",
    "qid=id",
    "--map",
    "docs=retrieved_context_ids",
    "--map",
    "gold=reference_context_ids",
]


@pytest.fixture
def data(tmp_path: Path) -> Path:
    path = tmp_path / "data.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in ROWS), encoding="utf-8")
    return path


def cli(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    try:
        code = main(list(args))
    except SystemExit as exc:  # argparse's own errors
        code = int(exc.code or 0)
    out, err = capsys.readouterr()
    return code, out, err


def test_map_renames_columns_and_pandas_files_load(
    data: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, err = cli(capsys, "eval", str(data), "-m", "id_based_context_recall", *MAP, "--no-progress")
    assert code == 0, err
    assert "id_based_context_recall  0.7500" in out and "1 unscorable" not in err  # q3 has nothing to recall
    pd = pytest.importorskip("pandas")
    frame = pd.DataFrame(ROWS)
    frame.to_csv(tmp_path / "frame.csv")
    pytest.importorskip("pyarrow")
    frame.to_parquet(tmp_path / "frame.parquet")
    for path in ("frame.csv", "frame.parquet"):
        code, again, err = cli(capsys, "eval", str(tmp_path / path), "-m", "id_based_context_recall", *MAP)
        assert code == 0, err
        assert again.splitlines()[:2] == out.splitlines()[:2], path


def test_a_bad_map_is_one_error_line(data: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = cli(capsys, "eval", str(data), "-m", "id_based_context_recall", "--map", "qid")
    assert code == 2 and err == "ragrecall: error: --map expects COLUMN=FIELD, e.g. question=user_input; got 'qid'\n"
    code, _, err = cli(capsys, "eval", str(data), "-m", "id_based_context_recall", "--map", "qid=query_id")
    assert code == 2 and "column_map 'qid': 'query_id' names no Sample field" in err


@pytest.mark.parametrize(
    ("spec", "hint"),
    [
        ("contxt_recall", "did you mean 'context_recall'?"),
        ("ndgc@10", "did you mean 'nDCG@10'?"),
        ("Recal@5", "did you mean 'Recall@5'?"),
        ("non_llm_context_recall(treshold=0.8)", "non_llm_context_recall has no setting 'treshold'"),
        ("id_based_context_recall(kk=2)", "did you mean 'k'?"),
        ("non_llm_context_recall(scorer=levenstein)", "scorer='levenstein' is not one of levenshtein, indel"),
        ("non_llm_context_recall(scorer=levenstein)", "did you mean 'levenshtein'?"),
        ("context_recall(mode=singel)", "context_recall: mode='singel' is not one of claims, single"),
        (
            "context_recall(mod=single)",
            "context_recall has no setting 'mod' (in 'context_recall(mod=single)'); did you mean 'mode'?",
        ),
    ],
)
def test_misspelt_metrics_and_settings_get_a_suggestion(
    spec: str, hint: str, data: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, _, err = cli(capsys, "eval", str(data), "-m", spec, "--offline")
    assert code == 2 and err.startswith("ragrecall: error: ") and hint in err and err.count("\n") == 1


@pytest.mark.parametrize(
    ("metric", "bound"),
    [
        ("nDCG@10", "ndcg_cut_10=0.99"),
        ("nDCG@10", "NDCG@10=0.99"),
        ("AP", "MAP=0.99"),
        ("AP", "map=0.99"),
        ("non_llm_context_recall(threshold=0.8)", "non_llm_context_recall(threshold=0.80)=0.99"),
        ("non_llm_context_recall(threshold=0.8)", "non_llm_context_recall=0.99"),  # the only one of its kind
        ("id_based_context_recall@1", "id_based_context_recall=0.99"),
    ],
)
def test_fail_under_takes_every_spelling_the_metric_flag_takes(
    metric: str, bound: str, data: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    rows = [{**r, "passages": ["the same text"], "refs": ["other words entirely"]} for r in ROWS]
    data.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    fields = [*MAP, "--map", "passages=retrieved_contexts", "--map", "refs=reference_contexts"]
    code, _, err = cli(capsys, "eval", str(data), "-m", metric, *fields, "--fail-under", bound, "--no-progress")
    assert code == 1, err
    assert err.startswith(f"ragrecall: fail-under: {metric} mean ")


def test_fail_under_a_metric_not_run_is_refused(data: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = cli(
        capsys,
        "eval",
        str(data),
        "-m",
        "id_based_context_recall@1",
        "-m",
        "id_based_context_recall@2",
        *MAP,
        "--fail-under",
        "id_based_context_recall=0.5",
    )
    assert code == 2 and "--fail-under names 'id_based_context_recall', which is not among the metrics" in err


def test_unknown_flags_print_the_subcommands_usage(data: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = cli(capsys, "eval", str(data), "-m", "nDCG@10", "--fial-under", "nDCG@10=0.5")
    assert code == 2
    assert err.startswith("usage: ragrecall eval ")
    assert err.endswith(
        "ragrecall eval: error: unrecognized arguments: --fial-under nDCG@10=0.5; did you mean --fail-under?\n"
    )
    code, _, err = cli(capsys, "trec", "q", "r", "-m", "AP", "--per_query")
    assert code == 2 and err.startswith("usage: ragrecall trec ") and "did you mean --per-query?" in err


def test_compare_takes_several_metrics_all_by_default(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    a, b = tmp_path / "a.jsonl", tmp_path / "b.jsonl"
    assert cli(capsys, "demo", "--out", str(a))[0] == 0
    assert cli(capsys, "demo", "--out", str(b))[0] == 0
    code, out, err = cli(capsys, "compare", str(a), str(b))
    assert code == 0, err
    lines = out.splitlines()
    assert [line.split(":")[0] for line in lines] == [
        "context_recall",
        "nugget_recall",
        "partial_string_recall",
        "id_based_context_recall",
        "nDCG@10",
        "Recall@3",
    ]
    assert all("B − A +0.0000" in line for line in lines)
    code, out, _ = cli(capsys, "compare", str(a), str(b), "-m", "nDCG@10", "-m", "Recall@3")
    assert code == 0 and [line.split(":")[0] for line in out.splitlines()] == ["nDCG@10", "Recall@3"]
    code, _, err = cli(capsys, "compare", str(a), str(b), "-m", "ndcg@10")
    assert code == 2 and err.startswith("ragrecall: error: run A has no metric 'ndcg@10'; it has context_recall,")
    # A metric only one run has is named, never skipped in silence.
    samples, c = tmp_path / "samples.jsonl", tmp_path / "c.jsonl"
    assert cli(capsys, "demo", "--samples", str(samples))[0] == 0
    assert cli(capsys, "eval", str(samples), "-m", "nDCG@10", "--out", str(c), "--no-progress")[0] == 0
    code, out, _ = cli(capsys, "compare", str(a), str(c))
    assert code == 0 and out.splitlines()[0].startswith("nDCG@10:")
    assert out.splitlines()[-1] == (
        "only in A, not compared: context_recall, nugget_recall, partial_string_recall, id_based_context_recall, "
        "Recall@3"
    )


def test_a_hugging_face_folder_and_the_demo_samples_as_csv(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    datasets = pytest.importorskip("datasets")
    pytest.importorskip("pyarrow")
    datasets.Dataset.from_list(ROWS).save_to_disk(str(tmp_path / "hf"))
    code, out, err = cli(capsys, "eval", str(tmp_path / "hf"), "-m", "id_based_context_recall", *MAP)
    assert code == 0, err
    assert "id_based_context_recall  0.7500" in out
    code, out, err = cli(capsys, "demo", "--samples", str(tmp_path / "demo.csv"))
    assert code == 0 and out.endswith(f"samples written to {tmp_path / 'demo.csv'}\n"), err
    code, out, err = cli(capsys, "eval", str(tmp_path / "demo.csv"), "-m", "nDCG@10", "--fail-under", "ndcg_cut_10=0.5")
    assert code == 0, err
    assert "nDCG@10  0.5849" in out  # the demo's own nDCG@10, read back from the CSV it wrote
