"""Score the built-in demo samples with ragrecall's LLM-free metrics: no key, no network.

Run: python examples/quickstart.py
"""

from __future__ import annotations

from statistics import mean

import ragrecall
from ragrecall import IDBasedContextRecall, IDRecallEvidence, NonLLMContextRecall, StringRecallEvidence


def main() -> None:
    samples = ragrecall.demo_dataset()
    metrics = [IDBasedContextRecall(), NonLLMContextRecall(scorer="partial", normalize=True, threshold=0.9)]
    columns = {m.name: m.batch_score(samples) for m in metrics}

    width = max(len(str(s.id)) for s in samples)
    print(f"{'sample':<{width}}  " + "  ".join(f"{name:>24}" for name in columns))
    for i, sample in enumerate(samples):
        cells = []
        for results in columns.values():
            r = results[i]
            cells.append(f"{r.value:>24.3f}" if r.value is not None else f"{r.status:>24}")
        print(f"{sample.id!s:<{width}}  " + "  ".join(cells))
    for name, results in columns.items():
        values = [r.value for r in results if r.value is not None]
        print(f"mean {name}: {mean(values):.3f} over {len(values)} scored samples")

    # The evidence behind one score: which reference IDs and passages were found, and where.
    first_id, first_text = columns["id_based_context_recall"][0], columns["non_llm_context_recall"][0]
    print(f"\nevidence for sample {samples[0].id}:")
    if isinstance(first_id.evidence, IDRecallEvidence):
        found = ", ".join(f"{f.id} at rank {f.rank}" for f in first_id.evidence.found) or "none"
        print(f"  reference IDs found: {found}; missing: {', '.join(first_id.evidence.missing) or 'none'}")
    if isinstance(first_text.evidence, StringRecallEvidence):
        for m in first_text.evidence.matches:
            verdict = "recalled" if m.recalled else "missed"
            print(
                f"  reference passage {m.reference_index}: best retrieved passage {m.best_retrieved_index}, "
                f"similarity {m.similarity:.2f} -> {verdict}"
            )


if __name__ == "__main__":
    main()
