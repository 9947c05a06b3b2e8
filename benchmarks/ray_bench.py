"""ragrecall on Ray against ``evaluate`` in one process: throughput, Ray's start-up, client CPU per request, ranking.

Samples come from ``evaluate_bench.py``'s generator (a 3-5 sentence reference, 3-5 retrieved contexts), with
reference passages (the reference's sentences) and document IDs added, so that claim recall (through the real
``openai`` SDK against the fake server, in its own process, with ``--latency-ms`` before every answer), string
recall and ID recall all run. Each measurement checks that the summary equals ``evaluate``'s.

    python benchmarks/ray_bench.py throughput --samples 20000 --latency-ms 50 [--concurrency 64]
    python benchmarks/ray_bench.py startup [--repeat 3]
    python benchmarks/ray_bench.py cpu --samples 2000 --latency-ms 50 [--repeat 2]
    python benchmarks/ray_bench.py ranking --queries 2000 --docs 100 [--partitions N] [--stages] [--dir DIR]

``throughput`` times ``evaluate`` in this process, ``evaluate_dataset`` on a local Ray cluster (2 CPUs, 2 actors)
and on two Ray nodes simulated on this machine (``ray.cluster_utils.Cluster``, 1 CPU each, one actor per node).
``cpu`` runs claim recall alone, in rounds: ``evaluate`` in this process, ``evaluate`` in two processes at once
(half the samples each), then Ray with 1 and 2 actors; each client process's CPU seconds, thread by thread, over
the requests it sent, read by its LLM (see ``CpuNoted``), so that both sides are measured by one rule.
``ranking`` writes a synthetic run (``--queries`` × ``--docs`` lines, 20 judgments per query) and times
``ragrecall.ranking.evaluate_run`` against the Ray path, peak memory of this process and of this run's Ray
workers; ``--stages`` then times the Ray path's steps one at a time.
"""

from __future__ import annotations

import argparse
import functools
import json
import os
import random
import resource
import sys
import tempfile
import threading
import time
from concurrent.futures import ProcessPoolExecutor
from multiprocessing import get_context
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).parent))

import evaluate_bench
import openai

from ragrecall import ContextRecall, IDBasedContextRecall, NonLLMContextRecall, evaluate
from ragrecall.llm import LLM, LLMReply, LLMRequest, OpenAILLM, OutputT, RetryPolicy

MODEL = evaluate_bench.MODEL


def rows(count: int) -> list[dict[str, Any]]:
    """The generator's samples with reference passages and document IDs (half the references retrieved)."""
    out = []
    for sample in evaluate_bench.make_samples(count):
        row = sample.model_dump(mode="json", exclude_none=True)
        n = len(sample.retrieved_contexts or [])
        row["reference_contexts"] = [s.strip() + "." for s in (sample.reference or "").split(".") if s.strip()]
        row["retrieved_context_ids"] = [f"d{sample.id}-{k}" for k in range(n)]
        row["reference_context_ids"] = [f"d{sample.id}-{k}" for k in range(0, 2 * n, 2)]
        out.append(row)
    return out


def metrics(claims_only: bool = False) -> list[Any]:
    return [ContextRecall()] if claims_only else [ContextRecall(), NonLLMContextRecall(), IDBasedContextRecall()]


def openai_llm(url: str, concurrency: int) -> LLM:
    """Built in each process that uses it (an actor builds its own)."""
    client = openai.AsyncOpenAI(api_key="sk-bench", base_url=url, max_retries=0)
    return OpenAILLM(client, MODEL, retry=RetryPolicy(request_timeout=60.0), max_concurrency=concurrency)


TICKS = os.sysconf("SC_CLK_TCK")


