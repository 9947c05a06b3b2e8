"""An API key that servers echo back appears in no exception attribute, no file written and no stream, live or
batch: every object reachable from a raised exception is walked for the whole key and for pieces of it."""

from __future__ import annotations

import contextlib
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import openai
import pytest

from ragrecall import evaluate
from ragrecall.batch import BatchBackend
from ragrecall.cli import main
from ragrecall.errors import EndpointDownError, LLMRequestError
from ragrecall.llm import OpenAILLM, RetryPolicy
from ragrecall.llm.fake_server import BatchFault, FakeOpenAIServer, ServerReply
from ragrecall.metrics.context_recall import ContextRecall

KEY = "sk-test-Hj4Kd8Wq2Zx6Cv0Bn3Mt7Rp5"
PIECES = [KEY, *(KEY[i : i + 8] for i in range(8, len(KEY) - 7))]
"""The key, and every 8 characters of it after its common prefix."""
REFERENCE = "Paris is the capital of France. The Eiffel Tower is 330 metres tall."
CONTEXTS = ["Paris is the capital and largest city of France.", "Berlin is in Germany."]
ATTRIBUTES = ("args", "__cause__", "__context__", "body", "response", "request", "headers", "message")


def reachable_texts(root: object, *, depth: int = 10) -> Iterator[str]:
    """Every string and bytes value reachable from ``root`` through the exception links, the attributes above,
    ``vars()`` and containers (``str``/``repr`` of each object included)."""
    seen: set[int] = set()
    todo: list[tuple[object, int]] = [(root, 0)]
    while todo:
        obj, level = todo.pop()
        if id(obj) in seen or level > depth or obj is None:
            continue
        seen.add(id(obj))
        if isinstance(obj, str):
            yield obj
            continue
        if isinstance(obj, (bytes, bytearray)):
            yield bytes(obj).decode("latin-1")
            continue
        if isinstance(obj, (int, float, bool, type)):
            continue
        children: list[object] = []
        if isinstance(obj, dict):
            children += [*obj.keys(), *obj.values()]
        elif isinstance(obj, (list, tuple, set, frozenset)):
            children += list(obj)
        else:
            for text in (str, repr):
                with contextlib.suppress(Exception):  # an object that cannot print itself holds nothing printable
                    yield text(obj)
            for name in ATTRIBUTES:
                with contextlib.suppress(Exception):
                    children.append(getattr(obj, name, None))
            with contextlib.suppress(TypeError):
                children.append(dict(vars(obj)))
        todo += [(child, level + 1) for child in children]


def leaks(texts: Iterator[str] | list[str]) -> list[str]:
    found = []
    for text in texts:
        found += [piece for piece in PIECES if piece in text]
    return found


def make_llm(url: str, **retry: Any) -> OpenAILLM:
    policy = RetryPolicy(**{"max_attempts": 2, "initial_wait": 0.0, "jitter": 0.0, **retry})
    return OpenAILLM(openai.AsyncOpenAI(api_key=KEY, base_url=url), "gpt-4o-mini", retry=policy)


def test_the_walker_finds_a_key_in_an_sdk_exception() -> None:
    # Without this the test below could pass by walking nothing: a raw SDK error holds the key in its request.
    with FakeOpenAIServer(replies=[ServerReply(status=401)]) as server:
        client = openai.OpenAI(api_key=KEY, base_url=server.base_url, max_retries=0)
        with pytest.raises(openai.AuthenticationError) as info:
            client.chat.completions.create(model="m", messages=[{"role": "user", "content": "x"}])
    assert KEY in leaks(reachable_texts(info.value))


@pytest.mark.parametrize(
    "replies",
    [
        [ServerReply(status=401, echo_key="full")],
        [ServerReply(status=403, echo_key="masked")],
        [ServerReply(status=500, echo_key="full")] * 2,
        [ServerReply(status=400, echo_key="full", content="bad")],
        [ServerReply(raw_body=b"<html>login</html>", content_type="text/html")] * 2,
    ],
    ids=["401 full", "403 masked", "500 full", "400", "html page"],
)
def test_no_exception_attribute_holds_the_key(replies: list[ServerReply]) -> None:
    with FakeOpenAIServer(replies=replies) as server, pytest.raises(LLMRequestError) as info:
        ContextRecall(make_llm(server.base_url)).score(reference=REFERENCE, retrieved_contexts=CONTEXTS)
    texts = list(reachable_texts(info.value))
    assert len(texts) > 3 and not leaks(texts)


