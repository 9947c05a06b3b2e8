"""``ragrecall trec``: a run against qrels, as trec_eval evaluates it, with trec_eval's command line.

trec_eval's flags (``-q -c -l N -M N -m NAME -n -J -N N -R qrels``), names and output, byte for byte; and the
measure strings of this package (``-m nDCG@10``) with a table or JSON output. The guide for trec_eval users
(``docs/guides/trec-eval.md``) says where the two differ.
"""

from __future__ import annotations

import argparse
import io
import os
import sys
from typing import IO, Any, Literal, NamedTuple

_FORMATS = ("table", "json", "trec")


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    trec = sub.add_parser(
        "trec",
        help="evaluate a run against qrels: trec_eval's flags, measures and output",
        description="Evaluate a TREC run against qrels. Takes trec_eval's flags and measure names "
        "(-m official, -m all_trec, -m P.5,10 ...) and prints what trec_eval prints; also takes this "
        "package's measure strings (-m nDCG@10) with --format table or json.",
    )
    trec.add_argument("qrels", help="TREC qrels file (plain or .gz), or - for standard input (not with the run)")
    trec.add_argument("run", help="TREC run file (plain or .gz), or - for standard input")
    trec.add_argument(
        "--measure",
        "-m",
        action="append",
        default=[],
        metavar="NAME",
        help="a trec_eval name (map, P.5,10, ndcg_cut.10, official, all_trec ...) or a measure string "
        "(nDCG@10, AP(rel=2)); repeatable; default: official",
    )
    trec.add_argument("--per-query", "-q", action="store_true", help="also print each query's values")
    trec.add_argument(
        "--format",
        choices=_FORMATS,
        default=None,
        help="output layout (default: trec_eval's when a trec_eval name or flag is used, else table)",
    )
    trec.add_argument(
        "--missing",
        choices=("skip", "zero"),
        default=None,
        help="judged queries absent from the run: skipped (default, as trec_eval) or counted as 0 (trec_eval -c)",
    )
    trec.add_argument("-c", dest="complete", action="store_true", help="as --missing zero (trec_eval's -c)")
    trec.add_argument("-l", dest="level", type=int, default=None, metavar="N", help="lowest relevant grade (default 1)")
    trec.add_argument(
        "-M", dest="depth", type=int, default=None, metavar="N", help="use the first N documents per query"
    )
    trec.add_argument("-n", dest="nosummary", action="store_true", help="no summary (the 'all' rows)")
    trec.add_argument("-J", dest="judged_only", action="store_true", help="drop unjudged documents before measuring")
    trec.add_argument("-N", dest="n_docs", type=int, default=0, metavar="N", help="documents in the collection")
    trec.add_argument("-R", dest="rel_format", default="qrels", metavar="FORMAT", help="judgments format: qrels")
    trec.add_argument(
        "-T", dest="results_format", default="trec_results", metavar="FORMAT", help="run format: trec_results"
    )
    trec.add_argument(
        "--ray",
        action="store_true",
        help="evaluate on a Ray cluster (RAY_ADDRESS, else a local one), the run split by query; same output. "
        "Needs the ray extra; not with -c or standard input",
    )
    trec.add_argument("-Z", dest="zscores", default=None, metavar="FILE", help=argparse.SUPPRESS)
    trec.set_defaults(handler=_run)


class _Row(NamedTuple):  # not a dataclass: importing dataclasses costs a small run more than evaluating it
    label: str
    measure: Any  # a Measure, or None for runid / relstring
    kind: str  # "measure", "runid" or "relstring"
    per_query: bool = True
    summary: bool = True
    length: int = 10
    integer: bool = False  # printed as a whole number (counts)


def _run(args: argparse.Namespace) -> int:
    from ..errors import ConfigurationError

    if args.rel_format != "qrels":
        raise ConfigurationError(f"-R {args.rel_format}: only the qrels format is supported (trec_eval -R qrels)")
    if args.results_format != "trec_results":
        raise ConfigurationError(f"-T {args.results_format}: only the trec_results format is supported")
    if args.zscores is not None:
        raise ConfigurationError("-Z (scores as z-scores) is not supported")
    if args.complete and args.missing == "skip":
        raise ConfigurationError("-c and --missing skip contradict each other")
    for flag, value in (("-l", args.level), ("-M", args.depth)):
        if value is not None and value < 1:
            raise ConfigurationError(f"{flag} takes a positive integer, got {value}")
    missing: Literal["skip", "zero"] = "zero" if args.complete else args.missing or "skip"
    if args.ray:
        return _run_on_ray(args, missing)
    if _official_only(args) and _print_small(args, missing):
        return 0
    from ..ranking import evaluate
    from ..ranking.measures.relstring import relstrings

    rows = _rows(args.measure, args.level or 1, args.n_docs)
    trec_style = any(r.kind != "measure" or r.label != str(r.measure) for r in rows) or _trec_flags(args)
    fmt = args.format or ("trec" if trec_style or not args.measure else "table")
    if args.qrels == "-" and args.run == "-":
        raise ConfigurationError("standard input ('-') can hold the qrels or the run, not both")
    run_source, first_line = _open_run(args.run)
    qrels_source, _ = _open_run(args.qrels)  # a path, or standard input read once
    ranked, n_missing = evaluate.rank_run(
        qrels_source, run_source, missing=missing, depth=args.depth, judged_only=args.judged_only
    )
    values = {r.label: r.measure.compute(ranked) for r in rows if r.kind == "measure"}
    means = {r.label: r.measure.aggregate(values[r.label]) for r in rows if r.kind == "measure"}
    if args.complete and "num_rel" in means:
        # trec_eval 10's te_calc_avg_num_rel: with -c the summary recounts every qrels line with relevance > 0,
        # in every topic, whatever -l, -M or -J did to the per-topic counts.
        means["num_rel"] = float(ranked.num_judged(1).sum())
    strings = {r.label: relstrings(ranked, r.length) for r in rows if r.kind == "relstring"}
    runid = _runid(first_line)
    out = sys.stdout
    if fmt == "trec":
        _print_trec(out, rows, ranked.query_ids, values, means, strings, runid, args.per_query, not args.nosummary)
    elif fmt == "json":
        _print_json(out, rows, ranked.query_ids, values, means, strings, runid, args.per_query, n_missing)
    else:
        _print_table(out, rows, ranked.query_ids, values, means, args.per_query, n_missing, missing)
    return 0


