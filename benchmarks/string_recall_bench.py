"""Benchmark: string-similarity context recall (``NonLLMContextRecall``), ragrecall against Ragas.

What is measured
    Throughput in samples per second of ``ragrecall.NonLLMContextRecall`` (normalised Levenshtein similarity,
    threshold 0.5) on synthetic data: by default 1,000 samples, each with 10 retrieved and 5 reference contexts
    of about 300 characters. The data are generated deterministically from ``--seed``: passages are made of
    pseudo-words, and each reference context is either a near-copy of one of the sample's retrieved contexts
    (a few character edits), a reworded one (a share of its words replaced, so its similarity falls on either
    side of the threshold) or an unrelated passage, so that per-sample values vary between 0 and 1.

    Rows, all timed in this one process on the same pre-built sample objects:

    - ragrecall ``asyncio.run(metric.abatch_score(samples))``: the batch path (one ``rapidfuzz`` ``cpdist``
      call over every (reference, retrieved) pair of the batch, on all cores);
    - ragrecall ``metric.batch_score(samples)``: its synchronous spelling;
    - ragrecall ``metric.score(sample)`` in a per-sample loop;
    - Ragas ``NonLLMContextRecall`` (when ``ragas`` is importable), as a Ragas user calls it:
      ``await metric.single_turn_ascore(sample)`` for each sample in turn, and all samples at once with
      ``asyncio.gather``; the faster of the two is the baseline for the ratios;
    - for reference, the bare kernel: ``rapidfuzz.process.cpdist`` on the pre-flattened pairs alone, with
      ``workers=-1`` (all cores) and ``workers=1``. No validation and no result objects: an upper bound for
      any implementation that computes the exact similarity of every pair.

    Each row runs once to warm up, then ``--repeat`` times; the best time gives samples/s (the median is
    shown too). With Ragas present, the per-sample values of both libraries are compared (ragrecall counts a
    similarity of exactly the threshold as recalled, Ragas does not: any disagreement should be such a tie).

How to run
    Without Ragas (its rows are skipped)::

        python benchmarks/string_recall_bench.py

    Against Ragas, from an environment holding both (Ragas 0.4.3 imports with ``langchain-community<0.4`` and
    ``rapidfuzz`` added; ``RAGAS_DO_NOT_TRACK=true`` keeps it off the network, and is set here by default)::

        python3 -m venv /tmp/ragas-venv
        /tmp/ragas-venv/bin/pip install 'ragas==0.4.3' 'langchain-community<0.4' rapidfuzz -e .
        RAGAS_DO_NOT_TRACK=true /tmp/ragas-venv/bin/python benchmarks/string_recall_bench.py

    Options: ``--samples N`` (default 1000), ``--repeat R`` (default 5), ``--seed S`` (default 0),
    ``--chars C`` (passage length, default 300), ``--no-ragas`` (skip Ragas even when importable),
    ``--mix N,R,U`` (shares of near-copy, reworded and unrelated reference contexts; default 0.35,0.3,0.35).
    With the edit-distance scorers ragrecall compares each reference context with its likely match first and
    the other retrieved contexts with a cutoff (see ``ragrecall.metrics._best_match``): the kernel does less
    work the more references are near copies, so ``--mix 0,0.5,0.5`` shows the case where it saves least.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import importlib
import os
import platform
import random
import statistics
import string
import sys
import time
import warnings
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from importlib import metadata
from typing import Any, TypeVar

os.environ.setdefault("RAGAS_DO_NOT_TRACK", "true")  # before Ragas is imported: no usage events sent

import numpy as np
from rapidfuzz import process
from rapidfuzz.distance import Levenshtein

from ragrecall import ContextMatch, MetricResult, NonLLMContextRecall, Sample, StringRecallEvidence

T = TypeVar("T")

N_RETRIEVED = 10
N_REFERENCE = 5
PASSAGE_CHARS = 300  # the default; --chars changes it
THRESHOLD = 0.5


# -- data --------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class RawSample:
    """One generated sample: plain lists of strings, turned into each library's sample type."""

    id: int
    retrieved: list[str]
    reference: list[str]
    kinds: list[str]
    """How each reference context was made: ``"near_copy"``, ``"reworded"`` or ``"unrelated"``."""


