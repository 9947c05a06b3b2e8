"""Prices per million tokens, and the cost of a request.

The built-in table holds list prices in US dollars per million tokens for common OpenAI models, as published
by the provider when this table was last revised; prices change, so pass your own table (it is merged over
this one) for anything that bills money. A model without a price costs ``None``, never 0.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType

from ..errors import ConfigurationError

__all__ = ["DEFAULT_PRICES", "ModelPrice", "cost_usd", "price_for"]


@dataclass(frozen=True)
class ModelPrice:
    """US dollars per million prompt (input) and completion (output) tokens."""

    input_per_million: float
    output_per_million: float

    def __post_init__(self) -> None:
        for name in ("input_per_million", "output_per_million"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, (int, float)) or not value >= 0:
                raise ConfigurationError(f"{name} must be a number >= 0, got {value!r}")


DEFAULT_PRICES: Mapping[str, ModelPrice] = MappingProxyType(
    {
        "gpt-4o": ModelPrice(2.50, 10.00),
        "gpt-4o-mini": ModelPrice(0.15, 0.60),
        "gpt-4.1": ModelPrice(2.00, 8.00),
        "gpt-4.1-mini": ModelPrice(0.40, 1.60),
        "gpt-4.1-nano": ModelPrice(0.10, 0.40),
        "gpt-4-turbo": ModelPrice(10.00, 30.00),
        "gpt-3.5-turbo": ModelPrice(0.50, 1.50),
        "o3-mini": ModelPrice(1.10, 4.40),
        "o4-mini": ModelPrice(1.10, 4.40),
    }
)
"""Built-in prices (USD per million tokens), by model name."""


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
    model: str, prompt_tokens: int, completion_tokens: int, prices: Mapping[str, ModelPrice] | None = None
) -> float | None:
    """Cost of one request in US dollars, or None when the model has no known price."""
    price = price_for(model, prices)
    if price is None:
        return None
    return (prompt_tokens * price.input_per_million + completion_tokens * price.output_per_million) / 1_000_000
