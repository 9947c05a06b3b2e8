"""``ragrecall nuggets metrics``: nuggetizer's metrics lines of an assignment file, computed by its rules."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Iterator
from typing import IO, Any

from .._files import atomic_text, check_output_path


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    nuggets = sub.add_parser(
        "nuggets",
        help="TREC nuggets files (nuggetizer's): their metrics",
        description="Work with nuggetizer's files (TREC RAG nuggets).",
    )
    actions = nuggets.add_subparsers(dest="nuggets_command", required=True, metavar="ACTION")
    metrics = actions.add_parser(
        "metrics",
        help="nuggetizer's four scores per record and their mean, from an assignment file",
        description="Read nuggetizer's assignment lines (answers or retrieval, plain or .gz) and write its metrics "
        "lines: {qid, strict_vital_score, strict_all_score, vital_score, all_score} per record, then their mean "
        "with qid 'all' (partial support 0.5, 'failed' 0, no vital nugget 0.0, no importance read as vital).",
    )
    metrics.add_argument("assignments", metavar="ASSIGNMENTS.jsonl", help="nuggetizer's assignment file")
    metrics.add_argument("-o", "--output", metavar="OUT", help="write the lines here (default: standard output)")
    metrics.set_defaults(handler=_metrics)
    for parser in (nuggets, metrics):
        parser.set_defaults(command_parser=parser)


def _metrics(args: argparse.Namespace) -> int:
    from ..nuggets import file_metrics

    if args.output:
        check_output_path(args.output, "-o", [("assignment file", args.assignments)])
    lines = file_metrics(args.assignments)
    if args.output is None:
        _write(lines, sys.stdout)
        return 0
    last: dict[str, Any] = {}
    with atomic_text(args.output) as out:
        last = _write(lines, out)
    print(json.dumps(last))
    return 0


def _write(lines: Iterator[dict[str, Any]], out: IO[str]) -> dict[str, Any]:
    last: dict[str, Any] = {}
    for line in lines:
        out.write(json.dumps(line) + "\n")
        last = line
    return last
