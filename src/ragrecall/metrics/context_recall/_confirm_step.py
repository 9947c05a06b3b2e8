"""The confirm step as a step of its own: the judge's outcome is kept before the confirming model is asked, and
the confirming model's failure never costs the judge's paid replies.

- Before confirmation, the judge's outcome (verdicts, dropped claims, usage, follow-ups) is kept with
  :func:`ragrecall._kept.keep_step` as step ``"judged"``: :func:`~ragrecall.evaluate` with a checkpoint writes it
  there, and a rerun of the pair reads it back and asks only the confirming model (a response cache holds the
  judge's replies too).
- A confirming model that gives no usable answer after its retries and repairs makes the sample a failure of
  the confirm step, :class:`~ragrecall.errors.ConfirmationError`, naming the model, its URL and the cause; a
  rerun retries the pair at no judge cost.
- A dead confirming model (its breaker open) stops the run like a dead judge:
  :class:`~ragrecall.errors.EndpointDownError` naming the confirming model's URL and model.
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, ValidationError

from ..._kept import keep_step, kept_step
from ...errors import ConfirmationError, EndpointDownError, LLMOutputError, LLMRequestError
from ...llm import LLM, spent_before
from ...usage import Usage
from ._confirm import confirm_verdicts
from ._evidence import ClaimVerdict, DroppedClaim
from ._prompting import Prompts
from ._verify import Contexts
from ._votes import Voted

__all__ = ["JUDGED_STEP", "Judged", "confirm_or_fail", "keep_judged", "kept_judged"]

JUDGED_STEP = "judged"
"""The name of the kept step: the judge's outcome before confirmation."""


class Judged(BaseModel):
    """What judging a sample produced, before confirmation: enough to confirm it without asking the judge."""

    model_config = ConfigDict(extra="forbid")

    verdicts: list[ClaimVerdict]
    judgement_values: list[float]
    agreement: float | None
    dropped: list[DroppedClaim]
    usage: Usage
    """What the judge's requests cost (paid once, by the run that judged)."""
    reasks: int

    def unpack(self) -> tuple[Voted, list[DroppedClaim], Usage, int]:
        voted = Voted(self.verdicts, self.judgement_values, self.agreement, self.usage, self.reasks)
        return voted, self.dropped, self.usage, self.reasks


def kept_judged() -> Judged | None:
    """The judge's outcome kept for the pair being scored by an earlier run, or None (nothing kept, or a record
    this version cannot read: then the claims are judged again)."""
    data = kept_step(JUDGED_STEP)
    if data is None:
        return None
    try:
        return Judged.model_validate(data)
    except ValidationError:
        return None


def keep_judged(voted: Voted, dropped: list[DroppedClaim], usage: Usage, reasks: int) -> None:
    """Keep the judge's outcome for the pair being scored, before it is confirmed."""
    judged = Judged(
        verdicts=voted.verdicts,
        judgement_values=voted.judgement_values,
        agreement=voted.agreement,
        dropped=dropped,
        usage=usage,
        reasks=reasks,
    )
    keep_step(JUDGED_STEP, judged.model_dump(mode="json"))


async def confirm_or_fail(
    confirmer: LLM,
    prompts: Prompts,
    language: str,
    verdicts: list[ClaimVerdict],
    contexts: Contexts,
    *,
    claims_per_call: int,
    max_repairs: int,
    spent: Usage,
) -> tuple[list[ClaimVerdict], Usage]:
    """:func:`._confirm.confirm_verdicts`, its failures named as the confirming model's.

    Raises:
        EndpointDownError: the confirming model's endpoint is dead (the run stops); the message starts with
            "confirming model" and names its URL and model.
        ConfirmationError: the confirming model gave no usable answer after its retries and repairs.
        CacheMissError: a replay-only cache holds no confirmation (unchanged).
        All carry ``spent`` (the judge's usage) plus what confirmation paid.
    """
    try:
        with spent_before(spent):
            return await confirm_verdicts(
                confirmer,
                prompts,
                language,
                verdicts,
                contexts,
                claims_per_call=claims_per_call,
                max_repairs=max_repairs,
            )
    except EndpointDownError as exc:
        down = EndpointDownError(f"confirming model {exc}")
        down.usage = exc.usage
        down.in_flight_can_finish = True  # other samples' judging goes on and is kept before the run stops
        raise down from exc
    except (LLMOutputError, LLMRequestError) as exc:  # a replay-only cache miss stays what it is
        endpoint = getattr(confirmer, "endpoint", None)
        endpoint = endpoint if isinstance(endpoint, str) else None
        waiting = sum(v.supported for v in verdicts)
        where = f" at {endpoint}" if endpoint else ""
        detail = " ".join(str(exc).split())[:300]
        failure = ConfirmationError(
            f"the confirming model {confirmer.model_name!r}{where} gave no usable answer after its retries "
            f"({type(exc).__name__}: {detail}); the {waiting} supported claim(s) of the judge stay unconfirmed and "
            "its verdicts are kept: a rerun with the same checkpoint or response cache asks only the confirming "
            "model again",
            model=confirmer.model_name,
            endpoint=endpoint,
            claims=waiting,
        )
        failure.usage = exc.usage
        raise failure from exc
