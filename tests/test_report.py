"""The HTML report: self-contained, opens with failures by cause, states the run, shows every sample's inputs
with the supporting passages highlighted and numbered from 1, and degrades gracefully on older results."""

from __future__ import annotations

import io
import json
import re
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

import pytest

from helpers.claims import BATCH_CONTEXTS, BATCH_REPLIES, batch_samples, verdict
from helpers.report_page import closed_bodies, inflated
from ragrecall import (
    ContextRecall,
    Evidence,
    FakeLLM,
    IDBasedContextRecall,
    MetricResult,
    NonLLMContextRecall,
    Usage,
    demo_dataset,
)
from ragrecall.evaluation import EvaluationResult, RunInfo, SampleRow, evaluate
from ragrecall.report import render_report, write_report
from ragrecall.schema import Sample


@pytest.fixture(scope="module")
def result() -> EvaluationResult:
    samples = [*demo_dataset(), {"id": "broken"}]
    return evaluate(
        samples,
        [IDBasedContextRecall(), NonLLMContextRecall(scorer="partial", name="non_llm_context_recall")],
        show_progress=False,
    )


def section(page: str, name: str) -> str:
    """The HTML of one ``<section id=name>``."""
    match = re.search(rf"<section id='{name}'>(.*?)</section>", page, re.S)
    assert match, f"no section {name}"
    return match.group(1)


def sample_html(page: str, index: int) -> str:
    """The HTML of one sample's entry in the samples section, as it shows once opened."""
    page = inflated(page)
    start = page.index(f"<details class='sample' id='s{index}'")
    return page[start : page.index("</details>", start)]


def test_report_content(result: EvaluationResult) -> None:
    page = render_report(result, title="Retriever <v2>")
    assert page.startswith("<!doctype html>") and page.endswith("</html>")
    assert "<title>Retriever &lt;v2&gt;</title>" in page
    assert "<meta name='viewport' content='width=device-width, initial-scale=1'>" in page
    summary = result.summary["id_based_context_recall"]
    assert f"{summary.mean:.3f}" in page
    assert f"[{summary.ci_low:.3f}, {summary.ci_high:.3f}]" in page
    assert page.count("<svg") == 2
    visa = next(r for r in result.rows if r.sample_id == "en-visa-01").results["id_based_context_recall"]
    assert visa.evidence is not None and visa.evidence.missing_items()
    first_missing = visa.evidence.model_dump()["missing"][0]
    assert f"<code>{first_missing}</code>" in page
    # Self-contained: nothing is fetched, the scripts are inline (the demo passages' own URLs are text).
    assert not re.search(r"(src|href)\s*=\s*['\"]?[a-z]+:", page)
    assert not re.search(r"<script[^>]*\bsrc", page)
    assert "<link" not in page and "url(" not in page and "@import" not in page


def test_sections_open_with_failures_grouped_by_cause(result: EvaluationResult) -> None:
    page = render_report(result)
    order = [page.index(f"<section id='{name}'>") for name in ("failures", "summary", "run", "samples")]
    assert order == sorted(order) and page.index("<h1>") < order[0]
    failures = section(page, "failures")
    assert "2 of 26 sample-metric pairs failed</strong>, from 2 causes" in failures
    # The cause is the message without the sample's location; every pair is listed, linked to its sample.
    assert (
        "<span class='miss'>MissingFieldError</span>: field &#x27;retrieved_context_ids&#x27;: this metric" in failures
    )
    assert "<span class='miss'>MissingFieldError</span>: field &#x27;retrieved_contexts&#x27;: this metric" in failures
    assert failures.count("<a href='#s12'>broken</a>") == 2 and "<details" not in failures
    # The failed sample is open below, with its failure in place.
    assert "<details class='sample' id='s12' data-i='12' open>" in page
    assert "failed: MissingFieldError: sample 12 (id=&#x27;broken&#x27;)" in page


