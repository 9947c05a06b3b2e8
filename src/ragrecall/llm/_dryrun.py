"""An LLM that sends nothing and counts what a real model would be sent, for cost estimates."""

from __future__ import annotations

import json
from collections.abc import Mapping

from ..usage import Usage
from ._offline import OfflineJudge
from ._pricing import ModelPrice, cost_usd
from ._protocol import LLMReply, LLMRequest, OutputT
from ._schema import sent_schema
from ._tokens import TokenCounter

__all__ = ["DryRunLLM"]


class DryRunLLM:
    """Answers like :class:`OfflineJudge` while recording the tokens and cost each request would take.

    Running a metric with it follows the real code path (same prompts, same number of calls as a model
    that returns one claim per reference sentence), so the totals estimate a real run without a network.
    Prompt tokens are counted on the rendered messages plus, with ``schema``, the response schema that
    structured-output mode sends (providers bill it as input); completion tokens on the offline judge's
    replies, a stand-in for a real model's. ``usage.requests`` counts the requests a real run would send.

    Args:
        model: the model whose prices apply (and whose name results carry).
        prices: price table merged over the built-in one.
        schema: count the response schema (False for ``output_mode="json_object"``, which sends none).
    """

    def __init__(self, model: str, *, prices: Mapping[str, ModelPrice] | None = None, schema: bool = True) -> None:
        self._model = model
        self._prices = dict(prices or {})
        self._schema = schema
        self._judge = OfflineJudge(model_name=model)
        self.counter = TokenCounter()

    @property
    def model_name(self) -> str:
        """The model the estimate is for."""
        return self._model

    async def agenerate(self, request: LLMRequest[OutputT]) -> LLMReply[OutputT]:
        """The offline judge's answer, with the usage a real request would have."""
        reply = await self._judge.agenerate(request)
        prompt = self.counter.messages(request.messages)
        if self._schema:
            prompt += self.counter.text(json.dumps(sent_schema(request.output, strict=True)))
        completion = self.counter.text(reply.raw)
        usage = Usage(
            requests=1,
            prompt_tokens=prompt,
            completion_tokens=completion,
            cost_usd=cost_usd(self._model, prompt, completion, self._prices),
        )
        return LLMReply.validate(reply.raw, request.output, usage)
