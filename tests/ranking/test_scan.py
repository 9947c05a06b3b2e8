"""Evaluating a run file block by block gives what reading it whole gives, or falls back to that path.

Blocks are made tiny here so that queries straddle the block size, one query fills several blocks, and the
worker threads get many blocks each.
"""

from __future__ import annotations

import gzip
import random
import threading
from pathlib import Path
from typing import Any

import pytest

from ragrecall.errors import FileFormatError, InputError
from ragrecall.ranking import _scan, evaluate_run, read_qrels, read_run
from ragrecall.ranking import evaluate as evaluate_module

pytest.importorskip("pyarrow")

MEASURES = ["Recall@10", "P@5", "RR", "AP", "nDCG@10", "nDCG", "Rprec", "ERR@20", "ExtRR"]


def _rows(seed: int, depth: int | None) -> tuple[list[str], list[tuple[str, str, float]], list[str]]:
    rng = random.Random(seed)
    queries = [str(q) for q in rng.sample(range(1, 400), 20)]
    pool = [f"doc-{i}" if i % 3 else f"é{i:012d}" for i in range(200)]
    rows: list[tuple[str, str, float]] = []
    for q in queries:
        n = depth if depth is not None else rng.randrange(1, 70)
        docs = rng.sample(pool, n)
        scores = [rng.choice([0.0, -0.0, 1.5, 2.0]) if rng.random() < 0.3 else round(rng.gauss(3, 2), 2) for _ in docs]
        rows.extend(sorted(zip([q] * n, docs, scores, strict=True), key=lambda r: -r[2]))
    qrels = [f"{q} 0 {d} {rng.choice([0, 1, 2, 3])}\n" for q in [*queries[2:], "77777"] for d in rng.sample(pool, 15)]
    return queries, rows, qrels


def _files(tmp_path: Path, seed: int = 1, depth: int | None = None, *, shuffle: bool = False) -> tuple[Path, Path]:
    _, rows, qrels = _rows(seed, depth)
    if shuffle:
        random.Random(seed).shuffle(rows)
    run, judged = tmp_path / f"run-{seed}", tmp_path / f"qrels-{seed}"
    run.write_text("".join(f"{q} Q0 {d} {i} {s!r} t\n" for i, (q, d, s) in enumerate(rows)), encoding="utf-8")
    judged.write_text("".join(qrels), encoding="utf-8")
    return judged, run


def _whole(qrels: Path, run: Path, **kwargs: Any) -> Any:
    return evaluate_run(read_qrels(qrels), read_run(run, engine="plain"), MEASURES, per_query=True, **kwargs)


@pytest.fixture(autouse=True)
def block_path_for_small_files(monkeypatch: pytest.MonkeyPatch) -> None:
    """The files here are small enough for the pyarrow-free path; these tests are about the block path."""
    monkeypatch.setattr("ragrecall.ranking.evaluate._SMALL_BYTES", -1)


@pytest.fixture
def used(monkeypatch: pytest.MonkeyPatch) -> list[bool]:
    """Records, per call of scan_run, whether it ranked the file (True) or handed it back (False)."""
    calls: list[bool] = []
    original = _scan.scan_run

    def recording(*args: Any, **kwargs: Any) -> Any:
        parts = original(*args, **kwargs)
        calls.append(parts is not None)
        return parts

    monkeypatch.setattr("ragrecall.ranking.evaluate.scan_run", recording)
    return calls


