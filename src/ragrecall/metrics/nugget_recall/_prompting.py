"""The prompts of nugget recall: the steps, what each fills, the shipped files, and how inputs are shown.

``assign`` and ``importance`` open a conversation; ``recheck`` is a follow-up to ``assign``. The query, the
contexts and the nuggets reach every prompt as data blocks (``<query>…</query>``, ``<context id="1">…</context>``,
``<nugget id="1">…</nugget>``) their text cannot close; nuggets are single-line.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import ClassVar

from ...llm import data_block
from .._step_prompts import StepPrompts
from ..context_recall import one_line

__all__ = ["STEPS", "NuggetPrompts", "nugget_block", "number_nuggets", "query_block"]

STEPS: dict[str, tuple[str, ...]] = {
    "assign": ("query", "contexts", "nuggets"),
    "recheck": ("problems",),
    "importance": ("query", "nuggets"),
}
"""Prompt steps and the placeholders each must fill."""


@dataclass(frozen=True)
class NuggetPrompts(StepPrompts):
    """Every nugget-recall step's template in every language: the shipped files, or the user's prompt for a step."""

    steps: ClassVar[Mapping[str, tuple[str, ...]]] = STEPS
    metric_dir: ClassVar[str] = "nugget_recall"


def query_block(query: str | None) -> str:
    """``<query>query</query>`` on one line, or "" when there is no query."""
    return data_block("query", one_line(query)) if query and query.strip() else ""


def nugget_block(nugget: str, number: int) -> str:
    """``<nugget id="number">nugget</nugget>``, the nugget on one line."""
    return data_block("nugget", one_line(nugget), number)


def number_nuggets(nuggets: Sequence[str], numbers: Sequence[int] | None = None) -> str:
    """One nugget block per line, numbered from 1 or by ``numbers``."""
    shown = numbers if numbers is not None else range(1, len(nuggets) + 1)
    return "\n".join(nugget_block(text, n) for n, text in zip(shown, nuggets, strict=True))
