"""``ragrecall report``: a self-contained HTML report of a result file, or of one run compared with another."""

from __future__ import annotations

import argparse
import os
from typing import TYPE_CHECKING

from .._files import check_output_path
from ._eval import corrected_by_labels

if TYPE_CHECKING:
    from ..evaluation import EvaluationResult


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    rep = sub.add_parser(
        "report",
        help="write a self-contained HTML report of a result file, compare two (report BASE NEW) or more",
        description="Write one HTML file: failures by cause, run details, every sample's inputs and verdicts. "
        "With two result files, BASE NEW, the report of NEW opens with a comparison against BASE: per-metric "
        "paired deltas with 95% bootstrap intervals and the samples that got better or worse. With three or more, "
        "the systems compared: per metric the best system when one is, every pair's verdict (better, worse, no "
        "difference) at the Holm-adjusted level, and the samples that moved most.",
    )
    rep.add_argument(
        "results",
        metavar="RESULTS",
        help="results JSONL (written by eval --out) or results folder (written by the Ray integration's "
        "evaluate_dataset); with NEW: the BASE run",
    )
    rep.add_argument(
        "new", metavar="NEW", nargs="*", help="results of the run to compare with BASE; more than one: every system"
    )
    rep.add_argument("-o", "--output", default="report.html", help="HTML file to write (default report.html)")
    rep.add_argument("--title", default="ragrecall report")
    rep.add_argument(
        "--labels",
        metavar="LABELS",
        help="people's labels of some samples (paired by id): add a 'Corrected by people' section (PPI++)",
    )
    rep.set_defaults(handler=_run)


def _run(args: argparse.Namespace) -> int:
    from ..report import run_labels, write_report, write_report_from_jsonl

    inputs = [("results file", args.results), *(("results file", n) for n in args.new), ("labels file", args.labels)]
    check_output_path(args.output, "-o", [(what, p) for what, p in inputs if p is None or not os.path.isdir(p)])
    if len(args.new) > 1:
        return _many([args.results, *args.new], args.output, args.title, args.labels)
    args.new = args.new[0] if args.new else None
    if args.new is None and not args.labels and not os.path.isdir(args.results):
        write_report_from_jsonl(args.results, args.output, title=args.title)  # in little memory
        notes: list[str] = []
    elif args.new is None:
        result = _results(args.results)
        corrected, notes = corrected_by_labels(result, args.labels) if args.labels else ([], [])
        write_report(result, args.output, title=args.title, corrected=corrected)
    else:
        base, new = _results(args.results), _results(args.new)
        corrected, notes = corrected_by_labels(new, args.labels) if args.labels else ([], [])
        names = run_labels(args.results, args.new)
        write_report(new, args.output, title=args.title, base=base, names=names, corrected=corrected)
    for note in notes:
        print(note)
    print(f"report written to {args.output}")
    return 0


def _many(paths: list[str], output: str, title: str, labels: str | None) -> int:
    """The page of three or more systems: every metric they all have, every pair, with labels the corrected
    means."""
    from ..evaluation import EvaluationResult, compare_many
    from ..report import write_comparison_page
    from ._compare import _corrected, _metrics, _names

    runs = [EvaluationResult.from_jsonl(path) for path in paths]
    names = _names(paths)
    letters = [chr(ord("A") + i) if i < 26 else f"#{i + 1}" for i in range(len(runs))]
    metrics = _metrics(runs, letters, [])
    pairs = {metric: compare_many(runs, names, metric) for metric in metrics}
    corrected = _corrected(runs, names, metrics, labels) if labels else {}
    heading = title if title != "ragrecall report" else f"ragrecall comparison of {len(runs)} runs"
    write_comparison_page(pairs, output, corrected, title=heading, runs=dict(zip(names, runs, strict=True)))
    print(f"report written to {output}")
    return 0


def _results(path: str) -> EvaluationResult:
    """The results in ``path``: a results file, or a results folder."""
    from ..evaluation import EvaluationResult, read_result_folder

    return read_result_folder(path) if os.path.isdir(path) else EvaluationResult.from_jsonl(path)
