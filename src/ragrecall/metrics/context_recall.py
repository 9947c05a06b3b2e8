"""LLM context recall: how many of the reference's claims the retrieved contexts support.

``mode="claims"`` (default) asks twice: (1) decompose the reference into atomic, self-contained claims in its
own language; (2) judge every claim against the numbered retrieved contexts (in chunks of
``claims_per_call``), each verdict giving supported yes/no, the supporting contexts and a one-sentence reason.
``mode="single"`` asks once for claims and verdicts together: cheaper, and what Ragas does.

``value = supported claims / claims``. Contexts are shown to the LLM numbered from 1; the evidence reports
0-based indices into ``retrieved_contexts``, like every other ragrecall evidence record.
"""

from __future__ import annotations

import asyncio
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, ClassVar, Literal

from pydantic import BaseModel, ConfigDict, Field

from ..errors import ConfigurationError, LLMError
from ..llm._ask import ask
from ..llm._prompts import PromptTemplate, builtin_prompt, load_prompt
from ..llm._protocol import LLM, InvalidReplyError, LLMRequest
from ..results import Evidence, MetricResult
from ..schema import Sample
from ..usage import Usage
from .base import Metric

__all__ = [
    "ClaimList",
    "ClaimRecallEvidence",
    "ClaimVerdict",
    "ContextRecall",
    "JudgedClaims",
    "LLMContextRecall",
    "SingleReply",
]

Mode = Literal["claims", "single"]
LANGUAGES = ("en", "zh")
STEPS: dict[str, tuple[str, ...]] = {
    "decompose": ("reference",),
    "judge": ("contexts", "claims"),
    "single": ("contexts", "reference"),
}
"""Prompt steps and the placeholders each must fill."""
_METRIC_DIR = "context_recall"
_HAN = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]")
_KANA_HANGUL = re.compile(r"[\u3040-\u30ff\uac00-\ud7af]")


# -- what the LLM must reply ---------------------------------------------------------------------------------


class _Reply(BaseModel):
    model_config = ConfigDict(extra="forbid")


class ClaimList(_Reply):
    """Reply of the decomposition step."""

    claims: list[str]
    """The reference's atomic, self-contained claims, in its language."""


class _Verdict(_Reply):
    claim: int
    """The claim's number as shown (1-based)."""
    reason: str
    """One short sentence."""
    supported: bool
    """True when the contexts state the claim."""
    contexts: list[int]
    """Numbers (1-based, as shown) of the supporting contexts."""


class JudgedClaims(_Reply):
    """Reply of the judging step: one verdict per claim."""

    verdicts: list[_Verdict]


class _SingleClaim(_Reply):
    claim: str
    reason: str
    supported: bool
    contexts: list[int]


class SingleReply(_Reply):
    """Reply of the one-call mode: claims with their verdicts."""

    claims: list[_SingleClaim]


# -- evidence ------------------------------------------------------------------------------------------------


class ClaimVerdict(BaseModel):
    """One claim of the reference and the verdict on it."""

    model_config = ConfigDict(frozen=True)

    claim: str
    """The claim, in the reference's language."""
    supported: bool
    """True when some retrieved context supports it."""
    supporting_contexts: list[int]
    """0-based indices into ``retrieved_contexts`` of the contexts that support it."""
    reason: str
    """The judge's one-sentence reason."""


class ClaimRecallEvidence(Evidence):
    """The claims, the verdict on each, and which retrieved contexts did any supporting."""

    kind: Literal["claim_recall"] = "claim_recall"
    mode: Mode
    """``"claims"`` (decompose, then judge) or ``"single"`` (one call)."""
    language: str
    """Language of the prompts used (``"en"``, ``"zh"``)."""
    model: str
    """The LLM's model name."""
    prompt_versions: dict[str, str] = Field(default_factory=dict)
    """Step → version of the prompt used."""
    claims: list[ClaimVerdict] = Field(default_factory=list)
    """One entry per claim, in the order the LLM gave them."""
    contexts_used: list[int] = Field(default_factory=list)
    """0-based indices of the retrieved contexts that support at least one claim, ascending."""
    context_utilisation: float | None = None
    """``len(contexts_used) / len(retrieved_contexts)``; None when nothing was retrieved."""

    def missing_items(self) -> list[str]:
        return [f"claim {c.claim!r}" for c in self.claims if not c.supported]


