"""Benchmark: how long ``render_report`` takes, how large the page is and how much memory it takes, as the
run grows — with every sample's inputs embedded — against writing the same results as JSONL (the file the
report is made from), measured in the same run.

Data: the twelve demo samples, repeated with distinct ids to ``--samples``, scored with the demo metrics
(claims by the offline judge, string, ID and ranking recall); the comparison run scores the same samples
with their last retrieved passage dropped. Times are the best of ``--repeat``; peak memory is Python's
allocations during the call (``tracemalloc``).

With ``--command``, the command line is measured too (``--command-only``: it alone), each run in its own
process, rounds interleaved (``--repeat`` rounds): ``ragrecall report FILE`` (the file streamed into the
page), the whole-result path it replaced (``EvaluationResult.from_jsonl`` then ``write_report``, the same
page), and a process that only imports what the command imports for that file (the floor). Wall time, as a
ratio to writing the results file in the same round (``to_jsonl``, the peer), and peak resident memory
(``wait4``, each command started from a small process: a child's peak counts its parent's); memory per sample is
the peak divided by the samples, in all and over the floor's.

    python benchmarks/report_bench.py [--samples 100 1000 5000] [--repeat 3] [--command | --command-only]
        [--out benchmarks/results/report_bench.txt]
"""

from __future__ import annotations

import argparse
import io
import json
import os
import platform
import statistics
import subprocess
import sys
import tempfile
import time
import tracemalloc
from collections.abc import Callable
from typing import Any

from ragrecall import Sample, __version__
from ragrecall.demo import demo_dataset, demo_metrics
from ragrecall.evaluation import EvaluationResult, evaluate
from ragrecall.report import render_report


def samples(n: int) -> list[Sample]:
    demo = list(demo_dataset())
    return [demo[i % len(demo)].model_copy(update={"id": f"s{i}"}) for i in range(n)]


def data(n: int) -> tuple[EvaluationResult, EvaluationResult]:
    samples_ = samples(n)
    weaker = [
        s.model_copy(
            update={
                "retrieved_contexts": (s.retrieved_contexts or [])[:-1],
                "retrieved_context_ids": (s.retrieved_context_ids or [])[:-1],
            }
        )
        for s in samples_
    ]
    new = evaluate(samples_, demo_metrics(), show_progress=False)
    base = evaluate(weaker, demo_metrics(), show_progress=False)
    return base, new


def timed(fn: Callable[[], Any], repeat: int) -> tuple[float, int, Any]:
    """Best wall time over ``repeat`` calls, then the peak of Python allocations in one more call."""
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - start)
    tracemalloc.start()
    out = fn()
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    return best, peak, out


def jsonl(result: EvaluationResult) -> str:
    buffer = io.StringIO()
    result.to_jsonl(buffer)
    return buffer.getvalue()


def _cpu() -> str:
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as handle:
            names = [line.split(":", 1)[1].strip() for line in handle if line.startswith("model name")]
    except OSError:
        names = []
    return names[0] if names else platform.processor() or "unknown processor"


_WHOLE = (
    "import sys\n"
    "from ragrecall.evaluation import EvaluationResult\n"
    "from ragrecall.report import write_report\n"
    "write_report(EvaluationResult.from_jsonl(sys.argv[1]), sys.argv[2])\n"
)
_FLOOR = (
    "import sys\n"
    "import ragrecall.cli._report, ragrecall.evaluation, ragrecall.report\n"
    "from ragrecall.results import Evidence\n"
    "for kind in sys.argv[1:]:\n"
    "    Evidence.of_kind(kind)\n"
)
"""What the command imports for the file: its own modules, then the classes of the evidence kinds the file holds
(the claim recall's loads the LLM stack with its metric's package)."""


_SPAWN = (
    "import json, os, subprocess, sys, time\n"
    "start = time.perf_counter()\n"
    "proc = subprocess.Popen(sys.argv[1:], stdout=subprocess.DEVNULL)\n"
    "_, status, usage = os.wait4(proc.pid, 0)\n"
    "print(json.dumps([status, time.perf_counter() - start, usage.ru_maxrss / 1024]))\n"
)
"""Runs a command and prints its status, wall seconds and peak resident MB. A child's peak counts the memory
of the process it was forked from, so the measured commands are started from this small process, not from
the benchmark holding thousands of results."""


def _process(argv: list[str]) -> tuple[float, float]:
    """Wall seconds and peak resident MB of one process."""
    done = subprocess.run([sys.executable, "-c", _SPAWN, *argv], capture_output=True, text=True, check=True)
    status, seconds, peak = json.loads(done.stdout)
    if status != 0:
        raise SystemExit(f"{argv} failed with status {status}")
    return float(seconds), float(peak)


