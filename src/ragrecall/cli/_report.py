"""``ragrecall report``: a self-contained HTML report of a result file."""

from __future__ import annotations

import argparse

from .._files import check_output_path


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    rep = sub.add_parser("report", help="write a self-contained HTML report of a result file")
    rep.add_argument("results", help="results JSONL (written by eval --out)")
    rep.add_argument("-o", "--output", default="report.html", help="HTML file to write (default report.html)")
    rep.add_argument("--title", default="ragrecall report")
    rep.set_defaults(handler=_run)


def _run(args: argparse.Namespace) -> int:
    check_output_path(args.output, "-o", [("results file", args.results)])
    from ..evaluation import EvaluationResult
    from ..report import write_report

    result = EvaluationResult.from_jsonl(args.results)
    write_report(result, args.output, title=args.title)
    print(f"report written to {args.output}")
    return 0
