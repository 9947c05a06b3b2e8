"""What the metrics whose LLM verdicts quote their passages share: the judge and the confirmer, their settings,
and the checks of the settings they both take (claim recall and nugget recall)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

from ..errors import ConfigurationError
from ..llm import LLM
from ._step_prompts import LANGUAGES

__all__ = ["Plan", "QuotedJudge"]

POLICIES = ("unsupported", "supported", "fail")
JUDGING = ("together", "per_context")


@dataclass(frozen=True)
class Plan:
    """How the items (claims, nuggets) are judged: how many times, how the contexts are shown, how unverified
    quotes count."""

    votes: int = 1
    judging: Literal["together", "per_context"] = "together"
    seed: int = 0
    unverified: Literal["unsupported", "supported", "fail"] = "unsupported"


class QuotedJudge:
    """Mixin for a metric with an ``llm`` judge whose verdicts quote passages, an optional ``confirm`` model, and
    the settings ``language``, ``quote_threshold``, ``unverified`` and ``judging``."""

    name: str
    llm: LLM | None
    confirm: LLM | bool | None
    language: str
    quote_threshold: float
    unverified: str
    judging: str

    def _check_judge_settings(self) -> None:
        """Raise :class:`~ragrecall.errors.ConfigurationError` naming the first shared setting that is wrong."""
        if self.llm is not None and not isinstance(self.llm, LLM):
            raise ConfigurationError(
                f"llm must implement ragrecall.llm.LLM (model_name and agenerate), got {type(self.llm).__name__}"
            )
        if self.language != "auto" and self.language not in LANGUAGES:
            raise ConfigurationError(f"language must be 'auto' or one of {', '.join(LANGUAGES)}, got {self.language!r}")
        t = self.quote_threshold
        if isinstance(t, bool) or not isinstance(t, (int, float)) or not 0.0 < t <= 1.0:
            raise ConfigurationError(f"quote_threshold must be a number in (0, 1], got {t!r}")
        if self.unverified not in POLICIES:
            raise ConfigurationError(
                f"unverified must be one of {', '.join(map(repr, POLICIES))}, got {self.unverified!r}"
            )
        if self.judging not in JUDGING:
            raise ConfigurationError(f"judging must be one of {', '.join(map(repr, JUDGING))}, got {self.judging!r}")
        if not (self.confirm is None or self.confirm is True or isinstance(self.confirm, LLM)):
            raise ConfigurationError(
                "confirm must be None, True (the judge's own LLM) or an LLM (model_name and agenerate), "
                f"got {self.confirm!r}"
            )

    def check_ready(self) -> None:
        if self.llm is None:
            raise ConfigurationError(
                f"{self.name} needs an LLM: pass llm= to the metric, or to evaluate() to give it to every LLM "
                "metric that has none"
            )

    @property
    def judge(self) -> LLM:
        """The LLM; :class:`~ragrecall.errors.ConfigurationError` when there is none."""
        self.check_ready()
        assert self.llm is not None
        return self.llm

    @property
    def confirmer(self) -> LLM | None:
        """The confirming LLM: None without ``confirm``, the judge with ``confirm=True``."""
        if self.confirm is None or self.confirm is False:
            return None
        return self.judge if self.confirm is True else self.confirm

    def _with_confirm_name(self, out: dict[str, Any]) -> dict[str, Any]:
        """``out`` (the settings that differ from the defaults) with the confirming model's name when it is one."""
        if isinstance(self.confirm, LLM):
            out["confirm"] = self.confirm.model_name
        return out

    def _judge_settings(self) -> dict[str, Any]:
        """The judge's model and sampling settings: what makes two runs of one metric differ."""
        return {"model": self.llm.model_name if self.llm is not None else None, "llm": _llm_settings(self.llm)}

    def _confirm_setting(self) -> dict[str, Any]:
        confirmer = self.confirmer
        assert confirmer is not None
        return {"model": confirmer.model_name, "llm": _llm_settings(confirmer), "same_llm": self.confirm is True}


def _llm_settings(llm: LLM | None) -> Any:
    settings = getattr(llm, "settings", None)
    return settings() if callable(settings) else {}
