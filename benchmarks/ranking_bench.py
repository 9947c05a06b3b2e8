"""Benchmark: ragrecall.ranking against pytrec_eval and ranx on synthetic TREC files.

    python benchmarks/ranking_bench.py generate --queries 5000 --docs 100 --out /tmp/bench-small
    python benchmarks/ranking_bench.py compare --data /tmp/bench-small [--ranx-python /path/to/python]
        [--tools ragrecall,pytrec_eval] [--repeat 5] [--anchor pytrec_eval] [--timeout 1500] [--max-rss-gb 20]
    python benchmarks/ranking_bench.py startup [--repeat 15]
    python benchmarks/ranking_bench.py inprocess --data /tmp/bench-small [--repeat 15] [--threads N]

``generate`` writes ``qrels.txt`` (about 5 relevant documents per query, grades 1-3, plus a few judged 0) and
``run.txt`` (``docs`` documents per query, grouped by query, scores descending, as retrieval systems write
them; about 1% of scores are repeated so ties occur). ``compare`` runs each tool in its own process, timing
from process start to exit (interpreter start included), and reports per tool: reading time, computing time,
queries per second (end to end), peak resident memory. Measures: Recall@10, Recall@100, P@10, RR@10, AP,
nDCG@10 (pytrec_eval has no RR@10 and computes recip_rank, which costs the same). ``--repeat`` runs each tool
several times (one at a time) and reports the run with the median end-to-end time; ``--timeout`` and
``--max-rss-gb`` stop a tool that goes past them (it is then reported as stopped, a lower bound). ranx's JIT
compilation is timed apart (``jit_warmup_s``) and counted in its end-to-end time.

Tools: ``ragrecall`` calls ``evaluate_run(qrels_path, run_path, ...)``, which reads and evaluates the run
together, block by block (one figure, ``read_and_compute_s``); ``ragrecall-tables`` reads both files first
(``read_qrels``/``read_run`` with pyarrow), then evaluates (the evaluation alone is ``compute_s``);
``ragrecall-plain`` does the same with the plain Python reader; ``ragrecall-stdin`` is ``evaluate_run(qrels_path,
"-")`` with the run on standard input (read once, into memory); ``pytrec_eval``; ``ranx``.
``pyarrow-read`` reads the run's three used columns (query, document, score) with pyarrow's CSV reader on
every core and stops: the floor of any reader, the anchor for large runs. ``ragrecall-official`` runs the
command line ``ragrecall trec -m official QRELS RUN`` (trec_eval's official measures and output: 30 rows) and
``pytrec_eval-official`` computes the same measures and summary with pytrec_eval; both print the summary to 4
decimals, which must agree. ``ragrecall-command`` is the ``ragrecall trec`` command on the six measures
(``--format json``) through the entry the installed command uses (:func:`ragrecall.cli.console`, which ends
the process without the interpreter's last collection). Run ``compare`` with the Python of an environment
made by ``pip install ragrecall pytrec-eval-terrier`` (no extras) to measure a default install. ``compare``
and ``startup`` first compile ragrecall's modules to bytecode, as ``pip install`` does (an editable install
under ``PYTHONDONTWRITEBYTECODE`` would compile them at every start), and time each process from its start to
its exit as it happens. ``inprocess`` times ``evaluate_run`` on the six measures in one process, after one
warm-up call: what a notebook or a job evaluating many runs pays per run (to compare two versions, run it
with each one's ``src`` on ``PYTHONPATH``, alternating).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

MEASURES = ["Recall@10", "Recall@100", "P@10", "RR@10", "AP", "nDCG@10"]
OFFICIAL = ["num_q", "num_ret", "num_rel", "num_rel_ret", "map", "gm_map", "Rprec", "bpref", "recip_rank"]
OFFICIAL += ["iprec_at_recall", "P"]  # trec_eval's -m official, runid aside


def generate(queries: int, docs: int, out: Path, seed: int = 0, judged: int = 7) -> None:
    import numpy as np
    import pyarrow as pa
    import pyarrow.compute as pc
    import pyarrow.csv as pacsv

    out.mkdir(parents=True, exist_ok=True)
    rng = np.random.default_rng(seed)
    collection = 8_800_000
    n = queries * docs
    qids = np.repeat(np.arange(1000, 1000 + queries), docs)
    # Distinct within a query (a random start plus a stride), overlapping at random across queries.
    starts = np.repeat(rng.integers(0, collection, queries), docs)
    doc_ids = (starts + np.tile(np.arange(docs), queries) * 8803) % collection
    scores = np.sort(rng.gamma(2.0, 3.0, (queries, docs)).astype(np.float32), axis=1)[:, ::-1].ravel()
    scores = np.round(scores.astype(np.float64), 4)  # rounding creates ties, as real systems print
    ranks = np.tile(np.arange(1, docs + 1), queries)
    run = pa.table(
        {
            "q": pa.array(qids).cast(pa.string()),
            "q0": pa.array(np.full(n, "Q0")),
            "d": pc.binary_join_element_wise("D", pa.array(doc_ids).cast(pa.string()), ""),
            "r": pa.array(ranks),
            "s": pa.array(scores),
            "t": pa.array(np.full(n, "bench")),
        }
    )
    options = pacsv.WriteOptions(include_header=False, delimiter=" ", quoting_style="none")
    pacsv.write_csv(run, out / "run.txt", options)
    # Judgments: ``judged`` drawn per query (~5 relevant of 7), most of them retrieved (drawn from the run), some not.
    per_query = judged
    pick = rng.integers(0, docs, (queries, per_query)) + np.arange(queries)[:, None] * docs
    judged_docs = doc_ids[pick.ravel()]
    from_outside = rng.random(queries * per_query) < 0.25
    judged_docs = np.where(from_outside, rng.integers(0, collection, queries * per_query), judged_docs)
    grades = rng.choice([0, 1, 1, 2, 2, 3], queries * per_query)
    qrels = pa.table(
        {
            "q": pa.array(np.repeat(np.arange(1000, 1000 + queries), per_query)).cast(pa.string()),
            "z": pa.array(np.zeros(queries * per_query, dtype=np.int64)),
            "d": pc.binary_join_element_wise("D", pa.array(judged_docs).cast(pa.string()), ""),
            "g": pa.array(grades),
        }
    )
    # drop repeated (query, doc) judgments
    frame = qrels.group_by(["q", "d"], use_threads=False).aggregate([("g", "max"), ("z", "min")])
    qrels = pa.table({"q": frame["q"], "z": frame["z_min"], "d": frame["d"], "g": frame["g_max"]})
    pacsv.write_csv(qrels, out / "qrels.txt", options)


# -- one tool per process -----------------------------------------------------------------------------------


def _pytrec_inputs(pytrec_eval: Any, qrels_path: str, run_path: str) -> tuple[Any, Any]:
    """The qrels and the run read by pytrec_eval's own parsers."""
    with open(qrels_path) as f:
        qrels = pytrec_eval.parse_qrel(f)
    with open(run_path) as f:
        run = pytrec_eval.parse_run(f)
    return qrels, run


