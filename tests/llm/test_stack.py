"""The layers of the LLM stack over a scripted transport: cache that heals and replays, deadlines, breaker,
concurrency bound, prices, scrubbing."""

from __future__ import annotations

import asyncio
import contextlib
import re
import sqlite3
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from pydantic import BaseModel

from ragrecall.errors import (
    CacheMissError,
    ConfigurationError,
    EndpointDownError,
    LLMOutputError,
    LLMRequestError,
    TransportError,
)
from ragrecall.llm import (
    Breaker,
    LLMReply,
    LLMRequest,
    LLMStack,
    ModelPrice,
    ResponseCache,
    RetryPolicy,
    ask,
)
from ragrecall.llm._limit import REQUEST_LIMIT
from ragrecall.llm._protocol import accept_reply
from ragrecall.llm._scrub import REDACTED, Scrubber, public_url
from ragrecall.usage import Usage


class Value(BaseModel):
    value: int


Outcome = str | BaseException | Callable[[], Any]


class Scripted:
    """A transport answering from a script: reply text (checked as a real transport checks it), an
    exception to raise, or ``("length", text)`` for a reply cut off at the token limit."""

    model_name = "scripted-model"
    endpoint = "http://llm.test/v1"

    def __init__(self, *outcomes: Any, delay: float = 0.0) -> None:
        self.outcomes = list(outcomes)
        self.calls = 0
        self.delay = delay
        self.in_flight = 0
        self.most_in_flight = 0

    async def agenerate(self, request: LLMRequest[Any]) -> LLMReply[Any]:
        self.calls += 1
        self.in_flight += 1
        self.most_in_flight = max(self.most_in_flight, self.in_flight)
        try:
            if self.delay:
                await asyncio.sleep(self.delay)
            outcome = self.outcomes.pop(0) if self.outcomes else '{"value": 1}'
            if isinstance(outcome, BaseException):
                raise outcome
            finish = "stop"
            if isinstance(outcome, tuple):
                finish, outcome = outcome
            usage = Usage(requests=1, prompt_tokens=10, completion_tokens=5)
            return accept_reply(outcome, request, usage, finish_reason=finish)
        finally:
            self.in_flight -= 1


def request(text: str = "hello") -> LLMRequest[Value]:
    return LLMRequest(({"role": "user", "content": text},), Value, "test/1", "test")


def no_wait(**kwargs: Any) -> RetryPolicy:
    async def sleep(seconds: float) -> None:
        return None

    args: dict[str, Any] = {"max_attempts": 3, "initial_wait": 0.01, "jitter": 0.0, "sleep": sleep}
    args.update(kwargs)
    return RetryPolicy(**args)


def status(code: int, retry_after: float | None = None) -> TransportError:
    return TransportError(
        f"HTTP {code} from http://llm.test/v1",
        kind="status",
        status=code,
        retryable=code in (408, 409, 429) or code >= 500,
        retry_after=retry_after,
        endpoint="http://llm.test/v1",
    )


def connection() -> TransportError:
    return TransportError("cannot reach http://llm.test/v1", kind="connection", retryable=True, endpoint="x")


def run(coro: Any) -> Any:
    return asyncio.run(coro)


# -- the cache -----------------------------------------------------------------------------------------------


def test_an_invalid_reply_is_not_served_again_and_a_rerun_heals(tmp_path: Path) -> None:
    path = tmp_path / "c.sqlite"
    transport = Scripted("{not json", '{"value": 7}')
    stack = LLMStack(transport, cache=ResponseCache(path), retry=no_wait())
    with pytest.raises(Exception, match="not valid JSON"):
        run(stack.agenerate(request()))
    assert ResponseCache(path).counts() == {"rejected": 1}
    # A rerun against a healthy server asks again instead of failing from the cache for ever.
    again = LLMStack(transport, cache=ResponseCache(path), retry=no_wait())
    reply = run(again.agenerate(request()))
    assert reply.parsed.value == 7 and reply.usage.requests == 1 and transport.calls == 2
    assert ResponseCache(path).counts() == {"valid": 1}
    third = run(LLMStack(Scripted(), cache=ResponseCache(path)).agenerate(request()))
    assert third.parsed.value == 7 and third.usage.cached_requests == 1 and third.usage.requests == 0


