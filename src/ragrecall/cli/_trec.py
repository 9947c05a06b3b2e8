"""``ragrecall trec``: a run against qrels, as trec_eval evaluates it."""

from __future__ import annotations

import argparse
import os


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    trec = sub.add_parser("trec", help="trec_eval-style evaluation of a run against qrels")
    trec.add_argument("qrels", help="TREC qrels file (plain or .gz)")
    trec.add_argument("run", help="TREC run file (plain or .gz)")
    trec.add_argument("--measure", "-m", action="append", required=True, help="e.g. nDCG@10, Recall@100, AP")
    trec.add_argument("--per-query", action="store_true", help="also print each query's values")
    trec.add_argument("--format", choices=("table", "json", "trec"), default="table")
    trec.add_argument(
        "--missing",
        choices=("skip", "zero"),
        default="skip",
        help="judged queries absent from the run: skipped (default, as trec_eval) or counted as 0 (trec_eval -c)",
    )
    trec.set_defaults(handler=_run)


def _run(args: argparse.Namespace) -> int:
    import json

    from ..ranking import evaluate_run

    for path in (args.qrels, args.run):
        if not os.path.exists(path):
            raise FileNotFoundError(f"no such file: {path}")
    ev = evaluate_run(args.qrels, args.run, args.measure, per_query=args.per_query, missing=args.missing)
    if args.format == "json":
        payload = {"queries": len(ev.query_ids), "missing": ev.n_missing, "means": ev.means}
        if ev.per_query is not None:
            payload["per_query"] = ev.per_query
        print(json.dumps(payload, indent=2))
        return 0
    if args.format == "trec":
        for q in ev.query_ids if ev.per_query is not None else ():
            for name, value in ev.per_query[q].items():  # type: ignore[index]
                print(f"{name:<24}\t{q}\t{value:.4f}")
        for name, value in ev.means.items():
            print(f"{name:<24}\tall\t{value:.4f}")
        return 0
    width = max(len(name) for name in ev.means)
    if ev.per_query is not None:
        print("query".ljust(12) + "  " + "  ".join(n.rjust(max(len(n), 6)) for n in ev.means))
        for q in ev.query_ids:
            row = ev.per_query[q]
            print(q.ljust(12) + "  " + "  ".join(f"{row[n]:.4f}".rjust(max(len(n), 6)) for n in ev.means))
        print()
    for name, value in ev.means.items():
        print(f"{name.ljust(width)}  {value:.4f}")
    skipped = (
        f", {ev.n_missing} judged queries not in the run ({'counted as 0' if args.missing == 'zero' else 'skipped'})"
    )
    print(f"{len(ev.query_ids)} queries{skipped if ev.n_missing else ''}")
    return 0
