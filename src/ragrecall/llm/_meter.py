"""The usage-and-cost layer: prices the tokens a transport reports."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace

from ..usage import Usage
from ._layer import Layer
from ._pricing import ModelPrice, cost_usd
from ._protocol import LLM, InvalidReplyError, LLMReply, LLMRequest, OutputT

__all__ = ["Metered"]


class Metered(Layer):
    """Adds the cost (from the built-in price table, with ``prices`` merged over it) to every usage that
    counts sent requests and carries no cost yet, valid replies and invalid ones alike; with ``batch``, at the
    table's batch price."""

    def __init__(self, inner: LLM, prices: Mapping[str, ModelPrice] | None = None, *, batch: bool = False) -> None:
        super().__init__(inner)
        self.prices = dict(prices or {})
        self.batch = batch

    def priced(self, usage: Usage) -> Usage:
        """``usage`` with its cost filled in when it sent requests and has none (the cost of requests whose
        usage is unknown stays unknown)."""
        if usage.requests == 0 or usage.cost_usd is not None or usage.unknown_requests >= usage.requests:
            return usage
        cost = cost_usd(
            self.model_name,
            usage.prompt_tokens,
            usage.completion_tokens,
            self.prices,
            batch=self.batch,
            cached_tokens=usage.cached_tokens,
        )
        return usage.model_copy(update={"cost_usd": cost})

    async def agenerate(self, request: LLMRequest[OutputT]) -> LLMReply[OutputT]:
        """``inner.agenerate(request)`` with its usage priced."""
        try:
            reply = await self.inner.agenerate(request)
        except InvalidReplyError as exc:
            exc.usage = self.priced(exc.usage or Usage())
            raise
        return replace(reply, usage=self.priced(reply.usage))
