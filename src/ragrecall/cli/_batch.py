"""``ragrecall batch``: run the batch rounds through files (export, then import what any OpenAI-batch runner
produced), and show or cancel the batches a run recorded."""

from __future__ import annotations

import argparse
import os
import sys
from typing import Any

from ..errors import ConfigurationError, InputError
from ._eval import add_eval_arguments, run_eval

_REQUESTS_HELP = (
    "where the next round's request file goes ('{round}' is replaced by the round's number; default "
    "CHECKPOINT.round-{round}.jsonl); an existing file is never overwritten"
)


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    batch = sub.add_parser(
        "batch", help="batch rounds through files (vLLM run_batch, Ray); status and cancellation of batches"
    )
    commands = batch.add_subparsers(dest="batch_command", required=True, metavar="ACTION")

    export = commands.add_parser(
        "export", help="write the next round's requests as OpenAI batch-input JSONL, without any network"
    )
    add_eval_arguments(export, checkpoint_required=True)
    export.add_argument("--requests", metavar="PATH", help=_REQUESTS_HELP)
    export.set_defaults(handler=_export)

    imp = commands.add_parser(
        "import", help="read a batch result file (any OpenAI-batch-compatible runner) and continue the run"
    )
    imp.add_argument("output", metavar="OUTPUT", help="the runner's result file (JSONL, one line per request)")
    add_eval_arguments(imp, checkpoint_required=True)
    imp.add_argument("--requests", metavar="PATH", help=_REQUESTS_HELP)
    imp.set_defaults(handler=_import)

    for name, handler, text in (
        ("status", _status, "show the batches a run recorded, asking the provider about those still running"),
        ("cancel", _cancel, "cancel the provider batches a run recorded and left running"),
    ):
        command = commands.add_parser(name, help=text)
        command.add_argument("--checkpoint", required=True, help="the run's checkpoint")
        command.add_argument("--base-url", help="Batch API URL (default: the endpoint recorded with each batch)")
        command.add_argument(
            "--api-key-env", metavar="VAR", default="OPENAI_API_KEY", help="variable holding the key (OPENAI_API_KEY)"
        )
        command.set_defaults(handler=handler)


def _export(args: argparse.Namespace) -> int:
    waiting = _unimported(args.checkpoint)
    if waiting is not None:
        raise InputError(
            f"round {waiting.get('round')} was exported to {waiting.get('path')} and its results are not imported "
            "yet: run it, then `ragrecall batch import OUTPUT` with the same arguments"
        )
    return _files(args, ())


def _import(args: argparse.Namespace) -> int:
    if not os.path.exists(args.checkpoint):
        raise InputError(f"no such checkpoint: {args.checkpoint} (start with `ragrecall batch export`)")
    if _unimported(args.checkpoint) is None:
        raise InputError(f"{args.checkpoint} has no exported round waiting for results; nothing to import into")
    return _files(args, (args.output,))


def _files(args: argparse.Namespace, imports: tuple[str, ...]) -> int:
    from ..batch import BatchBackend, RoundExported  # the LLM stack loads only when a command uses it

    requests = args.requests or f"{args.checkpoint}.round-{{round}}.jsonl"
    backend = BatchBackend(export_to=requests, imports=imports)
    try:
        return run_eval(args, backend)
    except RoundExported as exported:
        model = args.model or "MODEL"
        print(f"round {exported.round}: {exported.requests} requests written to {exported.path}")
        print(
            "run them with any OpenAI-batch runner, e.g.\n"
            f"  python -m vllm.entrypoints.openai.run_batch -i {exported.path} -o OUTPUT.jsonl --model {model}\n"
            "then continue with: ragrecall batch import OUTPUT.jsonl (and the same dataset and options)",
        )
        return 0


def _unimported(checkpoint: str) -> dict[str, Any] | None:
    """The last exported round of ``checkpoint`` when no result file was imported after it."""
    from ..evaluation import read_journal

    if not os.path.exists(checkpoint) or os.path.getsize(checkpoint) == 0:
        return None
    last: dict[str, Any] | None = None
    for record in read_journal(checkpoint):
        if record.get("kind") == "batch" and record.get("runner") == "file":
            last = record
        elif record.get("kind") == "import":
            last = None
    return last


def _cancel(args: argparse.Namespace) -> int:
    return _visit(args, cancel=True)


def _status(args: argparse.Namespace) -> int:
    return _visit(args, cancel=False)


def _visit(args: argparse.Namespace, *, cancel: bool) -> int:
    """Print every recorded batch of the checkpoint with its status; with ``cancel``, cancel those still
    running at the provider first."""
    import openai

    from .._sync import run_sync
    from ..batch import OpenAIBatchRunner
    from ..evaluation import read_journal

    if not os.path.exists(args.checkpoint):
        raise InputError(f"no such checkpoint: {args.checkpoint}")
    journal = read_journal(args.checkpoint)
    ended = {r.get("input_file"): r.get("status") for r in journal if r.get("kind") == "batch_end"}
    started = {r.get("input_file"): r.get("id") for r in journal if r.get("kind") == "batch_start"}
    batches = [{**r, "id": started.get(r.get("input_file"))} for r in journal if r.get("kind") == "batch"]
    running = [r for r in batches if r.get("runner") == "openai" and r.get("input_file") not in ended]
    if not cancel:
        for r in batches:
            if r.get("runner") == "file" or r.get("input_file") in ended:
                label = r.get("path") if r.get("runner") == "file" else r.get("id")
                state = ended.get(r.get("input_file"), "exported")
                print(f"round {r.get('round')}: {label}: {state}, {len(r.get('custom_ids', ()))} requests")
    if not running:
        if cancel or not batches:
            print(f"no batch of {args.checkpoint} is left running")
        return 0
    key = os.environ.get(args.api_key_env)
    if not key:
        raise ConfigurationError(f"no API key: set the environment variable {args.api_key_env}")

    async def visit_all() -> list[str]:
        lines = []
        for record in running:
            client = openai.AsyncOpenAI(api_key=key, base_url=args.base_url or record.get("endpoint"))
            runner = OpenAIBatchRunner(client)
            batch_id = record["id"] or await runner.find(record)
            if batch_id is None:
                lines.append(f"round {record.get('round')}: file {record['input_file']}: no batch was started on it")
                continue
            status = await runner.status({"id": batch_id})
            if cancel and not status.terminal:
                status = await runner.cancel(batch_id)
            lines.append(f"round {record.get('round')}: {batch_id}: {status.text()}")
        return lines

    for line in run_sync(visit_all()):
        print(line)
    if cancel:
        print(f"run the same command with --checkpoint {args.checkpoint} to keep what they answered", file=sys.stderr)
    return 0
