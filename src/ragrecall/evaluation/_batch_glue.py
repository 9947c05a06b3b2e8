"""What a run needs of the batch backend: its settings from ``evaluate``'s arguments, and what it says about
provider batches still running after a run or a stop."""

from __future__ import annotations

import os
import sys
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from ..batch import BatchBackend, BatchRun
from ..errors import ConfigurationError

if TYPE_CHECKING:
    from ._run import Backend

__all__ = ["batch_settings", "left_running", "warn_of_batches"]


def batch_settings(backend: Backend, poll_interval: float | None) -> BatchBackend | None:
    """The batch settings ``backend`` and ``poll_interval`` ask for; None for the live backend."""
    if isinstance(backend, BatchBackend):
        settings = backend
    elif backend == "batch":
        settings = BatchBackend()
    elif backend == "live":
        if poll_interval is not None:
            raise ConfigurationError("poll_interval applies to backend='batch' only")
        return None
    else:
        raise ConfigurationError(f"backend must be 'live', 'batch' or a BatchBackend, got {backend!r}")
    if poll_interval is not None:
        settings = replace(settings, poll_interval=poll_interval)
    return settings


def warn_of_batches(journal: list[dict[str, Any]], checkpoint: str | os.PathLike[str] | None) -> None:
    """Warn a live run that the checkpoint records provider batches that may still be running (and billed)."""
    ended = {r.get("input_file") for r in journal if r.get("kind") == "batch_end"}
    running = [r for r in journal if r.get("kind") == "batch" and r.get("runner") == "openai"]
    if any(r.get("input_file") not in ended for r in running):
        print(
            f"ragrecall: warning: {os.fspath(checkpoint or '')} records batches that may still be running; a live "
            "run does not collect them. Run with backend 'batch' to use them, or cancel them with: ragrecall batch "
            f"cancel --checkpoint {os.fspath(checkpoint or '')}",
            file=sys.stderr,
        )


def left_running(run: BatchRun, checkpoint: str | os.PathLike[str] | None) -> None:
    """Say which batches keep running at the provider after a stop, and how to resume or cancel them."""
    running = run.driver.in_flight()
    if not running:
        return
    if checkpoint:
        where = os.fspath(checkpoint)
        hint = (
            f"run again with the checkpoint {where} to collect them (nothing is submitted twice), or cancel "
            f"them with: ragrecall batch cancel --checkpoint {where}"
        )
    else:
        hint = "without a checkpoint they cannot be collected by a later run; cancel them at the provider"
    print(f"ragrecall: batches left running: {', '.join(running)}; {hint}", file=sys.stderr, flush=True)
