"""A confirming model that is down, answers 500, answers garbage or hangs, with the default retry policy,
through the real OpenAI SDK against two local fake servers (the judge's and the confirmer's).

For each fault: how long the run took to stop, how many judge requests it paid, how many of those a rerun
with a working confirmer and the same checkpoint sent again (the promise: none), the size of the kept judge
steps in the checkpoint, and how many finished samples the stop handed back (``exc.result``).

    python benchmarks/confirmer_faults.py --samples 12
"""

from __future__ import annotations

import argparse
import json
import tempfile
import time
from pathlib import Path
from typing import Any

import openai

from ragrecall import evaluate
from ragrecall.errors import EndpointDownError
from ragrecall.llm import OpenAILLM
from ragrecall.llm.fake_server import FakeOpenAIServer, ServerReply
from ragrecall.metrics.context_recall import ContextRecall

REFERENCE = "The Eiffel Tower is 330 metres tall. The Eiffel Tower is made of iron."
TOWER = ["The Eiffel Tower, finished in 1889, is 330 metres tall, and made of iron."]
FAULTS: dict[str, ServerReply | None] = {
    "down": None,
    "500": ServerReply(status=500),
    "garbage": ServerReply(content="not json at all"),
    "hang": ServerReply(delay=600.0),
}


def samples(n: int) -> list[dict[str, Any]]:
    return [{"id": f"t{i}", "reference": f"{REFERENCE} Sample {i}.", "retrieved_contexts": TOWER} for i in range(n)]


def llm(url: str, model: str) -> OpenAILLM:
    return OpenAILLM(openai.AsyncOpenAI(api_key="sk-bench-key-0123456789", base_url=url), model)


def one(fault: str, n: int, folder: Path) -> str:
    checkpoint = folder / f"{fault}.ckpt"
    data = samples(n)
    with FakeOpenAIServer() as judge:
        reply = FAULTS[fault]
        broken = FakeOpenAIServer(responder=(lambda body: reply) if reply is not None else None).start()
        port = broken.port
        if reply is None:
            broken.stop()
        started = time.perf_counter()
        try:
            evaluate(
                data,
                [ContextRecall(llm(judge.base_url, "judge"), confirm=llm(broken.base_url, "jury"))],
                show_progress=False,
                checkpoint=checkpoint,
            )
            stopped, finished = "did not stop", n
        except EndpointDownError as exc:
            stopped, finished = f"stopped in {time.perf_counter() - started:.1f} s", len(exc.result)
        finally:
            broken.stop()
        paid = len(judge.requests)
        steps = [r for r in map(json.loads, checkpoint.read_text().splitlines()[1:]) if r.get("kind") == "step"]
        size = sum(len(json.dumps(r)) for r in steps)
        with FakeOpenAIServer(port=port) as fixed:
            result = evaluate(
                data,
                [ContextRecall(llm(judge.base_url, "judge"), confirm=llm(fixed.base_url, "jury"))],
                show_progress=False,
                checkpoint=checkpoint,
            )
            confirmations = len(fixed.requests)
        again = len(judge.requests) - paid
    return (
        f"{fault:8} {stopped:18} judge requests paid {paid:3}, sent again by the rerun {again}; handed back "
        f"{finished} finished; kept steps {len(steps)} ({size / max(1, len(steps)):.0f} bytes each); rerun: "
        f"{confirmations} confirmer requests, {len(result.failures)} failures"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--samples", type=int, default=12)
    parser.add_argument("--fault", choices=list(FAULTS), action="append")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        for fault in args.fault or list(FAULTS):
            print(one(fault, args.samples, Path(folder)), flush=True)


if __name__ == "__main__":
    main()
