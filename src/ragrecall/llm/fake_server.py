"""A local OpenAI-compatible HTTP server, for tests and benchmarks that use a real ``AsyncOpenAI`` client.

It serves ``POST /v1/chat/completions`` on 127.0.0.1 only. Each request is answered by the next scripted
:class:`ServerReply` when there is one (status, headers, body, delay: for 429/500/hangs), else by the
responder, by default the :class:`~ragrecall.llm.OfflineJudge` reading ragrecall's own prompts. Every request
body is recorded.

Run it in its own process (for batch benchmarks)::

    python -m ragrecall.llm.fake_server --port 8765 --latency-ms 50

then point a client at ``http://127.0.0.1:8765/v1``.
"""

from __future__ import annotations

import argparse
import json
import re
import threading
import time
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from ._offline import OfflineJudge

__all__ = ["FakeOpenAIServer", "ServerReply", "offline_responder"]

_HOST = "127.0.0.1"


@dataclass(frozen=True)
class ServerReply:
    """One scripted HTTP answer.

    With ``status`` 200 the body is a chat completion whose message content is ``content`` and whose usage
    reports ``prompt_tokens`` and ``completion_tokens``; with another status it is an OpenAI-style error
    body. ``body`` replaces the generated body entirely. ``delay`` seconds pass before answering (longer
    than the client's timeout: a hung request).
    """

    content: str | None = None
    status: int = 200
    headers: Mapping[str, str] = field(default_factory=dict)
    prompt_tokens: int = 0
    completion_tokens: int = 0
    delay: float = 0.0
    finish_reason: str = "stop"
    body: Mapping[str, Any] | None = None


Responder = Callable[[Mapping[str, Any]], ServerReply]


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

    Use as a context manager, or call :meth:`start` and :meth:`stop`. Hung requests are released at stop.
    """

    def __init__(
        self,
        responder: Responder | None = None,
        *,
        replies: Iterable[ServerReply] = (),
        latency: float = 0.0,
        port: int = 0,
    ) -> None:
        self.responder: Responder = responder or offline_responder()
        self.latency = latency
        self.requests: list[dict[str, Any]] = []
        """Every request body received (JSON-decoded), in arrival order."""
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
        """Release hung requests, stop serving and close the socket."""
        self._stopping.set()
        self._httpd.shutdown()
        self._httpd.server_close()
        if self._thread is not None:
            self._thread.join(timeout=5)

    def __enter__(self) -> FakeOpenAIServer:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    def _next_reply(self, body: dict[str, Any]) -> ServerReply:
        with self._lock:
            self.requests.append(body)
            scripted = self._script.pop(0) if self._script else None
        return scripted if scripted is not None else self.responder(body)

    def _wait(self, seconds: float) -> None:
        if seconds > 0:
            self._stopping.wait(seconds)


def _handler_for(server: FakeOpenAIServer) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"
        timeout = 10  # an idle keep-alive connection is closed after this many seconds

        def do_POST(self) -> None:
            length = int(self.headers.get("Content-Length") or 0)
            raw = self.rfile.read(length) if length else b""
            if self.path.rstrip("/") not in ("/v1/chat/completions", "/chat/completions"):
                self._send(404, _error_body(404, f"no route {self.path}"), {})
                return
            try:
                body = json.loads(raw or b"{}")
            except json.JSONDecodeError:
                self._send(400, _error_body(400, "request body is not JSON"), {})
                return
            reply = server._next_reply(body)
            server._wait(server.latency + reply.delay)
            if server._stopping.is_set():
                return
            payload = reply.body if reply.body is not None else _body_for(reply, str(body.get("model", "fake")))
            self._send(reply.status, payload, reply.headers)

        def _send(self, status: int, payload: Mapping[str, Any], headers: Mapping[str, str]) -> None:
            data = json.dumps(payload, ensure_ascii=False).encode()
            try:
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                for name, value in headers.items():
                    self.send_header(name, value)
                self.end_headers()
                self.wfile.write(data)
            except OSError:
                pass  # the client gave up (timeout) and closed the connection

        def log_message(self, format: str, *args: Any) -> None:
            return

    return Handler


def _body_for(reply: ServerReply, model: str) -> dict[str, Any]:
    if reply.status != 200:
        return _error_body(reply.status, f"scripted error {reply.status}")
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
        },
    }


def _error_body(status: int, message: str) -> dict[str, Any]:
    kind = "rate_limit_error" if status == 429 else "server_error" if status >= 500 else "invalid_request_error"
    return {"error": {"message": message, "type": kind, "param": None, "code": None}}


# -- answering ragrecall's prompts ---------------------------------------------------------------------------

_CONTEXT_ITEM = re.compile(r"^\[(\d+)\] ?", re.MULTILINE)
_CLAIM_ITEM = re.compile(r"^\d+\. ?", re.MULTILINE)
_HEADINGS = {
    "contexts": ("Contexts:", "上下文："),
    "claims": ("Claims:", "陈述："),
    "reference": ("Reference:", "参考答案："),
}


def offline_responder(judge: OfflineJudge | None = None) -> Responder:
    """A responder that reads ragrecall's rendered context-recall prompts and answers with the offline judge.

    The first user message says which step opened the conversation; a later user message is a follow-up
    (about coverage, quotes, or the whole one-call reply), answered for what it asks. Token counts in its
    replies are rough (characters / 4), enough for code that sums usage.
    """
    judge = judge or OfflineJudge()

    def respond(body: Mapping[str, Any]) -> ServerReply:
        messages = body.get("messages") or []
        users = [str(m.get("content", "")) for m in messages if m.get("role") == "user"]
        first = users[0] if users else ""
        sections = _sections(first)
        if "claims" in sections:
            task = "context_recall.judge"
        elif "contexts" in sections:
            task = "context_recall.single"
        else:
            task = "context_recall.decompose"
        inputs: dict[str, Any] = {
            "reference": sections.get("reference", first),
            "contexts": _items(sections.get("contexts", ""), _CONTEXT_ITEM),
            "claims": _items(sections.get("claims", ""), _CLAIM_ITEM),
        }
        if len(users) > 1:
            task = _FOLLOW_UPS[task]
            if task == "context_recall.recheck":
                asked = [int(m.group(1)) for m in _RECHECK_ITEM.finditer(users[-1])]
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
_RECHECK_ITEM = re.compile(r"^- claim (\d+) ", re.MULTILINE)


def _sections(text: str) -> dict[str, str]:
    marks: list[tuple[int, int, str]] = []
    for name, headings in _HEADINGS.items():
        for heading in headings:
            at = text.find(heading)
            if at != -1 and (at == 0 or text[at - 1] == "\n"):
                marks.append((at, at + len(heading), name))
                break
    marks.sort()
    return {
        name: text[end : marks[i + 1][0] if i + 1 < len(marks) else len(text)].strip()
        for i, (_, end, name) in enumerate(marks)
    }


def _items(block: str, marker: re.Pattern[str]) -> list[str]:
    starts = list(marker.finditer(block))
    return [
        block[m.end() : starts[i + 1].start() if i + 1 < len(starts) else len(block)].strip()
        for i, m in enumerate(starts)
    ]


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
