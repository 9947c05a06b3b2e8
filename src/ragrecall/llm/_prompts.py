"""Prompt files: a version, a fixed system part and a user template with ``{{placeholders}}``.

File format (UTF-8)::

    ---
    version: decompose.en/1
    ---
    [system]
    Fixed instructions and examples (sent first, so providers' prompt caching applies).
    [user]
    The per-sample part, e.g. {{reference}}

The front matter and the ``[system]`` section are optional; a text without section markers is one user
template. A prompt without a version gets ``custom:<first 12 hex digits of its SHA-256>``.

Text from outside (retrieved contexts, references, claims) enters a prompt only through :func:`data_block`:
between tags such as ``<context id="2">`` and ``</context>`` that the text itself cannot open or close.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Iterable
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from .._resources import prompts_root
from ..errors import ConfigurationError
from ._protocol import Message

__all__ = [
    "DATA_TAGS",
    "DataBlock",
    "PromptTemplate",
    "builtin_prompt",
    "data_block",
    "escape_data",
    "load_prompt",
    "read_data_blocks",
    "unescape_data",
]

_PLACEHOLDER = re.compile(r"\{\{\s*([a-z_]+)\s*\}\}")
_SECTION = re.compile(r"^\[(system|user)\]\s*$", re.MULTILINE)

DATA_TAGS = ("context", "claim", "reference", "sentence", "evidence", "nugget", "query")
"""The tags that hold outside text in a prompt. No text inside a data block can open or close one of them."""

# How outside text is kept inside its tags. Any "<" that would start one of DATA_TAGS (with or without "/",
# any case, spaces allowed; a full-width "＜" or small "﹤" too) is written as a character reference
# ("&lt;/context>"), which a model reads as the character but not as markup; an "&" that already starts such
# a reference there gains "amp;", so unescape_data restores the text exactly. Escaping rather than a random
# nonce in the tag names: the prompt stays a pure function of its inputs (cache keys, replays and providers'
# prompt caching depend on that), and the model never meets anything shaped like a closing tag inside the data.
# Only our own tag names are touched, so HTML or code in a context reaches the model as written.
# Invisible characters (zero-width spaces and joiners, soft hyphens, a BOM) between the opener and the name do
# not stop a model from reading a tag, so they do not stop the escaping either; nor do the angle-bracket
# lookalikes ‹ 〈 〈, nor "&lt" written without its semicolon.
# A tag name spelt with lookalike letters (Cyrillic "с", Greek "ο", full-width "ｃ") or with invisible characters
# between its letters still reads as the tag to a model, so it is escaped too.
_INVISIBLE = "[\u00ad\u200b-\u200f\u2060-\u2064\ufeff]*"
_LOOKALIKES = {
    "a": "\u0430\u0410\u0391",
    "c": "\u0441\u0421\u03f2\u03f9",
    "e": "\u0435\u0415\u0395",
    "i": "\u0456\u0406\u03b9\u0399\u0131",
    "l": "\u04cf\u217c\u0406",
    "m": "\u041c\u039c",
    "n": "\u039d",
    "o": "\u043e\u041e\u03bf\u039f",
    "s": "\u0455\u0405",
    "t": "\u0422\u03a4",
    "x": "\u0445\u0425\u03a7",
}


def _letter(c: str) -> str:
    wide = chr(0xFF41 + ord(c) - ord("a")) + chr(0xFF21 + ord(c) - ord("a"))
    return f"[{c}{c.upper()}{wide}{_LOOKALIKES.get(c, '')}]"


_NAMES = "(?i:" + "|".join(_INVISIBLE.join(_letter(c) for c in name) for name in DATA_TAGS) + ")"
_GAP = "[\\s\u00ad\u200b-\u200f\u2060-\u2064\ufeff]*"
_BEFORE_NAME = rf"(?={_GAP}[/／]?{_GAP}{_NAMES})"
_REFERENCE_TO_LT = (
    r"(?i:lt;?|#0*60;|#x0*3c;|#0*65308;|#x0*ff1c;|#0*65124;|#x0*fe64;"
    r"|#0*8249;|#x0*2039;|#0*12296;|#x0*3008;|#0*9001;|#x0*2329;)"
)
_OPENER = re.compile(rf"(?:[<\uff1c\ufe64\u2039\u3008\u2329]|&(?i:amp;)*{_REFERENCE_TO_LT}){_BEFORE_NAME}")
_ESCAPES = {
    "<": "&lt;",
    "\uff1c": "&#xFF1C;",
    "\ufe64": "&#xFE64;",
    "\u2039": "&#x2039;",
    "\u3008": "&#x3008;",
    "\u2329": "&#x2329;",
}
_ESCAPED = re.compile(
    "(?:" + "|".join(_ESCAPES.values()) + rf"){_BEFORE_NAME}|&amp;(?=(?i:amp;)*{_REFERENCE_TO_LT}{_BEFORE_NAME})"
)
_UNESCAPES = {v: k for k, v in _ESCAPES.items()} | {"&amp;": "&"}
_BLOCK = re.compile(r"<(" + "|".join(DATA_TAGS) + r')(?: id="(\d+)")?>(.*?)</\1>', re.DOTALL)


def escape_data(text: str) -> str:
    """``text`` with every opening of a :data:`DATA_TAGS` tag (``<context``, ``</claim`` ...) written as a
    character reference, so that it cannot open or close a data block; :func:`unescape_data` undoes it."""
    if not any(mark in text for mark in "<\uff1c\ufe64\u2039\u3008\u2329&"):
        return text  # the usual case, without a regex scan
    return _OPENER.sub(lambda m: _ESCAPES.get(m.group()) or "&amp;" + m.group()[1:], text)


def unescape_data(text: str) -> str:
    """The text that :func:`escape_data` was given: ``unescape_data(escape_data(t)) == t`` for every ``t``."""
    if "&" not in text:
        return text
    return _ESCAPED.sub(lambda m: _UNESCAPES[m.group()], text)


def data_block(tag: str, text: str, number: int | None = None) -> str:
    """``<tag>text</tag>`` (``<tag id="number">`` when numbered), the text escaped by :func:`escape_data`.

    Raises:
        ValueError: ``tag`` is not one of :data:`DATA_TAGS` (its closing tag would not be protected).
    """
    if tag not in DATA_TAGS:
        raise ValueError(f"data tag must be one of {', '.join(DATA_TAGS)}, got {tag!r}")
    opening = tag if number is None else f'{tag} id="{number}"'
    return f"<{opening}>{escape_data(text)}</{tag}>"


@dataclass(frozen=True)
class DataBlock:
    """A data block read back from a rendered prompt."""

    tag: str
    number: int | None
    text: str
    """The text as it was given to :func:`data_block`, unescaped."""


def read_data_blocks(prompt: str) -> list[DataBlock]:
    """The data blocks of a rendered prompt, in order (the inverse of :func:`data_block`)."""
    return [
        DataBlock(m.group(1), int(m.group(2)) if m.group(2) else None, unescape_data(m.group(3)))
        for m in _BLOCK.finditer(prompt)
    ]


@dataclass(frozen=True)
class PromptTemplate:
    """A parsed prompt: its version, optional fixed system text and the user template."""

    version: str
    """Goes into cache keys and results."""
    user: str
    """Template of the user message; ``{{name}}`` is replaced by the value of ``name``."""
    system: str | None = None
    """Fixed instructions, sent as the system message."""

    @classmethod
    def parse(cls, text: str, *, default_version: str | None = None) -> PromptTemplate:
        """Parse the file format described in the module docstring."""
        body = text.lstrip("\ufeff")
        meta: dict[str, str] = {}
        if body.startswith("---"):
            end = body.find("\n---", 3)
            if end == -1:
                raise ConfigurationError("prompt front matter starts with '---' but never ends")
            for line in body[3:end].strip().splitlines():
                key, sep, value = line.partition(":")
                if sep:
                    meta[key.strip()] = value.strip()
            body = body[end + 4 :].lstrip("\n")
        sections = {m.group(1): m for m in _SECTION.finditer(body)}
        if not sections:
            system, user = None, body
        else:
            marks = sorted(sections.values(), key=lambda m: m.start())
            parts: dict[str, str] = {}
            for i, mark in enumerate(marks):
                stop = marks[i + 1].start() if i + 1 < len(marks) else len(body)
                parts[mark.group(1)] = body[mark.end() : stop].strip("\n")
            system, user = parts.get("system"), parts.get("user", "")
        version = meta.get("version") or default_version
        if not version:
            version = "custom:" + hashlib.sha256(text.encode()).hexdigest()[:12]
        return cls(version=version, user=user.strip(), system=system.strip() if system else None)

    @property
    def placeholders(self) -> frozenset[str]:
        """Names used as ``{{name}}`` in the user template (the system part is sent verbatim)."""
        return frozenset(_PLACEHOLDER.findall(self.user))

    def require(self, names: Iterable[str], *, step: str) -> None:
        """Raise ConfigurationError when a placeholder the step fills is missing from the user template."""
        missing = sorted(set(names) - self.placeholders)
        if missing:
            raise ConfigurationError(
                f"the {step!r} prompt ({self.version}) must use "
                + ", ".join("{{" + m + "}}" for m in missing)
                + " in its user part"
            )

    def render(self, **values: str) -> tuple[Message, ...]:
        """The messages: the system part first, verbatim (so it stays a cacheable prefix), then the user part
        with its placeholders filled."""

        def fill(match: re.Match[str]) -> str:
            name = match.group(1)
            if name not in values:
                raise ConfigurationError(f"prompt {self.version} uses {{{{{name}}}}}, which this step does not fill")
            return values[name]

        user: Message = {"role": "user", "content": _PLACEHOLDER.sub(fill, self.user)}
        if self.system is None:
            return (user,)
        return ({"role": "system", "content": self.system}, user)


@lru_cache(maxsize=64)
def builtin_prompt(metric: str, step: str, language: str) -> PromptTemplate:
    """The shipped prompt ``prompts/<metric>/<step>.<language>.md``.

    Raises:
        ConfigurationError: no such prompt file.
    """
    resource = prompts_root() / metric / f"{step}.{language}.md"
    if not resource.is_file():
        raise ConfigurationError(f"no built-in prompt {metric}/{step}.{language}.md")
    return PromptTemplate.parse(resource.read_text(encoding="utf-8"), default_version=f"{metric}/{step}.{language}")


def load_prompt(source: str | Path | PromptTemplate) -> PromptTemplate:
    """A user's prompt: a :class:`PromptTemplate`, a path to a prompt file, or the prompt text itself.

    A ``str`` is read as a path when it names an existing file, and as prompt text otherwise.
    """
    if isinstance(source, PromptTemplate):
        return source
    if isinstance(source, Path):
        return PromptTemplate.parse(source.read_text(encoding="utf-8"))
    if "\n" not in source and len(source) < 4096:
        candidate = Path(source).expanduser()
        try:
            if candidate.is_file():
                return PromptTemplate.parse(candidate.read_text(encoding="utf-8"))
        except OSError:
            pass
    return PromptTemplate.parse(source)
