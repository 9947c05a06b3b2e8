"""The exception tree of ragrecall.

Every exception raised on purpose by ragrecall derives from :class:`RagrecallError`::

    RagrecallError
    ├── InputError (also ValueError)        bad data or arguments from the caller
    │   ├── InvalidSampleError              a sample field has the wrong type or shape
    │   │   └── MissingFieldError           a field the metric needs is absent
    │   ├── FileFormatError                 a malformed line or record in a file
    │   ├── CheckpointError                 a checkpoint written for other metrics or samples
    │   ├── NothingToEvaluateError          an empty dataset, or a run with no judged query
    │   └── ConfigurationError              a metric or client built with bad settings
    ├── MissingExtraError (also ImportError) a call needs an optional extra that is not installed
    └── LLMError                            the LLM path could not produce an answer
        ├── LLMRequestError                 transport failures that outlived the retries
        │   ├── TransportError              one failed attempt, classified (status, retryable, Retry-After)
        │   └── EndpointDownError           the endpoint failed every recent attempt: the run stops
        ├── LLMOutputError                  replies that failed validation after every repair
        │   ├── UnverifiedVerdictError      a "supported" verdict whose quotes did not check out
        │   └── NoClaimsError               a reference that states facts, but no claim was obtained
        ├── ConfirmationError               the confirming model failed; the judge's verdicts are kept
        └── CacheMissError                  replay-only cache had no answer for a request

Causes are chained (``raise ... from cause``) so the original exception is never lost.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .usage import Usage

__all__ = [
    "CacheMissError",
    "CheckpointError",
    "ConfigurationError",
    "ConfirmationError",
    "EndpointDownError",
    "FailedSamplesWarning",
    "FileFormatError",
    "InputError",
    "InvalidSampleError",
    "LLMError",
    "LLMOutputError",
    "LLMRequestError",
    "MissingExtraError",
    "MissingFieldError",
    "NoClaimsError",
    "NothingToEvaluateError",
    "RagrecallError",
    "TransportError",
    "UnverifiedVerdictError",
]


class RagrecallError(Exception):
    """Root of every exception ragrecall raises on purpose."""


class FailedSamplesWarning(UserWarning):
    """:func:`ragrecall.evaluate` finished with failed sample-metric pairs: the warning says per metric how many,
    of which types, and the first message; ``result.failures`` lists them all. Silence it with
    ``warnings.simplefilter("ignore", FailedSamplesWarning)``."""


class InputError(RagrecallError, ValueError):
    """The caller gave data or arguments that cannot be used."""


class InvalidSampleError(InputError):
    """A sample failed validation.

    Attributes:
        where: which record, e.g. ``"sample 3 (id='q7')"`` or ``"line 5 of data.jsonl"``; None when unknown.
        field: the offending field, or None when the problem is the record as a whole.
        problem: what was expected and what was given.
    """

    def __init__(self, problem: str, *, where: str | None = None, field: str | None = None) -> None:
        self.where = where
        self.field = field
        self.problem = problem
        parts = [p for p in (where, f"field {field!r}" if field else None) if p]
        super().__init__(f"{': '.join(parts)}: {problem}" if parts else problem)


class MissingFieldError(InvalidSampleError):
    """A field that the metric needs is absent (None) in the sample."""


class FileFormatError(InputError):
    """A file could not be parsed.

    Attributes:
        path: the file's name, or None for a stream without one.
        line: the 1-based line number of the malformed line, or None.
    """

    def __init__(self, problem: str, *, path: str | None = None, line: int | None = None) -> None:
        self.path = path
        self.line = line
        self.problem = problem
        where = path or "<stream>"
        if line is not None:
            where = f"{where}:{line}"
        super().__init__(f"{where}: {problem}")


class ConfigurationError(InputError):
    """An object was built with settings that cannot work (a threshold outside [0, 1], an unknown scorer...)."""


class MissingExtraError(RagrecallError, ImportError):
    """A call needs a package of an optional extra that is not installed; the message names the extra and its
    install command in one line."""


class LLMError(RagrecallError):
    """The LLM path could not produce a usable answer.

    Attributes:
        usage: tokens and cost already spent on the failed work, when known (kept on failed results).
    """

    usage: Usage | None = None


class LLMRequestError(LLMError):
    """A request to the LLM failed and every retry was spent (or the error was not retryable)."""


class TransportError(LLMRequestError):
    """One attempt at a request failed, as a provider-neutral record the retry and breaker layers act on.

    Transports (OpenAI, Anthropic...) turn their SDK's exceptions into this, chaining the original.

    Attributes:
        kind: ``"status"`` (the server answered with an error status), ``"timeout"`` (no complete reply
            before the deadline), ``"connection"`` (no connection could be made: refused, unknown host),
            ``"dropped"`` (a connection closed before the reply: a reset) or ``"malformed"`` (a 200 whose body
            is not a reply: an HTML page from a proxy, a cut-off body).
        status: the HTTP status for ``"status"``, else None.
        retryable: True when waiting and sending again may succeed (429, 408, 409, 5xx, timeouts,
            connection errors, malformed bodies).
        retry_after: seconds the server asked to wait (``Retry-After``/``retry-after-ms``), or None.
        endpoint: the base URL the request went to (without credentials), or None.
        model_not_found: True when the server said the model does not exist.
        usage: for a reply that came back but could not be read (a 200 too large, cut off, not a reply), the
            request it cost, its tokens unknown; None when nothing was answered.
    """

    def __init__(
        self,
        message: str,
        *,
        kind: str,
        status: int | None = None,
        retryable: bool,
        retry_after: float | None = None,
        endpoint: str | None = None,
        model_not_found: bool = False,
        usage: Usage | None = None,
    ) -> None:
        super().__init__(message)
        self.usage = usage
        self.kind = kind
        self.status = status
        self.retryable = retryable
        self.retry_after = retry_after
        self.endpoint = endpoint
        self.model_not_found = model_not_found


class EndpointDownError(LLMRequestError):
    """The breaker is open: the endpoint failed every recent attempt (see :class:`~ragrecall.llm.Breaker`), so
    nothing more is sent. :func:`~ragrecall.evaluate` stops at once and leaves the
    unfinished samples for a resume instead of recording each as a failure.

    Attributes:
        result: raised out of :func:`~ragrecall.evaluate`, the partial
            :class:`~ragrecall.EvaluationResult`: the samples that finished, marked partial with this cause
            (``result.partial``); None elsewhere.
        in_flight_can_finish: True when the samples in flight still have paid work to finish before they reach
            the dead endpoint (a dead confirming model, a live judge): :func:`~ragrecall.evaluate` then starts no
            new sample, lets those in flight keep their judge's answers, and stops.
    """

    result: Any = None
    in_flight_can_finish: bool = False


class LLMOutputError(LLMError):
    """The LLM's replies kept failing their schema or invariants after every repair attempt."""


