"""Benchmark: loading a dataset from each input ragrecall takes, against a list of dicts.

What is measured
    Time and peak Python memory (tracemalloc) to build a validated ``Dataset`` of ``--samples`` samples (each a
    question, a reference, 5 retrieved and 3 reference passages of about 200 characters, 5 + 3 IDs) from:

    - a list of dicts (the baseline: ``Dataset(records)``);
    - a pandas DataFrame (``Dataset(frame)``);
    - a Hugging Face ``datasets.Dataset`` (``Dataset(hf)``);
    - JSONL (``Dataset.load``), CSV with JSON list cells (``Dataset.to_csv``), CSV written by
      ``DataFrame.to_csv`` (Python-literal list cells, read with ``ast.literal_eval``), and Parquet.

    Each row runs ``--repeat`` times; the best time is shown, and its ratio to the list of dicts measured in
    the same run. Peak memory is measured in a separate run of each row (tracemalloc slows what it traces).

How to run
    python benchmarks/inputs_bench.py --samples 20000 --repeat 3
"""

from __future__ import annotations

import argparse
import platform
import random
import tempfile
import time
import tracemalloc
from collections.abc import Callable
from pathlib import Path
from typing import Any

from ragrecall import Dataset


def make_records(n: int, seed: int) -> list[dict[str, Any]]:
    rng = random.Random(seed)
    words = [f"w{i}" for i in range(5000)]

    def passage() -> str:
        return " ".join(rng.choice(words) for _ in range(40))

    return [
        {
            "id": f"q{i}",
            "user_input": passage()[:80],
            "reference": passage(),
            "retrieved_contexts": [passage() for _ in range(5)],
            "reference_contexts": [passage() for _ in range(3)],
            "retrieved_context_ids": [f"d{rng.randrange(10**6)}" for _ in range(5)],
            "reference_context_ids": [f"d{rng.randrange(10**6)}" for _ in range(3)],
        }
        for i in range(n)
    ]


def timed(fn: Callable[[], Dataset], repeat: int) -> tuple[float, float, int]:
    best = float("inf")
    size = 0
    for _ in range(repeat):
        start = time.perf_counter()
        size = len(fn())
        best = min(best, time.perf_counter() - start)
    tracemalloc.start()
    fn()
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    return best, peak / 2**20, size


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--samples", type=int, default=20000)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()

    import datasets
    import pandas as pd

    records = make_records(args.samples, args.seed)
    frame = pd.DataFrame(records)
    hf = datasets.Dataset.from_list(records)
    folder = Path(tempfile.mkdtemp())
    Dataset(records).to_jsonl(folder / "d.jsonl")
    Dataset(records).to_csv(folder / "json_cells.csv")
    frame.to_csv(folder / "pandas.csv")
    frame.to_parquet(folder / "d.parquet")

    rows: list[tuple[str, Callable[[], Dataset]]] = [
        ("list of dicts: Dataset(records)", lambda: Dataset(records)),
        ("pandas DataFrame: Dataset(frame)", lambda: Dataset(frame)),
        ("Hugging Face datasets.Dataset: Dataset(hf)", lambda: Dataset(hf)),
        ("JSONL file", lambda: Dataset.load(folder / "d.jsonl")),
        ("CSV, JSON list cells (Dataset.to_csv)", lambda: Dataset.load(folder / "json_cells.csv")),
        ("CSV, Python-literal cells (DataFrame.to_csv)", lambda: Dataset.load(folder / "pandas.csv")),
        ("Parquet (DataFrame.to_parquet)", lambda: Dataset.load(folder / "d.parquet")),
    ]
    print(f"{args.samples} samples; {platform.processor() or platform.machine()}, Python {platform.python_version()}")
    print(f"{'input':<48} {'best s':>8} {'samples/s':>10} {'vs list':>8} {'peak MiB':>9}")
    base = None
    for label, fn in rows:
        seconds, peak, size = timed(fn, args.repeat)
        assert size == args.samples
        base = base or seconds
        print(f"{label:<48} {seconds:>8.3f} {args.samples / seconds:>10,.0f} {seconds / base:>7.2f}x {peak:>9.1f}")


if __name__ == "__main__":
    main()
