"""The verification world: adversarial and honest judges of context recall, scripted from case data.

The world (``tests/metrics/context_recall/verification_world.json``) is a list of samples, English and Chinese.
Each has one *target* claim of its class and one or two honest *background* claims, every claim with its
``truth`` (does some context really state it), the judge's verdict on it (``judge``) and, optionally, what the
judge answers when asked about it again (``recheck``; when absent it repeats ``judge``).

Lie classes (the judge's verdict on the target is adversarial, built from real passage text):
:data:`LIE_CLASSES`. Honest classes (every verdict honest, nothing should be flagged): :data:`HONEST_CLASSES`.

Definitions used by the benchmark and the tests:

- a *lie is caught* when the final verdict does not count the false claim as supported; for
  ``false_unsupported`` (a true claim the judge calls unsupported) when the claim ends supported, or unsupported
  with ``verification="contested"``;
- an honest or background verdict is *flagged* when its verification is ``unverified``, ``contested`` or
  ``refuted``, or when its final ``supported`` differs from its truth;
- a sample *failed* when its result is not ``scored``;
- the *true score* of a sample is the share of its claims whose truth is true; the error of a sample is the
  absolute difference between its score and its true score.
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from ragrecall.llm import FakeLLM, LLMRequest
from ragrecall.metrics.context_recall import ClaimRecallEvidence, ContextRecall

WORLD_PATH = Path(__file__).resolve().parent.parent / "metrics" / "context_recall" / "verification_world.json"

LIE_CLASSES = (
    "wrong_subject",
    "negation_outside",
    "unrelated_fragments",
    "unit_swap",
    "number_word",
    "range",
    "other_predicate",
    "recheck_switch",
    "false_unsupported",
    "no_shared_word",
    "scale_word",
)
HONEST_CLASSES = (
    "typo_quote",
    "full_width",
    "line_break",
    "ellipsis_free",
    "number_words",
    "scale_words",
    "ranges",
    "coreference",
    "negated_claim",
    "long_sentence_negation",
)
JUDGE_TASK = "context_recall.judge"
CONFIRM_TASK = "context_recall.confirm"
FLAGGING = frozenset({"unverified", "contested", "refuted"})
"""Verification levels that flag a verdict."""


def load_world(path: Path = WORLD_PATH) -> list[dict[str, Any]]:
    """The world's samples, as written."""
    world: list[dict[str, Any]] = json.loads(path.read_text(encoding="utf-8"))
    return world


def has_confirm() -> bool:
    """True when this ContextRecall takes ``confirm=`` (independent confirmation)."""
    return "confirm" in {f.name for f in dataclasses.fields(ContextRecall)}


def _claims_by_text(sample: dict[str, Any]) -> dict[str, dict[str, Any]]:
    return {c["text"]: c for c in sample["claims"]}


def _case(sample: dict[str, Any], cases: dict[str, dict[str, Any]], text: str, task: str | None) -> dict[str, Any]:
    if text not in cases:
        raise AssertionError(f"sample {sample['id']}: {task} asked about {text!r}, which is not one of its claims")
    return cases[text]


def scripted_judge(sample: dict[str, Any], *, grouped: bool = False) -> Callable[[LLMRequest[Any]], Any]:
    """The judge of ``sample``: answers the judging task with each claim's ``judge`` verdict and every other
    task about claims (the re-asks) with its ``recheck`` verdict (``judge`` when it has none), numbering the
    verdicts as the request does (``inputs["numbers"]`` in a follow-up). Raises on a claim the sample does not
    have, and on any other task. Replies in the earlier ``{"verdicts": [...]}`` shape, or with ``grouped`` in
    the shape the prompts ask for (``{"supported": [...], "unsupported": [...]}``)."""
    cases = _claims_by_text(sample)

    def respond(request: LLMRequest[Any]) -> Any:
        inputs = request.inputs or {}
        if request.task == CONFIRM_TASK or "claims" not in inputs:
            raise AssertionError(f"sample {sample['id']}: the judge was sent an unexpected task {request.task!r}")
        texts: list[str] = list(inputs["claims"])
        numbers: list[int] = list(inputs.get("numbers") or range(1, len(texts) + 1))
        verdicts = []
        for number, text in zip(numbers, texts, strict=True):
            case = _case(sample, cases, text, request.task)
            answer = case["judge"] if request.task == JUDGE_TASK else case.get("recheck", case["judge"])
            verdicts.append({"claim": number, **answer})
        return _grouped(verdicts) if grouped else {"verdicts": verdicts}

    return respond


