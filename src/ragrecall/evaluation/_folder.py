"""A results folder: a run's rows as Parquet parts, each written whole as its samples finish, and a manifest.

What a distributed run writes (``ragrecall.integrations.ray.evaluate_dataset``) and ``ragrecall report DIR``
reads. The manifest (``ragrecall-results.json``) names the metrics and their settings, the number of samples
and the runs that wrote the parts. Each part (``part-<first index>-<digest>.parquet``) holds one row per sample:

- ``index`` (the sample's place in the dataset), ``sample_id`` (its id as text, or null), ``sample`` (the
  fingerprint a checkpoint keeps, so that a resume never applies a row to a changed sample), ``run`` (the run
  that wrote it, 1 for the first);
- per metric, ``<metric>`` (the value, null when not scored) and ``<metric>:status``;
- ``row``: the row exactly as a line of a results file holds it (every result, its failure and evidence).

A part is named after the samples it holds, so a batch scored twice (a worker died after writing it and the
batch was retried) replaces its own part instead of adding one. A sample written by several runs (a resume
that scored its failed metrics again) is read from the latest. Parts are written to a temporary file and
renamed, so a kill never leaves half a part.
"""

from __future__ import annotations

import glob
import hashlib
import json
import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import pyarrow as pa
import pyarrow.parquet as pq

from .._files import atomic_binary, atomic_text
from ..errors import CheckpointError, FileFormatError
from ._lock import FileLock
from ._result import EvaluationResult
from ._result_lines import read_result_line, row_json
from ._rows import SampleRow
from ._run_info import RunInfo
from ._settings_change import setting_changes

__all__ = [
    "FOLDER_FORMAT",
    "MANIFEST",
    "FolderRun",
    "Stored",
    "is_result_folder",
    "part_table",
    "read_result_folder",
    "write_part",
]

FOLDER_FORMAT = "ragrecall-results-folder/1"
MANIFEST = "ragrecall-results.json"
_PARTS = "part-*.parquet"


@dataclass(frozen=True)
class Stored:
    """What a folder holds of one sample: its fingerprint, and its row when some metric failed on it (the
    finished results a resume keeps)."""

    fingerprint: str
    unfinished: SampleRow | None


def is_result_folder(path: str | os.PathLike[str]) -> bool:
    """True when ``path`` is a folder holding a results manifest."""
    return os.path.isfile(os.path.join(os.fspath(path), MANIFEST))


def part_table(rows: Sequence[SampleRow], fingerprints: Sequence[str], metrics: Sequence[str], run: int) -> pa.Table:
    """The part of a results folder holding ``rows`` (columns in the module docstring)."""
    columns: dict[str, Any] = {
        "index": pa.array([r.index for r in rows], pa.int64()),
        "sample_id": pa.array([None if r.sample_id is None else str(r.sample_id) for r in rows], pa.string()),
        "sample": pa.array(list(fingerprints), pa.string()),
        "run": pa.array([run] * len(rows), pa.int32()),
    }
    for name in metrics:
        columns[name] = pa.array([r.results[name].value for r in rows], pa.float64())
        columns[f"{name}:status"] = pa.array([r.results[name].status for r in rows], pa.string())
    columns["row"] = pa.array([row_json(r) for r in rows], pa.large_string())
    return pa.table(columns)


def write_part(folder: str | os.PathLike[str], table: pa.Table) -> str:
    """Write ``table`` (from :func:`part_table`) as a part of ``folder``, whole or not at all; returns its path.
    The name comes from the samples it holds, so writing the same samples again replaces the part."""
    indices = table.column("index").to_numpy()
    digest = hashlib.sha256(indices.astype("<i8").tobytes()).hexdigest()[:16]
    path = os.path.join(os.fspath(folder), f"part-{int(indices.min()):012d}-{digest}.parquet")
    with atomic_binary(path) as out:
        pq.write_table(table, out)
    return path


