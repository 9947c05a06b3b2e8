"""``ragrecall eval``: score a dataset file, with exit codes a CI job can gate on."""

from __future__ import annotations

import argparse
import json
import os
import sys
import warnings
from collections.abc import Sequence
from contextlib import ExitStack
from typing import TYPE_CHECKING, Any

from .._files import check_output_path
from ..errors import ConfigurationError, EndpointDownError, FailedSamplesWarning, InputError
from ..metric_specs import METRIC_HELP, needs_llm, parse_metric, resolve_metric_name
from ._llm import add_llm_arguments, cache_file, llm_source

if TYPE_CHECKING:  # the LLM stack loads only when a command uses it
    from ..batch import BatchBackend
    from ..calibration import CorrectedMean
    from ..evaluation import Backend, EvaluationResult
    from ..metrics.base import Metric


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    ev = sub.add_parser("eval", help="score a JSONL or CSV dataset")
    add_eval_arguments(ev)
    ev.add_argument("--dry-run", action="store_true", help="count LLM calls, tokens and cost without sending anything")
    ev.add_argument(
        "--backend",
        choices=("live", "batch"),
        default="live",
        help="live: requests sent as samples need them (default); batch: rounds of batch files through the "
        "endpoint's Batch API, at the batch price (use with --checkpoint, so that a stopped run collects its "
        "batches instead of submitting them again)",
    )
    ev.add_argument(
        "--poll-interval",
        type=float,
        metavar="S",
        help="--backend batch: seconds before a batch's first status check, growing to 10 minutes (default 30)",
    )
    ev.add_argument(
        "--max-samples-in-flight",
        type=int,
        metavar="N",
        help="--backend batch: samples scored at once (default: all, the fewest rounds); a bound caps memory",
    )
    ev.add_argument(
        "--json",
        action="store_true",
        help="print the summary (and, with --labels, every figure of each corrected mean) as JSON instead of tables",
    )
    ev.set_defaults(handler=_run)


def add_eval_arguments(ev: argparse.ArgumentParser, *, checkpoint_required: bool = False) -> None:
    """The dataset, metric, LLM, checkpoint, output and exit-code arguments of ``eval`` (shared with ``batch``)."""
    ev.add_argument(
        "data",
        help="dataset: .jsonl or .csv (optionally .gz), .parquet (DataFrame.to_parquet) or a Hugging Face "
        "save_to_disk folder",
    )
    ev.add_argument("--metric", "-m", action="append", required=True, help=METRIC_HELP)
    ev.add_argument(
        "--map",
        action="append",
        default=[],
        metavar="COLUMN=FIELD",
        help="read the dataset's column COLUMN as the Sample field FIELD, e.g. --map question=user_input; "
        "--map COLUMN=metadata keeps it in the sample's metadata, where columns that are not fields go anyway "
        "(repeatable)",
    )
    add_llm_arguments(ev)
    ev.add_argument("--concurrency", type=int, default=16, help="requests in flight at once (default 16)")
    ev.add_argument("--checkpoint", required=checkpoint_required, help="resumable checkpoint file (JSONL)")
    ev.add_argument(
        "--allow-endpoint-change",
        action="store_true",
        help="resume a --checkpoint that holds answers from another base URL or model (recorded in the run details)",
    )
    ev.add_argument(
        "--nuggets",
        metavar="FILE",
        help="nuggetizer's nuggets file (JSONL: qid, query, nuggets): each topic's nuggets become the "
        "reference_nuggets of the sample whose id is its qid (for -m nugget_recall)",
    )
    ev.add_argument(
        "--out",
        help="write per-sample results to this JSONL file (on a stop or Ctrl-C: the samples that finished, marked "
        "partial; --report likewise)",
    )
    ev.add_argument(
        "--fail-under",
        action="append",
        default=[],
        metavar="METRIC=VALUE",
        help="exit 1 when the metric's mean is under VALUE; METRIC is any spelling -m accepts (repeatable)",
    )
    ev.add_argument(
        "--max-failed",
        type=int,
        default=0,
        metavar="N",
        help="exit 2 when more than N sample-metric pairs failed (default 0: any failure fails the run)",
    )
    ev.add_argument(
        "--labels",
        metavar="LABELS",
        help="people's labels of some of the samples (claim_labels or human_score, paired by id): print each "
        "metric's mean corrected by them (PPI++) beside the judge-only and labels-only means",
    )
    ev.add_argument(
        "--report",
        metavar="FILE.html",
        help="also write the HTML report of the run (with --labels: a 'Corrected by people' section)",
    )
    ev.add_argument("--no-progress", action="store_true", help="no progress bar")


