"""Long lines: the memory a refused 1 GB line costs, and the time long lines under the limit take.

    python benchmarks/line_limit_bench.py refuse --gb 1
    python benchmarks/line_limit_bench.py linear --mb 8,16,32

``refuse`` runs the command line on a judgments file whose second line is ``--gb`` GB long — on standard
input (written by this script in pieces, so the writer holds little), as a file, and as a JSONL dataset —
and reports each command's exit code, first error line, wall time and peak resident memory (the child's
``ru_maxrss``). ``linear`` reads judgments holding one document ID of each size (under the limit) and
reports the read time per MB: the same figure at every size means linear time.
"""

from __future__ import annotations

import argparse
import ast
import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

PIECE = b"x" * (1 << 20)


def measured(args: list[str], feed: int | None = None) -> tuple[int, str, float, float]:
    """Exit code, first stderr line, seconds and peak RSS (MB) of ``ragrecall args`` (with ``feed`` MB of one
    line on standard input)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    started = time.perf_counter()
    command = [sys.executable, "-m", "ragrecall.cli", *args]
    with subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE) as proc:
        assert proc.stdin is not None and proc.stderr is not None
        if feed is not None:
            try:
                proc.stdin.write(b"q1 0 d1 1\nq1 0 ")
                for _ in range(feed):
                    proc.stdin.write(PIECE)
                proc.stdin.write(b" 1\n")
            except BrokenPipeError:
                pass  # refused before the end: what is measured
        proc.stdin.close()
        err = proc.stderr.read().decode()
        code = proc.wait()
    seconds = time.perf_counter() - started
    peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    return code, (err.splitlines() or [""])[0][:150], seconds, max(peak, before) / 1024


def refuse(gb: float) -> None:
    mb = int(gb * 1024)
    folder = Path(tempfile.mkdtemp())
    run = folder / "run.txt"
    run.write_text("q1 Q0 d1 1 1.0 r\n")
    qrels = folder / "qrels.txt"
    with qrels.open("wb") as out:
        out.write(b"q1 0 d1 1\nq1 0 ")
        for _ in range(mb):
            out.write(PIECE)
        out.write(b" 1\n")
    data = folder / "data.jsonl"
    with data.open("wb") as out:
        out.write(json.dumps({"reference_context_ids": ["a"], "retrieved_context_ids": ["a"]}).encode() + b"\n")
        out.write(b'{"reference_context_ids": ["')
        for _ in range(mb):
            out.write(PIECE)
        out.write(b'"], "retrieved_context_ids": ["a"]}\n')
    cases = [
        ("trec, judgments on standard input", ["trec", "-", str(run)], mb),
        ("trec, judgments file", ["trec", str(qrels), str(run)], None),
        ("eval, JSONL dataset", ["eval", str(data), "-m", "id_based_context_recall", "--no-progress"], None),
    ]
    # Each case in a fresh measuring process, so that ru_maxrss is that command's own peak.
    for label, args, feed in cases:
        code = f"import benchmarks.line_limit_bench as b; print(b.measured({args!r}, {feed!r}))"
        out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=_root(), check=True)
        exit_code, line, seconds, peak = ast.literal_eval(out.stdout)
        print(f"{label}: {gb:g} GB line: exit {exit_code}, {seconds:.1f} s, peak RSS {peak:.0f} MB: {line}")
    for path in (qrels, data):
        path.unlink()


def linear(sizes: list[int]) -> None:
    from ragrecall.ranking import read_qrels

    folder = Path(tempfile.mkdtemp())
    for mb in sizes:
        path = folder / f"qrels-{mb}.txt"
        path.write_bytes(b"q1 0 d1 1\nq1 0 " + PIECE * mb + b" 1\n")
        started = time.perf_counter()
        read_qrels(path)
        seconds = time.perf_counter() - started
        print(f"one {mb} MB document ID: read in {seconds:.2f} s, {seconds / mb * 1000:.1f} ms per MB")
        path.unlink()


def _root() -> str:
    return os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("scenario", choices=["refuse", "linear"])
    parser.add_argument("--gb", type=float, default=1.0)
    parser.add_argument("--mb", default="8,16,32")
    args = parser.parse_args()
    if args.scenario == "refuse":
        refuse(args.gb)
    else:
        linear([int(x) for x in args.mb.split(",")])


if __name__ == "__main__":
    main()
