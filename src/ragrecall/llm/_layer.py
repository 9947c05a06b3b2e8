"""What every layer of the stack shares: the LLM it wraps, and that LLM's model name as its own."""

from __future__ import annotations

from ._protocol import LLM

__all__ = ["Layer"]


class Layer:
    """An LLM that wraps ``inner``; subclasses add ``agenerate``."""

    def __init__(self, inner: LLM) -> None:
        self.inner = inner

    @property
    def model_name(self) -> str:
        """The inner LLM's model name."""
        return self.inner.model_name
