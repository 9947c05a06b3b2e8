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
