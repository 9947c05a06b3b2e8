"""The progress bar of an evaluation: done/total, failures so far, tokens so far, and requests overdue."""

from __future__ import annotations

import os
import sys
import threading
import warnings
from collections.abc import Callable, Collection, Iterable
from typing import Any

from ..results import MetricResult

__all__ = ["Progress", "overdue_counter", "progress_wanted"]

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

    def __init__(
        self,
        total: int,
        *,
        finished: Collection[MetricResult] = (),
        enabled: bool,
        overdue: Callable[[], int] | None = None,
    ) -> None:
        """``finished``: the pairs a resumed run read from its checkpoint, counted from the start (failed
        pairs among them run again and are not counted), so that the tokens shown agree with the summary.
        ``overdue``: how many requests in flight are overdue (:func:`overdue_counter`), shown every second
        while the bar is drawn, so that a bar frozen by an endpoint that stopped answering says so."""
        done = [r for r in finished if r.status != "failed"]
        self.failures = 0
        self.tokens = sum(r.usage.total_tokens for r in done)
        self.overdue = 0
        self._overdue = overdue
        self._closed = threading.Event()
        wanted = progress_wanted(enabled)
        bar = _tqdm_class() if wanted else _std_tqdm()
        self._bar = bar(
            total=total,
            initial=len(done),
            unit="score",
            desc="ragrecall",
            disable=not wanted,
            dynamic_ncols=True,
        )
        if self.tokens:
            self._bar.set_postfix(self._postfix(), refresh=False)
        if wanted and overdue is not None:
            threading.Thread(target=self._watch, name="ragrecall-progress", daemon=True).start()

    def _postfix(self) -> dict[str, Any]:
        shown: dict[str, Any] = {"failed": self.failures, "tokens": self.tokens}
        if self.overdue:
            shown["overdue"] = self.overdue
        return shown

    def _watch(self) -> None:
        while not self._closed.wait(1.0):
            self.show_overdue()

    def show_overdue(self) -> None:
        """Read the requests overdue now; redraw the bar when their count changed (every second while drawn)."""
        count = self._overdue() if self._overdue is not None else 0
        if count != self.overdue:
            self.overdue = count
            self._bar.set_postfix(self._postfix(), refresh=True)

    def update(self, result: MetricResult) -> None:
        """Count one finished pair."""
        if result.status == "failed":
            self.failures += 1
        self.tokens += result.usage.total_tokens
        self._bar.set_postfix(self._postfix(), refresh=False)
        self._bar.update(1)

    def close(self) -> None:
        self._closed.set()
        self._bar.close()


def overdue_counter(metrics: Iterable[object]) -> Callable[[], int] | None:
    """A count of the requests in flight past the slowest recent valid reply, over the breakers of the LLMs
    the metrics hold (any attribute with a ``breaker`` that has ``overdue()``); None when there is none."""
    breakers: list[Any] = []
    for metric in metrics:
        for value in vars(metric).values() if hasattr(metric, "__dict__") else ():
            breaker = getattr(value, "breaker", None)
            if callable(getattr(breaker, "overdue", None)) and breaker not in breakers:
                breakers.append(breaker)
    if not breakers:
        return None
    return lambda: sum(int(b.overdue()) for b in breakers)
