"""Benchmark: ``ragrecall.evaluate`` over HTTP against the bare ``openai`` SDK floor, and per-sample overhead.

What is measured, in one run:

1. HTTP throughput. The local OpenAI-compatible test server (``python -m ragrecall.llm.fake_server``) runs in
   its own process on 127.0.0.1 with ``--latency-ms`` added to every answer, and replies to ragrecall's
   prompts with the offline judge. ``evaluate`` scores ``--samples`` deterministic samples (a 3-5 sentence
   reference, 3-5 retrieved contexts each) with ``ContextRecall`` in claims mode (2 requests per sample:
   decompose, then judge) through ``OpenAILLM`` on a fresh ``AsyncOpenAI``, at ``--concurrency``. Reported:
   wall time, requests sent (from the result's usage), failures (must be 0), client CPU time.
2. The floor. The exact request bodies ragrecall sends are captured in a separate, untimed pass (an httpx2
   request event hook on the client's HTTP client), then sent with a bare, fresh ``AsyncOpenAI``
   (``chat.completions.create(**body)``, ``asyncio.Semaphore`` + ``gather``) at the same concurrency to the
   same server, from the same process. ``ideal = requests x latency / concurrency``;
   ``floor = max(ideal, bare SDK)``; the target is ``ragrecall / floor <= 1.2``. A third kind of run sends the
   same bodies through ``client.post`` with the reply's JSON parsed, the path ragrecall takes when
   ``create`` is the SDK's own (see ``ragrecall.llm``'s OpenAI transport): the SDK's cost on that path, so
   that ragrecall's own work over it is shown apart from what skipping ``create``'s parameter walk saves.
3. Framework overhead without HTTP or latency: ``evaluate`` over ``--overhead-samples`` samples with
   ``ContextRecall(OfflineJudge())`` and with an LLM whose replies are prepared in advance (so the
   figure is prompt rendering, validation, repair-loop bookkeeping, the checks, result building and the evaluation
   loop). The prepared LLM keeps no record of the requests it answers.

HTTP figures are the best of ``--repeat`` runs; ragrecall and the bare SDK alternate so that both see the
same machine state. Every client is fresh (new connection pool) for every timed run. Before each timed run,
of either kind, the garbage collector collects and then freezes what exists (``gc.freeze()``: the modules, the
samples, the captured bodies), so that the run's collections scan only what the run itself creates, not what
this harness keeps between runs.

    python benchmarks/evaluate_bench.py [--samples 2000] [--concurrency 64] [--latency-ms 50] [--repeat 3]
        [--overhead-samples 20000] [--out benchmarks/results/evaluate_bench.txt]
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import gc
import http.client
import json
import os
import platform
import random
import shlex
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx2
import openai
from openai import AsyncOpenAI

import ragrecall
from ragrecall._sync import run_sync
from ragrecall.llm import FakeLLM, LLMReply, LLMRequest, OfflineJudge, OpenAILLM
from ragrecall.metrics.context_recall import ContextRecall
from ragrecall.schema import Sample
from ragrecall.usage import Usage

MODEL = "gpt-4o-mini"
POST_OPTIONS: Any = {"security": {"bearer_auth": True}}  # what chat.completions.create asks of authentication
TARGET_RATIO = 1.2

# -- samples -------------------------------------------------------------------------------------------------

_PLACES = ["Port Alder", "Bramwick", "Cadora", "Dunmere", "Elsford", "Fenhollow", "Garrowby", "Hallin"]
_SUBJECTS = ["harbour", "university", "cathedral", "bridge", "railway", "market", "museum", "observatory"]
_VERBS = ["was founded", "was rebuilt", "was enlarged", "was first mapped", "was opened to the public"]
_DETAILS = [
    "after a long dispute between the merchant guilds",
    "with money raised by a public lottery",
    "to a design by an engineer from the north",
    "when the river trade was at its height",
    "despite repeated floods in the lower town",
    "by order of the regional council",
]


def _fact(rng: random.Random) -> str:
    year = rng.randint(1700, 2020)
    return (
        f"The {rng.choice(_SUBJECTS)} of {rng.choice(_PLACES)} {rng.choice(_VERBS)} in {year} {rng.choice(_DETAILS)}."
    )


def make_samples(count: int, seed: int = 0) -> list[Sample]:
    """``count`` deterministic samples: a 3-5 sentence reference, 3-5 contexts of 3-6 sentences each.

    About two thirds of the reference sentences appear in some context (supported), the rest do not.
    """
    rng = random.Random(seed)
    samples = []
    for i in range(count):
        reference = [_fact(rng) for _ in range(rng.randint(3, 5))]
        contexts = [[_fact(rng) for _ in range(rng.randint(3, 6))] for _ in range(rng.randint(3, 5))]
        for sentence in reference:
            if rng.random() < 0.67:
                chosen = rng.choice(contexts)
                chosen.insert(rng.randint(0, len(chosen)), sentence)
        samples.append(Sample(id=i, reference=" ".join(reference), retrieved_contexts=[" ".join(c) for c in contexts]))
    return samples


# -- the server ----------------------------------------------------------------------------------------------


@contextlib.contextmanager
def fake_server(latency_ms: float) -> Iterator[tuple[str, subprocess.Popen[str]]]:
    """Run the fake server in its own process on a free port; yield its base URL; always stop it."""
    command = [sys.executable, "-m", "ragrecall.llm.fake_server", "--port", "0", "--latency-ms", str(latency_ms)]
    with tempfile.TemporaryFile(mode="w+") as log:
        proc = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=log, text=True)
        try:
            assert proc.stdout is not None
            line = proc.stdout.readline().strip()  # "serving http://127.0.0.1:PORT/v1"
            if not line.startswith("serving "):
                raise RuntimeError(f"fake server did not start: {line!r}")
            base_url = line.split()[-1]
            _wait_until_answering(base_url)
            yield base_url, proc
        except BaseException:
            log.seek(0)  # the server's tracebacks (clients closing pooled connections add harmless ones)
            print(f"fake server stderr (last 3000 characters):\n{log.read()[-3000:]}", file=sys.stderr)
            raise
        finally:
            proc.terminate()
            try:
                proc.wait(timeout=5)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()
            if proc.stdout is not None:
                proc.stdout.close()


def _wait_until_answering(base_url: str, timeout: float = 15.0) -> None:
    host, port = base_url.split("//")[1].split("/")[0].split(":")
    body = json.dumps({"model": MODEL, "messages": [{"role": "user", "content": "Reference: Ping."}]})
    deadline = time.monotonic() + timeout
    while True:
        try:
            conn = http.client.HTTPConnection(host, int(port), timeout=2)
            conn.request("POST", "/v1/chat/completions", body, {"Content-Type": "application/json"})
            status = conn.getresponse().status
            conn.close()
            if status == 200:
                return
        except OSError:
            pass
        if time.monotonic() > deadline:
            raise RuntimeError(f"fake server at {base_url} did not answer within {timeout:.0f}s")
        time.sleep(0.05)


def cpu_seconds_of(pid: int) -> float:
    """User + system CPU seconds used so far by process ``pid`` (Linux /proc; 0.0 elsewhere)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


