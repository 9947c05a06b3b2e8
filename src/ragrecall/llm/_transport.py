"""What a transport is, and the error vocabulary every transport speaks.

A transport sends one request to one provider and turns what comes back into ragrecall's terms: a checked
:class:`~ragrecall.llm.LLMReply` (through :func:`~ragrecall.llm._protocol.accept_reply`, the one place where
replies are checked), an :class:`~ragrecall.llm.InvalidReplyError`, or a
:class:`~ragrecall.errors.TransportError` saying whether waiting may help. Retries, deadlines, the breaker,
the cache, concurrency and prices are layers over it (:class:`~ragrecall.llm.LLMStack`), the same for every
provider.
"""

from __future__ import annotations

import re
import socket
from collections.abc import Callable, Mapping
from types import ModuleType
from typing import Any, Protocol, TypeVar, runtime_checkable

from ..errors import TransportError
from ..usage import Usage
from ._bounded import unreadable_cause
from ._protocol import LLMReply, LLMRequest, OutputT
from ._retry import retry_after_header, retryable_status
from ._scrub import Scrubber

__all__ = ["Transport", "connection_error", "malformed_body", "read_body", "sdk_failure", "status_error"]

R = TypeVar("R")

_UNKNOWN_MODEL = re.compile(
    r"model\b.{0,80}\b(not found|does not exist|not exist|unknown|invalid|not available|no such)"
    r"|(unknown|invalid|no such) model",
    re.IGNORECASE | re.DOTALL,
)


@runtime_checkable
class Transport(Protocol):
    """One provider's wire protocol.

    ``agenerate`` sends exactly one request (or, for a server that turns structured outputs down, the same
    request once more in JSON mode) and never retries.
    """

    @property
    def model_name(self) -> str:
        """The model asked."""
        ...

    @property
    def endpoint(self) -> str:
        """The base URL requests go to, without credentials."""
        ...

    def settings(self) -> dict[str, Any]:
        """What changes the answers besides the model (sampling, output mode...)."""
        ...

    def documents(self, request: LLMRequest[Any]) -> list[dict[str, Any]]:
        """The identity documents of the requests it may send for ``request``, the likeliest first."""
        ...

    async def agenerate(self, request: LLMRequest[OutputT]) -> LLMReply[OutputT]:
        """Send ``request`` once; the reply carries the document of what was sent in ``sent``."""
        ...


def status_error(
    status: int, message: str, headers: Mapping[str, str], *, endpoint: str, model: str, scrubber: Scrubber
) -> TransportError:
    """The :class:`TransportError` for an HTTP error status: retryable or not, ``Retry-After``, unknown model."""
    text = scrubber.scrub(" ".join(message.split()))
    unknown_model = status in (400, 404) and bool(_UNKNOWN_MODEL.search(text))
    if unknown_model:
        text = f"the model {model!r} is not known at {endpoint}: {text}"
    else:
        text = f"HTTP {status} from {endpoint}: {text}"
    return TransportError(
        text,
        kind="status",
        status=status,
        retryable=retryable_status(status),
        retry_after=retry_after_header(headers),
        endpoint=endpoint,
        model_not_found=unknown_model,
    )


def connection_error(exc: BaseException, *, endpoint: str, timed_out: bool, scrubber: Scrubber) -> TransportError:
    """The retryable :class:`TransportError` for a connection that failed or timed out: kind ``"timeout"``,
    ``"connection"`` when none could be made (refused, unknown host) or ``"dropped"`` when one was made and
    closed before the reply (a reset)."""
    detail = scrubber.scrub(" ".join(str(exc).split())) or type(exc).__name__
    cause = exc.__cause__ or exc.__context__
    if cause is not None and str(cause) and str(cause) not in detail:
        detail = f"{detail} ({scrubber.scrub(' '.join(str(cause).split()))})"
    if timed_out:
        return TransportError(
            f"no reply from {endpoint} in time: {detail}", kind="timeout", retryable=True, endpoint=endpoint
        )
    if _never_connected(exc):
        return TransportError(
            f"cannot reach {endpoint}: {detail}", kind="connection", retryable=True, endpoint=endpoint
        )
    return TransportError(
        f"the connection to {endpoint} closed before the reply: {detail}",
        kind="dropped",
        retryable=True,
        endpoint=endpoint,
    )