def test_the_breaker_stop_holds_no_key() -> None:
    with FakeOpenAIServer(replies=[ServerReply(status=401, echo_key="full")] * 10) as server:
        samples = [{"reference": REFERENCE, "retrieved_contexts": CONTEXTS}] * 10
        with pytest.raises(EndpointDownError) as info:
            evaluate(samples, [ContextRecall(make_llm(server.base_url))], show_progress=False, max_concurrency=1)
    assert "Incorrect API key" in str(info.value) and not leaks(reachable_texts(info.value))


def run_cli(tmp_path: Path, server: FakeOpenAIServer, *extra: str, monkeypatch: pytest.MonkeyPatch) -> int:
    data = tmp_path / "data.jsonl"
    rows = [{"id": f"s{i}", "reference": REFERENCE, "retrieved_contexts": CONTEXTS} for i in range(4)]
    data.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    monkeypatch.setenv("OPENAI_API_KEY", KEY)
    flags = ["-m", "context_recall", "--model", "gpt-4o-mini", "--max-failed", "10", "--max-attempts", "2"]
    files = ["--checkpoint", str(tmp_path / "run.ckpt"), "--out", str(tmp_path / "results.jsonl")]
    args = ["eval", str(data), *flags, "--concurrency", "1", "--base-url", server.base_url, *files, *extra]
    return main(args)


def written_texts(folder: Path) -> list[str]:
    return [p.read_bytes().decode("latin-1") for p in folder.rglob("*") if p.is_file()]


def test_no_file_or_stream_of_a_live_run_holds_the_key(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capfd: pytest.CaptureFixture[str]
) -> None:
    verdicts = {"verdicts": [{"claim": 1, "reason": "Stated.", "supported": False, "support": []}]}
    replies = [
        ServerReply(status=500, echo_key="full"),
        ServerReply(status=500, echo_key="masked"),  # the first sample fails with an echo in its cause
        ServerReply(json.dumps({"claims": ["Paris is the capital of France."]}), echo_key="full"),
        ServerReply(json.dumps(verdicts), echo_key="full"),  # a reply quoting the key
    ]
    with FakeOpenAIServer(replies=replies) as server:
        code = run_cli(tmp_path, server, "--cache", str(tmp_path / "cache.sqlite"), monkeypatch=monkeypatch)
    out, err = capfd.readouterr()
    assert code == 0 and "HTTP 500" in (tmp_path / "results.jsonl").read_text(encoding="utf-8")
    assert len(written_texts(tmp_path)) >= 4 and not leaks([out, err, *written_texts(tmp_path)])


def test_no_file_or_stream_of_a_batch_run_holds_the_key(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capfd: pytest.CaptureFixture[str]
) -> None:
    faults = [BatchFault(error_lines=1, error_status=400, echo_key=True), BatchFault(error_lines=1, echo_key=True)]
    with FakeOpenAIServer(batch_faults=faults) as server:
        code = run_cli(tmp_path, server, "--backend", "batch", "--poll-interval", "0", monkeypatch=monkeypatch)
        error_files = [server.files[b["error_file_id"]] for b in server.batches.values() if b.get("error_file_id")]
    out, err = capfd.readouterr()
    assert any(KEY.encode() in data for data in error_files)  # the server did echo it
    results = (tmp_path / "results.jsonl").read_text(encoding="utf-8")
    assert code == 0 and "Incorrect API key provided" in results
    assert not leaks([out, err, *written_texts(tmp_path)])

    fault = BatchFault(error_lines=1, error_status=400, echo_key=True)
    with FakeOpenAIServer(batch_faults=[fault]) as server, pytest.raises(LLMRequestError) as info:
        evaluate(
            [{"reference": REFERENCE, "retrieved_contexts": CONTEXTS}],
            [ContextRecall(make_llm(server.base_url))],
            show_progress=False,
            on_error="raise",
            backend=BatchBackend(poll_interval=0),
        )
    assert "Incorrect API key provided" in str(info.value) and not leaks(reachable_texts(info.value))
