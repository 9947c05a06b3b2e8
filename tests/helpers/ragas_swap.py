"""Running a Ragas script on ragrecall the way a user migrates it: the import lines swapped, nothing else."""

from __future__ import annotations

import re
import runpy
from pathlib import Path
from typing import Any

import pytest

from ragrecall.llm.fake_server import FakeOpenAIServer

_IMPORT = re.compile(r"^(from|import) ragas(?=[.\s])", re.MULTILINE)


def swap_imports(source: str, lines: int) -> str:
    """What a user does: replace ``ragas`` by ``ragrecall`` on the import lines, and nothing else."""
    swapped, count = _IMPORT.subn(r"\1 ragrecall", source)
    assert count == lines, f"the script imports from ragas on {lines} lines"
    assert "ragas" not in "\n".join(line for line in swapped.splitlines() if line.startswith(("from", "import")))
    return swapped


def run_swapped(script: Path, lines: int) -> tuple[dict[str, Any], int]:
    """Run ``script`` with its imports swapped against the local OpenAI-compatible server (the real ``openai``
    SDK over HTTP on 127.0.0.1, no key); its globals and the number of requests the server saw."""
    with FakeOpenAIServer() as server, pytest.MonkeyPatch.context() as env:
        env.setenv("OPENAI_API_KEY", "sk-local-test")
        env.setenv("OPENAI_BASE_URL", server.base_url)
        path = script.with_name(f"_swapped_{script.name}")
        path.write_text(swap_imports(script.read_text(encoding="utf-8"), lines), encoding="utf-8")
        try:
            names = runpy.run_path(str(path), run_name=script.stem)
        finally:
            path.unlink()
        return names, len(server.requests)