def _run(args: argparse.Namespace) -> int:
    return run_eval(args)


def run_eval(args: argparse.Namespace, batch: BatchBackend | None = None) -> int:
    """Score ``args.data`` as ``ragrecall eval`` does (with ``batch``: on those batch settings); the exit code."""
    from ..batch import BatchBackend
    from ..evaluation import evaluate

    bounds = [_parse_bound(text) for text in args.fail_under]
    column_map = _parse_map(args.map)
    if args.max_failed < 0:
        raise ConfigurationError(f"--max-failed must be 0 or more, got {args.max_failed}")
    # Inputs and outputs are checked before anything is built: the cache file, the client, any request.
    if not os.path.exists(args.data):
        raise FileNotFoundError(f"no such dataset file: {args.data}")
    _check_outputs(args)
    files_only = batch is not None and batch.files
    with ExitStack() as resources:  # the response cache is closed once the samples are scored
        llm = (
            llm_source(args, resources, files_only=files_only) if any(needs_llm(spec) for spec in args.metric) else None
        )
        metrics: list[Metric] = [parse_metric(spec, llm=llm) for spec in args.metric]
        names = [m.name for m in metrics]
        resolved = []
        for name, bound in bounds:
            found = resolve_metric_name(name, metrics)
            if found is None:
                raise ConfigurationError(
                    f"--fail-under names {name!r}, which is not among the metrics: {', '.join(names)}"
                )
            resolved.append((found, bound))
        bounds = resolved
        if getattr(args, "dry_run", False):
            return _dry_run(args, metrics, column_map)
        backend: Backend = batch if batch is not None else getattr(args, "backend", "live")
        poll_interval = getattr(args, "poll_interval", None)
        in_flight = getattr(args, "max_samples_in_flight", None)
        if backend == "live" and (poll_interval is not None or in_flight is not None):
            flag = "--poll-interval" if poll_interval is not None else "--max-samples-in-flight"
            raise ConfigurationError(f"{flag} applies to --backend batch only")
        if backend == "batch":
            backend = BatchBackend(max_samples_in_flight=in_flight)
        try:
            with warnings.catch_warnings():  # the command prints its own failure lines
                warnings.simplefilter("ignore", FailedSamplesWarning)
                result = evaluate(
                    _with_nuggets(args, column_map) if getattr(args, "nuggets", None) else args.data,
                    metrics,
                    max_concurrency=args.concurrency,
                    show_progress=not args.no_progress,
                    checkpoint=args.checkpoint,
                    column_map=column_map,
                    backend=backend,
                    poll_interval=poll_interval,
                    allow_endpoint_change=args.allow_endpoint_change,
                )
        except (EndpointDownError, KeyboardInterrupt) as exc:
            _write_partial(args, getattr(exc, "result", None))
            raise  # the entry point prints the cause and the resume hint
    corrected = corrected_by_labels(result, args.labels) if args.labels else ([], [])
    if args.out:  # written before printing: a reader of stdout that goes away must not lose the file
        result.to_jsonl(args.out)
    if args.report:
        from ..report import write_report

        write_report(
            result, args.report, title=f"ragrecall report: {os.path.basename(args.data)}", corrected=corrected[0]
        )
    if getattr(args, "json", False):
        print(_summary_json(result, *corrected))
    else:
        print(result.summary_table())
        if args.labels:
            print_corrected(*corrected)
    failed = [line for name, bound in bounds if (line := _under(result, name, bound))]
    for line in failed:
        print(f"ragrecall: fail-under: {line}", file=sys.stderr)
    if result.failures:
        # Failed pairs are kept in the results, but a run with more than --max-failed must not pass (a stale
        # --replay cache in CI, an unreachable endpoint, a model that returns empty claim lists): the last line
        # names the first one.
        first = result.failures[0]
        total = len(result) * len(result.metrics)
        label = f"sample {first.index}" + (f" (id={first.sample_id!r})" if first.sample_id is not None else "")
        head = f"{len(result.failures)} of {total} sample-metric pairs failed"
        tail = f"first: {label}, {first.metric}: {first.type}: {' '.join(first.message.split())}"
        if len(result.failures) > args.max_failed:
            limit = f" (more than --max-failed {args.max_failed})" if args.max_failed else ""
            print(f"ragrecall: error: {head}{limit}; {tail}", file=sys.stderr)
            return 2
        print(f"ragrecall: {head}, within --max-failed {args.max_failed}; {tail}", file=sys.stderr)
    return 1 if failed else 0