def child(tool: str, data: Path) -> None:
    t0 = time.perf_counter()
    qrels_path, run_path = str(data / "qrels.txt"), str(data / "run.txt")
    report: dict[str, float | str | int] = {"tool": tool}
    if tool in ("ragrecall", "ragrecall-stdin"):
        from ragrecall.ranking import evaluate_run

        report["import_s"] = round(time.perf_counter() - t0, 3)
        run_source = run_path  # a path: read and evaluated together, block by block
        if tool == "ragrecall-stdin":
            with open(run_path, "rb") as run_file:  # the run arrives on standard input, read once into memory
                os.dup2(run_file.fileno(), 0)
            run_source = "-"
        t1 = time.perf_counter()
        result = evaluate_run(qrels_path, run_source, MEASURES)
        t2 = time.perf_counter()
        report["queries"] = len(result.query_ids)
        report["means"] = json.dumps({k: round(v, 6) for k, v in result.means.items()})
    elif tool in ("ragrecall-tables", "ragrecall-plain"):
        from ragrecall.ranking import evaluate_run, read_qrels, read_run

        report["import_s"] = round(time.perf_counter() - t0, 3)
        engine = "plain" if tool == "ragrecall-plain" else "arrow"
        qrels = read_qrels(qrels_path, engine=engine)  # type: ignore[arg-type]
        run = read_run(run_path, engine=engine)  # type: ignore[arg-type]
        t1 = time.perf_counter()
        result = evaluate_run(qrels, run, MEASURES)
        t2 = time.perf_counter()
        report["queries"] = len(result.query_ids)
        report["means"] = json.dumps({k: round(v, 6) for k, v in result.means.items()})
    elif tool == "ragrecall-official":
        import contextlib
        import io

        from ragrecall.cli._main import main as cli

        report["import_s"] = round(time.perf_counter() - t0, 3)
        t1 = time.perf_counter()  # the command line itself: trec_eval's official measures, its output
        printed = io.StringIO()
        with contextlib.redirect_stdout(printed):
            code = cli(["trec", "-m", "official", qrels_path, run_path])
        t2 = time.perf_counter()
        if code != 0:
            raise SystemExit(code)
        rows = [line.split("\t") for line in printed.getvalue().splitlines()]
        report["queries"] = int(next(r[2] for r in rows if r[0].strip() == "num_q"))
        report["means"] = json.dumps({r[0].strip(): r[2] for r in rows if r[0].strip() != "runid"})
    elif tool == "ragrecall-command":
        import contextlib
        import io

        from ragrecall.cli import console

        report["import_s"] = round(time.perf_counter() - t0, 3)
        t1 = time.perf_counter()  # the command as a shell runs it, its end included (see ragrecall.cli.console)
        sys.argv = ["ragrecall", "trec", *(f"-m{m}" for m in MEASURES), "--format", "json", qrels_path, run_path]
        printed = io.StringIO()
        with contextlib.redirect_stdout(printed):
            code = console()
        t2 = time.perf_counter()
        if code != 0:
            raise SystemExit(code)
        payload = json.loads(printed.getvalue())
        report["queries"] = payload["queries"]
        report["means"] = json.dumps({k: round(v, 6) for k, v in payload["means"].items()})
    elif tool == "pyarrow-read":
        import pyarrow as pa
        import pyarrow.csv as pacsv

        report["import_s"] = round(time.perf_counter() - t0, 3)
        t1 = time.perf_counter()  # the floor of any reader: pyarrow's own CSV reader, on every core, 3 columns
        names = ["query", "q0", "doc", "rank", "score", "tag"]
        table = pacsv.read_csv(
            run_path,
            read_options=pacsv.ReadOptions(column_names=names),
            parse_options=pacsv.ParseOptions(delimiter=" ", quote_char=False),
            convert_options=pacsv.ConvertOptions(
                include_columns=["query", "doc", "score"],
                column_types={"query": pa.string(), "doc": pa.string(), "score": pa.float64()},
            ),
        )
        t2 = time.perf_counter()
        report["queries"] = len(table)  # lines read
        report["means"] = ""
    elif tool == "pytrec_eval-official":
        import pytrec_eval

        report["import_s"] = round(time.perf_counter() - t0, 3)
        qrels, run = _pytrec_inputs(pytrec_eval, qrels_path, run_path)
        t1 = time.perf_counter()
        evaluator = pytrec_eval.RelevanceEvaluator(qrels, set(OFFICIAL))
        per_query = evaluator.evaluate(run)
        t2 = time.perf_counter()
        report["queries"] = len(per_query)
        names = sorted(next(iter(per_query.values())))
        means = {n: pytrec_eval.compute_aggregated_measure(n, [v[n] for v in per_query.values()]) for n in names}
        report["means"] = json.dumps(
            {n: (str(int(m)) if n.startswith("num_") else f"{m:.4f}") for n, m in means.items()}
        )
    elif tool == "pytrec_eval":
        import pytrec_eval

        report["import_s"] = round(time.perf_counter() - t0, 3)
        qrels, run = _pytrec_inputs(pytrec_eval, qrels_path, run_path)
        t1 = time.perf_counter()
        evaluator = pytrec_eval.RelevanceEvaluator(qrels, {"recall.10,100", "P.10", "recip_rank", "map", "ndcg_cut.10"})
        per_query = evaluator.evaluate(run)
        t2 = time.perf_counter()
        names = ["recall_10", "recall_100", "P_10", "recip_rank", "map", "ndcg_cut_10"]
        report["queries"] = len(per_query)
        report["means"] = json.dumps(
            {n: round(sum(v[n] for v in per_query.values()) / len(per_query), 6) for n in names}
        )
    elif tool == "ranx":
        from ranx import Qrels, Run, evaluate

        names = ["recall@10", "recall@100", "precision@10", "mrr@10", "map", "ndcg@10"]
        tiny_q = Qrels({"q": {"a": 1}})
        tiny_r = Run({"q": {"a": 1.0, "b": 0.5}})
        tw = time.perf_counter()
        evaluate(tiny_q, tiny_r, names)  # JIT compilation
        report["jit_warmup_s"] = round(time.perf_counter() - tw, 3)
        t0 += time.perf_counter() - tw  # reading time below excludes the warm-up; end to end keeps it
        qrels = Qrels.from_file(qrels_path, kind="trec")
        run = Run.from_file(run_path, kind="trec")
        t1 = time.perf_counter()
        means = evaluate(qrels, run, names)
        t2 = time.perf_counter()
        report["queries"] = len(run)
        report["means"] = json.dumps({k: round(float(v), 6) for k, v in means.items()})
    else:
        raise SystemExit(f"unknown tool {tool}")
    if tool in ("ragrecall", "ragrecall-stdin", "ragrecall-command"):
        report["read_and_compute_s"] = round(t2 - t1, 3)
    else:
        report["read_s"] = round(t1 - t0, 3)
        report["compute_s"] = round(t2 - t1, 3)
    print(json.dumps(report))


