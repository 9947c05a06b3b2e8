"""What a calibration reports: the agreement figures with their intervals, the confusion table, what was left
out and why, and every disagreement with the judge's evidence."""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, PrivateAttr, computed_field

from ..metrics.context_recall import Quote
from ..usage import Usage
from ._corrected import LabelledScore, corrected_mean
from ._ppi import CorrectedMean

if TYPE_CHECKING:
    from ..evaluation import EvaluationResult

__all__ = [
    "KAPPA_BANDS",
    "CalibrationResult",
    "ClaimDisagreement",
    "Confusion",
    "Interval",
    "LevelAgreement",
    "NotCompared",
    "ScoreDisagreement",
    "kappa_band",
    "kappa_reading",
]

KAPPA_BANDS: tuple[tuple[float, str], ...] = (
    (0.0, "poor"),
    (0.20, "slight"),
    (0.40, "fair"),
    (0.60, "moderate"),
    (0.80, "substantial"),
    (1.0, "almost perfect"),
)
"""Landis & Koch (1977) bands of kappa: the band is the first whose upper bound is at least kappa (below 0
is poor). A convention for reading kappa, not a law: the authors called their bands arbitrary."""


def kappa_band(kappa: float | None) -> str | None:
    """The Landis & Koch name of ``kappa``'s band (``"substantial"`` for 0.61-0.80), or None."""
    if kappa is None:
        return None
    if kappa < 0:
        return "poor"
    return next(name for bound, name in KAPPA_BANDS[1:] if kappa <= bound)


def kappa_reading(kappa: float | None, interval: Interval | None, samples: int) -> str | None:
    """How to name kappa: its Landis & Koch band when its interval stays in that band; else "too few labels to
    tell", the bands the interval spans and about how many more labelled samples would narrow it to one band's
    width (0.2; an interval narrows as one over the square root of the samples). None without kappa."""
    band = kappa_band(kappa)
    if band is None or interval is None:
        return band
    low, high = kappa_band(interval.low), kappa_band(interval.high)
    if low == high:
        return band
    width = interval.high - interval.low
    more = max(math.ceil(samples * (width / _BAND_WIDTH) ** 2) - samples, 1)
    return (
        f"too few labels to tell: the 95% interval spans {low} to {high} (Landis & Koch); about {more} more "
        f"labelled samples would narrow it to one band's width ({_BAND_WIDTH})"
    )


_BAND_WIDTH = 0.2


class Interval(BaseModel):
    """A percentile bootstrap interval of one figure."""

    model_config = ConfigDict(frozen=True)

    low: float
    high: float
    resamples: int
    """Resamples in which the figure was defined (of ``CalibrationResult.n_resamples``); the others, e.g.
    a resample whose human scores are all equal, are left out."""


class Confusion(BaseModel):
    """Claim verdicts against labels, "supported" as the positive class."""

    model_config = ConfigDict(frozen=True)

    tp: int = 0
    """Labelled supported, judged supported."""
    fp: int = 0
    """Labelled unsupported, judged supported: the judge is too generous."""
    fn: int = 0
    """Labelled supported, judged unsupported: the judge is too strict."""
    tn: int = 0
    """Labelled unsupported, judged unsupported."""

    def rows(self) -> list[list[int]]:
        """``[[tn, fp], [fn, tp]]``: rows are the labels (unsupported, supported), columns the verdicts, as
        scikit-learn's ``confusion_matrix`` orders them."""
        return [[self.tn, self.fp], [self.fn, self.tp]]


class ClaimDisagreement(BaseModel):
    """A claim whose verdict differs from its label, with the judge's evidence."""

    model_config = ConfigDict(frozen=True)

    index: int
    """0-based position of the sample in the input."""
    sample_id: str | int | None
    claim_index: int
    """0-based position of the claim in the sample's ``reference_claims``."""
    claim: str
    human: bool
    """The label: does the retrieved context support the claim, by a person's judgement."""
    judge: bool
    """The verdict counted by the metric."""
    reason: str
    """The judge's reason."""
    quotes: list[Quote] = Field(default_factory=list)
    """The judge's quotes and where they were found ([] for an "unsupported" verdict)."""
    verification: str = "none"
    """How the judge's quotes checked out (see :attr:`ragrecall.ClaimVerdict.verification`)."""
    votes: list[bool] = Field(default_factory=list)
    """Each judgement's verdict when the metric judged more than once."""


