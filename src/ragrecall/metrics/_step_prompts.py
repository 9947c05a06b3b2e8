"""A metric's prompts by step and language: the shipped files, or the user's prompt for a step, each checked
for the placeholders its step fills."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import ClassVar, TypeVar

from ..errors import ConfigurationError
from ..llm import PromptTemplate, builtin_prompt, load_prompt

__all__ = ["LANGUAGES", "PromptSource", "StepPrompts"]

LANGUAGES = ("en", "zh")
"""The languages every shipped prompt is written in."""

PromptSource = str | Path | PromptTemplate
_P = TypeVar("_P", bound="StepPrompts")


@dataclass(frozen=True)
class StepPrompts:
    """Every step's template in every language; a subclass names its ``steps`` (step → placeholders) and the
    ``metric_dir`` its shipped files are under."""

    steps: ClassVar[Mapping[str, tuple[str, ...]]]
    metric_dir: ClassVar[str]
    templates: Mapping[tuple[str, str], PromptTemplate]

    @classmethod
    def load(cls: type[_P], custom: Mapping[str, PromptSource] | None) -> _P:
        """The shipped prompts, with ``custom`` (step → text, path or template) replacing them in every language.

        Raises:
            ConfigurationError: an unknown step, a source of the wrong type, a missing placeholder.
        """
        steps = cls.steps
        if custom is not None and not isinstance(custom, Mapping):
            raise ConfigurationError(
                f"prompts must map a step ({', '.join(steps)}) to prompt text, a path or a PromptTemplate; "
                f"got {type(custom).__name__}"
            )
        given = dict(custom or {})
        for step, source in given.items():
            if not isinstance(source, (str, Path, PromptTemplate)):
                raise ConfigurationError(
                    f"prompt for step {step!r} must be text, a path or a PromptTemplate, got {type(source).__name__}"
                )
        unknown = sorted(set(given) - set(steps))
        if unknown:
            raise ConfigurationError(f"unknown prompt step(s) {unknown}; expected some of {', '.join(steps)}")
        templates: dict[tuple[str, str], PromptTemplate] = {}
        for step, placeholders in steps.items():
            for language in LANGUAGES:
                mine = given.get(step)
                template = load_prompt(mine) if mine is not None else builtin_prompt(cls.metric_dir, step, language)
                template.require(placeholders, step=step)
                templates[(step, language)] = template
        return cls(templates)

    def get(self, step: str, language: str) -> PromptTemplate:
        """The template of ``step`` in ``language``."""
        return self.templates[(step, language)]

    def follow_up(self, step: str, language: str, after: str | None, **values: str) -> tuple[str, str]:
        """The message of follow-up ``step`` (its user part, filled) and the prompt version of the request that
        sends it: ``after``, the version of the prompt that opened the conversation, then the step's own."""
        template = self.get(step, language)
        return template.render(**values)[-1]["content"], f"{after}+{template.version}"

    def versions(self) -> dict[str, str]:
        """``"step.language"`` → version, for settings."""
        return {f"{s}.{lang}": t.version for (s, lang), t in self.templates.items()}