def _grouped(verdicts: list[dict[str, Any]]) -> dict[str, Any]:
    supported = [{"claim": v["claim"], **q} for v in verdicts if v["supported"] for q in v["support"]]
    unsupported = [{"claim": v["claim"], "reason": v.get("reason", "")} for v in verdicts if not v["supported"]]
    return {"supported": supported, "unsupported": unsupported}


def honest_confirmer(sample: dict[str, Any]) -> Callable[[LLMRequest[Any]], Any]:
    """A confirming model that knows the truth: each claim asked about is entailed exactly when it is true.
    Raises on a claim the sample does not have, and on any other task."""
    cases = _claims_by_text(sample)

    def respond(request: LLMRequest[Any]) -> Any:
        if request.task != CONFIRM_TASK:
            raise AssertionError(f"sample {sample['id']}: the confirmer was sent the task {request.task!r}")
        texts: list[str] = list(request.inputs["claims"])
        verdicts = [
            {"claim": n, "entailed": bool(_case(sample, cases, text, request.task)["truth"])}
            for n, text in enumerate(texts, 1)
        ]
        reason = "The evidence states it." if sample["language"] == "en" else "证据说明了这一点。"
        # A short reason may follow each verdict; send it only if the reply format has a place for it.
        for reply in ({"verdicts": [{**v, "reason": reason} for v in verdicts]}, {"verdicts": verdicts}):
            try:
                request.output.model_validate(reply)
            except ValidationError:
                continue
            return reply
        return {"verdicts": verdicts}

    return respond


@dataclass(frozen=True)
class ClaimOutcome:
    """One claim of a sample, its truth and the final verdict on it."""

    text: str
    role: str
    truth: bool
    supported: bool
    verification: str
    confirmed: bool | None
    problem: str | None

    @property
    def flagged(self) -> bool:
        """For an honest verdict: flagged by a check, or counted against its truth."""
        return self.verification in FLAGGING or self.supported != self.truth


@dataclass(frozen=True)
class SampleOutcome:
    """What ContextRecall made of one sample of the world."""

    id: str
    language: str
    cls: str
    status: str
    value: float | None
    truth: float
    claims: list[ClaimOutcome]
    requests: int
    failure: str | None = None

    @property
    def failed(self) -> bool:
        return self.status != "scored"

    is_lie: bool | None = None
    """The sample's own ``lie`` field, when it has one (worlds of other classes than :data:`LIE_CLASSES`)."""

    @property
    def lie(self) -> bool:
        return self.cls in LIE_CLASSES if self.is_lie is None else self.is_lie

    @property
    def target(self) -> ClaimOutcome | None:
        return next((c for c in self.claims if c.role == "target"), None)

    @property
    def background(self) -> list[ClaimOutcome]:
        return [c for c in self.claims if c.role == "background"]

    @property
    def caught(self) -> bool:
        """For a lie: the final verdict does not count it as the judge wanted (see the module docstring)."""
        t = self.target
        if t is None:
            return False
        if self.cls == "false_unsupported":
            return t.supported or t.verification == "contested"
        return not t.supported

    @property
    def error(self) -> float | None:
        """|score - true score|; None when the sample failed."""
        return None if self.value is None else abs(self.value - self.truth)


def score_sample(sample: dict[str, Any], confirm: Any = None, *, grouped: bool = False) -> SampleOutcome:
    """Score ``sample`` with its claims given as ``reference_claims`` (no decomposition), one vote, every
    context judged together, its scripted judge (replying ``grouped`` or not); with ``confirm`` (only when
    ContextRecall takes it) passed on as ``confirm=``."""
    judge = FakeLLM(scripted_judge(sample, grouped=grouped))
    extra: dict[str, Any] = {} if confirm is None else {"confirm": confirm}
    metric = ContextRecall(judge, votes=1, judging="together", language=sample["language"], **extra)
    claims: list[dict[str, Any]] = sample["claims"]
    given = {
        "id": sample["id"],
        "reference_claims": [c["text"] for c in claims],
        "retrieved_contexts": sample["contexts"],
    }
    [result] = metric.batch_score([given], max_concurrency=1)
    truth = sum(bool(c["truth"]) for c in claims) / len(claims)
    requests = len(judge.requests) + len(getattr(confirm, "requests", []))
    if result.status != "scored" or not isinstance(result.evidence, ClaimRecallEvidence):
        cause = result.failure.message if result.failure is not None else result.reason
        return SampleOutcome(
            sample["id"],
            sample["language"],
            sample["class"],
            result.status,
            None,
            truth,
            [],
            requests,
            cause,
            sample.get("lie"),
        )
    verdicts = {v.claim: v for v in result.evidence.claims}
    outcomes = [
        ClaimOutcome(
            text=c["text"],
            role=c["role"],
            truth=bool(c["truth"]),
            supported=verdicts[c["text"]].supported,
            verification=str(verdicts[c["text"]].verification),
            confirmed=getattr(verdicts[c["text"]], "confirmed", None),
            problem=verdicts[c["text"]].problem,
        )
        for c in claims
    ]
    return SampleOutcome(
        sample["id"],
        sample["language"],
        sample["class"],
        "scored",
        result.value,
        truth,
        outcomes,
        requests,
        is_lie=sample.get("lie"),
    )


