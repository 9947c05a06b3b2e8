"""What an evaluation on the batch backend sets up: the runner, the journal, the driver and the metrics'
batch twins."""

from __future__ import annotations

import sys
from collections.abc import Callable, Mapping
from typing import Any

from ..errors import ConfigurationError
from ..metrics.base import Metric, SyncMetric
from ._backend import BatchBackend, BatchLLM, batch_metric, openai_stack_of
from ._driver import Journal, RoundDriver
from ._runners import FileRunner, OpenAIBatchRunner, Runner, import_record

__all__ = ["BatchRun", "say_on_stderr"]


def say_on_stderr(text: str) -> None:
    """Print a progress line of the batch backend on stderr."""
    print(f"ragrecall batch: {text}", file=sys.stderr, flush=True)


class BatchRun:
    """The batch side of one evaluation.

    Args:
        backend: the settings.
        metrics: the run's metrics by name; pure metrics are left as they are.
        journal_records: the checkpoint's journal (None: no checkpoint, the journal lives in memory).
        write: appends a journal record to the checkpoint.
        say: where progress lines go.

    Raises:
        ConfigurationError: an LLM metric does not ask the OpenAI adapter; the metrics ask different
            endpoints; export or import without a checkpoint.
        InputError: a result file to import is missing (a line in it that cannot be read is a fault of its
            request, or is skipped and counted, never of the run).
    """

    def __init__(
        self,
        backend: BatchBackend,
        metrics: Mapping[str, Metric],
        journal_records: list[dict[str, Any]] | None,
        write: Callable[[dict[str, Any]], None] | None,
        say: Callable[[str], None] | None,
    ) -> None:
        stacks = {id(s): s for m in metrics.values() if not isinstance(m, SyncMetric) for s in [openai_stack_of(m)]}
        if backend.files and journal_records is None:
            raise ConfigurationError("exporting or importing batch files needs a checkpoint (it keeps the rounds)")
        journal = Journal(journal_records if journal_records is not None else [], write)
        for path in backend.imports:
            journal.append(import_record(path))
        runner: Runner
        if backend.files:
            runner = FileRunner(backend.export_to, journal.records)
        else:
            if len({s.endpoint for s in stacks.values()}) > 1:
                raise ConfigurationError("backend='batch' runs one endpoint at a time; the metrics ask several")
            first = next(iter(stacks.values()), None)
            if first is None:
                runner = FileRunner(None, journal.records)  # no LLM metric: nothing will be asked
            else:
                transport: Any = first.transport
                runner = OpenAIBatchRunner(
                    transport.client,
                    completion_window=backend.completion_window,
                    max_requests=backend.max_requests,
                    max_bytes=backend.max_bytes,
                )
        self.backend = backend
        self.driver = RoundDriver(
            runner,
            journal,
            poll_interval=backend.poll_interval,
            max_poll_interval=backend.max_poll_interval,
            max_attempts=backend.max_attempts,
            say=say,
        )
        twins = {key: BatchLLM(stack, self.driver) for key, stack in stacks.items()}
        self.metrics: dict[str, Metric] = {
            name: m if isinstance(m, SyncMetric) else batch_metric(m, twins) for name, m in metrics.items()
        }
