"""The command line's reference page is written from the parsers: every command is in it with its help text."""

from __future__ import annotations

import argparse
import importlib.util
import os
import subprocess
import sys
from pathlib import Path

from ragrecall.cli.reference import cli_reference_markdown, command_paths

ROOT = Path(__file__).resolve().parents[1]


def _every_command(parser: argparse.ArgumentParser, path: str) -> list[str]:
    """Walked independently of the module under test: each subparsers action's choices, recursively."""
    out = [path]
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name, sub in action.choices.items():
                out += _every_command(sub, f"{path} {name}")
    return out


def test_every_command_and_subcommand_has_its_section() -> None:
    from ragrecall.cli._main import _parser

    expected = _every_command(_parser(), "ragrecall")
    assert sorted(command_paths()) == sorted(expected)
    assert {"ragrecall eval", "ragrecall trec", "ragrecall batch export", "ragrecall ndeval"} <= set(expected)
    page = cli_reference_markdown()
    for path in expected:
        assert f"`{path}`\n\n```text\nusage: {path}" in page, path


def test_each_section_is_the_commands_help_as_printed() -> None:
    page = cli_reference_markdown()
    env = {**os.environ, "COLUMNS": "102"}  # argparse wraps two columns short of the terminal: at 100
    for command in (["trec"], ["batch", "export"]):
        section = page.split(f"`ragrecall {' '.join(command)}`\n\n```text\n", 1)[1].split("\n```", 1)[0]
        printed = subprocess.run(
            [sys.executable, "-m", "ragrecall.cli", *command, "--help"], env=env, capture_output=True, text=True
        )
        assert printed.returncode == 0 and section == printed.stdout.rstrip()


def test_the_site_hook_fills_the_marker() -> None:
    spec = importlib.util.spec_from_file_location("cli_reference_hook", ROOT / "docs" / "hooks" / "cli_reference.py")
    assert spec is not None and spec.loader is not None
    hook = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(hook)
    page = (ROOT / "docs" / "cli.md").read_text(encoding="utf-8")
    assert hook.MARKER in page
    built = hook.on_page_markdown(page, None, None, None)
    assert hook.MARKER not in built and cli_reference_markdown() in built
    assert hook.on_page_markdown("# other page\n", None, None, None) == "# other page\n"
