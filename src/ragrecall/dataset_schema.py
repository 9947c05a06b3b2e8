"""Ragas's ``ragas.dataset_schema`` spelling: ``SingleTurnSample`` and ``EvaluationDataset``."""

from .dataset import EvaluationDataset
from .schema import SingleTurnSample

__all__ = ["EvaluationDataset", "SingleTurnSample"]
