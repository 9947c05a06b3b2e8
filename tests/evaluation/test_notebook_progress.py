"""In a notebook the progress bar shows (tqdm.auto), importing ragrecall warns of nothing, and CI or
show_progress=False turn it off: a real notebook executed headlessly by nbclient in a real IPython kernel."""

from __future__ import annotations

from typing import Any

import pytest

from ragrecall.evaluation._progress import progress_wanted

nbformat = pytest.importorskip("nbformat")
nbclient = pytest.importorskip("nbclient")
pytest.importorskip("ipykernel")

CELLS = [
    "import warnings\nwarnings.simplefilter('always')\n"
    "import ragrecall\nfrom ragrecall import evaluate, NonLLMContextRecall",
    "data = ragrecall.demo_dataset()\nresult = evaluate(data, [NonLLMContextRecall()])",
    "quiet = evaluate(data, [NonLLMContextRecall()], show_progress=False)",
    "import os\nos.environ['CI'] = 'true'\nin_ci = evaluate(data, [NonLLMContextRecall()])",
]


def _bars(outputs: list[dict[str, Any]]) -> list[str]:
    """The progress bars a cell showed: tqdm's widget (with ipywidgets) or its text on standard error."""
    found = []
    for out in outputs:
        if out.get("output_type") == "stream" and out.get("name") == "stderr" and "ragrecall" in out["text"]:
            found.append(out["text"])
        elif "application/vnd.jupyter.widget-view+json" in out.get("data", {}):
            found.append("widget")
    return found


@pytest.fixture(scope="module")
def executed() -> Any:
    notebook = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(c) for c in CELLS])
    with pytest.MonkeyPatch.context() as env:
        env.delenv("CI", raising=False)  # the kernel inherits this environment; CI itself sets CI=true
        env.delenv("RAGRECALL_PROGRESS", raising=False)
        nbclient.NotebookClient(notebook, timeout=120, kernel_name="python3").execute()
    return notebook


def test_importing_ragrecall_in_a_notebook_warns_of_nothing(executed: Any) -> None:
    assert executed.cells[0].outputs == []


def test_the_bar_shows_in_a_notebook_by_default(executed: Any) -> None:
    bars = _bars(executed.cells[1].outputs)
    assert bars, executed.cells[1].outputs
    assert bars == ["widget"] or "12/12" in bars[-1]  # the 12 demo samples, counted to the end


def test_show_progress_false_and_ci_turn_it_off(executed: Any) -> None:
    assert _bars(executed.cells[2].outputs) == [] and _bars(executed.cells[3].outputs) == []


@pytest.mark.parametrize(
    ("env", "enabled", "wanted"),
    [
        ({"CI": "true"}, True, False),
        ({"CI": "false"}, True, None),  # left to the terminal test
        ({"CI": "true", "RAGRECALL_PROGRESS": "1"}, True, True),
        ({"RAGRECALL_PROGRESS": "0"}, True, False),
        ({"RAGRECALL_PROGRESS": "1"}, False, False),  # show_progress=False always wins
    ],
)
def test_when_the_bar_is_wanted(
    env: dict[str, str], enabled: bool, wanted: bool | None, monkeypatch: pytest.MonkeyPatch
) -> None:
    for name in ("CI", "RAGRECALL_PROGRESS"):
        monkeypatch.delenv(name, raising=False)
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    import sys

    if wanted is None:
        assert progress_wanted(enabled) == sys.stderr.isatty()
    else:
        assert progress_wanted(enabled) is wanted