@pytest.fixture
def qrels_reads(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Records, per reading of the judgments by evaluate_run, how many run blocks were handed out before it."""
    handed = [0]
    reads: list[int] = []
    blocks, read = _scan.blocks, evaluate_module.read_qrels

    def counted_blocks(*args: Any, **kwargs: Any) -> Any:
        for block in blocks(*args, **kwargs):
            handed[0] += 1
            yield block

    def recorded_read(*args: Any, **kwargs: Any) -> Any:
        reads.append(handed[0])
        return read(*args, **kwargs)

    monkeypatch.setattr(_scan, "blocks", counted_blocks)
    monkeypatch.setattr(evaluate_module, "read_qrels", recorded_read)
    return reads


@pytest.mark.parametrize("block", [64, 300, 5000, 1 << 23])
@pytest.mark.parametrize("workers", [1, 4])
@pytest.mark.parametrize("missing", ["skip", "zero"])
def test_blocks_agree_with_the_whole_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, used: list[bool], block: int, workers: int, missing: str
) -> None:
    monkeypatch.setattr(_scan, "_BLOCK_SIZE", block)
    monkeypatch.setenv("RAGRECALL_THREADS", str(workers))
    qrels, run = _files(tmp_path)
    scanned = evaluate_run(qrels, run, MEASURES, per_query=True, missing=missing)  # type: ignore[arg-type]
    whole = _whole(qrels, run, missing=missing)
    assert used == [True]
    assert scanned.query_ids == whole.query_ids
    assert scanned.per_query == whole.per_query
    assert scanned.n_missing == whole.n_missing == 1


def test_gzip_crlf_and_blank_lines(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, used: list[bool]) -> None:
    monkeypatch.setattr(_scan, "_BLOCK_SIZE", 200)
    qrels, run = _files(tmp_path, seed=4, depth=25)
    lines = run.read_text(encoding="utf-8").splitlines()
    text = "\r\n".join(line if i % 40 else line + "\r\n" for i, line in enumerate(lines)) + "\r\n\r\n"
    packed = tmp_path / "run.gz"
    packed.write_bytes(gzip.compress(text.encode("utf-8")))
    scanned = evaluate_run(qrels, packed, MEASURES, per_query=True)
    assert used == [True]
    assert scanned.per_query == _whole(qrels, run).per_query


@pytest.mark.parametrize(("workers", "handed"), [(1, 1), (2, 3)])
def test_a_query_split_across_the_file_falls_back(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, used: list[bool], qrels_reads: list[int], workers: int, handed: int
) -> None:
    monkeypatch.setattr(_scan, "_BLOCK_SIZE", 128)
    monkeypatch.setenv("RAGRECALL_THREADS", str(workers))
    qrels, run = _files(tmp_path, seed=2, shuffle=True)
    scanned = evaluate_run(qrels, run, MEASURES, per_query=True)
    assert used == [False]
    assert qrels_reads == [handed]  # read while the first blocks were parsed, and not again for the fallback
    assert scanned.per_query == _whole(qrels, run).per_query


@pytest.mark.parametrize(("workers", "handed"), [(1, 1), (2, 3), (3, 4)])
def test_workers_parse_while_the_judgments_are_read_and_this_thread_ranks(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    used: list[bool],
    qrels_reads: list[int],
    workers: int,
    handed: int,
) -> None:
    monkeypatch.setattr(_scan, "_BLOCK_SIZE", 128)
    monkeypatch.setenv("RAGRECALL_THREADS", str(workers))
    qrels, run = _files(tmp_path, seed=9, depth=12)
    parsed_in: set[int] = set()
    ranked_in: set[int] = set()
    parse, rank = _scan._parse_block, _scan.rank_part

    def recorded_parse(*args: Any) -> Any:
        parsed_in.add(threading.get_ident())
        return parse(*args)

    def recorded_rank(*args: Any, **kwargs: Any) -> Any:
        ranked_in.add(threading.get_ident())
        return rank(*args, **kwargs)

    monkeypatch.setattr(_scan, "_parse_block", recorded_parse)
    monkeypatch.setattr(_scan, "rank_part", recorded_rank)
    scanned = evaluate_run(qrels, run, MEASURES, per_query=True)
    assert used == [True]
    assert qrels_reads == [handed]  # once: the first block of each worker and one more were handed out
    assert ranked_in == {threading.get_ident()}  # every block ranked in the calling thread
    if workers > 1:
        assert threading.get_ident() not in parsed_in and 1 <= len(parsed_in) <= workers
    assert scanned.per_query == _whole(qrels, run).per_query


def _unreadable(*args: Any, **kwargs: Any) -> Any:
    import pyarrow as pa

    raise pa.ArrowInvalid("judgments at fault")  # a kind of error that hands a run back to the whole-file reader


@pytest.mark.parametrize("workers", [1, 2])
def test_judgments_that_cannot_be_read_stop_the_scan_with_their_error(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, qrels_reads: list[int], workers: int
) -> None:
    import pyarrow as pa

    monkeypatch.setattr(_scan, "_BLOCK_SIZE", 128)
    monkeypatch.setenv("RAGRECALL_THREADS", str(workers))
    qrels, run = _files(tmp_path, seed=10, depth=12)
    qrels.write_text(qrels.read_text(encoding="utf-8") + "5 0 x\n", encoding="utf-8")
    before = threading.active_count()
    with pytest.raises(FileFormatError, match="expected 4 fields") as caught:
        evaluate_run(qrels, run, ["AP"])
    assert caught.value.path == str(qrels)
    assert len(qrels_reads) == 1
    # An error of a kind that would hand the run back still comes out of the scan as it is: read once.
    calls: list[int] = []
    monkeypatch.setattr(evaluate_module, "read_qrels", lambda *a, **k: calls.append(1) or _unreadable())
    with pytest.raises(pa.ArrowInvalid, match="judgments at fault"):
        evaluate_run(qrels, run, ["AP"])
    assert calls == [1]
    assert threading.active_count() == before  # the workers have ended


def test_expected_positions_reach_the_hits(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(_scan, "_BLOCK_SIZE", 256)
    qrels, run = _files(tmp_path, seed=5, depth=20)
    judged = read_qrels(qrels).to_dict()
    positions = {q: {d: 3 for d in docs} for q, docs in judged.items()}
    scanned = evaluate_run(qrels, run, ["ExtRR"], per_query=True, expected_positions=positions)
    whole = evaluate_run(qrels, read_run(run, engine="plain"), ["ExtRR"], per_query=True, expected_positions=positions)
    assert scanned.per_query == whole.per_query
    assert scanned.per_query != evaluate_run(qrels, run, ["ExtRR"], per_query=True).per_query


@pytest.mark.parametrize("block", [64, 1 << 23])
def test_a_repeated_document_is_refused(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, block: int) -> None:
    monkeypatch.setattr(_scan, "_BLOCK_SIZE", block)
    qrels, run = _files(tmp_path, seed=3, depth=30)
    lines = run.read_text(encoding="utf-8").splitlines(keepends=True)
    query, _, doc = lines[-30].split()[:3]
    lines.insert(len(lines) - 2, f"{query} Q0 {doc} 0 -9.5 t\n")
    run.write_text("".join(lines), encoding="utf-8")
    with pytest.raises(InputError, match=f"document {doc!r} twice for query {query!r}"):
        evaluate_run(qrels, run, ["AP"])


@pytest.mark.parametrize(
    ("bad", "message"),
    [
        ("5 Q0 x 1 nan t\n", "score is NaN"),
        ("5 Q0 x 1 t\n", "expected at least 6 fields"),
        ("5 Q0 x 1 high t\n", "not a number"),
    ],
)
def test_a_bad_line_is_reported_with_its_number(tmp_path: Path, bad: str, message: str) -> None:
    qrels, run = _files(tmp_path, seed=6, depth=10)
    lines = run.read_text(encoding="utf-8").splitlines(keepends=True)
    lines.insert(57, bad)
    run.write_text("".join(lines), encoding="utf-8")
    with pytest.raises(FileFormatError, match=message) as caught:
        evaluate_run(qrels, run, ["AP"])
    assert caught.value.line == 58


def test_a_byte_order_mark_at_a_block_start_stays_part_of_the_id(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, used: list[bool]
) -> None:
    first = "1 Q0 a 1 3 t\n"
    (tmp_path / "r").write_text(first + "\ufeff2 Q0 b 1 3 t\n\ufeff2 Q0 c 2 2 t\n", encoding="utf-8")
    (tmp_path / "q").write_text("1 0 a 1\n2 0 b 1\n", encoding="utf-8")
    monkeypatch.setattr(_scan, "_BLOCK_SIZE", len(first) + 3)  # the second query starts the second block
    scanned = evaluate_run(tmp_path / "q", tmp_path / "r", ["AP"], per_query=True)
    assert used == [True]
    assert scanned.query_ids == _whole(tmp_path / "q", tmp_path / "r").query_ids == ("1",)


def test_blank_lines_within_a_query_keep_the_block_path(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, used: list[bool]
) -> None:
    qrels, run = _files(tmp_path, seed=8, depth=12)
    lines = run.read_text(encoding="utf-8").splitlines(keepends=True)
    run.write_text("".join(line + ("\n" if i % 5 == 2 else "") for i, line in enumerate(lines)), encoding="utf-8")
    monkeypatch.setattr(_scan, "_BLOCK_SIZE", 100)
    scanned = evaluate_run(qrels, run, MEASURES, per_query=True)
    assert used == [True]
    assert scanned.per_query == _whole(qrels, run).per_query


def test_small_files_are_ranked_without_pyarrow_and_agree(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import subprocess
    import sys

    qrels, run = _files(tmp_path, seed=5)
    assert run.stat().st_size < 1 << 18
    blocks = evaluate_run(qrels, run, MEASURES, per_query=True)
    monkeypatch.setattr("ragrecall.ranking.evaluate._SMALL_BYTES", 1 << 18)
    small = evaluate_run(qrels, run, MEASURES, per_query=True)
    assert small.query_ids == blocks.query_ids
    assert small.per_query == blocks.per_query
    code = (
        "import sys\n"
        "from ragrecall.ranking import evaluate_run\n"
        f"evaluate_run({str(qrels)!r}, {str(run)!r}, ['AP', 'nDCG@10'])\n"
        "assert 'pyarrow' not in sys.modules, 'a small run imported pyarrow'\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True)


def test_a_run_file_is_evaluated_without_importing_json_or_csv(tmp_path: Path) -> None:
    """The readers' shared module imports them only where they are used (3-4 ms a script would pay)."""
    import subprocess
    import sys

    run, qrels = tmp_path / "run", tmp_path / "qrels"
    run.write_text("".join(f"q{i // 100} Q0 d{i} {i} {i % 7} tag-{i}\n" for i in range(12_000)), encoding="utf-8")
    qrels.write_text("q3 0 d301 1\n", encoding="utf-8")
    assert run.stat().st_size > 1 << 18  # not a small file: the block path
    code = (
        "import sys\n"
        "from ragrecall.ranking import evaluate_run\n"
        f"evaluate_run({str(qrels)!r}, {str(run)!r}, ['AP'], threads=2)\n"
        "assert 'pyarrow' in sys.modules\n"
        "loaded = [m for m in ('json', 'csv') if m in sys.modules]\n"
        "assert not loaded, loaded\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True)
