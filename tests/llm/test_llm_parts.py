"""The pieces of the LLM path in isolation: reply parsing, the repair loop, FakeLLM, prompts, prices, cache keys."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import httpx2
import openai
import pytest
from pydantic import BaseModel

from ragrecall.errors import ConfigurationError, LLMRequestError, TransportError
from ragrecall.llm import (
    LLM,
    FakeLLM,
    InvalidReplyError,
    LLMRequest,
    ModelPrice,
    OfflineJudge,
    OpenAITransport,
    PromptTemplate,
    RepairsExhaustedError,
    ResponseCache,
    RetryPolicy,
    ask,
    cache_key,
    cost_usd,
    is_retryable,
    parse_reply,
    price_for,
    retry_after_seconds,
    strict_json_schema,
)
from ragrecall.llm._cache import CachedReply
from ragrecall.usage import Usage


class Answer(BaseModel):
    value: int


def request(**kwargs: Any) -> LLMRequest[Answer]:
    return LLMRequest(({"role": "user", "content": "Give a number as JSON."},), Answer, "v1", "test", kwargs)


def test_parse_reply_accepts_fenced_json_and_names_schema_errors() -> None:
    assert parse_reply('```json\n{"value": 3}\n```', Answer) == Answer(value=3)
    with pytest.raises(InvalidReplyError, match="not valid JSON") as info:
        parse_reply("three", Answer, usage=Usage(requests=1))
    assert info.value.raw == "three" and info.value.usage == Usage(requests=1)
    with pytest.raises(InvalidReplyError, match="value"):
        parse_reply('{"value": "x"}', Answer)


async def test_ask_repairs_invariant_failures_and_sums_usage() -> None:
    llm = FakeLLM(['{"value": -1}', '{"value": 2}'], usage=Usage(requests=1, prompt_tokens=5))

    def positive(answer: Answer) -> None:
        if answer.value < 0:
            raise ValueError("value must be positive")

    reply = await ask(llm, request(), check=positive)
    assert reply.parsed == Answer(value=2)
    assert reply.usage == Usage(requests=2, prompt_tokens=10)
    assert "value must be positive" in llm.requests[1].messages[-1]["content"]


async def test_ask_lets_request_errors_through_unchanged() -> None:
    llm = FakeLLM([LLMRequestError("down")])
    with pytest.raises(LLMRequestError, match="down"):
        await ask(llm, request())


async def test_ask_gives_up_after_the_budget() -> None:
    llm = FakeLLM(["x", "y"])
    with pytest.raises(RepairsExhaustedError, match="for test after 2 attempts"):
        await ask(llm, request(), max_repairs=1)


async def test_fake_llm_records_requests_and_reports_exhaustion() -> None:
    llm = FakeLLM([Answer(value=1)], model_name="scripted")
    assert isinstance(llm, LLM) and isinstance(OfflineJudge(), LLM)
    reply = await llm.agenerate(request(a=1))
    assert reply.parsed.value == 1 and reply.raw == '{"value":1}'
    assert llm.requests[0].inputs == {"a": 1} and llm.remaining == 0 and llm.model_name == "scripted"
    with pytest.raises(RuntimeError, match="no scripted reply left for request 2"):
        await llm.agenerate(request())


def test_prompt_template_parsing_and_rendering() -> None:
    template = PromptTemplate.parse("---\nversion: x/3\n---\n[system]\nFixed {{a}}.\n[user]\nVar {{ b }} {{a}}.")
    assert template.version == "x/3" and template.placeholders == {"a", "b"}
    assert template.render(a="A", b="B") == (
        {"role": "system", "content": "Fixed {{a}}."},
        {"role": "user", "content": "Var B A."},
    )
    with pytest.raises(ConfigurationError, match="does not fill"):
        template.render(a="A")
    plain = PromptTemplate.parse("Only {{b}}")
    assert plain.system is None and plain.version.startswith("custom:")
    assert plain.version != PromptTemplate.parse("Only {{b}}!").version
    with pytest.raises(ConfigurationError):
        PromptTemplate.parse("---\nversion: 1\nno end")


def test_shipped_prompts_put_fixed_text_in_the_system_message() -> None:
    from ragrecall.llm._prompts import builtin_prompt

    versions = {"decompose": 3, "judge": 4, "single": 4}
    for step, version in versions.items():
        for language in ("en", "zh"):
            template = builtin_prompt("context_recall", step, language)
            assert template.system and "JSON" in template.system
            assert template.version == f"context_recall/{step}.{language}/{version}"
            assert "{{" not in template.system


def test_shipped_follow_up_prompts_are_one_user_message_naming_the_reply_format() -> None:
    from ragrecall.llm._prompts import builtin_prompt

    for step, version in (("cover", 2), ("recheck", 4), ("single_fix", 2)):
        for language in ("en", "zh"):
            template = builtin_prompt("context_recall", step, language)
            assert template.system is None and "JSON" in template.user
            assert template.version == f"context_recall/{step}.{language}/{version}"


def test_prices_match_dated_snapshots_and_user_tables_win() -> None:
    assert price_for("gpt-4o-mini-2024-07-18") == ModelPrice(0.15, 0.60, 0.075, 0.30, 0.075)
    assert price_for("gpt-4o-2024-08-06") == ModelPrice(2.50, 10.00, 1.25, 5.00, 1.25)
    assert price_for("claude-haiku-4-5-20251001") == ModelPrice(1.00, 5.00, 0.50, 2.50, 0.10)
    assert price_for("my-local-model") is None
    assert cost_usd("my-local-model", 10, 10) is None
    mine = {"my-local-model": ModelPrice(1.0, 2.0), "gpt-4o-mini": ModelPrice(0.0, 0.0)}
    assert cost_usd("my-local-model", 1_000_000, 500_000, mine) == pytest.approx(2.0)
    assert cost_usd("gpt-4o-mini", 1000, 1000, mine) == 0.0
    with pytest.raises(ConfigurationError):
        ModelPrice(-1.0, 0.0)


def test_batch_prices_come_from_the_batch_column_else_the_live_price() -> None:
    assert cost_usd("gpt-4o-mini", 1_000_000, 1_000_000, batch=True) == pytest.approx(0.375)
    assert cost_usd("gpt-4o-mini", 1_000_000, 1_000_000) == pytest.approx(0.75)
    mine = {"my-model": ModelPrice(1.0, 2.0), "cheap-batch": ModelPrice(1.0, 2.0, 0.1, 0.2)}
    assert cost_usd("my-model", 1_000_000, 1_000_000, mine, batch=True) == pytest.approx(3.0)  # no batch column
    assert cost_usd("cheap-batch", 1_000_000, 1_000_000, mine, batch=True) == pytest.approx(0.3)
    with pytest.raises(ConfigurationError, match="batch_input_per_million"):
        ModelPrice(1.0, 1.0, -0.5, 0.5)


def test_cached_prompt_tokens_cost_the_cached_column_live_and_the_batch_price_in_a_batch() -> None:
    # gpt-4o-mini: 0.15 live input, 0.075 cached input, 0.60 output per million.
    assert cost_usd("gpt-4o-mini", 1_000_000, 0, cached_tokens=400_000) == pytest.approx(0.6 * 0.15 + 0.4 * 0.075)
    assert cost_usd("gpt-4o-mini", 1_000, 0, cached_tokens=5_000) == pytest.approx(1_000 * 0.075 / 1e6)  # capped
    assert cost_usd("gpt-4o-mini", 1_000_000, 0, batch=True, cached_tokens=400_000) == pytest.approx(0.075)
    mine = {"no-cache-column": ModelPrice(1.0, 2.0)}
    assert cost_usd("no-cache-column", 1_000_000, 0, mine, cached_tokens=1_000_000) == pytest.approx(1.0)
    with pytest.raises(ConfigurationError, match="cached_input_per_million"):
        ModelPrice(1.0, 1.0, None, None, -0.1)


def test_output_schemas_are_built_once_and_cache_keys_keep_pydantics_schema() -> None:
    from ragrecall.llm._schema import output_schema

    assert output_schema(Answer) is output_schema(Answer)
    assert output_schema(Answer) == Answer.model_json_schema()
    strict = strict_json_schema(Answer)
    strict["properties"]["value"]["type"] = "string"  # the caller's copy: the next one is untouched
    assert strict_json_schema(Answer)["properties"]["value"]["type"] == "integer"
    assert strict_json_schema(Answer)["additionalProperties"] is False
    transport = OpenAITransport(openai.AsyncOpenAI(api_key="x", base_url="http://127.0.0.1:9/v1"), "m")
    document = transport.documents(request())[0]
    assert document["output_schema"] == Answer.model_json_schema()  # cache keys written before still match
    assert document["params"]["response_format"]["json_schema"]["schema"] == strict_json_schema(Answer)


def test_cache_key_covers_what_changes_the_answer() -> None:
    base: dict[str, Any] = {
        "model": "m",
        "messages": [{"role": "user", "content": "hi"}],
        "output_schema": strict_json_schema(Answer),
        "params": {"temperature": 0.0, "seed": 0},
        "prompt_version": "v1",
    }
    key = cache_key(**base)
    assert len(key) == 64 and cache_key(**dict(base)) == key
    for field, value in [
        ("model", "m2"),
        ("messages", [{"role": "user", "content": "hi!"}]),
        ("output_schema", {"type": "object"}),
        ("params", {"temperature": 0.5, "seed": 0}),
        ("prompt_version", "v2"),
    ]:
        assert cache_key(**{**base, field: value}) != key, field


def test_cache_stores_and_counts(tmp_path: Path) -> None:
    with ResponseCache(tmp_path / "sub" / "c.sqlite") as cache:
        assert cache.get("k") is None and len(cache) == 0
        cache.put("k", CachedReply('{"value": 1}', 3, 4), model="m", prompt_version="v")
        assert cache.get("k") == CachedReply('{"value": 1}', 3, 4) and len(cache) == 1
    with pytest.raises(ConfigurationError):
        ResponseCache(tmp_path / "c.sqlite", mode="off")  # type: ignore[arg-type]


def _status_error(status: int, headers: dict[str, str] | None = None) -> openai.APIStatusError:
    req = httpx2.Request("POST", "http://127.0.0.1/v1/chat/completions")
    response = httpx2.Response(status, headers=headers or {}, request=req)
    return openai.APIStatusError("error", response=response, body=None)


def test_retryable_errors_and_retry_after_parsing() -> None:
    assert is_retryable(_status_error(429)) and is_retryable(_status_error(502)) and is_retryable(_status_error(408))
    assert not is_retryable(_status_error(400)) and not is_retryable(_status_error(401))
    assert not is_retryable(ValueError())
    assert retry_after_seconds(_status_error(429, {"Retry-After": "2"})) == 2.0
    assert retry_after_seconds(_status_error(429, {"retry-after-ms": "150"})) == pytest.approx(0.15)
    assert retry_after_seconds(_status_error(429, {"Retry-After": "Wed, 21 Oct 2015 07:28:00 GMT"})) == 0.0
    assert retry_after_seconds(_status_error(429, {"Retry-After": "soon"})) is None
    assert retry_after_seconds(ValueError()) is None


@pytest.mark.parametrize("kwargs", [{"max_attempts": 0}, {"initial_wait": -1}, {"total_timeout": "x"}])
def test_retry_policy_validates_its_settings(kwargs: dict[str, Any]) -> None:
    with pytest.raises(ConfigurationError):
        RetryPolicy(**kwargs)


def test_total_timeout_counts_the_coming_backoff_wait() -> None:
    import asyncio

    waits: list[float] = []

    async def sleep(seconds: float) -> None:
        waits.append(seconds)

    policy = RetryPolicy(max_attempts=6, initial_wait=100, max_wait=100, jitter=0, total_timeout=5, sleep=sleep)

    async def send() -> None:
        raise TransportError("no reply in time", kind="timeout", retryable=True)

    with pytest.raises(LLMRequestError, match="gave up after 1 attempt"):
        asyncio.run(policy.call(send))
    assert waits == []


def test_a_cache_file_that_is_not_sqlite_is_a_configuration_error(tmp_path: Path) -> None:
    from ragrecall.llm import ResponseCache

    bad = tmp_path / "notdb.sqlite"
    bad.write_text("hello, I am not a database " * 100, encoding="utf-8")
    for mode in ("read-write", "replay-only"):
        with pytest.raises(ConfigurationError, match="is not a ragrecall response cache"):
            ResponseCache(bad, mode=mode)  # type: ignore[arg-type]


def test_the_schema_sent_is_compact_and_validates_the_same_shape() -> None:
    from pydantic import BaseModel

    from ragrecall.llm._schema import sent_schema

    class Part(BaseModel):
        """A part (this docstring is not sent)."""

        title: str
        description: str = "x"

    class Whole(BaseModel):
        parts: list[Part]
        main: Part | None

    class Node(BaseModel):
        title: str
        kids: list[Node]

    strict = strict_json_schema(Whole)
    text = json.dumps(strict)
    assert "$defs" not in text and "$ref" not in text and "(this docstring" not in text
    part = strict["properties"]["parts"]["items"]
    # Fields named "title" and "description" are kept: they are names there, not schema keywords.
    assert part["required"] == ["title", "description"] and part["additionalProperties"] is False
    assert set(part["properties"]) == {"title", "description"} and "default" not in part["properties"]["description"]
    assert sent_schema(Whole, strict=False)["properties"]["parts"]["items"]["required"] == ["title"]
    # A recursive model keeps its definitions.
    recursive = strict_json_schema(Node)
    assert recursive["$ref"] == "#/$defs/Node" and recursive["$defs"]["Node"]["required"] == ["title", "kids"]
    strict["properties"]["parts"]["items"]["required"] = []  # a copy: the cached schema is not changed
    assert strict_json_schema(Whole)["properties"]["parts"]["items"]["required"] == ["title", "description"]


def test_a_dry_run_bills_the_response_schema_unless_none_is_sent() -> None:
    from ragrecall.llm import DryRunLLM, TokenCounter
    from ragrecall.metrics.context_recall import ClaimList, ContextRecall, JudgedClaims

    sample = {"reference": "Paris is in France. It is big.", "retrieved_contexts": ["Paris lies in France."]}
    with_schema = ContextRecall(DryRunLLM("gpt-4o-mini")).score(**sample).usage
    without = ContextRecall(DryRunLLM("gpt-4o-mini", schema=False)).score(**sample).usage
    counter = TokenCounter()
    schemas = sum(counter.text(json.dumps(strict_json_schema(m))) for m in (ClaimList, JudgedClaims))
    assert with_schema.requests == without.requests == 2
    assert with_schema.prompt_tokens - without.prompt_tokens == schemas > 0
    assert (with_schema.cost_usd or 0) > (without.cost_usd or 0)