def test_a_reply_cut_at_the_token_limit_is_refused_live_and_on_replay(tmp_path: Path) -> None:
    path = tmp_path / "c.sqlite"
    transport = Scripted(("length", '{"value": 3}'), '{"value": 4}')
    stack = LLMStack(transport, cache=ResponseCache(path), retry=no_wait())
    reply = run(ask(stack, request()))
    assert reply.parsed.value == 4 and reply.attempts == 2
    replay = LLMStack(Scripted(RuntimeError("no network")), cache=ResponseCache(path, mode="replay-only"))
    replayed = run(ask(replay, request()))
    # The cut-off reply is replayed as the rejection it was, so the repair that followed is replayed too.
    assert replayed.parsed.value == 4 and replayed.attempts == 2 and replayed.usage.requests == 0


def test_replay_applies_the_live_checks_to_rows_written_before_validation(tmp_path: Path) -> None:
    path = tmp_path / "old.sqlite"
    from ragrecall.llm import cache_key  # noqa: F401 - the key function older caches used

    stack = LLMStack(Scripted('{"value": 1}'), cache=ResponseCache(path))
    run(stack.agenerate(request()))
    with sqlite3.connect(path) as db:  # make it an old, unchecked row holding an off-schema reply
        db.execute("UPDATE responses SET raw = ?, status = 'unchecked'", ('{"value": "many"}',))
    replay = LLMStack(Scripted(), cache=ResponseCache(path, mode="replay-only"))
    with pytest.raises(Exception, match="does not match the required JSON schema"):
        run(replay.agenerate(request()))
    healing = LLMStack(Scripted('{"value": 2}'), cache=ResponseCache(path))
    assert run(healing.agenerate(request())).parsed.value == 2


def test_the_request_check_decides_what_is_cached(tmp_path: Path) -> None:
    def positive(parsed: Value) -> None:
        if parsed.value < 1:
            raise ValueError("value must be positive")

    path = tmp_path / "c.sqlite"
    transport = Scripted('{"value": 0}', '{"value": 5}')
    stack = LLMStack(transport, cache=ResponseCache(path), retry=no_wait())
    reply = run(ask(stack, request(), check=positive))
    assert reply.parsed.value == 5 and reply.attempts == 2
    assert ResponseCache(path).counts() == {"rejected": 1, "valid": 1}


def test_replay_only_miss_names_the_file_and_sends_nothing(tmp_path: Path) -> None:
    path = tmp_path / "c.sqlite"
    ResponseCache(path).close()
    transport = Scripted()
    with pytest.raises(CacheMissError, match=r"c\.sqlite"):
        run(LLMStack(transport, cache=ResponseCache(path, mode="replay-only")).agenerate(request()))
    assert transport.calls == 0


def test_a_cache_that_breaks_in_use_names_the_file(tmp_path: Path) -> None:
    path = tmp_path / "c.sqlite"
    cache = ResponseCache(path)
    with sqlite3.connect(path) as db:
        db.execute("DROP TABLE responses")
    with pytest.raises(ConfigurationError, match=r"c\.sqlite"):
        cache.get("k")


# -- deadlines and retries -------------------------------------------------------------------------------------


def test_every_attempt_has_a_wall_clock_deadline() -> None:
    transport = Scripted(delay=5.0)
    stack = LLMStack(transport, retry=no_wait(max_attempts=2, request_timeout=0.05))
    with pytest.raises(LLMRequestError, match=r"within 0\.05 s") as info:
        run(stack.agenerate(request()))
    assert transport.calls == 2 and isinstance(info.value.__cause__, TransportError)


