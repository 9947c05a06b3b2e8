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
        table = pq.read_table(os.fspath(path))
    except FileNotFoundError:
        raise
    except (OSError, ValueError) as exc:  # pyarrow's ArrowInvalid is a ValueError
        raise FileFormatError(f"not a readable Parquet file: {exc}", path=os.fspath(path)) from exc
    rows: list[dict[str, Any]] = table.to_pylist()
    return rows


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
        files = [folder / entry["filename"] for entry in state["_data_files"]]
    except (OSError, ValueError, KeyError, TypeError) as exc:
        raise FileFormatError(f"not a Hugging Face dataset folder (state.json: {exc})", path=str(folder)) from exc
    rows: list[dict[str, Any]] = []
    for file in files:
        try:
            with pa.memory_map(str(file)) as source:
                rows.extend(pa.ipc.open_stream(source).read_all().to_pylist())
        except (OSError, ValueError) as exc:
            raise FileFormatError(f"not a readable Arrow file: {exc}", path=str(file)) from exc
    return rows
