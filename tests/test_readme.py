"""The README and the documentation site are paths: every shell and Python snippet runs as printed, in order, in
an empty folder, with no API key and no network — the README's in one folder, the site's pages in another, page
after page in the order of ``mkdocs.yml``'s nav. A snippet that must not run (it installs packages, or needs a
key) says so in an HTML comment on the line before it: ``<!-- not run by tests/test_readme.py: why -->``.

Each runs as after the README's first set-up command (``pip install -e .``): the packages of the optional
extras cannot be imported, unless the line above the snippet names the extra it needs as its install command
(``pip install 'ragrecall[pandas]'``)."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "README.md"
_NAV_PAGE = re.compile(r"^\s+- (?:[^:\n]+: )?([\w/.-]+\.md)$", re.MULTILINE)
_FENCE = re.compile(r"^```(\w*)\n(.*?)^```\n", re.MULTILINE | re.DOTALL)
_SKIP = re.compile(r"<!-- not run by tests/test_readme\.py: (.+?) -->\n$")
_NEEDS = re.compile(r"pip install '[^']*ragrecall\[([\w,]+)\]'")
# What each optional extra brings that the first set-up command does not install.
EXTRA_MODULES = {
    "pandas": ("pandas",),
    "hf": ("datasets",),
    "calibrate": ("scipy", "sklearn"),
    "anthropic": ("anthropic",),
    "mlflow": ("mlflow", "pandas"),  # MLflow's scorers import pandas, which mlflow-skinny does not require
    "docs": ("mkdocs",),
    "ray": ("ray", "pandas"),  # ray[data] brings pandas, which Ray Data imports
}
_BLOCKER = """
import os
import sys

_BLOCKED = set(filter(None, os.environ.get("RAGRECALL_TEST_BLOCKED", "").split(",")))


class _NotInstalled:
    @staticmethod
    def find_spec(name, path=None, target=None):
        if name.split(".")[0] in _BLOCKED:
            raise ModuleNotFoundError(f"No module named {name!r}", name=name)
        return None


sys.meta_path.insert(0, _NotInstalled)
"""


@dataclass(frozen=True)
class Snippet:
    language: str
    code: str
    where: str
    """The file and line the snippet starts on."""
    skip: str | None
    extras: tuple[str, ...] = ()
    """The extras the line above the snippet says it needs."""


def doc_pages() -> list[Path]:
    """The site's pages in the order of ``mkdocs.yml``'s nav."""
    return [ROOT / "docs" / name for name in _NAV_PAGE.findall((ROOT / "mkdocs.yml").read_text(encoding="utf-8"))]


def snippets(paths: list[Path] | None = None) -> list[Snippet]:
    """The fenced blocks of ``paths`` (the README when none are given), in order."""
    out = []
    for path in [README] if paths is None else paths:
        text = path.read_text(encoding="utf-8")
        for match in _FENCE.finditer(text):
            before = text[: match.start()]
            skip = _SKIP.search(before)
            above = before.rstrip("\n").rsplit("\n", 1)[-1]
            extras = tuple(e for found in _NEEDS.findall(above) for e in found.split(","))
            where = f"{path.relative_to(ROOT)} line {before.count(chr(10)) + 1}"
            out.append(Snippet(match[1], match[2], where, skip[1] if skip else None, extras))
    return out


@pytest.mark.parametrize("document", ["README", "docs"])
def test_every_snippet_is_shell_python_or_output_and_skips_say_why(document: str) -> None:
    found = snippets(None if document == "README" else doc_pages())
    assert {s.language for s in found} <= {"bash", "python", "text", "json"}, "a fence without a known language"
    skipped = [s for s in found if s.skip]
    assert all(s.language == "bash" for s in skipped) and skipped
    assert all("install" in s.skip or "API key" in s.skip or "GPU" in s.skip for s in skipped if s.skip)
    assert any(s.language in ("bash", "python") and not s.skip for s in found)


def test_the_nav_lists_every_page_once() -> None:
    pages = doc_pages()
    assert len(pages) == len(set(pages)) and all(p.is_file() for p in pages)
    on_disk = {p for p in (ROOT / "docs").rglob("*.md") if "hooks" not in p.parts}
    assert on_disk == set(pages)


def run_snippets(found: list[Snippet], folder: Path, blocker: Path) -> dict[str, Any]:
    """Run every snippet that runs, in order, in ``folder``; keep each one's output by its place."""
    (blocker / "sitecustomize.py").write_text(_BLOCKER, encoding="utf-8")
    env = {k: v for k, v in os.environ.items() if not k.endswith("_API_KEY") and k != "OPENAI_BASE_URL"}
    env["PATH"] = f"{Path(sys.executable).parent}{os.pathsep}{env.get('PATH', '')}"
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(blocker), env.get("PYTHONPATH")]))
    env.update(MLFLOW_DISABLE_TELEMETRY="true", DO_NOT_TRACK="true")  # nothing may leave the machine
    outputs: dict[str, Any] = {}
    for snippet in found:
        if snippet.skip or snippet.language not in ("bash", "python"):
            continue
        assert set(snippet.extras) <= set(EXTRA_MODULES), f"{snippet.where}: unknown extra"
        allowed = {m for extra in snippet.extras for m in EXTRA_MODULES[extra]}
        blocked = [m for mods in EXTRA_MODULES.values() for m in mods if m not in allowed]
        env["RAGRECALL_TEST_BLOCKED"] = ",".join(blocked)
        command = ["bash", "-e", "-o", "pipefail", "-c", snippet.code]
        if snippet.language == "python":
            command = [sys.executable, "-c", snippet.code]
        done = subprocess.run(command, cwd=folder, env=env, capture_output=True, text=True, timeout=300)
        assert done.returncode == 0, f"{snippet.where}:\n{snippet.code}\n{done.stdout}\n{done.stderr}"
        outputs[snippet.where] = done.stdout
    outputs["folder"] = folder
    return outputs


