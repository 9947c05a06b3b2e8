"""String IDs as integer codes into a vocabulary, with or without pyarrow.

A vocabulary is a ``list[str]`` (plain path) or a pyarrow string array (fast path, no Python string per
row). IDs stay strings throughout: they are never parsed as numbers, and order comparisons between them
are byte-wise on their UTF-8 form (which is what Python's ``str`` ordering gives as well).
"""

from __future__ import annotations

import functools
import importlib
from collections.abc import Sequence
from typing import Any

import numpy as np
from numpy.typing import NDArray

__all__ = ["arrow", "encode", "index_in", "take", "to_list", "vocab_len"]

Vocab = Any
"""A ``list[str]`` or a pyarrow string array."""


@functools.lru_cache(maxsize=1)
def arrow() -> Any | None:
    """The ``pyarrow`` module when installed (the ``fast`` extra), else None."""
    try:
        pa = importlib.import_module("pyarrow")
        importlib.import_module("pyarrow.compute")
        importlib.import_module("pyarrow.csv")
    except ImportError:
        return None
    return pa


def _is_arrow(vocab: Vocab) -> bool:
    return not isinstance(vocab, list)


def encode(strings: Sequence[str], *, use_arrow: bool = True) -> tuple[NDArray[np.int32], Vocab]:
    """Codes (first-appearance order) and the vocabulary of ``strings``."""
    pa = arrow() if use_arrow else None
    if pa is not None and len(strings) > 0:
        encoded = pa.array(strings, type=pa.string()).dictionary_encode()
        return encoded.indices.to_numpy().astype(np.int32, copy=False), encoded.dictionary
    table: dict[str, int] = {}
    codes = np.fromiter((table.setdefault(s, len(table)) for s in strings), dtype=np.int32, count=len(strings))
    return codes, list(table)


def vocab_len(vocab: Vocab) -> int:
    """Number of distinct IDs."""
    return len(vocab)


def to_list(vocab: Vocab) -> list[str]:
    """The vocabulary as Python strings."""
    return vocab if isinstance(vocab, list) else list(vocab.to_pylist())


def take(vocab: Vocab, codes: NDArray[Any]) -> list[str]:
    """The IDs of ``codes``, as Python strings."""
    if isinstance(vocab, list):
        return [vocab[int(c)] for c in codes]
    return list(vocab.take(np.asarray(codes, dtype=np.int64)).to_pylist())


def index_in(vocab: Vocab, other: Vocab) -> NDArray[np.int64]:
    """For each ID of ``vocab``, its index in ``other``, or -1 when ``other`` does not hold it."""
    pa = arrow()
    if pa is not None and (_is_arrow(vocab) or _is_arrow(other)) and len(vocab) and len(other):
        pc = importlib.import_module("pyarrow.compute")
        left = vocab if _is_arrow(vocab) else pa.array(vocab, type=pa.string())
        right = other if _is_arrow(other) else pa.array(other, type=pa.string())
        found = pc.index_in(left, value_set=right).fill_null(-1)
        return np.asarray(found.to_numpy(), dtype=np.int64)
    positions = {s: i for i, s in enumerate(to_list(other))}
    return np.fromiter((positions.get(s, -1) for s in to_list(vocab)), dtype=np.int64, count=len(vocab))