def test_a_run_without_failures_says_so_and_lists_unscorable_by_reason() -> None:
    samples = [
        {"id": "a", "retrieved_context_ids": ["x"], "reference_context_ids": ["x"]},
        {"id": "b", "retrieved_context_ids": ["x"], "reference_context_ids": []},
        {"id": "c", "retrieved_context_ids": [], "reference_context_ids": []},
    ]
    failures = section(render_report(evaluate(samples, [IDBasedContextRecall()], show_progress=False)), "failures")
    assert "No failures: all 3 sample-metric pairs were scored or unscorable." in failures
    assert "Unscorable: 2 pairs with nothing to measure" in failures
    assert re.search(
        r"id_based_context_recall</strong>: [^<]+ \(2\): <a href='#s1'>b</a>, <a href='#s2'>c</a>", failures
    )


def test_inputs_are_shown_with_passages_numbered_from_1(result: EvaluationResult) -> None:
    page = render_report(result)
    router = next(r for r in result.rows if r.sample_id == "en-router-01")
    assert router.sample is not None and router.sample.retrieved_contexts and router.sample.user_input
    body = sample_html(page, router.index)
    assert f"<h4>Question</h4><p class='text'>{router.sample.user_input}</p>" in body
    assert "<h4>Reference</h4>" in body and "<h4>Reference passages</h4>" in body
    for n, text in enumerate(router.sample.retrieved_contexts, start=1):
        assert f"<div class='passage' id='s{router.index}-p{n}'><div class='meta'><span class='pn'>{n}</span>" in body
        assert text.replace("'", "&#x27;") in body
    assert f"id='s{router.index}-p0'" not in body
    # The string metric's verdict names the passages 1-based and links them; reference passages too.
    evidence = router.results["non_llm_context_recall"].evidence
    assert evidence is not None
    match = evidence.model_dump()["matches"][1]
    best = match["best_retrieved_index"] + 1
    assert f"reference passage 2: recalled (closest: <a href='#s{router.index}-p{best}'>passage {best}</a>" in body
    assert f"recalled: closest is passage {best} (1.00)" in body
    # Retrieved IDs sit with their passages, marked by relevance.
    ids = router.sample.retrieved_context_ids or []
    assert f"<code>{ids[0]}</code> <span class='ok'>relevant (grade" in body


def test_claim_evidence_highlights_the_quoted_span_in_its_passage() -> None:
    claims = evaluate(batch_samples(), [ContextRecall(FakeLLM(BATCH_REPLIES))], show_progress=False, max_concurrency=1)
    page = render_report(claims)
    honest = sample_html(page, 0)
    # In the inputs: the verified quote marked inside passage 1, followed by the claim's number.
    assert (
        "<span class='pn'>1</span> <span class='ok'>supports claim 1</span></div><p class='text'>"
        "<mark title='context_recall, claim 1: Paris is the capital of France.'>Paris is the capital</mark>"
        "<sup class='cl'>1</sup> city of France.</p>" in honest
    )
    assert f"<span class='pn'>2</span> </div><p class='text'>{BATCH_CONTEXTS[1]}</p>" in honest
    # In the verdicts: the same passage, numbered 1 and linked.
    # The tag's title says what the level promises (the legend's words).
    assert (
        "by <a href='#s0-p1'>passage 1</a> · <span class='ok' title='the judge&#x27;s quotes are in the passages it "
        "cites, and the sentences holding them passed every check: polarity, subject, numbers, units, ranges, "
        "several quotes adding up, predicate'>quote verified</span>" in honest
    )
    assert "<a href='#s0-p1'>passage 1</a>:</span> <mark>Paris is the capital</mark> city of France." in honest
    misplaced = sample_html(page, 1)
    assert "<a href='#s1-p1'>passage 1</a> (cited as <a href='#s1-p2'>passage 2</a>):</span>" in misplaced
    assert "quote verified, citation corrected" in misplaced
    # An unverified quote is shown plainly as such, with why, and marks nothing.
    invented = sample_html(page, 2)
    assert "unverified: quote not found in any context" in invented and "<mark" not in invented
    assert "not found in any passage (cited <a href='#s2-p1'>passage 1</a>): “Paris is a city of gold”" in invented
    assert "coverage claim: a sentence no claim covered" in page
    assert "<s>Rome is in Italy.</s>" in page and "not grounded in the reference" in page
    # An "unsupported" the judge kept although passage 1 holds every word of the claim is shown as contested.
    assert "<span class='warn' title='the judge said unsupported and kept to it" in sample_html(page, 4)
    assert "'>contested: a passage states the claim</span>" in sample_html(page, 4)
    assert "retrieved #" not in page and "passage 0" not in page


