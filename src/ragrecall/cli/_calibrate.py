"""``ragrecall calibrate``: how far the judge agrees with people's labels, as a table, JSON or an HTML page."""

from __future__ import annotations

import argparse
import json
import os
import sys
import warnings
from contextlib import ExitStack
from typing import TYPE_CHECKING

from .._files import check_output_path
from ..errors import ConfigurationError, FailedSamplesWarning
from ._llm import add_llm_arguments, cache_file, llm_source

if TYPE_CHECKING:
    from ..calibration import CalibrationResult
    from ..evaluation import EvaluationResult


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    cal = sub.add_parser(
        "calibrate",
        help="measure the LLM judge against human labels (kappa, accuracy, correlations, with intervals)",
        description="Run context_recall over a labels file and report how far its verdicts agree with the "
        "labels. Each row carries reference_claims with claim_labels (one true/false per claim: does the "
        "retrieved context support it), or human_score (a number in [0, 1]), or both.",
    )
    cal.add_argument("labels", metavar="LABELS", help="labelled samples (.jsonl or .csv, optionally .gz)")
    cal.add_argument(
        "--llm",
        metavar="SPEC",
        help="the judge: 'offline' (the lexical stand-in, same as --offline) or a model name (same as --model)",
    )
    add_llm_arguments(cal, title="judge")
    cal.add_argument(
        "--votes", type=int, default=1, metavar="K", help="judgements per claim, majority wins (default 1)"
    )
    cal.add_argument(
        "--judging",
        choices=("together", "per_context"),
        default="together",
        help="all contexts in one request (together, default) or one request per context",
    )
    cal.add_argument("--seed", type=int, default=0, help="seeds the vote orders and the bootstrap (default 0)")
    cal.add_argument("--resamples", type=int, default=2000, metavar="N", help="bootstrap resamples (default 2000)")
    cal.add_argument(
        "--score-tolerance",
        type=float,
        default=0.2,
        metavar="D",
        help="list samples whose |metric - human_score| exceeds D (default 0.2)",
    )
    cal.add_argument("--show", type=int, default=5, metavar="N", help="disagreements printed of each kind (default 5)")
    cal.add_argument("--json", action="store_true", help="print the whole calibration as JSON instead of the table")
    cal.add_argument(
        "--report",
        metavar="FILE.html",
        help="also write the HTML report of the judge's run, opening with the calibration (figures, intervals, "
        "every disagreement with its evidence), beside each sample's inputs",
    )
    cal.add_argument(
        "--results",
        metavar="RESULTS.jsonl",
        help="an evaluated run (eval --out) of the same judge: print its mean corrected by the labels (PPI++), "
        "beside the judge-only and labels-only means; labelled samples pair with the run's by id",
    )
    cal.add_argument(
        "--metric",
        metavar="NAME",
        help="with --results: the run's metric to correct (default: context_recall, the metric calibrated)",
    )
    cal.add_argument(
        "--plan",
        type=float,
        metavar="HALF_WIDTH",
        help="with --results: how many more labelled samples bring the corrected 95%% interval to ± HALF_WIDTH",
    )
    cal.add_argument("--concurrency", type=int, default=16, help="requests in flight at once (default 16)")
    cal.add_argument("--checkpoint", help="resumable checkpoint file (JSONL) of the judge's run")
    cal.add_argument("--no-progress", action="store_true", help="no progress bar")
    cal.set_defaults(handler=_run)


