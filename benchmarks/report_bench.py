"""Benchmark: how long ``render_report`` takes, how large the page is and how much memory it takes, as the
run grows — with every sample's inputs embedded — against writing the same results as JSONL (the file the
report is made from), measured in the same run.

Data: the twelve demo samples, repeated with distinct ids to ``--samples``, scored with the demo metrics
(claims by the offline judge, string, ID and ranking recall); the comparison run scores the same samples
with their last retrieved passage dropped. Times are the best of ``--repeat``; peak memory is Python's
allocations during the call (``tracemalloc``).

    python benchmarks/report_bench.py [--samples 100 1000 5000] [--repeat 3]
        [--out benchmarks/results/report_bench.txt]
"""

from __future__ import annotations

import argparse
import io
import os
import platform
import sys
import time
import tracemalloc
from collections.abc import Callable
from typing import Any

from ragrecall import __version__
from ragrecall.demo import demo_dataset, demo_metrics
from ragrecall.evaluation import EvaluationResult, evaluate
from ragrecall.report import render_report


def data(n: int) -> tuple[EvaluationResult, EvaluationResult]:
    demo = list(demo_dataset())
    samples = [demo[i % len(demo)].model_copy(update={"id": f"s{i}"}) for i in range(n)]
    weaker = [
        s.model_copy(
            update={
                "retrieved_contexts": (s.retrieved_contexts or [])[:-1],
                "retrieved_context_ids": (s.retrieved_context_ids or [])[:-1],
            }
        )
        for s in samples
    ]
    new = evaluate(samples, demo_metrics(), show_progress=False)
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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--samples", type=int, nargs="+", default=[100, 1000, 5000])
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--out", help="also write the table to this file")
    args = parser.parse_args()
    lines = [
        f"$ python {' '.join(sys.argv)}",
        f"ragrecall {__version__}; CPython {platform.python_version()} on {platform.machine()}; "
        f"{os.cpu_count()} cores; {_cpu()}",
        "",
        f"{'samples':>8} {'what':<26} {'time s':>8} {'MB out':>8} {'KB/sample':>10} {'peak MB':>8} {'time/JSONL':>11}",
    ]
    for n in args.samples:
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
    text = "\n".join(lines) + "\n"
    print(text, end="")
    if args.out:
        with open(args.out, "w", encoding="utf-8") as handle:
            handle.write(text)


if __name__ == "__main__":
    main()
