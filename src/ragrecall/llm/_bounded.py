"""Reply bodies read with a size bound, while they are read and decompressed.

A reply of the chat-completions or messages route is read through :class:`_BoundedStream`: ragrecall asks for
``gzip`` or ``deflate`` only, decompresses those itself in pieces of at most 1 MiB, and stops reading as soon
as the body, decompressed, passes :func:`ragrecall._files.max_reply_size` (64 MiB unless
``$RAGRECALL_MAX_REPLY`` says otherwise): a 0.5 MB gzip bomb that would expand to 512 MB costs at most the
limit, not the bomb. The replies being read at one time share a budget of twice the limit, so that sixteen
bombs read at once hold at most that much, not sixteen times the limit: past it, the reply whose piece would
overrun it is cut (retryable, as an oversized one). The body is gathered here and handed to the SDK whole,
so that a cut one drops what it held at once rather than in the reader's frames. A body in another encoding (a
server that ignores the request's ``Accept-Encoding``) is bounded on its compressed size only.

The bound is two event hooks of the client's HTTP connection pool (``client._client``, which the
``with_options`` copies the transports use share with the client given): so it holds on the direct request
path and through the SDK's ``create``, whatever wraps it. It touches only the two reply routes: the batch
backend's file downloads, through the same pool, are not bounded here (their lines are, by the line limit).
"""

from __future__ import annotations

import threading
import zlib
from collections.abc import AsyncIterator
from typing import Any

from .._files import MAX_REPLY_ENV, max_reply_size

__all__ = ["UnreadableReplyError", "bound_replies", "unreadable_cause"]

_ROUTES = ("/chat/completions", "/messages")
_PIECE = 1024 * 1024
_ENCODINGS = "gzip, deflate"
_SHARED = 2
"""The replies being read at one time hold at most this many times the limit, together."""


class _Budget:
    """The bytes held by the replies being read now, in every thread."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self.held = 0

    def take(self, count: int, cap: int) -> bool:
        with self._lock:
            if self.held + count > cap:
                return False
            self.held += count
            return True

    def give_back(self, count: int) -> None:
        with self._lock:
            self.held -= count


_BUDGET = _Budget()


class UnreadableReplyError(Exception):
    """A reply body that could not be read: larger than the limit, or corrupt compressed data. Raised while
    the SDK reads the body; the transports turn it into a retryable malformed
    :class:`~ragrecall.errors.TransportError`. ``status`` is the reply's HTTP status."""

    def __init__(self, message: str, status: int) -> None:
        super().__init__(message)
        self.status = status


def unreadable_cause(exc: BaseException) -> UnreadableReplyError | None:
    """The :class:`UnreadableReplyError` ``exc`` is or chains (the SDK wraps it in its connection error)."""
    seen: set[int] = set()
    current: BaseException | None = exc
    while current is not None and id(current) not in seen:
        if isinstance(current, UnreadableReplyError):
            return current
        seen.add(id(current))
        current = current.__cause__ or current.__context__
    return None


def bound_replies(client: Any) -> None:
    """Install the bound on ``client``'s HTTP pool (an ``AsyncOpenAI`` or ``AsyncAnthropic``), once; a client
    without an httpx pool (a test double) is left as it is."""
    pool: Any = getattr(client, "_client", None)
    hooks = getattr(pool, "event_hooks", None)
    if not isinstance(hooks, dict) or _bound_response in hooks.get("response", ()):
        return
    pool.event_hooks = {
        **hooks,
        "request": [*hooks.get("request", ()), _ask_for_zlib],
        "response": [*hooks.get("response", ()), _bound_response],
    }


def _is_reply_route(url: Any) -> bool:
    return str(getattr(url, "path", "")).rstrip("/").endswith(_ROUTES)


async def _ask_for_zlib(request: Any) -> None:
    """Ask for the encodings ragrecall decompresses itself, under its bound."""
    if _is_reply_route(request.url):
        request.headers["Accept-Encoding"] = _ENCODINGS


