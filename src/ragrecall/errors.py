"""The exception tree of ragrecall.

Every exception raised on purpose by ragrecall derives from :class:`RagrecallError`::

    RagrecallError
    ├── InputError (also ValueError)        bad data or arguments from the caller
    │   ├── InvalidSampleError              a sample field has the wrong type or shape
    │   │   └── MissingFieldError           a field the metric needs is absent
    │   ├── FileFormatError                 a malformed line or record in a file
    │   ├── CheckpointError                 a checkpoint written for other metrics or samples
    │   └── ConfigurationError              a metric or client built with bad settings
    └── LLMError                            the LLM path could not produce an answer
        ├── LLMRequestError                 transport failures that outlived the retries
        ├── LLMOutputError                  replies that failed validation after every repair
        │   └── UnverifiedVerdictError      a "supported" verdict whose quotes did not check out
        └── CacheMissError                  replay-only cache had no answer for a request

Causes are chained (``raise ... from cause``) so the original exception is never lost.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .usage import Usage

__all__ = [
    "CacheMissError",
    "CheckpointError",
    "ConfigurationError",
    "FileFormatError",
    "InputError",
    "InvalidSampleError",
    "LLMError",
    "LLMOutputError",
    "LLMRequestError",
    "MissingFieldError",
    "RagrecallError",
    "UnverifiedVerdictError",
]


class RagrecallError(Exception):
    """Root of every exception ragrecall raises on purpose."""


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


class LLMError(RagrecallError):
    """The LLM path could not produce a usable answer.

    Attributes:
        usage: tokens and cost already spent on the failed work, when known (kept on failed results).
    """

    usage: Usage | None = None


class LLMRequestError(LLMError):
    """A request to the LLM failed and every retry was spent (or the error was not retryable)."""


class LLMOutputError(LLMError):
    """The LLM's replies kept failing their schema or invariants after every repair attempt."""


class UnverifiedVerdictError(LLMOutputError):
    """With ``unverified="fail"``: the judge called claims supported, but its quotes were not found in the
    contexts (or lacked a number of the claim) even after it was asked again. The message names each claim
    and what was wrong."""


class CacheMissError(LLMError):
    """The response cache is replay-only and holds no answer for this request."""


class CheckpointError(InputError):
    """A checkpoint file cannot be resumed: written for other metrics, settings or samples."""
