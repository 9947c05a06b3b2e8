"""Worked example: requests per round, rounds and cost of a run on the batch backend, live against batch.

Scores ``--samples`` deterministic samples (the generator of ``evaluate_bench.py``: a 3-5 sentence reference,
3-5 retrieved contexts of 3-6 sentences) with ``ContextRecall`` in claims mode through ``OpenAILLM`` and the
real ``openai`` SDK against the local test server (its Batch API, the offline judge answering), once with
``backend="batch"`` and once live (and with ``--in-flight N`` once more on the batch backend with
``max_samples_in_flight=N``), each client in its own process and the server in another, so that each peak
memory figure is the client's own.

Per round it reports the requests in the batch files and their tokens, counted with ``cl100k_base`` on the
exact request bodies (prompt) and on the replies (completion) — the test server's own usage figures are
rough. Costs come from the built-in price table, live column against batch column; the requests are the
same either way (the tests assert that batch bodies equal the live ones), so the live cost is the same
tokens at the live price.

With ``--invalid-every K`` every K-th first attempt is answered with text that is not JSON (a model's bad
reply), so the repairs show up as requests of later rounds, riding with the requests that are ready then.

    python benchmarks/batch_rounds.py [--samples 10000] [--invalid-every 25] [--in-flight 2000]
        [--models gpt-4o-mini,gpt-4o]
"""

from __future__ import annotations

import argparse
import itertools
import json
import multiprocessing
import platform
import resource
import subprocess
import sys
import threading
import time
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import openai

sys.path.insert(0, str(Path(__file__).parent))
from evaluate_bench import make_samples

from ragrecall import evaluate
from ragrecall.batch import BatchBackend
from ragrecall.llm import OpenAILLM, TokenCounter
from ragrecall.llm._pricing import cost_usd, price_for
from ragrecall.llm.fake_server import FakeOpenAIServer, Responder, ServerReply, offline_responder
from ragrecall.metrics.context_recall import ContextRecall


def flaky(every: int) -> Responder:
    """The offline judge, except that every ``every``-th first attempt gets a reply that is not JSON."""
    judge = offline_responder()
    seen = itertools.count(1)

    def respond(body: Mapping[str, Any]) -> ServerReply:
        messages = body["messages"]
        if "previous reply was rejected" in str(messages[-1].get("content", "")):
            return judge({**body, "messages": messages[:-2]})  # the repair: answer what was asked first
        if every and next(seen) % every == 0:
            return ServerReply("Sorry, here are the claims you asked for.", prompt_tokens=1, completion_tokens=1)
        return judge(body)

    return respond


def serve(every: int, ports: multiprocessing.Queue[int]) -> None:
    """The test server, in a process of its own so that the client's peak memory is its own."""
    server = FakeOpenAIServer(flaky(every)).start()
    ports.put(server.port)
    threading.Event().wait()


def child(mode: str, samples: int, invalid_every: int, in_flight: int | None) -> dict[str, Any]:
    """One run in this process against a server process; what it measured, as JSON-able data."""
    data = make_samples(samples)
    ports: multiprocessing.Queue[int] = multiprocessing.Queue()
    server = multiprocessing.Process(target=serve, args=(invalid_every, ports), daemon=True)
    server.start()
    base_url = f"http://127.0.0.1:{ports.get(timeout=30)}/v1"
    try:
        llm = OpenAILLM(openai.AsyncOpenAI(api_key="sk-bench", base_url=base_url), "gpt-4o-mini")
        backend: Any = BatchBackend(poll_interval=0, max_samples_in_flight=in_flight) if mode == "batch" else "live"
        started = time.perf_counter()
        result = evaluate(data, [ContextRecall(llm)], show_progress=False, backend=backend, max_concurrency=64)
        wall = time.perf_counter() - started
        peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
        rounds = batch_rounds(openai.OpenAI(api_key="sk-bench", base_url=base_url)) if mode == "batch" else []
    finally:
        server.terminate()
    return {
        "mode": mode,
        "wall_s": wall,
        "peak_rss_mib": peak,
        "requests": result.usage.requests,
        "failed": len(result.failures),
        "values": result.values("context_recall"),
        "rounds": rounds,
    }


