"""The labelling page in a real headless Chromium: real key presses, the judge hidden until answered, progress
kept across a reload, "Download labels" caught as a file, and that file read back by ``calibrate``."""

from __future__ import annotations

import json
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from helpers.cdp import Browser, browser_path
from ragrecall import ContextRecall, OfflineJudge, demo_dataset, evaluate

pytestmark = pytest.mark.skipif(browser_path() is None, reason="no headless Chromium installed (Debian: chromium)")

SCRIPT = Path(sys.executable).with_name("ragrecall")


def cli(*args: str) -> subprocess.CompletedProcess[str]:
    if not SCRIPT.exists():
        pytest.skip(f"the console script is not installed next to {sys.executable}")
    return subprocess.run([str(SCRIPT), *args], capture_output=True, text=True, timeout=300)


@pytest.fixture(scope="module")
def run(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("run") / "results.jsonl"
    evaluate(demo_dataset(), [ContextRecall(OfflineJudge())], show_progress=False).to_jsonl(out)
    return out


@pytest.fixture
def browser(tmp_path: Path) -> Iterator[Browser]:
    (tmp_path / "downloads").mkdir()
    chrome = Browser(tmp_path / "profile", tmp_path / "downloads")
    try:
        yield chrome
    finally:
        chrome.close()


def answered(browser: Browser) -> str:
    text: str = browser.evaluate("document.getElementById('progress-text').textContent")
    return text


def test_label_keys_reload_download_and_calibrate(run: Path, tmp_path: Path, browser: Browser) -> None:
    page = tmp_path / "label.html"
    done = cli("label", str(run), "-n", "10", "--seed", "3", "--strategy", "stratified", "-o", str(page))
    assert done.returncode == 0, done.stderr
    html = page.read_text(encoding="utf-8")
    head, _, rest = html.partition('<script type="application/json" id="data">')
    embedded, _, tail = rest.partition("</script>")
    for needle in ("http://", "https://", "<link", " src=", "fetch(", "XMLHttpRequest"):
        assert needle not in head + tail  # one file, nothing fetched (the data may quote any text)
    assert "default-src 'none'" in head  # and the browser is told to fetch nothing
    data = json.loads(embedded)
    total = sum(len(s["claims"]) for s in data["samples"])
    assert len(data["samples"]) == 10 and total > 10

    browser.open(page.as_uri())
    first = data["samples"][0]
    assert browser.evaluate("document.getElementById('claim').textContent") == first["claims"][0]["claim"]
    assert browser.evaluate("document.getElementById('judge') === null")  # hidden until answered
    texts = browser.evaluate("[...document.querySelectorAll('.passage')].map(p => p.textContent)")
    assert len(texts) == len(first["retrieved_contexts"])
    assert first["user_input"] in browser.evaluate("document.getElementById('card').textContent")

    # The answers: claim k is supported when k % 3 != 1, the second claim is skipped.
    def key_for(k: int) -> str:
        return "s" if k == 1 else ("n" if k % 3 == 1 else "y")

    for k in range(3):
        browser.press(key_for(k))
    assert answered(browser) == f"3 of {total} claims answered (2 yes, 0 no, 1 skipped)"
    browser.press("ArrowLeft")  # back to the third claim: answered, so the judge can be shown
    assert browser.evaluate("document.getElementById('judge').hidden") is True
    browser.evaluate("document.getElementById('toggle-judge').click()")
    assert browser.evaluate("document.getElementById('judge').hidden") is False
    assert "judge: " in browser.evaluate("document.getElementById('judge').textContent")
    browser.press("ArrowRight")

    browser.reload()  # kept in the browser's storage
    assert answered(browser).startswith(f"3 of {total} claims answered")
    assert browser.evaluate("document.getElementById('where').textContent").startswith(f"claim 4 of {total}")

    for k in range(3, total):
        browser.press(key_for(k))
    assert answered(browser).startswith(f"{total} of {total} claims answered")
    browser.evaluate("document.getElementById('who').value = 'A. Person'")
    browser.evaluate("document.getElementById('who').dispatchEvent(new Event('input'))")
    browser.evaluate("document.getElementById('download').click()")
    target = tmp_path / "downloads" / "labels.jsonl"
    end = time.monotonic() + 20
    while not target.exists() and time.monotonic() < end:
        time.sleep(0.1)
    assert target.exists(), list((tmp_path / "downloads").iterdir())

    rows = [json.loads(line) for line in target.read_text(encoding="utf-8").splitlines()]
    assert [r["id"] for r in rows] == [s["id"] for s in data["samples"]]
    k = 0
    for row, sample in zip(rows, data["samples"], strict=True):
        expected = []
        for claim in sample["claims"]:
            if key_for(k) != "s":
                expected.append((claim["claim"], key_for(k) == "y"))
            k += 1
        assert list(zip(row["reference_claims"], row["claim_labels"], strict=True)) == expected
        assert row["metadata"]["inclusion_probability"] == sample["inclusion_probability"]
        assert row["metadata"]["labelled_by"] == "A. Person"
        assert row["retrieved_contexts"] == sample["retrieved_contexts"]
        # What the person saw, as the run's digests: the labels pair with a run only where it judged the same.
        assert row["metadata"]["fingerprint"] == sample["fingerprint"]
        assert set(sample["fingerprint"]) >= {"retrieved_contexts", "reference"}
    assert rows[0]["metadata"]["skipped_claims"] == 1

    done = cli("calibrate", str(target), "--llm", "offline", "--results", str(run), "--json")
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout)
    assert result["labelled_claims"] == total - 1
    corrected = result["corrected"]
    assert corrected["n_labelled"] == 10 and corrected["n_unlabelled"] == 2 and corrected["weighted"] is True


def test_nuggets_are_labelled_with_their_importance_and_written_back_as_reference_nuggets(
    tmp_path: Path, browser: Browser
) -> None:
    from ragrecall import NuggetRecall

    nuggets = [{"text": "The Eiffel Tower is 330 metres tall", "importance": "vital"}, {"text": "It is yellow"}]
    data = [
        {"id": f"t{i}", "retrieved_contexts": ["The Eiffel Tower is 330 metres tall."], "reference_nuggets": nuggets}
        for i in range(2)
    ]
    run = tmp_path / "results.jsonl"
    evaluate(data, [NuggetRecall(OfflineJudge())], show_progress=False).to_jsonl(run)
    page = tmp_path / "label.html"
    done = cli("label", str(run), "-n", "2", "-o", str(page))
    assert done.returncode == 0, done.stderr
    browser.open(page.as_uri())
    assert browser.evaluate("document.querySelector('#answerbar-inner .label').textContent") == "nugget · vital"
    for key in ("y", "n", "y", "y"):
        browser.press(key)
    browser.evaluate("document.getElementById('download').click()")
    target = tmp_path / "downloads" / "labels.jsonl"
    end = time.monotonic() + 20
    while not target.exists() and time.monotonic() < end:
        time.sleep(0.1)
    rows = [json.loads(line) for line in target.read_text(encoding="utf-8").splitlines()]
    assert [r["reference_nuggets"] for r in rows] == [
        [{"text": n["text"], "importance": n.get("importance", "vital")} for n in nuggets]
    ] * 2
    assert [r["claim_labels"] for r in rows] == [[True, False], [True, True]]
    assert all("reference_claims" not in r for r in rows)
