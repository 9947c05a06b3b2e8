"""Nugget recall as any metric of a run: the batch backend gives the live values, the exports give every score a
column, the report shows the nuggets with their importance badges and partial supports."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import openai
import pytest

from ragrecall import NuggetRecall, OfflineJudge, evaluate
from ragrecall.llm import OpenAILLM
from ragrecall.llm.fake_server import FakeOpenAIServer
from ragrecall.report import write_report

DATA: list[dict[str, Any]] = [
    {
        "id": "tower",
        "user_input": "Tell me about the Eiffel Tower",
        "retrieved_contexts": ["The Eiffel Tower is 330 metres tall.", "Work on the tower ended in 1889."],
        "reference_nuggets": [
            {"text": "The Eiffel Tower is 330 metres tall", "importance": "vital"},
            {
                "text": "Work on the tower ended in 1889, and the tower is painted bright yellow every seven years",
                "importance": "vital",
            },
            {"text": "The tower has three floors", "importance": "okay"},
        ],
    },
    {
        "id": "canal",
        "user_input": "大运河有多长？",
        "retrieved_contexts": ["京杭大运河北起北京，南到杭州，全长约1794公里。"],
        "reference": "京杭大运河全长约1794公里。",
    },
    {"id": "none", "retrieved_contexts": ["x"], "reference_nuggets": []},
]


def make_llm(server: FakeOpenAIServer) -> OpenAILLM:
    return OpenAILLM(openai.AsyncOpenAI(api_key="sk-test", base_url=server.base_url), "gpt-4o-mini")


def test_the_batch_backend_gives_the_live_values_and_evidence() -> None:
    with FakeOpenAIServer() as server:
        live = evaluate(DATA, [NuggetRecall(make_llm(server))], show_progress=False)
        batch = evaluate(DATA, [NuggetRecall(make_llm(server))], show_progress=False, backend="batch", poll_interval=0)
    strip = [r.model_dump(mode="json", exclude={"usage"}) for r in live.results("nugget_recall")]
    assert [r.model_dump(mode="json", exclude={"usage"}) for r in batch.results("nugget_recall")] == strip
    assert live.values("nugget_recall")[2] is None and batch.backend == "batch"


def test_exports_give_every_score_a_column_and_the_report_shows_the_nuggets(tmp_path: Path) -> None:
    result = evaluate(DATA, [NuggetRecall(OfflineJudge(), score="all")], show_progress=False)
    record = result.to_records()[0]
    assert record["nugget_recall"] == pytest.approx(1.5 / 3)
    assert record["nugget_recall:strict_vital"] == pytest.approx(1 / 2)
    assert record["nugget_recall:vital"] == pytest.approx(1.5 / 2)
    assert record["nugget_recall:weighted"] == pytest.approx(1.5 / 2.5)
    result.to_csv(tmp_path / "r.csv")
    header = (tmp_path / "r.csv").read_text(encoding="utf-8").splitlines()[0]
    assert "nugget_recall:strict_all" in header
    summary = result.summary_table()
    assert "4 nuggets (3 vital): 2 supported, 1 partly, 1 not" in summary
    write_report(result, tmp_path / "report.html")
    html = (tmp_path / "report.html").read_text(encoding="utf-8")
    assert "partly supported (½)" in html and "<mark>Work on the tower ended in 1889</mark>" in html
    assert "<code class='warn'>vital</code>" in html and "<code class='muted'>okay</code>" in html
    assert "京杭大运河全长约1794公里" in html
