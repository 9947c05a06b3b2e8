"""Steps kept while one sample is scored, so that a later step's failure never costs an earlier step's paid
requests.

A metric whose scoring has a paid first step and a separate later one (claim recall with ``confirm``: the
judge's verdicts, then the confirming model's) asks :func:`kept_step` for the first step's outcome before
doing it, and hands the outcome to :func:`keep_step` once it has it. :func:`~ragrecall.evaluate` with a
checkpoint sets :data:`KEPT` for each sample-metric pair: the outcome is written to the checkpoint before the
later step starts, and a rerun with that checkpoint gets it back. Elsewhere both do nothing (a response cache
still holds every validated reply).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from contextvars import ContextVar
from typing import Any

__all__ = ["KEPT", "KeptSteps", "keep_step", "kept_step"]


class KeptSteps:
    """The kept steps of one sample-metric pair: those an earlier run kept, and where to keep new ones."""

    def __init__(self, saved: Mapping[str, dict[str, Any]], keep: Callable[[str, dict[str, Any]], None]) -> None:
        self._saved = dict(saved)
        self._keep = keep

    def get(self, step: str) -> dict[str, Any] | None:
        """What an earlier run (or this one) kept of ``step``; None when nothing was."""
        return self._saved.get(step)

    def put(self, step: str, data: dict[str, Any]) -> None:
        """Keep ``data`` (JSON-safe) as the outcome of ``step``."""
        self._saved[step] = data
        self._keep(step, data)


KEPT: ContextVar[KeptSteps | None] = ContextVar("ragrecall_kept_steps", default=None)
"""The kept steps of the sample-metric pair being scored; None outside a checkpointed run."""


def kept_step(step: str) -> dict[str, Any] | None:
    """The kept outcome of ``step`` for the pair being scored, or None."""
    kept = KEPT.get()
    return kept.get(step) if kept is not None else None


def keep_step(step: str, data: dict[str, Any]) -> None:
    """Keep ``data`` as the outcome of ``step`` for the pair being scored (nothing outside a checkpointed run)."""
    kept = KEPT.get()
    if kept is not None:
        kept.put(step, data)
