"""The breaker against a local fake server, through the real OpenAI SDK, with the default retry policy.

- killed: an endpoint killed mid-run (after ``--kill-after`` requests): seconds and attempts from the kill to
  the stop, and how many samples a resume on a revived server finishes.
- flaky: ``--runs`` runs against an endpoint that answers ``--share`` of requests at once with an HTML page
  (or drops the connection with ``--fault reset``) and the others after ``--good-ms``: how many were stopped.

    python benchmarks/breaker_bench.py killed
    python benchmarks/breaker_bench.py flaky --share 0.2 --runs 5
"""

from __future__ import annotations

import argparse
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

import openai

from ragrecall import evaluate
from ragrecall.errors import EndpointDownError
from ragrecall.llm import OpenAILLM
from ragrecall.llm.fake_server import FakeOpenAIServer, ServerReply, flaky_responder
from ragrecall.metrics.context_recall import ContextRecall

REFERENCE = "Paris is the capital of France. The Eiffel Tower is 330 metres tall."
CONTEXTS = ["Paris is the capital and largest city of France.", "Berlin is in Germany."]
PAGE = ServerReply(raw_body=b"<html><body>502 Bad Gateway</body></html>", content_type="text/html")


def samples(n: int) -> list[dict[str, Any]]:
    return [{"id": f"q{i}", "reference": REFERENCE, "retrieved_contexts": CONTEXTS} for i in range(n)]


def llm_for(url: str) -> OpenAILLM:
    return OpenAILLM(openai.AsyncOpenAI(api_key="sk-bench-key-0123456789", base_url=url), "gpt-4o-mini")


def killed(args: argparse.Namespace) -> None:
    checkpoint = Path(tempfile.mkdtemp()) / "run.ckpt"
    server = FakeOpenAIServer(latency=args.good_ms / 1000).start()
    port = server.port
    llm = llm_for(server.base_url)
    at: dict[str, float] = {}

    def kill() -> None:
        while len(server.requests) < args.kill_after:
            time.sleep(0.002)
        assert llm.breaker is not None
        at["attempts"] = llm.breaker.attempts
        server.stop()
        at["time"] = time.monotonic()

    killer = threading.Thread(target=kill)
    killer.start()
    metric = ContextRecall(llm)
    try:
        evaluate(
            samples(args.samples),
            [metric],
            show_progress=False,
            max_concurrency=args.concurrency,
            checkpoint=checkpoint,
        )
        print("not stopped")
        return
    except EndpointDownError as exc:
        stopped = time.monotonic()
        message = str(exc)
    killer.join()
    assert llm.breaker is not None
    after = llm.breaker.attempts - int(at["attempts"])
    took = stopped - at["time"]
    print(f"stopped {took:.2f} s after the kill, {after} attempts after it (concurrency {args.concurrency})")
    print(f"message: {message[:160]}...")
    with FakeOpenAIServer(port=port) as revived:
        result = evaluate(
            samples(args.samples),
            [ContextRecall(llm_for(revived.base_url))],
            show_progress=False,
            checkpoint=checkpoint,
        )
        print(f"resume: {len(result)} rows, {len(result.failures)} failures, {len(revived.requests)} requests sent")


def flaky(args: argparse.Namespace) -> None:
    failure = PAGE if args.fault == "page" else ServerReply(drop=True)
    stopped = 0
    for run in range(args.runs):
        with FakeOpenAIServer(flaky_responder(args.share, failure, good_delay=args.good_ms / 1000, seed=run)) as server:
            started = time.monotonic()
            try:
                result = evaluate(
                    samples(args.samples),
                    [ContextRecall(llm_for(server.base_url))],
                    show_progress=False,
                    max_concurrency=args.concurrency,
                )
                outcome = f"finished: {len(result)} rows, {len(result.failures)} failures"
            except EndpointDownError as exc:
                stopped += 1
                outcome = f"STOPPED: {str(exc)[:120]}"
            print(f"run {run + 1}: {len(server.requests)} requests, {time.monotonic() - started:.1f} s, {outcome}")
    print(
        f"{stopped} of {args.runs} runs stopped ({args.share:.0%} {args.fault}s, good replies after {args.good_ms} ms)"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("scenario", choices=["killed", "flaky"])
    parser.add_argument("--samples", type=int, default=1000)
    parser.add_argument("--concurrency", type=int, default=16)
    parser.add_argument("--kill-after", type=int, default=300)
    parser.add_argument("--good-ms", type=float, default=300.0)
    parser.add_argument("--share", type=float, default=0.2)
    parser.add_argument("--fault", choices=["page", "reset"], default="page")
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    if args.scenario == "killed":
        killed(args)
    else:
        args.samples = min(args.samples, 200)
        flaky(args)


if __name__ == "__main__":
    main()