def batch_rounds(client: openai.OpenAI) -> list[dict[str, int]]:
    """Requests and tokens of every batch the server ran, in the order they were created."""
    counter = TokenCounter()
    rounds = []
    batches = sorted(client.batches.list(), key=lambda b: int(b.id.rsplit("-", 1)[1]))
    for batch in batches:
        lines = client.files.content(batch.input_file_id).text.splitlines()
        outputs = client.files.content(batch.output_file_id).text.splitlines() if batch.output_file_id else []
        prompt = sum(counter.messages(json.loads(line)["body"]["messages"]) for line in lines)
        completion = sum(
            counter.text(json.loads(line)["response"]["body"]["choices"][0]["message"]["content"] or "")
            for line in outputs
        )
        rounds.append({"requests": len(lines), "prompt": prompt, "completion": completion})
    return rounds


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--samples", type=int, default=10_000)
    parser.add_argument("--models", default="gpt-4o-mini,gpt-4o")
    parser.add_argument("--invalid-every", type=int, default=0, metavar="K")
    parser.add_argument("--in-flight", type=int, help="also run the batch backend with max_samples_in_flight=N")
    parser.add_argument("--child", choices=("live", "batch"), help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.child:
        print(json.dumps(child(args.child, args.samples, args.invalid_every, args.in_flight)))
        return
    runs: dict[tuple[str, int | None], dict[str, Any]] = {}
    variants = [("batch", None), ("live", None)] + ([("batch", args.in_flight)] if args.in_flight else [])
    for mode, in_flight in variants:
        command = [sys.executable, __file__, "--child", mode, "--samples", str(args.samples)]
        command += ["--invalid-every", str(args.invalid_every)]
        command += ["--in-flight", str(in_flight)] if in_flight else []
        out = subprocess.run(command, capture_output=True, text=True, check=True)
        runs[(mode, in_flight)] = json.loads(out.stdout.splitlines()[-1])
    batch, live = runs[("batch", None)], runs[("live", None)]
    invalid = f", every {args.invalid_every}th first reply invalid" if args.invalid_every else ""
    print(
        f"{args.samples} samples, ContextRecall claims mode{invalid}; {platform.processor() or platform.machine()}, "
        f"Python {platform.python_version()}"
    )
    print(
        f"values identical live and batch: {batch['values'] == live['values']}; failures: "
        f"batch {batch['failed']}, live {live['failed']}"
    )
    print("\nround  requests  prompt tokens  completion tokens")
    for number, r in enumerate(batch["rounds"], start=1):
        print(f"{number:>5}  {r['requests']:>8}  {r['prompt']:>13,}  {r['completion']:>17,}")
    prompt = sum(r["prompt"] for r in batch["rounds"])
    completion = sum(r["completion"] for r in batch["rounds"])
    requests = sum(r["requests"] for r in batch["rounds"])
    print(
        f"total  {requests:>8}  {prompt:>13,}  {completion:>17,}   ({requests / args.samples:.2f} requests per sample;"
        f" live sent {live['requests']})"
    )
    print("\nmodel          live in/out per M    batch in/out per M    cost live  cost batch")
    for model in args.models.split(","):
        price = price_for(model)
        assert price is not None, model
        live_cost = cost_usd(model, prompt, completion) or 0.0
        batch_cost = cost_usd(model, prompt, completion, batch=True) or 0.0
        batch_in, batch_out = price.per_million(batch=True)
        live_price = f"${price.input_per_million:.3f} / ${price.output_per_million:.3f}"
        batch_price = f"${batch_in:.3f} / ${batch_out:.3f}"
        print(f"{model:<14} {live_price:<20} {batch_price:<20} ${live_cost:>9.2f}  ${batch_cost:>9.2f}")
    print("\nrun (test server answering at once)        wall time   peak RSS (client)")
    for (mode, in_flight), run in runs.items():
        name = f"{mode}" + (f", max_samples_in_flight={in_flight}" if in_flight else "")
        rounds = f", {len(run['rounds'])} rounds" if mode == "batch" else ""
        same = "" if run["values"] == live["values"] else "  (values differ!)"
        print(f"{name + rounds:<42} {run['wall_s']:>8.1f} s  {run['peak_rss_mib']:>8.0f} MiB{same}")


if __name__ == "__main__":
    main()
