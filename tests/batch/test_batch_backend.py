"""The batch backend through the real ``openai`` SDK against the local fake server's Batch API."""

from __future__ import annotations

import asyncio
import json
import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import openai
import pytest

from ragrecall import ConfigurationError, evaluate
from ragrecall.batch import BatchBackend, RoundExported
from ragrecall.evaluation import EvaluationResult, aevaluate
from ragrecall.evaluation._checkpoint import read_journal
from ragrecall.llm import OfflineJudge, OpenAILLM, ResponseCache
from ragrecall.llm.fake_server import BatchFault, FakeOpenAIServer, ServerReply, answer_batch_file
from ragrecall.metrics.context_recall import ContextRecall

DATA: list[dict[str, Any]] = [
    {
        "id": "paris",
        "reference": "Paris is the capital of France. The Eiffel Tower is 330 metres tall.",
        "retrieved_contexts": ["Paris is the capital and largest city of France.", "Berlin is in Germany."],
    },
    {
        "id": "water",
        "reference": "Water boils at 100 degrees Celsius at sea level.",
        "retrieved_contexts": ["At sea level water boils at 100 degrees Celsius."],
    },
    {"id": "blank", "reference": "", "retrieved_contexts": ["Nothing to measure."]},
    {"id": "empty-retrieval", "reference": "The Moon orbits the Earth.", "retrieved_contexts": []},
    {
        "id": "rivers",
        "reference": "The Nile flows north. The Amazon carries the most water of any river.",
        "retrieved_contexts": ["The Amazon carries more water than any other river.", "The Danube flows east."],
    },
]
LLM_SAMPLES = 3
"""Samples of DATA that need an LLM call (a blank reference and an empty retrieval need none)."""


@pytest.fixture
def server() -> Iterator[FakeOpenAIServer]:
    with FakeOpenAIServer() as srv:
        yield srv


def make_llm(server: FakeOpenAIServer, **options: Any) -> OpenAILLM:
    return OpenAILLM(openai.AsyncOpenAI(api_key="sk-test", base_url=server.base_url), "gpt-4o-mini", **options)


def resume(server: FakeOpenAIServer, checkpoint: Path) -> EvaluationResult:
    """The run again with its checkpoint, the server now finishing batches at once."""
    server.batch_delay = 0.0
    metrics = [ContextRecall(make_llm(server))]
    return evaluate(DATA, metrics, show_progress=False, checkpoint=checkpoint, backend="batch", poll_interval=0)


def outcomes(result: EvaluationResult) -> list[dict[str, Any]]:
    """Each row's result without its usage (live and batch differ in price only)."""
    return [row.results["context_recall"].model_dump(mode="json", exclude={"usage"}) for row in result.rows]


def batch_lines(server: FakeOpenAIServer) -> list[list[dict[str, Any]]]:
    """The request lines of every batch created, in creation order."""
    files = [server.files[b["input_file_id"]] for b in server.batches.values()]
    return [[json.loads(line) for line in data.decode().split("\n") if line] for data in files]


def test_batch_gives_the_live_values_and_evidence_at_the_batch_price(server: FakeOpenAIServer) -> None:
    live = evaluate(DATA, [ContextRecall(make_llm(server))], show_progress=False)
    live_bodies = list(server.requests)
    server.requests.clear()
    batch = evaluate(DATA, [ContextRecall(make_llm(server))], show_progress=False, backend="batch", poll_interval=0.01)
    assert outcomes(batch) == outcomes(live)
    assert batch.values("context_recall")[2:4] == [None, 0.0]
    assert batch.backend == "batch" and live.backend == "live"
    # Round 1: every decomposition; round 2: every judging request. Samples without an LLM call are in no file.
    rounds = batch_lines(server)
    assert [len(lines) for lines in rounds] == [LLM_SAMPLES, LLM_SAMPLES]
    bodies = [line["body"] for lines in rounds for line in lines]
    canonical = [json.dumps(b, sort_keys=True) for b in bodies]
    assert sorted(canonical) == sorted(json.dumps(b, sort_keys=True) for b in live_bodies)  # exactly what live sends
    assert all(line["method"] == "POST" and line["url"] == "/v1/chat/completions" for r in rounds for line in r)
    assert all(
        b["completion_window"] == "24h" and b["endpoint"] == "/v1/chat/completions" for b in server.batches.values()
    )
    # Same tokens, half the price.
    assert batch.usage.total_tokens == live.usage.total_tokens
    assert batch.usage.cost_usd == pytest.approx(live.usage.cost_usd / 2)
    assert "backend batch" in batch.summary_table()


