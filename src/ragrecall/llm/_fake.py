"""A scripted LLM for tests: replies from a list or a function, every request recorded."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import Any

from pydantic import BaseModel

from ..usage import Usage
from ._protocol import LLMReply, LLMRequest, OutputT, dump_reply

__all__ = ["FakeLLM", "FakeReply"]

FakeReply = str | Mapping[str, Any] | BaseModel | BaseException
"""A scripted reply: raw text (validated like a real reply, so it may be invalid on purpose), a mapping or
model (sent as JSON), or an exception to raise."""


class FakeLLM:
    """An LLM whose replies are scripted.

    Args:
        replies: a list of :data:`FakeReply` consumed in order, or a function ``request -> FakeReply``.
        usage: the usage each reply reports (default: one request, no tokens).
        model_name: the name recorded in results.

    Every request is appended to :attr:`requests` before it is answered, so tests can assert on the
    messages, the output model, the prompt version and the task. Running out of scripted replies raises
    ``RuntimeError`` naming the unexpected request.
    """

    def __init__(
        self,
        replies: Iterable[FakeReply] | Callable[[LLMRequest[Any]], FakeReply],
        *,
        usage: Usage | None = None,
        model_name: str = "fake",
    ) -> None:
        self._respond: Callable[[LLMRequest[Any]], FakeReply] | None
        if callable(replies):
            self._respond = replies
            self._queue: list[FakeReply] = []
        else:
            self._respond = None
            self._queue = list(replies)
        self._usage = usage if usage is not None else Usage(requests=1)
        self._model_name = model_name
        self.requests: list[LLMRequest[Any]] = []
        """Every request received, in order."""

    @property
    def model_name(self) -> str:
        """The name recorded in results."""
        return self._model_name

    @property
    def remaining(self) -> int:
        """Scripted replies not consumed yet (0 for a reply function)."""
        return len(self._queue)

    async def agenerate(self, request: LLMRequest[OutputT]) -> LLMReply[OutputT]:
        """Record ``request`` and answer with the next scripted reply, validated against its output model."""
        self.requests.append(request)
        if self._respond is not None:
            reply = self._respond(request)
        elif self._queue:
            reply = self._queue.pop(0)
        else:
            raise RuntimeError(
                f"FakeLLM has no scripted reply left for request {len(self.requests)} (task={request.task!r})"
            )
        if isinstance(reply, BaseException):
            raise reply
        raw = dump_reply(reply)
        return LLMReply.validate(raw, request.output, self._usage)
