"""The installed ``ragrecall`` console script, run in a subprocess for every subcommand and error path."""

from __future__ import annotations

import contextlib
import json
import sqlite3
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

SCRIPT = Path(sys.executable).with_name("ragrecall")


def run(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    if not SCRIPT.exists():
        pytest.skip(f"the console script is not installed next to {sys.executable}")
    return subprocess.run([str(SCRIPT), *args], capture_output=True, text=True, cwd=cwd, timeout=120)


@pytest.fixture
def data(tmp_path: Path) -> Path:
    path = tmp_path / "data.jsonl"
    rows = [
        {"id": "q1", "retrieved_context_ids": ["a", "b"], "reference_context_ids": ["a", "c"]},
        {"id": "q2", "retrieved_context_ids": ["c"], "reference_context_ids": ["c"]},
        {"id": "q3", "retrieved_context_ids": [], "reference_context_ids": ["d"]},
    ]
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    return path


def test_demo_runs_offline_from_any_directory(tmp_path: Path) -> None:
    done = run("demo", "--out", "demo.jsonl", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert "en-router-01" in done.stdout and "zh-tea-01" in done.stdout
    assert "id_based_context_recall" in done.stdout and "95% CI" in done.stdout
    assert len((tmp_path / "demo.jsonl").read_text(encoding="utf-8").splitlines()) == 12


def test_eval_prints_summary_and_writes_results(data: Path, tmp_path: Path) -> None:
    out = tmp_path / "out.jsonl"
    done = run(
        "eval",
        str(data),
        "-m",
        "id_based_context_recall",
        "-m",
        "id_based_context_recall@1",
        "--out",
        str(out),
        "--no-progress",
    )
    assert done.returncode == 0, done.stderr
    assert "id_based_context_recall " in done.stdout and "0.5000" in done.stdout
    rows = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]
    assert [r["results"]["id_based_context_recall"]["value"] for r in rows] == [0.5, 1.0, 0.0]


def test_fail_under_sets_exit_code(data: Path) -> None:
    passing = run("eval", str(data), "-m", "id_based_context_recall", "--fail-under", "id_based_context_recall=0.5")
    assert passing.returncode == 0, passing.stderr
    failing = run("eval", str(data), "-m", "id_based_context_recall", "--fail-under", "id_based_context_recall=0.6")
    assert failing.returncode == 1
    assert failing.stderr.strip().splitlines()[-1] == (
        "ragrecall: fail-under: id_based_context_recall mean 0.5000 over 3 scored samples (0 failed, 0 unscorable) "
        "is under 0.6"
    )


def test_compare_and_report(data: Path, tmp_path: Path) -> None:
    a, b = tmp_path / "a.jsonl", tmp_path / "b.jsonl"
    assert run("eval", str(data), "-m", "id_based_context_recall@1", "--out", str(a)).returncode == 0
    assert run("eval", str(data), "-m", "id_based_context_recall@1", "--out", str(b)).returncode == 0
    done = run("compare", str(a), str(b), "--metric", "id_based_context_recall@1")
    assert done.returncode == 0, done.stderr
    assert "B − A +0.0000" in done.stdout and "over 3 paired samples" in done.stdout
    html = tmp_path / "r.html"
    done = run("report", str(a), "-o", str(html))
    assert done.returncode == 0, done.stderr
    page = html.read_text(encoding="utf-8")
    assert "id_based_context_recall@1" in page and "<svg" in page and "missing: <code>c</code>" in page


@pytest.mark.parametrize(
    ("args", "expected"),
    [
        (
            ["eval", "missing.jsonl", "-m", "id_based_context_recall"],
            "ragrecall: error: no such dataset file: missing.jsonl",
        ),
        (["eval", "{data}", "-m", "nonsense"], "ragrecall: error: unknown metric 'nonsense'"),
        (
            [
                "eval",
                "{data}",
                "-m",
                "id_based_context_recall(",
            ],
            "ragrecall: error: unknown metric 'id_based_context_recall('",
        ),
        (["eval", "{data}", "-m", "id_based_context_recall@0"], "ragrecall: error: k must be a positive integer"),
        (["eval", "{data}", "-m", "context_recall"], "ragrecall: error: context_recall needs a model"),
        (
            ["eval", "{data}", "-m", "context_recall", "--model", "m", "--api-key-env", "RAGRECALL_TEST_NO_SUCH_KEY"],
            "ragrecall: error: no API key: set the environment variable RAGRECALL_TEST_NO_SUCH_KEY",
        ),
        (
            ["eval", "{data}", "-m", "context_recall(mode=sideways)", "--offline"],
            "ragrecall: error: context_recall: mode='sideways' is not one of claims, single",
        ),
        (["trec", "{qrels}", "nowhere.run", "-m", "AP"], "ragrecall: error: no such file: nowhere.run"),
        (["trec", "{qrels}", "{badrun}", "-m", "AP"], "ragrecall: error: {badrun}:2:"),
        (["trec", "{qrels}", "{qrels}", "-m", "nDCG@ten"], "ragrecall: error:"),
        (["eval", "{data}", "-m", "id_based_context_recall", "--fail-under", "x"], "ragrecall: error: --fail-under"),
        (
            ["eval", "{data}", "-m", "id_based_context_recall", "--max-failed", "-1"],
            "ragrecall: error: --max-failed must be 0 or more, got -1",
        ),
        (["eval", "{bad}", "-m", "id_based_context_recall"], "ragrecall: error: {bad}:2: invalid JSON"),
        (["report", "nowhere.jsonl"], "ragrecall: error: No such file or directory: nowhere.jsonl"),
        (["report", "{binary}"], "ragrecall: error: {binary}:1: not UTF-8 text"),
        (
            ["eval", "{partial}", "-m", "id_based_context_recall"],
            "ragrecall: error: 1 of 2 sample-metric pairs failed; first: sample 1 (id='b'), id_based_context_recall: "
            "MissingFieldError",
        ),
        (["compare", "{data}", "{data}", "-m", "x"], "ragrecall: error: {data}:1: not a result row"),
    ],
)
def test_user_errors_end_with_one_line_and_exit_2(args: list[str], expected: str, data: Path, tmp_path: Path) -> None:
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"id": 1}\n{"id": \n', encoding="utf-8")
    qrels, badrun = tmp_path / "q.qrels", tmp_path / "bad.run"
    qrels.write_text("q1 0 a 1\n", encoding="utf-8")
    badrun.write_text("q1 Q0 a 1 2.0 t\nq1 Q0 b 2\n", encoding="utf-8")
    binary, partial = tmp_path / "binary.jsonl", tmp_path / "partial.jsonl"
    binary.write_bytes(b"\xff\xfe\x00garbage\n")
    partial.write_text(
        '{"id": "a", "retrieved_context_ids": ["x"], "reference_context_ids": ["x"]}\n{"id": "b"}\n', encoding="utf-8"
    )
    names = {"data": data, "bad": bad, "qrels": qrels, "badrun": badrun, "binary": binary, "partial": partial}
    args = [a.format(**names) for a in args]
    done = run(*args, cwd=tmp_path)
    assert done.returncode == 2
    lines = done.stderr.strip().splitlines()
    assert lines[-1].startswith(expected.format(**names)), done.stderr
    assert "Traceback" not in done.stderr


QRELS = "q1 0 d1 2\nq1 0 d2 0\nq1 0 d3 1\nq2 0 d9 1\nq3 0 d4 1\n"
RUN = "q1 Q0 d2 1 3.0 t\nq1 Q0 d1 2 2.0 t\nq1 Q0 d3 3 1.0 t\nq2 Q0 d8 1 5.0 t\nq2 Q0 d9 2 4.0 t\n"


def test_trec_formats_and_gzip(tmp_path: Path) -> None:
    import gzip

    qrels, run_file = tmp_path / "q.qrels.gz", tmp_path / "r.run"
    with gzip.open(qrels, "wt", encoding="utf-8") as out:
        out.write(QRELS)
    run_file.write_text(RUN, encoding="utf-8")
    table = run("trec", str(qrels), str(run_file), "-m", "P@2", "-m", "RR")
    assert table.returncode == 0, table.stderr
    assert table.stdout.splitlines()[:2] == ["P@2  0.5000", "RR   0.5000"]
    assert "2 queries, 1 judged queries not in the run (skipped)" in table.stdout
    zero = run("trec", str(qrels), str(run_file), "-m", "RR", "--missing", "zero", "--format", "json")
    payload = json.loads(zero.stdout)
    assert payload["means"]["RR"] == pytest.approx(1 / 3) and payload["queries"] == 3
    per_query = run("trec", str(qrels), str(run_file), "-m", "RR", "--per-query", "--format", "trec")
    assert per_query.stdout.splitlines() == [
        "RR                    \tq1\t0.5000",
        "RR                    \tq2\t0.5000",
        "RR                    \tall\t0.5000",
    ]


def test_the_command_ends_without_the_last_collection_and_main_leaves_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from ragrecall.cli import _main

    qrels, run_file = tmp_path / "q.qrels", tmp_path / "r.run"
    qrels.write_text(QRELS, encoding="utf-8")
    run_file.write_text(RUN, encoding="utf-8")
    frozen: list[str] = []
    monkeypatch.setattr(_main.gc, "freeze", lambda: frozen.append(capsys.readouterr().out))
    monkeypatch.setattr(sys, "argv", ["ragrecall", "trec", str(qrels), str(run_file), "-m", "P@2"])
    assert _main.console() == 0
    assert len(frozen) == 1 and frozen[0].startswith("P@2  0.5000")  # frozen once, after the output was written
    assert _main.main(["trec", str(qrels), str(run_file), "-m", "P@2"]) == 0
    assert len(frozen) == 1  # the function that tests and embedding hosts call leaves the collector alone
    # The installed command and `python -m ragrecall.cli` are the entry that freezes, and print the same.
    module = subprocess.run(
        [sys.executable, "-m", "ragrecall.cli", "trec", str(qrels), str(run_file), "-m", "P@2"],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert module.returncode == 0 and module.stdout == run("trec", str(qrels), str(run_file), "-m", "P@2").stdout
    assert module.stdout.startswith("P@2  0.5000")


def test_eval_offline_with_ranking_measures_and_dry_run(tmp_path: Path) -> None:
    data = tmp_path / "data.jsonl"
    rows = [
        {
            "id": "a",
            "reference": "Paris is in France. It has the Eiffel Tower.",
            "retrieved_contexts": ["Paris is in France."],
            "retrieved_context_ids": ["d1", "d2"],
            "reference_context_ids": ["d2"],
        },
        {
            "id": "b",
            "reference": "Rome is in Italy.",
            "retrieved_contexts": ["Rome is in Italy."],
            "retrieved_context_ids": ["d3"],
            "reference_context_ids": ["d3"],
        },
    ]
    data.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    done = run(
        "eval", str(data), "-m", "context_recall", "-m", "nDCG@10", "--offline", "--out", str(tmp_path / "o.jsonl")
    )
    assert done.returncode == 0, done.stderr
    # Too short to be decided word for word ("Paris is in France." has two content terms): both go to the judge.
    line = (
        "context_recall: 3 claims, 2 supported; verdicts 0 stated, 2 verified, 0 corrected, 0 unverified, 0 contested;"
    )
    assert line in done.stdout
    out = [json.loads(line) for line in (tmp_path / "o.jsonl").read_text(encoding="utf-8").splitlines()]
    assert [r["results"]["context_recall"]["value"] for r in out] == [0.5, 1.0]
    quote = out[0]["results"]["context_recall"]["evidence"]["claims"][0]["support"][0]
    assert (quote["passage"], quote["start"], quote["end"]) == ("Paris is in France.", 0, 19)
    strict = run(
        "eval", str(data), "-m", "context_recall(quote_threshold=1.0,unverified=fail)", "--offline", "--no-progress"
    )
    assert strict.returncode == 0, strict.stderr
    assert out[0]["results"]["nDCG@10"]["value"] == pytest.approx(1 / __import__("math").log2(3))
    dry = run(
        "eval",
        str(data),
        "-m",
        "context_recall",
        "-m",
        "context_recall(mode=single)",
        "--dry-run",
        "--model",
        "gpt-4o-mini",
    )
    assert dry.returncode == 0, dry.stderr
    assert "nothing sent" in dry.stdout and "LLM requests: 6" in dry.stdout
    assert "estimated cost for gpt-4o-mini: $" in dry.stdout


def test_eval_against_an_openai_compatible_server_then_replay_offline(tmp_path: Path) -> None:
    import os

    from ragrecall.llm.fake_server import FakeOpenAIServer

    data = tmp_path / "data.jsonl"
    rows = [
        {"id": f"s{i}", "reference": f"Fact {i} holds. Fact {i + 1} too.", "retrieved_contexts": [f"Fact {i} holds."]}
        for i in range(4)
    ]
    data.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    secret = "sk-test-never-written-anywhere"
    env = {**os.environ, "MY_KEY": secret}
    cache = tmp_path / "cache"
    with FakeOpenAIServer() as server:
        args = [
            str(SCRIPT),
            "eval",
            str(data),
            "-m",
            "context_recall",
            "--model",
            "gpt-4o-mini",
            "--base-url",
            server.base_url,
            "--api-key-env",
            "MY_KEY",
            "--cache",
            str(cache),
            "--out",
            str(tmp_path / "live.jsonl"),
            "--no-progress",
        ]
        live = subprocess.run(args, capture_output=True, text=True, env=env, timeout=120)
        assert live.returncode == 0, live.stderr
        assert len(server.requests) == 8
        base_url = server.base_url
    # The command closed its cache: no journal is left beside it, and the file alone holds every reply.
    assert sorted(p.name for p in cache.iterdir()) == ["ragrecall-cache.sqlite"]
    alone = tmp_path / "alone.sqlite"
    alone.write_bytes((cache / "ragrecall-cache.sqlite").read_bytes())
    with contextlib.closing(sqlite3.connect(alone)) as db:
        assert db.execute("SELECT COUNT(*) FROM responses").fetchone() == (8,)
    # The server is gone: a replay answers every request from the cache.
    args = [
        str(SCRIPT),
        "eval",
        str(data),
        "-m",
        "context_recall",
        "--model",
        "gpt-4o-mini",
        "--base-url",
        base_url,
        "--api-key-env",
        "MY_KEY",
        "--replay",
        str(cache),
        "--out",
        str(tmp_path / "replay.jsonl"),
    ]
    replay = subprocess.run(args, capture_output=True, text=True, env=env, timeout=120)
    assert replay.returncode == 0, replay.stderr
    assert "0 LLM requests (8 cached)" in replay.stdout
    live_values = [json.loads(line)["results"]["context_recall"]["value"] for line in (tmp_path / "live.jsonl").open()]
    replay_values = [
        json.loads(line)["results"]["context_recall"]["value"] for line in (tmp_path / "replay.jsonl").open()
    ]
    assert live_values == replay_values == [0.5] * 4
    for path in tmp_path.rglob("*"):
        if path.is_file():
            assert secret.encode() not in path.read_bytes(), path


def test_a_replay_miss_fails_the_run(tmp_path: Path) -> None:
    import os

    from ragrecall.llm import ResponseCache

    data = tmp_path / "data.jsonl"
    data.write_text(
        '{"id": "a", "reference": "Paris is in France.", "retrieved_contexts": ["Paris."]}\n', encoding="utf-8"
    )
    ResponseCache(tmp_path / "empty.sqlite").close()
    args = [
        str(SCRIPT),
        "eval",
        str(data),
        "-m",
        "context_recall",
        "--model",
        "gpt-4o-mini",
        "--api-key-env",
        "K",
        "--base-url",
        "http://127.0.0.1:9/v1",
        "--replay",
        str(tmp_path / "empty.sqlite"),
        "--no-progress",
    ]
    done = subprocess.run(args, capture_output=True, text=True, env={**os.environ, "K": "sk-x"}, timeout=120)
    assert done.returncode == 2
    last = done.stderr.strip().splitlines()[-1]
    assert last.startswith("ragrecall: error: 1 of 1 sample-metric pairs failed; first: sample 0 (id='a'), ")
    assert "CacheMissError: replay-only cache" in last


def test_output_paths_are_checked_before_any_request(tmp_path: Path) -> None:
    import os

    from ragrecall.llm.fake_server import FakeOpenAIServer

    data = tmp_path / "data.jsonl"
    data.write_text('{"id": "s1", "reference": "Fact one.", "retrieved_contexts": ["Fact one."]}\n', encoding="utf-8")
    original = data.read_bytes()
    env = {**os.environ, "MY_KEY": "sk-test"}
    checkpoint = tmp_path / "run.ckpt"
    cases = [
        (["--out", str(data)], f"--out {data} is the dataset {data}; refusing to overwrite it"),
        (["--out", str(tmp_path / "missing" / "o.jsonl")], f"the folder {tmp_path / 'missing'} does not exist"),
        (["--checkpoint", str(data)], f"--checkpoint {data} is the dataset {data}"),
        (["--checkpoint", str(checkpoint), "--out", str(checkpoint)], f"--out {checkpoint} is the checkpoint"),
        (["--checkpoint", str(tmp_path / "nowhere" / "run.ckpt")], "nowhere does not exist"),
        (["--cache", str(tmp_path / "c.sqlite"), "--out", str(tmp_path / "c.sqlite")], "is the response cache"),
    ]
    with FakeOpenAIServer() as server:
        for flags, message in cases:
            args = [str(SCRIPT), "eval", str(data), "-m", "context_recall", "--model", "gpt-4o-mini"]
            args += ["--base-url", server.base_url, "--api-key-env", "MY_KEY", "--no-progress", *flags]
            done = subprocess.run(args, capture_output=True, text=True, env=env, timeout=120)
            assert done.returncode == 2, (flags, done.stderr)
            lines = done.stderr.strip().splitlines()
            assert len(lines) == 1 and lines[0].startswith("ragrecall: error: ") and message in lines[0], flags
            assert "Traceback" not in done.stderr
        assert server.requests == []  # no LLM bill for a path that could not be written
    assert data.read_bytes() == original and not checkpoint.exists()


def test_report_and_demo_check_their_output_path(data: Path, tmp_path: Path) -> None:
    results = tmp_path / "results.jsonl"
    assert run("eval", str(data), "-m", "id_based_context_recall", "--out", str(results)).returncode == 0
    before = results.read_bytes()
    done = run("report", str(results), "-o", str(results))
    assert done.returncode == 2
    expected = f"ragrecall: error: -o {results} is the results file {results}; refusing to overwrite it"
    assert done.stderr.strip() == expected
    assert results.read_bytes() == before
    done = run("demo", "--out", str(tmp_path / "missing" / "demo.jsonl"))
    assert done.returncode == 2 and "missing does not exist" in done.stderr and done.stdout == ""


def test_a_checkpoint_that_is_not_one_is_refused_untouched(data: Path, tmp_path: Path) -> None:
    config = tmp_path / "config.json"
    config.write_text('{"model": "gpt-4o-mini"}', encoding="utf-8")  # json.dump: no newline at the end
    done = run("eval", str(data), "-m", "id_based_context_recall", "--checkpoint", str(config), "--no-progress")
    assert done.returncode == 2
    assert done.stderr.strip().startswith(f"ragrecall: error: {config} is not a ragrecall checkpoint")
    assert config.read_text(encoding="utf-8") == '{"model": "gpt-4o-mini"}'


def test_a_checkpoint_in_use_is_refused_naming_its_holder(data: Path, tmp_path: Path) -> None:
    import fcntl
    import os
    import socket

    checkpoint = tmp_path / "run.ckpt"
    with open(tmp_path / "run.ckpt.lock", "w", encoding="utf-8") as lock:
        fcntl.flock(lock.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
        pid, host = os.getpid(), socket.gethostname()
        lock.write(json.dumps({"lock": "ragrecall", "pid": pid, "host": host, "started": "2025-06-01T02:00:00+00:00"}))
        lock.flush()
        done = run("eval", str(data), "-m", "id_based_context_recall", "--checkpoint", str(checkpoint))
    assert done.returncode == 2
    assert done.stderr.strip().startswith(
        f"ragrecall: error: {checkpoint} is in use by another run (pid {pid} on {host}, started 2025-06-01T02:00:00"
    )
    assert not checkpoint.exists()


def test_nothing_to_evaluate_exits_2(tmp_path: Path) -> None:
    empty = tmp_path / "empty.jsonl"
    empty.write_text("", encoding="utf-8")
    done = run("eval", str(empty), "-m", "id_based_context_recall", "--fail-under", "id_based_context_recall=0.5")
    assert done.returncode == 2
    assert done.stderr.strip() == f"ragrecall: error: the dataset ({empty}) is empty: there is nothing to evaluate"
    qrels, run_file = tmp_path / "q.qrels", tmp_path / "r.run"
    qrels.write_text(QRELS, encoding="utf-8")
    run_file.write_text("x1 Q0 d1 1 2.0 t\n", encoding="utf-8")
    for missing in ("skip", "zero"):
        done = run("trec", str(qrels), str(run_file), "-m", "AP", "--missing", missing)
        assert done.returncode == 2 and done.stdout == ""
        assert done.stderr.strip() == (
            f"ragrecall: error: no query of the run ({run_file}) is in the judgments ({qrels}): "
            "there is nothing to evaluate (3 judged queries)"
        )


def test_damaged_input_files_end_with_one_line_and_exit_2(tmp_path: Path) -> None:
    import gzip

    rows = "".join(
        json.dumps({"id": f"q{i}", "retrieved_context_ids": ["a"], "reference_context_ids": ["a"]}) + "\n"
        for i in range(5000)
    )
    packed = gzip.compress(rows.encode("utf-8"))
    cut = tmp_path / "data.jsonl.gz"
    cut.write_bytes(packed[: len(packed) // 2])
    deep = tmp_path / "deep.jsonl"
    deep.write_text('{"id": "q1", "metadata": {"x": ' + "[" * 50_000 + "]" * 50_000 + "}}\n", encoding="utf-8")
    big = tmp_path / "big.csv"
    header = "id,reference,retrieved_context_ids,reference_context_ids\n"
    big.write_text(header + "q1," + "word " * 40_000 + ',"[""a""]","[""a""]"\n', encoding="utf-8")
    run_gz = tmp_path / "run.gz"
    packed = gzip.compress("".join(f"q1 Q0 d{i} {i + 1} {1 / (i + 1)!r} t\n" for i in range(20_000)).encode())
    run_gz.write_bytes(packed[: len(packed) // 2])
    qrels = tmp_path / "q.qrels"
    qrels.write_text("q1 0 d5 1\n", encoding="utf-8")
    for args, expected in [
        (["eval", str(cut), "-m", "id_based_context_recall"], f"ragrecall: error: {cut}:"),
        (["eval", str(deep), "-m", "id_based_context_recall"], f"ragrecall: error: {deep}:1: JSON nested deeper"),
        (["trec", str(qrels), str(run_gz), "-m", "AP"], f"ragrecall: error: {run_gz}:"),
    ]:
        done = run(*args)
        assert done.returncode == 2, done.stderr
        assert done.stderr.count("\n") == 1 and done.stderr.startswith(expected), done.stderr
    assert "truncated or corrupt gzip data" in run(*["eval", str(cut), "-m", "id_based_context_recall"]).stderr
    done = run("eval", str(big), "-m", "id_based_context_recall", "--no-progress")  # a 200 KB cell loads
    assert done.returncode == 0, done.stderr


@pytest.mark.parametrize(
    "args",
    [["demo"], ["eval", "{data}", "-m", "id_based_context_recall", "--no-progress", "--out", "{out}"]],
)
def test_a_reader_that_goes_away_ends_the_command_quietly(args: list[str], data: Path, tmp_path: Path) -> None:
    if not SCRIPT.exists():
        pytest.skip(f"the console script is not installed next to {sys.executable}")
    out = tmp_path / "out.jsonl"
    command = [str(SCRIPT), *(a.format(data=data, out=out) for a in args)]
    # As `ragrecall demo | head -0`: the reader is gone before the first line is written.
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert process.stdout is not None and process.stderr is not None
    process.stdout.close()
    stderr = process.stderr.read().decode()
    assert process.wait(timeout=120) == 141
    assert stderr == ""
    if "--out" in args:  # the results were written all the same
        assert len(out.read_text(encoding="utf-8").splitlines()) == 3
    # As `ragrecall demo | head -1`, through a shell: no error, whatever the timing.
    piped = subprocess.run(
        ["bash", "-c", " ".join(f"'{c}'" for c in command) + " | head -1"], capture_output=True, text=True, timeout=120
    )
    assert piped.returncode == 0 and piped.stderr == "" and len(piped.stdout.splitlines()) == 1


def test_empty_claim_lists_fail_the_run_unless_max_failed_allows_them(tmp_path: Path) -> None:
    import os

    from ragrecall.llm._prompts import read_data_blocks
    from ragrecall.llm.fake_server import FakeOpenAIServer, ServerReply, offline_responder

    answer = offline_responder()

    def glitchy(body: Any) -> ServerReply:
        # A model that lists no claim for every reference marked "glitch", however often it is asked.
        first = next(str(m["content"]) for m in body["messages"] if m["role"] == "user")
        decomposing = not {b.tag for b in read_data_blocks(first)} & {"context", "claim"}
        return ServerReply(json.dumps({"claims": []})) if decomposing and "glitch" in first else answer(body)

    data = tmp_path / "data.jsonl"
    references = [f"Fact {i} holds{' (glitch)' if i % 5 == 0 else ''}." for i in range(10)]
    rows = [
        {"id": f"s{i}", "reference": r, "retrieved_contexts": ["Something else entirely."] if i == 3 else [r]}
        for i, r in enumerate(references)
    ]
    data.write_text("".join(json.dumps(row) + "\n" for row in rows), encoding="utf-8")
    with FakeOpenAIServer(glitchy) as server:
        base = [str(SCRIPT), "eval", str(data), "-m", "context_recall(coverage=false)", "--model", "gpt-4o-mini"]
        base += ["--base-url", server.base_url, "--api-key-env", "K", "--no-progress"]
        env = {**os.environ, "K": "sk-test"}

        def cli(*more: str) -> subprocess.CompletedProcess[str]:
            return subprocess.run([*base, *more], capture_output=True, text=True, env=env, timeout=120)

        default = cli()
        within = cli("--max-failed", "2", "--fail-under", "context_recall=0.8")
        over = cli("--max-failed", "1")
        bound_still_applies = cli("--max-failed", "2", "--fail-under", "context_recall=0.9")
    header, row = default.stdout.splitlines()[:2]
    assert header.split()[:7] == ["metric", "mean", "95%", "CI", "scored", "unscorable", "failed"]
    assert row.split()[0] == "context_recall(coverage=false)" and row.split()[-4:-1] == ["8", "0", "2"]
    assert default.returncode == 2  # the default --max-failed is 0
    last = default.stderr.strip().splitlines()[-1]
    assert last.startswith(
        "ragrecall: error: 2 of 10 sample-metric pairs failed; first: sample 0 (id='s0'), "
        "context_recall(coverage=false): "
        "NoClaimsError: the reference has text but no claims were obtained after 3 attempts"
    )
    assert within.returncode == 0, within.stderr  # 2 failures do not exceed --max-failed 2
    assert "2 of 10 sample-metric pairs failed, within --max-failed 2" in within.stderr
    assert over.returncode == 2 and "failed (more than --max-failed 1); first: sample 0" in over.stderr
    assert bound_still_applies.returncode == 1
    assert bound_still_applies.stderr.splitlines()[0].startswith(
        "ragrecall: fail-under: context_recall(coverage=false) mean 0.8750 over 8 scored samples "
        "(2 failed, 0 unscorable) is under 0.9"
    )
