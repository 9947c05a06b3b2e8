"""Prices per million tokens, and the cost of a request.

The built-in table holds list prices in US dollars per million tokens for common OpenAI and Anthropic models,
as published by the providers in October 2025 (:data:`PRICES_AS_OF`); prices change, so pass your own table
(it is merged over this one) for anything that bills money. A model without a price costs ``None``, never 0.

Each entry also has a batch column: the price of the same tokens sent through the provider's Batch API
(both bill batches at half the live price), and a cached-input column: the price of prompt tokens the provider
reads from its prompt cache (``Usage.cached_tokens``). An entry without one of these columns prices those
tokens at the live price: an upper bound, never an invented discount. Batch requests price every prompt token
at the batch input price, cached or not (the Batch API's discount is the one claimed).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType

from ..errors import ConfigurationError

__all__ = ["DEFAULT_PRICES", "PRICES_AS_OF", "ModelPrice", "cost_usd", "price_for"]

PRICES_AS_OF = "2025-10"
"""When the built-in list prices were read from the providers' price pages."""


@dataclass(frozen=True)
class ModelPrice:
    """US dollars per million prompt (input) and completion (output) tokens, live and through a Batch API."""

    input_per_million: float
    output_per_million: float
    batch_input_per_million: float | None = None
    """Input price of batch requests; None: the live price."""
    batch_output_per_million: float | None = None
    """Output price of batch requests; None: the live price."""
    cached_input_per_million: float | None = None
    """Price of prompt tokens read from the provider's prompt cache; None: the live input price."""

    def __post_init__(self) -> None:
        optional = ("batch_input_per_million", "batch_output_per_million", "cached_input_per_million")
        for name in ("input_per_million", "output_per_million", *optional):
            value = getattr(self, name)
            if value is None and name in optional:
                continue
            if isinstance(value, bool) or not isinstance(value, (int, float)) or not value >= 0:
                raise ConfigurationError(f"{name} must be a number >= 0, got {value!r}")

    def per_million(self, *, batch: bool = False) -> tuple[float, float]:
        """Input and output price per million tokens, live or (``batch``) through a Batch API."""
        if not batch:
            return self.input_per_million, self.output_per_million
        batch_in, batch_out = self.batch_input_per_million, self.batch_output_per_million
        return (
            self.input_per_million if batch_in is None else batch_in,
            self.output_per_million if batch_out is None else batch_out,
        )


DEFAULT_PRICES: Mapping[str, ModelPrice] = MappingProxyType(
    {
        "gpt-4o": ModelPrice(2.50, 10.00, 1.250, 5.000, 1.250),
        "gpt-4o-mini": ModelPrice(0.15, 0.60, 0.075, 0.300, 0.075),
        "gpt-4.1": ModelPrice(2.00, 8.00, 1.000, 4.000, 0.500),
        "gpt-4.1-mini": ModelPrice(0.40, 1.60, 0.200, 0.800, 0.100),
        "gpt-4.1-nano": ModelPrice(0.10, 0.40, 0.050, 0.200, 0.025),
        "gpt-4-turbo": ModelPrice(10.00, 30.00, 5.000, 15.000),
        "gpt-3.5-turbo": ModelPrice(0.50, 1.50, 0.250, 0.750),
        "o3-mini": ModelPrice(1.10, 4.40, 0.550, 2.200, 0.550),
        "o4-mini": ModelPrice(1.10, 4.40, 0.550, 2.200, 0.275),
        "claude-haiku-4-5": ModelPrice(1.00, 5.00, 0.500, 2.500, 0.100),
        "claude-3-5-haiku": ModelPrice(0.80, 4.00, 0.400, 2.000, 0.080),
        "claude-sonnet-4-5": ModelPrice(3.00, 15.00, 1.500, 7.500, 0.300),
    }
)
"""Built-in prices (USD per million tokens), by model name: live input, live output, batch input, batch output,
cached input."""


def price_for(model: str, prices: Mapping[str, ModelPrice] | None = None) -> ModelPrice | None:
    """The price of ``model``: an exact entry, else the longest entry that ``model`` extends with ``-``.

    ``gpt-4o-mini-2024-07-18`` gets the ``gpt-4o-mini`` price, not the ``gpt-4o`` one. ``prices`` is
    consulted before the built-in table.
    """
    for table in (prices or {}, DEFAULT_PRICES):
        if model in table:
            return table[model]
        matches = [name for name in table if model.startswith(name + "-")]
        if matches:
            return table[max(matches, key=len)]
    return None


def cost_usd(
    model: str,
    prompt_tokens: int,
    completion_tokens: int,
    prices: Mapping[str, ModelPrice] | None = None,
    *,
    batch: bool = False,
    cached_tokens: int = 0,
) -> float | None:
    """Cost of one request in US dollars, or None when the model has no known price: at the batch price with
    ``batch``; else with ``cached_tokens`` of the prompt tokens at the cached-input price."""
    price = price_for(model, prices)
    if price is None:
        return None
    per_input, per_output = price.per_million(batch=batch)
    cached = 0 if batch else min(max(cached_tokens, 0), prompt_tokens)
    per_cached = per_input if price.cached_input_per_million is None else price.cached_input_per_million
    fresh = prompt_tokens - cached
    return (fresh * per_input + cached * per_cached + completion_tokens * per_output) / 1_000_000
