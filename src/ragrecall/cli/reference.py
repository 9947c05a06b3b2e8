"""The command line's reference page, written from the parsers themselves, so it cannot drift from them.

The documentation site builds its "Command line" page with :func:`cli_reference_markdown`.
"""

from __future__ import annotations

import argparse
import functools

from ._main import _COMMANDS, _parser

__all__ = ["cli_reference_markdown", "command_paths"]

_WIDTH = 100
"""The help text's width: fixed, so that the page does not depend on the terminal that built it."""


def command_paths() -> list[str]:
    """Every command the reference documents, top level first: ``ragrecall``, ``ragrecall eval``,
    ``ragrecall batch export`` …, in the order ``--help`` lists them."""
    return [path for path, _ in _walk(_parser(), "ragrecall")]


def cli_reference_markdown() -> str:
    """The reference as Markdown: a heading per command, its description, and its ``--help`` text as printed
    at a width of 100 columns."""
    parts = []
    for path, parser in _walk(_parser(), "ragrecall"):
        level = "#" * min(2 + path.count(" "), 4)
        parser.formatter_class = functools.partial(parser.formatter_class, width=_WIDTH)  # type: ignore[call-arg]
        help_text = parser.format_help().rstrip()
        parts.append(f"{level} `{path}`\n\n```text\n{help_text}\n```\n")
    return "\n".join(parts)


def _walk(parser: argparse.ArgumentParser, path: str) -> list[tuple[str, argparse.ArgumentParser]]:
    """The parser and its subcommands' parsers, depth first, each with its command path."""
    out = [(path, parser)]
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            choices: dict[str, argparse.ArgumentParser] = action.choices
            names = [n for n in _COMMANDS if n in choices] if path == "ragrecall" else list(choices)
            for name in names:
                out.extend(_walk(choices[name], f"{path} {name}"))
    return out
