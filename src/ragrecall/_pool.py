"""Bounded concurrency: a fixed pool of workers that take jobs in order."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Iterable
from typing import TypeVar

__all__ = ["run_pool"]

J = TypeVar("J")


async def run_pool(jobs: Iterable[J], workers: int, handle: Callable[[J], Awaitable[None]]) -> None:
    """Run ``handle(job)`` for every job, at most ``workers`` at a time, taking jobs in the order given.

    A pool holds ``workers`` coroutines however many jobs there are (a task per job would keep them all
    alive). The first exception cancels the other workers and propagates.
    """
    queue = iter(jobs)

    async def worker() -> None:
        for job in queue:  # one shared iterator: each job goes to exactly one worker
            await handle(job)

    tasks = [asyncio.ensure_future(worker()) for _ in range(max(1, workers))]
    try:
        await asyncio.gather(*tasks)
    finally:
        for task in tasks:  # left running only when one raised or on cancellation
            task.cancel()
