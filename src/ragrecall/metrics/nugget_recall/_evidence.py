"""The evidence of nugget recall: every nugget, its importance, the label it earned, the quotes behind it and
how they checked out, and all five scores whichever one is the value."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from ...nuggets import Importance, Label, Score, nugget_scores
from ...rendering import InputNotes, Passages, fields_html
from ...results import Evidence
from ..context_recall import ClaimVerdict, Quote, Verification

__all__ = ["Judging", "NuggetOrigin", "NuggetRecallEvidence", "NuggetVerdict", "UnverifiedPolicy"]

Judging = Literal["together", "per_context"]
UnverifiedPolicy = Literal["unsupported", "supported", "fail"]
NuggetOrigin = Literal["given", "reference"]


class NuggetVerdict(BaseModel):
    """One nugget and the label the retrieved set earned for it."""

    model_config = ConfigDict(frozen=True)

    text: str
    importance: Importance
    label: Label
    """What counts: ``support``, ``partial_support`` or ``not_support`` (best over passages; the judge's label
    when its quotes checked out, else by the ``unverified`` policy)."""
    judged: Label | None = None
    """The judge's label before the checks (of the first judgement agreeing with ``label``); None when code
    decided (``stated``)."""
    support: list[Quote] = Field(default_factory=list)
    """The quotes, each with where it was found."""
    part: str | None = None
    """For a partial support: the words of the nugget the quotes state."""
    verification: Verification = "none"
    """As for claims: ``stated`` (written word for word in a passage, decided by code), ``verified``,
    ``corrected``, ``unverified`` (a quote not found, or its sentence failed a check, after one re-ask),
    ``refuted`` (not confirmed), ``none`` (labelled not_support)."""
    problem: str | None = None
    check: str | None = None
    reason: str = ""
    origin: NuggetOrigin = "given"
    """``given``: one of the sample's ``reference_nuggets``; ``reference``: a claim of the reference."""
    confirmed: bool | None = None
    votes: list[Label] = Field(default_factory=list)
    """Each judgement's counted label, in judgement order; ``label`` is their lower median."""
    passage_labels: dict[int, Label] = Field(default_factory=dict)
    """0-based passage → the label that passage's checked quotes gave (with ``judging="per_context"``, each
    passage's own judgement); passages not listed gave ``not_support``."""

    @property
    def supported(self) -> bool:
        """True for full support."""
        return self.label == "support"


class NuggetRecallEvidence(Evidence):
    """The nuggets, the label of each with its checked quotes, and the five scores."""

    kind: Literal["nugget_recall"] = "nugget_recall"
    score: Score = "strict_vital"
    """Which of ``scores`` is the result's value."""
    scores: dict[Score, float | None] = Field(default_factory=dict)
    """All five: ``strict_vital``, ``vital``, ``strict_all``, ``all``, ``weighted``; None when there is nothing
    to average (no vital nugget, outside ``nuggetizer_compat``)."""
    nuggetizer_compat: bool = False
    nuggets: list[NuggetVerdict] = Field(default_factory=list)
    nuggets_given: bool = True
    """False when the nuggets are the reference's claims, their importance labelled by the judge."""
    language: str = "en"
    model: str = ""
    prompt_versions: dict[str, str] = Field(default_factory=dict)
    judging: Judging = "together"
    votes: int = 1
    agreement: float | None = None
    """With ``votes`` > 1: the share of nuggets whose judgements all gave one label."""
    unverified_policy: UnverifiedPolicy = "unsupported"
    contexts_used: list[int] = Field(default_factory=list)
    """0-based passages whose quotes earned a nugget support or partial support."""
    reasks: int = 0
    confirm_model: str | None = None

    def missing_items(self) -> list[str]:
        return [f"nugget {n.text!r}" for n in self.nuggets if n.label != "support"]

    def labelled_items(self) -> list[ClaimVerdict]:
        """The nuggets as people label them: supported or not (a partial support counts as not, as in the strict
        scores; its reason names the part its quote states)."""
        return [
            ClaimVerdict(
                claim=n.text,
                supported=n.label == "support",
                supporting_contexts=sorted(n.passage_labels) if n.label == "support" else [],
                reason=f"partly supported: {n.part}. {n.reason}".strip() if n.label == "partial_support" else n.reason,
                support=n.support,
                verification=n.verification,
                confirmed=n.confirmed,
                origin="given" if n.origin == "given" else "decomposition",
                votes=[v == "support" for v in n.votes],
            )
            for n in self.nuggets
        ]

    def labelled_field(self) -> str:
        return "reference_nuggets"

    def judged_items(self) -> list[str] | None:
        return [n.text for n in self.nuggets]

    def judged_fields(self) -> tuple[str, ...]:
        """The retrieved passages, and the nuggets judged: the sample's ``reference_nuggets`` when it had them,
        else the reference they were drawn from."""
        given = any(n.origin == "given" for n in self.nuggets)
        return ("retrieved_contexts", "reference_nuggets" if given else "reference")

    def value_of_labels(self, labels: list[bool]) -> float | None:
        """The chosen score with people's labels (True: support, False: not_support) for the nuggets, in order;
        None when the labels do not pair one to one with the nuggets, or the score has nothing to average."""
        if not labels or len(labels) != len(self.nuggets):
            return None
        pairs = [
            (n.importance, "support" if said else "not_support") for n, said in zip(self.nuggets, labels, strict=True)
        ]
        return nugget_scores(pairs, nuggetizer_compat=self.nuggetizer_compat)[self.score]

    def counts(self) -> dict[str, int]:
        level = [n.verification for n in self.nuggets]
        return {
            "nuggets": len(self.nuggets),
            "vital": sum(n.importance == "vital" for n in self.nuggets),
            "support": sum(n.label == "support" for n in self.nuggets),
            "partial_support": sum(n.label == "partial_support" for n in self.nuggets),
            "not_support": sum(n.label == "not_support" for n in self.nuggets),
            "stated": level.count("stated"),
            "verified": level.count("verified"),
            "corrected": level.count("corrected"),
            "unverified": level.count("unverified"),
            **({"refuted": level.count("refuted")} if self.confirm_model is not None else {}),
        }

    def columns(self) -> dict[str, float | None]:
        return {name: value for name, value in self.scores.items() if name != self.score}

    @classmethod
    def counts_text(cls, counts: Mapping[str, int]) -> str:
        from ._render import counts_text

        return counts_text(counts)

    def to_html(self, passages: Passages) -> str:
        from ._render import nuggets_html

        data = self.model_dump(mode="json")
        data.pop("kind")
        return nuggets_html(data, passages) or fields_html(data)

    def note_inputs(self, notes: InputNotes, metric: str, prefix: str) -> None:
        from ._render import note_nuggets

        note_nuggets(notes, self.model_dump(mode="json"), metric, prefix)

    @classmethod
    def legend_html(cls) -> str:
        from ._render import nuggets_legend

        return nuggets_legend()