def test_overlapping_quotes_merge_into_one_mark_naming_both_claims() -> None:
    from ragrecall.rendering import Span
    from ragrecall.report._inputs import _highlighted

    text = "alpha beta gamma <delta>"
    spans = [Span(0, 10, "1", "claim 1"), Span(6, 16, "2", "claim 2"), Span(30, 40, "3", "outside")]
    assert _highlighted(text, spans) == (
        "<mark title='claim 1'>alpha </mark><mark title='claim 1; claim 2'>beta</mark><sup class='cl'>1</sup>"
        "<mark title='claim 2'> gamma</mark><sup class='cl'>2</sup> &lt;delta&gt;"
    )


def test_run_details_state_model_prompts_settings_date_tokens_and_cost() -> None:
    usage = Usage(requests=1, prompt_tokens=1000, completion_tokens=200, cost_usd=0.0125)
    llm = FakeLLM(BATCH_REPLIES[:2], usage=usage)
    result = evaluate(batch_samples()[:1], [ContextRecall(llm)], show_progress=False)
    assert result.run is not None
    page = render_report(result)
    top = page[: page.index("<section")]
    date = result.run.started_at.strftime("%Y-%m-%d %H:%M UTC")
    assert f"run {date}" in top and "model fake" in top
    assert "2 LLM requests (0 cached) · 2,000 prompt + 400 completion tokens · cost $0.0250" in top
    run = section(page, "run")
    assert f"<dt>date</dt><dd>{date}</dd>" in run and "<dt>ragrecall</dt><dd>0.1.0</dd>" in run
    assert "<td>context_recall</td><td>ContextRecall</td><td>fake</td>" in run
    assert "context_recall/decompose.en/3<br>context_recall/judge.en/4" in run
    assert "mode=&quot;claims&quot;" in run and "quote_threshold=0.9" in run
    assert "<td class=num>2,400</td><td class=num>$0.0250</td>" in run


def older(result: EvaluationResult) -> str:
    """``result`` as a results file written before rows carried inputs and files carried run details."""
    lines = []
    for row in result.rows:
        record = json.loads(row.model_dump_json())
        del record["sample"]
        lines.append(json.dumps(record))
    return "\n".join(lines) + "\n"


def test_results_from_older_files_still_make_a_report() -> None:
    claims = evaluate(batch_samples()[:1], [ContextRecall(FakeLLM(BATCH_REPLIES[:2]))], show_progress=False)
    back = EvaluationResult.from_jsonl(io.StringIO(older(claims)))
    assert back.run is None and back.rows[0].sample is None
    page = render_report(back)
    assert "The inputs of this sample are not in the results" in page
    assert "written before runs recorded their details" in page and "run date not recorded" in page
    # The model and prompt versions come from the evidence; the verdicts stand, numbered from 1, unlinked.
    assert "<td>context_recall</td><td>—</td><td>fake</td><td>context_recall/cover.en/2<br>" in page
    assert "<td>not recorded</td>" in page
    assert "passage 1:</span> <mark>Paris is the capital</mark>" in page and "href='#s0-p1'" not in page


