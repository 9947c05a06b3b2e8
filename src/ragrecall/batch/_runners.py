"""Who runs a batch file: the provider's Batch API (files and batches through the ``openai`` SDK), or the
user's own runner through files (export a request file, import a result file)."""

from __future__ import annotations

import hashlib
import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

import openai

from .._files import atomic_binary
from .._sync import on_runner_loop
from ..errors import InputError, TransportError
from ..llm import Scrubber, client_secrets, public_url, sdk_failure
from ._lines import ResultLines, read_result_text

__all__ = ["BatchStatus", "FileRunner", "OpenAIBatchRunner", "Runner"]

_TERMINAL = frozenset({"completed", "failed", "expired", "cancelled"})


@dataclass(frozen=True)
class BatchStatus:
    """A batch as last seen: its status, request counts, and the provider's error text for a failed batch."""

    status: str
    completed: int = 0
    failed: int = 0
    total: int = 0
    error: str | None = None

    @property
    def terminal(self) -> bool:
        """True once the batch will change no more (completed, failed, expired or cancelled)."""
        return self.status in _TERMINAL

    def text(self) -> str:
        counts = f"{self.completed}/{self.total} done" + (f", {self.failed} failed" if self.failed else "")
        return f"{self.status}, {counts}" + (f" ({self.error})" if self.error else "")


class Runner(Protocol):
    """Runs request files and gives back their result lines."""

    name: str
    """Recorded with each batch: ``"openai"`` or ``"file"``."""
    max_requests: int
    max_bytes: int

    async def upload(self, lines: Sequence[bytes], round_no: int, model: str) -> dict[str, Any]:
        """Hand over one request file; the journal fields of the upload (``input_file``, its id, first)."""
        ...

    async def create(self, record: Mapping[str, Any]) -> str:
        """Start the batch of an uploaded file; its id."""
        ...

    async def find(self, record: Mapping[str, Any]) -> str | None:
        """The id of a batch already started on the uploaded file of ``record`` (by a process that was killed
        before it could record it), or None."""
        ...

    async def status(self, record: Mapping[str, Any]) -> BatchStatus:
        """The batch's status now."""
        ...

    async def collect(self, record: Mapping[str, Any]) -> ResultLines:
        """The result lines of a batch that reached a terminal status, by ``custom_id`` (with the lines that
        name no request)."""
        ...


class OpenAIBatchRunner:
    """The OpenAI Batch API (or any server that speaks it) through an ``AsyncOpenAI`` client.

    Uploads with ``files.create(purpose="batch")``, creates with ``batches.create(endpoint=
    "/v1/chat/completions", completion_window=...)``, polls ``batches.retrieve`` and reads the output and
    error files with ``files.content``. The SDK retries these few control calls itself (``max_retries``).
    """

    name = "openai"

    def __init__(
        self,
        client: openai.AsyncOpenAI,
        *,
        completion_window: str = "24h",
        max_requests: int = 50_000,
        max_bytes: int = 200_000_000,
        max_retries: int = 5,
    ) -> None:
        self._client = client.with_options(max_retries=max_retries)
        self.completion_window = completion_window
        self.max_requests = max_requests
        self.max_bytes = max_bytes
        self.endpoint = public_url(str(client.base_url))
        self._scrubber = Scrubber(*client_secrets(client))

    async def upload(self, lines: Sequence[bytes], round_no: int, model: str) -> dict[str, Any]:
        data = b"".join(lines)
        name = f"ragrecall-round-{round_no}.jsonl"
        upload = await self._call(self._client.files.create(file=(name, data), purpose="batch"))
        return {"input_file": upload.id, "endpoint": self.endpoint}

    async def create(self, record: Mapping[str, Any]) -> str:
        batch = await self._call(
            self._client.batches.create(
                input_file_id=str(record["input_file"]),
                endpoint="/v1/chat/completions",
                completion_window=self.completion_window,  # type: ignore[arg-type]
                metadata={"source": "ragrecall", "round": str(record.get("round"))},
            )
        )
        return str(batch.id)

    async def find(self, record: Mapping[str, Any]) -> str | None:
        async def scan() -> str | None:
            async for batch in self._client.batches.list(limit=100):
                if batch.input_file_id == record["input_file"]:
                    return str(batch.id)
            return None

        found: str | None = await self._call(scan())
        return found

    async def status(self, record: Mapping[str, Any]) -> BatchStatus:
        batch = await self._call(self._client.batches.retrieve(str(record["id"])))
        counts = batch.request_counts
        error = None
        if batch.errors is not None and batch.errors.data:
            error = "; ".join(f"{e.code or 'error'}: {e.message or ''}".strip() for e in batch.errors.data)[:500]
        return BatchStatus(
            str(batch.status),
            completed=getattr(counts, "completed", 0) or 0,
            failed=getattr(counts, "failed", 0) or 0,
            total=getattr(counts, "total", 0) or 0,
            error=self._scrubber.scrub(error) if error else None,
        )

    async def collect(self, record: Mapping[str, Any]) -> ResultLines:
        batch = await self._call(self._client.batches.retrieve(str(record["id"])))
        outcomes = ResultLines()
        # The error file first: a line in the output file wins over one in the error file.
        for file_id in (batch.error_file_id, batch.output_file_id):
            if not file_id:
                continue
            content = await self._call(self._client.files.content(file_id))
            outcomes.update(read_result_text(content.content, source=f"{self.endpoint} file {file_id}"))
        return outcomes

    async def cancel(self, batch_id: str) -> BatchStatus:
        """Ask the provider to cancel a batch; its status after the request."""
        await self._call(self._client.batches.cancel(batch_id))
        return await self.status({"id": batch_id})

    async def _call(self, coro: Any) -> Any:
        try:
            return await on_runner_loop(coro)
        except Exception as exc:
            failure = sdk_failure(exc, openai, endpoint=self.endpoint, model="-", scrubber=self._scrubber)
            if failure is None:
                raise
        # Raised outside the handler: the SDK's exception (the request sent, the key among it) is not chained.
        raise TransportError(
            f"the batch API at {self.endpoint} failed: {failure}",
            kind=failure.kind,
            status=failure.status,
            retryable=failure.retryable,
            endpoint=self.endpoint,
        )