def _run_on_ray(args: argparse.Namespace, missing: str) -> int:
    """The command on Ray (``--ray``): each query measured by the same code, printed by the same printers."""
    from ..errors import ConfigurationError

    if missing == "zero" or "-" in (args.qrels, args.run):
        raise ConfigurationError("--ray takes two files and skips judged queries absent from the run (no -c)")
    from .._extras import need
    from ..integrations.ray import measured

    ray = need("ray", "ray", "ragrecall trec --ray")

    rows = _rows(args.measure, args.level or 1, args.n_docs)
    trec_style = any(r.kind != "measure" or r.label != str(r.measure) for r in rows) or _trec_flags(args)
    fmt = args.format or ("trec" if trec_style or not args.measure else "table")
    run_source, first_line = _open_run(args.run)
    if not ray.is_initialized():
        ray.init(configure_logging=False, log_to_driver=False)
    found = measured(
        args.qrels,
        run_source,
        {r.label: r.measure for r in rows if r.kind == "measure"},
        relstrings={r.label: r.length for r in rows if r.kind == "relstring"},
        depth=args.depth,
        judged_only=args.judged_only,
    )
    means = {r.label: r.measure.aggregate(found.values[r.label]) for r in rows if r.kind == "measure"}
    queries, values, runid = found.query_ids, found.values, _runid(first_line)
    if fmt == "trec":
        _print_trec(sys.stdout, rows, queries, values, means, found.strings, runid, args.per_query, not args.nosummary)
    elif fmt == "json":
        _print_json(sys.stdout, rows, queries, values, means, found.strings, runid, args.per_query, found.n_missing)
    else:
        _print_table(sys.stdout, rows, queries, values, means, args.per_query, found.n_missing, missing)
    return 0


def _official_only(args: argparse.Namespace) -> bool:
    """Whether the command asks for trec_eval's default output (the official measures, whatever trec_eval's
    flags) on two files."""
    return args.measure in ([], ["official"]) and args.format in (None, "trec") and "-" not in (args.qrels, args.run)


def _print_small(args: argparse.Namespace, missing: str) -> bool:
    """Print the official measures of a small, plain run evaluated without numpy; False (nothing printed) when
    the files are not that (see :mod:`ragrecall.ranking.small_run`)."""
    from ..ranking.small_run import OFFICIAL, evaluate_small

    if not (os.path.isfile(args.qrels) and os.path.isfile(args.run)):
        return False
    small = evaluate_small(
        args.qrels,
        args.run,
        rel=args.level or 1,
        depth=args.depth,
        judged_only=args.judged_only,
        missing_zero=missing == "zero",
        all_relevant=args.complete,
    )
    if small is None:
        return False
    rows = [
        _Row(label, None, "runid", False, integer=integer)
        if label == "runid"
        else _Row(label, None, "measure", per_query, summary, integer=integer)
        for label, per_query, summary, integer in OFFICIAL
    ]
    queries = tuple(small.query_ids)
    _print_trec(
        sys.stdout, rows, queries, small.values, small.means, {}, small.runid, args.per_query, not args.nosummary
    )
    return True


def _trec_flags(args: argparse.Namespace) -> bool:
    return bool(args.level or args.depth or args.nosummary or args.judged_only or args.complete or args.n_docs)