# -- the metric ----------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class ContextRecall(Metric):
    """Share of the reference's claims that the retrieved contexts support, judged by an LLM.

    Needs ``reference`` and ``retrieved_contexts``. A blank reference is unscorable and an empty retrieval
    scores 0, both without an LLM call. A reference in which the LLM finds no claims is unscorable.

    Args:
        llm: any :class:`ragrecall.llm.LLM` (the OpenAI adapter, a fake, the offline judge).
        mode: ``"claims"`` (two steps, default) or ``"single"`` (one call).
        language: ``"auto"`` (Chinese prompts when the reference is mostly Han characters, English
            otherwise), ``"en"`` or ``"zh"``. Claims always come back in the reference's language.
        claims_per_call: most claims judged in one request; more are split into concurrent requests.
        max_repairs: how many times an invalid reply is sent back with its problem before the sample fails.
        prompts: step (``"decompose"``, ``"judge"``, ``"single"``) → prompt text, path or
            :class:`~ragrecall.llm.PromptTemplate`, replacing the shipped prompt for every language.

    Raises (from ``ascore``/``score``): :class:`~ragrecall.errors.LLMOutputError` when the replies stay
    invalid after every repair; :class:`~ragrecall.errors.LLMRequestError` when requests keep failing. Batch
    scoring records either as a failed result with its cause.
    """

    llm: LLM
    mode: Mode = "claims"
    language: str = "auto"
    claims_per_call: int = 20
    max_repairs: int = 2
    prompts: Mapping[str, str | Path | PromptTemplate] | None = field(default=None, compare=False)
    _templates: dict[tuple[str, str], PromptTemplate] = field(init=False, repr=False, compare=False)

    required_fields: ClassVar[tuple[str, ...]] = ("reference", "retrieved_contexts")
    metric_name: ClassVar[str] = "context_recall"

    def __post_init__(self) -> None:
        if not isinstance(self.llm, LLM):
            raise ConfigurationError(
                f"llm must implement ragrecall.llm.LLM (model_name and agenerate), got {type(self.llm).__name__}"
            )
        if self.mode not in ("claims", "single"):
            raise ConfigurationError(f"mode must be 'claims' or 'single', got {self.mode!r}")
        if self.language != "auto" and self.language not in LANGUAGES:
            raise ConfigurationError(f"language must be 'auto' or one of {', '.join(LANGUAGES)}, got {self.language!r}")
        for name in ("claims_per_call", "max_repairs"):
            value = getattr(self, name)
            low = 1 if name == "claims_per_call" else 0
            if isinstance(value, bool) or not isinstance(value, int) or value < low:
                raise ConfigurationError(f"{name} must be an integer >= {low}, got {value!r}")
        if self.prompts is not None and not isinstance(self.prompts, Mapping):
            raise ConfigurationError(
                f"prompts must map a step ({', '.join(STEPS)}) to prompt text, a path or a PromptTemplate; "
                f"got {type(self.prompts).__name__}"
            )
        custom = dict(self.prompts or {})
        for step, given in custom.items():
            if not isinstance(given, (str, Path, PromptTemplate)):
                raise ConfigurationError(
                    f"prompt for step {step!r} must be text, a path or a PromptTemplate, got {type(given).__name__}"
                )
        unknown = sorted(set(custom) - set(STEPS))
        if unknown:
            raise ConfigurationError(f"unknown prompt step(s) {unknown}; expected some of {', '.join(STEPS)}")
        templates: dict[tuple[str, str], PromptTemplate] = {}
        for step in self._steps():
            for language in LANGUAGES:
                source = custom.get(step)
                template = load_prompt(source) if source is not None else builtin_prompt(_METRIC_DIR, step, language)
                template.require(STEPS[step], step=step)
                templates[(step, language)] = template
        object.__setattr__(self, "_templates", templates)

    def _steps(self) -> tuple[str, ...]:
        return ("decompose", "judge") if self.mode == "claims" else ("single",)

    @property
    def name(self) -> str:
        """``"context_recall"``, or ``"context_recall(mode=single)"`` in single mode (names must differ)."""
        return self.metric_name if self.mode == "claims" else f"{self.metric_name}(mode={self.mode})"

    def settings(self) -> dict[str, Any]:
        llm_settings = getattr(self.llm, "settings", None)
        return {
            "model": self.llm.model_name,
            # Sampling parameters, output mode, judge thresholds: what makes two runs of one model differ.
            "llm": llm_settings() if callable(llm_settings) else {},
            "mode": self.mode,
            "language": self.language,
            "claims_per_call": self.claims_per_call,
            "max_repairs": self.max_repairs,
            "prompt_versions": {f"{s}.{lang}": t.version for (s, lang), t in self._templates.items()},
        }

    def language_of(self, reference: str) -> str:
        """The prompt language used for ``reference`` under this metric's ``language`` setting."""
        if self.language != "auto":
            return self.language
        han = len(_HAN.findall(reference))
        if han == 0 or _KANA_HANGUL.search(reference):
            return "en"
        letters = sum(1 for ch in reference if ch.isalpha())
        return "zh" if han >= 0.3 * letters else "en"

    async def _ascore_sample(self, sample: Sample) -> MetricResult:
        reference = sample.reference or ""
        contexts = list(sample.retrieved_contexts or [])
        if not reference.strip():
            return MetricResult.unscorable(self.name, "reference is empty: nothing to recall", sample_id=sample.id)
        language = self.language_of(reference)
        versions = {step: self._templates[(step, language)].version for step in self._steps()}
        evidence_base: dict[str, Any] = {
            "mode": self.mode,
            "language": language,
            "model": self.llm.model_name,
            "prompt_versions": versions,
        }
        if not any(c.strip() for c in contexts):  # nothing, or only blank text, was retrieved
            return MetricResult.scored(self.name, 0.0, ClaimRecallEvidence(**evidence_base), sample_id=sample.id)
        if self.mode == "claims":
            verdicts, usage = await self._claims_mode(reference, contexts, language)
        else:
            verdicts, usage = await self._single_mode(reference, contexts, language)
        used = sorted({i for v in verdicts for i in v.supporting_contexts})
        evidence = ClaimRecallEvidence(
            **evidence_base,
            claims=verdicts,
            contexts_used=used,
            context_utilisation=len(used) / len(contexts),
        )
        if not verdicts:
            return MetricResult.unscorable(
                self.name, "the LLM found no claims in the reference", evidence, sample_id=sample.id, usage=usage
            )
        value = sum(v.supported for v in verdicts) / len(verdicts)
        return MetricResult.scored(self.name, value, evidence, sample_id=sample.id, usage=usage)

    # -- the two modes ---------------------------------------------------------------------------------------

    async def _claims_mode(
        self, reference: str, contexts: list[str], language: str
    ) -> tuple[list[ClaimVerdict], Usage]:
        template = self._templates[("decompose", language)]
        decomposed = await ask(
            self.llm,
            LLMRequest(
                template.render(reference=reference),
                ClaimList,
                template.version,
                "context_recall.decompose",
                {"reference": reference, "language": language},
            ),
            check=_check_claims,
            max_repairs=self.max_repairs,
        )
        claims = [c.strip() for c in decomposed.parsed.claims]
        if not claims:
            return [], decomposed.usage
        size = self.claims_per_call
        chunks = [claims[i : i + size] for i in range(0, len(claims), size)]
        tasks = [asyncio.ensure_future(self._judge(chunk, contexts, language)) for chunk in chunks]
        try:
            judged = list(await asyncio.gather(*tasks))
        except LLMError as exc:
            # Paid calls stay on the books: the decomposition's tokens join the failed judgment's.
            exc.usage = decomposed.usage + exc.usage if exc.usage is not None else decomposed.usage
            raise
        finally:
            for task in tasks:  # one chunk failed: the others would be paid for and never used
                task.cancel()
        verdicts = [v for chunk_verdicts, _ in judged for v in chunk_verdicts]
        return verdicts, Usage.total([decomposed.usage, *(u for _, u in judged)])

    async def _judge(self, claims: list[str], contexts: list[str], language: str) -> tuple[list[ClaimVerdict], Usage]:
        template = self._templates[("judge", language)]
        request = LLMRequest(
            template.render(contexts=_number_contexts(contexts), claims=_number_claims(claims)),
            JudgedClaims,
            template.version,
            "context_recall.judge",
            {"claims": claims, "contexts": contexts, "language": language},
        )
        n_claims, n_contexts = len(claims), len(contexts)

        def check(reply: JudgedClaims) -> None:
            numbers = [v.claim for v in reply.verdicts]
            if sorted(numbers) != list(range(1, n_claims + 1)):
                raise InvalidReplyError(
                    f"expected exactly one verdict for each claim 1..{n_claims}, got {len(numbers)} verdict(s) "
                    f"for claim number(s) {numbers}"
                )
            for v in reply.verdicts:
                _check_verdict(f"claim {v.claim}", v.supported, v.contexts, n_contexts)

        reply = await ask(self.llm, request, check=check, max_repairs=self.max_repairs)
        ordered = sorted(reply.parsed.verdicts, key=lambda v: v.claim)
        verdicts = [_to_evidence(claims[v.claim - 1], v.supported, v.contexts, v.reason) for v in ordered]
        return verdicts, reply.usage

    async def _single_mode(
        self, reference: str, contexts: list[str], language: str
    ) -> tuple[list[ClaimVerdict], Usage]:
        template = self._templates[("single", language)]
        request = LLMRequest(
            template.render(contexts=_number_contexts(contexts), reference=reference),
            SingleReply,
            template.version,
            "context_recall.single",
            {"reference": reference, "contexts": contexts, "language": language},
        )
        n_contexts = len(contexts)

        def check(reply: SingleReply) -> None:
            _check_not_blank([c.claim for c in reply.claims])
            for i, c in enumerate(reply.claims, 1):
                _check_verdict(f"claim {i}", c.supported, c.contexts, n_contexts)

        reply = await ask(self.llm, request, check=check, max_repairs=self.max_repairs)
        verdicts = [_to_evidence(c.claim.strip(), c.supported, c.contexts, c.reason) for c in reply.parsed.claims]
        return verdicts, reply.usage