class UnverifiedVerdictError(LLMOutputError):
    """With ``unverified="fail"``: the judge called claims supported, but its quotes were not found in the
    contexts (or lacked a number of the claim) even after it was asked again. The message names each claim
    and what was wrong."""


class NoClaimsError(LLMOutputError):
    """Claim recall obtained no claim for a reference that states facts: the LLM's claim list stayed empty
    after every repair. A failure, not "unscorable": a model that returns empty lists must not drop samples
    from the mean. (With ``coverage=True``, the default, it does not arise: sentences that no claim covers
    become claims of their own.)

    Attributes:
        attempts: how many replies were received, when known.
    """

    def __init__(self, message: str, *, attempts: int | None, usage: Usage | None = None) -> None:
        super().__init__(message)
        self.attempts = attempts
        self.usage = usage


class ConfirmationError(LLMError):
    """Claim recall with ``confirm``: the confirming model gave no usable answer about the judge's supported
    claims after its retries and repairs. The sample is a failure *of the confirm step*: its claims are left
    unconfirmed, the message names the confirming model, its endpoint and the cause (chained), and the judge's
    verdicts were kept before confirmation (in the checkpoint of :func:`~ragrecall.evaluate`, and in a response
    cache), so a rerun asks only the confirming model again.

    Attributes:
        model: the confirming model's name.
        endpoint: its base URL when known, else None.
        claims: how many supported claims were waiting for confirmation.
    """

    def __init__(self, message: str, *, model: str, endpoint: str | None, claims: int) -> None:
        super().__init__(message)
        self.model = model
        self.endpoint = endpoint
        self.claims = claims


class CacheMissError(LLMError):
    """The response cache is replay-only and holds no answer for this request."""


class CheckpointError(InputError):
    """A checkpoint file cannot be used: it is not a checkpoint, another run holds it, a record is damaged or
    contradicts another, or it was written for other metrics, settings or samples."""


class NothingToEvaluateError(InputError):
    """There is nothing to evaluate: the dataset is empty, or no query of the run is in the judgments.

    A mean over nothing is not a score, so this is an error rather than a result of 0.0."""