def test_total_timeout_bounds_the_attempt_in_flight() -> None:
    transport = Scripted(delay=5.0)
    policy = no_wait(max_attempts=5, request_timeout=10.0, total_timeout=0.1)
    with pytest.raises(LLMRequestError, match=r"ran out of its total_timeout"):
        run(LLMStack(transport, retry=policy).agenerate(request()))
    assert transport.calls == 1


@pytest.mark.parametrize(
    ("asked", "policy", "says"),
    [(600.0, {}, "longer than max_retry_after=120 s"), (50.0, {"total_timeout": 20.0}, "left of total_timeout")],
)
def test_a_retry_after_beyond_the_budget_fails_at_once_saying_what_was_asked(
    asked: float, policy: dict[str, Any], says: str
) -> None:
    transport = Scripted(status(429, retry_after=asked))
    with pytest.raises(LLMRequestError, match=re.escape(f"asked to wait {asked:g} s")) as info:
        run(LLMStack(transport, retry=no_wait(**policy)).agenerate(request()))
    assert says in str(info.value) and transport.calls == 1


# -- the breaker ----------------------------------------------------------------------------------------------


@pytest.mark.parametrize("failure", [connection, lambda: status(401), lambda: status(404)])
def test_the_first_requests_failing_alike_open_the_breaker(failure: Callable[[], TransportError]) -> None:
    transport = Scripted(*[failure() for _ in range(50)])
    stack = LLMStack(transport, retry=no_wait(max_attempts=6), max_concurrency=2)

    async def many() -> list[BaseException | LLMReply[Value]]:
        return await asyncio.gather(*(stack.agenerate(request(str(i))) for i in range(20)), return_exceptions=True)

    outcomes = run(many())
    # Three alike failures open it; only what was already in flight (two at a time) went out beside them.
    assert 3 <= transport.calls <= 4
    down = [o for o in outcomes if isinstance(o, EndpointDownError)]
    assert len(down) >= 18
    assert "http://llm.test/v1" in str(down[0]) and "scripted-model" in str(down[0])


def test_transient_failures_need_more_before_any_success_and_a_window_after_one() -> None:
    transport = Scripted(*[status(500) for _ in range(20)])
    stack = LLMStack(transport, retry=no_wait(max_attempts=4))
    with pytest.raises(LLMRequestError) as first:
        run(stack.agenerate(request("a")))
    assert not isinstance(first.value, EndpointDownError) and transport.calls == 4
    with pytest.raises(EndpointDownError, match="none has succeeded"):
        run(stack.agenerate(request("b")))
    assert transport.calls == 6  # twice the threshold of alike transient failures

    # After a valid reply the endpoint is known to work: only a window of failures with no success stops it.
    healthy = Scripted('{"value": 1}', *[status(502) for _ in range(40)])
    stack = LLMStack(healthy, retry=no_wait(max_attempts=6), breaker_window=10)
    assert run(stack.agenerate(request("a"))).parsed.value == 1
    with pytest.raises(LLMRequestError) as later:
        run(stack.agenerate(request("b")))
    assert not isinstance(later.value, EndpointDownError) and healthy.calls == 7
    with pytest.raises(EndpointDownError, match="since its last valid reply") as down:
        run(stack.agenerate(request("c")))
    assert healthy.calls == 11 and "http://llm.test/v1" in str(down.value) and "\n" not in str(down.value)


def test_a_dead_cause_mid_run_stops_after_the_threshold() -> None:
    transport = Scripted('{"value": 1}', '{"value": 2}', *[connection() for _ in range(40)])
    stack = LLMStack(transport, retry=no_wait(max_attempts=6))
    assert run(stack.agenerate(request("a"))).parsed.value == 1
    assert run(stack.agenerate(request("b"))).parsed.value == 2
    with pytest.raises(EndpointDownError, match="3 no connection"):
        run(stack.agenerate(request("c")))
    assert transport.calls == 5


