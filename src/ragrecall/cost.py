"""Ragas's ``ragas.cost`` names, so that a Ragas script's ``token_usage_parser=get_token_usage_for_openai`` and
``result.total_tokens()`` / ``result.total_cost(...)`` run unchanged. ragrecall counts every request's tokens
itself (:class:`ragrecall.Usage`), whatever parser is given: the parser is accepted and not needed."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict

from .errors import ConfigurationError

__all__ = ["TokenUsage", "get_token_usage_for_anthropic", "get_token_usage_for_openai"]


class TokenUsage(BaseModel):
    """Input and output tokens, as Ragas names them; two add up."""

    model_config = ConfigDict(frozen=True)

    input_tokens: int = 0
    output_tokens: int = 0
    model: str = ""

    def __add__(self, other: TokenUsage) -> TokenUsage:
        if not isinstance(other, TokenUsage):
            return NotImplemented
        model = self.model if self.model == other.model or not other.model else other.model if not self.model else ""
        return TokenUsage(
            input_tokens=self.input_tokens + other.input_tokens,
            output_tokens=self.output_tokens + other.output_tokens,
            model=model,
        )

    def cost(self, cost_per_input_token: float, cost_per_output_token: float | None = None) -> float:
        """``input_tokens × cost_per_input_token + output_tokens × cost_per_output_token`` (the input price for
        both when the output price is not given, as Ragas does).

        Raises:
            ConfigurationError: a price that is not a number >= 0.
        """
        output = cost_per_input_token if cost_per_output_token is None else cost_per_output_token
        for name, value in (("cost_per_input_token", cost_per_input_token), ("cost_per_output_token", output)):
            if isinstance(value, bool) or not isinstance(value, (int, float)) or not value >= 0:
                raise ConfigurationError(f"{name} must be a number >= 0, got {value!r}")
        return self.input_tokens * cost_per_input_token + self.output_tokens * output


def get_token_usage_for_openai(llm_result: Any) -> TokenUsage:
    """The token usage in an OpenAI reply (``usage.prompt_tokens`` / ``completion_tokens``, or a LangChain
    ``LLMResult``'s ``llm_output["token_usage"]``), as Ragas's function of this name reads it. ragrecall's
    :func:`ragrecall.evaluate` counts usage itself and never calls the parser it is given."""
    usage = getattr(llm_result, "usage", None)
    if usage is not None:
        return TokenUsage(
            input_tokens=int(getattr(usage, "prompt_tokens", 0) or 0),
            output_tokens=int(getattr(usage, "completion_tokens", 0) or 0),
            model=str(getattr(llm_result, "model", "") or ""),
        )
    output = getattr(llm_result, "llm_output", None) or {}
    counts = output.get("token_usage", {}) if isinstance(output, dict) else {}
    return TokenUsage(
        input_tokens=int(counts.get("prompt_tokens", 0) or 0),
        output_tokens=int(counts.get("completion_tokens", 0) or 0),
        model=str(output.get("model_name", "") if isinstance(output, dict) else ""),
    )


def get_token_usage_for_anthropic(llm_result: Any) -> TokenUsage:
    """The token usage in an Anthropic reply (``usage.input_tokens`` / ``output_tokens``), as Ragas reads it;
    like :func:`get_token_usage_for_openai`, accepted by :func:`ragrecall.evaluate` and not needed."""
    usage = getattr(llm_result, "usage", None)
    return TokenUsage(
        input_tokens=int(getattr(usage, "input_tokens", 0) or 0),
        output_tokens=int(getattr(usage, "output_tokens", 0) or 0),
        model=str(getattr(llm_result, "model", "") or ""),
    )