class FileRunner:
    """Batches as files: the requests of the next round are written to ``export_to`` (then the run stops,
    see :class:`~ragrecall.batch.RoundExported`); results come from imported result files.

    An exported batch is terminal once a result file was imported after it; its lines are looked up in every
    imported file (a later file wins for a request answered twice).
    """

    name = "file"

    def __init__(self, export_to: str | os.PathLike[str] | None, journal: Sequence[Mapping[str, Any]]) -> None:
        self.export_to = os.fspath(export_to) if export_to is not None else None
        self.max_requests = 2**62
        self.max_bytes = 2**62
        self._journal = journal
        self._outcomes: ResultLines | None = None

    def imports(self) -> list[Mapping[str, Any]]:
        return [r for r in self._journal if r.get("kind") == "import"]

    async def upload(self, lines: Sequence[bytes], round_no: int, model: str) -> dict[str, Any]:
        if self.export_to is None:
            raise InputError("this round's requests have no file to go to: give a request file to export to")
        target = self.export_to.replace("{round}", str(round_no))
        if os.path.exists(target) and os.path.getsize(target) > 0:
            raise InputError(f"the request file {target} exists; give a new name (it is never overwritten)")
        with atomic_binary(target) as out:
            for line in lines:
                out.write(line)
        return {"input_file": f"export-{round_no}", "path": os.path.abspath(target)}

    async def create(self, record: Mapping[str, Any]) -> str:
        return str(record["input_file"])

    async def find(self, record: Mapping[str, Any]) -> str | None:
        return str(record["input_file"])

    async def status(self, record: Mapping[str, Any]) -> BatchStatus:
        position = _position(self._journal, record)
        answered = any(_position(self._journal, r) > position for r in self.imports())
        total = len(record.get("custom_ids", ()))
        if not answered:
            return BatchStatus("exported", total=total)
        outcomes = self._read().outcomes
        done = sum(1 for c in record.get("custom_ids", ()) if c in outcomes)
        return BatchStatus("completed", completed=done, failed=total - done, total=total)

    async def collect(self, record: Mapping[str, Any]) -> ResultLines:
        return self._read()

    def _read(self) -> ResultLines:
        if self._outcomes is None:
            outcomes = ResultLines()
            for record in self.imports():
                outcomes.update(read_import(record))
            self._outcomes = outcomes
        return self._outcomes


def import_record(path: str | os.PathLike[str]) -> dict[str, Any]:
    """The journal record of a result file to import: its absolute path, SHA-256, the number of requests it
    answers and of lines it skips (see :func:`read_result_text`: no line refuses the file).

    Raises:
        InputError: the file does not exist.
    """
    target = os.path.abspath(os.fspath(path))
    if not os.path.isfile(target):
        raise InputError(f"no such batch result file: {os.fspath(path)}")
    with open(target, "rb") as handle:
        data = handle.read()
    lines = read_result_text(data, source=os.fspath(path))
    return {
        "kind": "import",
        "path": target,
        "sha256": hashlib.sha256(data).hexdigest(),
        "lines": len(lines.outcomes),
        "skipped": len(lines.skipped),
    }


def read_import(record: Mapping[str, Any]) -> ResultLines:
    """The result lines of an imported file, checked against the digest recorded when it was imported.

    Raises:
        InputError: the file is gone or changed since (keep result files until the run is finished).
    """
    path = str(record["path"])
    try:
        with open(path, "rb") as handle:
            data = handle.read()
    except OSError as exc:
        raise InputError(
            f"the batch result file {path}, imported earlier in this run, cannot be read ({exc}); keep result "
            "files until the run is finished"
        ) from exc
    if hashlib.sha256(data).hexdigest() != record.get("sha256"):
        raise InputError(f"the batch result file {path} changed since it was imported; put back the file imported")
    return read_result_text(data, source=path)


def _position(journal: Sequence[Mapping[str, Any]], record: Mapping[str, Any]) -> int:
    for at, entry in enumerate(journal):
        if entry is record or entry == record:
            return at
    return -1
