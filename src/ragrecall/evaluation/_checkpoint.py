"""A JSONL checkpoint: one header line naming the metrics and their settings, then one line per finished
sample-metric pair, appended and flushed as each finishes.

Killing the process at any point loses nothing that finished: every finished pair is already in the
operating system's hands. A torn last line (killed mid-write) is dropped on resume and the file is cut back to
its last complete line. Failed pairs are written too, but a resumed run tries them again.

What is refused, untouched: a file whose first line is not a checkpoint header (a dataset, a config: only an
empty file, or a header torn by a kill, is started afresh); a checkpoint held by another run (an exclusive
lock on ``<checkpoint>.lock`` names its pid, host and start time); a record that does not match its checksum
(edited or damaged), and one pair recorded twice with different results. Format ``ragrecall-checkpoint/2``
carries a checksum on every line; ``/1`` files (no checksums) are still resumed, their old lines taken as
written and new lines checksummed.

A run on the batch backend also writes journal records (``"kind"``: ``"batch"`` for an uploaded or exported
request file with the requests (``custom_id``) and samples it carries, ``"batch_start"`` with the batch id,
``"batch_end"``, ``"import"``), so that a resumed run collects those batches instead of submitting them again.

A metric may keep the outcome of a paid step of a pair before its next step (``"kind": "step"``, see
:mod:`ragrecall._kept`: claim recall keeps the judge's verdicts before asking a confirming model), so that a
rerun of a pair that stopped or failed in the later step does not pay for the first again.
"""

from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Mapping
from typing import IO, Any

from .._files import atomic_binary
from .._kept import KeptSteps
from ..errors import CheckpointError, FileFormatError
from ..results import MetricResult
from ..schema import Sample
from ..usage import STORED_COUNT_CEILING, read_count
from ._lock import FileLock
from ._settings_change import setting_changes

__all__ = ["JOURNAL_KINDS", "Checkpoint", "read_journal", "sample_fingerprint"]

JOURNAL_KINDS = frozenset({"batch", "batch_start", "batch_end", "import", "settings_change"})
"""The ``"kind"`` of the journal records: the batch backend's, and an accepted change of endpoint."""

_FORMAT = "ragrecall-checkpoint/2"
_FORMAT_1 = "ragrecall-checkpoint/1"
"""The first format: the same records without checksums."""
_MARKER = '{"format": "ragrecall-checkpoint/2"'
"""How every header line of this format begins; a torn header must hold at least this much to be ours."""


def sample_fingerprint(raw: Any) -> str:
    """A short hash of a sample's content, so a checkpoint is never applied to a changed dataset.

    Callers pass validated Samples (a dict and its Sample must hash alike); an invalid record is hashed as given.
    """
    data = raw.model_dump(mode="json") if isinstance(raw, Sample) else raw
    text = json.dumps(data, sort_keys=True, ensure_ascii=False, default=str)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]