def test_outside_text_is_escaped_everywhere() -> None:
    evil = "<img src=x onerror=alert(1)>'\""
    sample = Sample(
        id=evil,
        user_input=evil,
        reference=evil,
        retrieved_contexts=[evil],
        reference_contexts=[evil],
        retrieved_context_ids=[evil],
        reference_context_ids=[evil],
        response=evil,
    )
    evidence = Evidence(kind=evil, note=evil)
    results = {
        evil: MetricResult.scored(evil, 0.5, evidence, sample_id=evil),
        "f": MetricResult(metric="f", status="failed", failure={"type": evil, "message": evil}),
        "u": MetricResult.unscorable("u", evil),
    }
    run = RunInfo(
        started_at=datetime(2026, 1, 2, tzinfo=timezone.utc),
        wall_time_s=1.0,
        ragrecall_version=evil,
        dataset=evil,
        metrics={evil: {"class": evil, "settings": {"model": evil, evil: evil, "prompt_versions": {evil: evil}}}},
    )
    result = EvaluationResult(
        [SampleRow(index=0, sample_id=evil, results=results, sample=sample)], list(results), run=run
    )
    page = render_report(result, title=evil, base=result, names=(evil, evil))
    assert "<img" not in page and "onerror=alert(1)>" not in page
    assert "&lt;img src=x onerror=alert(1)&gt;&#x27;&quot;" in page


def test_a_report_that_fails_to_render_leaves_the_old_file_whole(tmp_path: Path) -> None:
    bad = MetricResult.scored("m", 1.0, Evidence(kind="custom", payload=object()))
    result = EvaluationResult([SampleRow(index=0, sample_id="a", results={"m": bad})], ["m"])
    path = tmp_path / "report.html"
    path.write_text("<p>last week's report</p>", encoding="utf-8")
    with pytest.raises(ValueError, match="serialize"):
        write_report(result, path)
    assert path.read_text(encoding="utf-8") == "<p>last week's report</p>"
    assert [p.name for p in tmp_path.iterdir()] == ["report.html"]


def test_samples_sorted_lowest_first_and_the_lowest_open(result: EvaluationResult) -> None:
    page = render_report(result)

    def at(sample_id: str) -> int:
        return page.index(f"<div class='sid'>{sample_id}</div>")

    assert at("en-visa-01") < at("en-router-01") < at("broken")
    opened = re.findall(r"<details class='sample' id='s(\d+)' data-i='\d+'( open)?( data-lazy)?>", page)
    assert len(opened) == 13 and sum(bool(o) for _, o, _ in opened) == 11  # the 10 lowest, and the failed one
    # The closed ones carry no body in the page: it is kept compressed until the row is opened.
    lazy = [i for i, o, lz in opened if lz]
    assert len(lazy) == 2 and sorted(closed_bodies(page)) == sorted(lazy)
    assert all(f"id='s{i}-p1'" not in page for i in lazy) and all(f"id='s{i}-p1'" in inflated(page) for i in lazy)


def _first_shown_judge(request: Any) -> Any:
    """Supports a claim when the context shown first holds it: judged in several orders, its votes differ."""
    first = request.inputs["contexts"][0]
    claims = request.inputs["claims"]
    return {"verdicts": [verdict(n, c in first, [(1, c)] if c in first else []) for n, c in enumerate(claims, 1)]}


def test_a_results_file_streamed_into_the_page_gives_the_page_of_the_whole_result(tmp_path: Path) -> None:
    from ragrecall.demo import demo_metrics
    from ragrecall.report import write_report_from_jsonl

    samples = [
        s.model_copy(update={"metadata": {"topic": f"t{i % 3}"} if i % 4 else {}}) for i, s in enumerate(demo_dataset())
    ]
    result = evaluate([*samples, {"id": "broken"}], demo_metrics(), show_progress=False)
    assert {"claim_recall", "string_recall", "id_recall"} <= {
        r.evidence.kind for row in result.rows for r in row.results.values() if r.evidence is not None
    }
    results = tmp_path / "results.jsonl"
    result.to_jsonl(results)
    streamed, whole = tmp_path / "streamed.html", tmp_path / "whole.html"
    write_report_from_jsonl(results, streamed, title="t")
    write_report(EvaluationResult.from_jsonl(results), whole, title="t")
    assert streamed.read_text(encoding="utf-8") == whole.read_text(encoding="utf-8")
    page = streamed.read_text(encoding="utf-8")
    assert "<details class='sample'" in page and "data-lazy" in page and "<option>t2</option>" in page
    packed = tmp_path / "results.jsonl.gz"
    result.to_jsonl(packed)
    write_report_from_jsonl(packed, streamed, title="t")
    assert streamed.read_text(encoding="utf-8") == whole.read_text(encoding="utf-8")


