"""Benchmark: the bootstrap intervals of ``calibrate`` against calling scikit-learn once per resample.

Both draw the same resamples of samples (2,000 by default, seed 0) over a synthetic labelled set of
``--samples`` samples with 2-6 claims each (labels and verdicts agreeing 80% of the time), and compute
accuracy, Cohen's kappa and precision/recall/F1 of "supported" for every resample:

- ragrecall: one vectorised pass over the resamples' confusion tables (``claim_intervals``);
- peer: ``cohen_kappa_score``, ``precision_recall_fscore_support`` and ``accuracy_score`` per resample.

It checks that both give the same intervals, then prints the times and their ratio.

    python benchmarks/calibration_bench.py [--samples 30] [--resamples 2000]
"""

from __future__ import annotations

import argparse
import platform
import time
import warnings

import numpy as np
from sklearn.metrics import accuracy_score, cohen_kappa_score, precision_recall_fscore_support

from ragrecall.calibration._figures import claim_intervals


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--samples", type=int, default=30)
    parser.add_argument("--resamples", type=int, default=2000)
    args = parser.parse_args()
    rng = np.random.default_rng(1)
    human, judge = [], []
    for _ in range(args.samples):
        n = int(rng.integers(2, 7))
        h = rng.random(n) < 0.6
        human.append(h)
        judge.append(np.where(rng.random(n) < 0.8, h, ~h))
    cells = [
        (int((h & j).sum()), int((~h & j).sum()), int((h & ~j).sum()), int((~h & ~j).sum()))
        for h, j in zip(human, judge, strict=True)
    ]
    claims = sum(len(h) for h in human)

    started = time.perf_counter()
    ours = claim_intervals(cells, n_resamples=args.resamples, seed=0)
    ours_s = time.perf_counter() - started

    drawn = np.random.default_rng(0).integers(0, args.samples, size=(args.resamples, args.samples))
    started = time.perf_counter()
    kappas = []
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for row in drawn:
            h = np.concatenate([human[i] for i in row])
            j = np.concatenate([judge[i] for i in row])
            kappas.append(cohen_kappa_score(h, j, labels=[False, True]))
            precision_recall_fscore_support(h, j, average="binary", zero_division=np.nan)
            accuracy_score(h, j)
    peer_s = time.perf_counter() - started
    values = np.asarray(kappas)
    low, high = np.quantile(values[np.isfinite(values)], [0.025, 0.975])
    (ci, _used) = ours["kappa"]
    assert ci is not None and np.allclose(ci, (low, high)), (ci, low, high)

    print(
        f"{platform.processor() or platform.machine()}, {args.samples} samples, {claims} claims, "
        f"{args.resamples} resamples; kappa interval [{low:.3f}, {high:.3f}] from both"
    )
    print(f"ragrecall (vectorised tables): {ours_s * 1000:.1f} ms")
    print(f"scikit-learn per resample:     {peer_s * 1000:.1f} ms")
    print(f"ratio: {peer_s / ours_s:.0f}x")


if __name__ == "__main__":
    main()
