"""Simulation: coverage and width of ``ppi_mean``'s 95% interval against the labels alone.

A sample's human score is a claim share, ``Binomial(4, p) / 4`` with ``p ~ Beta(2, 1.2)`` (true mean 0.625).
The judge's score has correlation ``rho`` with it and is off by ``bias``:
``f = 0.625 + bias + sd(Y) * (rho * z + sqrt(1 - rho²) * e)``, ``z`` the standardised human score and ``e``
standard normal noise. Each seed draws ``n`` labelled samples and ``--unlabelled`` judged-only samples; the
table gives, per judge and per ``n``, the share of seeds whose interval covers 0.625 and the mean half-width
over the labels-only half-width (below 1: narrower).

    python benchmarks/ppi_coverage.py [--seeds 1000] [--unlabelled 10000]
"""

from __future__ import annotations

import argparse
import platform
import time

import numpy as np

from ragrecall import ppi_mean

TRUE = 2 / 3.2


def human_scores(rng: np.random.Generator, shape: tuple[int, ...]) -> np.ndarray:
    return rng.binomial(4, rng.beta(2.0, 1.2, size=shape)) / 4.0


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--seeds", type=int, default=1000)
    parser.add_argument("--unlabelled", type=int, default=10000)
    args = parser.parse_args()
    sd = float(human_scores(np.random.default_rng(123), (2_000_000,)).std())
    sizes = (50, 100, 200, 500, 1000)
    print(f"{platform.processor() or platform.machine()}, {args.seeds} seeds, {args.unlabelled} judged-only samples")
    print("| judge: correlation, bias | " + " | ".join(f"n = {n}" for n in sizes) + " |")
    print("|---|" + "---|" * len(sizes))
    start = time.perf_counter()
    for rho in (0.0, 0.5, 0.8, 0.95):
        for bias in (-0.05, 0.05):
            cells = []
            for n in sizes:
                rng = np.random.default_rng([int(rho * 100), int(bias * 100) + 10, n])
                y = human_scores(rng, (args.seeds, n + args.unlabelled))
                z = (y - TRUE) / sd
                f = TRUE + bias + sd * (rho * z + np.sqrt(1 - rho * rho) * rng.standard_normal(y.shape))
                covered, width, classical = 0, 0.0, 0.0
                for s in range(args.seeds):
                    r = ppi_mean(f[s, n:], f[s, :n], y[s, :n])
                    covered += r.low <= TRUE <= r.high
                    width += r.half_width
                    classical += r.classical.half_width
                cells.append(f"{covered / args.seeds:.1%} / {width / classical:.2f}")
            print(f"| {rho:.2f}, {bias:+.2f} | " + " | ".join(cells) + " |")
    took = time.perf_counter() - start
    print(f"\ncells: coverage of the 95% interval / mean half-width over labels-only; {took:.0f} s")


if __name__ == "__main__":
    main()
