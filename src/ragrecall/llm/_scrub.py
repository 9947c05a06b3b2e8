"""Keep API keys and tokens out of everything ragrecall stores or prints.

Servers echo keys back: whole (a proxy's error page quoting the ``Authorization`` header) or masked
(``Incorrect API key provided: sk-proj-abc1****wxyz``). Every text that comes back from a transport (error
messages through :meth:`Scrubber.scrub`, reply text through :meth:`Scrubber.scrub_reply`) is scrubbed before
anything else sees it. :func:`client_secrets` collects what a client sends as credentials.
"""

from __future__ import annotations

import contextlib
import re
from urllib.parse import urlsplit, urlunsplit

__all__ = ["REDACTED", "Scrubber", "client_secrets", "public_url"]

REDACTED = "[redacted key]"
_FRAGMENT = 6
"""Characters of the key a word must share with it to count as an echo (a masked key keeps at least this)."""
_SHORTEST = 8
"""Keys shorter than this are not scrubbed (see :class:`Scrubber`)."""
_WORD = re.compile(r"[^\s\"'`<>(){}\[\],;]+")
_MASK = re.compile(r"[*•]{3,}")


class Scrubber:
    """Replaces the client's secrets, and echoes of them, by a marker.

    In error messages, where a server quotes what it was sent, any word holding a run of ``_FRAGMENT`` or more
    characters of a secret counts as an echo (``sk-proj-abc1****wxyz``). In reply text, which is the model's
    own words and is scored, only the whole secret and masked forms of it (a fragment beside a run of ``*`` or
    ``•``) are replaced, so that a placeholder key such as ``sk-no-key-required`` cannot rewrite "required".

    A secret shorter than 12 characters is replaced only where it occurs whole (its fragments would match
    ordinary words), and one shorter than 8 not at all: such a string (``"x"``, ``"EMPTY"``, a local server's
    dummy key) protects nothing, and replacing it would corrupt every reply that contains those letters.
    """

    def __init__(self, *secrets: str | None) -> None:
        self._secrets = sorted({s for s in secrets if s and len(s) >= _SHORTEST}, key=len, reverse=True)
        self._fragments = {
            key[i : i + _FRAGMENT] for key in self._secrets if len(key) >= 12 for i in range(len(key) - _FRAGMENT + 1)
        }

    def scrub(self, text: str) -> str:
        """An error message (or any text a server wrote) without the secrets or any echo of them."""
        return self._scrub(text, masked_only=False)

    def scrub_reply(self, text: str) -> str:
        """A model's reply without the secrets or masked forms of them; its other words are left as they are."""
        return self._scrub(text, masked_only=True)

    def _scrub(self, text: str, *, masked_only: bool) -> str:
        if not self._secrets or not text:
            return text
        for secret in self._secrets:
            text = text.replace(secret, REDACTED)
        if not self._fragments:
            return text
        return _WORD.sub(lambda m: self._word(m, masked_only), text)

    def _word(self, match: re.Match[str], masked_only: bool) -> str:
        word = match.group(0)
        if len(word) < _FRAGMENT or word == REDACTED or (masked_only and not _MASK.search(word)):
            return word
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


_CREDENTIAL_HEADERS = ("authorization", "api-key", "x-api-key", "proxy-authorization")


def client_secrets(client: object) -> list[str]:
    """Every credential an SDK client sends: its API key, bearer or Azure AD token, and the values of
    credential headers among its default headers (a bearer token also without its ``Bearer`` prefix)."""
    found: list[str] = []
    for name in ("api_key", "auth_token", "_azure_ad_token", "azure_ad_token"):
        value = getattr(client, name, None)
        if isinstance(value, str):
            found.append(value)
    headers = getattr(client, "_custom_headers", None) or {}
    for name, value in dict(headers).items():
        if str(name).lower() in _CREDENTIAL_HEADERS and isinstance(value, str):
            found.append(value)
            scheme, _, token = value.partition(" ")
            if token and scheme.lower() in ("bearer", "basic", "token"):
                found.append(token)
    return found


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
