"""String IDs as integer codes into a vocabulary, with or without pyarrow.

A vocabulary is a ``list[str]`` (plain path) or a pyarrow string array (fast path, no Python string per
row). IDs stay strings throughout: they are never parsed as numbers, and order comparisons between them
are byte-wise on their UTF-8 form (which is what Python's ``str`` ordering gives as well).
"""

from __future__ import annotations

import functools
import importlib
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any

import numpy as np
from numpy.typing import NDArray

__all__ = [
    "arrow",
    "arrow_call",
    "arrow_numbers",
    "arrow_options",
    "arrow_strings",
    "arrow_take",
    "encode",
    "encode_utf8",
    "index_in",
    "memory_pool",
    "string_keys",
    "take",
    "to_list",
    "utf8_table",
    "vocab_len",
    "without_arrow",
]

Vocab = Any
"""A ``list[str]`` or a pyarrow string array (an ``Array`` or a ``ChunkedArray``)."""


_WITHOUT_ARROW: ContextVar[bool] = ContextVar("ragrecall_without_arrow", default=False)


def arrow() -> Any | None:
    """The ``pyarrow`` module (a core dependency); None where it cannot be imported, and inside
    :func:`without_arrow`."""
    return None if _WITHOUT_ARROW.get() else _arrow_module()


@contextmanager
def without_arrow() -> Iterator[None]:
    """Within the block (in this thread), the plain path throughout, as where pyarrow is not installed: for
    small inputs, importing pyarrow costs more than it saves. Tables built inside hold list vocabularies."""
    token = _WITHOUT_ARROW.set(True)
    try:
        yield
    finally:
        _WITHOUT_ARROW.reset(token)


@functools.lru_cache(maxsize=1)
def _arrow_module() -> Any | None:
    try:
        pa = importlib.import_module("pyarrow")
        importlib.import_module("pyarrow.csv")
    except ImportError:
        return None
    return pa


@functools.lru_cache(maxsize=1)
def _compute() -> Any:
    # pyarrow.compute wraps every kernel in a Python function at import (60 ms); calling kernels by name
    # through the module it is built on skips that.
    try:
        module = importlib.import_module("pyarrow._compute")
        module.call_function  # noqa: B018
    except (ImportError, AttributeError):  # pragma: no cover - older or rearranged pyarrow
        module = importlib.import_module("pyarrow.compute")
    return module


def arrow_call(function: str, *args: Any, options: Any = None) -> Any:
    """Call the pyarrow compute kernel ``function`` on ``args`` (allocating from :func:`memory_pool`)."""
    return _compute().call_function(function, list(args), options, memory_pool())


def memory_pool() -> Any:
    """The pool our arrays are allocated from: the C library's allocator, which hands freed blocks back at
    once. pyarrow's default (mimalloc) keeps them per thread: 20-40 MB more at the peak, for no speed."""
    pa = arrow()
    assert pa is not None
    return pa.system_memory_pool()


def arrow_options(name: str, *args: Any, **kwargs: Any) -> Any:
    """A pyarrow compute options object (``"SetLookupOptions"``, ``"RankOptions"``, ...)."""
    return getattr(_compute(), name)(*args, **kwargs)


def _is_arrow(vocab: Vocab) -> bool:
    return not isinstance(vocab, list)


def encode(strings: Sequence[str], *, use_arrow: bool = True) -> tuple[NDArray[np.int32], Vocab]:
    """Codes (first-appearance order) and the vocabulary of ``strings``."""
    pa = arrow() if use_arrow else None
    if pa is not None and len(strings) > 0:
        encoded = arrow_call("dictionary_encode", arrow_strings(strings))
        return arrow_numbers(encoded.indices, np.int32), encoded.dictionary
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
    return list(arrow_take(vocab, codes).to_pylist())


