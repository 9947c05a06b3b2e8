"""1,000 samples against an LLM that fails at random: nothing is lost, nothing else changes."""

from __future__ import annotations

import hashlib
import random
from collections import Counter

from ragrecall import ContextRecall, OfflineJudge, RetryPolicy
from ragrecall.errors import TransportError
from ragrecall.evaluation import evaluate
from ragrecall.llm import LLMReply, LLMRequest
from ragrecall.llm._protocol import OutputT

FACTS = [
    "The warranty lasts two years.",
    "Returns are accepted within 30 days.",
    "The battery charges in three hours.",
    "Support is open on weekdays.",
    "The device weighs 1.2 kilograms.",
    "Firmware updates install overnight.",
]


async def _no_sleep(_: float) -> None:
    return None


class FlakyJudge:
    """The offline judge behind the real retry policy, failing by a fixed rule per request (with the errors a
    transport raises).

    About 30% of requests fail transiently (one or two timeouts or 503s, then succeed) and about 5% fail
    permanently (a 503 every time, so the retries run out).
    """

    def __init__(self) -> None:
        self.judge = OfflineJudge()
        self.retry = RetryPolicy(max_attempts=3, initial_wait=0, jitter=0, sleep=_no_sleep)
        self.attempts: Counter[str] = Counter()
        self.permanent: set[str] = set()

    @property
    def model_name(self) -> str:
        return "flaky"

    async def agenerate(self, request: LLMRequest[OutputT]) -> LLMReply[OutputT]:
        key = hashlib.sha256(repr(request.messages).encode()).hexdigest()
        draw = random.Random(key).random()

        async def send() -> LLMReply[OutputT]:
            self.attempts[key] += 1
            if draw < 0.05:
                self.permanent.add(key)
                raise TransportError("HTTP 503: overloaded", kind="status", status=503, retryable=True)
            if draw < 0.20 and self.attempts[key] == 1:
                raise TransportError("no reply in time", kind="timeout", retryable=True)
            if draw < 0.35 and self.attempts[key] <= 2:
                raise TransportError("HTTP 503: busy", kind="status", status=503, retryable=True)
            return await self.judge.agenerate(request)

        return await self.retry.call(send)


def make_samples(n: int) -> list[dict[str, object]]:
    rng = random.Random(2024)
    samples = []
    for i in range(n):
        reference = rng.sample(FACTS, rng.randint(2, 4))
        retrieved = rng.sample(FACTS, rng.randint(1, 4))
        samples.append({"id": f"s{i}", "reference": " ".join(reference), "retrieved_contexts": retrieved})
    return samples


def test_random_failures_lose_nothing_and_change_nothing_else() -> None:
    samples = make_samples(1000)
    clean = evaluate(samples, [ContextRecall(OfflineJudge())], max_concurrency=32, show_progress=False)
    assert not clean.failures

    flaky = FlakyJudge()
    result = evaluate(samples, [ContextRecall(flaky)], max_concurrency=32, show_progress=False)

    assert [row.sample_id for row in result] == [f"s{i}" for i in range(1000)]
    statuses = Counter(r.status for r in result.results("context_recall"))
    assert set(statuses) <= {"scored", "failed"}
    assert statuses["scored"] + statuses["failed"] == 1000
    assert 0 < len(result.failures) < 1000
    for failure in result.failures:
        assert failure.type == "LLMRequestError"
        assert "gave up after 3 attempts" in failure.message and "503" in failure.message
    # Transient failures were retried into the same answers; every scored sample matches the clean run.
    for clean_result, flaky_result in zip(
        clean.results("context_recall"), result.results("context_recall"), strict=True
    ):
        if flaky_result.status == "scored":
            assert flaky_result.value == clean_result.value
            assert flaky_result.evidence == clean_result.evidence.model_copy(update={"model": "flaky"})
    assert sum(1 for n in flaky.attempts.values() if n > 1) > 100  # plenty of retries happened
    assert flaky.permanent
    # Failures follow the per-request rule, not the interleaving: alone, the same samples fail again.
    failed_ids = {f.sample_id for f in result.failures}
    again = evaluate(
        [s for s in samples if s["id"] in failed_ids] + samples[:50],
        [ContextRecall(FlakyJudge())],
        max_concurrency=4,
        show_progress=False,
    )
    assert {f.sample_id for f in again.failures} == failed_ids | (failed_ids & {s["id"] for s in samples[:50]})
