"""The progress bar of an evaluation: done/total, failures so far, tokens so far."""

from __future__ import annotations

import sys

from tqdm.auto import tqdm

from ..results import MetricResult

__all__ = ["Progress"]


class Progress:
    """A tqdm bar over sample-metric pairs; silent when disabled or when stderr is not a terminal."""

    def __init__(self, total: int, *, initial: int, enabled: bool) -> None:
        self.failures = 0
        self.tokens = 0
        self._bar = tqdm(
            total=total,
            initial=initial,
            unit="score",
            desc="ragrecall",
            disable=not enabled or not sys.stderr.isatty(),
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
