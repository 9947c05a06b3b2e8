"""Run a coroutine to completion from synchronous code, inside or outside a running event loop.

All synchronous calls share one private event loop on a daemon thread, started on first use. Sharing it
matters: async clients (``openai.AsyncOpenAI`` over httpx) bind their connection pools to the loop that
first used them, so a fresh loop per call would break the second call with "Event loop is closed". Running
on a separate thread is also what makes ``score()`` work from a notebook cell, where the caller's thread
already runs a loop, without patching asyncio.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import threading
from collections.abc import Coroutine
from typing import Any, TypeVar

__all__ = ["on_runner_loop", "run_sync"]

T = TypeVar("T")

_lock = threading.Lock()
_UNWIND_SECONDS = 5.0
"""How long a Ctrl-C waits for the cancelled run to clean up before it propagates."""
_loop: asyncio.AbstractEventLoop | None = None


def _runner_loop() -> asyncio.AbstractEventLoop:
    global _loop
    with _lock:
        if _loop is None or _loop.is_closed():
            loop = asyncio.new_event_loop()
            thread = threading.Thread(target=loop.run_forever, name="ragrecall-sync", daemon=True)
            thread.start()
            _loop = loop
        return _loop


def run_sync(coro: Coroutine[Any, Any, T]) -> T:
    """Run ``coro`` on ragrecall's background loop and return its result (or raise its exception).

    Safe to call from plain scripts, from threads and from code already inside a running event loop (it
    blocks the calling thread until done). Calling it from ragrecall's own loop thread would deadlock and
    raises RuntimeError instead. KeyboardInterrupt while waiting cancels the coroutine; when the cancelled
    coroutine's exception carries a ``result`` (what it kept: :func:`~ragrecall.evaluate`'s finished samples),
    the KeyboardInterrupt carries it too.
    """
    loop = _runner_loop()
    try:
        running = asyncio.get_running_loop()
    except RuntimeError:
        running = None
    if running is loop:
        coro.close()
        raise RuntimeError("run_sync() was called from ragrecall's own event loop; await the coroutine instead")
    unwound = threading.Event()
    ended: list[BaseException] = []

    async def tracked() -> T:
        try:
            return await coro
        except BaseException as exc:
            ended.append(exc)
            raise
        finally:
            unwound.set()

    future: concurrent.futures.Future[T] = asyncio.run_coroutine_threadsafe(tracked(), loop)
    try:
        return future.result()
    except KeyboardInterrupt as interrupt:
        future.cancel()
        # Let the cancelled coroutine's own cleanup (closing a checkpoint, saying which batches keep running)
        # finish before the caller goes on, within a bound; a second Ctrl-C stops the wait.
        unwound.wait(_UNWIND_SECONDS)
        if ended and getattr(ended[0], "result", None) is not None:
            interrupt.result = ended[0].result  # type: ignore[attr-defined]  # what the stopped coroutine kept
        raise


async def on_runner_loop(coro: Coroutine[Any, Any, T]) -> T:
    """Await ``coro`` on ragrecall's background loop, whichever loop the caller runs on.

    Clients whose connection pools bind to a loop (httpx, hence ``AsyncOpenAI``) use this for every I/O
    call, so the pool only ever sees that one loop: a sync ``score()`` and an ``await ascore()`` from a
    notebook can share one client in any order. The background loop never runs user code, so it cannot be
    blocked by a caller waiting in ``run_sync`` (which the caller's own loop could be).
    """
    loop = _runner_loop()
    if asyncio.get_running_loop() is loop:
        return await coro
    return await asyncio.wrap_future(asyncio.run_coroutine_threadsafe(coro, loop))