def command_rows(result: EvaluationResult, n: int, repeat: int) -> list[str]:
    """The command line on a results file of ``n`` samples, against the whole-result path and the floor; each
    round first writes the results file (``to_jsonl``, in this process: the anchor of the time ratios)."""
    kinds = sorted({r.evidence.kind for row in result.rows for r in row.results.values() if r.evidence is not None})
    with tempfile.TemporaryDirectory() as folder:
        results, page = os.path.join(folder, "results.jsonl"), os.path.join(folder, "page.html")
        tools = {
            "ragrecall report FILE (streamed)": [sys.executable, "-m", "ragrecall.cli", "report", results, "-o", page],
            "whole result, then write_report": [sys.executable, "-c", _WHOLE, results, page],
            "imports only (floor)": [sys.executable, "-c", _FLOOR, *kinds],
        }
        runs: dict[str, list[tuple[float, float]]] = {name: [] for name in tools}
        ratios: dict[str, list[float]] = {name: [] for name in tools}
        for _ in range(repeat):
            start = time.perf_counter()
            result.to_jsonl(results)
            anchor = time.perf_counter() - start
            for name, argv in tools.items():
                runs[name].append(_process(argv))
                ratios[name].append(runs[name][-1][0] / anchor)
    floor = statistics.median(mb for _, mb in runs["imports only (floor)"])
    lines = []
    for name, measured in runs.items():
        seconds = sorted(t for t, _ in measured)
        peaks = sorted(mb for _, mb in measured)
        ratio = sorted(ratios[name])
        peak = statistics.median(peaks)
        over = (peak - floor) * 1024 / n
        lines.append(
            f"{n:>8} {name:<34} {statistics.median(seconds):>8.2f} s [{seconds[0]:.2f}-{seconds[-1]:.2f}] "
            f"{statistics.median(ratio):>6.1f}x JSONL [{ratio[0]:.1f}-{ratio[-1]:.1f}] "
            f"peak {peak:>7.1f} MB [{peaks[0]:.1f}-{peaks[-1]:.1f}]  {peak * 1024 / n:>6.1f} KB/sample "
            f"({over:.1f} over the floor)"
        )
    return lines


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--samples", type=int, nargs="+", default=[100, 1000, 5000])
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--out", help="also write the table to this file")
    parser.add_argument("--command", action="store_true", help="also measure the ragrecall report command")
    parser.add_argument("--command-only", action="store_true", help="measure the command alone (no in-process rows)")
    args = parser.parse_args()
    lines = [
        f"$ python {' '.join(sys.argv)}",
        f"ragrecall {__version__}; CPython {platform.python_version()} on {platform.machine()}; "
        f"{os.cpu_count()} cores; {_cpu()}",
        "",
        f"{'samples':>8} {'what':<26} {'time s':>8} {'MB out':>8} {'KB/sample':>10} {'peak MB':>8} {'time/JSONL':>11}",
    ]
    command: list[str] = []
    for n in args.samples:
        if args.command_only:
            command.extend(command_rows(evaluate(samples(n), demo_metrics(), show_progress=False), n, args.repeat))
            continue
        base, new = data(n)
        floor, floor_peak, text = timed(lambda: jsonl(new), args.repeat)  # noqa: B023 - called at once
        rows = [("results JSONL (peer)", floor, floor_peak, text)]
        rows.append(("report", *timed(lambda: render_report(new), args.repeat)))  # noqa: B023
        rows.append(("report BASE NEW", *timed(lambda: render_report(new, base=base), args.repeat)))  # noqa: B023
        for what, seconds, peak, out in rows:
            size = len(out.encode("utf-8"))
            lines.append(
                f"{n:>8} {what:<26} {seconds:>8.3f} {size / 1e6:>8.2f} {size / n / 1e3:>10.1f} "
                f"{peak / 1e6:>8.1f} {seconds / floor:>10.1f}x"
            )
        if args.command:
            command.extend(command_rows(new, n, args.repeat))
    if command:
        load = " ".join(f"{x:.2f}" for x in os.getloadavg())
        lines += ["", f"the command, median [range] of {args.repeat} interleaved rounds; load average {load}:"]
        lines += command
    text = "\n".join(lines) + "\n"
    print(text, end="")
    if args.out:
        with open(args.out, "w", encoding="utf-8") as handle:
            handle.write(text)


if __name__ == "__main__":
    main()
