"""Batch file lines: request lines, result lines of OpenAI and vLLM, and files cut at the limits."""

from __future__ import annotations

import json

import pytest

from ragrecall.batch._lines import read_result_line, read_result_text, request_line, split_lines

COMPLETION = {"choices": [{"index": 0, "message": {"role": "assistant", "content": "{}"}, "finish_reason": "stop"}]}


def test_a_request_line_carries_the_body_as_given() -> None:
    body = {"model": "m", "messages": [{"role": "user", "content": "é"}], "temperature": 0.0}
    line = json.loads(request_line("abc", body))
    assert line == {"custom_id": "abc", "method": "POST", "url": "/v1/chat/completions", "body": body}


@pytest.mark.parametrize(
    ("line", "body", "error", "retryable"),
    [
        ({"custom_id": "a", "response": {"status_code": 200, "body": COMPLETION}, "error": None}, True, None, True),
        ({"custom_id": "a", "response": COMPLETION}, True, None, True),  # a runner writing the completion itself
        (
            {"custom_id": "a", "response": None, "error": {"code": "batch_expired", "message": "window over"}},
            False,
            "batch_expired: window over",
            True,
        ),
        (
            {"custom_id": "a", "response": {"status_code": 500, "body": {"error": {"message": "boom"}}}},
            False,
            "HTTP 500: boom",
            True,
        ),
        (
            {"custom_id": "a", "response": {"status_code": 400, "body": {"error": {"message": "bad", "code": "x"}}}},
            False,
            "HTTP 400 (x): bad",
            False,
        ),
        (
            {"custom_id": "a", "error": {"code": "invalid_request", "message": "no"}},
            False,
            "invalid_request: no",
            False,
        ),
    ],
)
def test_result_lines(line: dict[str, object], body: bool, error: str | None, retryable: bool) -> None:
    read = read_result_line(line)
    assert read is not None
    custom_id, outcome = read
    assert custom_id == "a"
    assert (outcome.body is not None) == body
    assert outcome.error == error and outcome.retryable == retryable


def test_no_line_stops_a_result_file_from_being_read() -> None:
    assert read_result_line({"response": COMPLETION}) is None
    answer = {"custom_id": "a", "response": {"status_code": 200, "body": COMPLETION}}
    other = {"custom_id": "d", "response": {"status_code": 200, "body": {**COMPLETION, "id": "another"}}}
    torn = json.dumps({"custom_id": "b", "response": {"status_code": 200, "body": COMPLETION}})[:40]
    text = "\n".join(
        [
            json.dumps(answer),
            "{}",  # no custom_id: skipped
            torn,  # not JSON, but it names its request: a fault of "b"
            "garbage with no id",  # skipped
            json.dumps({**answer, "custom_id": "d"}),
            json.dumps(other),  # "d" answered twice, differently: a fault of "d"
            json.dumps(answer),  # "a" twice, alike: used
        ]
    )
    for data in (text, text.encode() + b"\n\xff\xfe not utf-8\n"):
        lines = read_result_text(data, source="out.jsonl")
        assert lines.outcomes["a"].body == COMPLETION
        b, d = lines.outcomes["b"], lines.outcomes["d"]
        assert b.body is None and b.retryable and b.error is not None and b.error.startswith("out.jsonl:3: ")
        assert "not JSON" in b.error
        assert d.body is None and d.retryable and d.error is not None and "out.jsonl:6: a second result line" in d.error
        assert lines.skipped[0] == "out.jsonl:2: a result line without a custom_id"
        assert lines.skipped[1].startswith("out.jsonl:4: a result line that is not JSON")
        assert len(lines.skipped) == (2 if isinstance(data, str) else 3)  # the line that is not UTF-8 too
    # A torn line loses to a whole line answering the same request.
    assert read_result_text(f"{torn}\n{json.dumps({**answer, 'custom_id': 'b'})}\n", source="f").outcomes["b"].body


def test_an_answer_wins_over_an_error_for_the_same_request() -> None:
    error = json.dumps({"custom_id": "a", "error": {"code": "server_error", "message": "x"}})
    answer = json.dumps({"custom_id": "a", "response": {"status_code": 200, "body": COMPLETION}})
    for text in (f"{error}\n{answer}\n", f"{answer}\n{error}\n"):
        assert read_result_text(text, source="f").outcomes["a"].body is not None


def test_files_are_cut_at_the_request_and_byte_limits() -> None:
    lines = [b"x" * 10 + b"\n"] * 5
    assert [len(c) for c in split_lines(lines, 2, 1000)] == [2, 2, 1]
    assert [len(c) for c in split_lines(lines, 100, 25)] == [2, 2, 1]
    assert [len(c) for c in split_lines(lines, 100, 5)] == [1] * 5  # a line over the limit goes alone