def score_world(
    world: Sequence[dict[str, Any]], *, confirmed: bool = False, grouped: bool = False
) -> list[SampleOutcome]:
    """Every sample of ``world`` scored; with ``confirmed``, each with an honest confirming model of its own;
    with ``grouped``, the judge replying in the grouped shape."""
    return [
        score_sample(s, FakeLLM(honest_confirmer(s), model_name="confirmer") if confirmed else None, grouped=grouped)
        for s in world
    ]


@dataclass(frozen=True)
class FrameOutcome:
    """One item of a frames probe: a claim copied word for word into a passage, and whether code decided it
    ``stated`` (the judge not asked)."""

    id: str
    language: str
    frame: str
    asserted: bool
    stated: bool


def score_frames(items: Sequence[dict[str, Any]]) -> list[FrameOutcome]:
    """Whether each probe item's claim is decided ``stated`` against its passage (its one context)."""
    from ragrecall.metrics.context_recall._stated import stated_support
    from ragrecall.metrics.context_recall._verify import Contexts

    return [
        FrameOutcome(
            item["id"],
            item["language"],
            item["frame"],
            bool(item["asserted"]),
            stated_support(item["claim"], Contexts([item["context"]])) is not None,
        )
        for item in items
    ]


@dataclass(frozen=True)
class DecompositionOutcome:
    """One decomposition case: its unfaithful claim (None for an honest decomposition), whether the final claims
    still hold it, and which claims were dropped or replaced."""

    id: str
    language: str
    kind: str
    bad: str | None
    kept_bad: bool
    dropped: list[str]
    """Claims of the decomposition not among the final claims (dropped, or replaced by their sentence)."""

    @property
    def caught(self) -> bool:
        return self.bad is not None and not self.kept_bad

    @property
    def flagged(self) -> bool:
        """For an honest decomposition: a faithful claim was dropped or replaced."""
        return self.bad is None and bool(self.dropped)


def score_decompositions(items: Sequence[dict[str, Any]], *, fixing: bool) -> list[DecompositionOutcome]:
    """Each case scored by ContextRecall: the scripted decomposer answers with the case's claims, and when asked
    to fix them, with its ``fixed`` list (``fixing``) or the same claims again; the judge calls every claim
    unsupported (what is measured is the claim list)."""
    out = []
    for item in items:

        def respond(request: LLMRequest[Any], item: dict[str, Any] = item) -> Any:
            if request.task == "context_recall.decompose":
                return {"claims": item["claims"]}
            if request.task == "context_recall.cover":
                return {"claims": item["fixed"] if fixing else item["claims"]}
            texts = list(request.inputs["claims"])
            numbers = list(request.inputs.get("numbers") or range(1, len(texts) + 1))
            return {"verdicts": [{"claim": n, "supported": False, "support": [], "reason": "-"} for n in numbers]}

        metric = ContextRecall(FakeLLM(respond), language=item["language"])
        [result] = metric.batch_score(
            [{"id": item["id"], "reference": item["reference"], "retrieved_contexts": ["Nothing relevant here."]}],
            max_concurrency=1,
        )
        if result.status != "scored" or not isinstance(result.evidence, ClaimRecallEvidence):
            raise AssertionError(f"{item['id']}: not scored: {result.failure or result.reason}")
        final = {c.claim for c in result.evidence.claims}
        bad = item["claims"][item["bad"]] if item.get("bad") is not None else None
        out.append(
            DecompositionOutcome(
                item["id"],
                item["language"],
                item["kind"],
                bad,
                bad in final if bad is not None else False,
                [c for c in item["claims"] if c not in final],
            )
        )
    return out
