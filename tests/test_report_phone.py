"""The report at any size and width, in headless Chromium: at 390 px a comparison's rows are cards that lead
with Δ, its interval, p and the verdict, inside the screen; a 1,000-sample report stays under 3 MB, filters by
a metric's value, failures and metadata, groups by metadata, and renders a closed sample when it is opened."""

from __future__ import annotations

import html
import json
import random
import re
from pathlib import Path
from typing import Any

import pytest

from ragrecall import demo_dataset, evaluate
from ragrecall.demo import demo_metrics
from ragrecall.report import render_report, run_labels
from test_report_browser import _browser, chromium

pytestmark = pytest.mark.skipif(_browser() is None, reason="no headless Chromium installed (Debian package: chromium)")

TOPICS = ("law", "med", "geo", "tech")

# Run inside the page (in an iframe exactly ``width`` wide): sets the filter, opens a closed row, then reports
# what the page shows into the parent document, which --dump-dom returns.
PROBE = """<script>
setTimeout(async () => {
  const $ = id => document.getElementById(id);
  const box = el => { const b = el.getBoundingClientRect(); return {top: b.top, left: b.left, right: b.right}; };
  const cards = [...document.querySelectorAll('table.deltas tbody tr')].map(tr =>
    Object.fromEntries([...tr.children].map(td => [td.className.split(' ').pop(), box(td)])));
  $('rr-metric').value = 'nDCG@10'; $('rr-below').value = '0.5';
  document.querySelector('[data-meta=topic]').value = 'law'; $('rr-group').value = 'difficulty';
  $('rr-filter').dispatchEvent(new Event('input', {bubbles: true}));
  const shown = [...document.querySelectorAll('details.sample')].filter(d => !d.hidden);
  const closed = shown.find(d => !d.open); closed.open = true;
  await new Promise(r => setTimeout(r, 800));
  const r = {width: innerWidth, pageWidth: document.documentElement.scrollWidth, cards,
    count: $('rr-count').textContent, shown: shown.map(d => d.id), opened: closed.id,
    filled: !!closed.querySelector('.body .inputs .passage'),
    groups: [...$('rr-groups').querySelectorAll('tbody tr')].map(tr => [...tr.children].map(td => td.textContent))};
  parent.document.body.insertAdjacentHTML('beforeend', '<pre id="probe">' + JSON.stringify(r) + '</pre>');
}, 200);
</script>"""


@pytest.fixture(scope="module")
def runs() -> tuple[Any, Any]:
    rng = random.Random(7)
    words = [f"w{i}" for i in range(20_000)]
    demo = list(demo_dataset())
    samples = [
        demo[i % len(demo)].model_copy(
            update={
                "id": f"s{i}",
                # Random words: text that compresses worse than any prose, so the size bound is not flattered.
                "retrieved_contexts": [
                    " ".join(rng.choices(words, k=60)) for _ in demo[i % len(demo)].retrieved_contexts or []
                ],
                "metadata": {"topic": rng.choice(TOPICS), "difficulty": rng.randint(1, 3)},
            }
        )
        for i in range(1000)
    ]
    weaker = [s.model_copy(update={"retrieved_context_ids": (s.retrieved_context_ids or [])[:1]}) for s in samples]
    return evaluate(weaker, demo_metrics(), show_progress=False), evaluate(samples, demo_metrics(), show_progress=False)


@pytest.fixture(scope="module")
def page(runs: tuple[Any, Any]) -> str:
    base, new = runs
    return render_report(new, base=base, names=run_labels("runs/baseline.jsonl", "runs/retriever-v2.jsonl.gz"))


def probe(tmp_path: Path, page: str, width: int) -> dict[str, Any]:
    frame = html.escape(page.replace("</body>", PROBE + "</body>"), quote=True)
    path = tmp_path / f"probe{width}.html"
    path.write_text(
        f"<!doctype html><body style='margin:0'><iframe srcdoc=\"{frame}\" "
        f"style='width:{width}px;height:1000px;border:0;display:block'></iframe></body>",
        encoding="utf-8",
    )
    dom = chromium(tmp_path, max(width, 800), 1100, "--virtual-time-budget=10000", "--dump-dom", path.as_uri()).stdout
    found = re.findall(r'<pre id="probe">(\{.*?)</pre>', dom, re.S)
    assert found, dom[-2000:]
    result: dict[str, Any] = json.loads(html.unescape(found[-1]))
    return result


def test_a_thousand_samples_stay_under_three_megabytes(page: str) -> None:
    size = len(page.encode("utf-8"))
    assert size <= 3_000_000, size
    assert page.count("<details class='sample'") == 1000 and page.count(" data-lazy>") == 990


def test_at_390_px_the_comparison_leads_with_delta_interval_p_and_verdict(page: str, tmp_path: Path) -> None:
    m = probe(tmp_path, page, 390)
    assert m["width"] == 390 and m["pageWidth"] <= 390, m["pageWidth"]
    assert len(m["cards"]) == 6  # one per demo metric
    for card in m["cards"]:
        # Stacked in this order, each inside the screen, the run means and pair count after them.
        tops = [card[k]["top"] for k in ("m", "d", "ci", "p", "v", "a", "b", "n")]
        assert tops == sorted(tops) and len(set(tops)) == len(tops), card
        assert all(card[k]["left"] >= 0 and card[k]["right"] <= 390 for k in card), card
    assert "retriever-v2" in page and "runs/" not in page.split("<section id='run'>")[0]


def test_the_filter_keeps_what_it_says_and_groups_by_metadata(runs: tuple[Any, Any], page: str, tmp_path: Path) -> None:
    _, new = runs
    kept = [
        row
        for row in new.rows
        if row.sample is not None
        and row.sample.metadata["topic"] == "law"
        and (v := row.results["nDCG@10"].value) is not None
        and v < 0.5
    ]
    m = probe(tmp_path, page, 1200)
    assert m["count"] == f"{len(kept)} of 1000 samples" and 0 < len(kept) < 1000
    assert sorted(m["shown"]) == sorted(f"s{row.index}" for row in kept)
    by_level = {d: [r for r in kept if r.sample.metadata["difficulty"] == d] for d in (1, 2, 3)}
    assert [(g[0], int(g[1])) for g in m["groups"]] == [(str(d), len(rs)) for d, rs in by_level.items() if rs]
    # A closed sample, once opened, is rendered from the page's compressed store with its passages.
    assert m["filled"] and m["opened"] in m["shown"]


def test_run_labels_are_names_not_paths() -> None:
    assert run_labels("out/baseline.jsonl", "out/v2.jsonl.gz") == ("baseline", "v2")
    assert run_labels("runs/a/results.jsonl", "runs/b/results.jsonl") == ("a", "b")
    assert run_labels("results.jsonl", "results.jsonl") == ("base", "new")