def thread_cpu() -> dict[str, tuple[str, float]]:
    """Each thread of this process: its id, then its Python name (``threading``) or, for a thread Python did not
    start (Ray's own, in C++), ``native``, and the CPU seconds it used (Linux /proc)."""
    names = {str(t.native_id): t.name for t in threading.enumerate()}
    found = {}
    for task in Path("/proc/self/task").iterdir():
        try:
            fields = (task / "stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue  # the thread ended
        found[task.name] = (names.get(task.name, "native"), (int(fields[11]) + int(fields[12])) / TICKS)
    return found


class CpuNoted:
    """An LLM that notes, every 20 requests, the CPU seconds each thread of its process used since the LLM was
    built, and the requests sent, in ``folder/<pid>.json``. ``evaluate`` and each actor are measured by this one
    rule: from the LLM's construction to the last 20th request (the few batches' tails after it are left out on
    both sides alike)."""

    def __init__(self, inner: LLM, folder: str) -> None:
        self.inner, self.folder, self.sent = inner, folder, 0
        self.at_start = thread_cpu()

    @property
    def model_name(self) -> str:
        return self.inner.model_name

    async def agenerate(self, request: LLMRequest[OutputT]) -> LLMReply[OutputT]:
        reply = await self.inner.agenerate(request)
        self.sent += 1
        if self.sent % 20 == 0:
            by_kind: dict[str, float] = {}
            for tid, (name, seconds) in thread_cpu().items():
                kind = "scoring" if tid == str(threading.get_native_id()) else _kind(name)
                by_kind[kind] = by_kind.get(kind, 0.0) + seconds - self.at_start.get(tid, (name, 0.0))[1]
            note = {"requests": self.sent, "cpu": by_kind}
            Path(self.folder, f"{os.getpid()}.json").write_text(json.dumps(note))
        return reply


def _kind(name: str) -> str:
    """Which part of a client process a thread belongs to, by its name (see :func:`cpu`)."""
    if name == "native":
        return "ray"
    if name.startswith("ThreadPoolExecutor"):
        return "batches"
    return "other"


def cpu_noted(url: str, concurrency: int, folder: str) -> LLM:
    return CpuNoted(openai_llm(url, concurrency), folder)


def on_ray(
    data: list[dict[str, Any]], ms: list[Any], llm: Any, actors: int, cpus_per_actor: float
) -> tuple[Any, float]:
    import ray

    from ragrecall.integrations.ray import evaluate_dataset

    ds = ray.data.from_items(data, override_num_blocks=max(4, actors * 4))
    with tempfile.TemporaryDirectory() as out:
        started = time.perf_counter()
        result = evaluate_dataset(
            ds,
            ms,
            out=Path(out, "results"),
            llm=llm,
            batch_size=250,
            concurrency=actors,
            ray_remote_args={"num_cpus": cpus_per_actor},
        )
        return result, time.perf_counter() - started


def throughput(args: argparse.Namespace) -> None:
    import ray
    from ray.cluster_utils import Cluster

    data = rows(args.samples)
    with evaluate_bench.fake_server(args.latency_ms) as (url, server):
        started = time.perf_counter()
        expected = evaluate(
            data,
            metrics(),
            llm=openai_llm(url, args.concurrency),
            show_progress=False,
            max_concurrency=args.concurrency,
        )
        alone = time.perf_counter() - started
        requests = expected.summary["context_recall"].usage.requests
        say(f"evaluate, one process: {alone:.1f} s, {args.samples / alone:.0f} samples/s, {requests / alone:.0f} req/s")
        llm = functools.partial(openai_llm, url, args.concurrency)

        ray.init(address="local", num_cpus=2, include_dashboard=False, log_to_driver=False, configure_logging=False)
        quiet()
        result, took = on_ray(data, metrics(), llm, actors=2, cpus_per_actor=0.25)
        assert result.summary == expected.summary, "the summary differs from evaluate's"
        say(
            f"Ray, local cluster (2 CPUs, 2 actors): {took:.1f} s, {args.samples / took:.0f} samples/s, "
            f"{requests / took:.0f} req/s; summary equal to evaluate's"
        )
        ray.shutdown()

        cluster = Cluster(initialize_head=True, head_node_args={"num_cpus": 1})
        cluster.add_node(num_cpus=1)
        ray.init(address=cluster.address, log_to_driver=False, configure_logging=False)
        quiet()
        result, took = on_ray(data, metrics(), llm, actors=2, cpus_per_actor=0.25)
        assert result.summary == expected.summary, "the summary differs from evaluate's"
        say(
            f"Ray, two simulated nodes (1 CPU each, 2 actors): {took:.1f} s, {args.samples / took:.0f} samples/s, "
            f"{requests / took:.0f} req/s; summary equal to evaluate's"
        )
        ray.shutdown()
        cluster.shutdown()
        say(f"fake server CPU: {evaluate_bench.cpu_seconds_of(server.pid):.1f} s")


def startup(args: argparse.Namespace) -> None:
    import ray

    for _ in range(args.repeat):
        started = time.perf_counter()
        ray.init(address="local", num_cpus=2, include_dashboard=False, log_to_driver=False, configure_logging=False)
        up = time.perf_counter() - started
        ray.get(ray.remote(lambda: 1).remote())
        first = time.perf_counter() - started
        quiet()
        from ragrecall import OfflineJudge, demo_dataset
        from ragrecall.integrations.ray import evaluate_dataset

        data = [s.model_dump(mode="json", exclude_none=True) for s in demo_dataset()]
        with tempfile.TemporaryDirectory() as out:
            t0 = time.perf_counter()
            evaluate_dataset(
                ray.data.from_items(data),
                [ContextRecall()],
                out=Path(out, "r"),
                llm=OfflineJudge,
                concurrency=1,
                ray_remote_args={"num_cpus": 0.5},
            )
            demo = time.perf_counter() - t0
        t0 = time.perf_counter()
        ray.shutdown()
        down = time.perf_counter() - t0
        t0 = time.perf_counter()
        evaluate(data, [ContextRecall()], llm=OfflineJudge(), show_progress=False)
        alone = time.perf_counter() - t0
        say(
            f"ray.init {up:.2f} s, first task {first:.2f} s; the 12-sample demo on Ray {demo:.2f} s (evaluate: "
            f"{alone:.3f} s); ray.shutdown {down:.2f} s"
        )


def cpu(args: argparse.Namespace) -> None:
    import ray

    data = rows(args.samples)
    spawn = get_context("spawn")  # a fresh interpreter each, as an actor's process is
    with evaluate_bench.fake_server(args.latency_ms) as (url, _):
        runs: list[tuple[str, Any]] = []
        for round_ in range(args.repeat):
            with tempfile.TemporaryDirectory() as notes:
                expected = evaluate(
                    data,
                    metrics(claims_only=True),
                    llm=cpu_noted(url, args.concurrency, notes),
                    show_progress=False,
                    max_concurrency=args.concurrency,
                )
                runs.append((f"evaluate, one process (round {round_ + 1})", _notes(notes)))
            with tempfile.TemporaryDirectory() as notes, ProcessPoolExecutor(2, mp_context=spawn) as pool:
                halves = [data[: len(data) // 2], data[len(data) // 2 :]]
                list(pool.map(_evaluate_noted, halves, [url] * 2, [args.concurrency] * 2, [notes] * 2))
                runs.append((f"evaluate, two processes at once, half each (round {round_ + 1})", _notes(notes)))
            ray.init(address="local", num_cpus=2, include_dashboard=False, log_to_driver=False, configure_logging=False)
            quiet()
            for actors in (1, 2):
                with tempfile.TemporaryDirectory() as notes:
                    llm = functools.partial(cpu_noted, url, args.concurrency, notes)
                    result, _ = on_ray(data, metrics(claims_only=True), llm, actors=actors, cpus_per_actor=0.25)
                    assert result.summary == expected.summary, "the summary differs from evaluate's"
                    runs.append((f"Ray, {actors} actor{'s' if actors > 1 else ''} (round {round_ + 1})", _notes(notes)))
            if round_ == 0:
                idle = ray.get(ray.remote(_idle_cpu).remote(10.0))
            ray.shutdown()
    say(f"{args.samples} samples, claim recall alone, {args.concurrency} requests in flight per process or actor")
    say("ms of CPU per request: scoring (ragrecall's event loop: metrics, client, quote checks) + batches (Ray")
    say("Data's thread calling the Scorer: Arrow rows, fingerprints, Parquet parts) + ray (Ray's own C++ threads)")
    say("+ other (the main thread and any other Python thread) = total")
    kinds = ("scoring", "batches", "ray", "other")
    one = two = 0.0  # this round's evaluate in one process, in two: what the Ray runs are compared with
    for label, (sent, by_kind) in runs:
        total = sum(by_kind.values()) / sent
        one = total if "one process" in label else one
        two = total if "two processes" in label else two
        parts = "  ".join(f"{k} {1000 * by_kind.get(k, 0.0) / sent:.2f}" for k in kinds)
        versus = "" if label.startswith("evaluate, one") else f"; {total / one:.2f}x one process"
        versus += f", {total / two:.2f}x two processes" if label.startswith("Ray") else ""
        say(f"  {label}: {parts}  = {1000 * total:.2f} ms ({sent} requests{versus})")
    say(f"an idle Ray worker process for 10 s: {1000 * idle:.0f} ms of CPU ({100 * idle / 10:.1f}% of a core)")


def _evaluate_noted(data: list[dict[str, Any]], url: str, concurrency: int, folder: str) -> None:
    """``evaluate`` with claim recall alone in this process, its CPU noted in ``folder`` (see :class:`CpuNoted`)."""
    llm = cpu_noted(url, concurrency, folder)
    evaluate(data, metrics(claims_only=True), llm=llm, show_progress=False, max_concurrency=concurrency)


def _notes(folder: str) -> tuple[int, dict[str, float]]:
    """Requests and CPU seconds by kind of thread, summed over the client processes that noted in ``folder``."""
    sent, by_kind = 0, {}
    for note in (json.loads(p.read_text()) for p in Path(folder).glob("*.json")):
        sent += note["requests"]
        for kind, seconds in note["cpu"].items():
            by_kind[kind] = by_kind.get(kind, 0.0) + seconds
    return sent, by_kind


def _idle_cpu(seconds: float) -> float:
    """The CPU seconds this process uses while it sleeps ``seconds``: in a Ray worker, Ray's threads alone."""
    before = time.process_time()
    time.sleep(seconds)
    return time.process_time() - before


def ranking(args: argparse.Namespace) -> None:
    import ray

    from ragrecall.integrations.ray import evaluate_run as on_ray_run
    from ragrecall.ranking import evaluate_run

    rng = random.Random(0)
    measures = ["nDCG@10", "AP", "P@10", "Recall@100", "RR", "Bpref"]
    with tempfile.TemporaryDirectory(dir=args.dir) as folder:
        qrels, run = Path(folder, "qrels"), Path(folder, "run")
        started = time.perf_counter()
        with qrels.open("w") as q, run.open("w") as r:
            for query in range(args.queries):
                for doc in rng.sample(range(args.docs * 2), 20):
                    q.write(f"q{query} 0 d{doc} {rng.randint(0, 2)}\n")
                for rank, doc in enumerate(rng.sample(range(args.docs * 2), args.docs)):
                    r.write(f"q{query} Q0 d{doc} {rank + 1} {rng.random():.6f} bench\n")
        lines = args.queries * args.docs
        size = run.stat().st_size / 1e9
        say(f"{lines:,} run lines ({size:.2f} GB), {20 * args.queries:,} qrels lines, written in {_since(started)}")
        before = _rss_mb()
        started = time.perf_counter()
        expected = evaluate_run(qrels, run, measures)
        alone = time.perf_counter() - started
        peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
        say(
            f"one machine: {lines:,} lines in {alone:.1f} s, peak memory of this process {peak:.0f} MB "
            f"({peak - before:.0f} MB over its {before:.0f} MB before the run)"
        )
        ray.init(address="local", num_cpus=2, include_dashboard=False, log_to_driver=False, configure_logging=False)
        quiet()
        with _WorkerPeak() as workers:
            started = time.perf_counter()
            found = on_ray_run(qrels, run, measures, partitions=args.partitions)
            took = time.perf_counter() - started
        assert found.means == expected.means, "the means differ from one machine's"
        buckets = args.partitions or 4
        say(
            f"Ray (2 CPUs, {buckets} buckets): {lines:,} lines in {took:.1f} s ({took / alone:.1f}x one machine); "
            f"means equal; peak memory of the largest Ray worker {workers.peak:.0f} MB"
        )
        if args.stages:
            _stages(qrels, run, measures, buckets)
        ray.shutdown()


def _stages(qrels: Path, run: Path, names: list[str], buckets: int) -> None:
    """The Ray path's steps one at a time, each materialized: read and bucket, shuffle, measure the buckets."""
    import ray
    from ray.data.context import ShuffleStrategy

    from ragrecall.integrations.ray import _ranking as steps  # the steps themselves, for their times
    from ragrecall.ranking import parse_measure

    started = time.perf_counter()
    keyed = steps._lines(str(run)).map_batches(steps._bucketed, fn_kwargs={"buckets": buckets}, batch_format="pyarrow")
    keyed = keyed.materialize()
    say(f"  read the run and choose each line's bucket: {_since(started)}")
    keyed.context.shuffle_strategy = ShuffleStrategy.SORT_SHUFFLE_PULL_BASED
    started = time.perf_counter()
    moved = keyed.groupby(steps._BUCKET, num_partitions=buckets).map_groups(lambda g: g, batch_format="pyarrow")
    moved = moved.materialize()
    say(f"  shuffle the lines to their buckets: {_since(started)}")
    work = {
        "qrels": ray.put(qrels.read_bytes()),
        "measures": {m: parse_measure(m) for m in names},
        "relstrings": {},
        "depth": None,
        "judged_only": False,
    }
    started = time.perf_counter()
    parts = moved.map_batches(steps._evaluated, fn_kwargs=work, batch_format="pyarrow", batch_size=None)
    parts.materialize()
    say(f"  measure the buckets (each block of the shuffled lines as one bucket): {_since(started)}")


def _since(started: float) -> str:
    return f"{time.perf_counter() - started:.1f} s"


def _rss_mb() -> float:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return 0.0


class _WorkerPeak:
    """The largest peak resident memory (VmHWM) among the Ray worker processes this process started (its
    descendants named ``ray::...``), read every half second while the block runs and once at its end."""

    def __init__(self) -> None:
        self.peak = 0.0
        self._done = threading.Event()
        self._thread = threading.Thread(target=self._watch, daemon=True)

    def __enter__(self) -> _WorkerPeak:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._done.set()
        self._thread.join()

    def _watch(self) -> None:
        while True:
            self._read()
            if self._done.wait(0.5):
                self._read()
                return

    def _read(self) -> None:
        parents: dict[int, int] = {}
        for stat in Path("/proc").glob("[0-9]*/stat"):
            try:
                parents[int(stat.parent.name)] = int(stat.read_text().rsplit(")", 1)[1].split()[1])
            except (OSError, ValueError, IndexError):
                continue
        ours = {os.getpid()}
        grew = True
        while grew:
            grew = False
            for pid, parent in parents.items():
                if parent in ours and pid not in ours:
                    ours.add(pid)
                    grew = True
        for pid in ours - {os.getpid()}:
            try:
                if b"ray::" not in Path(f"/proc/{pid}/cmdline").read_bytes():
                    continue
                status = Path(f"/proc/{pid}/status").read_text()
            except OSError:
                continue
            for line in status.splitlines():
                if line.startswith("VmHWM:"):
                    self.peak = max(self.peak, int(line.split()[1]) / 1024)


def quiet() -> None:
    import ray

    ray.data.DataContext.get_current().enable_progress_bars = False


def say(text: str) -> None:
    print(text, flush=True)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="command", required=True)
    for name in ("throughput", "cpu"):
        p = sub.add_parser(name)
        p.add_argument("--samples", type=int, default=20000 if name == "throughput" else 2000)
        p.add_argument("--latency-ms", type=float, default=50.0)
        p.add_argument("--concurrency", type=int, default=64, help="LLM requests in flight per process or actor")
        if name == "cpu":
            p.add_argument("--repeat", type=int, default=2, help="rounds of evaluate, then Ray with 1 and 2 actors")
    sub.add_parser("startup").add_argument("--repeat", type=int, default=3)
    rk = sub.add_parser("ranking")
    rk.add_argument("--queries", type=int, default=2000)
    rk.add_argument("--docs", type=int, default=100)
    rk.add_argument("--partitions", type=int, default=None, help="buckets on Ray (default: twice the CPUs)")
    rk.add_argument("--stages", action="store_true", help="then time the Ray path's steps one at a time")
    rk.add_argument("--dir", default=None, help="where the run and qrels are written (default: the temp folder)")
    args = parser.parse_args(argv)
    say(evaluate_bench.machine())
    {"throughput": throughput, "startup": startup, "cpu": cpu, "ranking": ranking}[args.command](args)


if __name__ == "__main__":
    main()