@pytest.fixture(scope="module")
def ran(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """The README's snippets, run in README order in one empty folder."""
    return run_snippets(snippets(), tmp_path_factory.mktemp("readme"), tmp_path_factory.mktemp("blocker"))


@pytest.fixture(scope="module")
def ran_docs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """The site's snippets, run page after page in nav order in one empty folder."""
    return run_snippets(snippets(doc_pages()), tmp_path_factory.mktemp("docs"), tmp_path_factory.mktemp("blocker"))


def test_the_extras_of_the_first_set_up_command_are_blocked_in_snippets(tmp_path: Path) -> None:
    (tmp_path / "sitecustomize.py").write_text(_BLOCKER, encoding="utf-8")
    env = {**os.environ, "PYTHONPATH": str(tmp_path), "RAGRECALL_TEST_BLOCKED": "pandas"}
    code = "import ragrecall; ragrecall.demo_dataset().to_pandas()"
    done = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=60)
    assert done.returncode == 1
    last = done.stderr.strip().splitlines()[-1]
    assert last == "ragrecall.errors.MissingExtraError: to_pandas() needs pandas, in the pandas extra: " + (
        "pip install 'ragrecall[pandas]'"
    )
    labels = tmp_path / "labels.jsonl"
    labels.write_text('{"reference_claims": ["a b."], "claim_labels": [true], "retrieved_contexts": ["a b."]}\n')
    env["RAGRECALL_TEST_BLOCKED"] = "scipy,sklearn"
    command = [sys.executable, "-m", "ragrecall.cli", "calibrate", str(labels), "--llm", "offline", "--no-progress"]
    done = subprocess.run(command, env=env, capture_output=True, text=True, timeout=120)
    assert done.returncode == 2 and done.stderr == (
        "ragrecall: error: calibrate needs scipy, in the calibrate extra: pip install 'ragrecall[calibrate]'\n"
    )


def test_the_site_snippets_run_in_order_in_an_empty_folder(ran_docs: dict[str, Any]) -> None:
    folder: Path = ran_docs["folder"]
    for made in ("samples.jsonl", "baseline.jsonl", "results.jsonl", "report.html", "test.qrels", "test.run"):
        assert (folder / made).is_file(), made
    text = "\n".join(v for k, v in ran_docs.items() if k != "folder")
    assert "context_recall: A 0.5972, B 0.5972" in text  # compare: the offline eval repeats the demo's scores
    assert re.search(r"^nDCG@10 +\tall\t", text, re.M)  # trec --format trec
    assert "[0.5]" in text  # the Ragas page's result["context_recall"]


def test_the_cli_fail_under_example_passes_on_the_demo(ran_docs: dict[str, Any]) -> None:
    # The eval line ends with --fail-under: had the bound failed, its snippet would have exited 1 above.
    text = (ROOT / "docs" / "getting-started.md").read_text(encoding="utf-8")
    assert "--fail-under context_recall=0.55 --no-progress" in text
    assert "ragrecall eval samples.jsonl" in text and "--offline" in text


def test_the_readme_tour_runs_and_prints_what_its_comments_say(ran: dict[str, Any]) -> None:
    folder: Path = ran["folder"]
    for made in ("samples.jsonl", "results.jsonl", "report.html", "test.qrels", "test.run"):
        assert (folder / made).is_file(), made
    text = "\n".join(v for k, v in ran.items() if k != "folder")
    assert "0.5 stated\n0.5 0.25\n" in text
    assert re.search(r"^context_recall +0\.5972 ", text, re.M)  # the demo's mean, as ragrecall demo prints it
    assert re.search(r"^map +\tall\t1\.0000$", text, re.M)  # trec -q -m official


def test_the_readme_is_one_page_with_the_two_set_up_commands_first() -> None:
    text = README.read_text(encoding="utf-8")
    assert len(text.splitlines()) <= 250
    first, second = snippets()[:2]
    assert first.code == "python3 -m venv .venv && . .venv/bin/activate && pip install -e . && ragrecall demo\n"
    assert second.code == 'python3 -m venv .venv && . .venv/bin/activate && pip install -e ".[dev]" && pytest\n'
    assert 'pip install -e ".[dev]" && pytest' in (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    for link in re.findall(r"\]\((docs/[^)#]+)", text):  # links into the site point at its pages
        assert (ROOT / link).is_file(), link
