"""A JSONL checkpoint: one header line naming the metrics and their settings, then one line per finished
sample-metric pair, appended and flushed as each finishes.

Killing the process at any point loses nothing that finished: every finished pair is already in the
operating system's hands. A torn last line (killed mid-write) is dropped on resume and the file is cut back to
its last complete line. Failed pairs are written too, but a resumed run tries them again.
"""

from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Mapping
from typing import IO, Any

from ..errors import CheckpointError, FileFormatError
from ..results import MetricResult
from ..schema import Sample

__all__ = ["Checkpoint", "sample_fingerprint"]

_FORMAT = "ragrecall-checkpoint/1"


def sample_fingerprint(raw: Any) -> str:
    """A short hash of a sample's content, so a checkpoint is never applied to a changed dataset.

    Callers pass validated Samples (a dict and its Sample must hash alike); an invalid record is hashed as given.
    """
    data = raw.model_dump(mode="json") if isinstance(raw, Sample) else raw
    text = json.dumps(data, sort_keys=True, ensure_ascii=False, default=str)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]


class Checkpoint:
    """An append-only record of finished sample-metric pairs for one set of metrics."""

    def __init__(self, path: str | os.PathLike[str], metrics: Mapping[str, dict[str, Any]]) -> None:
        self.path = os.fspath(path)
        self.metrics = {name: dict(settings) for name, settings in metrics.items()}
        self._handle: IO[str] | None = None

    def load(self, fingerprints: list[str]) -> dict[tuple[int, str], MetricResult]:
        """Read what an earlier run finished; creates the file (with its header) when absent.

        Returns the final results keyed by (sample index, metric name); failed pairs are left out so that they
        run again.

        Raises:
            CheckpointError: the file was written for other metrics or settings, or for other samples.
            FileFormatError: a line other than the last is malformed.
        """
        done: dict[tuple[int, str], MetricResult] = {}
        if not os.path.exists(self.path) or os.path.getsize(self.path) == 0:
            self._handle = open(self.path, "w", encoding="utf-8")  # noqa: SIM115 - kept open for appends
            self._write({"format": _FORMAT, "metrics": self.metrics})
            return done
        good_end = 0
        with open(self.path, "rb") as handle:
            raw_lines = handle.readlines()
        for line_no, raw in enumerate(raw_lines, start=1):
            last = line_no == len(raw_lines)
            try:
                record = json.loads(raw)
                if not raw.endswith(b"\n"):
                    raise ValueError("line not terminated")
            except ValueError as exc:
                if last:
                    break  # torn by a kill mid-write: drop it
                raise FileFormatError(f"malformed checkpoint line: {exc}", path=self.path, line=line_no) from exc
            if line_no == 1:
                self._check_header(record)
            else:
                self._apply(record, fingerprints, done, line_no)
            good_end += len(raw)
        self._handle = open(self.path, "r+", encoding="utf-8")  # noqa: SIM115 - kept open for appends
        self._handle.seek(good_end)
        self._handle.truncate()
        if good_end == 0:  # the header itself was torn: start the file again
            self._write({"format": _FORMAT, "metrics": self.metrics})
        return done

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

    def close(self) -> None:
        """Close the file; later appends are an error."""
        if self._handle is not None:
            self._handle.close()
            self._handle = None

    def _write(self, record: dict[str, Any]) -> None:
        if self._handle is None:
            raise RuntimeError("checkpoint is not open")
        self._handle.write(json.dumps(record, ensure_ascii=False) + "\n")
        self._handle.flush()

    def _check_header(self, record: Any) -> None:
        if not isinstance(record, dict) or record.get("format") != _FORMAT:
            raise CheckpointError(f"{self.path} is not a ragrecall checkpoint (its first line has no {_FORMAT!r})")
        if record.get("metrics") != self.metrics:
            raise CheckpointError(
                f"{self.path} was written for other metrics or settings: {json.dumps(record.get('metrics'))}; "
                f"this run has {json.dumps(self.metrics)}. "
                "Use another checkpoint file, or delete this one to start over."
            )

    def _apply(
        self, record: Any, fingerprints: list[str], done: dict[tuple[int, str], MetricResult], line_no: int
    ) -> None:
        try:
            index, metric = int(record["index"]), str(record["metric"])
            result = MetricResult.model_validate(record["result"])
            fingerprint = record["sample"]
        except (KeyError, TypeError, ValueError) as exc:
            raise FileFormatError(f"malformed checkpoint record: {exc}", path=self.path, line=line_no) from exc
        if index >= len(fingerprints) or fingerprints[index] != fingerprint:
            raise CheckpointError(
                f"{self.path}:{line_no}: sample {index} differs from the one this checkpoint was written for "
                "(the dataset changed). Use another checkpoint file, or delete this one to start over."
            )
        if metric not in self.metrics:
            raise CheckpointError(f"{self.path}:{line_no}: unknown metric {metric!r}")
        if result.status == "failed":
            done.pop((index, metric), None)
        else:
            done[(index, metric)] = result
