"""The progress bar of an evaluation: done/total, failures so far, tokens so far."""

from __future__ import annotations

import sys
from collections.abc import Collection

from tqdm.auto import tqdm

from ..results import MetricResult

__all__ = ["Progress"]


class Progress:
    """A tqdm bar over sample-metric pairs; silent when disabled or when stderr is not a terminal."""

    def __init__(self, total: int, *, finished: Collection[MetricResult] = (), enabled: bool) -> None:
        """``finished``: the pairs a resumed run read from its checkpoint, counted from the start (failed
        pairs among them run again and are not counted), so that the tokens shown agree with the summary."""
        done = [r for r in finished if r.status != "failed"]
        self.failures = 0
        self.tokens = sum(r.usage.total_tokens for r in done)
        self._bar = tqdm(
            total=total,
            initial=len(done),
            unit="score",
            desc="ragrecall",
            disable=not enabled or not sys.stderr.isatty(),
            dynamic_ncols=True,
        )
        if self.tokens:
            self._bar.set_postfix(failed=0, tokens=self.tokens, refresh=False)

    def update(self, result: MetricResult) -> None:
        """Count one finished pair."""
        if result.status == "failed":
            self.failures += 1
        self.tokens += result.usage.total_tokens
        self._bar.set_postfix(failed=self.failures, tokens=self.tokens, refresh=False)
        self._bar.update(1)

    def close(self) -> None:
        self._bar.close()
