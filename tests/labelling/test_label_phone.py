"""The labelling page on a 390 px phone, in headless Chromium: a compact header, the claim and large answer
buttons in a bar that stays on screen while one reads the last passage, answers given by taps, a name field that
Enter leaves so that the next key answers, and page data that no sample text or title can break."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from helpers.cdp import Browser, browser_path
from ragrecall import ContextRecall, OfflineJudge, demo_dataset, evaluate
from ragrecall.labelling import choose, page_data, render_label_page

pytestmark = pytest.mark.skipif(browser_path() is None, reason="no headless Chromium installed (Debian: chromium)")

TRAP = "{{SCRIPT}} {{DATA}} </script><script>alert(1)</script>"


@pytest.fixture(scope="module")
def page(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, Any]]:
    samples = []
    for sample in demo_dataset():
        contexts = list(sample.retrieved_contexts or [])
        long = [f"{text} " + " ".join(["More text of this passage."] * 40) for text in contexts]
        samples.append(sample.model_copy(update={"retrieved_contexts": [*long, f"A passage quoting {TRAP}"]}))
    result = evaluate(samples, [ContextRecall(OfflineJudge())], show_progress=False)
    data = page_data(result, choose(result, 4, seed=1), "context_recall", source=f"runs/{TRAP}.jsonl")
    folder = tmp_path_factory.mktemp("phone")
    path = folder / "label.html"
    path.write_text(render_label_page(data, title=f"labels {TRAP}"), encoding="utf-8")
    return path, data


@pytest.fixture
def browser(tmp_path: Path) -> Iterator[Browser]:
    (tmp_path / "downloads").mkdir()
    chrome = Browser(tmp_path / "profile", tmp_path / "downloads")
    try:
        yield chrome
    finally:
        chrome.close()


def _box(browser: Browser, selector: str) -> dict[str, float]:
    box: dict[str, float] = browser.evaluate(
        f"(() => {{ const b = document.querySelector({json.dumps(selector)}).getBoundingClientRect(); "
        "return {top: b.top, bottom: b.bottom, left: b.left, right: b.right, height: b.height}; })()"
    )
    return box


def test_the_data_is_embedded_once_and_no_text_breaks_it(page: tuple[Path, dict[str, Any]]) -> None:
    path, data = page
    html = path.read_text(encoding="utf-8")
    assert html.count('<script type="application/json" id="data">') == 1
    embedded = html.partition('<script type="application/json" id="data">')[2].partition("</script>")[0]
    assert json.loads(embedded) == data  # the trap text inside stays text
    assert data["source"] == f"runs/{TRAP}.jsonl"


def test_on_a_phone_the_claim_and_answers_stay_reachable_and_taps_answer(
    page: tuple[Path, dict[str, Any]], browser: Browser
) -> None:
    path, data = page
    browser.phone()
    browser.open(path.as_uri())
    assert browser.evaluate("innerWidth") == 390
    first = data["samples"][0]
    assert browser.evaluate("document.getElementById('claim').textContent") == first["claims"][0]["claim"]
    assert browser.evaluate("document.documentElement.scrollWidth") <= 390  # nothing wider than the screen
    header = _box(browser, "header.bar")
    assert header["height"] <= 0.1 * 844, header  # a compact header
    # Read down to the last passage: the bar with the claim and the answers is still on screen.
    browser.evaluate("document.querySelector('#card .passage:last-of-type').scrollIntoView()")
    browser.evaluate("scrollTo(0, document.documentElement.scrollHeight)")
    assert browser.evaluate("scrollY") > 500  # the page did scroll
    for selector in ("#claim", "#answer-yes", "#answer-no", "#answer-skip"):
        box = _box(browser, selector)
        assert box["top"] >= 0 and box["bottom"] <= 844 and box["left"] >= 0 and box["right"] <= 390, (selector, box)
    assert _box(browser, "#answer-yes")["height"] >= 44  # a thumb's target
    last = _box(browser, "#card .passage:last-of-type")
    assert last["bottom"] <= _box(browser, "#answerbar")["top"] + 1  # the bar does not hide the last passage
    # Taps answer, as keys do.
    browser.tap("#answer-yes")
    browser.tap("#answer-no")
    text = browser.evaluate("document.getElementById('progress-text').textContent")
    assert text.startswith("2 of ") and "(1 yes, 1 no, 0 skipped)" in text
    assert TRAP in browser.evaluate("document.title")  # the title is text, whatever it holds


def test_enter_leaves_the_name_field_so_keys_answer(page: tuple[Path, dict[str, Any]], browser: Browser) -> None:
    path, _ = page
    browser.open(path.as_uri())
    browser.evaluate("document.getElementById('who').focus()")
    for key in "Ann":
        browser.press(key.lower())
    assert browser.evaluate("document.getElementById('who').value") == "ann"  # typing a name types
    browser.press("y")  # a y inside a name is part of the name
    assert browser.evaluate("document.getElementById('who').value") == "anny"
    assert browser.evaluate("document.getElementById('progress-text').textContent").startswith("0 of ")
    browser.press("Enter")
    assert browser.evaluate("document.activeElement.id") != "who"
    browser.press("y")
    assert browser.evaluate("document.getElementById('progress-text').textContent").startswith("1 of ")
    assert browser.evaluate("document.getElementById('who').value") == "anny"
