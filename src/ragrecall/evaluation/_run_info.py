"""What produced a result: when, with which ragrecall, on which data, with which metric settings."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

__all__ = ["RunInfo"]


class RunInfo(BaseModel):
    """The details of one evaluation run, kept with its results so that a report can state them.

    Tokens and cost are not repeated here: every result carries its own usage, and sums are views.
    """

    model_config = ConfigDict(frozen=True)

    started_at: datetime
    """When the run started (UTC)."""
    wall_time_s: float = Field(ge=0.0)
    """Seconds from start to the last result."""
    ragrecall_version: str
    """The ragrecall version that produced the results."""
    dataset: str | None = None
    """The dataset's file path when the run was given one; None for samples given in memory."""
    metrics: dict[str, dict[str, Any]] = Field(default_factory=dict)
    """Metric name → ``{"class": class name, "settings": metric.settings()}``: for an LLM metric, the model,
    sampling parameters and prompt versions."""
    backend: str = "live"
    """Which backend ran the LLM requests: ``"live"`` or ``"batch"`` (priced at the batch price)."""
    name: str | None = None
    """The run's name (``evaluate(experiment_name=...)``, as in Ragas); None when not named."""
    endpoint_changes: list[str] = Field(default_factory=list)
    """Endpoint or model changes accepted when the run was resumed from its checkpoint, oldest first
    (``"context_recall: base_url: http://a/v1 → http://b/v1"``): results before a change came from the first."""
    partial: str | None = None
    """Why the run stopped before every sample finished, and how many did (``"stopped after 12 of 40 samples:
    EndpointDownError: …"``); None for a run that finished. The rows of a partial run are the samples every
    metric finished; the checkpoint, when there is one, resumes the rest."""