def _rows(specs: list[str], level: int, n_docs: int) -> list[_Row]:
    """The printed rows: trec_eval names in its order, then measure strings in the order given."""
    from ..ranking import parse_measure
    from ..ranking.trec_names import is_trec_name, trec_columns

    trec_specs = [s for s in specs if is_trec_name(s)] or ([] if specs else ["official"])
    rows: list[_Row] = []
    for column in trec_columns(trec_specs, rel=level, n_docs=n_docs) if trec_specs else []:
        family = column.family
        if family.name == "runid":
            rows.append(_Row("runid", None, "runid", per_query=False))
        elif family.name == "relstring":
            rows.append(_Row(column.label, None, "relstring", summary=False, length=column.param))
        else:
            rows.append(
                _Row(
                    column.label,
                    column.measure,
                    "measure",
                    family.per_query,
                    family.summary,
                    integer=column.measure is not None and column.measure.INTEGER,
                )
            )
    seen = {r.label for r in rows}
    for spec in specs:
        if is_trec_name(spec):
            continue
        measure = parse_measure(spec)
        if level != 1 and "rel" in measure.__dataclass_fields__ and "rel" not in measure.params():
            measure = measure(rel=level)
        if str(measure) not in seen:
            seen.add(str(measure))
            rows.append(_Row(str(measure), measure, "measure", integer=measure.INTEGER))
    return rows


def _open_run(path: str) -> tuple[Any, bytes]:
    """The run (or qrels) to read and its first non-blank line. A regular file is passed on by path; standard input
    (``-``), a pipe or a process substitution is read once, into memory, and passed on as those bytes."""
    from ..ranking import open_input

    if path != "-" and not os.path.exists(path):
        raise FileNotFoundError(f"no such file: {path}")
    given = open_input(path)
    with given.open() as handle:
        first = _first_line(handle)
    if given.path is not None:
        return given.path, first
    stream = io.BytesIO(given.data or b"")
    stream.name = given.name or "<stdin>"
    return stream, first


def _first_line(handle: Any) -> bytes:
    try:
        for line in handle:
            if line.strip():
                return bytes(line)
    except (OSError, EOFError):  # a damaged file: the reader reports it
        pass
    return b""


def _runid(line: bytes) -> str:
    fields = line.split()
    return fields[5].decode("utf-8", "replace") if len(fields) >= 6 else ""


def _value(row: _Row, value: float) -> str:
    return str(int(value)) if row.integer else f"{value:6.4f}"


def _print_trec(
    out: IO[str],
    rows: list[_Row],
    queries: tuple[str, ...],
    values: dict[str, Any],
    means: dict[str, float],
    strings: dict[str, list[str]],
    runid: str,
    per_query: bool,
    summary: bool,
) -> None:
    """trec_eval's layout: ``%-22s\\t%s\\t%6.4f`` (counts as integers), each query's rows, then the summary."""
    lines: list[str] = []
    if per_query:
        for i, q in enumerate(queries):
            for r in rows:
                if r.kind == "relstring":
                    lines.append(f"{r.label:<22}\t{q}\t'{strings[r.label][i]}'")
                elif r.kind == "measure" and r.per_query:
                    lines.append(f"{r.label:<22}\t{q}\t{_value(r, float(values[r.label][i]))}")
    if summary:
        for r in rows:
            if r.kind == "runid":
                lines.append(f"{'runid':<22}\tall\t{runid}")
            elif r.kind == "measure" and r.summary:
                lines.append(f"{r.label:<22}\tall\t{_value(r, means[r.label])}")
    if lines:
        out.write("\n".join(lines) + "\n")


def _print_json(
    out: IO[str],
    rows: list[_Row],
    queries: tuple[str, ...],
    values: dict[str, Any],
    means: dict[str, float],
    strings: dict[str, list[str]],
    runid: str,
    per_query: bool,
    n_missing: int,
) -> None:
    import json

    payload: dict[str, Any] = {"queries": len(queries), "missing": n_missing, "means": means}
    if any(r.kind == "runid" for r in rows):
        payload["runid"] = runid
    if per_query:
        table: dict[str, dict[str, Any]] = {}
        for i, q in enumerate(queries):
            entry: dict[str, Any] = {}
            for r in rows:
                if r.kind == "measure":
                    entry[r.label] = float(values[r.label][i])
                elif r.kind == "relstring":
                    entry[r.label] = strings[r.label][i]
            table[q] = entry
        payload["per_query"] = table
    out.write(json.dumps(payload, indent=2) + "\n")


def _print_table(
    out: IO[str],
    rows: list[_Row],
    queries: tuple[str, ...],
    values: dict[str, Any],
    means: dict[str, float],
    per_query: bool,
    n_missing: int,
    missing: str,
) -> None:
    measured = [r for r in rows if r.kind == "measure"]
    texts = {r.label: _value(r, means[r.label]) for r in measured}
    if per_query:
        out.write("query".ljust(12) + "  " + "  ".join(r.label.rjust(max(len(r.label), 6)) for r in measured) + "\n")
        for i, q in enumerate(queries):
            cells = (_value(r, float(values[r.label][i])).rjust(max(len(r.label), 6)) for r in measured)
            out.write(q.ljust(12) + "  " + "  ".join(cells) + "\n")
        out.write("\n")
    width = max((len(label) for label in texts), default=0)
    for label, text in texts.items():
        out.write(f"{label.ljust(width)}  {text}\n")
    skipped = f", {n_missing} judged queries not in the run ({'counted as 0' if missing == 'zero' else 'skipped'})"
    out.write(f"{len(queries)} queries{skipped if n_missing else ''}\n")