def test_batch_replies_fill_the_cache_that_a_live_replay_reads(server: FakeOpenAIServer, tmp_path: Path) -> None:
    cache_path = tmp_path / "cache.sqlite"
    with ResponseCache(cache_path) as cache:
        batch = evaluate(
            DATA, [ContextRecall(make_llm(server, cache=cache))], show_progress=False, backend="batch", poll_interval=0
        )
    sent = len(server.requests)
    with ResponseCache(cache_path, mode="replay-only") as replay:
        again = evaluate(DATA, [ContextRecall(make_llm(server, cache=replay))], show_progress=False)
    assert outcomes(again) == outcomes(batch)
    assert again.usage.cached_requests == 2 * LLM_SAMPLES and again.usage.requests == 0
    assert len(server.requests) == sent  # nothing reached the server


@pytest.mark.parametrize("separator", ["\u2028", "\u2029", "\x85"])
def test_text_with_unicode_line_separators_is_scored_as_live(server: FakeOpenAIServer, separator: str) -> None:
    # JSON writers (vLLM's run_batch, this server) leave these unescaped inside strings: they end no line.
    data = [{"id": "sep", "reference": f"Paris is the capital{separator}of France.", "retrieved_contexts": [
        f"Paris is the capital{separator}of France and its largest city."]}]  # fmt: skip
    live = evaluate(data, [ContextRecall(make_llm(server))], show_progress=False)
    batch = evaluate(data, [ContextRecall(make_llm(server))], show_progress=False, backend="batch", poll_interval=0)
    assert outcomes(batch) == outcomes(live) and batch.summary["context_recall"].failed == 0


def test_identical_requests_go_out_once(server: FakeOpenAIServer) -> None:
    twins = [DATA[0], {**DATA[0], "id": "paris-again"}]
    result = evaluate(twins, [ContextRecall(make_llm(server))], show_progress=False, backend="batch", poll_interval=0)
    assert [len(lines) for lines in batch_lines(server)] == [1, 1]
    assert result.values("context_recall") == [0.5, 0.5]
    assert result.usage.requests == 2 and result.usage.cached_requests == 2  # paid once, not twice
    assert outcomes(result)[0] == {**outcomes(result)[1], "sample_id": "paris"}


def test_rounds_are_split_at_the_provider_limits(server: FakeOpenAIServer) -> None:
    backend = BatchBackend(poll_interval=0, max_requests=2)
    result = evaluate(DATA, [ContextRecall(make_llm(server))], show_progress=False, backend=backend)
    assert [len(lines) for lines in batch_lines(server)] == [2, 1, 2, 1]
    assert result.summary["context_recall"].failed == 0
    small = BatchBackend(poll_interval=0, max_bytes=1)  # every line is over the limit: one batch each
    server.batches.clear()
    evaluate(DATA, [ContextRecall(make_llm(server))], show_progress=False, backend=small)
    assert [len(lines) for lines in batch_lines(server)] == [1] * 6


def test_with_a_bound_identical_requests_of_later_samples_are_read_from_the_cache(
    server: FakeOpenAIServer, tmp_path: Path
) -> None:
    twins = [{**DATA[0], "id": f"paris-{i}"} for i in range(4)]
    backend = BatchBackend(poll_interval=0, max_samples_in_flight=1)
    with ResponseCache(tmp_path / "cache.sqlite") as cache:
        result = evaluate(twins, [ContextRecall(make_llm(server, cache=cache))], show_progress=False, backend=backend)
    assert len(server.batches) == 2  # one decomposition, one judging: the three later samples read the cache
    assert result.values("context_recall") == [0.5] * 4
    assert result.usage.requests == 2 and result.usage.cached_requests == 6


def test_a_bound_on_samples_in_flight_spreads_them_over_more_rounds(server: FakeOpenAIServer) -> None:
    backend = BatchBackend(poll_interval=0, max_samples_in_flight=2)
    result = evaluate(DATA, [ContextRecall(make_llm(server))], show_progress=False, backend=backend)
    with FakeOpenAIServer() as other:
        live = evaluate(DATA, [ContextRecall(make_llm(other))], show_progress=False)
    assert outcomes(result) == outcomes(live)
    sizes = [len(lines) for lines in batch_lines(server)]
    assert max(sizes) <= 2 and sum(sizes) == 2 * LLM_SAMPLES and len(sizes) > 2