async def _bound_response(response: Any) -> None:
    """Replace the reply's stream with one that decompresses and counts; no byte is read here."""
    if not _is_reply_route(response.request.url):
        return
    values = response.headers.get_list("content-encoding", split_commas=True)
    encodings = [v.strip().lower() for v in values if v.strip().lower() not in ("", "identity")]
    decode = encodings[0] if len(encodings) == 1 and encodings[0] in ("gzip", "deflate") else None
    if decode is not None:
        del response.headers["content-encoding"]  # decompressed here: the pool's own decoder passes it through
    url = str(response.request.url)
    bounded = _stream_class(response.stream)(response.stream, decode, max_reply_size(), url, response.status_code)
    response.stream = bounded


_CLASSES: dict[type, type] = {}


def _stream_class(stream: Any) -> type:
    """A subclass of the pool's own ``AsyncByteStream`` (httpx or its fork), which the pool insists on."""
    base = next((c for c in type(stream).__mro__ if c.__name__ == "AsyncByteStream"), object)
    made = _CLASSES.get(base)
    if made is None:
        made = _CLASSES[base] = type("BoundedStream", (_BoundedStream, base), {})
    return made


class _BoundedStream:
    def __init__(self, inner: Any, encoding: str | None, limit: int, url: str, status: int) -> None:
        self._inner = inner
        self._status = status
        self._encoding = encoding
        self._limit = limit
        self._url = url
        self._read = 0
        self._held = 0
        wbits = zlib.MAX_WBITS | 16 if encoding == "gzip" else zlib.MAX_WBITS
        self._zlib: Any = zlib.decompressobj(wbits) if encoding else None
        self._first = True

    async def __aiter__(self) -> AsyncIterator[bytes]:
        # The body is gathered here and handed over whole: a reply cut past the limit drops what it held at
        # once, before the error is raised, instead of leaving it to the reader's frames (and the collector).
        pieces: list[bytes] = []
        try:
            async for raw in self._inner:
                for piece in self._decoded(raw):
                    pieces.append(self._counted(piece, pieces))
            if self._zlib is not None:
                tail = self._zlib.flush()
                if tail:
                    pieces.append(self._counted(tail, pieces))
            body = b"".join(pieces)
            pieces.clear()
        finally:
            pieces.clear()
            self._release()
        yield body

    async def aclose(self) -> None:
        self._release()
        await self._inner.aclose()

    def _release(self) -> None:
        """Give the bytes held back to the shared budget (once)."""
        held, self._held = self._held, 0
        if held:
            _BUDGET.give_back(held)

    def _counted(self, piece: bytes, pieces: list[bytes]) -> bytes:
        self._read += len(piece)
        if self._read > self._limit:
            pieces.clear()
            raise UnreadableReplyError(
                f"the reply from {self._url} is larger than {self._limit:,} bytes"
                f"{' once decompressed' if self._encoding else ''}, the most ragrecall reads "
                f"(set {MAX_REPLY_ENV} to change it)",
                self._status,
            )
        if not _BUDGET.take(len(piece), _SHARED * self._limit):
            pieces.clear()
            raise UnreadableReplyError(
                f"the reply from {self._url} was cut at {self._read:,} bytes: the replies being read at once "
                f"hold {_SHARED} x {self._limit:,} bytes, the most ragrecall reads together "
                f"(set {MAX_REPLY_ENV} to change it)",
                self._status,
            )
        self._held += len(piece)
        return piece

    def _decoded(self, raw: bytes) -> list[bytes] | Any:
        if self._zlib is None:
            return (raw,)
        return self._inflate(raw)

    def _inflate(self, raw: bytes) -> Any:
        data = raw
        while True:
            try:
                piece = self._zlib.decompress(data, _PIECE)
            except zlib.error as exc:
                if self._first and self._encoding == "deflate":  # raw deflate, without the zlib header
                    self._first = False
                    self._zlib = zlib.decompressobj(-zlib.MAX_WBITS)
                    continue
                raise UnreadableReplyError(
                    f"the reply from {self._url} holds corrupt {self._encoding} data ({exc})", self._status
                ) from None
            self._first = False
            if piece:
                yield piece
            data = self._zlib.unconsumed_tail
            if not data:
                return
