"""Where TREC data comes from: pipes, process substitutions and ``-`` are read once; reader threads are bounded
and settable; truncated gzip from any source names the file; a run sharing no query with the judgments is an
error on the command line too."""

from __future__ import annotations

import gzip
import io
import os
import shutil
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from ragrecall.errors import ConfigurationError, FileFormatError, NothingToEvaluateError
from ragrecall.ranking import _source, evaluate_run, read_qrels, read_run
from ragrecall.ranking._source import reader_threads

QRELS = "1 0 a 1\n1 0 b 0\n2 0 c 1\n2 0 d 2\n"
RUN = "1 Q0 b 1 2.0 t\n1 Q0 a 2 1.5 t\n2 Q0 c 1 2 t\n2 Q0 d 2 1 t\n"
AP = (0.5 + 1.0) / 2  # query 1: the relevant document second; query 2: both relevant documents first


def _cli(*args: str, stdin: bytes | None = None) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run(
        [sys.executable, "-m", "ragrecall.cli", *args], input=stdin, capture_output=True, timeout=120, check=False
    )


def test_a_pipe_is_read_once(tmp_path: Path) -> None:
    (tmp_path / "q").write_text(QRELS)
    fifo = tmp_path / "run.fifo"
    os.mkfifo(fifo)

    def feed() -> None:
        with open(fifo, "w") as out:  # blocks until the reader opens the pipe; a second open would hang
            out.write(RUN)

    writer = threading.Thread(target=feed, daemon=True)  # never holds the test run open
    writer.start()
    result = evaluate_run(tmp_path / "q", fifo, ["AP"])
    writer.join(timeout=10)
    assert result.means["AP"] == pytest.approx(AP)
    assert result.query_ids == ("1", "2")


def test_dash_reads_standard_input(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(gzip.compress(RUN.encode()))))
    assert read_run("-").to_dict() == {"1": {"b": 2.0, "a": 1.5}, "2": {"c": 2.0, "d": 1.0}}
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(QRELS.encode())))
    assert read_qrels("-").to_dict()["2"] == {"c": 1, "d": 2}


def test_piped_run_on_the_command_line(tmp_path: Path) -> None:
    (tmp_path / "q").write_text(QRELS)
    done = _cli("trec", str(tmp_path / "q"), "/dev/stdin", "-m", "AP", "--format", "json", stdin=RUN.encode())
    assert done.returncode == 0, done.stderr
    assert '"AP": 0.75' in done.stdout.decode()


@pytest.mark.skipif(shutil.which("bash") is None, reason="needs bash for <(...)")
def test_process_substitution_on_the_command_line(tmp_path: Path) -> None:
    (tmp_path / "q").write_text(QRELS)
    (tmp_path / "r").write_text(RUN)
    run = f'<(cat "{tmp_path / "r"}")'
    script = f'"{sys.executable}" -m ragrecall.cli trec "{tmp_path / "q"}" {run} -m AP --format json'
    done = subprocess.run(["bash", "-c", script], capture_output=True, timeout=120, check=False)
    assert done.returncode == 0, done.stderr
    assert '"AP": 0.75' in done.stdout.decode()


def test_no_query_in_common_is_an_error_with_exit_2(tmp_path: Path) -> None:
    (tmp_path / "q").write_text(QRELS)
    (tmp_path / "r").write_text("9 Q0 a 1 1 t\n")
    with pytest.raises(NothingToEvaluateError, match="no query of the run"):
        evaluate_run(tmp_path / "q", tmp_path / "r", ["AP"])
    for run in (str(tmp_path / "r"), "/dev/stdin"):
        done = _cli("trec", str(tmp_path / "q"), run, "-m", "AP", stdin=b"9 Q0 a 1 1 t\n")
        assert done.returncode == 2
        err = done.stderr.decode()
        assert err.startswith("ragrecall: error: no query of the run") and "Traceback" not in err
        assert err.count("\n") == 1


def test_an_empty_pipe_is_not_a_score_of_zero(tmp_path: Path) -> None:
    (tmp_path / "q").write_text(QRELS)
    done = _cli("trec", str(tmp_path / "q"), "/dev/stdin", "-m", "AP", stdin=b"")
    assert done.returncode == 2 and b"0.0000" not in done.stdout


