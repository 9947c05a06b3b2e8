"""The HTML report: self-contained, shows the summary, histograms and evidence; renders in a real browser."""

from __future__ import annotations

import shutil
import struct
import subprocess
from pathlib import Path

import pytest

from helpers.claims import BATCH_REPLIES, CONTEXTS, batch_samples
from ragrecall import ContextRecall, FakeLLM, IDBasedContextRecall, NonLLMContextRecall, demo_dataset
from ragrecall.evaluation import EvaluationResult, evaluate
from ragrecall.report import render_report, write_report


@pytest.fixture(scope="module")
def result() -> EvaluationResult:
    samples = [*demo_dataset(), {"id": "broken"}]
    return evaluate(samples, [IDBasedContextRecall(), NonLLMContextRecall(scorer="partial")], show_progress=False)


def test_report_content(result: EvaluationResult) -> None:
    page = render_report(result, title="Retriever <v2>")
    assert page.startswith("<!doctype html>") and page.endswith("</html>")
    assert "<title>Retriever &lt;v2&gt;</title>" in page
    summary = result.summary["id_based_context_recall"]
    assert f"{summary.mean:.3f}" in page
    assert f"[{summary.ci_low:.3f}, {summary.ci_high:.3f}]" in page
    assert page.count("<svg") == 2
    assert "failed: MissingFieldError" in page
    visa = next(r for r in result.rows if r.sample_id == "en-visa-01").results["id_based_context_recall"]
    assert visa.evidence is not None and visa.evidence.missing_items()
    first_missing = visa.evidence.model_dump()["missing"][0]
    assert f"<code>{first_missing}</code>" in page
    assert "http://" not in page and "https://" not in page and "<script" not in page


def test_claim_evidence_shows_quotes_in_their_context_and_every_check() -> None:
    claims = evaluate(batch_samples(), [ContextRecall(FakeLLM(BATCH_REPLIES))], show_progress=False, max_concurrency=1)
    page = render_report(claims)
    # A verified quote is highlighted inside the passage it comes from.
    assert "retrieved #0:</span> <mark>Paris is the capital</mark> of France." in page
    assert "retrieved #0 (cited as #1):</span> <mark>Paris is the capital</mark>" in page
    assert "quote verified, citation corrected" in page
    # An unverified quote is shown plainly as such, with why.
    assert "unverified: quote not found in any context" in page
    assert "not found in any passage (cited retrieved #0): “Paris is a city of gold”" in page
    assert "coverage claim: a sentence no claim covered" in page
    assert "<s>Rome is in Italy.</s>" in page and "not grounded in the reference" in page
    assert page.count("<mark>") == 2 and CONTEXTS[1] not in page


def test_samples_sorted_lowest_first(result: EvaluationResult) -> None:
    page = render_report(result)

    def at(sample_id: str) -> int:
        return page.index(f"<div class='sid'>{sample_id}</div>")

    assert at("en-visa-01") < at("en-router-01") < at("broken")


def _browser() -> str | None:
    return shutil.which("chromium") or shutil.which("chromium-browser") or shutil.which("google-chrome")


@pytest.mark.skipif(_browser() is None, reason="no headless Chromium installed (Debian package: chromium)")
def test_report_renders_in_headless_chromium(result: EvaluationResult, tmp_path: Path) -> None:
    browser = _browser()
    assert browser is not None
    html = tmp_path / "report.html"
    write_report(result, html)
    flags = [
        "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync",
        f"--user-data-dir={tmp_path / 'profile'}", "--window-size=1200,1600",
    ]  # fmt: skip
    dom = subprocess.run(
        [browser, *flags, "--dump-dom", html.as_uri()], capture_output=True, text=True, timeout=120, check=True
    ).stdout
    summary = result.summary["non_llm_context_recall(scorer=partial)"]
    assert "Samples, lowest score first" in dom
    assert f"{summary.mean:.3f}" in dom and "en-router-01" in dom
    shot = tmp_path / "report.png"
    subprocess.run(
        [browser, *flags, f"--screenshot={shot}", html.as_uri()], capture_output=True, timeout=120, check=True
    )
    header = shot.read_bytes()[:24]
    assert header[:8] == b"\x89PNG\r\n\x1a\n"
    width, height = struct.unpack(">II", header[16:24])
    assert (width, height) == (1200, 1600)
    assert shot.stat().st_size > 20_000  # a blank page compresses to a few kilobytes


def test_a_report_that_fails_to_render_leaves_the_old_file_whole(tmp_path: Path) -> None:
    from ragrecall import Evidence, MetricResult
    from ragrecall.evaluation._result import SampleRow

    bad = MetricResult.scored("m", 1.0, Evidence(kind="custom", payload=object()))
    result = EvaluationResult([SampleRow(index=0, sample_id="a", results={"m": bad})], ["m"])
    path = tmp_path / "report.html"
    path.write_text("<p>last week's report</p>", encoding="utf-8")
    with pytest.raises(ValueError, match="serialize"):
        write_report(result, path)
    assert path.read_text(encoding="utf-8") == "<p>last week's report</p>"
    assert [p.name for p in tmp_path.iterdir()] == ["report.html"]