class LevelAgreement(BaseModel):
    """The judge against the labels on the claims of one verification level: which levels a user can trust."""

    model_config = ConfigDict(frozen=True)

    level: str
    """The verdict's verification level, as the evidence names it (``"verified"``, ``"stated"`` ...)."""
    claims: int
    """Labelled claims whose verdict has this level."""
    agreed: int
    """Of them, verdicts equal to the label."""
    judged_supported: int
    """Verdicts "supported" at this level."""
    labelled_supported: int
    """Of the verdicts "supported" at this level, those labelled supported too."""

    @property
    def accuracy(self) -> float:
        """Share of this level's verdicts equal to the label."""
        return self.agreed / self.claims

    @property
    def precision(self) -> float | None:
        """Share of this level's "supported" verdicts that people also call supported; None without any."""
        return self.labelled_supported / self.judged_supported if self.judged_supported else None


class ScoreDisagreement(BaseModel):
    """A sample whose metric value is further from the human score than the tolerance."""

    model_config = ConfigDict(frozen=True)

    index: int
    sample_id: str | int | None
    human: float
    metric: float
    difference: float
    """``metric - human``: positive when the metric scores higher than the person did."""


class NotCompared(BaseModel):
    """A labelled sample left out of the figures, and why; never dropped silently."""

    model_config = ConfigDict(frozen=True)

    index: int
    sample_id: str | int | None
    status: Literal["failed", "unscorable", "no verdicts"]
    """``"failed"``: the metric failed (after its retries); ``"unscorable"``: it had nothing to measure;
    ``"no verdicts"``: it scored but gave no claim verdicts to pair with the labels (a metric that does not
    judge claims), so only a ``human_score`` could be compared."""
    message: str


