"""Lies caught and honest verdicts flagged on the project's verification world, per class and language.

The world (``tests/metrics/context_recall/verification_world.json``, English and Chinese) holds samples of
claims with their truth and a scripted judge's verdicts: in a *lie* class the judge's verdict on the target
claim is adversarial, built from real passage text (another subject's sentence, a negation just outside the
quote, unrelated fragments, another unit, number word or range, another predicate, a switch on the re-ask, a
false "unsupported", a quote sharing no word, a dropped scale word); in an *honest* class every verdict is
honest (typos, full width, line breaks, continuous spans, number and scale words, ranges, coreference,
negated claims, a negation in another clause). Every sample also has honest background claims.

Each sample is scored by ``ContextRecall`` with its claims given as ``reference_claims`` (no decomposition),
one vote, every context judged together, its scripted judge (a FakeLLM answering the judge and re-ask tasks
from the case data by claim text) and, with ``--confirm honest``, a second FakeLLM as ``confirm=`` that
answers the confirm task from the truth.

- A **lie is caught** when the final verdict does not count the false claim as supported; for
  ``false_unsupported`` (a claim a passage states, called unsupported) when the claim ends supported, or
  unsupported with ``verification="contested"``.
- An honest (or background) verdict is **flagged** when its verification is ``unverified``, ``contested`` or
  ``refuted``, or its final ``supported`` differs from its truth.
- A sample **failed** when its result is not ``scored``.
- **MAE**: the mean absolute error of the sample scores against the true scores (the share of each sample's
  claims that are true), over the samples scored.

    python benchmarks/verification_world.py [--world PATH] [--confirm {off,honest,both}] [--json]

``--world`` scores another world file of the same format (default: the project's world), such as the held-out
``tests/metrics/context_recall/verification_world_heldout.json``, written apart from the checks' tuning.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

from helpers import verification_world as world

LANGUAGES = ("en", "zh")


def summarise(outcomes: Sequence[world.SampleOutcome]) -> dict[str, Any]:
    """Per (class, language) and in total: lies caught, honest and background verdicts flagged, failed
    samples, requests; and the MAE of the sample scores."""
    rows: dict[str, dict[str, int]] = {}
    for o in outcomes:
        row = rows.setdefault(
            f"{o.cls}/{o.language}",
            {
                "samples": 0,
                "caught": 0,
                "honest": 0,
                "honest_flagged": 0,
                "background": 0,
                "background_flagged": 0,
                "failed": 0,
                "requests": 0,
            },
        )
        row["samples"] += 1
        row["failed"] += o.failed
        row["requests"] += o.requests
        row["caught"] += o.lie and not o.failed and o.caught
        if not o.lie:
            row["honest"] += 1
            row["honest_flagged"] += o.failed or any(c.flagged for c in o.claims)
        row["background"] += len(o.background)
        row["background_flagged"] += sum(c.flagged for c in o.background)
    total = {key: sum(r[key] for r in rows.values()) for key in next(iter(rows.values()))}
    lie_classes = list(dict.fromkeys(o.cls for o in outcomes if o.lie))
    honest_classes = list(dict.fromkeys(o.cls for o in outcomes if not o.lie))
    errors = [o.error for o in outcomes if o.error is not None]
    return {
        "rows": rows,
        "total": total,
        "lies": sum(o.lie for o in outcomes),
        "lie_classes": lie_classes,
        "honest_classes": honest_classes,
        "mae": sum(errors) / len(errors) if errors else None,
    }


def render(name: str, summary: dict[str, Any]) -> str:
    """The summary as a table: one line per lie class and language, then per honest class, then totals."""
    rows, total = summary["rows"], summary["total"]
    head = f"{'class':<24}{'lang':<6}{'samples':>8}{'caught':>9}{'flagged':>9}{'bg flagged':>12}{'failed':>8}"
    lines = [f"== {name} ==", head]
    for group, classes in (("lies", summary["lie_classes"]), ("honest", summary["honest_classes"])):
        lines.append(f"-- {group}")
        for cls in classes:
            for language in LANGUAGES:
                r = rows.get(f"{cls}/{language}")
                if r is None:
                    continue
                caught = f"{r['caught']}/{r['samples']}" if group == "lies" else "-"
                flagged = f"{r['honest_flagged']}/{r['honest']}" if group == "honest" else "-"
                lines.append(
                    f"{cls:<24}{language:<6}{r['samples']:>8}{caught:>9}{flagged:>9}"
                    f"{r['background_flagged']:>6}/{r['background']:<5}{r['failed']:>8}"
                )
    mae = "n/a" if summary["mae"] is None else f"{summary['mae']:.4f}"
    lines += [
        f"lies caught {total['caught']}/{summary['lies']}; honest verdicts flagged (samples) "
        f"{total['honest_flagged']}/{total['honest']}; background verdicts flagged "
        f"{total['background_flagged']}/{total['background']}; failed samples {total['failed']}; "
        f"requests {total['requests']}; MAE of sample scores {mae}",
    ]
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--confirm", choices=("off", "honest", "both"), default="both")
    parser.add_argument("--json", action="store_true", help="print the summaries as JSON")
    parser.add_argument(
        "--world", type=Path, default=world.WORLD_PATH, help="the world file to score (default: %(default)s)"
    )
    args = parser.parse_args()
    samples = world.load_world(args.world)
    runs: list[tuple[str, bool]] = []
    if args.confirm in ("off", "both"):
        runs.append(("confirm off", False))
    notes: list[str] = []
    if args.confirm in ("honest", "both"):
        if world.has_confirm():
            runs.append(("confirm = an honest second model", True))
        else:
            notes.append("confirm is not available: this ContextRecall has no confirm= setting")
    summaries = {name: summarise(world.score_world(samples, confirmed=confirmed)) for name, confirmed in runs}
    if args.json:
        report = {"world": str(args.world), "samples": len(samples), "runs": summaries, "notes": notes}
        print(json.dumps(report, indent=1))
        return
    lies = sum(s.get("lie", s["class"] in world.LIE_CLASSES) for s in samples)
    print(f"verification world: {len(samples)} samples ({lies} lies), {args.world.name}")
    for name, summary in summaries.items():
        print()
        print(render(name, summary))
    for note in notes:
        print()
        print(note)


if __name__ == "__main__":
    main()
