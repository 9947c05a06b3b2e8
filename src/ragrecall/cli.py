"""The ``ragrecall`` command.

Every error a user can cause ends with one line on stderr (``ragrecall: error: ...``) and exit code 2;
``eval`` exits 1 when an aggregate falls under a ``--fail-under`` bound.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence

from . import __version__
from .errors import ConfigurationError, RagrecallError
from .evaluation import EvaluationResult, compare, evaluate
from .metric_specs import METRIC_HELP, parse_metric
from .metrics.base import Metric
from .report import write_report

__all__ = ["main"]


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit code."""
    parser = _parser()
    args = parser.parse_args(argv)
    try:
        code: int = args.run(args)
        return code
    except (RagrecallError, OSError, KeyError) as exc:
        print(f"ragrecall: error: {_one_line(exc)}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("ragrecall: interrupted", file=sys.stderr)
        return 130


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="ragrecall", description="Measure the context recall of RAG retrieval.")
    parser.add_argument("--version", action="version", version=f"ragrecall {__version__}")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    demo = sub.add_parser("demo", help="score the built-in samples with every metric, offline")
    demo.add_argument("--out", help="also write the per-sample results to this JSONL file")
    demo.set_defaults(run=_demo)

    ev = sub.add_parser("eval", help="score a JSONL or CSV dataset")
    ev.add_argument("data", help="dataset file (.jsonl or .csv, optionally .gz)")
    ev.add_argument("--metric", "-m", action="append", required=True, help=METRIC_HELP)
    ev.add_argument("--concurrency", type=int, default=16, help="requests in flight at once (default 16)")
    ev.add_argument("--checkpoint", help="resumable checkpoint file (JSONL)")
    ev.add_argument("--out", help="write per-sample results to this JSONL file")
    ev.add_argument(
        "--fail-under",
        action="append",
        default=[],
        metavar="METRIC=VALUE",
        help="exit 1 when the metric's mean is under VALUE (repeatable)",
    )
    ev.add_argument("--no-progress", action="store_true", help="no progress bar")
    ev.set_defaults(run=_eval)

    cmp_ = sub.add_parser("compare", help="paired comparison of two result files")
    cmp_.add_argument("a", help="results of system A (JSONL written by eval --out)")
    cmp_.add_argument("b", help="results of system B")
    cmp_.add_argument("--metric", "-m", required=True, help="metric name as it appears in the results")
    cmp_.set_defaults(run=_compare)

    rep = sub.add_parser("report", help="write a self-contained HTML report of a result file")
    rep.add_argument("results", help="results JSONL (written by eval --out)")
    rep.add_argument("-o", "--output", default="report.html", help="HTML file to write (default report.html)")
    rep.add_argument("--title", default="ragrecall report")
    rep.set_defaults(run=_report)
    return parser


def _demo(args: argparse.Namespace) -> int:
    from .demo import demo_dataset, demo_metrics

    result = evaluate(demo_dataset(), demo_metrics(), show_progress=False)
    _print_rows(result)
    print()
    print(result.summary_table())
    if args.out:
        result.to_jsonl(args.out)
        print(f"results written to {args.out}")
    return 0


def _eval(args: argparse.Namespace) -> int:
    bounds = [_parse_bound(text) for text in args.fail_under]
    metrics: list[Metric] = [parse_metric(spec) for spec in args.metric]
    names = {m.name for m in metrics}
    for name, _ in bounds:
        if name not in names:
            raise ConfigurationError(f"--fail-under names {name!r}, which is not among the metrics: {', '.join(names)}")
    if not os.path.exists(args.data):
        raise FileNotFoundError(f"no such dataset file: {args.data}")
    result = evaluate(
        args.data,
        metrics,
        max_concurrency=args.concurrency,
        show_progress=not args.no_progress,
        checkpoint=args.checkpoint,
    )
    print(result.summary_table())
    if args.out:
        result.to_jsonl(args.out)
    failed = []
    for name, bound in bounds:
        mean = result.summary[name].mean
        if mean is None or mean < bound:
            failed.append(f"{name} mean {mean if mean is None else f'{mean:.4f}'} is under {bound}")
    for line in failed:
        print(f"ragrecall: fail-under: {line}", file=sys.stderr)
    return 1 if failed else 0


def _compare(args: argparse.Namespace) -> int:
    a, b = EvaluationResult.from_jsonl(args.a), EvaluationResult.from_jsonl(args.b)
    print(compare(a, b, args.metric))
    return 0


def _report(args: argparse.Namespace) -> int:
    result = EvaluationResult.from_jsonl(args.results)
    write_report(result, args.output, title=args.title)
    print(f"report written to {args.output}")
    return 0


def _one_line(exc: BaseException) -> str:
    if isinstance(exc, KeyError) and exc.args:
        return str(exc.args[0])
    if isinstance(exc, OSError) and exc.strerror and exc.filename:
        return f"{exc.strerror}: {exc.filename}"
    return " ".join(str(exc).split()) or type(exc).__name__


def _parse_bound(text: str) -> tuple[str, float]:
    name, sep, value = text.rpartition("=")
    try:
        bound = float(value)
    except ValueError:
        bound = float("nan")
    if not sep or not name or not 0.0 <= bound <= 1.0:
        raise ConfigurationError(f"--fail-under expects METRIC=VALUE with VALUE in [0, 1], got {text!r}")
    return name, bound


def _print_rows(result: EvaluationResult) -> None:
    width = max([len(str(row.sample_id)) for row in result.rows] + [6])
    cols = [max(len(m), 7) for m in result.metrics]
    print("sample".ljust(width) + "  " + "  ".join(m.rjust(w) for m, w in zip(result.metrics, cols, strict=True)))
    for row in result.rows:
        cells = []
        for m, w in zip(result.metrics, cols, strict=True):
            r = row.results[m]
            cells.append((f"{r.value:.3f}" if r.value is not None else r.status).rjust(w))
        print(str(row.sample_id).ljust(width) + "  " + "  ".join(cells))


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
