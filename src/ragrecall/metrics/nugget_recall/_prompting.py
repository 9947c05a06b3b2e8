"""The prompts of nugget recall: the steps, what each fills, the shipped files, and how inputs are shown.

``assign`` and ``importance`` open a conversation; ``recheck`` is a follow-up to ``assign``. The query, the
contexts and the nuggets reach every prompt as data blocks (``<query>…</query>``, ``<context id="1">…</context>``,
``<nugget id="1">…</nugget>``) their text cannot close; nuggets are single-line.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from ...errors import ConfigurationError
from ...llm import PromptTemplate, builtin_prompt, data_block, load_prompt
from ..context_recall import LANGUAGES, one_line

__all__ = ["STEPS", "NuggetPrompts", "nugget_block", "number_nuggets", "query_block"]

STEPS: dict[str, tuple[str, ...]] = {
    "assign": ("query", "contexts", "nuggets"),
    "recheck": ("problems",),
    "importance": ("query", "nuggets"),
}
"""Prompt steps and the placeholders each must fill."""
_METRIC_DIR = "nugget_recall"

PromptSource = str | Path | PromptTemplate


@dataclass(frozen=True)
class NuggetPrompts:
    """Every step's template in every language: the shipped files, or the user's prompt for a step."""

    templates: Mapping[tuple[str, str], PromptTemplate]

    @classmethod
    def load(cls, custom: Mapping[str, PromptSource] | None) -> NuggetPrompts:
        """The shipped prompts, with ``custom`` (step → text, path or template) replacing them in every language.

        Raises:
            ConfigurationError: an unknown step, a source of the wrong type, a missing placeholder.
        """
        if custom is not None and not isinstance(custom, Mapping):
            raise ConfigurationError(
                f"prompts must map a step ({', '.join(STEPS)}) to prompt text, a path or a PromptTemplate; "
                f"got {type(custom).__name__}"
            )
        given = dict(custom or {})
        unknown = sorted(set(given) - set(STEPS))
        if unknown:
            raise ConfigurationError(f"unknown prompt step(s) {unknown}; expected some of {', '.join(STEPS)}")
        templates: dict[tuple[str, str], PromptTemplate] = {}
        for step, placeholders in STEPS.items():
            for language in LANGUAGES:
                mine = given.get(step)
                if mine is not None and not isinstance(mine, (str, Path, PromptTemplate)):
                    raise ConfigurationError(
                        f"prompt for step {step!r} must be text, a path or a PromptTemplate, got {type(mine).__name__}"
                    )
                template = load_prompt(mine) if mine is not None else builtin_prompt(_METRIC_DIR, step, language)
                template.require(placeholders, step=step)
                templates[(step, language)] = template
        return cls(templates)

    def get(self, step: str, language: str) -> PromptTemplate:
        """The template of ``step`` in ``language``."""
        return self.templates[(step, language)]

    def follow_up(self, step: str, language: str, after: str | None, **values: str) -> tuple[str, str]:
        """The message of follow-up ``step`` (filled) and the version of the request that sends it."""
        template = self.get(step, language)
        return template.render(**values)[-1]["content"], f"{after}+{template.version}"

    def versions(self) -> dict[str, str]:
        """``"step.language"`` → version, for settings."""
        return {f"{s}.{lang}": t.version for (s, lang), t in self.templates.items()}


def query_block(query: str | None) -> str:
    """``<query>query</query>`` on one line, or "" when there is no query."""
    return data_block("query", one_line(query)) if query and query.strip() else ""


def nugget_block(nugget: str, number: int) -> str:
    """``<nugget id="number">nugget</nugget>``, the nugget on one line."""
    return data_block("nugget", one_line(nugget), number)


def number_nuggets(nuggets: Sequence[str], numbers: Sequence[int] | None = None) -> str:
    """One nugget block per line, numbered from 1 or by ``numbers``."""
    shown = numbers if numbers is not None else range(1, len(nuggets) + 1)
    return "\n".join(nugget_block(text, n) for n, text in zip(shown, nuggets, strict=True))
