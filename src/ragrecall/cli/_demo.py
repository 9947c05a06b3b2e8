"""``ragrecall demo``: the built-in samples, every metric, offline."""

from __future__ import annotations

import argparse

from .._files import check_output_path
from ._common import print_rows


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("demo", help="score the built-in samples with every metric, offline")
    p.add_argument("--out", help="also write the per-sample results to this JSONL file")
    p.add_argument(
        "--samples",
        metavar="PATH",
        help="also write the demo samples as a dataset (.jsonl or .csv) to try eval on",
    )
    p.set_defaults(handler=_run)


def _run(args: argparse.Namespace) -> int:
    from ..demo import demo_dataset, demo_metrics
    from ..evaluation import evaluate

    if args.out:
        check_output_path(args.out, "--out")
    if args.samples:
        check_output_path(args.samples, "--samples", [("results", args.out)])
    dataset = demo_dataset()
    if args.samples:
        if args.samples.lower().endswith((".csv", ".csv.gz")):
            dataset.to_csv(args.samples)
        else:
            dataset.to_jsonl(args.samples)
    result = evaluate(dataset, demo_metrics(), show_progress=False)
    if args.out:  # written before printing: a reader of stdout that goes away must not lose the file
        result.to_jsonl(args.out)
    print_rows(result)
    print()
    print(result.summary_table())
    if args.out:
        print(f"results written to {args.out}")
    if args.samples:
        print(f"samples written to {args.samples}")
    return 0