def test_an_invalid_reply_is_repaired_in_the_next_round(server: FakeOpenAIServer) -> None:
    server.enqueue(ServerReply("this is not JSON"))  # the first line of round 1
    result = evaluate(
        DATA[:1], [ContextRecall(make_llm(server))], show_progress=False, backend="batch", poll_interval=0
    )
    rounds = batch_lines(server)
    assert len(rounds) == 3  # decomposition, its repair, judging
    repair = rounds[1][0]["body"]["messages"]
    assert repair[-2] == {"role": "assistant", "content": "this is not JSON"}
    assert "previous reply was rejected" in repair[-1]["content"]
    assert result.values("context_recall") == [0.5]
    assert result.rows[0].results["context_recall"].usage.requests == 3


def test_per_line_errors_missing_lines_expired_and_failed_batches_are_retried(server: FakeOpenAIServer) -> None:
    server.enqueue_batch_faults(
        BatchFault(error_lines=1, missing_lines=1),  # round 1: one 500 line, one line missing
        BatchFault(status="expired", answered=0),  # round 2: the retried pair expires unanswered
        BatchFault(status="failed"),  # round 3: the batch fails validation
    )
    with FakeOpenAIServer() as other:
        live = evaluate(DATA, [ContextRecall(make_llm(other))], show_progress=False)
    batch = evaluate(
        DATA,
        [ContextRecall(make_llm(server))],
        show_progress=False,
        backend=BatchBackend(poll_interval=0, max_attempts=4),
    )
    assert outcomes(batch) == outcomes(live)
    statuses = [b["status"] for b in server.batches.values()]
    assert statuses[:3] == ["completed", "expired", "failed"]
    # Retries ride with the requests that are ready: round 2 = two retried decompositions + one judging.
    assert [len(lines) for lines in batch_lines(server)] == [3, 3, 3, 3, 2]


def test_unreadable_result_lines_are_faults_of_their_request_never_of_the_run(
    server: FakeOpenAIServer, tmp_path: Path
) -> None:
    unknown = json.dumps({"custom_id": "nobody", "response": {"status_code": 200, "body": {}}})
    server.enqueue_batch_faults(
        BatchFault(torn_lines=1, extra_lines=("not JSON at all", '{"id": "no custom_id"}', unknown))
    )
    with FakeOpenAIServer() as other:
        live = evaluate(DATA, [ContextRecall(make_llm(other))], show_progress=False)
    checkpoint = tmp_path / "run.ckpt"
    backend = BatchBackend(poll_interval=0, max_attempts=4)
    batch = evaluate(
        DATA, [ContextRecall(make_llm(server))], show_progress=False, backend=backend, checkpoint=checkpoint
    )
    assert outcomes(batch) == outcomes(live) and not batch.failures
    # The torn line's request went out again in round 2, beside the judging of the two others.
    assert [len(lines) for lines in batch_lines(server)][:2] == [3, 3]
    ends = [r for r in read_journal(checkpoint) if r.get("kind") == "batch_end"]
    assert ends[0]["skipped_lines"] == 3


def test_a_request_whose_line_never_reads_fails_with_the_cause(server: FakeOpenAIServer) -> None:
    server.enqueue_batch_faults(BatchFault(torn_lines=1), BatchFault(torn_lines=1))
    result = evaluate(
        DATA,
        [ContextRecall(make_llm(server))],
        show_progress=False,
        backend=BatchBackend(poll_interval=0, max_attempts=2),
    )
    assert [f.index for f in result.failures] == [0] and len(result) == len(DATA)
    assert "no reply after 2 batches" in result.failures[0].message
    assert "a result line that is not JSON" in result.failures[0].message
    assert result.values("context_recall")[1:] == [1.0, None, 0.0, 0.5]


