"""What the judge must reply for nugget recall, and the structural checks every reply passes before it is used.

Numbers are as shown to the model: nuggets and contexts count from 1.
"""

from __future__ import annotations

from collections.abc import Collection
from typing import Literal

from pydantic import BaseModel, ConfigDict

from ...llm import InvalidReplyError
from ..context_recall import Support

__all__ = ["Assigned", "Assignments", "ImportanceItem", "Importances", "check_assignments", "check_importances"]


class _Reply(BaseModel):
    model_config = ConfigDict(extra="forbid")


class Assigned(_Reply):
    """The judge's label for one numbered nugget."""

    nugget: int
    """The nugget's number as shown (1-based)."""
    label: Literal["support", "partial_support", "not_support"]
    """``support``: the contexts state all of it; ``partial_support``: some of it; ``not_support``: none."""
    support: list[Support] = []
    """For support and partial support: the passage of each context that states it (or its part), verbatim."""
    part: str = ""
    """For partial support: the words of the nugget that the quotes state."""
    reason: str = ""
    """One short sentence; for partial support, what is missing."""


class Assignments(_Reply):
    """Reply of ``nugget_recall.assign`` and ``nugget_recall.recheck``: one entry per nugget asked about."""

    assignments: list[Assigned]


class ImportanceItem(_Reply):
    """How much one numbered nugget matters to the query."""

    nugget: int
    importance: Literal["vital", "okay"]


class Importances(_Reply):
    """Reply of ``nugget_recall.importance``: one entry per nugget."""

    importance: list[ImportanceItem]


def check_assignments(reply: Assignments, numbers: Collection[int], n_contexts: int) -> None:
    """Exactly one assignment for each nugget number in ``numbers``; support and partial support quote contexts
    that exist, and a partial support names its part."""
    got = [a.nugget for a in reply.assignments]
    if sorted(got) != sorted(numbers):
        raise InvalidReplyError(
            f"expected exactly one assignment for each nugget {', '.join(map(str, sorted(numbers)))}, got one for "
            f"nugget number(s) {got}"
        )
    for a in reply.assignments:
        if a.label == "not_support":
            continue
        if not a.support:
            raise InvalidReplyError(
                f"nugget {a.nugget} is labelled {a.label} but quotes no context; give each context and its quote"
            )
        bad = [s.context for s in a.support if not 1 <= s.context <= n_contexts]
        if bad:
            raise InvalidReplyError(
                f"nugget {a.nugget} cites context number(s) {bad}, but the contexts are numbered 1..{n_contexts}"
            )
        if any(not s.quote.strip() for s in a.support):
            raise InvalidReplyError(f"nugget {a.nugget} gives an empty quote; quote the passage verbatim")
        if a.label == "partial_support" and not a.part.strip():
            raise InvalidReplyError(
                f"nugget {a.nugget} is labelled partial_support without its part: give the words of the nugget "
                "that the quote states"
            )


def check_importances(reply: Importances, count: int) -> None:
    """Exactly one importance for each nugget 1..count."""
    got = sorted(i.nugget for i in reply.importance)
    if got != list(range(1, count + 1)):
        raise InvalidReplyError(f"expected exactly one importance for each nugget 1..{count}, got nugget(s) {got}")