def arrow_take(values: Any, rows: NDArray[Any]) -> Any:
    """``values.take(rows)`` for a pyarrow array, with the indices handed over as a buffer.

    (Passing a numpy array makes pyarrow import pandas, a quarter second, to recognise it.)
    """
    pa = arrow()
    assert pa is not None
    indices = np.ascontiguousarray(rows, dtype=np.int64)
    chunks = _chunks(values)
    if len(chunks) <= 1:
        return arrow_call("take", values, _indices(pa, indices))
    # Per chunk: taking from a chunked array resolves every index against every chunk boundary, slowly.
    bounds = np.cumsum([len(c) for c in chunks])
    which = np.searchsorted(bounds, indices, side="right")
    order = np.argsort(which, kind="stable")
    by_chunk = indices[order]
    cuts = np.searchsorted(which[order], np.arange(len(chunks) + 1))
    pieces = [
        arrow_call("take", chunks[k], _indices(pa, by_chunk[cuts[k] : cuts[k + 1]] - (bounds[k] - len(chunks[k]))))
        for k in range(len(chunks))
        if cuts[k + 1] > cuts[k]
    ]
    taken = pa.concat_arrays(pieces) if pieces else arrow_strings([])
    if bool((order[1:] > order[:-1]).all()):
        return taken
    inverse = np.empty(len(order), dtype=np.int64)
    inverse[order] = np.arange(len(order), dtype=np.int64)
    return arrow_call("take", taken, _indices(pa, inverse))


def _indices(pa: Any, indices: NDArray[np.int64]) -> Any:
    return pa.Array.from_buffers(pa.int64(), len(indices), [None, pa.py_buffer(np.ascontiguousarray(indices))])


def index_in(vocab: Vocab, other: Vocab) -> NDArray[np.int32]:
    """For each ID of ``vocab``, its index in ``other``, or -1 when ``other`` does not hold it."""
    pa = arrow()
    if pa is not None and (_is_arrow(vocab) or _is_arrow(other)) and len(vocab) and len(other):
        left = vocab if _is_arrow(vocab) else arrow_strings(vocab)
        right = other if _is_arrow(other) else arrow_strings(other)
        found = arrow_call("index_in", left, options=arrow_options("SetLookupOptions", right))
        return arrow_numbers(found, np.int32, null=-1)
    positions = {s: i for i, s in enumerate(to_list(other))}
    return np.fromiter((positions.get(s, -1) for s in to_list(vocab)), dtype=np.int32, count=len(vocab))


def arrow_strings(strings: Sequence[str]) -> Any:
    """A pyarrow string array of ``strings``, built from its buffers.

    (``pa.array`` of a list makes pyarrow import pandas, a third of a second, to check what it was given.)
    """
    return _from_utf8([s.encode("utf-8") for s in strings])


def _from_utf8(encoded: Sequence[bytes]) -> Any:
    """A pyarrow string array over ``encoded`` (UTF-8, not checked here), built from its buffers."""
    pa = arrow()
    assert pa is not None
    lengths = np.fromiter(map(len, encoded), dtype=np.int64, count=len(encoded))
    ends = np.cumsum(lengths)
    wide = bool(len(ends)) and int(ends[-1]) >= 2**31
    offsets = np.concatenate(([0], ends)).astype(np.int64 if wide else np.int32)
    data = b"".join(encoded)
    kind = pa.large_string() if wide else pa.string()
    return pa.Array.from_buffers(kind, len(encoded), [None, pa.py_buffer(offsets), pa.py_buffer(data)])


def utf8_table(queries: Sequence[bytes], docs: Sequence[bytes], scores: NDArray[np.float64]) -> Any | None:
    """A pyarrow table of ``query``, ``doc`` (strings from UTF-8 bytes) and ``score``; None when an ID is not
    valid UTF-8."""
    pa = arrow()
    assert pa is not None
    columns = {"query": _from_utf8(queries), "doc": _from_utf8(docs)}
    try:
        for column in columns.values():
            column.validate(full=True)  # checks the UTF-8
    except pa.ArrowInvalid:
        return None
    score = pa.Array.from_buffers(pa.float64(), len(scores), [None, pa.py_buffer(np.ascontiguousarray(scores))])
    return pa.table({**columns, "score": score})