# -- the HTTP measurements -----------------------------------------------------------------------------------


@contextlib.contextmanager
def settled_heap() -> Iterator[None]:
    """Collect, then freeze every object that exists, for the span of one timed run; unfreeze after."""
    gc.collect()
    gc.freeze()
    try:
        yield
    finally:
        gc.unfreeze()


@dataclass
class Run:
    """One timed HTTP run."""

    wall_s: float
    requests: int
    """Requests that got an answer (ragrecall: from the result's usage)."""
    sent: int
    """HTTP requests sent, retries included (counted by a request hook)."""
    failures: int
    client_cpu_s: float
    server_cpu_s: float


class RequestCounter:
    """An httpx2 request event hook counting the HTTP requests a client sends."""

    def __init__(self) -> None:
        self.count = 0

    async def __call__(self, request: httpx2.Request) -> None:
        self.count += 1


def client_for(base_url: str, *hooks: Callable[[httpx2.Request], Any]) -> AsyncOpenAI:
    """A fresh AsyncOpenAI (own connection pool) for the fake server, with request event hooks."""
    http_client = openai.DefaultAsyncHttpxClient(event_hooks={"request": list(hooks)})
    return AsyncOpenAI(base_url=base_url, api_key="x", http_client=http_client)


def capture_bodies(base_url: str, samples: list[Sample], concurrency: int) -> list[dict[str, Any]]:
    """The JSON bodies ragrecall sends for ``samples`` (one untimed evaluate through a request hook)."""
    bodies: list[dict[str, Any]] = []

    async def record(request: httpx2.Request) -> None:
        bodies.append(json.loads(request.content))

    client = client_for(base_url, record)
    result = ragrecall.evaluate(
        samples, [ContextRecall(OpenAILLM(client, MODEL))], max_concurrency=concurrency, show_progress=False
    )
    run_sync(client.close())
    if result.failures:
        raise RuntimeError(f"capture pass: {len(result.failures)} failures, first: {result.failures[0]}")
    if len(bodies) != result.usage.requests:
        raise RuntimeError(f"captured {len(bodies)} bodies for {result.usage.requests} requests")
    return bodies


