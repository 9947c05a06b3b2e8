"""The report's filter and grouping in headless Chromium take any metadata name, even one an object inherits
(``toString``, ``constructor``): samples without it are grouped as "(none)", never as a function."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from helpers.cdp import Browser, browser_path
from ragrecall import IDBasedContextRecall, evaluate
from ragrecall.report import render_report

pytestmark = pytest.mark.skipif(browser_path() is None, reason="no headless Chromium installed (Debian: chromium)")


@pytest.fixture
def browser(tmp_path: Path) -> Iterator[Browser]:
    (tmp_path / "downloads").mkdir()
    chrome = Browser(tmp_path / "profile", tmp_path / "downloads")
    try:
        yield chrome
    finally:
        chrome.close()


def test_grouping_by_to_string(tmp_path: Path, browser: Browser) -> None:
    samples = [
        {
            "id": f"q{i}",
            "reference_context_ids": ["a", "b"],
            "retrieved_context_ids": ["a", "b"][: i % 3],
            **({"metadata": {"toString": "x" if i % 2 else "y", "constructor": "c"}} if i < 6 else {}),
        }
        for i in range(9)
    ]
    path = tmp_path / "report.html"
    path.write_text(render_report(evaluate(samples, [IDBasedContextRecall()], show_progress=False)), encoding="utf-8")
    browser.call("Page.navigate", {"url": path.as_uri()})
    browser.wait_for("document.readyState === 'complete' && !!document.getElementById('rr-group')")
    rows = browser.evaluate(
        "(() => { const g = document.getElementById('rr-group'); g.value = 'toString';"
        " document.getElementById('rr-filter').dispatchEvent(new Event('input', {bubbles: true}));"
        " return [...document.querySelectorAll('#rr-groups tbody tr')].map(tr => [...tr.children].slice(0, 2)"
        ".map(td => td.textContent)); })()"
    )
    assert rows == [["(none)", "3"], ["x", "3"], ["y", "3"]]
    shown = browser.evaluate(
        "(() => { const s = document.querySelector('[data-meta=constructor]'); s.value = 'c';"
        " document.getElementById('rr-filter').dispatchEvent(new Event('input', {bubbles: true}));"
        " return document.getElementById('rr-count').textContent; })()"
    )
    assert shown == "6 of 9 samples"