def test_requests_that_never_get_a_reply_end_as_recorded_failures(server: FakeOpenAIServer) -> None:
    server.enqueue_batch_faults(BatchFault(error_lines=1, error_status=503), BatchFault(status="expired", answered=0))
    result = evaluate(
        DATA,
        [ContextRecall(make_llm(server))],
        show_progress=False,
        backend=BatchBackend(poll_interval=0, max_attempts=2),
    )
    assert len(result) == len(DATA)  # no sample lost
    failures = result.failures
    assert [f.index for f in failures] == [0]
    assert failures[0].type == "LLMRequestError"
    assert "no reply after 2 batches" in failures[0].message and "expired" in failures[0].message
    assert result.values("context_recall")[1:] == [1.0, None, 0.0, 0.5]


def test_an_error_no_retry_fixes_fails_at_once(server: FakeOpenAIServer) -> None:
    server.enqueue_batch_faults(BatchFault(error_lines=1, error_status=400))
    result = evaluate(DATA, [ContextRecall(make_llm(server))], show_progress=False, backend="batch", poll_interval=0)
    assert [f.index for f in result.failures] == [0]
    assert "not retryable" in result.failures[0].message and "HTTP 400" in result.failures[0].message
    assert server.batch_creations == 2  # the 400 was not sent again


def test_the_batch_backend_needs_the_openai_adapter(tmp_path: Path) -> None:
    with pytest.raises(ConfigurationError, match=r"OpenAI adapter.*OfflineJudge"):
        evaluate(DATA, [ContextRecall(OfflineJudge())], show_progress=False, backend="batch")
    with pytest.raises(ConfigurationError, match="poll_interval applies to backend='batch'"):
        evaluate(DATA, [ContextRecall(OfflineJudge())], show_progress=False, poll_interval=1)
    with pytest.raises(ConfigurationError, match="backend must be"):
        evaluate(DATA, [ContextRecall(OfflineJudge())], show_progress=False, backend="bulk")  # type: ignore[arg-type]
    with pytest.raises(ConfigurationError, match="poll_interval"):
        BatchBackend(poll_interval=-1)


@pytest.mark.parametrize("forget_start", [False, True], ids=["recorded", "found-by-input-file"])
def test_stopped_after_submission_resumes_without_submitting_again(
    server: FakeOpenAIServer, tmp_path: Path, capfd: pytest.CaptureFixture[str], forget_start: bool
) -> None:
    checkpoint = tmp_path / "run.ckpt"
    server.batch_delay = 60.0  # the first batch is still running when the run stops

    async def stop_after_submission() -> None:
        run = asyncio.ensure_future(
            aevaluate(
                DATA, [ContextRecall(make_llm(server))], checkpoint=checkpoint, backend="batch", poll_interval=0.05
            )
        )
        while "batch_start" not in (checkpoint.read_text() if checkpoint.exists() else ""):
            await asyncio.sleep(0.01)
        run.cancel()  # what Ctrl-C does
        with pytest.raises(asyncio.CancelledError):
            await run

    asyncio.run(stop_after_submission())
    first = next(iter(server.batches))
    assert f"batches left running: {first}; run again with the checkpoint" in capfd.readouterr().err
    copy = tmp_path / "copy.ckpt"
    copy.write_bytes(checkpoint.read_bytes())
    evaluate(DATA, [ContextRecall(make_llm(server))], show_progress=False, checkpoint=copy)  # live
    assert "records batches that may still be running; a live run does not collect them" in capfd.readouterr().err
    if forget_start:  # as if killed after the batch was created but before its id was written
        lines = checkpoint.read_text().splitlines(keepends=True)
        checkpoint.write_text("".join(line for line in lines if '"batch_start"' not in line))
    assert server.batches[first]["status"] in ("validating", "in_progress")  # left running, not cancelled
    resumed = resume(server, checkpoint)
    with FakeOpenAIServer() as other:
        live = evaluate(DATA, [ContextRecall(make_llm(other))], show_progress=False)
    assert outcomes(resumed) == outcomes(live)
    assert server.batch_creations == 2  # round 1 collected from the first batch, round 2 submitted once


KILLED = """
import sys, openai
from ragrecall.evaluation import evaluate
from ragrecall.llm import OpenAILLM
from ragrecall.metrics.context_recall import ContextRecall
import json
data = json.loads(sys.argv[3])
llm = OpenAILLM(openai.AsyncOpenAI(api_key="sk-test", base_url=sys.argv[1]), "gpt-4o-mini")
evaluate(data, [ContextRecall(llm)], checkpoint=sys.argv[2], backend="batch", poll_interval=0.05, show_progress=False)
"""


