"""``ragrecall compare``: a paired comparison of two result files."""

from __future__ import annotations

import argparse


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    cmp_ = sub.add_parser("compare", help="paired comparison of two result files")
    cmp_.add_argument("a", help="results of system A (JSONL written by eval --out)")
    cmp_.add_argument("b", help="results of system B")
    cmp_.add_argument("--metric", "-m", required=True, help="metric name as it appears in the results")
    cmp_.set_defaults(handler=_run)


def _run(args: argparse.Namespace) -> int:
    from ..evaluation import EvaluationResult, compare

    a, b = EvaluationResult.from_jsonl(args.a), EvaluationResult.from_jsonl(args.b)
    print(compare(a, b, args.metric))
    return 0
