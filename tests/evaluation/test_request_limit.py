"""``max_concurrency`` bounds LLM requests in flight, however a metric fans its requests out."""

from __future__ import annotations

import asyncio
from typing import Any

from ragrecall import evaluate
from ragrecall.llm import LLMReply, LLMRequest, LLMStack, OfflineJudge
from ragrecall.metrics.context_recall import ContextRecall


class Counting:
    """The offline judge, slowed down, counting the requests in flight."""

    model_name = "counting-judge"

    def __init__(self) -> None:
        self.judge = OfflineJudge()
        self.in_flight = 0
        self.most = 0
        self.calls = 0

    async def agenerate(self, request: LLMRequest[Any]) -> LLMReply[Any]:
        self.in_flight += 1
        self.calls += 1
        self.most = max(self.most, self.in_flight)
        try:
            await asyncio.sleep(0.005)
            return await self.judge.agenerate(request)
        finally:
            self.in_flight -= 1


def test_requests_in_flight_never_exceed_max_concurrency() -> None:
    reference = " ".join(f"Fact number {i} is about topic {i}." for i in range(12))
    # Not word for word (a claim written so in a passage is decided without the judge): every claim is asked.
    passage = reference[:200].replace(" is about ", " is all about ")
    samples = [{"reference": reference, "retrieved_contexts": [passage]} for _ in range(6)]
    transport = Counting()
    # One claim per judge request: each sample fans out into a dozen concurrent requests.
    metric = ContextRecall(LLMStack(transport, max_concurrency=64), claims_per_call=1)
    result = evaluate(samples, [metric], max_concurrency=3, show_progress=False)
    assert not result.failures
    assert transport.calls > 6 * 12
    assert 1 < transport.most <= 3
