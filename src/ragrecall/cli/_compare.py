"""``ragrecall compare``: a paired comparison of result files, metric by metric; with three or more, every pair
with Holm-adjusted p-values and effect sizes."""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Sequence
from typing import TYPE_CHECKING

from .._files import check_output_path
from ..errors import ConfigurationError, InputError

if TYPE_CHECKING:
    from ..calibration import CorrectedMean
    from ..evaluation import EvaluationResult, PairComparison


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    cmp_ = sub.add_parser(
        "compare",
        help="paired comparison of two or more result files",
        description="Compare runs on the samples they share (paired by id). Two runs: B − A per metric with a "
        "bootstrap interval and a randomisation test. Three or more: every pair, with p-values adjusted by Holm's "
        "method over the pairs and a paired effect size (Cohen's d_z) with its bootstrap interval.",
    )
    cmp_.add_argument("runs", nargs="+", metavar="RESULTS", help="results of each system (eval --out); two or more")
    cmp_.add_argument(
        "--metric",
        "-m",
        action="append",
        default=[],
        help="metric name as it appears in the results (repeatable; default: every metric all runs have)",
    )
    cmp_.add_argument(
        "--labels",
        metavar="LABELS",
        help="people's labels of some samples: also each system's mean corrected by them (PPI++); a label counts for "
        "a system only where it was made on the passages and claims that system's run judged",
    )
    cmp_.add_argument("--report", metavar="FILE.html", help="also write the comparison as an HTML page")
    cmp_.add_argument(
        "--json",
        action="store_true",
        help="print the comparison as JSON instead of the tables: every pair (also for two runs), corrected means",
    )
    cmp_.set_defaults(handler=_run)


def _run(args: argparse.Namespace) -> int:
    from ..evaluation import EvaluationResult

    if len(args.runs) < 2:
        raise ConfigurationError(f"compare needs two or more result files, got {len(args.runs)}")
    if args.report:
        check_output_path(args.report, "--report", [("results file", r) for r in args.runs])
    runs = [EvaluationResult.from_jsonl(path) for path in args.runs]
    letters = [chr(ord("A") + i) if i < 26 else f"#{i + 1}" for i in range(len(runs))]
    metrics = _metrics(runs, letters, args.metric)
    names = _names(args.runs)
    if len(runs) == 2 and not args.labels and not args.report and not args.json:
        _two(runs[0], runs[1], metrics, explicit=bool(args.metric))
        return 0
    from ..evaluation import compare_many

    pairs = {metric: compare_many(runs, names, metric) for metric in metrics}
    corrected = _corrected(runs, names, metrics, args.labels) if args.labels else {}
    if args.report:
        from ..report import write_comparison_page

        write_comparison_page(
            pairs,
            args.report,
            corrected,
            title=f"ragrecall comparison of {len(runs)} runs",
            runs=dict(zip(names, runs, strict=True)),
        )
    if args.json:
        print(json.dumps(_as_json(args.runs, letters, names, runs, pairs, corrected), indent=2, ensure_ascii=False))
        if args.report:
            print(f"report written to {args.report}", file=sys.stderr)
        return 0
    for metric, items in pairs.items():
        print(_table(metric, items))
        if metric in corrected:
            print(_corrected_table(corrected[metric]))
        print()
    for letter, name, run in zip(letters, names, runs, strict=True):
        alone = [m for m in run.metrics if m not in metrics]
        if alone and not args.metric:
            print(f"only in {letter} ({name}), not compared: {', '.join(alone)}")
    if args.report:
        print(f"report written to {args.report}")
    return 0


def _as_json(
    paths: Sequence[str],
    letters: Sequence[str],
    names: Sequence[str],
    runs: Sequence[EvaluationResult],
    pairs: dict[str, list[PairComparison]],
    corrected: dict[str, dict[str, CorrectedMean | str]],
) -> dict[str, object]:
    """The comparison as plain JSON values: the runs, and per metric every pair and the corrected means."""
    from ..calibration import corrected_json

    return {
        "runs": [
            {"letter": letter, "name": name, "path": path, "not_compared": [m for m in run.metrics if m not in pairs]}
            for letter, name, path, run in zip(letters, names, paths, runs, strict=True)
        ],
        "metrics": {
            metric: {
                "pairs": [item.model_dump(mode="json") for item in items],
                "corrected": {
                    name: {"not_corrected": c} if isinstance(c, str) else corrected_json(c)
                    for name, c in corrected.get(metric, {}).items()
                },
            }
            for metric, items in pairs.items()
        },
    }