def _rss_kb(pid: int) -> int:
    try:
        with open(f"/proc/{pid}/status") as status:
            for line in status:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1])
    except OSError:
        pass
    return 0


def run_one(tool: str, data: Path, python: str, timeout: float | None, max_rss_gb: float | None) -> dict[str, object]:
    """One tool in its own process; stopped (and reported as a lower bound) past ``timeout`` or ``max_rss_gb``."""
    start = time.perf_counter()
    with tempfile.TemporaryFile("w+") as out:
        proc = subprocess.Popen(
            [python, os.path.abspath(__file__), "child", "--tool", tool, "--data", str(data)], stdout=out
        )
        stopped: list[str] = []
        done = threading.Event()

        def watch() -> None:  # limits are checked apart, so the exit is timed as it happens (not to a poll)
            while not done.wait(0.05):
                if timeout is not None and time.perf_counter() - start > timeout:
                    stopped.append(f"stopped after {timeout:.0f} s")
                elif max_rss_gb is not None and _rss_kb(proc.pid) > max_rss_gb * 1024 * 1024:
                    stopped.append(f"stopped at {max_rss_gb:g} GB resident")
                if stopped:
                    proc.kill()
                    return

        watcher = threading.Thread(target=watch, daemon=True)
        watcher.start()
        _, status, usage = os.wait4(proc.pid, 0)  # reaps the child and gives its peak RSS
        wall = time.perf_counter() - start
        done.set()
        watcher.join()
        out.seek(0)
        output = out.read()
    peak = round(usage.ru_maxrss / 1024, 1)
    if stopped or status != 0:
        return {
            "tool": tool,
            "error": stopped[0] if stopped else f"exit status {status}",
            "end_to_end_s": round(wall, 3),
            "peak_rss_mb": peak,
        }
    row: dict[str, object] = json.loads(output.strip().splitlines()[-1])
    row["end_to_end_s"] = round(wall, 3)
    row["cpu_s"] = round(usage.ru_utime + usage.ru_stime, 3)  # less sensitive than wall time to others' load
    row["peak_rss_mb"] = peak
    row["qps_end_to_end"] = round(int(row["queries"]) / wall, 1)  # type: ignore[call-overload]
    if "compute_s" in row:
        row["qps_compute"] = round(int(row["queries"]) / max(float(row["compute_s"]), 1e-9), 1)  # type: ignore[arg-type]
    return row


