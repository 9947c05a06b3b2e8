"""``ragrecall trec`` on a small plain run is evaluated without numpy, and prints exactly what the numpy path
prints: on trec_eval's own test files, on randomised runs, and on every input the small path hands over."""

from __future__ import annotations

import gzip
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from helpers.small_path import assert_same_bits, took_small
from ragrecall._files import MAX_LINE_ENV
from ragrecall.cli import _trec
from ragrecall.cli._main import main
from ragrecall.ranking import small_run
from ragrecall.ranking._source import THREADS_ENV
from ragrecall.ranking.small_run import OFFICIAL, SMALL_RUN_BYTES, evaluate_small

SUITE = Path(__file__).parent / "trec_eval_suite"


def _both(args: list[str], capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> tuple[str, str]:
    """The command's output (and errors) as run, and as the numpy path prints them."""
    code = main(["trec", *args])
    small = capsys.readouterr()
    with monkeypatch.context() as patch:
        patch.setattr(_trec, "_official_only", lambda _args: False)
        numpy_code = main(["trec", *args])
        full = capsys.readouterr()
    assert code == numpy_code
    return small.out + small.err, full.out + full.err


def test_trec_evals_default_test_is_evaluated_without_numpy_byte_for_byte(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    taken = took_small(monkeypatch)
    assert main(["trec", str(SUITE / "qrels.test"), str(SUITE / "results.test")]) == 0
    assert capsys.readouterr().out == (SUITE / "out.test").read_text()
    assert taken == [True]


@pytest.mark.parametrize(
    ("flags", "results", "plain"),
    [
        (["-q"], "results.test", True),
        (["-q", "-n"], "results.test", True),
        (["-m", "official"], "results.test", True),
        (["-q", "-l2", "-J", "-M100"], "results.test", True),
        (["-q", "-c"], "results.trunc", True),  # words after the six fields, read past
    ],
)
def test_trec_evals_test_files_print_as_on_the_numpy_path(
    flags: list[str],
    results: str,
    plain: bool,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    taken = took_small(monkeypatch)
    small, full = _both([*flags, str(SUITE / "qrels.test"), str(SUITE / results)], capsys, monkeypatch)
    assert small == full
    assert taken == [plain]
    assert small.count("\n") >= 29


_SCORES = ("{:.3f}", "{:.0f}", "{:e}", "{:+.2f}", "{:.1f}", "{:.1f}e37")  # the last one past float32's range


def _random_files(folder: Path, seed: int) -> tuple[Path, Path]:
    """Graded -1..3 judgments; runs with ties, unjudged documents, relevant documents past rank 1,000, queries
    on one side only, queries with nothing relevant, blank lines, tabs and CRLF ends, scores written six ways
    (some past float32's range),
    words after the sixth field."""
    rng = np.random.default_rng(seed)
    qrels, run = [], []
    for q in range(int(rng.integers(1, 12))):
        qid = f"q{q:02d}"
        pool = int(rng.integers(1050, 1200)) if q == 0 else int(rng.integers(1, 150))
        if q % 5 != 4:
            for d in rng.choice(pool, int(rng.integers(1, min(pool, 40) + 1)), replace=False):
                grade = int(rng.integers(-1, 4)) if q % 3 or q == 0 else 0
                qrels.append(f"{qid} 0 doc{d} {grade}")
        if q % 7 != 6:
            fmt = _SCORES[int(rng.integers(len(_SCORES)))]
            retrieved = pool if q == 0 and seed % 2 else int(rng.integers(1, pool + 1))  # past rank 1,000
            for d in rng.choice(pool, retrieved, replace=False):
                score = float(rng.integers(0, 6)) / 2 if q % 2 else float(rng.normal() * 10)
                tail = " more words" if seed % 5 == 2 else ""  # trec_eval reads past words after the sixth field
                run.append(f"{qid}\tQ0 doc{d} {int(rng.integers(1, 9))} {fmt.format(score)} run{seed}{tail}")
    rng.shuffle(qrels)
    end = "\r\n" if seed % 4 == 1 else "\n"
    (folder / "qrels").write_text(end.join(qrels) + end + ("\n" if seed % 3 == 0 else ""), newline="")
    (folder / "run").write_text(end.join(run) + end, newline="")
    return folder / "qrels", folder / "run"


@pytest.mark.parametrize("seed", range(40))
def test_random_runs_print_as_on_the_numpy_path(
    seed: int, tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    qrels, run = _random_files(tmp_path, seed)
    taken = took_small(monkeypatch)
    small, full = _both(["-q", str(qrels), str(run)], capsys, monkeypatch)
    assert small == full
    if "error" not in full:  # a run none of whose queries is judged is the numpy path's error to report
        assert taken == [True]
        assert "\tall\t" in small
        assert_same_bits(qrels, run)


_FLAGS = [
    ["-c"],
    ["-l", "2"],
    ["-M", "7"],
    ["-J"],
    ["--missing", "zero"],
    ["-N", "50"],
    ["-c", "-J", "-M", "20", "-l", "2"],
]


@pytest.mark.parametrize("flags", _FLAGS, ids=" ".join)
@pytest.mark.parametrize("seed", range(40, 52))
def test_random_runs_with_trec_evals_flags_print_as_on_the_numpy_path(
    flags: list[str],
    seed: int,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    qrels, run = _random_files(tmp_path, seed)
    taken = took_small(monkeypatch)
    small, full = _both(["-q", *flags, str(qrels), str(run)], capsys, monkeypatch)
    assert small == full
    if "error" not in full:
        assert taken == [True]
        assert "\tall\t" in small


@pytest.mark.parametrize(
    ("qrels_text", "run_text"),
    [
        ("# a comment\nq1 0 d1 1\n", "q1 Q0 d1 1 1.0 r\n"),
        ("q1 0 d1 1 extra\n", "q1 Q0 d1 1 1.0 r\n"),
        ("q1 0 d1 1\n", "q1 Q0 d1 1 1.0\n"),
        ("q1 0 d1 1\n", "q1 Q0 d1 1 1.0 r\nq1 Q0 d1 2 0.5 r\n"),
        ("q1 0 d1 1\nq1 0 d1 0\n", "q1 Q0 d1 1 1.0 r\n"),
        ("q1 0 d1 1\n", "q1 Q0 d1 1 1_0 r\n"),
        ("q1 0 d1 1\n", "q1 Q0 d1 1 nan r\n"),
        ("q1 0 d1 1\n", "q1 Q0 d1 1 inf r\n"),
        ("q1 0 d1 1\n", "q1 Q0 d1 1 0x1p3 r\n"),
        ("q1 0 d1 1.5\n", "q1 Q0 d1 1 1.0 r\n"),
        ("q1 0 d1 99999999999999999999\n", "q1 Q0 d1 1 1.0 r\n"),
        ("q1 0 dé 1\n", "q1 Q0 dé 1 1.0 r\n"),
        ("q1 0 d1 1\n", "\ufeffq1 Q0 d1 1 1.0 r\n"),
        ("q1 0 d1 1\n", "q1 Q0 d1 1 1.0\x0cr\n"),
        ("q1 0 d1 1\n", ""),
        ("", "q1 Q0 d1 1 1.0 r\n"),
        ("q2 0 d1 1\n", "q1 Q0 d1 1 1.0 r\n"),
    ],
    ids=[
        "comment",
        "qrels-extra-field",
        "run-five-fields",
        "run-duplicate",
        "qrels-duplicate",
        "underscore",
        "nan",
        "inf-word",
        "hex-float",
        "fractional-grade",
        "grade-past-64-bits",
        "non-ascii",
        "bom",
        "form-feed",
        "empty-run",
        "empty-qrels",
        "nothing-judged",
    ],
)
def test_files_that_are_not_plain_are_handed_to_the_numpy_path(
    qrels_text: str,
    run_text: str,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    (tmp_path / "qrels").write_text(qrels_text, encoding="utf-8")
    (tmp_path / "run").write_text(run_text, encoding="utf-8")
    assert evaluate_small(str(tmp_path / "qrels"), str(tmp_path / "run")) is None
    small, full = _both(["-q", str(tmp_path / "qrels"), str(tmp_path / "run")], capsys, monkeypatch)
    assert small == full


def test_large_compressed_and_missing_files_are_handed_over(tmp_path: Path) -> None:
    qrels = tmp_path / "qrels"
    qrels.write_text("q1 0 d1 1\n")
    big = tmp_path / "big"
    line = b"q1 Q0 d%d 1 1.0 r\n"
    big.write_bytes(b"".join(line % i for i in range(SMALL_RUN_BYTES // 16 + 1)))
    assert big.stat().st_size > SMALL_RUN_BYTES
    assert evaluate_small(str(qrels), str(big)) is None
    assert evaluate_small(str(big), str(tmp_path / "absent")) is None
    judged = tmp_path / "judged"
    judged.write_bytes(b"".join(b"q1 0 d%d 1\n" % i for i in range(SMALL_RUN_BYTES // 10 + 1)))
    assert judged.stat().st_size > SMALL_RUN_BYTES
    (tmp_path / "run").write_text("q1 Q0 d1 1 1.0 r\n")
    assert evaluate_small(str(judged), str(tmp_path / "run")) is None
    packed = tmp_path / "run.gz"
    packed.write_bytes(gzip.compress(b"q1 Q0 d1 1 1.0 r\n"))
    assert evaluate_small(str(qrels), str(packed)) is None
    assert evaluate_small(str(qrels), str(tmp_path / "absent")) is None
    (tmp_path / "run").write_text("q1 Q0 d1 1 1.0 r\n")
    assert evaluate_small(str(qrels), str(tmp_path / "run")) is not None


def test_only_trec_evals_official_output_takes_the_small_path(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "qrels").write_text("q1 0 d1 1\n")
    (tmp_path / "run").write_text("q1 Q0 d1 1 1.0 r\n")
    files = [str(tmp_path / "qrels"), str(tmp_path / "run")]
    for flags in (["-m", "map"], ["-m", "official", "-m", "ndcg"], ["-m", "AP"], ["--format", "json"]):
        taken = took_small(monkeypatch)
        assert main(["trec", *flags, *files]) == 0
        assert taken == [], flags
    taken = took_small(monkeypatch)
    assert main(["trec", "-q", "-n", "-c", "-l", "1", "-M", "9", "-J", "-N", "3", "--format", "trec", *files]) == 0
    assert taken == [True]


@pytest.mark.parametrize(("level", "n_docs"), [(1, 0), (2, 0), (3, 100)])
def test_the_official_columns_are_the_numpy_paths(level: int, n_docs: int) -> None:
    rows = _trec._rows([], level, n_docs)
    assert [(r.label, r.per_query, r.summary, r.integer) for r in rows] == [
        (label, per_query, summary, integer) for label, per_query, summary, integer in OFFICIAL
    ]
    assert all(getattr(r.measure, "rel", level) == level for r in rows)
    recalls = [r.measure.recall for r in rows if r.label.startswith("iprec")]
    assert recalls == list(small_run._RECALLS)
    cutoffs = [r.measure.cutoff for r in rows if r.label.startswith("P_")]
    assert cutoffs == list(small_run._P_CUTOFFS)
    kinds = {r.label: r.measure.AGGREGATE for r in rows if r.measure is not None}
    assert kinds == {label: small_run._KINDS.get(label, "mean") for label in kinds}
    # The small path names the settings it leaves to the numpy path without importing their modules.
    assert (small_run._MAX_LINE_ENV, small_run._THREADS_ENV) == (MAX_LINE_ENV, THREADS_ENV)


def test_a_small_run_does_not_import_numpy(tmp_path: Path) -> None:
    (tmp_path / "qrels").write_text("q1 0 d1 1\nq1 0 d2 0\n")
    (tmp_path / "run").write_text("q1 Q0 d2 1 2.0 r\nq1 Q0 d1 2 1.0 r\n")
    code = (
        "import sys\nfrom ragrecall.cli import main\n"
        f"assert main(['trec', {str(tmp_path / 'qrels')!r}, {str(tmp_path / 'run')!r}]) == 0\n"
        "print(sorted(m for m in ('numpy', 'pyarrow', 'pydantic', 'dataclasses') if m in sys.modules))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert "map                   \tall\t0.5000\n" in out
    assert out.rstrip().endswith("[]")


def test_scores_past_float32s_range_rank_as_on_the_numpy_path(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "qrels").write_text("q1 0 d1 1\nq1 0 d3 1\n")
    (tmp_path / "run").write_text("q1 Q0 d1 1 -1e39 r\nq1 Q0 d2 2 1e39 r\nq1 Q0 d3 3 3.0e38 r\nq1 Q0 d4 4 -4e38 r\n")
    small, full = _both(["-q", str(tmp_path / "qrels"), str(tmp_path / "run")], capsys, monkeypatch)
    assert small == full
    assert "recip_rank            \tq1\t0.5000\n" in small  # d2 at +inf first, d3 second


@pytest.mark.parametrize(("value", "numpy"), [("2", False), ("0", True), ("abc", True), ("+2", True), ("", False)])
def test_a_thread_count_the_numpy_path_may_refuse_hands_the_files_over(
    value: str, numpy: bool, tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    from ragrecall.ranking._source import THREADS_ENV

    (tmp_path / "qrels").write_text("q1 0 d1 1\n")
    (tmp_path / "run").write_text("q1 Q0 d1 1 1.0 r\n")
    monkeypatch.setenv(THREADS_ENV, value)
    assert (evaluate_small(str(tmp_path / "qrels"), str(tmp_path / "run")) is None) == numpy
    small, full = _both([str(tmp_path / "qrels"), str(tmp_path / "run")], capsys, monkeypatch)
    assert small == full


def test_a_line_limit_of_the_users_hands_the_files_to_the_numpy_path(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    from ragrecall._files import MAX_LINE_ENV

    (tmp_path / "qrels").write_text("q1 0 d1 1\n")
    (tmp_path / "run").write_text("q1 Q0 " + "d" * 40 + " 1 1.0 r\n")
    assert evaluate_small(str(tmp_path / "qrels"), str(tmp_path / "run")) is not None
    monkeypatch.setenv(MAX_LINE_ENV, "30")
    assert evaluate_small(str(tmp_path / "qrels"), str(tmp_path / "run")) is None
    assert main(["trec", str(tmp_path / "qrels"), str(tmp_path / "run")]) == 2
    assert "longer than" in capsys.readouterr().err