def time_ragrecall(base_url: str, samples: list[Sample], concurrency: int, server_pid: int) -> Run:
    """``ragrecall.evaluate`` over HTTP with a fresh client."""
    counter = RequestCounter()
    client = client_for(base_url, counter)
    metric = ContextRecall(OpenAILLM(client, MODEL))
    with settled_heap():
        server_cpu = cpu_seconds_of(server_pid)
        cpu = time.process_time()
        started = time.perf_counter()
        result = ragrecall.evaluate(samples, [metric], max_concurrency=concurrency, show_progress=False)
        wall = time.perf_counter() - started
        client_cpu = time.process_time() - cpu
        server_cpu = cpu_seconds_of(server_pid) - server_cpu
    run_sync(client.close())  # untimed; on ragrecall's loop, where the client's connections live
    return Run(
        wall,
        result.usage.requests,
        counter.count,
        len(result.failures),
        client_cpu,
        server_cpu,
    )


async def _send_all(
    client: AsyncOpenAI, bodies: list[dict[str, Any]], concurrency: int, server_pid: int, *, post: bool = False
) -> tuple[float, int, float, float]:
    """Send every body at ``concurrency`` (with ``post``: through ``client.post``, the reply's JSON parsed, as
    ragrecall sends them); wall seconds, failures, client and server CPU seconds."""
    semaphore = asyncio.Semaphore(concurrency)

    async def one(body: dict[str, Any]) -> bool:
        async with semaphore:
            if post:
                raw = await client.post("/chat/completions", body=body, cast_to=bytes, options=POST_OPTIONS)
                return bool(json.loads(raw)["choices"][0]["message"]["content"])
            completion = await client.chat.completions.create(**body)
            return bool(completion.choices and completion.choices[0].message.content)

    server_cpu = cpu_seconds_of(server_pid)
    cpu = time.process_time()
    started = time.perf_counter()
    answered = await asyncio.gather(*(one(b) for b in bodies), return_exceptions=True)
    wall = time.perf_counter() - started
    client_cpu = time.process_time() - cpu
    server_cpu = cpu_seconds_of(server_pid) - server_cpu
    await client.close()  # untimed
    return wall, sum(1 for ok in answered if ok is not True), client_cpu, server_cpu


def time_bare_sdk(
    base_url: str, bodies: list[dict[str, Any]], concurrency: int, server_pid: int, *, post: bool = False
) -> Run:
    """The same bodies through a bare, fresh AsyncOpenAI (SDK retries off, as ragrecall sets them): with
    ``chat.completions.create``, or with ``post`` through ``client.post`` as ragrecall sends them."""
    counter = RequestCounter()
    client = client_for(base_url, counter).with_options(max_retries=0)
    with settled_heap():
        sent = _send_all(client, bodies, concurrency, server_pid, post=post)
        wall, failures, client_cpu, server_cpu = asyncio.run(sent)
    return Run(wall, len(bodies) - failures, counter.count, failures, client_cpu, server_cpu)


# -- the overhead measurements -------------------------------------------------------------------------------


class PreparedLLM:
    """Answers instantly with replies prepared in advance (what ``FakeLLM`` does, without keeping every request
    it is sent, which would add the harness's own memory to the figure)."""

    model_name = "prepared"

    def __init__(self, replies: dict[tuple[str, ...], str]) -> None:
        self._replies = replies

    async def agenerate(self, request: LLMRequest[Any]) -> LLMReply[Any]:
        raw = self._replies[tuple(m["content"] for m in request.messages)]
        return LLMReply.validate(raw, request.output, Usage(requests=1))


