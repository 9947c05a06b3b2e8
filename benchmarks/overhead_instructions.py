"""Instructions per sample of ``evaluate`` without HTTP: a count that machine load does not change.

Timing the client on a shared machine varies by tens of percent from run to run; the number of instructions a
run executes does not. This script runs ``evaluate`` over the samples of ``benchmarks/evaluate_bench.py`` with
``ContextRecall`` in claims mode and an LLM answering at once with the offline judge's replies, recorded in an
earlier process (so that the count holds no judging). Counted under valgrind for two sample counts, the
difference divided by the difference in samples is the work per sample, start-up and imports left out:

    python benchmarks/overhead_instructions.py record --samples 250 --replies /tmp/replies.json
    for n in 50 250; do
        valgrind --tool=callgrind --callgrind-out-file=/dev/null \\
            python benchmarks/overhead_instructions.py run --samples $n --replies /tmp/replies.json
    done  # "Collected : N" on stderr; (N250 - N50) / 200 = instructions per sample

With ``PYTHONPATH`` pointing at another checkout's ``src``, the same commands count that version.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import json
import sys
from pathlib import Path
from typing import Any

import ragrecall
from ragrecall.llm import FakeLLM, LLMRequest, OfflineJudge
from ragrecall.metrics.context_recall import ContextRecall

sys.path.insert(0, str(Path(__file__).resolve().parent))
from evaluate_bench import PreparedLLM, make_samples

SEED = 1  # the seed of evaluate_bench's no-HTTP samples


def key(request: LLMRequest[Any]) -> str:
    return "\x1e".join(m["content"] for m in request.messages)


def record(samples: int, path: Path) -> None:
    """Score ``samples`` with the offline judge and write every reply, keyed by its request's messages."""
    judge = OfflineJudge()
    replies: dict[str, str] = {}

    def answer(request: LLMRequest[Any]) -> str:
        replies[key(request)] = reply = json.dumps(judge.answer(request.task, request.inputs))
        return reply

    result = ragrecall.evaluate(
        make_samples(samples, SEED), [ContextRecall(FakeLLM(answer))], max_concurrency=64, show_progress=False
    )
    if result.failures:
        raise SystemExit(f"recording: {len(result.failures)} failures, first: {result.failures[0]}")
    path.write_text(json.dumps(replies), encoding="utf-8")


def run(samples: int, path: Path) -> None:
    """Score the first ``samples`` samples with the recorded replies."""
    replies = {tuple(k.split("\x1e")): v for k, v in json.loads(path.read_text(encoding="utf-8")).items()}
    data = make_samples(samples, SEED)
    gc.collect()
    gc.freeze()  # what start-up left is not the run's to scan
    evaluation = ragrecall.aevaluate(
        data, [ContextRecall(PreparedLLM(replies))], max_concurrency=64, show_progress=False
    )
    result = asyncio.run(evaluation)
    if result.failures:
        raise SystemExit(f"{len(result.failures)} failures, first: {result.failures[0]}")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("mode", choices=["record", "run"])
    parser.add_argument("--samples", type=int, required=True)
    parser.add_argument("--replies", type=Path, required=True, help="the replies file record writes, run reads")
    args = parser.parse_args(argv)
    (record if args.mode == "record" else run)(args.samples, args.replies)


if __name__ == "__main__":
    main()
