"""``ragrecall demo``: the built-in samples, every metric, offline."""

from __future__ import annotations

import argparse

from .._files import check_output_path
from ._common import print_rows


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("demo", help="score the built-in samples with every metric, offline")
    p.add_argument("--out", help="also write the per-sample results to this JSONL file")
    p.set_defaults(handler=_run)


def _run(args: argparse.Namespace) -> int:
    from ..demo import demo_dataset, demo_metrics
    from ..evaluation import evaluate

    if args.out:
        check_output_path(args.out, "--out")
    result = evaluate(demo_dataset(), demo_metrics(), show_progress=False)
    if args.out:  # written before printing: a reader of stdout that goes away must not lose the file
        result.to_jsonl(args.out)
    print_rows(result)
    print()
    print(result.summary_table())
    if args.out:
        print(f"results written to {args.out}")
    return 0