LLMContextRecall = ContextRecall
"""Ragas spelling of :class:`ContextRecall`."""


def _number_contexts(contexts: Sequence[str]) -> str:
    # One line per context, so that a context's own line breaks cannot pass for a new numbered item.
    return "\n".join(f"[{i}] {_one_line(text)}" for i, text in enumerate(contexts, 1))


def _one_line(text: str) -> str:
    return " ".join(text.split()) if "\n" in text or "\r" in text else text.strip()


def _number_claims(claims: Sequence[str]) -> str:
    return "\n".join(f"{i}. {claim}" for i, claim in enumerate(claims, 1))


def _check_claims(reply: ClaimList) -> None:
    _check_not_blank(reply.claims)


def _check_not_blank(claims: Sequence[str]) -> None:
    for i, claim in enumerate(claims, 1):
        if not claim.strip():
            raise InvalidReplyError(f"claim {i} is blank; every claim must state a fact")


def _check_verdict(what: str, supported: bool, numbers: list[int], n_contexts: int) -> None:
    bad = [n for n in numbers if not 1 <= n <= n_contexts]
    if bad:
        raise InvalidReplyError(f"{what} cites context number(s) {bad}, but the contexts are numbered 1..{n_contexts}")
    if supported and not numbers:
        raise InvalidReplyError(f"{what} is marked supported but cites no context; give the supporting numbers")


def _to_evidence(claim: str, supported: bool, numbers: list[int], reason: str) -> ClaimVerdict:
    # An unsupported claim supports nothing, whatever numbers came with it.
    indices = sorted({n - 1 for n in numbers}) if supported else []
    return ClaimVerdict(claim=claim, supported=supported, supporting_contexts=indices, reason=reason.strip())
