"""Ragas's ``ragas.llms`` spelling: ``from ragrecall.llms import llm_factory``. The LLM path is
:mod:`ragrecall.llm`."""

from .llm import llm_factory

__all__ = ["llm_factory"]