def test_a_streamed_page_states_the_judge_s_agreement_and_unstable_claims_as_the_whole_result_does(
    tmp_path: Path,
) -> None:
    from ragrecall.report import write_report_from_jsonl

    claims = ["Lyon is on the Rhône.", "Nice is on the coast.", "Lille is in the north."]
    samples = [
        {"id": f"v{i}", "reference_claims": claims, "retrieved_contexts": claims[i:] + claims[:i]} for i in range(3)
    ]
    voted = ContextRecall(FakeLLM(_first_shown_judge), votes=3)
    result = evaluate(samples, [voted, IDBasedContextRecall()], show_progress=False)
    assert result.unstable_claims() and result.summary["context_recall"].agreement is not None
    results, streamed, whole = tmp_path / "results.jsonl", tmp_path / "streamed.html", tmp_path / "whole.html"
    result.to_jsonl(results)
    write_report_from_jsonl(results, streamed)
    write_report(EvaluationResult.from_jsonl(results), whole)
    page = streamed.read_text(encoding="utf-8")
    assert page == whole.read_text(encoding="utf-8")
    assert "Stability of the judge" in page and "Lille is in the north." in section(page, "stability")


def test_a_bad_line_in_a_streamed_results_file_names_the_line(result: EvaluationResult, tmp_path: Path) -> None:
    from ragrecall.errors import FileFormatError
    from ragrecall.report import write_report_from_jsonl

    results = tmp_path / "results.jsonl"
    result.to_jsonl(results)
    lines = results.read_text(encoding="utf-8").splitlines(keepends=True)
    results.write_text("".join([*lines[:2], "{not json}\n", *lines[2:]]), encoding="utf-8")
    out = tmp_path / "page.html"
    with pytest.raises(FileFormatError, match=r"results\.jsonl.*3"):
        write_report_from_jsonl(results, out)
    assert not out.exists()


def test_the_page_of_a_results_file_stays_byte_for_byte_the_pinned_one(tmp_path: Path) -> None:
    # tests/golden/: 30 demo samples (metadata, ten open and twenty closed rows) and a broken one scored by the
    # demo metrics, and the page of commit 0fb135e for them (title "pinned page"), re-pinned when its script's
    # grouping learned to take any metadata name (toString), its summary became cards on a phone, the run
    # table's class names stopped wrapping mid-word and its settings column's least width became 13rem. Work on
    # the report's memory or speed must leave every byte of it as it was, streamed or from the whole result.
    import gzip

    from ragrecall.report import write_report_from_jsonl

    golden = Path(__file__).parent / "golden"
    results = tmp_path / "results.jsonl"
    results.write_bytes(gzip.decompress((golden / "report_results.jsonl.gz").read_bytes()))
    pinned = gzip.decompress((golden / "report_page.html.gz").read_bytes())
    streamed, whole = tmp_path / "streamed.html", tmp_path / "whole.html"
    write_report_from_jsonl(results, streamed, title="pinned page")
    write_report(EvaluationResult.from_jsonl(results), whole, title="pinned page")
    assert streamed.read_bytes() == pinned
    assert whole.read_bytes() == pinned
    assert b"data-lazy" in pinned and b"broken" in pinned


@pytest.mark.parametrize("count", [0, 1, 400])
def test_closed_bodies_are_written_in_pieces_that_make_the_base64_of_their_gzip(count: int) -> None:
    import base64
    import gzip
    import random

    from ragrecall.report._filter import BodyPacker

    rng = random.Random(count)
    bodies = {str(i): "".join(rng.choice('abc<é>"\n') for _ in range(rng.randrange(2000))) for i in range(count)}
    packer = BodyPacker()
    for index, body in bodies.items():
        packer.add(int(index), body)
    pieces = list(packer.packed_base64())
    whole = gzip.compress(json.dumps(bodies, separators=(",", ":")).encode(), compresslevel=6, mtime=0)
    assert "".join(pieces) == base64.b64encode(whole).decode("ascii")
    assert count < 400 or len(pieces) > 1  # never one piece holding everything
