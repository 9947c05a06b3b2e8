"""Ragas's ``ragas.run_config`` module name, so that ``from ragas.run_config import RunConfig`` runs once its
import line says ``ragrecall``: the same :class:`ragrecall.RunConfig`."""

from .evaluation import RunConfig

__all__ = ["RunConfig"]
