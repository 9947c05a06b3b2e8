"""Every number read from a reply is validated and bounded before anything sums, stores or shows it: odd
token counts make that reply's usage unknown (counted, shown as unknown) while its content is still used, and
a stored record holding an implausible count from an older version is read safely."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import openai
import pytest

from ragrecall import evaluate
from ragrecall.evaluation import EvaluationResult
from ragrecall.llm import OfflineJudge, OpenAILLM, RetryPolicy
from ragrecall.llm.fake_server import FakeOpenAIServer, ServerReply
from ragrecall.metrics.context_recall import ContextRecall
from ragrecall.usage import REPLY_TOKEN_CEILING, STORED_COUNT_CEILING, Usage, read_count

CLAIMS = json.dumps({"claims": ["Paris is the capital of France."]})


@pytest.mark.parametrize(
    ("value", "count"),
    [
        (12, 12),
        (0, 0),
        (10.0, 10),
        ("10", 10),
        (" 7 ", 7),
        ("10.0", 10),
        (REPLY_TOKEN_CEILING, REPLY_TOKEN_CEILING),
        (REPLY_TOKEN_CEILING + 1, None),
        (10**4000, None),
        (-1, None),
        (10.5, None),
        (float("nan"), None),
        (float("inf"), None),
        (True, None),
        (None, None),
        ("ten", None),
        ("-3", None),
        ("1e3", None),
        ("9" * 5000, None),
        ([3], None),
        ({"n": 3}, None),
    ],
)
def test_a_count_is_a_bounded_non_negative_integer(value: Any, count: int | None) -> None:
    assert read_count(value) == count


def test_a_stored_usage_with_an_implausible_count_reads_as_unknown() -> None:
    for bad in (10**4000, -5, "lots", 1.5, None):
        usage = Usage.model_validate({"requests": 2, "prompt_tokens": bad, "completion_tokens": 3})
        assert (usage.requests, usage.unknown_requests, usage.total_tokens, usage.cost_usd) == (2, 2, 0, None)
    usage = Usage.model_validate({"requests": 1, "prompt_tokens": 4, "cost_usd": float("inf")})
    assert usage.unknown_requests == 1 and usage.cost_usd is None
    assert Usage.model_validate({"requests": 1, "prompt_tokens": STORED_COUNT_CEILING}).unknown_requests == 0
    assert Usage.model_validate_json('{"requests": 1, "prompt_tokens": "7"}').prompt_tokens == 7


def test_unknown_usage_is_shown_as_unknown() -> None:
    total = Usage(requests=3, prompt_tokens=10, cost_usd=0.5) + Usage.unknown()
    assert (total.requests, total.unknown_requests, total.prompt_tokens) == (4, 1, 10)
    assert total.cost_text() == "at least $0.5000 (1 request of unknown usage)"
    assert total.unknown_note() == " (+ the tokens of 1 request whose usage is unknown)"
    assert Usage.unknown(2).cost_text() == "unknown (2 requests of unknown usage)"
    assert Usage(requests=1).cost_text() == "unknown (no price for this model)"


def _llm(server: FakeOpenAIServer, wrapped: bool = False) -> OpenAILLM:
    client = openai.AsyncOpenAI(api_key="sk-test", base_url=server.base_url, max_retries=0)
    if wrapped:  # the SDK's create builds its objects from the reply: the same checks must hold there
        original = client.chat.completions.create

        async def wrapper(*args: Any, **kwargs: Any) -> Any:
            return await original(*args, **kwargs)

        client.chat.completions.create = wrapper  # type: ignore[method-assign]
    return OpenAILLM(client, "gpt-4o-mini", retry=RetryPolicy(max_attempts=2, request_timeout=5.0))


def _with_usage(usage: Any) -> ServerReply:
    body = {
        "id": "x",
        "object": "chat.completion",
        "choices": [{"index": 0, "message": {"role": "assistant", "content": CLAIMS}, "finish_reason": "stop"}],
    }
    if usage is not ...:
        body["usage"] = usage
    return ServerReply(body=body)


@pytest.mark.parametrize(
    ("usage", "prompt", "unknown"),
    [
        ({"prompt_tokens": 10.0, "completion_tokens": "4"}, 10, 0),
        ({"prompt_tokens": 10**4000, "completion_tokens": 4}, 0, 1),
        ({"prompt_tokens": 10**19, "completion_tokens": 4}, 0, 1),
        ({"prompt_tokens": -10, "completion_tokens": 4}, 0, 1),
        ({"prompt_tokens": "many", "completion_tokens": 4}, 0, 1),
        ({"prompt_tokens": [1], "completion_tokens": 4}, 0, 1),
        ("ten tokens", 0, 1),
        (None, 0, 1),
        (..., 0, 1),
    ],
)
@pytest.mark.parametrize("wrapped", [False, True], ids=["direct", "create"])
def test_odd_usage_in_a_reply_is_unknown_and_its_content_used(
    usage: Any, prompt: int, unknown: int, wrapped: bool
) -> None:
    with FakeOpenAIServer(replies=[_with_usage(usage)]) as server:
        llm = _llm(server, wrapped)
        result = ContextRecall(llm, coverage=False).score(
            reference="Paris is the capital of France.", retrieved_contexts=["Paris is the capital of France."]
        )
    assert result.status == "scored" and result.evidence.claims[0].claim == "Paris is the capital of France."
    assert result.usage.requests == 1 and result.usage.prompt_tokens == prompt
    assert result.usage.unknown_requests == unknown
    if unknown:
        assert result.usage.cost_usd is None  # not priced as if it cost nothing


def test_a_checkpoint_holding_a_4000_digit_count_resumes(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from ragrecall.evaluation._checkpoint import _line

    samples = [{"id": f"s{i}", "reference": "Paris is in France.", "retrieved_contexts": ["Paris."]} for i in range(3)]
    checkpoint = tmp_path / "run.ckpt"
    evaluate(samples, [ContextRecall(OfflineJudge())], checkpoint=checkpoint, show_progress=False)
    lines = checkpoint.read_text().splitlines()
    record = json.loads(lines[1])
    record.pop("checksum")
    record["result"]["usage"] = {"requests": 1, "prompt_tokens": 10**4000, "completion_tokens": 10**4000}
    checkpoint.write_text("\n".join([lines[0], _line(record).rstrip("\n"), *lines[2:]]) + "\n")
    monkeypatch.setenv("RAGRECALL_PROGRESS", "1")  # the bar's set-up sums the stored tokens
    for progress in (True, False):
        result: EvaluationResult = evaluate(
            samples, [ContextRecall(OfflineJudge())], checkpoint=checkpoint, show_progress=progress
        )
        assert [r.results["context_recall"].status for r in result.rows] == ["scored"] * 3
        assert result.usage.unknown_requests == 1 and result.usage.total_tokens < 10**6
        assert "whose usage is unknown" in result.summary_table()
