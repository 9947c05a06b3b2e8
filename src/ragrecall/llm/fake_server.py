"""A local OpenAI-compatible HTTP server, for tests and benchmarks that use a real ``AsyncOpenAI`` client.

It serves ``POST /v1/chat/completions`` (OpenAI) and ``POST /v1/messages`` (Anthropic, tool-use replies) on
127.0.0.1 only, and the OpenAI Batch API: ``POST /v1/files``, ``GET /v1/files/{id}/content``,
``POST /v1/batches``, ``GET /v1/batches[/{id}]`` and ``POST /v1/batches/{id}/cancel`` (a batch completes
``batch_delay`` seconds after it is created; :class:`BatchFault` injects per-line errors, missing lines, an
expired or a failed batch). Each request is answered by the next scripted
:class:`ServerReply` when there is one (status, headers, body, delay: for 429/500/hangs), else by the
responder, by default the :class:`~ragrecall.llm.OfflineJudge` reading ragrecall's own prompts. Every request
body is recorded.

Run it in its own process (for batch benchmarks)::

    python -m ragrecall.llm.fake_server --port 8765 --latency-ms 50

then point a client at ``http://127.0.0.1:8765/v1``.
"""

from __future__ import annotations

import argparse
import email.parser
import email.policy
import itertools
import json
import os
import random
import threading
import time
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field, replace
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, Literal

from ._offline import OfflineJudge
from ._prompts import read_data_blocks

__all__ = [
    "BatchFault",
    "FakeOpenAIServer",
    "Responder",
    "ServerReply",
    "answer_batch_file",
    "flaky_responder",
    "offline_responder",
]

_HOST = "127.0.0.1"


@dataclass(frozen=True)
class ServerReply:
    """One scripted HTTP answer.

    With ``status`` 200 the body is a reply whose text is ``content`` and whose usage reports
    ``prompt_tokens`` and ``completion_tokens`` (a chat completion on the OpenAI route, a message on the
    Anthropic route); with another status it is that API's error body. ``body`` replaces the generated body
    entirely; ``raw_body`` replaces it with bytes sent as ``content_type`` (an HTML page from a proxy).
    ``delay`` seconds pass before answering (longer than the client's timeout: a hung request); with
    ``drip`` the body is sent 16 bytes at a time, ``drip`` seconds apart (a slow-drip reply). ``echo_key``
    ``"full"`` or ``"masked"`` puts the request's API key (whole, or masked as OpenAI does) into the error
    message or, for a 200, into the reply's ``reason`` text. ``drop`` closes the connection without an answer
    (a reset).
    """

    content: str | None = None
    status: int = 200
    headers: Mapping[str, str] = field(default_factory=dict)
    prompt_tokens: int = 0
    completion_tokens: int = 0
    cached_tokens: int = 0
    """Of ``prompt_tokens``, those reported as read from the provider's prompt cache."""
    delay: float = 0.0
    finish_reason: str = "stop"
    body: Mapping[str, Any] | None = None
    raw_body: bytes | None = None
    content_type: str = "application/json"
    drip: float = 0.0
    echo_key: Literal["", "full", "masked"] = ""
    drop: bool = False


Responder = Callable[[Mapping[str, Any]], ServerReply]


@dataclass(frozen=True)
class BatchFault:
    """How the next batch created ends (faults are used one per batch, in order).

    ``status`` ``"completed"``, ``"expired"`` (only the first ``answered`` lines are answered; the others get a
    ``batch_expired`` line in the error file) or ``"failed"`` (no output at all; ``message`` in the batch's
    errors). In a completed or expired batch the first ``error_lines`` lines get an HTTP ``error_status`` line
    in the error file, and the next ``missing_lines`` lines are in no file at all. The first ``torn_lines``
    lines of the output file are cut in half (no longer JSON, their ``custom_id`` still legible), and
    ``extra_lines`` are appended to it as they are (garbage, lines naming no request or an unknown one).
    With ``echo_key`` the error lines quote the API key the batch was created with.
    """

    status: Literal["completed", "expired", "failed"] = "completed"
    error_lines: int = 0
    error_status: int = 500
    missing_lines: int = 0
    answered: int = 0
    message: str = "the batch input file failed validation"
    torn_lines: int = 0
    extra_lines: tuple[str, ...] = ()
    echo_key: bool = False