def _write_partial(args: argparse.Namespace, result: EvaluationResult | None) -> None:
    """On a stop or Ctrl-C: write ``--out`` and ``--report`` with the samples that finished, marked partial, and
    say so on stderr."""
    if result is None or not (args.out or args.report):
        return
    if not len(result):
        print("ragrecall: no sample finished before the stop: --out and --report were not written", file=sys.stderr)
        return
    written = []
    if args.out:
        result.to_jsonl(args.out)
        written.append(args.out)
    if args.report:
        from ..report import write_report

        write_report(result, args.report, title=f"ragrecall report (partial): {os.path.basename(args.data)}")
        written.append(args.report)
    done = f"the {len(result)} finished samples (marked partial)"
    print(f"ragrecall: wrote {' and '.join(written)} with {done}", file=sys.stderr)


def _with_nuggets(args: argparse.Namespace, column_map: dict[str, str] | None) -> Any:
    """The dataset with the nuggets file joined to it by id; says on stderr what did not join."""
    from ..dataset import Dataset
    from ..nuggets import join_nuggets, read_nuggets

    topics = read_nuggets(args.nuggets)
    samples, unused = join_nuggets(Dataset.load(args.data, column_map=column_map), topics)
    joined = len(topics) - len(unused)
    print(f"ragrecall: --nuggets: {joined} of {len(topics)} topics joined to samples by id", file=sys.stderr)
    if unused:
        shown = ", ".join(unused[:5]) + (" ..." if len(unused) > 5 else "")
        print(f"ragrecall: --nuggets: no sample has the id of qid(s) {shown}", file=sys.stderr)
    return Dataset(samples)


def corrected_by_labels(result: EvaluationResult, labels: str) -> tuple[list[CorrectedMean], list[str]]:
    """Each metric of ``result`` corrected by the labels file (:func:`ragrecall.calibration.corrected_mean`), and
    for each metric that could not be, one line saying why.

    Raises:
        InputError: no metric could be corrected (the message gives each metric's reason).
    """
    from ..calibration import corrected_mean, labelled_scores
    from ..dataset import Dataset

    if not os.path.exists(labels):
        raise FileNotFoundError(f"no such labels file: {labels}")
    labelled = labelled_scores(Dataset.load(labels))
    items: list[CorrectedMean] = []
    notes: list[str] = []
    for metric in result.metrics:
        try:
            items.append(corrected_mean(result, metric, labelled))
        except InputError as exc:
            notes.append(f"{metric} not corrected: {exc}")
    if not items:
        raise InputError(f"the labels in {labels} correct no metric: " + "; ".join(notes))
    return items, notes


def _summary_json(result: EvaluationResult, corrected: list[CorrectedMean], notes: list[str]) -> str:
    """The summary of every metric, and each corrected mean with what its estimates mean, as JSON."""
    from ..calibration import corrected_json

    data = {
        "summary": {name: s.model_dump(mode="json") for name, s in result.summary.items()},
        "corrected": [corrected_json(item) for item in corrected],
        "not_corrected": notes,
    }
    return json.dumps(data, indent=2, ensure_ascii=False)


