"""The built wheel carries the prompts, the demo data and py.typed, and loads them from any directory."""

from __future__ import annotations

import os
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

CHECK = """
import pathlib, sys
import ragrecall
from ragrecall._resources import prompts_root
site = pathlib.Path(sys.argv[1]).resolve()
assert pathlib.Path(ragrecall.__file__).resolve().is_relative_to(site), ragrecall.__file__
root = prompts_root()
assert pathlib.Path(str(root)).resolve().is_relative_to(site), root
assert (root / "README.md").read_text(encoding="utf-8").startswith("# Prompts")
print(len(ragrecall.demo_dataset()))
"""


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("wheel")
    try:
        import hatchling  # noqa: F401
    except ImportError:
        pytest.skip("hatchling is not installed (it comes with the dev extra)")
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "-q", "-w", str(out), str(ROOT)],
        check=True,
    )
    (built,) = out.glob("ragrecall-*.whl")
    return built


def test_wheel_contents(wheel: Path) -> None:
    names = set(zipfile.ZipFile(wheel).namelist())
    assert "ragrecall/py.typed" in names
    assert "ragrecall/prompts/README.md" in names
    assert "ragrecall/data/demo.jsonl" in names
    (entry_points,) = [n for n in names if n.endswith(".dist-info/entry_points.txt")]
    scripts = zipfile.ZipFile(wheel).read(entry_points).decode()
    assert "ragrecall = ragrecall.cli:console" in scripts  # the entry that ends without the last collection


def test_installed_wheel_loads_its_files_from_another_directory(wheel: Path, tmp_path: Path) -> None:
    site = tmp_path / "site"
    subprocess.run(
        [sys.executable, "-m", "pip", "install", "--no-deps", "-q", "--target", str(site), str(wheel)], check=True
    )
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    env = {**os.environ, "PYTHONPATH": str(site)}
    done = subprocess.run(
        [sys.executable, "-c", CHECK, str(site)], cwd=elsewhere, env=env, capture_output=True, text=True
    )
    assert done.returncode == 0, done.stderr
    assert int(done.stdout.strip()) >= 10