def test_successes_between_failures_never_open_the_breaker() -> None:
    # Fails two requests in three for 300 requests: every failure is followed by a success within the window.
    outcomes: list[Any] = []
    for _ in range(100):
        outcomes += [status(503), connection(), '{"value": 1}']
    transport = Scripted(*outcomes)
    stack = LLMStack(transport, retry=no_wait(max_attempts=6))
    for i in range(100):
        assert run(stack.agenerate(request(str(i)))).parsed.value == 1
    assert stack.breaker is not None and not stack.breaker.is_open and transport.calls == 300


def test_fast_failures_do_not_outrun_slower_good_replies_in_flight() -> None:
    class FastFailures(Scripted):
        """The first three requests fail at once; the others answer after a while."""

        async def agenerate(self, request: LLMRequest[Any]) -> LLMReply[Any]:
            self.calls += 1
            if self.calls <= 3:
                raise connection()
            await asyncio.sleep(0.05)
            return accept_reply('{"value": 1}', request, Usage(requests=1), finish_reason="stop")

    transport = FastFailures()
    stack = LLMStack(transport, retry=no_wait(max_attempts=6), max_concurrency=16)

    async def many() -> list[LLMReply[Value]]:
        return await asyncio.gather(*(stack.agenerate(request(str(i))) for i in range(16)))

    assert all(r.parsed.value == 1 for r in run(many()))


def test_replies_that_never_parse_open_the_breaker() -> None:
    transport = Scripted(*["{not json"] * 100)
    stack = LLMStack(transport, retry=no_wait())
    with pytest.raises(EndpointDownError, match="do not parse"):
        for i in range(50):
            with contextlib.suppress(LLMOutputError):
                run(ask(stack, request(str(i))))
    assert transport.calls == 6


def test_an_open_breaker_lets_one_probe_through_after_its_cooldown() -> None:
    transport = Scripted(*[connection() for _ in range(3)], connection(), '{"value": 7}', delay=0.01)
    breaker = Breaker(transport, threshold=3, cooldown=0.05)
    for _ in range(2):
        with pytest.raises(TransportError):
            run(breaker.agenerate(request()))
    with pytest.raises(EndpointDownError):
        run(breaker.agenerate(request()))
    with pytest.raises(EndpointDownError):  # open: nothing sent
        run(breaker.agenerate(request()))
    assert transport.calls == 3
    time.sleep(0.06)
    with pytest.raises(EndpointDownError):  # the probe failed: open again
        run(breaker.agenerate(request()))
    assert transport.calls == 4 and breaker.is_open
    time.sleep(0.06)

    async def probe_and_another() -> list[Any]:
        return await asyncio.gather(
            breaker.agenerate(request("p")), breaker.agenerate(request("q")), return_exceptions=True
        )

    probe, other = run(probe_and_another())
    assert isinstance(probe, LLMReply) and isinstance(other, EndpointDownError)  # half-open: one probe only
    assert not breaker.is_open and run(breaker.agenerate(request())).parsed.value == 1


def test_fast_failures_wait_as_long_as_a_good_reply_takes() -> None:
    """Transient failures of an endpoint that has answered open the breaker only once the streak has lasted as
    long as its valid replies took: a good reply sent during the streak may still be on its way."""

    class SlowGoodThenFailing:
        model_name = "m"

        def __init__(self) -> None:
            self.calls = 0

        async def agenerate(self, request: LLMRequest[Any]) -> LLMReply[Any]:
            self.calls += 1
            if self.calls == 1:
                await asyncio.sleep(0.3)
                return accept_reply('{"value": 1}', request, Usage(requests=1), finish_reason="stop")
            raise status(503)

    breaker = Breaker(SlowGoodThenFailing(), threshold=3, window=5, cooldown=30.0)
    started = time.monotonic()
    assert run(breaker.agenerate(request())).parsed.value == 1
    for _ in range(10):  # twice the window, all at once after the valid reply
        with pytest.raises(TransportError):
            run(breaker.agenerate(request()))
    if time.monotonic() - started < 0.55:  # the ten failures came within the time a valid reply took
        assert not breaker.is_open
    time.sleep(0.35)
    with pytest.raises(EndpointDownError, match="the last 11 requests"):
        run(breaker.agenerate(request()))
    assert breaker.is_open


