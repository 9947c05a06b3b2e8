"""Ragas's cost views of a run (``result.total_tokens()``, ``result.total_cost(...)``), from the usage ragrecall
counts on every request."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..cost import TokenUsage
from ..errors import ConfigurationError

if TYPE_CHECKING:
    from ..usage import Usage
    from ._run_info import RunInfo

__all__ = ["CostViews"]


class CostViews:
    """What :class:`EvaluationResult` answers to Ragas's cost calls; needs ``usage`` and ``run``."""

    run: RunInfo | None

    @property
    def usage(self) -> Usage:
        raise NotImplementedError

    def total_tokens(self) -> TokenUsage:
        """Input and output tokens of the run, as Ragas's ``result.total_tokens()`` gives them (one
        :class:`ragrecall.cost.TokenUsage` for the run; every request counted, no parser needed)."""
        usage = self.usage
        models = {str(m.get("settings", {}).get("model", "")) for m in (self.run.metrics.values() if self.run else ())}
        models.discard("")
        return TokenUsage(
            input_tokens=usage.prompt_tokens,
            output_tokens=usage.completion_tokens,
            model=next(iter(models)) if len(models) == 1 else "",
        )

    def total_cost(
        self,
        cost_per_input_token: float | None = None,
        cost_per_output_token: float | None = None,
        per_model_costs: dict[str, tuple[float, float]] | None = None,
    ) -> float:
        """The run's cost, as Ragas's ``result.total_cost(...)`` computes it: input tokens × the input price plus
        output tokens × the output price (the input price for both when only it is given); ``per_model_costs``
        (model → (input, output) price) when the run's model is in it. Without prices, the cost from
        ragrecall's price table (``result.usage.cost_usd``).

        Raises:
            ConfigurationError: no price given and the model has no known price, or a price below 0.
        """
        tokens = self.total_tokens()
        if cost_per_input_token is None and per_model_costs and tokens.model in per_model_costs:
            cost_per_input_token, cost_per_output_token = per_model_costs[tokens.model]
        if cost_per_input_token is None:
            if self.usage.cost_usd is None:
                raise ConfigurationError(
                    "the run's model has no known price: give cost_per_input_token= (and cost_per_output_token=)"
                )
            return self.usage.cost_usd
        return tokens.cost(cost_per_input_token, cost_per_output_token)
