"""Benchmark: what a hostile or hung endpoint costs — a gzip bomb's memory, and the time a hang takes to stop.

1. ``bomb``: the local fake server answers every request with a gzip body of ``--bomb-mb`` MB of spaces
   (0.5 MB on the wire for 512 MB), labelled ``Content-Encoding: gzip``. One ``ContextRecall`` score through
   ``OpenAILLM`` (3 attempts, short waits), once on the direct path (``create`` is the SDK's own) and once
   through a wrapper set on the client object (the SDK's ``create`` path). Reported per path: the process's
   resident memory before the score (after the client is built and the bomb made), its peak during the score
   (``VmHWM``, reset just before), the difference, the requests the server saw and the error. Linux only.
   With ``--samples N``: ``evaluate`` over N samples at concurrency N, every reply a bomb (2 attempts each, no
   breaker), the same memory figures.
2. ``hang``: ``ragrecall eval`` (the command, in its own process, with the default settings and
   ``--checkpoint``) against the fake server answering the first ``--answered`` requests (``--latency-ms``
   each), then hanging on every later one. Reported: the time from the first hung request to the command's
   exit, its exit code and last line; then the same command against a healthy server: the requests the
   resume sent and the requests a fresh run sends (the resume must send only what was left).

3. ``cost``: what the bound costs per request: ``client.post("/chat/completions")`` of a 2 KB completion through
   an in-process ``MockTransport`` (no network, no server), process CPU per request with and without the
   bound's hooks on the client, ``--requests`` each, rounds alternating, the least of ``--rounds`` kept. Load
   moves that by tens of percent; instructions do not: run one kind (``--only``) under valgrind for two request
   counts, and divide the difference of the counts by the difference of the requests::

    for kind in without with; do for n in 200 1200; do
        valgrind --tool=callgrind --callgrind-out-file=/dev/null \\
            python benchmarks/reply_faults_bench.py cost --only $kind --rounds 1 --requests $n
    done; done  # "Collected : N" on stderr

    python benchmarks/reply_faults_bench.py bomb [--bomb-mb 512] [--samples 16]
    python benchmarks/reply_faults_bench.py hang [--samples 60] [--answered 40] [--latency-ms 200] [--cli-path SRC]
    python benchmarks/reply_faults_bench.py cost [--requests 3000] [--rounds 5]
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import threading
import time
import zlib
from pathlib import Path
from typing import Any

import openai

from ragrecall import demo_dataset
from ragrecall.errors import LLMRequestError
from ragrecall.llm import OpenAILLM, RetryPolicy
from ragrecall.llm.fake_server import FakeOpenAIServer, ServerReply
from ragrecall.metrics.context_recall import ContextRecall


def _status(field: str) -> int:
    text = Path("/proc/self/status").read_text()
    return int(text.split(f"{field}:")[1].split()[0]) // 1024


def _bomb(megabytes: int) -> bytes:
    packer = zlib.compressobj(9, zlib.DEFLATED, 31)
    piece = b" " * (1 << 20)
    return b"".join([*(packer.compress(piece) for _ in range(megabytes)), packer.flush()])


def bomb(megabytes: int, samples: int = 1) -> None:
    data = _bomb(megabytes)
    print(f"gzip bomb: {len(data):,} bytes on the wire, {megabytes} MB decompressed")
    if samples > 1:
        _bombs_at_once(data, samples)
        return
    for path in ("direct", "create"):
        reply = ServerReply(raw_body=data, headers={"Content-Encoding": "gzip"})
        with FakeOpenAIServer(replies=[reply] * 3) as server:
            client = openai.AsyncOpenAI(api_key="sk-bench", base_url=server.base_url, max_retries=0)
            if path == "create":
                original = client.chat.completions.create

                async def wrapper(*args: Any, _original: Any = original, **kwargs: Any) -> Any:
                    return await _original(*args, **kwargs)

                client.chat.completions.create = wrapper  # type: ignore[method-assign]
            llm = OpenAILLM(client, "gpt-4o-mini", retry=RetryPolicy(max_attempts=3, initial_wait=0.1, jitter=0.0))
            metric = ContextRecall(llm, coverage=False)
            base = _status("VmRSS")
            Path("/proc/self/clear_refs").write_text("5")  # resets VmHWM to the current resident size
            try:
                metric.score(reference="Paris is in France.", retrieved_contexts=["Paris is in France."])
                outcome = "scored (no bound?)"
            except LLMRequestError as exc:
                outcome = str(exc)
            peak = _status("VmHWM")
            print(
                f"{path:7s} baseline {base} MB, peak {peak} MB, +{peak - base} MB above baseline; "
                f"{len(server.requests)} requests; {outcome[:160]}"
            )


def _bombs_at_once(data: bytes, samples: int) -> None:
    from ragrecall import evaluate

    reply = ServerReply(raw_body=data, headers={"Content-Encoding": "gzip"})
    with FakeOpenAIServer(lambda body: reply) as server:
        client = openai.AsyncOpenAI(api_key="sk-bench", base_url=server.base_url, max_retries=0)
        retry = RetryPolicy(max_attempts=2, initial_wait=0.1, jitter=0.0)
        llm = OpenAILLM(client, "gpt-4o-mini", retry=retry, breaker_threshold=None)
        rows = [
            {"id": f"s{n}", "reference": "Paris is in France.", "retrieved_contexts": ["Paris."]}
            for n in range(samples)
        ]
        base = _status("VmRSS")
        Path("/proc/self/clear_refs").write_text("5")
        result = evaluate(rows, [ContextRecall(llm, coverage=False)], max_concurrency=samples, show_progress=False)
        peak = _status("VmHWM")
        failed = sum(1 for row in result.rows if row.results["context_recall"].status == "failed")
        print(
            f"{samples} samples at concurrency {samples}: baseline {base} MB, peak {peak} MB, +{peak - base} MB; "
            f"{len(server.requests)} requests, {failed} samples failed"
        )


def hang(samples: int, answered: int, latency_ms: float, cli_path: str | None = None) -> None:
    from ragrecall.llm.fake_server import hanging_responder  # imported here: "bomb" also runs on older versions

    folder = Path(tempfile.mkdtemp(prefix="ragrecall-hang-"))
    try:
        rows = [s.model_dump(mode="json", exclude_none=True) for s in demo_dataset()]
        with (folder / "samples.jsonl").open("w") as out:
            for n in range(samples):
                row = rows[n % len(rows)]
                out.write(json.dumps({**row, "id": f"{row.get('id')}-{n}"}) + "\n")
        began: list[float] = []
        lock = threading.Lock()
        inner = hanging_responder(answered)

        def respond(body: Any) -> ServerReply:
            reply = inner(body)
            with lock:
                if reply.delay > 60 and not began:
                    began.append(time.monotonic())
            return reply

        with FakeOpenAIServer(respond, latency=latency_ms / 1000.0) as server:
            command = _command(folder, server.base_url)
            run = subprocess.run(command, capture_output=True, text=True, env=_env(cli_path), cwd=folder)
            ended = time.monotonic()
            first = len(server.requests)
        stopped = ended - began[0] if began else float("nan")
        last = run.stderr.strip().splitlines()[-1] if run.stderr.strip() else ""
        print(f"hang: exit {run.returncode}, stopped {stopped:.1f} s after the first hung request; {first} requests")
        print(f"  {last[:400]}")
        with FakeOpenAIServer() as server:
            resumed = subprocess.run(
                _command(folder, server.base_url), capture_output=True, text=True, env=_env(cli_path), cwd=folder
            )
            sent = len(server.requests)
        (folder / "run.ckpt").unlink()
        with FakeOpenAIServer() as server:
            subprocess.run(
                _command(folder, server.base_url), capture_output=True, text=True, env=_env(cli_path), cwd=folder
            )
            fresh = len(server.requests)
        print(f"resume: exit {resumed.returncode}, {sent} requests sent; a fresh run sends {fresh}")
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def cost(requests: int, rounds: int, only: str | None = None) -> None:
    import asyncio

    import httpx2

    from ragrecall.llm._bounded import bound_replies

    message = {"role": "assistant", "content": "x" * 2000}
    completion = {"id": "c", "object": "chat.completion", "choices": [{"index": 0, "message": message}]}
    body = json.dumps(completion).encode()

    def answer(request: httpx2.Request) -> httpx2.Response:
        return httpx2.Response(200, content=body, headers={"content-type": "application/json"})

    async def run(bound: bool) -> float:
        http = openai.DefaultAsyncHttpxClient(transport=httpx2.MockTransport(answer))
        client = openai.AsyncOpenAI(api_key="k", base_url="http://x/v1", http_client=http, max_retries=0)
        if bound:
            bound_replies(client)
        for _ in range(200):  # warm-up
            await client.post("/chat/completions", body={"a": 1}, cast_to=bytes)
        started = time.process_time()
        for _ in range(requests):
            await client.post("/chat/completions", body={"a": 1}, cast_to=bytes)
        return (time.process_time() - started) / requests * 1e6

    kinds = [only == "with"] if only else [False, True]
    seen: dict[bool, list[float]] = {False: [], True: []}
    for _ in range(rounds):
        for bound in kinds:
            seen[bound].append(asyncio.run(run(bound)))
    for bound in kinds:
        runs = ", ".join(f"{x:.0f}" for x in seen[bound])
        label = "with the bound" if bound else "without"
        print(f"{label:15s} {min(seen[bound]):.0f} µs of client CPU per request (runs: {runs})")


def _command(folder: Path, base_url: str) -> list[str]:
    return [
        sys.executable, "-m", "ragrecall.cli", "eval", str(folder / "samples.jsonl"), "-m", "context_recall",
        "--model", "gpt-4o-mini", "--base-url", base_url, "--checkpoint", str(folder / "run.ckpt"),
        "--allow-endpoint-change", "--no-progress",
    ]  # fmt: skip


def _env(cli_path: str | None = None) -> dict[str, str]:
    extra = {"PYTHONPATH": cli_path} if cli_path else {}
    return {**os.environ, "OPENAI_API_KEY": "sk-bench", **extra}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    sub = parser.add_subparsers(dest="what", required=True)
    b = sub.add_parser("bomb")
    b.add_argument("--bomb-mb", type=int, default=512)
    b.add_argument("--samples", type=int, default=1, help="more than 1: that many samples at once, every reply a bomb")
    h = sub.add_parser("hang")
    h.add_argument("--samples", type=int, default=60)
    h.add_argument("--answered", type=int, default=40)
    h.add_argument("--latency-ms", type=float, default=200.0)
    h.add_argument("--cli-path", default=None, help="PYTHONPATH of the command only (another checkout's src)")
    c = sub.add_parser("cost")
    c.add_argument("--requests", type=int, default=3000)
    c.add_argument("--rounds", type=int, default=5)
    c.add_argument("--only", choices=["with", "without"], default=None, help="one kind (for valgrind's count)")
    args = parser.parse_args()
    if args.what == "bomb":
        bomb(args.bomb_mb, args.samples)
    elif args.what == "cost":
        cost(args.requests, args.rounds, args.only)
    else:
        hang(args.samples, args.answered, args.latency_ms, args.cli_path)


if __name__ == "__main__":
    main()
