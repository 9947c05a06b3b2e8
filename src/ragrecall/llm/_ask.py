"""The one validate-and-repair loop every LLM call site goes through."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any, Generic, TypeVar

from ..errors import LLMError, LLMOutputError
from ..usage import Usage
from ._protocol import LLM, InvalidReplyError, LLMReply, LLMRequest, Message, OutputT, checked_reply

__all__ = ["FollowUp", "RepairsExhaustedError", "ask", "ask_again", "charge", "gather_paid", "spent_before"]

T = TypeVar("T")

Check = Callable[[OutputT], None]
"""An invariant on a parsed reply: returns None when it holds, raises InvalidReplyError (or ValueError) if not."""

_REPAIR_TEMPLATE = (
    "Your previous reply was rejected: {problem}\n"
    "Reply again with the complete corrected JSON object only, following every instruction above."
)


class RepairsExhaustedError(LLMOutputError):
    """Every attempt returned an invalid reply; the last problem is the message and the chained cause.

    Attributes:
        attempts: how many replies were received.
        usage: what all the attempts cost together.
    """

    def __init__(self, message: str, *, attempts: int, usage: Usage) -> None:
        super().__init__(message)
        self.attempts = attempts
        self.usage = usage


async def ask(
    llm: LLM,
    request: LLMRequest[OutputT],
    *,
    check: Check[OutputT] | None = None,
    max_repairs: int = 2,
) -> LLMReply[OutputT]:
    """Send ``request`` and return a reply that passes its schema and ``check``.

    An invalid reply (not JSON, off-schema, or failing ``check``) is answered with the problem and the
    request is sent again with the exchange appended, at most ``max_repairs`` times. The returned usage
    covers every attempt.

    Raises:
        RepairsExhaustedError: no valid reply within ``1 + max_repairs`` attempts; chained to the last
            :class:`InvalidReplyError`.
        LLMRequestError, CacheMissError: from the LLM, unchanged.
    """
    spent = Usage()
    last: InvalidReplyError | None = None
    if check is not None:
        request = replace(request, check=check)
    current = request
    for attempt in range(1, max_repairs + 2):
        try:
            reply = await llm.agenerate(current)
            spent = spent + reply.usage
            reply = checked_reply(replace(reply, usage=Usage()), current)
            return replace(reply, usage=spent, attempts=attempt)
        except InvalidReplyError as exc:
            spent = spent + (exc.usage or Usage())
            last = exc
            if attempt > max_repairs:
                break
            repair: tuple[Message, ...] = (
                # Some APIs (Anthropic) refuse an empty assistant turn; the model is told what it sent.
                {"role": "assistant", "content": exc.raw if exc.raw else "(an empty reply)"},
                {"role": "user", "content": _REPAIR_TEMPLATE.format(problem=exc.problem)},
            )
            current = request.with_messages(current.messages + repair)
        except LLMError as exc:  # a request failure after paid attempts: those tokens stay counted
            charge(exc, spent)
            raise
    assert last is not None
    attempts = max_repairs + 1
    task = f" for {request.task}" if request.task else ""
    raise RepairsExhaustedError(
        f"no valid reply{task} after {attempts} attempt{'s' if attempts > 1 else ''}: {last.problem}",
        attempts=attempts,
        usage=spent,
    ) from last


@dataclass(frozen=True)
class FollowUp(Generic[OutputT]):
    """The outcome of :func:`ask_again`."""

    reply: LLMReply[OutputT] | None
    """The valid reply; None when no attempt was left or every attempt was invalid."""
    usage: Usage
    """What the follow-up cost (zero when nothing was sent)."""
    asked: bool
    """True when a follow-up request was sent."""


async def ask_again(
    llm: LLM,
    original: LLMRequest[Any],
    reply: LLMReply[Any],
    message: str,
    output: type[OutputT],
    *,
    task: str,
    inputs: Mapping[str, Any],
    prompt_version: str,
    check: Check[OutputT] | None = None,
    max_repairs: int = 2,
) -> FollowUp[OutputT]:
    """Follow a valid ``reply`` to ``original`` with ``message`` and ask for a reply of type ``output``.

    The conversation is ``original``'s messages, ``reply`` and ``message``. The follow-up and its own repairs
    share ``original``'s budget: at most ``max_repairs`` requests after the first, counting those ``reply``
    already took. When no attempt is left, or every attempt is invalid, the follow-up has no reply and the
    caller keeps what it had.

    Raises:
        LLMRequestError, CacheMissError: from the LLM, unchanged.
    """
    left = max_repairs - (reply.attempts - 1)
    if left < 1:
        return FollowUp(None, Usage(), asked=False)
    messages: tuple[Message, ...] = (
        *original.messages,
        {"role": "assistant", "content": reply.raw},
        {"role": "user", "content": message},
    )
    request = LLMRequest(messages, output, prompt_version, task, inputs, variant=original.variant)
    try:
        again = await ask(llm, request, check=check, max_repairs=left - 1)
    except RepairsExhaustedError as exc:
        return FollowUp(None, exc.usage or Usage(), asked=True)
    return FollowUp(again, again.usage, asked=True)


@contextlib.contextmanager
def spent_before(usage: Usage) -> Iterator[None]:
    """Add ``usage`` to any :class:`LLMError` raised inside the block: paid calls stay on the books."""
    try:
        yield
    except LLMError as exc:
        charge(exc, usage)
        raise


def charge(exc: LLMError, usage: Usage) -> None:
    """Add ``usage`` (paid before or beside the failed work) to what ``exc`` says was spent."""
    exc.usage = usage + exc.usage if exc.usage is not None else usage


async def gather_paid(tasks: Sequence[asyncio.Future[tuple[T, Usage, int]]]) -> list[tuple[T, Usage, int]]:
    """Every task's ``(result, usage, follow-ups)``, in order. When one fails, the others are cancelled (they
    would be paid for and never used) and the usage of those that finished joins the failure's."""
    try:
        return list(await asyncio.gather(*tasks))
    except LLMError as exc:
        paid = [t.result()[1] for t in tasks if t.done() and not t.cancelled() and t.exception() is None]
        charge(exc, Usage.total(paid))
        raise
    finally:
        for task in tasks:
            task.cancel()
