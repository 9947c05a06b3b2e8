"""The built-in demo dataset: realistic English and Chinese RAG samples, shipped in the package."""

from __future__ import annotations

import io

from ._resources import data_file
from .dataset import Dataset
from .llm import OfflineJudge
from .metrics import ContextRecall, IDBasedContextRecall, Metric, NonLLMContextRecall, NuggetRecall
from .ranking import RankingMetric

__all__ = ["demo_dataset", "demo_metrics"]


def demo_dataset() -> Dataset:
    """Samples with a question, an answer, a reference answer, reference passages, IDs and graded judgments
    (and, for three of them, TREC-style nuggets).

    Needs no network; used by the quickstart example and by ``ragrecall demo``.
    """
    text = data_file("demo.jsonl").read_text(encoding="utf-8")
    return Dataset.from_jsonl(io.StringIO(text))


def demo_metrics() -> list[Metric]:
    """Every metric that runs offline on the demo samples (the LLM metric with the lexical stand-in, OfflineJudge)."""
    return [
        ContextRecall(OfflineJudge()),
        # TREC nuggets: the samples' own reference_nuggets (three samples, English and Chinese), else the
        # reference's claims with an importance each. The default score (vital, strict) is unscorable for a
        # sample whose nuggets have no vital one.
        NuggetRecall(OfflineJudge()),
        # A short name of its own: the default name of these settings is long, and the plain one would claim
        # the default settings (a comparison with a default run would then compare unlike things).
        NonLLMContextRecall(scorer="partial", normalize=True, threshold=0.9, name="partial_string_recall"),
        IDBasedContextRecall(),
        RankingMetric("nDCG@10"),
        RankingMetric("Recall@3"),
    ]
