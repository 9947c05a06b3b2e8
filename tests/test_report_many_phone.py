"""Three systems on a 390 px phone, in headless Chromium: ``ragrecall report A B C --labels`` writes the page of
every pair with its verdict at the Holm-adjusted level, the best system, the samples that moved most and each
system's corrected mean, all as cards inside the screen; a run's report keeps its summary and its "Corrected by
people" intervals whole at that width too."""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from helpers.cdp import Browser, browser_path
from ragrecall import IDBasedContextRecall, evaluate

pytestmark = pytest.mark.skipif(browser_path() is None, reason="no headless Chromium installed (Debian: chromium)")

SCRIPT = Path(sys.executable).with_name("ragrecall")
FOUND = {"weak": 1, "mid": 2, "strong": 4}


def cli(*args: str) -> subprocess.CompletedProcess[str]:
    if not SCRIPT.exists():
        pytest.skip(f"the console script is not installed next to {sys.executable}")
    return subprocess.run([str(SCRIPT), *args], capture_output=True, text=True, timeout=300)


@pytest.fixture(scope="module")
def files(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    folder = tmp_path_factory.mktemp("three")
    out: dict[str, Path] = {}
    rows = []
    for name, k in FOUND.items():
        samples = [
            {
                "id": f"question-with-a-long-identifier-{i}",
                "reference_context_ids": ["a", "b", "c", "d"],
                "retrieved_context_ids": [*["a", "b", "c", "d"][: max(0, min(4, k + (i % 3) - 1))], "x"],
            }
            for i in range(30)
        ]
        out[name] = folder / f"{name}.jsonl"
        evaluate(samples, [IDBasedContextRecall()], show_progress=False).to_jsonl(out[name])
        if name != "weak":  # people labelled what mid and strong retrieved, not what weak did
            rows += [dict(s, human_score=round(0.3 + 0.02 * i, 2)) for i, s in enumerate(samples[:12])]
    out["labels"] = folder / "labels.jsonl"
    out["labels"].write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    return out


@pytest.fixture
def browser(tmp_path: Path) -> Iterator[Browser]:
    (tmp_path / "downloads").mkdir()
    chrome = Browser(tmp_path / "profile", tmp_path / "downloads")
    try:
        chrome.phone()
        yield chrome
    finally:
        chrome.close()


def _open(browser: Browser, path: Path) -> None:
    browser.call("Page.navigate", {"url": path.as_uri()})
    browser.wait_for("document.readyState === 'complete' && !!document.querySelector('h1')")


CARDS = """(() => [...document.querySelectorAll(%s)].map(tr => ({
  box: (b => ({left: b.left, right: b.right}))(tr.getBoundingClientRect()),
  cells: [...tr.children].filter(td => td.textContent.trim()).map(td => ({label: td.dataset.label,
    text: td.textContent, whole: td.scrollWidth <= td.clientWidth + 1,
    left: td.getBoundingClientRect().left, right: td.getBoundingClientRect().right}))})))()"""


def _cards(browser: Browser, selector: str) -> list[dict[str, Any]]:
    cards: list[dict[str, Any]] = browser.evaluate(CARDS % json.dumps(selector))
    assert cards, selector
    for card in cards:
        assert card["box"]["left"] >= 0 and card["box"]["right"] <= 390, card
        for cell in card["cells"]:
            assert cell["whole"] and cell["left"] >= 0 and cell["right"] <= 390, cell
    return cards


def test_three_systems_on_a_phone(files: dict[str, Path], tmp_path: Path, browser: Browser) -> None:
    page = tmp_path / "three.html"
    done = cli("report", *(str(files[n]) for n in FOUND), "--labels", str(files["labels"]), "-o", str(page))
    assert done.returncode == 0, done.stderr
    _open(browser, page)
    assert browser.evaluate("innerWidth") == 390
    assert browser.evaluate("document.documentElement.scrollWidth") <= 390
    best = browser.evaluate("document.querySelector('p.best').textContent")
    assert best.startswith("Best: strong.jsonl — better than every other system")
    pairs = _cards(browser, "#systems h3 + p.best + div table.cards tbody tr")
    verdicts = [next(c["text"] for c in card["cells"] if c["label"] == "verdict") for card in pairs]
    assert verdicts == [
        "mid.jsonl better than weak.jsonl",
        "strong.jsonl better than weak.jsonl",
        "strong.jsonl better than mid.jsonl",
    ]
    for card in pairs:  # on a phone each card leads with the pair, then its verdict, then B − A
        assert [c["label"] for c in card["cells"][:3]] == ["pair", "verdict", "B − A"]
    moved = _cards(browser, "#systems h4 + p + div table.cards tbody tr")
    assert 0 < len(moved) <= 10
    assert moved[0]["cells"][1]["text"].startswith("0.750 (weak.jsonl → strong.jsonl)")
    corrected = _cards(browser, "#systems h4:last-of-type + div table.cards tbody tr")
    by_system = {card["cells"][0]["text"]: card["cells"] for card in corrected}
    assert by_system["weak.jsonl"][1]["text"] == "no corrected mean"
    assert (
        "no corrected mean of id_based_context_recall: 0 labelled samples apply" in by_system["weak.jsonl"][2]["text"]
    )
    ci = next(c for c in by_system["strong.jsonl"] if c["label"] == "95% CI")
    assert ci["text"].startswith("[") and ci["text"].endswith("]")  # the interval whole, not cut in half


def test_a_runs_summary_and_corrected_mean_on_a_phone(files: dict[str, Path], tmp_path: Path, browser: Browser) -> None:
    page = tmp_path / "strong.html"
    done = cli("report", str(files["strong"]), "--labels", str(files["labels"]), "-o", str(page))
    assert done.returncode == 0, done.stderr
    _open(browser, page)
    assert browser.evaluate("document.documentElement.scrollWidth") <= 390
    corrected = _cards(browser, "#corrected table.cards tbody tr")
    intervals = [c["text"] for card in corrected for c in card["cells"] if c["label"] == "95% CI"]
    assert len(intervals) == 3 and all(t.startswith("[") and t.endswith("]") for t in intervals)
    summary = _cards(browser, "table.cards tbody tr")
    assert any(c["label"] == "95% CI" and c["text"].startswith("[") for card in summary for c in card["cells"])
