"""Ragas's ``ragas.metrics.collections`` spelling: ``ContextRecall(llm=llm)`` with keyword ``ascore``.

``await ContextRecall(llm=llm).ascore(user_input=..., retrieved_contexts=[...], reference=...)`` returns a
:class:`~ragrecall.MetricResult` whose ``.value`` is the score (None, with a ``reason``, when unscorable), and
``abatch_score([{...}, ...])`` takes the same fields as dicts and returns the results in input order.

``NonLLMStringSimilarity(distance_measure=DistanceMeasure.JARO)`` takes ``ascore(reference=..., response=...)``.
"""

from .context_recall import ContextRecall
from .string_similarity import DistanceMeasure, NonLLMStringSimilarity

__all__ = ["ContextRecall", "DistanceMeasure", "NonLLMStringSimilarity"]