def prepared_fake(samples: list[Sample], concurrency: int) -> PreparedLLM:
    """An LLM answering instantly with the offline judge's replies, recorded in advance.

    The replies are recorded in one untimed ``evaluate`` over ``samples`` (the judge sees only the claims that
    no passage states word for word, so its requests are known only once the metric has sent them), keyed by
    the messages of each request; the FakeLLM looks them up.
    """
    judge = OfflineJudge()
    replies: dict[tuple[str, ...], str] = {}

    def key(request: LLMRequest[Any]) -> tuple[str, ...]:
        return tuple(m["content"] for m in request.messages)

    def record(request: LLMRequest[Any]) -> str:
        reply = json.dumps(judge.answer(request.task, request.inputs))
        replies[key(request)] = reply
        return reply

    result = ragrecall.evaluate(
        samples, [ContextRecall(FakeLLM(record))], max_concurrency=concurrency, show_progress=False
    )
    if result.failures:
        raise RuntimeError(f"recording pass: {len(result.failures)} failures, first: {result.failures[0]}")
    return PreparedLLM(replies)


def time_overhead(samples: list[Sample], make_metric: Callable[[], ContextRecall], concurrency: int) -> float:
    """Wall seconds of one ``evaluate`` over ``samples`` with no HTTP and no latency."""
    metric = make_metric()
    with settled_heap():
        started = time.perf_counter()
        result = ragrecall.evaluate(samples, [metric], max_concurrency=concurrency, show_progress=False)
        wall = time.perf_counter() - started
    if result.failures:
        raise RuntimeError(f"overhead run: {len(result.failures)} failures, first: {result.failures[0]}")
    return wall


# -- report --------------------------------------------------------------------------------------------------