def encode_utf8(values: Sequence[bytes]) -> tuple[NDArray[np.int32], Vocab] | None:
    """Like :func:`encode` for IDs given as UTF-8 bytes, without making a Python string per row; None when
    one of them is not valid UTF-8."""
    pa = arrow()
    if pa is None or not values:
        try:
            return encode([v.decode("utf-8") for v in values])
        except UnicodeDecodeError:
            return None
    array = _from_utf8(values)
    try:
        array.validate(full=True)  # checks the UTF-8
    except pa.ArrowInvalid:
        return None
    encoded = arrow_call("dictionary_encode", array)
    return arrow_numbers(encoded.indices, np.int32), encoded.dictionary


def _chunks(values: Any) -> list[Any]:
    return list(values.chunks) if hasattr(values, "chunks") else [values]


def arrow_numbers(values: Any, dtype: Any, null: Any = None) -> NDArray[Any]:
    """A pyarrow array (or chunked array) of a fixed-width type as numpy ``dtype``, nulls set to ``null``.

    Read from the buffers directly: pyarrow's ``to_numpy`` may import pandas, which costs a quarter second.
    ``dtype`` must have the width of the arrow type.
    """
    dt = np.dtype(dtype)
    parts = []
    for c in _chunks(values):
        if len(c):
            part = np.frombuffer(c.buffers()[1], dtype=dt, count=len(c), offset=c.offset * dt.itemsize)
            if c.null_count:
                part = part.copy()
                valid = np.unpackbits(np.frombuffer(c.buffers()[0], dtype=np.uint8), bitorder="little")
                part[~valid[c.offset : c.offset + len(c)].view(np.bool_)] = null
            parts.append(part)
    if not parts:
        return np.zeros(0, dtype=dt)
    return parts[0].copy() if len(parts) == 1 else np.concatenate(parts)


_M1, _M2, _M3 = (np.uint64(m) for m in (0x9E3779B97F4A7C15, 0xBF58476D1CE4E5B9, 0x94D049BB133111EB))
_SLICE = 1 << 16
_MASKS = np.array([(1 << (8 * k)) - 1 for k in range(8)] + [(1 << 64) - 1], dtype=np.uint64)


def _mix(x: NDArray[np.uint64]) -> NDArray[np.uint64]:
    x ^= x >> np.uint64(30)
    x *= _M2
    x ^= x >> np.uint64(27)
    x *= _M3
    x ^= x >> np.uint64(31)
    return x


def string_keys(values: Any) -> NDArray[np.uint64]:
    """A 64-bit hash of each string of a pyarrow string array (or chunked array), computed with numpy.

    Equal strings get equal keys; different strings almost surely get different keys, so callers confirm an
    equality of keys on the strings themselves. No Python string is made. Work goes chunk by chunk, so
    temporaries stay small.
    """
    out = np.empty(len(values), dtype=np.uint64)
    at = 0
    for whole in _chunks(values):
        for begin in range(0, len(whole), _SLICE):
            chunk = whole.slice(begin, _SLICE)
            n = len(chunk)
            buffers = chunk.buffers()
            wide = chunk.type in (_large_string(), _large_binary())
            offsets = np.frombuffer(
                buffers[1], dtype=np.int64 if wide else np.int32, count=n + 1, offset=chunk.offset * (8 if wide else 4)
            )
            base, end = int(offsets[0]), int(offsets[-1])
            padded = np.empty(end - base + 8, dtype=np.uint8)
            padded[end - base :] = 0
            if end > base:
                padded[: end - base] = np.frombuffer(buffers[2], dtype=np.uint8, count=end - base, offset=base)
            words = np.ndarray((end - base + 1,), dtype="<u8", buffer=padded, strides=(1,))
            start = offsets[:-1].astype(np.int64) - base
            length = np.diff(offsets).astype(np.int64)
            key = _first_word_keys(words, start, length)
            word = 1
            rows = np.flatnonzero(length > 8)  # the strings with more words
            while word < _HEAD_WORDS and len(rows):
                w = words[start[rows] + 8 * word] & _MASKS[np.minimum(length[rows] - 8 * word, 8)]
                key[rows] = _mix((key[rows] * _M1) ^ w)
                word += 1
                rows = rows[length[rows] > 8 * word]
            if len(rows) and word == _HEAD_WORDS:
                key[rows] = _mix(key[rows] ^ _tail_sums(words, start[rows], length[rows]))
            out[at : at + n] = key
            at += n
    return out