class _Server(ThreadingHTTPServer):
    # socketserver's default listen backlog of 5 resets connections when many clients connect at once.
    request_queue_size = 1024
    daemon_threads = True


class FakeOpenAIServer:
    """A threaded HTTP server speaking enough of the OpenAI chat-completions API for ragrecall.

    Args:
        responder: answers requests that have no scripted reply (default: :func:`offline_responder`).
        replies: scripted replies, used first and in order.
        latency: seconds added before every answer.
        port: the port to bind on 127.0.0.1 (0: any free port).
        batch_delay: seconds from a batch's creation to its end.
        batch_faults: how the first batches created end (see :class:`BatchFault`); later ones complete.

    Use as a context manager, or call :meth:`start` and :meth:`stop`. Hung requests are released at stop.
    """

    def __init__(
        self,
        responder: Responder | None = None,
        *,
        replies: Iterable[ServerReply] = (),
        latency: float = 0.0,
        port: int = 0,
        batch_delay: float = 0.0,
        batch_faults: Iterable[BatchFault] = (),
    ) -> None:
        self.responder: Responder = responder or offline_responder()
        self.latency = latency
        self.requests: list[dict[str, Any]] = []
        """Every request body received (JSON-decoded), in arrival order; batch lines included when answered."""
        self.batch_delay = batch_delay
        self.batches: dict[str, dict[str, Any]] = {}
        """Every batch created, by id (the Batch API's batch objects)."""
        self.batch_creations = 0
        """How many times ``POST /v1/batches`` created a batch."""
        self.files: dict[str, bytes] = {}
        """Uploaded and generated files, by id."""
        self._batch_faults: list[BatchFault] = list(batch_faults)
        self._batch_fault_of: dict[str, BatchFault] = {}
        self._ids = itertools.count(1)
        self._script: list[ServerReply] = list(replies)
        self._lock = threading.Lock()
        self._stopping = threading.Event()
        self._httpd = _Server((_HOST, port), _handler_for(self))
        self._thread: threading.Thread | None = None

    @property
    def port(self) -> int:
        """The bound port."""
        return int(self._httpd.server_address[1])

    @property
    def base_url(self) -> str:
        """The URL to give ``AsyncOpenAI(base_url=...)``."""
        return f"http://{_HOST}:{self.port}/v1"

    def enqueue(self, *replies: ServerReply) -> None:
        """Script the next answers (after any already queued)."""
        with self._lock:
            self._script.extend(replies)

    def start(self) -> FakeOpenAIServer:
        """Serve on a daemon thread; returns self."""
        self._thread = threading.Thread(target=self._httpd.serve_forever, args=(0.05,), name="fake-openai", daemon=True)
        self._thread.start()
        return self

    def stop(self) -> None:
        """Release hung requests, stop serving and close the socket, as a killed server would: requests in
        flight get no answer, new connections are refused."""
        self._stopping.set()
        self._httpd.shutdown()
        self._httpd.server_close()
        if self._thread is not None:
            self._thread.join(timeout=5)

    def __enter__(self) -> FakeOpenAIServer:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    def _next_reply(self, body: dict[str, Any], chat: dict[str, Any] | None = None) -> ServerReply:
        """Record ``body``; answer the next scripted reply, else the responder's answer to ``chat`` (``body``
        in the chat-completions shape)."""
        with self._lock:
            self.requests.append(body)
            scripted = self._script.pop(0) if self._script else None
        return scripted if scripted is not None else self.responder(chat if chat is not None else body)

    def _wait(self, seconds: float) -> None:
        if seconds > 0:
            self._stopping.wait(seconds)

    # -- the Batch API ----------------------------------------------------------------------------------

    def enqueue_batch_faults(self, *faults: BatchFault) -> None:
        """Script how the next batches end (after any already queued)."""
        with self._lock:
            self._batch_faults.extend(faults)

    def _new_id(self, prefix: str) -> str:
        return f"{prefix}-fake-{next(self._ids)}"

    def _create_file(self, data: bytes) -> dict[str, Any]:
        file_id = self._new_id("file")
        with self._lock:
            self.files[file_id] = data
        return {
            "id": file_id,
            "object": "file",
            "bytes": len(data),
            "created_at": int(time.time()),
            "filename": "input.jsonl",
            "purpose": "batch",
            "status": "processed",
        }

    def _create_batch(self, params: Mapping[str, Any], key: str = "") -> tuple[int, dict[str, Any]]:
        input_file = str(params.get("input_file_id"))
        if input_file not in self.files:
            return 404, _error_body(404, f"no file {input_file}")
        batch_id = self._new_id("batch")
        lines = [line for line in self.files[input_file].decode("utf-8").split("\n") if line.strip()]
        batch = {
            "id": batch_id,
            "object": "batch",
            "endpoint": params.get("endpoint"),
            "errors": None,
            "input_file_id": input_file,
            "completion_window": params.get("completion_window"),
            "status": "validating",
            "output_file_id": None,
            "error_file_id": None,
            "created_at": int(time.time()),
            "metadata": params.get("metadata"),
            "request_counts": {"total": len(lines), "completed": 0, "failed": 0},
            "_created": time.monotonic(),
            "_key": key,
        }
        with self._lock:
            self.batch_creations += 1
            self.batches[batch_id] = batch
            self._batch_fault_of[batch_id] = self._batch_faults.pop(0) if self._batch_faults else BatchFault()
        return 200, _public(batch)

    def _batch(self, batch_id: str, *, cancel: bool = False) -> tuple[int, dict[str, Any]]:
        batch = self.batches.get(batch_id)
        if batch is None:
            return 404, _error_body(404, f"no batch {batch_id}")
        if batch["status"] in ("validating", "in_progress"):
            if cancel:
                batch.update(status="cancelled", cancelled_at=int(time.time()))
            elif time.monotonic() - batch["_created"] >= self.batch_delay:
                self._finish(batch)
            else:
                batch["status"] = "in_progress"
        return 200, _public(batch)

    def _finish(self, batch: dict[str, Any]) -> None:
        fault = self._batch_fault_of[batch["id"]]
        if fault.status == "failed":
            batch.update(
                status="failed",
                failed_at=int(time.time()),
                errors={"object": "list", "data": [{"code": "invalid_file", "message": fault.message}]},
            )
            return
        text = self.files[batch["input_file_id"]].decode("utf-8")
        lines = [json.loads(line) for line in text.split("\n") if line.strip()]  # not splitlines: U+2028 is text
        output: list[dict[str, Any]] = []
        errors: list[dict[str, Any]] = []
        for number, line in enumerate(lines):
            if number < fault.error_lines:
                status = fault.error_status
                text = f"scripted error {status}"
                if fault.echo_key:
                    text = f"Incorrect API key provided: {batch['_key']}. You can find your API key online."
                errors.append(_result_line(line, status, _error_body(status, text), None))
            elif number < fault.error_lines + fault.missing_lines:
                continue
            elif fault.status == "expired" and number >= fault.answered:
                expired = {
                    "code": "batch_expired",
                    "message": "This request could not be executed before the completion window expired.",
                }
                errors.append(_result_line(line, None, None, expired))
            else:
                output.append(_answer_line(line, lambda body: self._next_reply(body)))
        for name, content in (("output_file_id", output), ("error_file_id", errors)):
            texts = [json.dumps(x, ensure_ascii=False) for x in content]
            if name == "output_file_id":
                texts = [t[: len(t) // 2] if i < fault.torn_lines else t for i, t in enumerate(texts)]
                texts += fault.extra_lines
            if texts:
                batch[name] = self._create_file("".join(t + "\n" for t in texts).encode())["id"]
        batch["request_counts"] = {"total": len(lines), "completed": len(output), "failed": len(errors)}
        batch.update(status=fault.status, completed_at=int(time.time()))


_OPENAI_ROUTES = ("/v1/chat/completions", "/chat/completions")
_ANTHROPIC_ROUTES = ("/v1/messages", "/messages")


def _handler_for(server: FakeOpenAIServer) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"
        timeout = 10  # an idle keep-alive connection is closed after this many seconds

        def do_GET(self) -> None:
            parts = self.path.split("?")[0].rstrip("/").split("/")
            if len(parts) == 5 and parts[1:3] == ["v1", "files"] and parts[4] == "content":
                data = server.files.get(parts[3])
                if data is None:
                    self._send(404, _error_body(404, f"no file {parts[3]}"), ServerReply())
                else:
                    self._send(200, {}, ServerReply(raw_body=data, content_type="application/octet-stream"))
                return
            if parts[1:] == ["v1", "batches"]:
                listed = [_public(b) for b in reversed(list(server.batches.values()))]
                self._send(200, {"object": "list", "data": listed, "has_more": False}, ServerReply())
                return
            if len(parts) == 4 and parts[1:3] == ["v1", "batches"]:
                status, payload = server._batch(parts[3])
                self._send(status, payload, ServerReply())
                return
            self._send(404, _error_body(404, f"no route {self.path}"), ServerReply())

        def _batch_post(self, route: str, raw: bytes) -> bool:
            """Answer a Batch API POST; False when ``route`` is not one."""
            parts = route.split("/")
            if route == "/v1/files":
                data = _multipart_file(str(self.headers.get("Content-Type") or ""), raw)
                if data is None:
                    self._send(400, _error_body(400, "expected a multipart upload with a file"), ServerReply())
                else:
                    self._send(200, server._create_file(data), ServerReply())
                return True
            if route == "/v1/batches":
                status, payload = server._create_batch(json.loads(raw or b"{}"), _request_key(self.headers))
                self._send(status, payload, ServerReply())
                return True
            if len(parts) == 5 and parts[1:3] == ["v1", "batches"] and parts[4] == "cancel":
                status, payload = server._batch(parts[3], cancel=True)
                self._send(status, payload, ServerReply())
                return True
            return False

        def do_POST(self) -> None:
            length = int(self.headers.get("Content-Length") or 0)
            raw = self.rfile.read(length) if length else b""
            route = self.path.rstrip("/")
            if self._batch_post(route, raw):
                return
            anthropic = route in _ANTHROPIC_ROUTES
            if route not in _OPENAI_ROUTES and not anthropic:
                self._send(404, _error_body(404, f"no route {self.path}", anthropic), ServerReply())
                return
            try:
                body = json.loads(raw or b"{}")
            except json.JSONDecodeError:
                self._send(400, _error_body(400, "request body is not JSON", anthropic), ServerReply())
                return
            reply = server._next_reply(body, _as_chat(body) if anthropic else None)
            server._wait(server.latency + reply.delay)
            if server._stopping.is_set() or reply.drop:
                self.close_connection = True  # no answer, and no more requests on this connection
                return
            key = _request_key(self.headers)
            if reply.echo_key and key:
                reply = _echoing(reply, key)
            if reply.body is not None:
                payload: Mapping[str, Any] = reply.body
            elif reply.status != 200:
                payload = _error_body(reply.status, reply.content or f"scripted error {reply.status}", anthropic)
            elif anthropic:
                payload = _message_for(reply, str(body.get("model", "fake")), body)
            else:
                payload = _completion_for(reply, str(body.get("model", "fake")))
            self._send(reply.status, payload, reply)

        def _send(self, status: int, payload: Mapping[str, Any], reply: ServerReply) -> None:
            if reply.raw_body is not None:
                data, content_type = reply.raw_body, reply.content_type
            else:
                data, content_type = json.dumps(payload, ensure_ascii=False).encode(), "application/json"
            try:
                self.send_response(status)
                self.send_header("Content-Type", content_type)
                self.send_header("Content-Length", str(len(data)))
                for name, value in reply.headers.items():
                    self.send_header(name, value)
                self.end_headers()
                if reply.drip > 0:
                    for at in range(0, len(data), 16):
                        self.wfile.write(data[at : at + 16])
                        self.wfile.flush()
                        if server._stopping.wait(reply.drip):
                            return
                else:
                    self.wfile.write(data)
            except OSError:
                pass  # the client gave up (timeout) and closed the connection

        def log_message(self, format: str, *args: Any) -> None:
            return

    return Handler


def _request_key(headers: Any) -> str:
    auth = str(headers.get("Authorization") or "")
    return auth.removeprefix("Bearer ").strip() or str(headers.get("x-api-key") or "")


def _echoing(reply: ServerReply, key: str) -> ServerReply:
    shown = key if reply.echo_key == "full" else f"{key[:8]}{'*' * 12}{key[-4:]}"
    if reply.status != 200:
        return replace(reply, content=f"Incorrect API key provided: {shown}. You can find your API key online.")
    content = reply.content or ""
    try:
        data = json.loads(content)
    except json.JSONDecodeError:
        return replace(reply, content=f"{content} {shown}")
    lists = ("verdicts", "unsupported")
    for item in [i for key in lists for i in data.get(key, [])] if isinstance(data, dict) else []:
        item["reason"] = f"{item.get('reason', '')} (key {shown})"
    return replace(reply, content=json.dumps(data, ensure_ascii=False))


def _as_chat(body: Mapping[str, Any]) -> dict[str, Any]:
    """An Anthropic Messages request in the chat-completions shape the responders read."""
    messages: list[dict[str, Any]] = []
    system = body.get("system")
    if system:
        text = system if isinstance(system, str) else "".join(str(b.get("text", "")) for b in system)
        messages.append({"role": "system", "content": text})
    for message in body.get("messages") or []:
        content = message.get("content")
        if not isinstance(content, str):
            content = "".join(str(b.get("text", "")) for b in content or [] if isinstance(b, Mapping))
        messages.append({"role": message.get("role"), "content": content})
    return {**body, "messages": messages}


def _completion_for(reply: ServerReply, model: str) -> dict[str, Any]:
    return {
        "id": f"chatcmpl-fake-{time.monotonic_ns()}",
        "object": "chat.completion",
        "created": int(time.time()),
        "model": model,
        "choices": [
            {
                "index": 0,
                "message": {"role": "assistant", "content": reply.content, "refusal": None},
                "finish_reason": reply.finish_reason,
                "logprobs": None,
            }
        ],
        "usage": {
            "prompt_tokens": reply.prompt_tokens,
            "completion_tokens": reply.completion_tokens,
            "total_tokens": reply.prompt_tokens + reply.completion_tokens,
            "prompt_tokens_details": {"cached_tokens": reply.cached_tokens},
        },
    }


def _message_for(reply: ServerReply, model: str, request: Mapping[str, Any]) -> dict[str, Any]:
    """An Anthropic message: a JSON object answered as the forced tool's input, anything else as text."""
    try:
        data = json.loads(reply.content or "")
    except json.JSONDecodeError:
        data = None
    tools = request.get("tools") or []
    if isinstance(data, dict) and tools:
        block: dict[str, Any] = {"type": "tool_use", "id": "toolu_fake", "name": tools[0].get("name"), "input": data}
        stop = "tool_use"
    else:
        block, stop = {"type": "text", "text": reply.content or ""}, "end_turn"
    if reply.finish_reason == "length":
        stop = "max_tokens"
    return {
        "id": f"msg_fake_{time.monotonic_ns()}",
        "type": "message",
        "role": "assistant",
        "model": model,
        "content": [block] if reply.content else [],
        "stop_reason": stop,
        "stop_sequence": None,
        # Anthropic counts cache reads apart from input_tokens.
        "usage": {
            "input_tokens": reply.prompt_tokens - reply.cached_tokens,
            "cache_read_input_tokens": reply.cached_tokens,
            "output_tokens": reply.completion_tokens,
        },
    }


def _error_body(status: int, message: str, anthropic: bool = False) -> dict[str, Any]:
    if anthropic:
        kind = "rate_limit_error" if status == 429 else "api_error" if status >= 500 else "invalid_request_error"
        return {"type": "error", "error": {"type": kind, "message": message}}
    kind = "rate_limit_error" if status == 429 else "server_error" if status >= 500 else "invalid_request_error"
    return {"error": {"message": message, "type": kind, "param": None, "code": None}}


def _public(batch: Mapping[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in batch.items() if not k.startswith("_")}


def _multipart_file(content_type: str, raw: bytes) -> bytes | None:
    """The bytes of the ``file`` field of a multipart/form-data body."""
    head = f"Content-Type: {content_type}\r\n\r\n".encode()
    message = email.parser.BytesParser(policy=email.policy.HTTP).parsebytes(head + raw)
    if not message.is_multipart():
        return None
    for part in message.iter_parts():
        if part.get_param("name", header="content-disposition") == "file":
            payload = part.get_payload(decode=True)
            return payload if isinstance(payload, bytes) else None
    return None


def _result_line(
    line: Mapping[str, Any], status: int | None, body: Mapping[str, Any] | None, error: Mapping[str, Any] | None
) -> dict[str, Any]:
    response = (
        None if status is None else {"status_code": status, "request_id": f"req-{time.monotonic_ns()}", "body": body}
    )
    return {
        "id": f"batch_req_{time.monotonic_ns()}",
        "custom_id": line.get("custom_id"),
        "response": response,
        "error": error,
    }


def _answer_line(line: Mapping[str, Any], answer: Callable[[dict[str, Any]], ServerReply]) -> dict[str, Any]:
    """The result line for one batch-input line, answered as ``POST /v1/chat/completions`` would be."""
    body = dict(line.get("body") or {})
    reply = answer(body)
    if reply.status != 200:
        return _result_line(line, reply.status, _error_body(reply.status, reply.content or "scripted error"), None)
    return _result_line(line, 200, reply.body or _completion_for(reply, str(body.get("model", "fake"))), None)


def answer_batch_file(
    input_path: str | os.PathLike[str], output_path: str | os.PathLike[str], responder: Responder | None = None
) -> int:
    """Answer a batch-input JSONL file into a result file, as ``python -m vllm.entrypoints.openai.run_batch
    -i INPUT -o OUTPUT`` does (by default with the offline judge); returns the number of lines answered."""
    respond = responder or offline_responder()
    with open(input_path, encoding="utf-8") as source:
        lines = [json.loads(text) for text in source if text.strip()]
    with open(output_path, "w", encoding="utf-8") as out:
        for line in lines:
            out.write(json.dumps(_answer_line(line, respond), ensure_ascii=False) + "\n")
    return len(lines)


# -- answering ragrecall's prompts ---------------------------------------------------------------------------


def offline_responder(judge: OfflineJudge | None = None) -> Responder:
    """A responder that reads ragrecall's rendered context-recall prompts and answers with the offline judge.

    The first user message says which step opened the conversation, by its data blocks
    (:func:`ragrecall.llm._prompts.read_data_blocks`): claims with evidence → confirmation, claims → judging,
    contexts without claims → the one-call mode, else decomposition of the ``<reference>`` block (or of the
    whole message, for a prompt without one).
    A later user message is a follow-up (about coverage, quotes, or the whole one-call reply), answered for
    what it asks: a quote follow-up for the claims it quotes. Token counts in its replies are rough
    (characters / 4), enough for code that sums usage.
    """
    judge = judge or OfflineJudge()

    def respond(body: Mapping[str, Any]) -> ServerReply:
        messages = body.get("messages") or []
        users = [str(m.get("content", "")) for m in messages if m.get("role") == "user"]
        first = users[0] if users else ""
        blocks = read_data_blocks(first)
        texts = {tag: [b.text for b in blocks if b.tag == tag] for tag in ("context", "claim", "reference")}
        evidence = [b for b in blocks if b.tag == "evidence"]
        if texts["claim"] and evidence:
            claims = texts["claim"]
            inputs_confirm = {
                "claims": claims,
                "evidence": [[b.text for b in evidence if b.number == n] for n in range(1, len(claims) + 1)],
            }
            content = json.dumps(judge.answer("context_recall.confirm", inputs_confirm), ensure_ascii=False)
            chars = sum(len(str(m.get("content", ""))) for m in messages)
            return ServerReply(content, prompt_tokens=chars // 4 + 1, completion_tokens=len(content) // 4 + 1)
        if texts["claim"]:
            task = "context_recall.judge"
        elif texts["context"]:
            task = "context_recall.single"
        else:
            task = "context_recall.decompose"
        inputs: dict[str, Any] = {
            "reference": texts["reference"][0] if texts["reference"] else first,
            "contexts": texts["context"],
            "claims": texts["claim"],
        }
        if len(users) > 1:
            task = _FOLLOW_UPS[task]
            if task == "context_recall.recheck":
                asked = [b.number for b in read_data_blocks(users[-1]) if b.tag == "claim" and b.number]
                inputs["numbers"] = asked
                inputs["claims"] = [inputs["claims"][n - 1] for n in asked]
        content = json.dumps(judge.answer(task, inputs), ensure_ascii=False)
        prompt_chars = sum(len(str(m.get("content", ""))) for m in messages)
        return ServerReply(content, prompt_tokens=prompt_chars // 4 + 1, completion_tokens=len(content) // 4 + 1)

    return respond


_FOLLOW_UPS = {
    "context_recall.decompose": "context_recall.cover",
    "context_recall.judge": "context_recall.recheck",
    "context_recall.single": "context_recall.single_fix",
}


def flaky_responder(
    share: float, failure: ServerReply, *, good_delay: float = 0.0, seed: int = 0, responder: Responder | None = None
) -> Responder:
    """A responder for a flaky endpoint: ``share`` of the requests (drawn with ``random.Random(seed)``) get
    ``failure`` at once, the others ``responder``'s answer (the offline judge's by default) after
    ``good_delay`` seconds."""
    draw = random.Random(seed)
    lock = threading.Lock()
    answer = responder or offline_responder()

    def respond(body: Mapping[str, Any]) -> ServerReply:
        with lock:
            fail = draw.random() < share
        return failure if fail else replace(answer(body), delay=good_delay)

    return respond


def main(argv: list[str] | None = None) -> None:
    """Command line: serve until interrupted."""
    parser = argparse.ArgumentParser(description="OpenAI-compatible fake server on 127.0.0.1")
    parser.add_argument("--port", type=int, default=8765, help="port to bind (0: any free port)")
    parser.add_argument("--latency-ms", type=float, default=0.0, help="delay added before every answer")
    args = parser.parse_args(argv)
    server = FakeOpenAIServer(latency=args.latency_ms / 1000.0, port=args.port)
    print(f"serving {server.base_url}", flush=True)
    try:
        server._httpd.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        server._stopping.set()
        server._httpd.server_close()


if __name__ == "__main__":
    main()
