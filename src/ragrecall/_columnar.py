"""Columnar dataset files: Parquet (``DataFrame.to_parquet``) and Hugging Face ``save_to_disk`` folders.

Both are read with pyarrow (the ``fast`` extra), imported on first use; rows come back as dicts, list cells as
lists, missing cells as None.
"""

from __future__ import annotations

import importlib
import json
import os
from pathlib import Path
from typing import Any

from .errors import FileFormatError

__all__ = ["is_hf_folder", "read_hf_folder", "read_parquet"]


def _pyarrow(module: str, what: str) -> Any:
    try:
        return importlib.import_module(module)
    except ImportError as exc:
        raise FileFormatError(f"reading {what} needs pyarrow: pip install 'ragrecall[fast]'") from exc


def read_parquet(path: str | os.PathLike[str]) -> list[dict[str, Any]]:
    """The rows of a Parquet file."""
    pq = _pyarrow("pyarrow.parquet", "Parquet files")
    try:
        rows: list[dict[str, Any]] = pq.read_table(os.fspath(path)).to_pylist()
    except FileNotFoundError:
        raise
    except _damaged() as exc:  # a damaged page may decode only when the rows are made (UnicodeDecodeError)
        raise FileFormatError(f"not a readable Parquet file: {_said(exc)}", path=os.fspath(path)) from exc
    return rows


def _damaged() -> tuple[type[BaseException], ...]:
    """What pyarrow raises on damaged data: its own exceptions, and the built-in ones they derive from."""
    pa = _pyarrow("pyarrow", "columnar files")
    return (pa.lib.ArrowException, OSError, ValueError, TypeError, KeyError, IndexError, UnicodeError)


def _said(exc: BaseException) -> str:
    return " ".join(str(exc).split())[:200] or type(exc).__name__


def is_hf_folder(path: str | os.PathLike[str]) -> bool:
    """True for a folder written by ``datasets.Dataset.save_to_disk`` (one split)."""
    folder = Path(path)
    return folder.is_dir() and (folder / "state.json").is_file()


def read_hf_folder(path: str | os.PathLike[str]) -> list[dict[str, Any]]:
    """The rows of a ``save_to_disk`` folder: its Arrow stream files, in the order ``state.json`` lists them."""
    pa = _pyarrow("pyarrow", "Hugging Face dataset folders")
    folder = Path(path)
    try:
        state = json.loads((folder / "state.json").read_text(encoding="utf-8"))
        files = [folder / str(entry["filename"]) for entry in state["_data_files"]]
    except (OSError, ValueError, KeyError, TypeError) as exc:
        raise FileFormatError(f"not a Hugging Face dataset folder (state.json: {exc})", path=str(folder)) from exc
    rows: list[dict[str, Any]] = []
    for file in files:
        try:
            with pa.memory_map(str(file)) as source:
                rows.extend(pa.ipc.open_stream(source).read_all().to_pylist())
        except _damaged() as exc:
            raise FileFormatError(f"not a readable Arrow file: {_said(exc)}", path=str(file)) from exc
    return rows
