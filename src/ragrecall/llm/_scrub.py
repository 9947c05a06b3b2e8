"""Keep the API key out of everything ragrecall stores or prints.

Servers echo keys back: whole (a proxy's error page quoting the ``Authorization`` header) or masked
(``Incorrect API key provided: sk-proj-abc1****wxyz``). Every text that comes back from a transport (error
messages, reply bodies) passes through :meth:`Scrubber.scrub` before anything else sees it.
"""

from __future__ import annotations

import contextlib
import re
from urllib.parse import urlsplit, urlunsplit

__all__ = ["REDACTED", "Scrubber", "public_url"]

REDACTED = "[redacted key]"
_FRAGMENT = 6
"""Characters of the key a word must share with it to count as an echo (a masked key keeps at least this)."""
_SHORTEST = 8
"""Keys shorter than this are not scrubbed (see :class:`Scrubber`)."""
_WORD = re.compile(r"[^\s\"'`<>(){}\[\],;]+")


class Scrubber:
    """Replaces the key, and any word holding a run of ``_FRAGMENT`` or more of its characters, by a marker.

    A key shorter than 12 characters is replaced only where it occurs whole (its fragments would match
    ordinary words), and one shorter than 8 not at all: such a string (``"x"``, a local server's dummy key)
    protects nothing, and replacing it would corrupt every reply that contains those letters.
    """

    def __init__(self, secret: str | None) -> None:
        self._secret = secret if secret and len(secret) >= _SHORTEST else ""
        key = self._secret
        self._fragments = {key[i : i + _FRAGMENT] for i in range(len(key) - _FRAGMENT + 1)} if len(key) >= 12 else set()

    def scrub(self, text: str) -> str:
        """``text`` without the key or any echo of it."""
        if not self._secret or not text:
            return text
        text = text.replace(self._secret, REDACTED)
        if not self._fragments:
            return text
        return _WORD.sub(self._word, text)

    def _word(self, match: re.Match[str]) -> str:
        word = match.group(0)
        if len(word) >= _FRAGMENT and word != REDACTED:
            for i in range(len(word) - _FRAGMENT + 1):
                if word[i : i + _FRAGMENT] in self._fragments:
                    return REDACTED
        return word

    def scrub_exception(self, exc: BaseException) -> BaseException:
        """``exc`` with its message and string arguments scrubbed in place (it will be chained and printed)."""
        exc.args = tuple(self.scrub(a) if isinstance(a, str) else a for a in exc.args)
        message = getattr(exc, "message", None)
        if isinstance(message, str):
            with contextlib.suppress(AttributeError):
                exc.message = self.scrub(message)  # type: ignore[attr-defined]
        if getattr(exc, "body", None) is not None:  # the decoded error body may quote the key too
            with contextlib.suppress(AttributeError):
                exc.body = None  # type: ignore[attr-defined]
        return exc


def public_url(url: str) -> str:
    """``url`` without user name, password, query or fragment: safe to print and to store."""
    try:
        parts = urlsplit(url)
    except ValueError:
        return "<unreadable URL>"
    host = parts.hostname or ""
    if parts.port is not None:
        host = f"{host}:{parts.port}"
    return urlunsplit((parts.scheme, host, parts.path, "", ""))
