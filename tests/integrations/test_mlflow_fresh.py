"""The MLflow guide's ``mlflow.genai.evaluate`` block, as the guide prints it, in a fresh virtual environment
where only ``ragrecall[mlflow]`` is installed: no environment variable, no tracking URI, nothing the guide does
not say. It installs packages (minutes, and the package index), so it runs when ``RAGRECALL_FRESH_ENV=1``."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from ragrecall.llm.fake_server import FakeOpenAIServer

ROOT = Path(__file__).resolve().parents[2]
GUIDE = ROOT / "docs" / "guides" / "mlflow.md"

pytestmark = pytest.mark.skipif(
    os.environ.get("RAGRECALL_FRESH_ENV") != "1",
    reason="installs packages into a fresh environment: RAGRECALL_FRESH_ENV=1",
)

MY_APP = """
import mlflow
from mlflow.entities import Document, SpanType

PASSAGES = {"d1": "The Eiffel Tower is in Paris.", "d2": "The Louvre is the most visited museum in the world."}


@mlflow.trace(span_type=SpanType.RETRIEVER)
def retrieve(question):
    found = ["d1"] if "tower" in question else ["d2", "d1"]
    return [Document(page_content=PASSAGES[d], metadata={"doc_uri": d}, id=d) for d in found]


@mlflow.trace
def answer(question):
    return " ".join(doc.page_content for doc in retrieve(question))


eval_rows = [
    {"inputs": {"question": "Where is the tower?"},
     "expectations": {"reference_context_ids": ["d1", "d2"], "expected_response": "The Eiffel Tower is in Paris."}},
    {"inputs": {"question": "Which museum is most visited?"},
     "expectations": {"reference_context_ids": ["d2"],
                      "expected_response": "The Louvre is the most visited museum in the world."}},
]
"""


def guide_block() -> str:
    """The bash block of the guide that calls ``mlflow.genai.evaluate``, as printed."""
    blocks = re.findall(r"```bash\n(.*?)```", GUIDE.read_text(encoding="utf-8"), re.S)
    (block,) = [b for b in blocks if "mlflow.genai.evaluate" in b]
    return block


def test_the_guides_block_runs_with_the_extra_only(tmp_path: Path) -> None:
    dist = tmp_path / "dist"
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "-q", "-w", str(dist), str(ROOT)],
        check=True,
    )
    (wheel,) = dist.glob("ragrecall-*.whl")
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
    python = venv / "bin" / "python"
    subprocess.run([str(python), "-m", "pip", "install", "-q", f"{wheel}[mlflow]"], check=True, timeout=1800)
    work = tmp_path / "work"
    work.mkdir()
    (work / "my_app.py").write_text(MY_APP, encoding="utf-8")
    env = {k: v for k, v in os.environ.items() if not k.startswith(("MLFLOW_", "OPENAI_", "PYTHON"))}
    env["PATH"] = f"{venv / 'bin'}{os.pathsep}{env.get('PATH', '')}"
    with FakeOpenAIServer() as server:
        env.update(OPENAI_API_KEY="sk-local-test", OPENAI_BASE_URL=server.base_url)
        done = subprocess.run(
            ["bash", "-c", guide_block()], cwd=work, env=env, capture_output=True, text=True, timeout=600
        )
    assert done.returncode == 0, done.stderr[-3000:]
    assert "'context_recall/mean'" in done.stdout and "'id_based_context_recall/mean'" in done.stdout, done.stdout
    assert re.search(r"'id_based_context_recall/mean': (np\.float64\()?0\.75\b", done.stdout), done.stdout
    assert (work / "mlflow.db").exists()  # MLflow's default store, which the extra makes work