def _never_connected(exc: BaseException) -> bool:
    """True when ``exc`` (or what it chains) says no connection could be made: refused, unknown host."""
    seen: set[int] = set()
    current: BaseException | None = exc
    while current is not None and id(current) not in seen:
        seen.add(id(current))
        # httpx (and its forks, which the SDKs may use) name a failure to connect ConnectError.
        if isinstance(current, (ConnectionRefusedError, socket.gaierror)) or type(current).__name__ == "ConnectError":
            return True
        current = current.__cause__ or current.__context__
    return False


def malformed_body(body: object, *, endpoint: str, scrubber: Scrubber, problem: str | None = None) -> TransportError:
    """The retryable :class:`TransportError` for a 200 whose body is not a reply: text that is not JSON (a
    proxy's HTML page...), or, with ``problem``, JSON that is no readable reply (the field at fault named;
    the request counted as paid, its tokens unknown)."""
    if problem is not None:
        return TransportError(
            f"{endpoint} answered 200 with a malformed reply: {scrubber.scrub(problem)[:300]}",
            kind="malformed",
            retryable=True,
            endpoint=endpoint,
            usage=Usage.unknown(),
        )
    text = body if isinstance(body, str) else repr(body)
    snippet = scrubber.scrub(" ".join(text.split()))[:120]
    return TransportError(
        f"{endpoint} answered 200 with a body that is not a reply (a proxy or login page?): {snippet!r}",
        kind="malformed",
        retryable=True,
        endpoint=endpoint,
    )


def sdk_failure(
    exc: BaseException, sdk: ModuleType, *, endpoint: str, model: str, scrubber: Scrubber
) -> TransportError | None:
    """The :class:`TransportError` for an exception raised by ``sdk``'s request call (``openai`` and
    ``anthropic`` share one exception tree): an error status, no connection or no reply in time, or a 200
    whose body is not a reply (not JSON, cut off, another shape, too large or nested too deep to read). The
    exception's text is scrubbed in place, since it is chained. None for anything else, which is not a
    failure of the request."""
    unreadable = unreadable_cause(exc)
    if unreadable is not None:
        return TransportError(
            scrubber.scrub(str(unreadable)),
            kind="malformed",
            retryable=True,
            endpoint=endpoint,
            usage=Usage.unknown() if unreadable.status == 200 else None,
        )
    if isinstance(exc, sdk.APIStatusError):
        scrubber.scrub_exception(exc)
        return status_error(
            exc.status_code, exc.message, exc.response.headers, endpoint=endpoint, model=model, scrubber=scrubber
        )
    if isinstance(exc, sdk.APIConnectionError):  # the SDK's timeout error included
        scrubber.scrub_exception(exc)
        timed_out = isinstance(exc, sdk.APITimeoutError)
        return connection_error(exc, endpoint=endpoint, timed_out=timed_out, scrubber=scrubber)
    if isinstance(exc, RecursionError):
        return malformed_body(None, endpoint=endpoint, scrubber=scrubber, problem="its JSON is nested too deep to read")
    if isinstance(exc, (sdk.APIResponseValidationError, ValueError, TypeError, AttributeError)):
        scrubber.scrub_exception(exc)
        return malformed_body(str(exc), endpoint=endpoint, scrubber=scrubber)
    return None


def read_body(reader: Callable[[Any], R | str], body: Any, *, endpoint: str, scrubber: Scrubber) -> R:
    """What ``reader`` reads from a reply body the SDK built without validating it; a retryable malformed
    :class:`TransportError` when the reader says (with a string naming the field at fault) or shows (by
    failing) that it is not a reply. A body that is text, not JSON, is described as a page, not a reply."""
    try:
        read = reader(body)
    except (TypeError, AttributeError, ValueError, RecursionError):
        read = f"a body of another shape ({type(body).__name__})"  # not chained: the exception may quote it
    if isinstance(body, str):
        raise malformed_body(body, endpoint=endpoint, scrubber=scrubber)
    if isinstance(read, str):
        raise malformed_body(body, endpoint=endpoint, scrubber=scrubber, problem=read)
    return read
