"""Claim recall with a real model on any OpenAI-compatible endpoint (OpenAI, Azure, vLLM, Ollama).

Run: OPENAI_API_KEY=... python examples/openai_endpoint.py [--base-url URL] [--model NAME]

Without a key it says so and exits 0 (nothing is sent). Replies are cached in .ragrecall-cache.sqlite, so a
second run costs nothing; CI can then run with the cache in replay-only mode and no network.
"""

from __future__ import annotations

import argparse
import os

import openai

from ragrecall import ContextRecall, OpenAILLM, ResponseCache, RetryPolicy, evaluate
from ragrecall.demo import demo_dataset


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--base-url", default=os.environ.get("OPENAI_BASE_URL"))
    parser.add_argument("--model", default="gpt-4o-mini")
    parser.add_argument("--key-env", default="OPENAI_API_KEY", help="environment variable holding the key")
    args = parser.parse_args()
    api_key = os.environ.get(args.key_env)
    if not api_key:
        print(f"skipped: set {args.key_env} to run this example against {args.base_url or 'OpenAI'}")
        return

    client = openai.AsyncOpenAI(api_key=api_key, base_url=args.base_url)
    with ResponseCache(".ragrecall-cache.sqlite") as cache:
        llm = OpenAILLM(
            client,
            args.model,
            cache=cache,
            retry=RetryPolicy(max_attempts=6, total_timeout=300),  # backoff with jitter, honours Retry-After
            output_mode="auto",  # structured outputs, or JSON mode where the server refuses them
        )
        result = evaluate(demo_dataset(), [ContextRecall(llm)], max_concurrency=8)
    print(result.summary_table())
    worst = min((r for r in result.results("context_recall") if r.value is not None), key=lambda r: r.value or 0.0)
    print(f"\nlowest sample: {worst.sample_id} = {worst.value:.2f}; missing: {worst.evidence.missing_items()}")


if __name__ == "__main__":
    main()
