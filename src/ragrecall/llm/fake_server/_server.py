"""The threaded HTTP server: chat completions, Anthropic messages, files and batches on 127.0.0.1."""

from __future__ import annotations

import email.parser
import email.policy
import itertools
import json
import sys
import threading
import time
from collections.abc import Iterable, Mapping
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from ._batchfile import answer_line, result_line
from ._replies import BatchFault, Responder, ServerReply, as_chat, completion_body, echoing, error_body, message_body
from ._responders import offline_responder

_HOST = "127.0.0.1"


class _Server(ThreadingHTTPServer):
    # socketserver's default listen backlog of 5 resets connections when many clients connect at once.
    request_queue_size = 1024
    daemon_threads = True

    def handle_error(self, request: Any, client_address: Any) -> None:
        if isinstance(sys.exc_info()[1], (ConnectionResetError, BrokenPipeError)):
            return  # a client that stopped reading (a reply over its size bound, a timeout): not the server's fault
        super().handle_error(request, client_address)


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
            return 404, error_body(404, f"no file {input_file}")
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
            return 404, error_body(404, f"no batch {batch_id}")
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
                errors.append(result_line(line, status, error_body(status, text), None))
            elif number < fault.error_lines + fault.missing_lines:
                continue
            elif fault.status == "expired" and number >= fault.answered:
                expired = {
                    "code": "batch_expired",
                    "message": "This request could not be executed before the completion window expired.",
                }
                errors.append(result_line(line, None, None, expired))
            else:
                output.append(answer_line(line, lambda body: self._next_reply(body)))
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
                    self._send(404, error_body(404, f"no file {parts[3]}"), ServerReply())
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
            self._send(404, error_body(404, f"no route {self.path}"), ServerReply())

        def _batch_post(self, route: str, raw: bytes) -> bool:
            """Answer a Batch API POST; False when ``route`` is not one."""
            parts = route.split("/")
            if route == "/v1/files":
                data = _multipart_file(str(self.headers.get("Content-Type") or ""), raw)
                if data is None:
                    self._send(400, error_body(400, "expected a multipart upload with a file"), ServerReply())
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
                self._send(404, error_body(404, f"no route {self.path}", anthropic), ServerReply())
                return
            try:
                body = json.loads(raw or b"{}")
            except json.JSONDecodeError:
                self._send(400, error_body(400, "request body is not JSON", anthropic), ServerReply())
                return
            reply = server._next_reply(body, as_chat(body) if anthropic else None)
            server._wait(server.latency + reply.delay)
            if server._stopping.is_set() or reply.drop:
                self.close_connection = True  # no answer, and no more requests on this connection
                return
            key = _request_key(self.headers)
            if reply.echo_key and key:
                reply = echoing(reply, key)
            if reply.body is not None:
                payload: Mapping[str, Any] = reply.body
            elif reply.status != 200:
                payload = error_body(reply.status, reply.content or f"scripted error {reply.status}", anthropic)
            elif anthropic:
                payload = message_body(reply, str(body.get("model", "fake")), body)
            else:
                payload = completion_body(reply, str(body.get("model", "fake")))
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