def test_a_process_killed_after_submission_resumes_without_a_second_submission(
    server: FakeOpenAIServer, tmp_path: Path
) -> None:
    checkpoint = tmp_path / "killed.ckpt"
    script = tmp_path / "run.py"
    script.write_text(KILLED)
    server.batch_delay = 60.0
    process = subprocess.Popen(
        [sys.executable, str(script), server.base_url, str(checkpoint), json.dumps(DATA)], stderr=subprocess.PIPE
    )
    try:
        deadline = time.monotonic() + 30
        while server.batch_creations == 0 and process.poll() is None and time.monotonic() < deadline:
            time.sleep(0.02)
        time.sleep(0.2)  # the journal record is written right after the batch is created
    finally:
        os.kill(process.pid, signal.SIGKILL)
        process.wait()
    assert server.batch_creations == 1
    resumed = resume(server, checkpoint)
    assert server.batch_creations == 2
    assert resumed.summary["context_recall"].failed == 0
    assert resumed.values("context_recall") == [0.5, 1.0, None, 0.0, 0.5]


def run_by_files(
    server: FakeOpenAIServer, tmp_path: Path, tamper: Callable[[int, Path], None] | None = None
) -> tuple[EvaluationResult, list[RoundExported]]:
    """Export, answer with ``answer_batch_file`` (then ``tamper(round, file)``), import, until the run ends."""
    checkpoint = tmp_path / "state.ckpt"
    round_no, imports, exported = 1, [], []
    while round_no < 8:
        requests = tmp_path / f"requests-{round_no}.jsonl"
        backend = BatchBackend(export_to=requests, imports=tuple(imports[-1:]))
        try:
            result = evaluate(
                DATA, [ContextRecall(make_llm(server))], show_progress=False, checkpoint=checkpoint, backend=backend
            )
            return result, exported
        except RoundExported as stop:
            assert stop.path == str(requests) and stop.round == round_no
            exported.append(stop)
        output = tmp_path / f"output-{round_no}.jsonl"
        answer_batch_file(requests, output)  # what vLLM's run_batch does with the file
        if tamper is not None:
            tamper(round_no, output)
        imports.append(output)
        round_no += 1
    raise AssertionError("the run did not end")


def test_export_then_import_through_files_gives_the_live_result(server: FakeOpenAIServer, tmp_path: Path) -> None:
    live = evaluate(DATA, [ContextRecall(make_llm(server))], show_progress=False)
    sent = len(server.requests)
    result, exported = run_by_files(server, tmp_path)
    assert len(exported) == 2  # two rounds exported, the third run finished
    assert outcomes(result) == outcomes(live)
    assert len(server.requests) == sent  # the runner answered, not the server


def test_an_imported_file_with_bad_lines_is_used_and_read_alike_on_every_resume(
    server: FakeOpenAIServer, tmp_path: Path
) -> None:
    live = evaluate(DATA, [ContextRecall(make_llm(server))], show_progress=False)

    def tear_the_first_answer(round_no: int, output: Path) -> None:
        if round_no == 1:  # the first answer torn in half, and a line of garbage
            lines = output.read_bytes().split(b"\n")
            lines[0] = lines[0][: len(lines[0]) // 2]
            output.write_bytes(b"\n".join([*lines[:-1], b"\xff garbage", b""]))

    result, exported = run_by_files(server, tmp_path, tear_the_first_answer)
    assert outcomes(result) == outcomes(live)
    # Round 2: the torn request again, and two judgings; every later run re-read the torn file alike.
    assert [e.requests for e in exported][:2] == [3, 3]


def test_export_refuses_to_overwrite_a_file(server: FakeOpenAIServer, tmp_path: Path) -> None:
    taken = tmp_path / "requests.jsonl"
    taken.write_text("mine\n")
    with pytest.raises(Exception, match="exists"):
        evaluate(
            DATA,
            [ContextRecall(make_llm(server))],
            show_progress=False,
            checkpoint=tmp_path / "s.ckpt",
            backend=BatchBackend(export_to=taken),
        )
    assert taken.read_text() == "mine\n"
    with pytest.raises(ConfigurationError, match="needs a checkpoint"):
        evaluate(DATA, [ContextRecall(make_llm(server))], show_progress=False, backend=BatchBackend(export_to=taken))