def _metrics(runs: Sequence[EvaluationResult], letters: Sequence[str], asked: Sequence[str]) -> list[str]:
    shared = [m for m in runs[0].metrics if all(m in r.metrics for r in runs[1:])]
    metrics = list(dict.fromkeys(asked)) or shared
    if not metrics:
        have = "; ".join(
            f"{letter} has {', '.join(r.metrics) or 'none'}" for letter, r in zip(letters, runs, strict=True)
        )
        raise ConfigurationError(f"the runs share no metric: {have}")
    for metric in metrics:
        for letter, run in zip(letters, runs, strict=True):
            if metric not in run.metrics:
                raise ConfigurationError(f"run {letter} has no metric {metric!r}; it has {', '.join(run.metrics)}")
    return metrics


def _names(paths: Sequence[str]) -> list[str]:
    """Each run's name: its file name, or its path where two file names are the same."""
    names = [os.path.basename(p) for p in paths]
    return [p if names.count(n) > 1 else n for p, n in zip(paths, names, strict=True)]


def _two(a: EvaluationResult, b: EvaluationResult, metrics: Sequence[str], *, explicit: bool) -> None:
    from ..evaluation import compare

    for metric in metrics:
        print(compare(a, b, metric))
    if not explicit:  # every shared metric was compared: say which were not, and why
        for run, mine, other in (("A", a, b), ("B", b, a)):
            alone = [m for m in mine.metrics if m not in other.metrics]
            if alone:
                print(f"only in {run}, not compared: {', '.join(alone)}")


def _table(metric: str, items: Sequence[PairComparison]) -> str:
    from ..evaluation import ALPHA, PAIR_HEADINGS, best_system

    rows = [list(PAIR_HEADINGS), *(item.cells() for item in items)]
    widths = [max(len(r[i]) for r in rows) for i in range(len(PAIR_HEADINGS))]
    lines = [
        f"{metric}: every pair, B − A over the samples both scored; p: paired randomisation test, p (Holm): "
        f"adjusted over the {len(items)} pairs; d_z: mean difference / its standard deviation; B against A: better "
        "or worse when p (Holm) < 0.05, else no difference"
    ]
    lines += ["  ".join(cell.ljust(w) for cell, w in zip(r, widths, strict=True)).rstrip() for r in rows]
    best = best_system(items)
    lines.append(
        f"best: {best}, better than every other system (Holm-adjusted p < {ALPHA:g} in each of its pairs)"
        if best is not None
        else f"no single best system at the Holm-adjusted level {ALPHA:g}"
    )
    return "\n".join(lines)


def _corrected(
    runs: Sequence[EvaluationResult], names: Sequence[str], metrics: Sequence[str], labels: str
) -> dict[str, dict[str, CorrectedMean | str]]:
    """Per metric, per system, the mean corrected by the labels that apply to that system's run, or why it has
    none (a label made on other passages than a system retrieved does not correct it)."""
    from ..calibration import corrected_mean, labelled_scores
    from ..dataset import Dataset

    if not os.path.exists(labels):
        raise FileNotFoundError(f"no such labels file: {labels}")
    labelled = labelled_scores(Dataset.load(labels))
    out: dict[str, dict[str, CorrectedMean | str]] = {}
    for metric in metrics:
        systems: dict[str, CorrectedMean | str] = {}
        for name, run in zip(names, runs, strict=True):
            try:
                systems[name] = corrected_mean(run, metric, labelled)
            except InputError as exc:
                systems[name] = str(exc)
        out[metric] = systems
    return out


def _corrected_table(systems: dict[str, CorrectedMean | str]) -> str:
    width = max(len(name) for name in systems)
    lines = [
        "corrected by people (PPI++): each system's mean with its bias, measured on the labelled samples that apply "
        "to it, taken away"
    ]
    for name, item in systems.items():
        if isinstance(item, str):
            lines.append(f"  {name.ljust(width)}  {item}")
            continue
        lines.append(
            f"  {name.ljust(width)}  {item.mean:.4f} 95% CI [{item.low:.4f}, {item.high:.4f}]  judge only "
            f"{item.judge_only.mean:.4f}, labels only {item.classical.mean:.4f} ({item.n_labelled} labelled)"
        )
        lines.extend(f"  {' ' * width}  {left.text()}" for left in item.left_out)
        if item.note:
            lines.append(f"  {' ' * width}  note: {item.note}")
    return "\n".join(lines)
