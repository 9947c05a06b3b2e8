"""The round driver: lets every sample run until each one is finished or waits on a deferred request, then
hands the waiting requests to a runner as batch files, polls them, and wakes the samples with their lines.

What a round holds follows from the metric's own code: the first round carries every sample's first request
(decomposition), the next the requests those replies led to (judging, repairs of invalid replies,
follow-ups), and so on. Identical requests (same ``custom_id``) are sent once and answer every sample that
asked. The driver only decides *when* to submit: once no sample can move without an answer (quiescence).
Found too early, the cost is one more round, never a wrong result.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from typing import Any

from ..errors import LLMRequestError
from ._lines import LineOutcome, ResultLines, request_line, split_lines
from ._runners import BatchStatus, Runner

__all__ = ["Journal", "RoundDriver", "RoundExported"]

_SETTLE_STEPS = 24
"""Event-loop passes per quiescence check: more than the awaits between one reply and the next request."""


class RoundExported(Exception):
    """The requests of the next round were written to a file and the run stopped, waiting for their results.

    Attributes:
        path: the request file written.
        requests: how many requests it holds.
        round: the round's number (1 for the first).
    """

    def __init__(self, path: str, requests: int, round_no: int) -> None:
        super().__init__(f"round {round_no}: {requests} requests written to {path}")
        self.path = path
        self.requests = requests
        self.round = round_no


class Journal:
    """The batch records of a run (submissions, ends, imports), kept by the checkpoint when there is one."""

    def __init__(self, records: list[dict[str, Any]], write: Callable[[dict[str, Any]], None] | None = None) -> None:
        self.records = records
        self._write = write

    def append(self, record: dict[str, Any]) -> None:
        if self._write is not None:
            self._write(record)  # the checkpoint appends to its own list as it writes
        else:
            self.records.append(record)


@dataclass
class _Pending:
    custom_id: str
    body: Mapping[str, Any]
    model: str
    batch: str | None = None
    """The batch it waits on; None: to be sent in the next round."""
    samples: set[int] = field(default_factory=set)
    futures: list[asyncio.Future[LineOutcome]] = field(default_factory=list)


class RoundDriver:
    """Collects deferred requests and runs them as batches, round after round.

    Args:
        runner: who runs the files.
        journal: the run's batch records; batches recorded there by an earlier process are collected, not
            submitted again.
        poll_interval: seconds before the first status check of a new batch, growing by half each check to
            ``max_poll_interval``.
        max_attempts: batches one request may go out in (a failed or expired batch, a per-line error or a
            missing line costs one); then its failure is recorded with the last cause.
        say: where progress lines go (None: nowhere).
    """

    def __init__(
        self,
        runner: Runner,
        journal: Journal,
        *,
        poll_interval: float,
        max_poll_interval: float,
        max_attempts: int,
        say: Callable[[str], None] | None = None,
    ) -> None:
        self.runner = runner
        self.journal = journal
        self.poll_interval = poll_interval
        self.max_poll_interval = max_poll_interval
        self.max_attempts = max_attempts
        self._say = say
        self.activity = 0
        self._pending: dict[str, _Pending] = {}
        self._carried: dict[str, list[str]] = {}
        self._records: dict[str, dict[str, Any]] = {}
        self._processed: set[str] = set()
        self._seen: dict[str, str] = {}
        self.submitted: list[str] = []
        """Ids of the batches this process submitted."""
        self.round = 0
        self._resumed: set[str] = set()
        """Uploads recorded by an earlier process (their batch may have started without being recorded)."""
        for record in journal.records:
            if record.get("kind") == "batch":
                self._resumed.add(self._index(dict(record)))
            elif record.get("kind") == "batch_start" and record.get("input_file") in self._records:
                self._records[str(record["input_file"])]["id"] = record.get("id")
        self._started = time.monotonic()

    # -- the samples' side ------------------------------------------------------------------------------

    def touch(self) -> None:
        """Note that a sample moved (finished): quiescence is checked again."""
        self.activity += 1

    async def ask(
        self, custom_id: str, body: Mapping[str, Any], model: str, sample: int | None, *, failed: str | None = None
    ) -> LineOutcome:
        """Wait for the line of the request ``custom_id`` (whose batch body is ``body``).

        A request an earlier process already submitted waits on that batch. With ``failed`` (the cause of the
        previous outcome) the request goes out again in the next round, unless it went out in
        ``max_attempts`` batches already.

        Raises:
            LLMRequestError: the request went out in ``max_attempts`` batches and none answered it.
        """
        self.activity += 1
        pending = self._pending.get(custom_id)
        if pending is None:
            carried = self._carried.get(custom_id, [])
            if failed is not None and len(carried) >= self.max_attempts:
                batches = ", ".join(str(self._records[key].get("id") or key) for key in carried)
                raise LLMRequestError(
                    f"no reply after {len(carried)} batch{'es' if len(carried) != 1 else ''} ({batches}): {failed}"
                )
            pending = _Pending(custom_id, body, model)
            if failed is None and carried and carried[-1] not in self._processed:
                pending.batch = carried[-1]
            self._pending[custom_id] = pending
        if sample is not None:
            pending.samples.add(sample)
        future: asyncio.Future[LineOutcome] = asyncio.get_running_loop().create_future()
        pending.futures.append(future)
        return await future

    # -- the rounds -------------------------------------------------------------------------------------

    async def run(self, work: asyncio.Future[Any]) -> None:
        """Drive rounds until ``work`` (every sample's task) is done.

        Raises:
            RoundExported: a file runner wrote the next round's requests (the run stops there).
            TransportError: the batch API refused a control call (upload, create, retrieve) after its retries.
        """
        while True:
            await self._settle(work)
            if work.done():
                return
            fresh = [p for p in self._pending.values() if p.batch is None]
            if fresh:
                await self._submit(fresh)
            waiting = {p.batch for p in self._pending.values() if p.batch is not None}
            if not waiting:
                await asyncio.sleep(0.01)  # a sample is between two awaits: let it run
                continue
            await self._collect(waiting, fresh=bool(fresh))

    async def _settle(self, work: asyncio.Future[Any]) -> None:
        """Return once ``work`` is done or no sample moved during two passes of checks."""
        last = -1
        while not work.done():
            for _ in range(_SETTLE_STEPS):
                await asyncio.sleep(0)
            if self.activity == last:
                await asyncio.sleep(0.002)  # and once more after a real pause, for a hop through a thread
                for _ in range(_SETTLE_STEPS):
                    await asyncio.sleep(0)
                if self.activity == last:
                    return
            last = self.activity

    async def _submit(self, fresh: list[_Pending]) -> None:
        self.round = max(self.round, self._last_round()) + 1
        by_model: dict[str, list[_Pending]] = {}
        for pending in fresh:
            by_model.setdefault(pending.model, []).append(pending)
        for model, group in by_model.items():
            lines = [request_line(p.custom_id, p.body) for p in group]
            start = 0
            for chunk in split_lines(lines, self.runner.max_requests, self.runner.max_bytes):
                members = group[start : start + len(chunk)]
                start += len(chunk)
                info = await self.runner.upload(chunk, self.round, model)
                samples = sorted({s for p in members for s in p.samples})
                record = {
                    "kind": "batch",
                    **info,
                    "runner": self.runner.name,
                    "round": self.round,
                    "model": model,
                    "custom_ids": [p.custom_id for p in members],
                    "samples": samples,
                }
                # Recorded before the batch is started: a process killed between the two finds the batch
                # by its input file when it resumes, instead of paying for it twice.
                self.journal.append(record)
                key = self._index(dict(record))
                for pending in members:
                    pending.batch = key
                batch_id = await self._start(key)
                self.submitted.append(batch_id)
                where = f" to {info['path']}" if "path" in info else ""
                self._tell(
                    f"round {self.round}: batch {batch_id}{where}: {len(members)} requests, {len(samples)} samples"
                )
                if self.runner.name == "file":
                    raise RoundExported(str(info.get("path")), len(members), self.round)

    async def _start(self, key: str) -> str:
        """The id of the batch of the uploaded file ``key``: found when it was started already, else started."""
        record = self._records[key]
        if record.get("id"):
            return str(record["id"])
        batch_id = await self.runner.find(record) if key in self._resumed else None
        if batch_id is None:
            batch_id = await self.runner.create(record)
        record["id"] = batch_id
        self.journal.append({"kind": "batch_start", "input_file": key, "id": batch_id})
        return batch_id

    async def _collect(self, waiting: set[str], *, fresh: bool) -> None:
        """Poll the ``waiting`` batches (after ``poll_interval`` when one was just submitted), growing the
        interval, until at least one is terminal; hand its lines to the samples."""
        interval = self.poll_interval
        for key in sorted(waiting):
            await self._start(key)  # an upload recorded by a killed process
        if fresh:
            await asyncio.sleep(interval)
        while True:
            done: list[tuple[str, BatchStatus]] = []
            for key in sorted(waiting):
                status = await self.runner.status(self._records[key])
                self._report(key, status)
                if status.terminal:
                    done.append((key, status))
            if done:
                for key, status in done:
                    await self._deliver(key, status)
                return
            if self.runner.name == "file":  # nothing will change without an import
                raise RoundExported(str(self._records[min(waiting)].get("path")), 0, self.round)
            await asyncio.sleep(interval)
            interval = min(interval * 1.5, self.max_poll_interval)

    async def _deliver(self, key: str, status: BatchStatus) -> None:
        record = self._records[key]
        batch_id = str(record["id"])
        lines = await self.runner.collect(record) if status.status != "failed" else ResultLines()
        outcomes = lines.outcomes
        self._processed.add(key)
        skipped = lines.skipped + [
            f"a result line for {c!r}, a request of no batch" for c in outcomes if c not in self._carried
        ]
        if skipped:
            self._tell(
                f"batch {batch_id}: {len(skipped)} result line{'s' if len(skipped) != 1 else ''} used for "
                f"no request (first: {skipped[0]})"
            )
        if not any(r.get("kind") == "batch_end" and r.get("id") == batch_id for r in self.journal.records):
            end = {"kind": "batch_end", "input_file": key, "id": batch_id, "status": status.status}
            self.journal.append({**end, "skipped_lines": len(skipped)} if skipped else end)
        why = {
            "failed": f"batch {batch_id} failed" + (f": {status.error}" if status.error else ""),
            "expired": f"batch {batch_id} expired before answering it",
            "cancelled": f"batch {batch_id} was cancelled before answering it",
        }.get(status.status, f"no line for it in the results of batch {batch_id}")
        missing = LineOutcome(error=why, retryable=True)
        for custom_id in record.get("custom_ids", ()):
            pending = self._pending.get(custom_id)
            if pending is None or pending.batch != key:
                continue
            del self._pending[custom_id]
            outcome = outcomes.get(custom_id, missing)
            for number, future in enumerate(pending.futures):
                if not future.done():
                    future.set_result(outcome if number == 0 else replace(outcome, shared=True))

    # -- bookkeeping ------------------------------------------------------------------------------------

    def _index(self, record: dict[str, Any]) -> str:
        """Index a batch record by its input file; returns that key."""
        key = str(record["input_file"])
        self._records[key] = record
        for custom_id in record.get("custom_ids", ()):
            self._carried.setdefault(custom_id, []).append(key)
        return key

    def _last_round(self) -> int:
        return max((int(r.get("round", 0)) for r in self._records.values()), default=0)

    def _report(self, key: str, status: BatchStatus) -> None:
        text = status.text()
        if self._seen.get(key) != text:
            self._seen[key] = text
            record = self._records[key]
            self._tell(f"round {record.get('round')}: batch {record.get('id')}: {text}")

    def _tell(self, text: str) -> None:
        if self._say is not None:
            elapsed = int(time.monotonic() - self._started)
            self._say(f"[{elapsed // 3600}:{elapsed // 60 % 60:02d}:{elapsed % 60:02d}] {text}")

    def in_flight(self) -> list[str]:
        """Ids of provider batches recorded and not yet seen terminal (what keeps running after a stop)."""
        ended = {r.get("input_file") for r in self.journal.records if r.get("kind") == "batch_end"}
        return [
            str(r.get("id") or f"(the batch of file {key}, being created)")
            for key, r in self._records.items()
            if r.get("runner") == "openai" and key not in ended
        ]