@pytest.mark.parametrize("settings", [{"threshold": 0}, {"window": True}, {"cooldown": -1}])
def test_breaker_settings_are_checked(settings: dict[str, Any]) -> None:
    with pytest.raises(ConfigurationError, match="breaker"):
        Breaker(Scripted(), **settings)


# -- concurrency, prices, scrubbing -------------------------------------------------------------------------------


def test_requests_in_flight_are_bounded_by_the_stack_and_by_the_run() -> None:
    transport = Scripted(delay=0.01)
    stack = LLMStack(transport, max_concurrency=3)

    async def fan_out() -> None:
        await asyncio.gather(*(stack.agenerate(request(str(i))) for i in range(30)))

    run(fan_out())
    assert transport.most_in_flight == 3

    transport.most_in_flight = 0

    async def inside_a_run() -> None:
        token = REQUEST_LIMIT.set(asyncio.Semaphore(2))
        try:
            await asyncio.gather(*(stack.agenerate(request(str(i))) for i in range(30)))
        finally:
            REQUEST_LIMIT.reset(token)

    run(inside_a_run())
    assert transport.most_in_flight == 2


def test_the_meter_prices_valid_and_invalid_replies() -> None:
    prices = {"scripted-model": ModelPrice(1_000_000.0, 2_000_000.0)}
    stack = LLMStack(Scripted("{bad", '{"value": 1}'), prices=prices, retry=no_wait())
    reply = run(ask(stack, request()))
    assert reply.usage.requests == 2 and reply.usage.cost_usd == pytest.approx(2 * (10 + 10))


def test_the_scrubber_removes_whole_and_masked_keys() -> None:
    key = "sk-proj-Abcdefghijklmnopqrstuvwxyz0123"
    scrub = Scrubber(key)
    assert key not in scrub.scrub(f"Bearer {key} refused")
    masked = f"Incorrect API key provided: {key[:8]}************{key[-4:]}. See the docs."
    assert scrub.scrub(masked) == f"Incorrect API key provided: {REDACTED} See the docs."
    assert scrub.scrub("The capital of France is Paris.") == "The capital of France is Paris."
    assert Scrubber("shortkey").scrub("a shortkey: shortkey") == f"a {REDACTED}: {REDACTED}"
    # A dummy key for a local server protects nothing; scrubbing it would corrupt every reply.
    assert Scrubber("x").scrub('{"context": 1, "text": "x"}') == '{"context": 1, "text": "x"}'
    assert public_url("https://user:pw@host.example:8443/v1?key=x#f") == "https://host.example:8443/v1"


def test_a_variant_joins_the_identity_of_both_transports_and_only_then() -> None:
    import anthropic
    import openai

    from ragrecall.llm import AnthropicLLM, OpenAILLM

    plain = request()
    second = LLMRequest(plain.messages, Value, plain.prompt_version, plain.task, variant=2)
    for llm in (
        OpenAILLM(openai.AsyncOpenAI(api_key="k", base_url="http://127.0.0.1:9/v1"), "m"),
        AnthropicLLM(anthropic.AsyncAnthropic(api_key="k", base_url="http://127.0.0.1:9"), "m"),
        LLMStack(Scripted()),
    ):
        (doc,), (doc2,) = llm.documents(plain)[:1], llm.documents(second)[:1]
        assert "variant" not in doc  # caches written before variants existed keep their keys
        assert doc2 == {**doc, "variant": 2}
        assert plain.with_messages(plain.messages).variant is None and second.with_messages(()).variant == 2