def make_vocabulary(rng: random.Random, size: int = 4000) -> list[str]:
    """Pseudo-words of 2 to 10 lowercase letters."""
    lengths = [2, 3, 3, 4, 4, 5, 5, 5, 6, 6, 7, 7, 8, 9, 10]
    return ["".join(rng.choices(string.ascii_lowercase, k=rng.choice(lengths))) for _ in range(size)]


def make_passage(rng: random.Random, vocab: Sequence[str], chars: int = PASSAGE_CHARS) -> str:
    """Words, with an occasional comma or full stop, up to a length of about ``chars`` characters (±10%)."""
    target = chars + rng.randint(-chars // 10, chars // 10)
    words: list[str] = []
    length = -1
    while length < target:
        word = rng.choice(vocab)
        if rng.random() < 0.08:
            word += rng.choice(",.")
        words.append(word)
        length += len(word) + 1
    return " ".join(words)


def edit_chars(rng: random.Random, text: str, n_edits: int) -> str:
    """``text`` with ``n_edits`` random single-character substitutions, insertions or deletions."""
    chars = list(text)
    for _ in range(n_edits):
        pos = rng.randrange(len(chars))
        op = rng.random()
        if op < 0.5:
            chars[pos] = rng.choice(string.ascii_lowercase)
        elif op < 0.75:
            chars.insert(pos, rng.choice(string.ascii_lowercase))
        elif len(chars) > 1:
            del chars[pos]
    return "".join(chars)


def reword(rng: random.Random, text: str, vocab: Sequence[str], share: float) -> str:
    """``text`` with about ``share`` of its words replaced by random words."""
    return " ".join(rng.choice(vocab) if rng.random() < share else w for w in text.split(" "))


MIX = (0.35, 0.30, 0.35)
"""Default shares of near copies, reworded and unrelated reference contexts."""


def make_data(
    n_samples: int, seed: int, chars: int = PASSAGE_CHARS, mix: tuple[float, float, float] = MIX
) -> list[RawSample]:
    """The benchmark's samples, the same for the same ``(n_samples, seed, chars, mix)``; ``mix`` gives the
    shares of near-copy, reworded and unrelated reference contexts."""
    rng = random.Random(seed)
    vocab = make_vocabulary(rng)
    out: list[RawSample] = []
    for i in range(n_samples):
        retrieved = [make_passage(rng, vocab, chars) for _ in range(N_RETRIEVED)]
        reference: list[str] = []
        kinds: list[str] = []
        for _ in range(N_REFERENCE):
            draw = rng.random()
            if draw < mix[0]:
                reference.append(edit_chars(rng, rng.choice(retrieved), rng.randint(1, 20)))
                kinds.append("near_copy")
            elif draw < mix[0] + mix[1]:
                reference.append(reword(rng, rng.choice(retrieved), vocab, rng.uniform(0.3, 0.9)))
                kinds.append("reworded")
            else:
                reference.append(make_passage(rng, vocab, chars))
                kinds.append("unrelated")
        out.append(RawSample(id=i, retrieved=retrieved, reference=reference, kinds=kinds))
    return out


# -- timing ------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Timing:
    """Best and median wall time of the repetitions of one row, and the last run's output."""

    name: str
    best: float
    median: float
    n_samples: int
    output: Any
    times: list[float]
    """Every repetition's time, in round order."""

    @property
    def rate(self) -> float:
        """Samples per second at the best time."""
        return self.n_samples / self.best


def time_rows(rows: Sequence[tuple[str, Callable[[], Any]]], n_samples: int, repeat: int) -> list[Timing]:
    """Run every row once to warm up, then ``repeat`` rounds of every row in turn, under ``time.perf_counter``.

    Rounds interleave the rows, so that a burst of load from elsewhere on the machine spreads over all rows
    instead of falling on one of them.
    """
    outputs = [fn() for _, fn in rows]
    times: list[list[float]] = [[] for _ in rows]
    for _ in range(repeat):
        for i, (_, fn) in enumerate(rows):
            gc.collect()
            start = time.perf_counter()
            outputs[i] = fn()
            times[i].append(time.perf_counter() - start)
    return [
        Timing(name, min(t), statistics.median(t), n_samples, out, t)
        for (name, _), t, out in zip(rows, times, outputs, strict=True)
    ]


# -- the machine -------------------------------------------------------------------------------------------


def cpu_model() -> str:
    """The CPU model named in /proc/cpuinfo, or what :mod:`platform` knows."""
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as f:
            for line in f:
                if line.lower().startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine() or "unknown"


def version_of(dist: str) -> str:
    try:
        return metadata.version(dist)
    except metadata.PackageNotFoundError:
        return "not installed"


def usable_cores() -> int:
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


def describe_machine() -> list[str]:
    return [
        f"cpu: {cpu_model()}; cores usable: {usable_cores()} (os.cpu_count() = {os.cpu_count()})",
        f"python: {platform.python_implementation()} {platform.python_version()} on {platform.platform()}",
        "versions: "
        + ", ".join(
            f"{d} {version_of(d)}" for d in ("ragrecall", "rapidfuzz", "numpy", "pydantic", "ragas", "langchain-core")
        ),
    ]


# -- Ragas -------------------------------------------------------------------------------------------------


def load_ragas() -> tuple[Any, Any] | None:
    """Ragas's ``NonLLMContextRecall`` and ``SingleTurnSample`` classes, or None when Ragas is not importable."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # 0.4 warns that ragas.metrics is deprecated; its successor lacks it
            sample_cls = importlib.import_module("ragas.dataset_schema").SingleTurnSample
            metric_cls = importlib.import_module("ragas.metrics").NonLLMContextRecall
    except Exception as exc:  # ImportError, or a broken dependency raising something else on import
        print(f"ragas: not importable ({type(exc).__name__}: {exc}); its rows are skipped")
        return None
    return metric_cls, sample_cls


async def ragas_sequential(metric: Any, samples: Sequence[Any]) -> list[float]:
    return [await metric.single_turn_ascore(s) for s in samples]


async def ragas_gather(metric: Any, samples: Sequence[Any]) -> list[float]:
    return list(await asyncio.gather(*(metric.single_turn_ascore(s) for s in samples)))


# -- the benchmark -----------------------------------------------------------------------------------------


def flat_pairs(data: Sequence[RawSample]) -> tuple[list[str], list[str]]:
    """Every (reference, retrieved) pair of every sample, as two aligned lists."""
    queries = [r for s in data for r in s.reference for _ in s.retrieved]
    choices = [c for s in data for _ in s.reference for c in s.retrieved]
    return queries, choices


def matches_of(result: MetricResult) -> list[ContextMatch]:
    """The per-reference-context evidence of a ``NonLLMContextRecall`` result."""
    assert isinstance(result.evidence, StringRecallEvidence), result
    return list(result.evidence.matches)


def describe_data(data: Sequence[RawSample], results: Sequence[MetricResult]) -> list[str]:
    kinds = Counter(k for s in data for k in s.kinds)
    ref_lens = [len(t) for s in data for t in s.reference]
    ret_lens = [len(t) for s in data for t in s.retrieved]
    values = Counter(round(r.value, 2) for r in results if r.value is not None)
    best = np.array([m.similarity for r in results for m in matches_of(r)])
    by_kind: dict[str, list[float]] = {}
    for s, r in zip(data, results, strict=True):
        for kind, m in zip(s.kinds, matches_of(r), strict=True):
            by_kind.setdefault(kind, []).append(m.similarity)
    lines = [
        f"data: {len(data)} samples x {N_RETRIEVED} retrieved x {N_REFERENCE} reference contexts "
        f"= {len(data) * N_RETRIEVED * N_REFERENCE} pairs",
        f"  passage length: retrieved {min(ret_lens)}-{max(ret_lens)} (mean {statistics.mean(ret_lens):.0f}), "
        f"reference {min(ref_lens)}-{max(ref_lens)} (mean {statistics.mean(ref_lens):.0f}) characters",
        "  reference kinds: " + ", ".join(f"{k} {n}" for k, n in sorted(kinds.items())),
        "  best similarity by kind (min / median / max): "
        + "; ".join(
            f"{k} {min(v):.2f} / {statistics.median(v):.2f} / {max(v):.2f}" for k, v in sorted(by_kind.items())
        ),
        f"  reference contexts recalled: {np.mean(best >= THRESHOLD):.1%}; best similarity within 0.01 of the "
        f"threshold: {int(np.sum(np.abs(best - THRESHOLD) < 0.01))}, exactly on it: "
        f"{int(np.sum(np.abs(best - THRESHOLD) < 1e-9))}",
        "  per-sample values: " + ", ".join(f"{v:.1f}: {n}" for v, n in sorted(values.items())),
    ]
    return lines


def compare(ours: Sequence[MetricResult], theirs: Sequence[float]) -> list[str]:
    """Per-sample agreement of ragrecall's values with Ragas's, and whether threshold ties explain the rest."""
    differ = [
        i for i, (a, b) in enumerate(zip(ours, theirs, strict=True)) if a.value is None or abs(a.value - b) > 1e-12
    ]
    lines = [f"agreement with Ragas: {len(ours) - len(differ)}/{len(ours)} samples have the same value"]
    if differ:
        ties = sum(1 for i in differ for m in matches_of(ours[i]) if abs(m.similarity - THRESHOLD) < 1e-9)
        lines.append(
            f"  {len(differ)} differ (first: samples {differ[:10]}); reference contexts with a best similarity "
            f"exactly on the threshold in them (ragrecall >=, Ragas >): {ties}"
        )
    return lines


def load_average() -> str:
    try:
        return " ".join(f"{x:.2f}" for x in os.getloadavg())
    except OSError:
        return "unknown"


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--samples", type=int, default=1000, help="number of samples (default 1000)")
    parser.add_argument("--repeat", type=int, default=5, help="timed repetitions per row, best kept (default 5)")
    parser.add_argument("--seed", type=int, default=0, help="seed of the generated data (default 0)")
    parser.add_argument("--chars", type=int, default=PASSAGE_CHARS, help="passage length (default 300)")
    parser.add_argument("--no-ragas", action="store_true", help="skip Ragas even when it is importable")
    parser.add_argument(
        "--mix",
        default=",".join(f"{share:g}" for share in MIX),
        help="shares of near-copy, reworded and unrelated reference contexts (default 0.35,0.3,0.35)",
    )
    args = parser.parse_args(argv)
    if args.samples < 1 or args.repeat < 1 or args.chars < 10:
        parser.error("--samples and --repeat must be positive, --chars at least 10")
    try:
        near, reworded, unrelated = (float(share) for share in args.mix.split(","))
    except ValueError:
        parser.error("--mix takes three numbers, e.g. 0.35,0.3,0.35")
    if not all(0 <= share <= 1 for share in (near, reworded, unrelated)) or abs(near + reworded + unrelated - 1) > 1e-9:
        parser.error("--mix: three shares from 0 to 1 that add up to 1")
    mix = (near, reworded, unrelated)
    n, repeat = args.samples, args.repeat

    print("string-similarity context recall benchmark (benchmarks/string_recall_bench.py)")
    print(f"run: {sys.executable} {' '.join(sys.argv)}  [RAGAS_DO_NOT_TRACK={os.environ.get('RAGAS_DO_NOT_TRACK')}]")
    for line in describe_machine():
        print(line)
    print(
        f"settings: samples={n} repeat={repeat} (best of, after 1 warm-up run; rows interleaved) "
        f"seed={args.seed} chars={args.chars} mix={args.mix}"
    )
    print(f"load average (1/5/15 min) before: {load_average()}")

    data = make_data(n, args.seed, args.chars, mix)
    samples = [Sample(id=s.id, retrieved_contexts=s.retrieved, reference_contexts=s.reference) for s in data]
    metric = NonLLMContextRecall()  # threshold 0.5, normalised Levenshtein: Ragas's defaults
    queries, choices = flat_pairs(data)

    def kernel(workers: int) -> Callable[[], np.ndarray]:
        def run() -> np.ndarray:
            return process.cpdist(
                queries, choices, scorer=Levenshtein.normalized_similarity, dtype=np.float64, workers=workers
            )

        return run

    rows: list[tuple[str, Callable[[], Any]]] = [
        ("ragrecall abatch_score (asyncio.run)", lambda: asyncio.run(metric.abatch_score(samples))),
        ("ragrecall batch_score", lambda: metric.batch_score(samples)),
        ("ragrecall score, per-sample loop", lambda: [metric.score(s) for s in samples]),
    ]
    n_ours = len(rows)
    ragas = None if args.no_ragas else load_ragas()
    if ragas is not None:
        ragas_metric_cls, ragas_sample_cls = ragas
        ragas_metric = ragas_metric_cls()
        ragas_samples = [ragas_sample_cls(retrieved_contexts=s.retrieved, reference_contexts=s.reference) for s in data]
        rows += [
            (
                "Ragas single_turn_ascore, sequential",
                lambda: asyncio.run(ragas_sequential(ragas_metric, ragas_samples)),
            ),
            (
                "Ragas single_turn_ascore, asyncio.gather",
                lambda: asyncio.run(ragas_gather(ragas_metric, ragas_samples)),
            ),
        ]
    n_ragas = len(rows) - n_ours
    rows += [("bare cpdist, workers=-1 (all cores)", kernel(-1)), ("bare cpdist, workers=1", kernel(1))]

    timings = time_rows(rows, n, repeat)
    ours, ragas_rows, kernels = timings[:n_ours], timings[n_ours : n_ours + n_ragas], timings[n_ours + n_ragas :]
    print(f"load average (1/5/15 min) after: {load_average()}")

    # The three ragrecall paths and the bare kernel must all say the same.
    batch_results: list[MetricResult] = ours[0].output
    for other in ours[1:]:
        assert [r.value for r in other.output] == [r.value for r in batch_results], f"{other.name} disagrees"
    sims = np.asarray(kernels[0].output).reshape(n, N_REFERENCE, N_RETRIEVED).max(axis=2)
    recalled = np.array([[m.recalled for m in matches_of(r)] for r in batch_results])
    assert np.array_equal(sims >= THRESHOLD, recalled), "ragrecall disagrees with the bare kernel"

    print()
    for line in describe_data(data, batch_results):
        print(line)
    if ragas_rows:
        assert ragas_rows[0].output == ragas_rows[1].output, "Ragas sequential and gather disagree"
        print()
        for line in compare(batch_results, ragas_rows[0].output):
            print(line)

    print()
    width = max(len(t.name) for t in timings)
    print(f"{'row':<{width}}  {'best s':>9}  {'median s':>9}  {'samples/s':>11}")
    for t in timings:
        print(f"{t.name:<{width}}  {t.best:>9.4f}  {t.median:>9.4f}  {t.rate:>11,.0f}")
    print(f"cpdist workers=-1 vs workers=1 on this data: {kernels[0].rate / kernels[1].rate:.2f}x")
    print()
    print("share of the bare kernel's speed (cpdist, all cores), paired round by round (median [range]):")
    for t in ours[:2]:
        shares = sorted(k / o for k, o in zip(kernels[0].times, t.times, strict=True))
        print(f"  {t.name}: {statistics.median(shares):.0%} [{shares[0]:.0%}, {shares[-1]:.0%}] (goal >= 90%)")

    if ragas_rows:
        baseline = max(ragas_rows, key=lambda t: t.rate)
        print()
        print(f"Ragas baseline: {baseline.name} ({baseline.rate:,.0f} samples/s, the faster of the two)")
        for t in ours:
            print(f"  {t.name}: {t.rate / baseline.rate:,.1f}x Ragas")
        ceiling = max(k.rate for k in kernels) / baseline.rate
        print(f"  (bare cpdist, the faster setting, no result objects: {ceiling:,.1f}x Ragas)")
        ratio = ours[0].rate / baseline.rate
        verdict = "met" if ratio >= 40 else "NOT met"
        print(f"target >= 40x Ragas through abatch_score: {verdict} ({ratio:,.1f}x)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