class FolderRun:
    """One run writing into a results folder: holds the folder's lock, checks or writes its manifest, and
    tells what earlier runs finished."""

    def __init__(self, path: str | os.PathLike[str], metrics: Mapping[str, dict[str, Any]], samples: int) -> None:
        self.path = os.fspath(path)
        # as the manifest reads back, whatever a user's metric puts in its settings
        self.metrics = json.loads(json.dumps({n: dict(s) for n, s in metrics.items()}, default=repr))
        self.samples = samples
        self.run = 1
        """This run's number: one more than the runs before it on this folder."""
        self._lock = FileLock(os.path.join(self.path, ".lock"), self.path)

    def open(self) -> dict[int, Stored]:
        """Create the folder (or check that it was written for these metrics and this many samples), lock it,
        and return what earlier runs wrote, by sample index.

        Raises:
            CheckpointError: another run holds the folder; it holds other files than a results folder's; it was
                written for other metrics or settings, or for another number of samples.
        """
        os.makedirs(self.path, exist_ok=True)
        self._lock.acquire()
        try:
            manifest = self._manifest()
            self.run = int(manifest.get("runs", 0)) + 1
            with atomic_text(os.path.join(self.path, MANIFEST)) as out:
                json.dump({**manifest, "runs": self.run}, out, ensure_ascii=False, indent=1)
            return {i: Stored(fp, row) for i, (fp, row) in _latest(self.path, unfinished=True).items()}
        except BaseException:
            self.close()
            raise

    def finish(self, run: RunInfo) -> None:
        """Record ``run`` in the manifest as the details of the latest finished run."""
        manifest = {**_read_manifest(self.path), "run": json.loads(run.model_dump_json())}
        with atomic_text(os.path.join(self.path, MANIFEST)) as out:
            json.dump(manifest, out, ensure_ascii=False, indent=1)

    def close(self) -> None:
        """Release the folder's lock."""
        self._lock.release()

    def _manifest(self) -> dict[str, Any]:
        path = os.path.join(self.path, MANIFEST)
        fresh = {"format": FOLDER_FORMAT, "metrics": self.metrics, "samples": self.samples, "runs": 0}
        if not os.path.exists(path):
            if any(not name.startswith(".") for name in os.listdir(self.path)):
                raise CheckpointError(
                    f"{self.path} holds files and no {MANIFEST}: it is not a results folder; give out= a new or "
                    "empty folder, or the folder of an earlier run"
                )
            return fresh
        manifest = _read_manifest(self.path)
        if manifest.get("metrics") != self.metrics:
            changes = "; ".join(c.text() for c in setting_changes(manifest.get("metrics") or {}, self.metrics))
            raise CheckpointError(
                f"{self.path} was written for other metrics or settings: {changes or 'the metrics differ'}. "
                "Use another folder, or delete this one to start over."
            )
        if manifest.get("samples") != self.samples:
            raise CheckpointError(
                f"{self.path} was written for {manifest.get('samples')} samples, this dataset has {self.samples} "
                "(the dataset changed). Use another folder, or delete this one to start over."
            )
        return manifest


def read_result_folder(path: str | os.PathLike[str]) -> EvaluationResult:
    """The result a results folder holds: each sample's latest row, in index order (samples no run finished
    are absent), with the metrics and the latest finished run's details of its manifest.

    Raises:
        FileFormatError: the folder has no manifest, or a part is not one.
    """
    name = os.fspath(path)
    manifest = _read_manifest(name)
    rows = [row for _, (_, row) in sorted(_latest(name, unfinished=False).items()) if row is not None]
    run = RunInfo.model_validate(manifest["run"]) if isinstance(manifest.get("run"), dict) else None
    metrics = list(manifest.get("metrics") or {})
    return EvaluationResult(rows, metrics, wall_time_s=run.wall_time_s if run else 0.0, run=run)


def _read_manifest(folder: str) -> dict[str, Any]:
    path = os.path.join(folder, MANIFEST)
    try:
        with open(path, encoding="utf-8") as handle:
            manifest = json.load(handle)
    except FileNotFoundError:
        raise FileFormatError(f"no {MANIFEST}: not a results folder", path=folder) from None
    except ValueError as exc:
        raise FileFormatError(f"not a results manifest: {exc}", path=path) from exc
    if not isinstance(manifest, dict) or manifest.get("format") != FOLDER_FORMAT:
        raise FileFormatError(f"not a results manifest (expected format {FOLDER_FORMAT!r})", path=path)
    return manifest


def _latest(folder: str, *, unfinished: bool) -> dict[int, tuple[str, SampleRow | None]]:
    """Each sample's fingerprint and row from the latest run that wrote it. With ``unfinished``, rows are parsed
    only where a metric failed (what a resume needs); otherwise every row is."""
    best: dict[int, tuple[int, str, str, str]] = {}  # index -> (run, fingerprint, row text, part)
    for part in sorted(glob.glob(os.path.join(folder, _PARTS))):
        try:
            table = pq.read_table(part, columns=["index", "sample", "run", "row"])
        except (pa.ArrowException, OSError) as exc:
            raise FileFormatError(f"not a results part: {exc}", path=part) from exc
        columns = [table.column(c).to_pylist() for c in ("index", "sample", "run", "row")]
        for index, fingerprint, run, text in zip(*columns, strict=True):
            if index not in best or run > best[index][0]:
                best[index] = (run, fingerprint, text, part)
    out: dict[int, tuple[str, SampleRow | None]] = {}
    for index, (_, fingerprint, text, part) in best.items():
        if unfinished and '"status":"failed"' not in text:
            out[index] = (fingerprint, None)
            continue
        row, _ = read_result_line(text, part, index, first=False)
        out[index] = (fingerprint, row if not unfinished or _failed(row) else None)
    return out


def _failed(row: SampleRow) -> bool:
    return any(r.status == "failed" for r in row.results.values())
