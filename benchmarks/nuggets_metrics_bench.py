"""``ragrecall nuggets metrics`` on a large assignment file: wall time and peak memory of the command.

Writes a retrieval-shaped assignment file (nuggetizer's lines: text, qid, candidate_text of about 100 words,
docid, nuggets) of ``--lines`` lines, each with 1 to 30 nuggets of random importance (vital, okay, or none) and
random labels (support, partial_support, not_support, failed), then runs the command in a fresh process under
``/usr/bin/time -v`` (wall time, maximum resident set size) ``--repeats`` times and reports the median.

    python benchmarks/nuggets_metrics_bench.py [--lines 100000] [--repeats 3] \
        [--out benchmarks/results/nuggets_metrics.txt]
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import random
import re
import statistics
import subprocess
import sys
import tempfile

WORDS = ["the", "city", "harbour", "river", "tower", "bridge", "museum", "opened", "built", "in", "1887", "north"]


def write_file(path: str, lines: int, seed: int = 0) -> None:
    rng = random.Random(seed)
    labels = ["support", "partial_support", "not_support", "failed"]
    with open(path, "w", encoding="utf-8") as out:
        for i in range(lines):
            nuggets = []
            for _ in range(rng.randint(1, 30)):
                nugget = {"text": " ".join(rng.choices(WORDS, k=8)), "assignment": rng.choice(labels)}
                importance = rng.choice(["vital", "okay", None])
                if importance is not None:
                    nugget["importance"] = importance
                nuggets.append(nugget)
            record = {
                "text": "a query",
                "qid": f"q{i // 20}",
                "candidate_text": " ".join(rng.choices(WORDS, k=100)),
                "docid": f"d{i}",
                "nuggets": nuggets,
            }
            out.write(json.dumps(record) + "\n")


def run_once(path: str, out: str) -> tuple[float, float, float]:
    """Wall seconds, CPU seconds (user + system) and peak resident MiB of one run of the command."""
    command = ["/usr/bin/time", "-v", sys.executable, "-m", "ragrecall.cli", "nuggets", "metrics", path, "-o", out]
    done = subprocess.run(command, capture_output=True, text=True, check=True)
    wall = re.search(r"Elapsed \(wall clock\) time \(h:mm:ss or m:ss\): (?:(\d+):)?(\d+):([\d.]+)", done.stderr)
    rss = re.search(r"Maximum resident set size \(kbytes\): (\d+)", done.stderr)
    user = re.search(r"User time \(seconds\): ([\d.]+)", done.stderr)
    system = re.search(r"System time \(seconds\): ([\d.]+)", done.stderr)
    assert wall and rss and user and system, done.stderr
    seconds = int(wall.group(1) or 0) * 3600 + int(wall.group(2)) * 60 + float(wall.group(3))
    return seconds, float(user.group(1)) + float(system.group(1)), int(rss.group(1)) / 1024


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--lines", type=int, default=100_000)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--out", default=None, help="also write the report to this file")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        path, out = os.path.join(folder, "assign.jsonl"), os.path.join(folder, "metrics.jsonl")
        write_file(path, args.lines)
        size = os.path.getsize(path) / 2**20
        runs = [run_once(path, out) for _ in range(args.repeats)]
        with open(out, encoding="utf-8") as handle:
            written = sum(1 for _ in handle)
    wall = statistics.median(r[0] for r in runs)
    cpu = statistics.median(r[1] for r in runs)
    rss = statistics.median(r[2] for r in runs)
    report = (
        f"nuggets metrics: {args.lines:,} lines ({size:.0f} MiB), {written:,} lines written; median of "
        f"{args.repeats}: {wall:.2f} s wall, {cpu:.2f} s CPU, {rss:.0f} MiB peak RSS; {os.cpu_count()} CPUs (shared), "
        f"Python {platform.python_version()}"
    )
    print(report)
    if args.out:
        with open(args.out, "w", encoding="utf-8") as handle:
            handle.write(report + "\n")


if __name__ == "__main__":
    main()