def print_corrected(items: list[CorrectedMean], notes: list[str]) -> None:
    """The corrected means under the summary table, then why the other metrics were not corrected."""
    from ..calibration import corrected_text

    print()
    print(corrected_text(items))
    for note in notes:
        print(note)


def _under(result: EvaluationResult, name: str, bound: float) -> str | None:
    """Why ``name`` fails ``--fail-under name=bound``, saying how many samples its mean is over; None if it holds."""
    s = result.summary[name]
    counts = f"{s.failed} failed, {s.unscorable} unscorable"
    if s.mean is None:
        return f"{name} has no mean: no sample was scored ({counts}); the bound is {bound}"
    if s.mean >= bound:
        return None
    plural = "s" if s.scored != 1 else ""
    return f"{name} mean {s.mean:.4f} over {s.scored} scored sample{plural} ({counts}) is under {bound}"


def _check_outputs(args: argparse.Namespace) -> None:
    """Refuse a ``--checkpoint`` or ``--out`` that cannot be written or is one of the run's inputs, before
    anything is sent."""
    cache = getattr(args, "cache", None) or getattr(args, "replay", None)
    inputs = [
        ("dataset", args.data),
        ("response cache", cache_file(cache) if cache else None),
        ("nuggets file", getattr(args, "nuggets", None)),
    ]
    if args.checkpoint:
        check_output_path(args.checkpoint, "--checkpoint", inputs)
    if args.out:
        check_output_path(args.out, "--out", [*inputs, ("checkpoint", args.checkpoint)])
    labels = getattr(args, "labels", None)
    if labels and not os.path.exists(labels):
        raise FileNotFoundError(f"no such labels file: {labels}")
    report = getattr(args, "report", None)
    if report:
        check_output_path(
            report, "--report", [*inputs, ("checkpoint", args.checkpoint), ("--out file", args.out), ("labels", labels)]
        )


def _dry_run(args: argparse.Namespace, metrics: Sequence[Metric], column_map: dict[str, str]) -> int:
    from ..evaluation import evaluate
    from ..llm import TokenCounter

    data = _with_nuggets(args, column_map) if getattr(args, "nuggets", None) else args.data
    result = evaluate(data, metrics, max_concurrency=args.concurrency, show_progress=False, column_map=column_map)
    usage = result.usage
    counting = "cl100k_base tokens" if TokenCounter().exact else "tokens estimated at 4 characters each"
    cost = f"${usage.cost_usd:.4f}" if usage.cost_usd is not None else "unknown (no price for this model)"
    print(f"dry run: {len(result)} samples, nothing sent")
    print(f"LLM requests: {usage.requests}")
    print(
        f"prompt tokens: {usage.prompt_tokens}; completion tokens (estimated): {usage.completion_tokens} ({counting})"
    )
    print(f"estimated cost for {args.model or 'gpt-4o-mini'}: {cost}")
    if getattr(args, "backend", "live") == "batch":
        from ..llm import cost_usd

        batch = cost_usd(args.model or "gpt-4o-mini", usage.prompt_tokens, usage.completion_tokens, batch=True)
        print(f"at the batch price (--backend batch): {f'${batch:.4f}' if batch is not None else 'unknown'}")
    return 0


def _parse_map(pairs: Sequence[str]) -> dict[str, str]:
    """``--map COLUMN=FIELD`` flags as a column map (checked by the loader: FIELD must be a Sample field)."""
    out: dict[str, str] = {}
    for text in pairs:
        column, sep, field = text.partition("=")
        if not sep or not column.strip() or not field.strip():
            raise ConfigurationError(f"--map expects COLUMN=FIELD, e.g. question=user_input; got {text!r}")
        out[column.strip()] = field.strip()
    return out


def _parse_bound(text: str) -> tuple[str, float]:
    name, sep, value = text.rpartition("=")
    try:
        bound = float(value)
    except ValueError:
        bound = float("nan")
    if not sep or not name or not 0.0 <= bound <= 1.0:
        raise ConfigurationError(f"--fail-under expects METRIC=VALUE with VALUE in [0, 1], got {text!r}")
    return name, bound