def _run(args: argparse.Namespace) -> int:
    from ..calibration import (
        calibrate,
        calibration_table,
        corrected_json,
        corrected_text,
        plan_text,
        write_calibration_page,
    )
    from ..metrics import ContextRecall
    from ..report import write_report

    _judge_flags(args)
    if not os.path.exists(args.labels):
        raise FileNotFoundError(f"no such labels file: {args.labels}")
    if args.plan is not None and not (args.results and args.plan > 0):
        raise ConfigurationError(
            f"--plan needs --results (the run to correct) and a half-width above 0, got {args.plan:g}"
        )
    if args.metric and not args.results:
        raise ConfigurationError("--metric names the metric of --results to correct; give --results too")
    run = _results(args.results) if args.results else None
    cache = args.cache or args.replay
    inputs = [("labels file", args.labels), ("response cache", cache_file(cache) if cache else None)]
    if args.checkpoint:
        check_output_path(args.checkpoint, "--checkpoint", inputs)
    if args.report:
        check_output_path(args.report, "--report", [*inputs, ("checkpoint", args.checkpoint)])
    if args.show < 0:
        raise ConfigurationError(f"--show must be 0 or more, got {args.show}")
    with ExitStack() as resources, warnings.catch_warnings():  # the response cache is closed once the judge is done
        metric = ContextRecall(llm_source(args, resources)(), votes=args.votes, judging=args.judging, seed=args.seed)
        warnings.simplefilter("ignore", FailedSamplesWarning)  # the command prints its own failure line
        result = calibrate(
            metric,
            args.labels,
            max_concurrency=args.concurrency,
            show_progress=not args.no_progress and not args.json,
            checkpoint=args.checkpoint,
            n_resamples=args.resamples,
            seed=args.seed,
            score_tolerance=args.score_tolerance,
        )
    if args.report:  # written before printing: a reader of stdout that goes away must not lose the file
        title = f"ragrecall calibration: {os.path.basename(args.labels)}"
        if result.evaluation is not None:  # the whole report of the judge's run, opening with the calibration
            write_report(result.evaluation, args.report, title=title, calibration=result)
        else:
            write_calibration_page(result, args.report, title=title)
    corrected = result.corrected(run, args.metric) if run is not None else None
    more = None
    if args.plan is not None and run is not None:
        more = _plan(args.plan, run, args.metric or result.metric, result)
    if args.json:
        data = result.model_dump(mode="json")
        if corrected is not None:
            data["corrected"] = corrected_json(corrected)
        if more is not None:
            data["plan"] = {"half_width": args.plan, "more_labels": more}
        print(json.dumps(data, indent=2, ensure_ascii=False))
    else:
        print(calibration_table(result, show=args.show))
        if corrected is not None:
            print()
            print(corrected_text([corrected]))
            if more is not None:
                print(plan_text(args.plan, more, corrected))
    if result.failed:
        first = next(n for n in result.not_compared if n.status == "failed")
        label = f"sample {first.index}" + (f" (id={first.sample_id!r})" if first.sample_id is not None else "")
        print(
            f"ragrecall: error: the judge failed on {result.failed} of {result.samples} samples, left out of the "
            f"figures; first: {label}: {first.message}",
            file=sys.stderr,
        )
        return 2
    return 0


def _results(path: str) -> EvaluationResult:
    from ..evaluation import EvaluationResult

    if not os.path.exists(path):
        raise FileNotFoundError(f"no such results file: {path}")
    return EvaluationResult.from_jsonl(path)


def _plan(half_width: float, run: EvaluationResult, metric: str, result: CalibrationResult) -> int:
    """More labels needed for ``half_width``, from the labels paired with the run so far."""
    from ..calibration import labelled_pairs, labels_needed

    unlabelled, judge, human, weights = labelled_pairs(run, metric, result.labelled)
    return labels_needed(half_width, unlabelled, judge, human, weights=weights)


def _judge_flags(args: argparse.Namespace) -> None:
    """Fold ``--llm`` into ``--offline``/``--model`` and require a judge."""
    spec = args.llm
    if spec is not None:
        spec = spec.strip()
        if spec == "offline":
            args.offline = True
        elif not spec:
            raise ConfigurationError("--llm needs 'offline' or a model name")
        elif args.model and args.model != spec:
            raise ConfigurationError(f"--llm {spec!r} and --model {args.model!r} name two judges; give one")
        else:
            args.model = spec
    if not args.offline and not args.model:
        raise ConfigurationError(
            "calibrate needs a judge: give --llm MODEL (with --base-url for a local server) or --llm offline"
        )