class CalibrationResult(BaseModel):
    """How far a metric's judge agrees with people's labels, with 95% bootstrap intervals.

    Figures are None where the labels do not allow them: claim figures without claim labels, correlations
    with fewer than two scores or a constant column, kappa when labels and verdicts are one and the same
    constant, precision when the judge never says supported, recall when no label says supported.

    Intervals are percentile bootstrap intervals over ``n_resamples`` resamples of *samples* (seeded by
    ``seed``): the claims of one sample share its contexts and are not independent, so they are drawn together.
    """

    model_config = ConfigDict(frozen=True)
    _evaluation: Any = PrivateAttr(default=None)

    @property
    def evaluation(self) -> EvaluationResult | None:
        """The run the figures come from (every sample's verdicts and evidence), for a report; not serialised,
        so None for a result read back from JSON."""
        run: EvaluationResult | None = self._evaluation
        return run

    metric: str
    """The metric's name, e.g. ``"context_recall"``."""
    model: str | None = None
    """The judge's model name, when the metric has one."""
    settings: dict[str, object] = Field(default_factory=dict)
    """The metric's settings (votes, judging, prompt versions ...)."""
    samples: int
    """Samples in the input."""
    claim_samples: int = 0
    """Samples with claim labels whose verdicts were compared."""
    labelled_claims: int = 0
    """Claims compared (label and verdict)."""
    score_samples: int = 0
    """Samples with a ``human_score`` compared to the metric's value."""
    accuracy: float | None = None
    """Share of claims whose verdict equals the label."""
    kappa: float | None = None
    """Cohen's kappa of verdicts against labels: agreement beyond chance (1 perfect, 0 what chance gives)."""
    precision: float | None = None
    """Of the claims judged supported, the share labelled supported."""
    recall: float | None = None
    """Of the claims labelled supported, the share judged supported."""
    f1: float | None = None
    """Harmonic mean of precision and recall of "supported"."""
    confusion: Confusion = Field(default_factory=Confusion)
    human_supported: float | None = None
    """Share of labelled claims labelled supported (how much kappa's chance term weighs)."""
    judge_supported: float | None = None
    """Share of labelled claims judged supported."""
    spearman: float | None = None
    """Spearman's rank correlation of the metric's values with the human scores."""
    kendall: float | None = None
    """Kendall's tau-b (ties accounted for) of the metric's values with the human scores."""
    mae: float | None = None
    """Mean absolute difference between the metric's values and the human scores."""
    bias: float | None = None
    """Mean of ``metric - human``: positive when the metric scores higher than people do."""
    intervals: dict[str, Interval] = Field(default_factory=dict)
    """Figure name (``"kappa"``, ``"spearman"`` ...) → its 95% interval; absent where none could be formed."""
    n_resamples: int = 2000
    seed: int = 0
    failed: int = 0
    """Labelled samples the metric failed on (listed in ``not_compared``)."""
    unscorable: int = 0
    """Labelled samples the metric found nothing to measure in (listed in ``not_compared``)."""
    not_compared: list[NotCompared] = Field(default_factory=list)
    """Every labelled sample left out of the figures, with the reason."""
    score_tolerance: float = 0.2
    """A score disagreement is a sample whose ``|metric - human|`` exceeds this."""
    claim_disagreements: list[ClaimDisagreement] = Field(default_factory=list)
    """Every claim whose verdict differs from its label, in input order."""
    score_disagreements: list[ScoreDisagreement] = Field(default_factory=list)
    """Every sample whose value is off the human score by more than ``score_tolerance``, largest first."""
    usage: Usage = Field(default_factory=Usage)
    """Tokens, requests and cost of the run."""
    by_level: list[LevelAgreement] = Field(default_factory=list)
    """The judge's agreement with the labels per verification level of its verdicts, most claims first."""
    labelled: list[LabelledScore] = Field(default_factory=list)
    """Every labelled sample's labels as numbers (and the judge's value on it), for :meth:`corrected`."""

    @computed_field  # type: ignore[prop-decorator]
    @property
    def kappa_band(self) -> str | None:
        """The Landis & Koch name of kappa's band (a convention, see :data:`KAPPA_BANDS`)."""
        return kappa_band(self.kappa)

    @computed_field  # type: ignore[prop-decorator]
    @property
    def kappa_reading(self) -> str | None:
        """Kappa's band when its interval stays in it; else "too few labels to tell", with how many more
        labelled samples would narrow the interval to one band's width (see :func:`kappa_reading`)."""
        return kappa_reading(self.kappa, self.intervals.get("kappa"), self.claim_samples)

    def corrected(
        self, result: EvaluationResult, metric: str | None = None, *, confidence: float = 0.95
    ) -> CorrectedMean:
        """The mean of ``metric`` (default: the calibrated metric) over the evaluated ``result``, corrected by
        these labels (:func:`ragrecall.ppi_mean`): the labelled samples pair with the run's by id, the judge's
        value on them is the run's, and the run's other scored samples are the unlabelled part. A sample's label
        is the share of its claims labelled supported for a metric that judges claims, else its
        ``human_score``; inclusion probabilities in the labels weight them.

        Raises:
            InputError: in one line, when the run has no such metric, no labelled id is in the run, or fewer
                than 10 labelled samples pair with scored samples of the run.
        """
        return corrected_mean(result, metric or self.metric, self.labelled, confidence=confidence)

    def figures(self) -> list[tuple[str, float | None, Interval | None]]:
        """(name, value, interval) of every figure the labels allow, claims first, in display order."""
        names = ("accuracy", "kappa", "precision", "recall", "f1") if self.labelled_claims else ()
        if self.score_samples:
            names = (*names, "spearman", "kendall", "mae")
        return [(name, getattr(self, name), self.intervals.get(name)) for name in names]
