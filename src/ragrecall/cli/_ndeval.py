"""``ragrecall ndeval``: diversity measures of a run against subtopic judgments, printed as ndeval prints them."""

from __future__ import annotations

import argparse

from ..errors import ConfigurationError


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    nd = sub.add_parser(
        "ndeval",
        help="ndeval-style diversity evaluation (alpha-nDCG, ERR-IA, S-recall...) against subtopic qrels",
        description="Evaluate RUN against SUBTOPIC_QRELS (lines 'query subtopic doc grade') as the TREC ndeval "
        "tool does, printing its CSV: one row per evaluated query, then 'amean'.",
    )
    nd.add_argument("qrels", metavar="SUBTOPIC_QRELS", help="subtopic judgments (plain, .gz, or - for stdin)")
    nd.add_argument("run", metavar="RUN", help="TREC run file (plain, .gz, or - for stdin)")
    nd.add_argument("-alpha", "--alpha", type=float, default=0.5, help="redundancy intolerance (default 0.5)")
    nd.add_argument("-beta", "--beta", type=float, default=0.5, help="patience of NRBP (default 0.5)")
    nd.add_argument(
        "-traditional",
        "--traditional",
        action="store_true",
        help="order by score descending, ties by document ID descending (default: by the rank column, as ndeval)",
    )
    nd.add_argument("-c", dest="complete", action="store_true", help="average over every judged query")
    nd.add_argument("-M", dest="depth", type=int, default=None, help="keep the first DEPTH documents per query")
    nd.add_argument(
        "--measure", "-m", action="append", default=None, help="only these measures (e.g. alpha-nDCG@10, S-recall@5)"
    )
    nd.add_argument("--format", choices=("csv", "json"), default="csv")
    nd.set_defaults(handler=_run)


def _run(args: argparse.Namespace) -> int:
    import json

    from ..ranking.diversity import NDEVAL_MEASURES, evaluate_diversity, parse_diversity_measure

    if args.qrels == "-" and args.run == "-":
        raise ConfigurationError("standard input ('-') can hold the subtopic qrels or the run, not both")
    measures = [parse_diversity_measure(m) for m in args.measure] if args.measure else list(NDEVAL_MEASURES)
    ev = evaluate_diversity(
        args.qrels,
        args.run,
        measures,
        alpha=args.alpha,
        beta=args.beta,
        order="score" if args.traditional else "rank",
        depth=args.depth,
        missing="zero" if args.complete else "skip",
    )
    if args.format == "json":
        payload = {"runid": ev.run_id, "queries": len(ev.query_ids), "missing": ev.n_missing, "means": ev.means}
        payload["per_query"] = ev.per_query
        print(json.dumps(payload, indent=2))
        return 0
    names = [str(m) for m in ev.measures]
    print(",".join(["runid", "topic", *(m.ndeval_name for m in ev.measures)]))
    for query in ev.query_ids:
        row = ev.per_query[query]
        print(",".join([ev.run_id, query, *(f"{row[n]:.6f}" for n in names)]))
    print(",".join([ev.run_id, "amean", *(f"{ev.means[n]:.6f}" for n in names)]))
    return 0