class Checkpoint:
    """An append-only record of finished sample-metric pairs for one set of metrics, held by one run at a
    time."""

    def __init__(
        self,
        path: str | os.PathLike[str],
        metrics: Mapping[str, dict[str, Any]],
        *,
        allow_endpoint_change: bool = False,
    ) -> None:
        self.path = os.fspath(path)
        self.metrics = {name: dict(settings) for name, settings in metrics.items()}
        self.allow_endpoint_change = allow_endpoint_change
        self._changes: list[str] = []
        """Endpoint changes this run accepts (the header is rewritten with this run's settings)."""
        self._handle: IO[str] | None = None
        self._lock = FileLock(self.path + ".lock", self.path)
        self.journal: list[dict[str, Any]] = []
        """The batch backend's journal records, in file order (filled by :meth:`load`)."""
        self.steps: dict[tuple[int, str], dict[str, dict[str, Any]]] = {}
        """(sample index, metric) → step → the outcome kept of that step (filled by :meth:`load`)."""

    def load(self, fingerprints: list[str]) -> dict[tuple[int, str], MetricResult]:
        """Lock the checkpoint, then read what an earlier run finished; creates the file (with its header) when
        absent or empty. The lock is held until :meth:`close` (or released at once when this raises).

        Returns the final results keyed by (sample index, metric name); failed pairs are left out so that they
        run again. A file that is refused is left exactly as it was.

        Raises:
            CheckpointError: the file is not a checkpoint (its first line is no checkpoint header); another run
                holds it; it was written for other metrics or settings, or for other samples; a record does
                not match its checksum; a pair is recorded twice with different results.
            FileFormatError: a line other than the last is malformed.
        """
        self._lock.acquire()
        try:
            return self._load(fingerprints)
        except BaseException:
            self.close()
            raise

    def append(self, index: int, fingerprint: str, metric: str, result: MetricResult) -> None:
        """Record one finished pair and flush it to the operating system."""
        self._write(
            {
                "index": index,
                "sample": fingerprint,
                "metric": metric,
                "result": result.model_dump(mode="json", exclude={"failure": {"traceback"}}),
            }
        )

    def append_step(self, index: int, fingerprint: str, metric: str, step: str, data: dict[str, Any]) -> None:
        """Keep the outcome of one step of an unfinished pair (JSON-safe ``data``) and flush it."""
        record = {"kind": "step", "index": index, "sample": fingerprint, "metric": metric, "step": step, "data": data}
        self._write(record)
        self.steps.setdefault((index, metric), {})[step] = data

    def kept_steps(self, index: int, fingerprint: str, metric: str) -> KeptSteps:
        """The steps kept of one pair: those this checkpoint holds, new ones appended to it."""

        def keep(step: str, data: dict[str, Any]) -> None:
            self.append_step(index, fingerprint, metric, step, data)

        return KeptSteps(self.steps.get((index, metric), {}), keep)

    def append_journal(self, record: Mapping[str, Any]) -> None:
        """Record one batch-backend journal record (its ``"kind"`` one of :data:`JOURNAL_KINDS`) and flush it."""
        if record.get("kind") not in JOURNAL_KINDS:
            raise ValueError(f"not a journal record: {record.get('kind')!r}")
        self._write(dict(record))
        self.journal.append(dict(record))

    @property
    def endpoint_changes(self) -> list[str]:
        """Every endpoint change a resume of this checkpoint accepted, oldest first (``"context_recall:
        base_url: A → B"``)."""
        recorded = [c for r in self.journal if r.get("kind") == "settings_change" for c in r.get("changes", [])]
        return [*recorded, *self._changes]

    def close(self) -> None:
        """Close the file and release the lock; later appends are an error."""
        if self._handle is not None:
            self._handle.close()
            self._handle = None
        self._lock.release()

    def _load(self, fingerprints: list[str]) -> dict[tuple[int, str], MetricResult]:
        done: dict[tuple[int, str], MetricResult] = {}
        if not os.path.exists(self.path) or os.path.getsize(self.path) == 0:
            self._start()
            return done
        with open(self.path, "rb") as handle:
            raw_lines = handle.readlines()
        first = raw_lines[0]
        if not first.endswith(b"\n"):
            if len(raw_lines) == 1 and len(first) >= len(_MARKER) and self._header_line().startswith(first):
                self._start()  # our own header, torn by a kill before it was whole
                return done
            raise self._not_a_checkpoint()
        version = self._check_header(first, raw_lines[1:])
        finals: dict[tuple[int, str], int] = {}
        good_end = len(first)
        for line_no, raw in enumerate(raw_lines[1:], start=2):
            try:
                record = json.loads(raw)
                if not raw.endswith(b"\n"):
                    raise ValueError("line not terminated")
            except (ValueError, RecursionError) as exc:
                if line_no == len(raw_lines) and not raw.endswith(b"\n"):
                    break  # torn by a kill mid-write (each record is one write, newline last): drop it
                raise FileFormatError(f"malformed checkpoint line: {exc}", path=self.path, line=line_no) from exc
            self._verify(record, version, line_no)
            if record.get("kind") == "step":
                self._apply_step(record, fingerprints, line_no)
            elif isinstance(record.get("kind"), str) and record["kind"] in JOURNAL_KINDS:
                self.journal.append({k: v for k, v in record.items() if k != "checksum"})
            else:
                self._apply(record, fingerprints, done, finals, line_no)
            good_end += len(raw)
        if self._changes:  # the header now names this run's settings; the change is journaled
            with atomic_binary(self.path) as out:
                out.write(self._header_line())
                out.write(b"".join(raw_lines)[len(first) : good_end])
            self._handle = open(self.path, "a", encoding="utf-8")  # noqa: SIM115 - kept open for appends
            self._write({"kind": "settings_change", "changes": self._changes})
            return done
        self._handle = open(self.path, "r+", encoding="utf-8")  # noqa: SIM115 - kept open for appends
        self._handle.seek(good_end)
        self._handle.truncate()
        return done

    def _start(self) -> None:
        self._handle = open(self.path, "w", encoding="utf-8")  # noqa: SIM115 - kept open for appends
        self._handle.write(self._header_line().decode("utf-8"))
        self._handle.flush()

    def _header_line(self) -> bytes:
        return _line({"format": _FORMAT, "metrics": self.metrics}).encode("utf-8")

    def _write(self, record: dict[str, Any]) -> None:
        if self._handle is None:
            raise RuntimeError("checkpoint is not open")
        self._handle.write(_line(record))
        self._handle.flush()

    def _not_a_checkpoint(self) -> CheckpointError:
        return CheckpointError(
            f"{self.path} is not a ragrecall checkpoint (its first line is not a checkpoint header); it was left "
            "untouched. Give --checkpoint a new file name, or the checkpoint of an earlier run."
        )

    def _check_header(self, raw: bytes, records: list[bytes]) -> str:
        """The header's format; raises CheckpointError when it is not one, is damaged, or is not this run's
        (see :meth:`_settings_differ`)."""
        try:
            record = json.loads(raw)
        except (ValueError, RecursionError):
            record = None
        if not isinstance(record, dict) or record.get("format") not in (_FORMAT, _FORMAT_1):
            raise self._not_a_checkpoint()
        version = str(record["format"])
        self._verify(record, version, 1)
        if record.get("metrics") != self.metrics:
            self._settings_differ(record.get("metrics"), records)
        return version

    def _settings_differ(self, written: Any, records: list[bytes]) -> None:
        """Accept a change of endpoint or model when no LLM answer is recorded, or when allowed; otherwise
        raise CheckpointError naming each differing setting, in at most three lines."""
        changes = setting_changes(written if isinstance(written, dict) else {}, self.metrics)
        texts = [c.text() for c in changes]
        shown = "; ".join(texts[:4]) + (f"; and {len(texts) - 4} more" if len(texts) > 4 else "")
        head = f"{self.path} was written for other metrics or settings: {shown}"
        if not changes or not all(c.endpoint for c in changes):
            raise CheckpointError(f"{head}\nUse another checkpoint file, or delete this one to start over.")
        # Kept steps hold the judge's answers only: a confirming model moved elsewhere changes none of them.
        confirmer_only = all("confirm" in c.path for c in changes)
        if _answered(records, steps=not confirmer_only) and not self.allow_endpoint_change:
            raise CheckpointError(
                f"{head}\nIt holds LLM answers from the first endpoint: resume anyway with --allow-endpoint-change "
                "(allow_endpoint_change=True; recorded in the run details), or use another checkpoint file."
            )
        self._changes = texts

    def _verify(self, record: Any, version: str, line_no: int) -> None:
        """Check a record's checksum: required from format /2 on, checked wherever present."""
        if not isinstance(record, dict):
            raise FileFormatError(
                f"malformed checkpoint record: expected an object, got {type(record).__name__}",
                path=self.path,
                line=line_no,
            )
        if "checksum" not in record and version == _FORMAT_1:
            return
        if record.get("checksum") != _checksum(record):
            raise CheckpointError(
                f"{self.path}:{line_no}: the record does not match its checksum: the line was edited or damaged. "
                "Remove that line to run its pair again, or use another checkpoint file."
            )

    def _apply(
        self,
        record: dict[str, Any],
        fingerprints: list[str],
        done: dict[tuple[int, str], MetricResult],
        finals: dict[tuple[int, str], int],
        line_no: int,
    ) -> None:
        try:
            index, metric = int(record["index"]), str(record["metric"])
            result = MetricResult.model_validate(record["result"])
            fingerprint = record["sample"]
        except (KeyError, TypeError, ValueError) as exc:
            raise FileFormatError(f"malformed checkpoint record: {exc}", path=self.path, line=line_no) from exc
        if not 0 <= index < len(fingerprints) or fingerprints[index] != fingerprint:
            raise CheckpointError(
                f"{self.path}:{line_no}: sample {index} differs from the one this checkpoint was written for "
                "(the dataset changed). Use another checkpoint file, or delete this one to start over."
            )
        if metric not in self.metrics:
            raise CheckpointError(f"{self.path}:{line_no}: unknown metric {metric!r}")
        key = (index, metric)
        if key in finals:
            # One writer never records a finished pair again; a second record with another outcome means an
            # edit or two runs at once, and either could be the wrong one. A later failure changes nothing.
            if result.status != "failed" and _outcome(result) != _outcome(done[key]):
                raise CheckpointError(
                    f"{self.path}:{line_no}: sample {index}, metric {metric!r} is recorded again with a different "
                    f"result (first at line {finals[key]}); the file was edited or written by two runs at once. "
                    "Remove the wrong line, or use another checkpoint file."
                )
            return
        if result.status != "failed":
            done[key] = result
            finals[key] = line_no

    def _apply_step(self, record: dict[str, Any], fingerprints: list[str], line_no: int) -> None:
        try:
            index, metric, step = int(record["index"]), str(record["metric"]), str(record["step"])
            data, fingerprint = record["data"], record["sample"]
            if not isinstance(data, dict):
                raise TypeError(f"step data must be an object, got {type(data).__name__}")
        except (KeyError, TypeError, ValueError) as exc:
            raise FileFormatError(f"malformed checkpoint record: {exc}", path=self.path, line=line_no) from exc
        if not 0 <= index < len(fingerprints) or fingerprints[index] != fingerprint:
            raise CheckpointError(
                f"{self.path}:{line_no}: sample {index} differs from the one this checkpoint was written for "
                "(the dataset changed). Use another checkpoint file, or delete this one to start over."
            )
        if metric in self.metrics:
            self.steps.setdefault((index, metric), {})[step] = data