def _machine() -> str:
    model = "unknown cpu"
    try:
        with open("/proc/cpuinfo") as info:
            model = next((line.split(":", 1)[1].strip() for line in info if line.startswith("model name")), model)
    except OSError:
        pass
    load = " ".join(f"{x:.2f}" for x in os.getloadavg()) if hasattr(os, "getloadavg") else "?"
    return f"{model}; {os.cpu_count()} cores; Python {sys.version.split()[0]}; load average {load}"


def _compile_ragrecall(python: str) -> str:
    """Compile the ragrecall modules that ``python`` imports to bytecode, as ``pip install`` does for a wheel
    (and for the other tools' packages), and say so. An editable install never is, and where
    ``PYTHONDONTWRITEBYTECODE`` is set (as on some shared machines) every process would compile them again at
    start: 40-50 ms of a 5,000-query run, a cost no installed package has."""
    code = (
        "import compileall, os, ragrecall\n"
        "folder = os.path.dirname(ragrecall.__file__)\n"
        "ok = compileall.compile_dir(folder, quiet=1)\n"
        'print(f\'ragrecall modules compiled to bytecode in {folder} ({"ok" if ok else "failed"})\')\n'
    )
    return subprocess.run([python, "-c", code], capture_output=True, text=True, check=True).stdout.strip()


