"""The report in a real browser (headless Chromium) at desktop and phone width: layout measured in the DOM,
then screenshots checked where the failures, the comparison and a sample's inputs were measured to be."""

from __future__ import annotations

import html
import json
import re
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest

from ragrecall.demo import demo_dataset, demo_metrics
from ragrecall.evaluation import evaluate
from ragrecall.report import render_report

Image = pytest.importorskip("PIL.Image", reason="the screenshots are read with Pillow (in the dev extra)")

# Appended to a copy of the report (whose own script only filters and opens rows): measures the laid-out page
# and writes the numbers into the enclosing page's DOM, which --dump-dom returns. The copy is shown in an iframe exactly
# ``width`` pixels wide, because headless Chromium lays out --dump-dom pages at least 500 pixels wide; its
# screenshots do use the window's width, and the pixel checks below find what was measured where it was.
MEASURE = """<script>
(() => {
  const box = el => {
    if (!el || !el.getClientRects().length) return null;
    const b = el.getBoundingClientRect();
    return {top: b.top + scrollY, left: b.left + scrollX, width: b.width, height: b.height};
  };
  const q = s => box(document.querySelector(s));
  const shown = s => [...document.querySelectorAll(s)].filter(el => el.getClientRects().length > 0).length;
  const outside = [...document.querySelectorAll('body *')].filter(el => {
    const b = el.getBoundingClientRect();
    return b.width > 0 && b.right > innerWidth + 0.5 && !el.closest('.scroll');
  }).map(el => el.tagName.toLowerCase() + '.' + el.className);
  const r = {
    viewport: innerWidth, pageWidth: document.documentElement.scrollWidth,
    pageHeight: document.documentElement.scrollHeight,
    failures: q('#failures'), cause: q('#failures .cause'), failureRows: shown('#failures tbody tr'),
    comparison: q('#comparison'), deltaRows: shown('#comparison > .scroll tbody tr'), summary: q('#summary'),
    inputs: q('.sample[open] .inputs'), verdicts: q('.sample[open] .verdicts'),
    question: q('.sample[open] .inputs .text'), pn: q('.sample[open] .passage .pn'), mark: q('.passage mark'),
    scrolling: [...document.querySelectorAll('.scroll')].filter(el => el.scrollWidth > el.clientWidth + 1).length,
    outside: outside.slice(0, 5),
  };
  parent.document.body.insertAdjacentHTML('beforeend', '<pre id="measure">' + JSON.stringify(r) + '</pre>');
})();
</script>"""

RED_BORDER = (240, 68, 56)  # .cause's left border
BADGE = (238, 244, 255)  # a passage number's background
MARK = (254, 240, 199)  # a highlighted quote


def _browser() -> str | None:
    return shutil.which("chromium") or shutil.which("chromium-browser") or shutil.which("google-chrome")


pytestmark = pytest.mark.skipif(_browser() is None, reason="no headless Chromium installed (Debian package: chromium)")


@pytest.fixture(scope="module")
def page() -> str:
    """A report of a run with a failure, compared with a run that retrieved less."""
    samples = list(demo_dataset())[:5]
    weaker = [
        s.model_copy(
            update={
                "retrieved_contexts": (s.retrieved_contexts or [])[:1],
                "retrieved_context_ids": (s.retrieved_context_ids or [])[:1],
            }
        )
        for s in samples
    ]
    new = evaluate([*samples, {"id": "broken"}], demo_metrics(), show_progress=False)
    base = evaluate([*weaker, {"id": "broken"}], demo_metrics(), show_progress=False)
    assert len(new.failures) == len(demo_metrics())  # the broken sample fails every metric
    return render_report(new, title="Retriever v2 <b>", base=base, names=("v1.jsonl", "v2.jsonl"))


def chromium(tmp_path: Path, width: int, height: int, *args: str) -> subprocess.CompletedProcess[str]:
    browser = _browser()
    assert browser is not None
    flags = [
        "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync",
        "--hide-scrollbars", "--force-device-scale-factor=1",
        f"--user-data-dir={tmp_path / 'profile'}", f"--window-size={width},{height}",
    ]  # fmt: skip
    return subprocess.run([browser, *flags, *args], capture_output=True, text=True, timeout=120, check=True)


