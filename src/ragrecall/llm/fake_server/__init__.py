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

then point a client at ``http://127.0.0.1:8765/v1``; ``--hang-after N`` makes it stop answering after N
requests (a hang mid-run, :func:`hanging_responder`).
"""

from ._batchfile import answer_batch_file
from ._replies import BatchFault, Responder, ServerReply
from ._responders import flaky_responder, hanging_responder, offline_responder
from ._server import FakeOpenAIServer

__all__ = [
    "BatchFault",
    "FakeOpenAIServer",
    "Responder",
    "ServerReply",
    "answer_batch_file",
    "flaky_responder",
    "hanging_responder",
    "offline_responder",
]
