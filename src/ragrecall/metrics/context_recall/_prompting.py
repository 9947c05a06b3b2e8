"""The prompts of claim recall: which steps exist, what each fills, the shipped files, and how inputs are shown.

Steps ``decompose``, ``judge``, ``single`` and ``confirm`` open a conversation; ``cover``, ``recheck`` and
``single_fix`` are follow-ups appended to one (their user part is the message; a system part would be ignored).

Contexts, the reference, claims and the reference's sentences reach every prompt, the user's own included, as
data blocks (:func:`ragrecall.llm._prompts.data_block`): ``<context id="1">…</context>``, ``<reference>…
</reference>``, ``<claim id="1">…</claim>``, ``<sentence>…</sentence>``, which their text cannot close. Claims
and sentences are single-line; contexts and the reference keep their line breaks.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import ClassVar

from ...llm import data_block
from .._step_prompts import LANGUAGES, StepPrompts

__all__ = [
    "LANGUAGES",
    "STEPS",
    "Prompts",
    "claim_block",
    "language_of",
    "number_claims",
    "number_contexts",
    "one_line",
    "reference_block",
    "say",
    "sentence_block",
]

STEPS: dict[str, tuple[str, ...]] = {
    "decompose": ("reference",),
    "judge": ("contexts", "claims"),
    "single": ("contexts", "reference"),
    "cover": ("uncovered", "invented"),
    "recheck": ("problems",),
    "single_fix": ("problems",),
    "confirm": ("items",),
}
"""Prompt steps and the placeholders each must fill."""
_HAN = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]")
_KANA_HANGUL = re.compile(r"[\u3040-\u30ff\uac00-\ud7af]")


@dataclass(frozen=True)
class Prompts(StepPrompts):
    """Every claim-recall step's template in every language: the shipped files, or the user's prompt for a step."""

    steps: ClassVar[Mapping[str, tuple[str, ...]]] = STEPS
    metric_dir: ClassVar[str] = "context_recall"


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
    """One ``<context id="i">text</context>`` block per line, numbered from 1; a context keeps its own line
    breaks, and nothing in it can end its block or start another."""
    return "\n".join(data_block("context", text, i) for i, text in enumerate(contexts, 1))


def number_claims(claims: Sequence[str], numbers: Sequence[int] | None = None) -> str:
    """One single-line ``<claim id="n">claim</claim>`` block per line, numbered from 1 or by ``numbers``."""
    shown = numbers if numbers is not None else range(1, len(claims) + 1)
    return "\n".join(claim_block(claim, n) for n, claim in zip(shown, claims, strict=True))


def claim_block(claim: str, number: int) -> str:
    """``<claim id="number">claim</claim>``, the claim on one line."""
    return data_block("claim", one_line(claim), number)


def reference_block(reference: str) -> str:
    """``<reference>reference</reference>``, line breaks kept."""
    return data_block("reference", reference)


def sentence_block(sentence: str) -> str:
    """``<sentence>sentence</sentence>``, a sentence of the reference on one line."""
    return data_block("sentence", one_line(sentence))


def one_line(text: str) -> str:
    """``text`` with every run of whitespace, line breaks of any kind included (``\\n``, ``\\r``, ``\\v``,
    ``\\x85``, ``\\u2028``, ``\\u2029``...), made one space, and no space at either end."""
    return " ".join(text.split())


_PHRASES = {
    "en": {
        "uncovered": "no claim states this sentence",
        "ungrounded": "the reference does not state this claim",
        "none": "(none)",
    },
    "zh": {
        "uncovered": "没有任何陈述覆盖这句话",
        "ungrounded": "参考答案并未陈述这条内容",
        "none": "（无）",
    },
}


def say(phrase: str, language: str) -> str:
    """A fixed phrase of the follow-up messages (``"uncovered"``, ``"ungrounded"``, ``"none"``) in ``language``
    (English when the language has none)."""
    return _PHRASES.get(language, _PHRASES["en"])[phrase]
