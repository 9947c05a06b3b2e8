"""``ragrecall label``: choose samples of a run for people to label and write the page they label them in."""

from __future__ import annotations

import argparse
import json
import os
from collections import Counter

from .._files import check_output_path


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    lab = sub.add_parser(
        "label",
        help="choose N samples of a run to label and write a self-contained labelling page",
        description="Draw N samples of a context_recall run (random, or stratified by the judge's evidence: "
        "verification level, vote agreement, score band, with Neyman allocation and each sample's inclusion "
        "probability recorded) and write one HTML page to label their claims in. The page's 'Download labels' "
        "writes the labels file that 'ragrecall calibrate LABELS --results RESULTS' reads as it is.",
    )
    lab.add_argument("results", metavar="RESULTS.jsonl", help="the run to label (eval --out)")
    lab.add_argument("-n", type=int, required=True, metavar="N", help="samples to draw")
    lab.add_argument("--seed", type=int, default=0, help="seeds the draw (default 0)")
    lab.add_argument(
        "--strategy",
        choices=("random", "stratified"),
        default="random",
        help="random (default): a uniform draw; stratified: across strata of the judge's evidence, recording "
        "each sample's inclusion probability, which the corrected mean then weights by",
    )
    lab.add_argument("--metric", metavar="NAME", help="the run's claim metric (default: the first that judges claims)")
    lab.add_argument("-o", "--output", default="label.html", help="the page to write (default label.html)")
    lab.set_defaults(handler=_run)


def _run(args: argparse.Namespace) -> int:
    from ..evaluation import EvaluationResult
    from ..labelling import choose, claim_metric, page_data, write_label_page

    if not os.path.exists(args.results):
        raise FileNotFoundError(f"no such results file: {args.results}")
    check_output_path(args.output, "-o", [("results file", args.results)])
    _not_samples(args.results)
    result = EvaluationResult.from_jsonl(args.results)
    metric = claim_metric(result, args.metric)
    chosen = choose(result, args.n, seed=args.seed, strategy=args.strategy, metric=metric)
    data = page_data(result, chosen, metric, source=os.path.basename(args.results))
    write_label_page(data, args.output, title=f"ragrecall labelling: {os.path.basename(args.results)}")
    claims = sum(len(s["claims"]) for s in data["samples"])
    print(f"{len(chosen)} samples ({claims} claims) of {metric} to label written to {args.output} ({args.strategy})")
    if args.strategy == "stratified":
        for stratum, count in sorted(Counter(c.stratum for c in chosen).items()):
            p = next(c.inclusion_probability for c in chosen if c.stratum == stratum)
            print(f"  {stratum}: {count} samples, inclusion probability {p:.3f}")
    print(
        f"next: open {args.output} in a browser (a phone works), label, press 'Download labels', then: ragrecall "
        f"calibrate labels.jsonl --llm MODEL --results {args.results} (or eval/report/compare ... --labels "
        "labels.jsonl)"
    )
    return 0


def _not_samples(path: str) -> None:
    """Refuse, in one line, a samples file given where a results file is expected."""
    from ..dataset import open_text, text_lines
    from ..errors import InputError

    name, handle = open_text(path)
    try:
        first = next((line for line in text_lines(handle, name) if line.strip()), None)
    finally:
        handle.close()
    try:
        record = json.loads(first) if first is not None else None
    except ValueError:
        return  # not JSON lines: the results reader names the problem
    if isinstance(record, dict) and "results" not in record and "run" not in record:
        raise InputError(
            f"{path} holds samples, not results: label the claims of a judged run, so run "
            f"'ragrecall eval {path} -m context_recall --model MODEL --out results.jsonl' (or --offline) first, "
            "then 'ragrecall label results.jsonl -n N'"
        )
