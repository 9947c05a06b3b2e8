"""ragrecall's own errors, raised on the driver as the actors raised them (not wrapped in Ray's)."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from ...errors import RagrecallError

__all__ = ["raised_by_ragrecall"]

_RAY_ADVICE = "\nFailed to apply UDF transform"


@contextmanager
def raised_by_ragrecall(context: Any = None) -> Iterator[None]:
    """Re-raise a :class:`~ragrecall.errors.RagrecallError` that a task or actor raised (an endpoint down, a
    dataset changed since a folder was written) as itself, its one-line message intact, instead of Ray's
    wrapper holding the remote traceback; every other error passes through unchanged.

    ``context`` is the Ray Data context of the dataset executed inside the block: it is told to keep the
    exception a map raised (its ``raise_original_map_exception``) for that long, then restored.
    """
    before = getattr(context, "raise_original_map_exception", None)
    if context is not None:
        context.raise_original_map_exception = True
    try:
        yield
    except Exception as exc:
        cause = _ragrecall_cause(exc)
        if cause is None or cause is exc:
            raise
        if cause.args and isinstance(cause.args[0], str):  # Ray Data appends its retry advice to the message
            cause.args = (cause.args[0].split(_RAY_ADVICE, 1)[0], *cause.args[1:])
        raise cause.with_traceback(None) from None
    finally:
        if context is not None:
            context.raise_original_map_exception = before


def _ragrecall_cause(exc: BaseException) -> RagrecallError | None:
    """The innermost ragrecall error Ray's wrappers hold (a ``RayTaskError`` keeps the original as ``cause``)."""
    seen: set[int] = set()
    todo: list[BaseException | None] = [exc]
    found: RagrecallError | None = None
    while todo:
        current = todo.pop()
        if current is None or id(current) in seen:
            continue
        seen.add(id(current))
        if isinstance(current, RagrecallError):
            found = current
        todo.extend([current.__cause__, current.__context__, getattr(current, "cause", None)])
    return found