def _answered(records: list[bytes], *, steps: bool = True) -> bool:
    """True when a finished pair holds an LLM answer (a request paid or served from the cache), a batch was
    sent, or (with ``steps``) a step of an unfinished pair is kept: results that depend on the endpoint they
    came from."""
    for raw in records:
        try:
            record = json.loads(raw)
        except (ValueError, RecursionError):
            continue
        if not isinstance(record, dict):
            continue
        if record.get("kind") in ("batch", "batch_start") or (steps and record.get("kind") == "step"):
            return True
        result = record.get("result")
        usage = result.get("usage") if isinstance(result, dict) else None
        if not isinstance(result, dict) or not isinstance(usage, dict) or result.get("status") == "failed":
            continue
        if (read_count(usage.get("requests"), STORED_COUNT_CEILING) or 0) + (
            read_count(usage.get("cached_requests"), STORED_COUNT_CEILING) or 0
        ) > 0:
            return True
    return False


def read_journal(path: str | os.PathLike[str]) -> list[dict[str, Any]]:
    """The batch journal records of the checkpoint at ``path``, read without taking its lock (for commands
    that only look at the batches, such as ``ragrecall batch cancel``).

    Raises:
        CheckpointError: the file is not a checkpoint, or a journal record does not match its checksum.
    """
    records: list[dict[str, Any]] = []
    with open(path, "rb") as handle:
        first = handle.readline()
        try:
            header = json.loads(first)
        except (ValueError, RecursionError):
            header = None
        if not isinstance(header, dict) or header.get("format") not in (_FORMAT, _FORMAT_1):
            raise CheckpointError(f"{os.fspath(path)} is not a ragrecall checkpoint (its first line is not a header)")
        for line_no, raw in enumerate(handle, start=2):
            try:
                record = json.loads(raw)
            except (ValueError, RecursionError):
                continue  # a torn last line
            if not isinstance(record, dict) or record.get("kind") not in JOURNAL_KINDS:
                continue
            if record.get("checksum") != _checksum(record):
                raise CheckpointError(f"{os.fspath(path)}:{line_no}: the record does not match its checksum")
            records.append({k: v for k, v in record.items() if k != "checksum"})
    return records


def _checksum(record: Mapping[str, Any]) -> str:
    """The first 16 hex digits of the SHA-256 of the record without its checksum, as canonical JSON (keys
    sorted, no spaces), computed on the record as it reads back from its line."""
    body = json.loads(json.dumps({k: v for k, v in record.items() if k != "checksum"}, ensure_ascii=False))
    text = json.dumps(body, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]


def _line(record: dict[str, Any]) -> str:
    """The record's line, its checksum added last."""
    return json.dumps({**record, "checksum": _checksum(record)}, ensure_ascii=False) + "\n"


def _outcome(result: MetricResult) -> dict[str, Any]:
    """What two records of one pair must agree on: everything but the usage spent getting it."""
    return result.model_dump(mode="json", exclude={"usage": True, "failure": {"traceback"}})
