"""The prompts of claim recall: which steps exist, what each fills, the shipped files, and how inputs are shown.

Steps ``decompose``, ``judge`` and ``single`` open a conversation; ``cover``, ``recheck`` and ``single_fix``
are follow-ups appended to one (their user part is the message; a system part would be ignored).
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from ...errors import ConfigurationError
from ...llm._prompts import PromptTemplate, builtin_prompt, load_prompt

__all__ = ["LANGUAGES", "STEPS", "Prompts", "json_line", "language_of", "number_claims", "number_contexts"]

LANGUAGES = ("en", "zh")
STEPS: dict[str, tuple[str, ...]] = {
    "decompose": ("reference",),
    "judge": ("contexts", "claims"),
    "single": ("contexts", "reference"),
    "cover": ("uncovered", "invented"),
    "recheck": ("problems",),
    "single_fix": ("problems",),
}
"""Prompt steps and the placeholders each must fill."""
_METRIC_DIR = "context_recall"
_HAN = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]")
_KANA_HANGUL = re.compile(r"[\u3040-\u30ff\uac00-\ud7af]")

PromptSource = str | Path | PromptTemplate


@dataclass(frozen=True)
class Prompts:
    """Every step's template in every language: the shipped files, or the user's prompt for a step."""

    templates: Mapping[tuple[str, str], PromptTemplate]

    @classmethod
    def load(cls, custom: Mapping[str, PromptSource] | None) -> Prompts:
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
        for step, source in given.items():
            if not isinstance(source, (str, Path, PromptTemplate)):
                raise ConfigurationError(
                    f"prompt for step {step!r} must be text, a path or a PromptTemplate, got {type(source).__name__}"
                )
        unknown = sorted(set(given) - set(STEPS))
        if unknown:
            raise ConfigurationError(f"unknown prompt step(s) {unknown}; expected some of {', '.join(STEPS)}")
        templates: dict[tuple[str, str], PromptTemplate] = {}
        for step, placeholders in STEPS.items():
            for language in LANGUAGES:
                mine = given.get(step)
                template = load_prompt(mine) if mine is not None else builtin_prompt(_METRIC_DIR, step, language)
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


def language_of(reference: str, setting: str) -> str:
    """The prompt language for ``reference``: ``setting`` unless it is ``"auto"``, then Chinese when Han
    characters are at least 30% of the letters (and there is no kana or Hangul), else English."""
    if setting != "auto":
        return setting
    han = len(_HAN.findall(reference))
    if han == 0 or _KANA_HANGUL.search(reference):
        return "en"
    letters = sum(1 for ch in reference if ch.isalpha())
    return "zh" if han >= 0.3 * letters else "en"


def number_contexts(contexts: Sequence[str]) -> str:
    """``[1] text`` per line: a context's own line breaks cannot pass for a new numbered item."""
    return "\n".join(f"[{i}] {_one_line(text)}" for i, text in enumerate(contexts, 1))


def number_claims(claims: Sequence[str], numbers: Sequence[int] | None = None) -> str:
    """``1. claim`` per line, numbered from 1 or by ``numbers``."""
    shown = numbers if numbers is not None else range(1, len(claims) + 1)
    return "\n".join(f"{n}. {_one_line(claim)}" for n, claim in zip(shown, claims, strict=True))


def json_line(text: str) -> str:
    """``text`` as a one-line JSON string, for quoting outside text inside a follow-up message."""
    return json.dumps(text, ensure_ascii=False)


def _one_line(text: str) -> str:
    # Every Unicode line break (\u2028, \x85, \v...) becomes a space: none can start a forged numbered item.
    return " ".join(text.split())
