"""The progress bar of an evaluation: done/total, failures so far, tokens so far."""

from __future__ import annotations

import os
import sys
import warnings
from typing import Any

from ..results import MetricResult

__all__ = ["Progress", "progress_wanted"]

# Values of CI (and of RAGRECALL_PROGRESS) that mean "no": anything else set means CI is running.
_FALSE = ("", "0", "false", "no", "off")


def progress_wanted(enabled: bool) -> bool:
    """Whether to draw a bar: never when ``enabled`` is False, when ``RAGRECALL_PROGRESS`` says no, or under CI
    (``CI`` set, as every CI service sets it) unless ``RAGRECALL_PROGRESS`` says yes; otherwise in a Jupyter
    kernel and when standard error is a terminal, not when it is a file or a pipe."""
    if not enabled:
        return False
    asked = os.environ.get("RAGRECALL_PROGRESS")
    if asked is not None:
        return asked.strip().lower() not in _FALSE
    if os.environ.get("CI", "").strip().lower() not in _FALSE:
        return False
    return _in_jupyter() or _is_terminal(sys.stderr)


def _in_jupyter() -> bool:
    return "ipykernel" in sys.modules and "ipykernel.zmqshell" in sys.modules


def _is_terminal(stream: Any) -> bool:
    try:
        return bool(stream.isatty())
    except (AttributeError, ValueError):  # replaced or closed streams
        return False


def _tqdm_class() -> Any:
    # tqdm.auto picks the notebook widget in Jupyter (the plain bar without ipywidgets) and warns about that
    # choice when first imported; the choice is ours, so its warnings are not shown to users.
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        from tqdm.auto import tqdm
    return tqdm


def _std_tqdm() -> Any:
    from tqdm import tqdm

    return tqdm


class Progress:
    """A tqdm bar over sample-metric pairs (see :func:`progress_wanted` for when it is drawn)."""

    def __init__(self, total: int, *, initial: int, enabled: bool) -> None:
        self.failures = 0
        self.tokens = 0
        wanted = progress_wanted(enabled)
        bar = _tqdm_class() if wanted else _std_tqdm()
        self._bar = bar(
            total=total,
            initial=initial,
            unit="score",
            desc="ragrecall",
            disable=not wanted,
            dynamic_ncols=True,
        )

    def update(self, result: MetricResult) -> None:
        """Count one finished pair."""
        if result.status == "failed":
            self.failures += 1
        self.tokens += result.usage.total_tokens
        self._bar.set_postfix(failed=self.failures, tokens=self.tokens, refresh=False)
        self._bar.update(1)

    def close(self) -> None:
        self._bar.close()
