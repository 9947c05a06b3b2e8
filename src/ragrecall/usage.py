"""Token usage and cost, summed per result and per run."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field

__all__ = ["Usage"]


class Usage(BaseModel):
    """Tokens and cost spent to produce a result. Adding two usages sums every field."""

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
    cost_usd: float | None = None
    """Cost in US dollars; None when the model has no known price."""

    def prompt_cache_note(self) -> str:
        """`` (N from the provider's prompt cache)`` when some prompt tokens were read from it, else ``""``."""
        return f" ({self.cached_tokens:,} from the provider's prompt cache)" if self.cached_tokens else ""

    @property
    def total_tokens(self) -> int:
        """Prompt plus completion tokens."""
        return self.prompt_tokens + self.completion_tokens

    def __add__(self, other: Usage) -> Usage:
        if not isinstance(other, Usage):
            return NotImplemented
        if self.cost_usd is None and other.cost_usd is None:
            cost = None
        else:
            cost = (self.cost_usd or 0.0) + (other.cost_usd or 0.0)
        return Usage(
            requests=self.requests + other.requests,
            prompt_tokens=self.prompt_tokens + other.prompt_tokens,
            completion_tokens=self.completion_tokens + other.completion_tokens,
            cached_requests=self.cached_requests + other.cached_requests,
            cached_tokens=self.cached_tokens + other.cached_tokens,
            cost_usd=cost,
        )

    @classmethod
    def total(cls, usages: list[Usage]) -> Usage:
        """Sum of a list of usages (zero usage for an empty list)."""
        out = cls()
        for u in usages:
            out = out + u
        return out
