"""``ragrecall report``: a self-contained HTML report of a result file, or of one run compared with another."""

from __future__ import annotations

import argparse
import os

from .._files import check_output_path


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    rep = sub.add_parser(
        "report",
        help="write a self-contained HTML report of a result file, or compare two (report BASE NEW)",
        description="Write one HTML file: failures by cause, run details, every sample's inputs and verdicts. "
        "With two result files, BASE NEW, the report of NEW opens with a comparison against BASE: per-metric "
        "paired deltas with 95% bootstrap intervals and the samples that got better or worse.",
    )
    rep.add_argument("results", metavar="RESULTS", help="results JSONL (written by eval --out); with NEW: the BASE run")
    rep.add_argument("new", metavar="NEW", nargs="?", help="results of the run to compare with BASE")
    rep.add_argument("-o", "--output", default="report.html", help="HTML file to write (default report.html)")
    rep.add_argument("--title", default="ragrecall report")
    rep.set_defaults(handler=_run)


def _run(args: argparse.Namespace) -> int:
    from ..evaluation import EvaluationResult
    from ..report import write_report, write_report_from_jsonl

    inputs = [("results file", args.results), ("results file", args.new)]
    check_output_path(args.output, "-o", inputs)
    if args.new is None:
        write_report_from_jsonl(args.results, args.output, title=args.title)
    else:
        base, new = EvaluationResult.from_jsonl(args.results), EvaluationResult.from_jsonl(args.new)
        names = (os.path.basename(args.results), os.path.basename(args.new))
        if names[0] == names[1]:
            names = (args.results, args.new)
        write_report(new, args.output, title=args.title, base=base, names=names)
    print(f"report written to {args.output}")
    return 0