def measure(tmp_path: Path, page: str, width: int) -> dict[str, Any]:
    probe = tmp_path / f"probe{width}.html"
    frame = html.escape(page.replace("</body>", MEASURE + "</body>"), quote=True)
    probe.write_text(
        f"<!doctype html><body style='margin:0'><iframe srcdoc=\"{frame}\" "
        f"style='width:{width}px;height:1000px;border:0;display:block'></iframe></body>",
        encoding="utf-8",
    )
    dom = chromium(tmp_path, max(width, 800), 1100, "--dump-dom", probe.as_uri()).stdout
    found = re.findall(r'<pre id="measure">(\{.*?)</pre>', dom, re.S)  # the script's own text holds no "{"
    assert found, dom[-2000:]
    result: dict[str, Any] = json.loads(html.unescape(found[-1]))
    return result


def screenshot(tmp_path: Path, page: str, width: int, height: int) -> Any:
    report = tmp_path / "report.html"
    report.write_text(page, encoding="utf-8")
    shot = tmp_path / f"report-{width}.png"
    chromium(tmp_path, width, height, f"--screenshot={shot}", report.as_uri())
    assert shot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    return Image.open(shot).convert("RGB")


def crop(image: Any, box: dict[str, float]) -> Any:
    """The part of the screenshot inside ``box`` (page coordinates), which must lie within the screenshot."""
    edges = (int(box["left"]), int(box["top"]), int(box["left"] + box["width"]), int(box["top"] + box["height"]))
    assert edges[0] >= 0 and edges[1] >= 0 and edges[2] <= image.width and edges[3] <= image.height, (edges, image.size)
    return image.crop(edges)


def colour_in(image: Any, box: dict[str, float], colour: tuple[int, int, int]) -> int:
    """Pixels of ``colour`` inside ``box``."""
    region = crop(image, box)
    return sum(
        count
        for count, rgb in region.getcolors(1 << 20)
        if all(abs(a - b) <= 3 for a, b in zip(rgb, colour, strict=True))
    )


def dark_in(image: Any, box: dict[str, float]) -> int:
    """Text-dark pixels inside ``box``: a section that rendered shows its text."""
    region = crop(image, box)
    return sum(count for count, rgb in region.getcolors(1 << 20) if sum(rgb) < 300)


@pytest.mark.parametrize("width", [1400, 390])
def test_report_at_desktop_and_phone_width(page: str, tmp_path: Path, width: int) -> None:
    m = measure(tmp_path, page, width)
    # The page fits the screen: nothing but the scrolling table boxes is wider than the viewport.
    assert m["viewport"] == width and m["pageWidth"] <= width, m
    assert m["outside"] == []
    # It opens with the failures, every failed pair shown (not collapsed), then the comparison, then the summary.
    assert m["failures"]["top"] < m["comparison"]["top"] < m["summary"]["top"]
    assert m["failures"]["top"] < 400 and m["failureRows"] == m["deltaRows"] == len(demo_metrics())
    # The lowest sample is open with its inputs: question, numbered passages, a highlighted quote.
    for key in ("inputs", "verdicts", "question", "pn", "mark"):
        assert m[key] is not None and m[key]["height"] > 0, key
    if width == 1400:  # inputs and verdicts side by side
        assert m["verdicts"]["left"] > m["inputs"]["left"] + m["inputs"]["width"] - 1
        assert m["scrolling"] == 0
    else:  # stacked, and the wide tables scroll inside their boxes instead of widening the page
        assert m["verdicts"]["top"] >= m["inputs"]["top"] + m["inputs"]["height"] - 1
        assert m["scrolling"] >= 1

    height = min(int(m["pageHeight"]), 16000)
    image = screenshot(tmp_path, page, width, height)
    assert image.size == (width, height)
    assert colour_in(image, {**m["cause"], "width": 4}, RED_BORDER) >= m["cause"]["height"] * 3
    assert dark_in(image, m["comparison"]) > 2000 and dark_in(image, m["failures"]) > 1000
    assert dark_in(image, m["question"]) > 200
    assert colour_in(image, m["pn"], BADGE) > 20
    assert colour_in(image, m["mark"], MARK) > 50


def test_the_report_is_one_file_needing_nothing_else(page: str) -> None:
    # Its scripts (the filter, the rows' figures, the closed rows' bodies) are inline: none is loaded.
    assert not re.search(r"<script[^>]*\bsrc", page) and "<link" not in page and "url(" not in page
    assert not re.search(r"(src|href)\s*=\s*['\"]?[a-z]+:", page)
    assert "<title>Retriever v2 &lt;b&gt;</title>" in page
