"""``ragrecall compare``: a paired comparison of two result files, metric by metric."""

from __future__ import annotations

import argparse

from ..errors import ConfigurationError


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    cmp_ = sub.add_parser("compare", help="paired comparison of two result files")
    cmp_.add_argument("a", help="results of system A (JSONL written by eval --out or demo --out)")
    cmp_.add_argument("b", help="results of system B")
    cmp_.add_argument(
        "--metric",
        "-m",
        action="append",
        default=[],
        help="metric name as it appears in the results (repeatable; default: every metric both runs have)",
    )
    cmp_.set_defaults(handler=_run)


def _run(args: argparse.Namespace) -> int:
    from ..evaluation import EvaluationResult, compare

    a, b = EvaluationResult.from_jsonl(args.a), EvaluationResult.from_jsonl(args.b)
    shared = [m for m in a.metrics if m in b.metrics]
    metrics = list(dict.fromkeys(args.metric)) or shared
    if not metrics:
        raise ConfigurationError(
            f"the runs share no metric: A has {', '.join(a.metrics) or 'none'}; B has {', '.join(b.metrics) or 'none'}"
        )
    for metric in metrics:
        if metric not in shared:
            run, other = ("A", a) if metric not in a.metrics else ("B", b)
            raise ConfigurationError(f"run {run} has no metric {metric!r}; it has {', '.join(other.metrics)}")
    for metric in metrics:
        print(compare(a, b, metric))
    if not args.metric:  # every shared metric was compared: say which were not, and why
        for run, mine, other in (("A", a, b), ("B", b, a)):
            alone = [m for m in mine.metrics if m not in other.metrics]
            if alone:
                print(f"only in {run}, not compared: {', '.join(alone)}")
    return 0
