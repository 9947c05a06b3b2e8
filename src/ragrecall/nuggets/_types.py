"""A nugget and a topic's nuggets, as nuggetizer writes them: ``{"text", "importance"}`` under a ``qid``."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, model_validator

__all__ = ["Nugget", "NuggetTopic"]


class Nugget(BaseModel):
    """One atomic fact a good answer must contain, and how much it matters."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    text: str
    """The fact, in one sentence."""
    importance: Literal["vital", "okay"] = "vital"
    """``"vital"`` (an answer without it is not a good answer) or ``"okay"`` (good to have); a nugget given
    without one is vital, as nuggetizer reads it. A null importance reads as vital too: table formats (Parquet,
    pandas) cannot tell a missing key of a nested record from a null one."""

    @model_validator(mode="before")
    @classmethod
    def _bare_text(cls, data: Any) -> Any:
        if isinstance(data, str):
            return {"text": data}
        if isinstance(data, dict) and "importance" in data and data["importance"] is None:
            return {k: v for k, v in data.items() if k != "importance"}
        return data


class NuggetTopic(BaseModel):
    """One line of nuggetizer's nuggets file: a query and its nuggets."""

    model_config = ConfigDict(frozen=True)

    qid: str | int
    """The query's ID; joined to a sample by its ``id`` (compared as strings)."""
    query: str | None = None
    """The query's text."""
    nuggets: list[Nugget]
