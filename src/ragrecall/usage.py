"""Token usage and cost, summed per result and per run.

Every count read from outside — a provider's reply, a checkpoint, a results file, a cache written by an older
version — goes through :func:`read_count` before anything sums, stores or shows it: a count is a
non-negative integer below a ceiling (an integral float such as ``10.0`` and a numeric string such as
``"10"`` are read as that integer); anything else makes the usage of that reply *unknown*
(:attr:`Usage.unknown_requests`), never a crash and never a number nobody could have paid for.
"""

from __future__ import annotations

import math
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, model_validator

__all__ = ["REPLY_TOKEN_CEILING", "STORED_COUNT_CEILING", "Usage", "read_count"]

REPLY_TOKEN_CEILING = 100_000_000
"""The most tokens one reply may report in one field (100 million: ten times the largest context window
offered today); a reply that reports more has unknown usage."""
STORED_COUNT_CEILING = 10**15
"""The most any count of a stored usage (a sum over a run) may hold when read back; a record holding more
is read with its usage unknown."""
_DIGITS = 20
"""Longer strings are not counts: no ``int()`` is ever run on a long string."""


def read_count(value: object, ceiling: int = REPLY_TOKEN_CEILING) -> int | None:
    """``value`` as a count: an int (not a bool), an integral finite float or a string of digits (optionally
    ``.0``), between 0 and ``ceiling``; None for anything else."""
    if type(value) is int:
        return value if 0 <= value <= ceiling else None
    if isinstance(value, float):
        if math.isfinite(value) and value.is_integer() and 0 <= value <= ceiling:
            return int(value)
        return None
    if isinstance(value, str) and len(value) <= _DIGITS:
        text = value.strip()
        whole, dot, fraction = text.partition(".")
        if whole.isascii() and whole.isdigit() and (not dot or not fraction.strip("0")):
            count = int(whole)
            return count if count <= ceiling else None
    return None


class Usage(BaseModel):
    """Tokens and cost spent to produce a result. Adding two usages sums every field.

    A request whose reply reported counts that cannot be read (see :func:`read_count`) counts in
    ``requests`` and in ``unknown_requests``, and adds nothing to the tokens or the cost: totals of a usage
    with ``unknown_requests`` are lower bounds, and are shown as such.
    """

    model_config = ConfigDict(frozen=True)

    requests: int = Field(0, ge=0)
    """LLM requests sent (cache hits not counted)."""
    prompt_tokens: int = Field(0, ge=0)
    """Prompt (input) tokens reported by the provider."""
    completion_tokens: int = Field(0, ge=0)
    """Completion (output) tokens reported by the provider."""
    cached_requests: int = Field(0, ge=0)
    """Requests answered from the response cache."""
    cached_tokens: int = Field(0, ge=0)
    """Prompt tokens the provider read from its prompt cache (part of ``prompt_tokens``, billed at the model's
    cached-input price)."""
    unknown_requests: int = Field(0, ge=0)
    """Of ``requests``, those whose reply reported no readable token counts: their tokens and cost are
    unknown, not zero."""
    cost_usd: float | None = Field(None, ge=0, allow_inf_nan=False)
    """Cost in US dollars (of the requests with known usage); None when the model has no known price."""

    @model_validator(mode="before")
    @classmethod
    def _plausible(cls, data: Any) -> Any:
        """A stored usage whose counts are not plausible (a 4,000-digit token count written by an older
        version, a negative or fractional one, a string) is read as unknown usage rather than refused or
        trusted: the record it belongs to stays readable, and a run that holds it stays resumable."""
        if not isinstance(data, dict):
            return data
        if all(type(v) is int and 0 <= v <= STORED_COUNT_CEILING for k, v in data.items() if k != "cost_usd") and (
            data.get("cost_usd") is None
        ):
            return data  # the usage of nearly every reply: plain counts and no price, read without a call per field
        counts = {name: read_count(data.get(name, 0), STORED_COUNT_CEILING) for name in _COUNTS}
        cost = data.get("cost_usd")
        cost_ok = cost is None or (
            isinstance(cost, (int, float)) and not isinstance(cost, bool) and 0 <= cost < 1e12 and math.isfinite(cost)
        )
        if cost_ok and all(c is not None for c in counts.values()):
            return data
        requests = counts["requests"]
        requests = max(requests if requests is not None else 1, 1)
        return {
            "requests": requests,
            "cached_requests": counts["cached_requests"] or 0,
            "unknown_requests": requests,
            "cost_usd": None,
        }

    def prompt_cache_note(self) -> str:
        """`` (N from the provider's prompt cache)`` when some prompt tokens were read from it, else ``""``."""
        return f" ({self.cached_tokens:,} from the provider's prompt cache)" if self.cached_tokens else ""

    def unknown_note(self) -> str:
        """`` (+ the tokens of N requests whose usage is unknown)`` when some are, else ``""``."""
        n = self.unknown_requests
        return f" (+ the tokens of {n:,} request{'s' if n != 1 else ''} whose usage is unknown)" if n else ""

    def cost_text(self, *, no_price: str = "unknown (no price for this model)") -> str:
        """The cost as shown: ``$0.0123``; ``at least $0.0123, N requests of unknown usage`` when some usage
        is unknown; ``no_price`` when the model has no known price."""
        n = self.unknown_requests
        unknown = f"{n:,} request{'s' if n != 1 else ''} of unknown usage"
        if self.cost_usd is None:
            return f"unknown ({unknown})" if n else no_price
        return f"at least ${self.cost_usd:.4f} ({unknown})" if n else f"${self.cost_usd:.4f}"

    @property
    def total_tokens(self) -> int:
        """Prompt plus completion tokens (of the requests with known usage)."""
        return self.prompt_tokens + self.completion_tokens

    def __add__(self, other: Usage) -> Usage:
        if not isinstance(other, Usage):
            return NotImplemented
        mine, theirs = self.__dict__, other.__dict__
        # Usages are immutable: adding nothing gives back the other one, and a sum of valid counts is valid, so
        # it is not validated again (this runs several times per request).
        if theirs == _NOTHING:
            return self
        if mine == _NOTHING:
            return other
        summed = {name: mine[name] + theirs[name] for name in _COUNTS}
        if mine["cost_usd"] is None and theirs["cost_usd"] is None:
            summed["cost_usd"] = None
        else:
            summed["cost_usd"] = (mine["cost_usd"] or 0.0) + (theirs["cost_usd"] or 0.0)
        return _unvalidated(summed)

    @classmethod
    def total(cls, usages: list[Usage]) -> Usage:
        """Sum of a list of usages (zero usage for an empty list)."""
        out = cls()
        for u in usages:
            out = out + u
        return out

    @classmethod
    def unknown(cls, requests: int = 1) -> Usage:
        """The usage of ``requests`` sent requests whose replies reported no readable token counts."""
        return cls(requests=requests, unknown_requests=requests)


_COUNTS = tuple(name for name, field in Usage.model_fields.items() if field.annotation is int)
_NOTHING = Usage().__dict__


def _unvalidated(values: dict[str, int | float | None]) -> Usage:
    """A :class:`Usage` of ``values`` that are known valid (sums of valid usages), built without validation:
    what ``Usage.model_construct`` does for a model without extra or private fields, for a fraction of its cost."""
    usage = Usage.__new__(Usage)
    object.__setattr__(usage, "__dict__", values)
    object.__setattr__(usage, "__pydantic_fields_set__", set(values))
    object.__setattr__(usage, "__pydantic_extra__", None)
    object.__setattr__(usage, "__pydantic_private__", None)
    return usage
