"""Prices per million tokens, and the cost of a request.

The built-in table holds list prices in US dollars per million tokens for common OpenAI models, as published
by the provider when this table was last revised; prices change, so pass your own table (it is merged over
this one) for anything that bills money. A model without a price costs ``None``, never 0.

Each entry also has a batch column: the price of the same tokens sent through the provider's Batch API
(OpenAI bills batches at half the live price). An entry without a batch column prices batch requests at its
live price: an upper bound, never an invented discount.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType

from ..errors import ConfigurationError

__all__ = ["DEFAULT_PRICES", "ModelPrice", "cost_usd", "price_for"]


@dataclass(frozen=True)
class ModelPrice:
    """US dollars per million prompt (input) and completion (output) tokens, live and through a Batch API."""

    input_per_million: float
    output_per_million: float
    batch_input_per_million: float | None = None
    """Input price of batch requests; None: the live price."""
    batch_output_per_million: float | None = None
    """Output price of batch requests; None: the live price."""

    def __post_init__(self) -> None:
        for name in ("input_per_million", "output_per_million", "batch_input_per_million", "batch_output_per_million"):
            value = getattr(self, name)
            if value is None and name.startswith("batch_"):
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
        "gpt-4o": ModelPrice(2.50, 10.00, 1.250, 5.000),
        "gpt-4o-mini": ModelPrice(0.15, 0.60, 0.075, 0.300),
        "gpt-4.1": ModelPrice(2.00, 8.00, 1.000, 4.000),
        "gpt-4.1-mini": ModelPrice(0.40, 1.60, 0.200, 0.800),
        "gpt-4.1-nano": ModelPrice(0.10, 0.40, 0.050, 0.200),
        "gpt-4-turbo": ModelPrice(10.00, 30.00, 5.000, 15.000),
        "gpt-3.5-turbo": ModelPrice(0.50, 1.50, 0.250, 0.750),
        "o3-mini": ModelPrice(1.10, 4.40, 0.550, 2.200),
        "o4-mini": ModelPrice(1.10, 4.40, 0.550, 2.200),
    }
)
"""Built-in prices (USD per million tokens), by model name: live input, live output, batch input, batch output."""


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
) -> float | None:
    """Cost of one request in US dollars (at the batch price with ``batch``), or None when the model has no
    known price."""
    price = price_for(model, prices)
    if price is None:
        return None
    per_input, per_output = price.per_million(batch=batch)
    return (prompt_tokens * per_input + completion_tokens * per_output) / 1_000_000
