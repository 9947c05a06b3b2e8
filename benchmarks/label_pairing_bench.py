"""Benchmark: what pairing labels with a run by id *and* content costs.

A run of ``--samples`` samples (ID recall, each with five retrieved passages of about 300 characters and a
reference) and ``--labels`` labels made on its samples (``human_score``, the passages and reference stored as a
file written elsewhere stores them). It times, best of ``--repeat``:

- ``labelled_scores``: reading the labels into numbers and digests (one SHA-256 per content field);
- ``corrected_mean``: pairing them with the run (the run's digests of the fields the verdict rests on) and the
  PPI++ estimate;
- the same pairing by id alone (a dict lookup), the way labels paired before, as the floor.

    python benchmarks/label_pairing_bench.py [--samples 20000] [--labels 2000] [--repeat 5]
"""

from __future__ import annotations

import argparse
import platform
import time

from ragrecall import IDBasedContextRecall, Sample, evaluate, ppi_mean
from ragrecall.calibration import corrected_mean, labelled_scores


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--samples", type=int, default=20000)
    parser.add_argument("--labels", type=int, default=2000)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    words = [
        "the",
        "router",
        "resets",
        "when",
        "the",
        "button",
        "is",
        "held",
        "for",
        "ten",
        "seconds",
        "and",
        "the",
        "light",
        "blinks",
        "amber",
    ]
    samples = [
        {
            "id": f"q{i}",
            "reference": " ".join(words[(i + k) % len(words)] for k in range(40)),
            "retrieved_contexts": [" ".join(words[(i * j + k) % len(words)] for k in range(55)) for j in range(5)],
            "retrieved_context_ids": [f"d{i}-{j}" for j in range(5)],
            "reference_context_ids": [f"d{i}-0", f"d{i}-9"],
        }
        for i in range(args.samples)
    ]
    run = evaluate(samples, [IDBasedContextRecall()], show_progress=False)
    labels = [Sample(**s, human_score=0.5) for s in samples[: args.labels]]

    def best(fn: object) -> float:
        times = []
        for _ in range(args.repeat):
            start = time.perf_counter()
            fn()  # type: ignore[operator]
            times.append(time.perf_counter() - start)
        return min(times)

    scored = labelled_scores(labels)
    read = best(lambda: labelled_scores(labels))
    paired = best(lambda: corrected_mean(run, "id_based_context_recall", scored))

    def by_id() -> None:
        wanted = {str(s.sample_id): s for s in scored}
        judge, human, rest = [], [], []
        for row in run.rows:
            value = row.results["id_based_context_recall"].value
            label = wanted.get(str(row.sample_id))
            if value is None:
                continue
            if label is None or label.human_score is None:
                rest.append(value)
            else:
                judge.append(value)
                human.append(label.human_score)
        ppi_mean(rest, judge, human)

    floor = best(by_id)
    result = corrected_mean(run, "id_based_context_recall", scored)
    assert result.n_labelled == args.labels and not result.left_out
    print(
        f"{platform.processor() or platform.machine()}, {args.samples} samples, {args.labels} labels, "
        f"best of {args.repeat}"
    )
    print(f"labelled_scores (digests of the labels' texts): {read * 1000:.1f} ms")
    print(f"corrected_mean, paired by id and content:       {paired * 1000:.1f} ms")
    print(f"the same paired by id alone (the floor):        {floor * 1000:.1f} ms")


if __name__ == "__main__":
    main()
