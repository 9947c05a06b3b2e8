"""LLMs the Ray tests hand to actors: built in the actor from an endpoint URL, or one that kills its own process."""

from __future__ import annotations

import os
from typing import Any

import openai

from ragrecall.llm import LLM, LLMReply, LLMRequest, OpenAILLM, OutputT, RetryPolicy

KEY = "sk-test-R4yActor0Key7Qw2Zx"


def openai_llm(url: str) -> LLM:
    """An OpenAI stack on ``url`` with short waits, built where it is called (in each actor)."""
    policy = RetryPolicy(max_attempts=4, initial_wait=0.1, jitter=0.1, request_timeout=20.0)
    return OpenAILLM(openai.AsyncOpenAI(api_key=KEY, base_url=url), "gpt-4o-mini", retry=policy)


class DiesOnce:
    """Answers as ``inner``, but the first process to send its ``after``-th request dies there (``os._exit``),
    once for the whole cluster: the marker file says it happened."""

    def __init__(self, inner: LLM, marker: str, after: int) -> None:
        self.inner, self.marker, self.after, self.sent = inner, marker, after, 0

    @property
    def model_name(self) -> str:
        return self.inner.model_name

    def settings(self) -> dict[str, Any]:
        settings = getattr(self.inner, "settings", None)
        return dict(settings()) if callable(settings) else {}

    async def agenerate(self, request: LLMRequest[OutputT]) -> LLMReply[OutputT]:
        self.sent += 1
        if self.sent == self.after:
            try:
                os.close(os.open(self.marker, os.O_CREAT | os.O_EXCL | os.O_WRONLY))
            except FileExistsError:
                pass
            else:
                os._exit(1)
        return await self.inner.agenerate(request)
