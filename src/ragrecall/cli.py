"""The ``ragrecall`` command.

Every error a user can cause ends with one line on stderr (``ragrecall: error: ...``) and exit code 2;
``eval`` exits 2 when more sample-metric pairs failed than ``--max-failed`` allows (default 0), else 1 when an
aggregate falls under a ``--fail-under`` bound. Output paths (``--out``,
``--checkpoint``, ``report -o``) are checked before any work (their folder exists and is writable, and they are
none of the inputs). A reader that stops early (``ragrecall demo | head -1``) ends the command quietly with exit
code 141, as a Unix tool stopped by SIGPIPE; files already written are kept.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from . import __version__
from ._files import check_output_path
from .errors import ConfigurationError, EndpointDownError, RagrecallError
from .evaluation import EvaluationResult, compare, evaluate
from .metric_specs import METRIC_HELP, needs_llm, parse_metric
from .metrics.base import Metric
from .report import write_report

if TYPE_CHECKING:
    from .llm import LLM, ResponseCache, RetryPolicy

__all__ = ["main"]


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit code."""
    parser = _parser()
    args = parser.parse_args(argv)
    try:
        code: int = args.handler(args)
        sys.stdout.flush()  # a reader that went away is found here, not by the interpreter's flush at exit
        return code
    except BrokenPipeError:
        _silence_stdout()
        return _EXIT_BROKEN_PIPE
    except EndpointDownError as exc:
        checkpoint = getattr(args, "checkpoint", None)
        hint = (
            f"finished samples are kept in {checkpoint}; run the same command again to resume"
            if checkpoint
            else "nothing was kept: add --checkpoint FILE to resume a run that stops"
        )
        print(f"ragrecall: error: {_one_line(exc)}; {hint}", file=sys.stderr)
        return 2
    except (RagrecallError, OSError, KeyError, UnicodeError) as exc:
        print(f"ragrecall: error: {_one_line(exc)}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("ragrecall: interrupted", file=sys.stderr)
        return 130


_EXIT_BROKEN_PIPE = 141
"""Exit code when stdout's reader went away: 128 + SIGPIPE, what a shell reports for a tool stopped by it."""


def _silence_stdout() -> None:
    """Point stdout at the null device, so that what is left in its buffer goes nowhere, quietly."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        try:
            os.dup2(devnull, sys.stdout.fileno())
        finally:
            os.close(devnull)
    except (OSError, ValueError, AttributeError):  # stdout is not a real file (an embedding host)
        pass


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="ragrecall", description="Measure the context recall of RAG retrieval.")
    parser.add_argument("--version", action="version", version=f"ragrecall {__version__}")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    demo = sub.add_parser("demo", help="score the built-in samples with every metric, offline")
    demo.add_argument("--out", help="also write the per-sample results to this JSONL file")
    demo.set_defaults(handler=_demo)

    ev = sub.add_parser("eval", help="score a JSONL or CSV dataset")
    ev.add_argument("data", help="dataset file (.jsonl or .csv, optionally .gz)")
    ev.add_argument("--metric", "-m", action="append", required=True, help=METRIC_HELP)
    llm = ev.add_argument_group("LLM (for context_recall)")
    llm.add_argument("--model", help="model name, e.g. gpt-4o-mini")
    llm.add_argument(
        "--provider",
        choices=("openai", "anthropic"),
        default="openai",
        help="API spoken by the endpoint: openai (any OpenAI-compatible server; default) or anthropic "
        "(Messages API; needs the anthropic extra)",
    )
    llm.add_argument("--base-url", help="endpoint URL (vLLM, Ollama, Azure...); default: the provider's")
    llm.add_argument(
        "--api-key-env",
        metavar="VAR",
        help="environment variable holding the API key (default OPENAI_API_KEY, or ANTHROPIC_API_KEY with "
        "--provider anthropic); keys are never taken as flags; --replay needs none",
    )
    llm.add_argument(
        "--output-mode",
        choices=("auto", "json_schema", "json_object"),
        default="auto",
        help="openai: structured outputs (json_schema), JSON mode (json_object), or auto (default): structured "
        "outputs until the server refuses them",
    )
    llm.add_argument(
        "--request-timeout",
        type=float,
        default=120.0,
        metavar="S",
        help="wall-clock seconds one attempt may take, the whole reply included (default 120)",
    )
    llm.add_argument(
        "--total-timeout",
        type=float,
        default=300.0,
        metavar="S",
        help="seconds one request may take with all its retries, the attempt in flight included (default 300)",
    )
    llm.add_argument(
        "--max-attempts", type=int, default=6, metavar="N", help="attempts per request, the first included (default 6)"
    )
    llm.add_argument(
        "--offline",
        action="store_true",
        help="answer with the deterministic lexical stand-in (OfflineJudge) instead of a model: for tests and "
        "demos, no network",
    )
    store = llm.add_mutually_exclusive_group()
    store.add_argument("--cache", metavar="PATH", help="response cache (a .sqlite file or a folder): read and write")
    store.add_argument("--replay", metavar="PATH", help="response cache, replay only: a request not in it is an error")
    ev.add_argument("--dry-run", action="store_true", help="count LLM calls, tokens and cost without sending anything")
    ev.add_argument("--concurrency", type=int, default=16, help="requests in flight at once (default 16)")
    ev.add_argument("--checkpoint", help="resumable checkpoint file (JSONL)")
    ev.add_argument("--out", help="write per-sample results to this JSONL file")
    ev.add_argument(
        "--fail-under",
        action="append",
        default=[],
        metavar="METRIC=VALUE",
        help="exit 1 when the metric's mean is under VALUE (repeatable)",
    )
    ev.add_argument(
        "--max-failed",
        type=int,
        default=0,
        metavar="N",
        help="exit 2 when more than N sample-metric pairs failed (default 0: any failure fails the run)",
    )
    ev.add_argument("--no-progress", action="store_true", help="no progress bar")
    ev.set_defaults(handler=_eval)

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
    trec.set_defaults(handler=_trec)

    cmp_ = sub.add_parser("compare", help="paired comparison of two result files")
    cmp_.add_argument("a", help="results of system A (JSONL written by eval --out)")
    cmp_.add_argument("b", help="results of system B")
    cmp_.add_argument("--metric", "-m", required=True, help="metric name as it appears in the results")
    cmp_.set_defaults(handler=_compare)

    rep = sub.add_parser("report", help="write a self-contained HTML report of a result file")
    rep.add_argument("results", help="results JSONL (written by eval --out)")
    rep.add_argument("-o", "--output", default="report.html", help="HTML file to write (default report.html)")
    rep.add_argument("--title", default="ragrecall report")
    rep.set_defaults(handler=_report)
    return parser


def _demo(args: argparse.Namespace) -> int:
    from .demo import demo_dataset, demo_metrics

    if args.out:
        check_output_path(args.out, "--out")
    result = evaluate(demo_dataset(), demo_metrics(), show_progress=False)
    if args.out:  # written before printing: a reader of stdout that goes away must not lose the file
        result.to_jsonl(args.out)
    _print_rows(result)
    print()
    print(result.summary_table())
    if args.out:
        print(f"results written to {args.out}")
    return 0


def _eval(args: argparse.Namespace) -> int:
    bounds = [_parse_bound(text) for text in args.fail_under]
    if args.max_failed < 0:
        raise ConfigurationError(f"--max-failed must be 0 or more, got {args.max_failed}")
    # Inputs and outputs are checked before anything is built: the cache file, the client, any request.
    if not os.path.exists(args.data):
        raise FileNotFoundError(f"no such dataset file: {args.data}")
    _check_outputs(args)
    llm = _llm_source(args) if any(needs_llm(spec) for spec in args.metric) else None
    metrics: list[Metric] = [parse_metric(spec, llm=llm) for spec in args.metric]
    names = [m.name for m in metrics]
    for name, _ in bounds:
        if name not in names:
            raise ConfigurationError(f"--fail-under names {name!r}, which is not among the metrics: {', '.join(names)}")
    if args.dry_run:
        return _dry_run(args, metrics)
    result = evaluate(
        args.data,
        metrics,
        max_concurrency=args.concurrency,
        show_progress=not args.no_progress,
        checkpoint=args.checkpoint,
    )
    if args.out:  # written before printing: a reader of stdout that goes away must not lose the file
        result.to_jsonl(args.out)
    print(result.summary_table())
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
    inputs = [("dataset", args.data), ("response cache", _cache_file(cache) if cache else None)]
    if args.checkpoint:
        check_output_path(args.checkpoint, "--checkpoint", inputs)
    if args.out:
        check_output_path(args.out, "--out", [*inputs, ("checkpoint", args.checkpoint)])


def _llm_source(args: argparse.Namespace) -> Callable[[], LLM]:
    """What LLM metrics get: a counting stand-in (--dry-run), the lexical stand-in (--offline), or an endpoint."""
    from .llm import DryRunLLM, OfflineJudge, OpenAILLM, ResponseCache, RetryPolicy

    if args.dry_run:
        dry = DryRunLLM(args.model or "gpt-4o-mini")
        return lambda: dry
    if args.offline:
        judge = OfflineJudge()
        return lambda: judge
    if not args.model:
        raise ConfigurationError("context_recall needs a model: give --model (and --base-url), or --offline")
    key_env = args.api_key_env or ("ANTHROPIC_API_KEY" if args.provider == "anthropic" else "OPENAI_API_KEY")
    api_key = os.environ.get(key_env)
    if not api_key:
        if not args.replay:
            raise ConfigurationError(
                f"no API key: set the environment variable {key_env} (or name another with --api-key-env)"
            )
        api_key = "replay-only"  # nothing is sent in replay: a miss is an error before any request
    retry = RetryPolicy(
        max_attempts=args.max_attempts, request_timeout=args.request_timeout, total_timeout=args.total_timeout
    )
    cache = None
    if args.cache or args.replay:
        cache = ResponseCache(
            _cache_file(args.cache or args.replay), mode="replay-only" if args.replay else "read-write"
        )
    model: LLM
    if args.provider == "anthropic":
        model = _anthropic_llm(args, api_key, retry, cache)
    else:
        import openai

        client = openai.AsyncOpenAI(api_key=api_key, base_url=args.base_url)
        model = OpenAILLM(
            client,
            args.model,
            output_mode=args.output_mode,
            cache=cache,
            retry=retry,
            max_concurrency=args.concurrency,
        )
    return lambda: model


def _anthropic_llm(args: argparse.Namespace, api_key: str, retry: RetryPolicy, cache: ResponseCache | None) -> LLM:
    try:
        import anthropic

        from .llm._anthropic import AnthropicLLM
    except ImportError as exc:
        raise ConfigurationError(
            "--provider anthropic needs the anthropic package: pip install 'ragrecall[anthropic]'"
        ) from exc
    client = anthropic.AsyncAnthropic(api_key=api_key, base_url=args.base_url)
    llm: LLM = AnthropicLLM(client, args.model, cache=cache, retry=retry, max_concurrency=args.concurrency)
    return llm


def _cache_file(path: str) -> str:
    if path.endswith((".sqlite", ".sqlite3", ".db")):
        return path
    return os.path.join(path, "ragrecall-cache.sqlite")


def _dry_run(args: argparse.Namespace, metrics: Sequence[Metric]) -> int:
    from .llm import TokenCounter

    result = evaluate(args.data, metrics, max_concurrency=args.concurrency, show_progress=False)
    usage = result.usage
    counting = "cl100k_base tokens" if TokenCounter().exact else "tokens estimated at 4 characters each"
    cost = f"${usage.cost_usd:.4f}" if usage.cost_usd is not None else "unknown (no price for this model)"
    print(f"dry run: {len(result)} samples, nothing sent")
    print(f"LLM requests: {usage.requests}")
    print(
        f"prompt tokens: {usage.prompt_tokens}; completion tokens (estimated): {usage.completion_tokens} ({counting})"
    )
    print(f"estimated cost for {args.model or 'gpt-4o-mini'}: {cost}")
    return 0


def _trec(args: argparse.Namespace) -> int:
    import json

    from .ranking import evaluate_run

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


def _compare(args: argparse.Namespace) -> int:
    a, b = EvaluationResult.from_jsonl(args.a), EvaluationResult.from_jsonl(args.b)
    print(compare(a, b, args.metric))
    return 0


def _report(args: argparse.Namespace) -> int:
    check_output_path(args.output, "-o", [("results file", args.results)])
    result = EvaluationResult.from_jsonl(args.results)
    write_report(result, args.output, title=args.title)
    print(f"report written to {args.output}")
    return 0


def _one_line(exc: BaseException) -> str:
    if isinstance(exc, KeyError) and exc.args:
        return str(exc.args[0])
    if isinstance(exc, OSError) and exc.strerror and exc.filename:
        return f"{exc.strerror}: {exc.filename}"
    return " ".join(str(exc).split()) or type(exc).__name__


def _parse_bound(text: str) -> tuple[str, float]:
    name, sep, value = text.rpartition("=")
    try:
        bound = float(value)
    except ValueError:
        bound = float("nan")
    if not sep or not name or not 0.0 <= bound <= 1.0:
        raise ConfigurationError(f"--fail-under expects METRIC=VALUE with VALUE in [0, 1], got {text!r}")
    return name, bound


def _print_rows(result: EvaluationResult) -> None:
    width = max([len(str(row.sample_id)) for row in result.rows] + [6])
    cols = [max(len(m), 7) for m in result.metrics]
    print("sample".ljust(width) + "  " + "  ".join(m.rjust(w) for m, w in zip(result.metrics, cols, strict=True)))
    for row in result.rows:
        cells = []
        for m, w in zip(result.metrics, cols, strict=True):
            r = row.results[m]
            cells.append((f"{r.value:.3f}" if r.value is not None else r.status).rjust(w))
        print(str(row.sample_id).ljust(width) + "  " + "  ".join(cells))


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
