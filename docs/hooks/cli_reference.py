"""MkDocs hook: the "Command line" page's marker becomes the reference written from ragrecall's parsers."""

from __future__ import annotations

from typing import Any

MARKER = "<!-- cli-reference -->"


def on_page_markdown(markdown: str, page: Any, config: Any, files: Any) -> str:
    if MARKER not in markdown:
        return markdown
    from ragrecall.cli.reference import cli_reference_markdown

    return markdown.replace(MARKER, cli_reference_markdown())