def compare(
    data: Path,
    tools: list[str],
    ranx_python: str | None,
    repeat: int = 1,
    timeout: float | None = None,
    max_rss_gb: float | None = None,
    anchor: str | None = None,
) -> list[dict[str, object]]:
    """Run the tools in turn, ``repeat`` rounds (interleaved: tool A, tool B, A, B, ... so that a burst of load
    from elsewhere falls on both), and report per tool the run with the median end-to-end time, with the
    range. With ``anchor`` (one of the tools), each round also gives each tool's time and memory as a ratio to
    the anchor's in that round; the median and range of those ratios are printed."""
    print(f"# machine: {_machine()}", file=sys.stderr, flush=True)
    print(f"# {_compile_ragrecall(sys.executable)}", file=sys.stderr, flush=True)
    runs: dict[str, list[dict[str, object]]] = {tool: [] for tool in tools}
    for _ in range(repeat):
        for tool in tools:
            python = ranx_python if tool == "ranx" and ranx_python else sys.executable
            row = run_one(tool, data, python, timeout, max_rss_gb)
            print(json.dumps(row), file=sys.stderr, flush=True)
            runs[tool].append(row)
    rows = []
    for tool in tools:
        done = sorted(runs[tool], key=lambda r: float(r["end_to_end_s"]))  # type: ignore[arg-type]
        row = dict(done[len(done) // 2])
        if repeat > 1:
            row["runs"] = repeat
            row["end_to_end_all_s"] = [r["end_to_end_s"] for r in done]
        if anchor and anchor in runs and tool != anchor:
            pairs = list(zip(runs[anchor], runs[tool], strict=True))
            speed = sorted(float(a["end_to_end_s"]) / float(t["end_to_end_s"]) for a, t in pairs)  # type: ignore[arg-type]
            memory = sorted(float(t["peak_rss_mb"]) / float(a["peak_rss_mb"]) for a, t in pairs)  # type: ignore[arg-type]
            row[f"speedup_vs_{anchor}"] = {
                "median": round(statistics.median(speed), 2),
                "range": [round(speed[0], 2), round(speed[-1], 2)],
            }
            cpu = sorted(float(a["cpu_s"]) / float(t["cpu_s"]) for a, t in pairs)  # type: ignore[arg-type]
            row[f"cpu_speedup_vs_{anchor}"] = {
                "median": round(statistics.median(cpu), 2),
                "range": [round(cpu[0], 2), round(cpu[-1], 2)],
            }
            row[f"memory_vs_{anchor}"] = {
                "median": round(statistics.median(memory), 2),
                "range": [round(memory[0], 2), round(memory[-1], 2)],
            }
        print(json.dumps(row), flush=True)
        rows.append(row)
    print(f"# machine after: {_machine()}", file=sys.stderr, flush=True)
    return rows


_TINY_QRELS = "1 0 d1 1\n1 0 d2 0\n2 0 d3 1\n2 0 d4 2\n"
_TINY_RUN = "1 Q0 d1 1 0.5 r\n1 Q0 d2 2 0.4 r\n2 Q0 d4 1 0.9 r\n2 Q0 d3 2 0.8 r\n"
_ARROW_IMPORT = "import numpy, pyarrow, pyarrow.csv"
_HEAVY = ("pyarrow", "pydantic", "openai", "pandas", "tenacity", "httpx")
"""Packages the ``trec`` command must not import for a small file."""


def startup(repeat: int) -> None:
    """``ragrecall trec`` on a 4-line run, a 25,000-line one (1,000 queries × 25) and one at the sizes the
    command evaluates without numpy (run and judgments each just under 1 MiB), whole processes, against the
    bare interpreter and importing numpy (and pyarrow) alone; each also with ``-m official -m num_q``, which
    prints the same but takes the numpy path. Rounds interleaved; median and range of each, and the ratio to
    the numpy+pyarrow import round by round."""
    print(f"# machine: {_machine()}", flush=True)
    print(f"# {_compile_ragrecall(sys.executable)}", flush=True)
    with tempfile.TemporaryDirectory() as folder:
        qrels, run = os.path.join(folder, "qrels"), os.path.join(folder, "run")
        with open(qrels, "w") as out:
            out.write(_TINY_QRELS)
        with open(run, "w") as out:
            out.write(_TINY_RUN)
        cases = {"4 lines": (qrels, run)}
        for label, shape in (("25,000 lines", ("1000", "25", "7")), ("at the limits", ("1000", "31", "90"))):
            data = f"{folder}/{shape[1]}"
            # In its own process: a child's peak RSS counts the parent's at the fork, so this one stays small.
            queries, docs, judged = shape
            command = ["generate", "--queries", queries, "--docs", docs, "--judged", judged, "--out", data]
            subprocess.run([sys.executable, __file__, *command], check=True)
            cases[label] = (f"{data}/qrels.txt", f"{data}/run.txt")
            sizes = ", ".join(f"{os.path.basename(p)} {os.path.getsize(p):,} bytes" for p in cases[label])
            print(f"{label}: {sizes}", flush=True)
        check = (
            "import sys, contextlib, io\nfrom ragrecall.cli import main\n"
            f"with contextlib.redirect_stdout(io.StringIO()):\n    main(['trec', {qrels!r}, {run!r}])\n"
            f"print(sorted({{m.split('.')[0] for m in sys.modules}} & set({(*_HEAVY, 'numpy')!r})))\n"
        )
        loaded = subprocess.run([sys.executable, "-c", check], capture_output=True, text=True, check=True).stdout
        print(f"heavy packages the command imported: {loaded.strip()}")
        trec = [sys.executable, "-m", "ragrecall.cli", "trec"]
        tools = {
            "python -c pass": [sys.executable, "-c", "pass"],
            "python -c 'import numpy'": [sys.executable, "-c", "import numpy"],
            "python -c 'import numpy, pyarrow, pyarrow.csv'": [sys.executable, "-c", _ARROW_IMPORT],
        }
        same = []
        for label, files in cases.items():
            small = tools[f"ragrecall trec QRELS RUN ({label})"] = [*trec, *files]
            numpy = tools[f"  the same on the numpy path ({label})"] = [*trec, "-m", "official", "-m", "num_q", *files]
            outputs = [subprocess.run(argv, capture_output=True, check=True).stdout for argv in (small, numpy)]
            same.append(outputs[0] == outputs[1])
        print(f"both paths print the same: {same}")
        times: dict[str, list[float]] = {name: [] for name in tools}
        peaks: dict[str, list[float]] = {name: [] for name in tools}
        for _ in range(repeat):
            for name, argv in tools.items():
                start = time.perf_counter()
                proc = subprocess.Popen(argv, stdout=subprocess.DEVNULL)
                _, _, usage = os.wait4(proc.pid, 0)
                times[name].append(time.perf_counter() - start)
                peaks[name].append(usage.ru_maxrss / 1024)
    anchor = "python -c 'import numpy, pyarrow, pyarrow.csv'"
    for name in tools:
        t = sorted(times[name])
        ratio = sorted(a / b for a, b in zip(times[name], times[anchor], strict=True))
        print(
            f"{name:<52} {statistics.median(t) * 1000:7.1f} ms [{t[0] * 1000:.1f}-{t[-1] * 1000:.1f}]  "
            f"peak {statistics.median(peaks[name]):6.1f} MB  x{statistics.median(ratio):.2f} of the numpy+pyarrow "
            f"import [{ratio[0]:.2f}-{ratio[-1]:.2f}]"
        )
    print(f"# machine after: {_machine()}", flush=True)


def inprocess(data: Path, repeat: int, threads: int | None) -> None:
    from ragrecall.ranking import evaluate_run

    qrels_path, run_path = str(data / "qrels.txt"), str(data / "run.txt")
    print(f"# machine: {_machine()}", flush=True)
    evaluate_run(qrels_path, run_path, MEASURES, threads=threads)
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        evaluate_run(qrels_path, run_path, MEASURES, threads=threads)
        times.append(time.perf_counter() - start)
    times.sort()
    source = Path(sys.modules["ragrecall"].__file__ or "").parent
    print(
        f"evaluate_run in one process ({source}, threads={threads}): median {statistics.median(times) * 1000:.1f} ms "
        f"[{times[0] * 1000:.1f}-{times[-1] * 1000:.1f}] over {repeat} runs after one warm-up"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="command", required=True)
    g = sub.add_parser("generate")
    g.add_argument("--queries", type=int, required=True)
    g.add_argument("--docs", type=int, required=True)
    g.add_argument("--out", type=Path, required=True)
    g.add_argument("--judged", type=int, default=7, help="judgments drawn per query (repeats dropped)")
    c = sub.add_parser("compare")
    c.add_argument("--data", type=Path, required=True)
    c.add_argument("--tools", default="ragrecall,ragrecall-tables,ragrecall-plain,pytrec_eval,ranx")
    c.add_argument("--ranx-python", default=None, help="a Python with ranx installed, if not this one")
    c.add_argument("--repeat", type=int, default=1, help="runs per tool; the median end-to-end run is reported")
    c.add_argument("--timeout", type=float, default=None, help="stop a tool after this many seconds")
    c.add_argument("--max-rss-gb", type=float, default=None, help="stop a tool past this resident memory")
    c.add_argument("--anchor", default=None, help="a tool of --tools: print the others' ratios to it, round by round")
    st = sub.add_parser("startup", help="ragrecall trec on small files against importing numpy and pyarrow")
    st.add_argument("--repeat", type=int, default=15)
    ip = sub.add_parser("inprocess", help="evaluate_run timed within one process, after a warm-up")
    ip.add_argument("--data", type=Path, required=True)
    ip.add_argument("--repeat", type=int, default=15)
    ip.add_argument("--threads", type=int, default=None)
    k = sub.add_parser("child")
    k.add_argument("--tool", required=True)
    k.add_argument("--data", type=Path, required=True)
    args = parser.parse_args()
    if args.command == "generate":
        generate(args.queries, args.docs, args.out, judged=args.judged)
    elif args.command == "compare":
        compare(
            args.data, args.tools.split(","), args.ranx_python, args.repeat, args.timeout, args.max_rss_gb, args.anchor
        )
    elif args.command == "startup":
        startup(args.repeat)
    elif args.command == "inprocess":
        inprocess(args.data, args.repeat, args.threads)
    else:
        child(args.tool, args.data)


if __name__ == "__main__":
    main()