def test_truncated_gzip_from_a_pipe_names_it(monkeypatch: pytest.MonkeyPatch) -> None:
    packed = gzip.compress(("".join(f"q{i} Q0 d{i} 1 1 t\n" for i in range(5000))).encode())
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(packed[: len(packed) // 2])))
    with pytest.raises(FileFormatError, match=r"^<stdin>:\d+: truncated or corrupt gzip data") as info:
        read_run("-")
    assert info.value.path == "<stdin>"


def test_truncated_gzip_on_the_command_line(tmp_path: Path) -> None:
    (tmp_path / "q").write_text(QRELS)
    packed = gzip.compress(("".join(f"1 Q0 d{i} 1 1 t\n" for i in range(5000))).encode())
    (tmp_path / "r.gz").write_bytes(packed[: len(packed) // 2])
    done = _cli("trec", str(tmp_path / "q"), str(tmp_path / "r.gz"), "-m", "AP")
    assert done.returncode == 2
    assert done.stderr.decode().startswith(f"ragrecall: error: {tmp_path / 'r.gz'}:")
    assert "truncated or corrupt gzip data" in done.stderr.decode()


def test_reader_threads_default_bounded_and_settable(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(_source.THREADS_ENV, raising=False)
    assert 1 <= reader_threads() <= 4
    assert reader_threads(7) == 7
    monkeypatch.setenv(_source.THREADS_ENV, "3")
    assert reader_threads() == 3 and reader_threads(1) == 1
    for bad in (0, -1, True, 2.5, "2"):
        with pytest.raises(ConfigurationError, match="threads must be a whole number >= 1"):
            reader_threads(bad)  # type: ignore[arg-type]
    monkeypatch.setenv(_source.THREADS_ENV, "many")
    with pytest.raises(ConfigurationError, match="RAGRECALL_THREADS must be a whole number >= 1, got 'many'"):
        reader_threads()


def _noted(count: int, pulled: list[int]) -> Iterator[int]:
    """0 to ``count - 1``, each appended to ``pulled`` as it is taken."""
    for i in range(count):
        pulled.append(i)
        yield i


@pytest.mark.parametrize("workers", [1, 2, 3])
def test_in_threads_calls_started_once_the_first_items_are_handed_out(workers: int) -> None:
    pulled: list[int] = []
    log: list[str] = []

    def started() -> None:
        log.append(f"started after {len(pulled)}")

    results = list(_source.in_threads(lambda i: i * i, _noted(10, pulled), workers, started=started))
    assert results == [i * i for i in range(10)]
    handed = 1 if workers == 1 else 2 * workers  # in this thread, the first item is looked at first
    assert log == [f"started after {handed}"]


@pytest.mark.parametrize(("workers", "held", "most"), [(2, None, 4), (2, 3, 3), (3, 1, 3)])
def test_in_threads_holds_at_most_the_items_asked(workers: int, held: int | None, most: int) -> None:
    pulled: list[int] = []
    ahead: list[int] = []
    for taken, result in enumerate(_source.in_threads(lambda i: i, _noted(20, pulled), workers, held=held), start=1):
        assert result == taken - 1
        ahead.append(len(pulled) - taken + 1)  # handed out and not yet taken, this one included
    assert max(ahead) == most  # never fewer than one per worker


def test_in_threads_stops_when_started_raises() -> None:
    done: list[int] = []
    gate = threading.Event()

    def work(i: int) -> int:
        gate.wait()
        done.append(i)
        return i

    def started() -> None:
        gate.set()
        raise KeyError("judgments")

    with pytest.raises(KeyError, match="judgments"):
        list(_source.in_threads(work, range(100), 2, started=started))
    assert set(done) <= {0, 1, 2, 3}  # the items handed out before the error, at most: none after it


@pytest.mark.parametrize("threads", [1, 2])
def test_readers_use_at_most_the_threads_asked(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, threads: int) -> None:
    pytest.importorskip("pyarrow")
    lines = "".join(f"q{i // 50} Q0 d{i} 1 {i % 7} t\n" for i in range(20_000))
    (tmp_path / "r").write_text(lines)
    (tmp_path / "q").write_text("q1 0 d60 1\n")
    monkeypatch.setattr("ragrecall.ranking._arrow_read._BLOCK_SIZE", (4096, 4096))
    monkeypatch.setattr("ragrecall.ranking._scan._BLOCK_SIZE", 4096)
    reads: list[set[int]] = []  # per read, the threads that did its work
    original = _source.in_threads

    def counting(work: Any, items: Any, workers: int, **kwargs: Any) -> Any:
        assert workers == threads
        seen: set[int] = set()
        reads.append(seen)

        def traced(item: Any) -> Any:
            seen.add(threading.get_ident())
            return work(item)

        return original(traced, items, workers, **kwargs)

    monkeypatch.setattr("ragrecall.ranking._arrow_read.in_threads", counting)
    monkeypatch.setattr("ragrecall.ranking._scan.in_threads", counting)
    assert len(read_run(tmp_path / "r", threads=threads)) == 20_000
    assert len(reads) == 1 and 1 <= len(reads[0]) <= threads  # one pool per read, of at most ``threads``
    reads.clear()
    assert evaluate_run(tmp_path / "q", tmp_path / "r", ["AP"], threads=threads).query_ids == ("q1",)
    assert len(reads) == 2 and all(1 <= len(seen) <= threads for seen in reads)  # the run's read, the judgments'
    with pytest.raises(ConfigurationError):
        read_run(tmp_path / "r", threads=0)


def test_trec_reads_the_qrels_from_standard_input_and_refuses_it_for_both(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    import io
    import sys

    from ragrecall.cli import main

    run = tmp_path / "run"
    run.write_bytes(b"q1 Q0 d1 1 1.0 t\nq1 Q0 d2 2 0.5 t\n")
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(b"q1 0 d2 1\n")))
    assert main(["trec", "-m", "map", "-", str(run)]) == 0
    assert capsys.readouterr().out == "map                   \tall\t0.5000\n"
    for command in ("trec", "ndeval"):
        assert main([command, "-", "-"]) == 2
        assert "standard input ('-') can hold the" in capsys.readouterr().err