def _first_word_keys(words: NDArray[Any], start: NDArray[np.int64], length: NDArray[np.int64]) -> NDArray[np.uint64]:
    """Per string, its key after its first word: ``mix((mix(length * M1) * M1) ^ first word)``, the first two
    factors looked up by length (strings of a run's column have few lengths) rather than computed per row."""
    longest = int(length.max()) if len(length) else 0
    if longest > _LENGTH_TABLE:  # a damaged line: per row
        head = _mix(length.astype(np.uint64) * _M1) * _M1
        mask = _MASKS[np.minimum(length, 8)]
    else:
        lengths = np.arange(longest + 1, dtype=np.int64)
        head = (_mix(lengths.astype(np.uint64) * _M1) * _M1)[length]
        mask = _MASKS[np.minimum(lengths, 8)][length]
    head ^= words[start] & mask
    return _mix(head)


_LENGTH_TABLE = 1 << 12
"""Longest string length for which :func:`_first_word_keys` uses tables by length."""
_HEAD_WORDS = 8
"""Words of a string hashed one after the other; the words after them are hashed as a position-weighted sum,
in vectorised blocks, so that a long string (a damaged line) costs linear time, not a numpy pass per word."""
_TAIL_BLOCK = 1 << 20
"""Tail words hashed at once (bounded temporaries: a few times 8 MB)."""


def _tail_sums(words: NDArray[Any], start: NDArray[np.int64], length: NDArray[np.int64]) -> NDArray[np.uint64]:
    """For each string (``start``, ``length`` in ``words``' bytes) longer than ``8 * _HEAD_WORDS`` bytes, the sum
    of ``mix((word ^ index * M2) * M1)`` over its words from ``_HEAD_WORDS`` on (wrapping: order matters through
    the index)."""
    counts = (length + 7) // 8 - _HEAD_WORDS
    sums = np.zeros(len(counts), dtype=np.uint64)
    ends = np.cumsum(counts)
    row = 0
    while row < len(counts):
        before = int(ends[row - 1]) if row else 0
        last = max(row + 1, int(np.searchsorted(ends, before + _TAIL_BLOCK, side="right")))
        for lo in range(0, int(ends[last - 1]) - before, _TAIL_BLOCK):  # one pass unless a row is huge
            flat = np.arange(before + lo, min(int(ends[last - 1]), before + lo + _TAIL_BLOCK), dtype=np.int64)
            owner = np.searchsorted(ends, flat, side="right")
            index = flat - (ends[owner] - counts[owner]) + _HEAD_WORDS
            left = length[owner] - 8 * index
            w = words[start[owner] + 8 * index] & _MASKS[np.minimum(left, 8)]
            mixed = _mix((w ^ (index.astype(np.uint64) * _M2)) * _M1)
            np.add.at(sums, owner, mixed)
        row = last
    return sums


def _large_string() -> Any:
    pa = arrow()
    return None if pa is None else pa.large_string()


def _large_binary() -> Any:
    pa = arrow()
    return None if pa is None else pa.large_binary()