def machine() -> str:
    model = platform.processor() or platform.machine()
    with contextlib.suppress(OSError):
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
    return (
        f"CPU {model}, {os.cpu_count()} cores; Python {platform.python_version()} ({platform.system()}); "
        f"openai {openai.__version__}, httpx2 {httpx2.__version__}, ragrecall {ragrecall.__version__}"
    )


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--samples", type=int, default=2000, help="samples scored over HTTP")
    parser.add_argument("--concurrency", type=int, default=64, help="max_concurrency, and the bare SDK's limit")
    parser.add_argument("--latency-ms", type=float, default=50.0, help="latency the fake server adds per request")
    parser.add_argument("--repeat", type=int, default=3, help="timed HTTP runs of each kind; the best is kept")
    parser.add_argument("--overhead-samples", type=int, default=20000, help="samples for the no-HTTP overhead")
    parser.add_argument("--seed", type=int, default=0, help="seed of the sample generator")
    parser.add_argument("--out", type=Path, default=None, help="also write the report to this file")
    args = parser.parse_args(argv)

    lines: list[str] = []

    def say(text: str = "") -> None:
        print(text, flush=True)
        lines.append(text)

    command = "python " + " ".join(shlex.quote(a) for a in [sys.argv[0], *(argv or sys.argv[1:])])
    say(f"$ {command}")
    say(machine())
    say()

    samples = make_samples(args.samples, args.seed)
    n_contexts = sum(len(s.retrieved_contexts or []) for s in samples) / len(samples)
    say(
        f"HTTP: {args.samples} samples (avg {n_contexts:.1f} contexts), ContextRecall claims mode, "
        f"max_concurrency={args.concurrency}, server latency {args.latency_ms:g} ms, best of {args.repeat}"
    )
    with fake_server(args.latency_ms) as (base_url, server):
        bodies = capture_bodies(base_url, samples, args.concurrency)
        ours: list[Run] = []
        bare: list[Run] = []
        posted: list[Run] = []
        for _ in range(args.repeat):
            bare.append(time_bare_sdk(base_url, bodies, args.concurrency, server.pid))
            posted.append(time_bare_sdk(base_url, bodies, args.concurrency, server.pid, post=True))
            ours.append(time_ragrecall(base_url, samples, args.concurrency, server.pid))

    requests = len(bodies)
    ideal = requests * args.latency_ms / 1000.0 / args.concurrency
    best_bare = min(bare, key=lambda r: r.wall_s)
    best_ours = min(ours, key=lambda r: r.wall_s)
    floor = max(ideal, best_bare.wall_s)
    ratio = best_ours.wall_s / floor

    def row(name: str, r: Run, runs: list[Run]) -> str:
        all_runs = ", ".join(f"{x.wall_s:.2f}" for x in runs)
        return (
            f"  {name:<12} {r.wall_s:7.2f} s  {r.requests / r.wall_s:7.0f} req/s  {r.requests:6d} requests  "
            f"{r.sent - r.requests} retried  {r.failures} failures  "
            f"client CPU {r.client_cpu_s / r.sent * 1e3:5.2f} ms/req  "
            f"server CPU {r.server_cpu_s / r.sent * 1e3:5.2f} ms/req  (runs: {all_runs} s)"
        )

    say(f"  requests per sample: {requests / args.samples:.2f} (captured bodies: {requests})")
    say(f"  {'ideal':<12} {ideal:7.2f} s  (requests x latency / concurrency)")
    say(row("bare SDK", best_bare, bare))
    say(row("bare post", min(posted, key=lambda r: r.wall_s), posted))
    say(row("ragrecall", best_ours, ours))
    say(f"  floor = max(ideal, bare SDK) = {floor:.2f} s")
    verdict = "within" if ratio <= TARGET_RATIO else "ABOVE"
    say(f"  ragrecall / floor = {ratio:.2f}  ({verdict} the {TARGET_RATIO}x target)")
    say(
        f"  ragrecall / bare SDK = {best_ours.wall_s / best_bare.wall_s:.2f};  "
        f"bare SDK / ideal = {best_bare.wall_s / ideal:.2f}"
    )
    ours_cpu = min(r.client_cpu_s / r.sent for r in ours) * 1e3
    bare_cpu = min(r.client_cpu_s / r.sent for r in bare) * 1e3
    say(
        f"  client CPU per request, least of each kind: ragrecall {ours_cpu:.2f} ms, bare SDK {bare_cpu:.2f} ms "
        f"({ours_cpu / bare_cpu:.2f}x; ragrecall's own work {ours_cpu - bare_cpu:+.2f} ms)"
    )
    post_cpu = min(r.client_cpu_s / r.sent for r in posted) * 1e3
    say(
        f"  the same bodies through client.post, as ragrecall sends them: {post_cpu:.2f} ms of client CPU per "
        f"request ({post_cpu / bare_cpu:.2f}x create's); ragrecall's own work over that path "
        f"{ours_cpu - post_cpu:+.2f} ms ({ours_cpu / post_cpu:.2f}x)"
    )
    pairs = [o.wall_s / b.wall_s for o, b in zip(ours, bare, strict=True)]
    cpu_pairs = [(o.client_cpu_s / o.sent) / (b.client_cpu_s / b.sent) for o, b in zip(ours, bare, strict=True)]
    say(
        f"  each round (the bare SDK, then ragrecall): wall-time ratios {', '.join(f'{p:.2f}' for p in pairs)} "
        f"(median {statistics.median(pairs):.2f}); client CPU ratios {', '.join(f'{p:.2f}' for p in cpu_pairs)} "
        f"(median {statistics.median(cpu_pairs):.2f})"
    )
    say()

    n = args.overhead_samples
    say(f"Overhead without HTTP: evaluate over {n} samples, max_concurrency={args.concurrency}, best of {args.repeat}")
    overhead_samples = make_samples(n, args.seed + 1)
    fake = prepared_fake(overhead_samples, args.concurrency)
    for name, make in (
        ("OfflineJudge", lambda: ContextRecall(OfflineJudge())),
        ("prepared", lambda: ContextRecall(fake)),
    ):
        best = min(time_overhead(overhead_samples, make, args.concurrency) for _ in range(args.repeat))
        say(f"  {name:<12} {best:6.2f} s  {n / best:7.0f} samples/s  {best / n * 1e6:5.0f} µs/sample")
    if any(r.failures or r.sent != r.requests for r in ours + bare):
        say("WARNING: some requests failed or were retried; the HTTP figures above are not valid")

    if args.out is not None:
        args.out.parent.mkdir(parents=True, exist_ok=True)
        args.out.write_text("\n".join(lines) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
