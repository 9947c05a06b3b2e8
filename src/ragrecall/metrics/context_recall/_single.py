"""The one-call mode: claims and their verdicts in one reply, checked like the two steps of the claims mode.

The reply's claims are checked for coverage and grounding (:mod:`._coverage`) and its quotes verified
(:mod:`._verify`). When anything fails, the judge is told all of it once, in the same conversation and within
the same repair budget, and answers with a complete corrected reply, which replaces the first. What is still
wrong after that is fixed without it: ungrounded and duplicate claims are dropped, sentences still uncovered
become claims of their own and are judged by the judging step, unverified verdicts follow the policy.

Without the coverage check, an empty claim list for a reference that states facts is an invalid reply (first
reply and follow-up alike), asked again within the repair budget, then a
:class:`~ragrecall.errors.NoClaimsError`.
"""

from __future__ import annotations

from dataclasses import dataclass

from ...llm import LLMReply, LLMRequest, ask_again, escape_data, spent_before
from ._claims import Claim, Outcome
from ._coverage import CoverageReport, analyse, states_facts
from ._judge import Judged, Judging, judge_claims, judged
from ._prompting import claim_block, number_contexts, one_line, reference_block, say, sentence_block
from ._replies import SingleReply, ask_for_claims, check_single, require_claims
from ._verify import Contexts

__all__ = ["single_call"]


@dataclass(frozen=True)
class _Read:
    """One reply, checked."""

    texts: list[str]
    judged: list[Judged]
    report: CoverageReport | None

    def problems(self, language: str) -> list[str]:
        """One line per problem for the ``single_fix`` message, the sentence or claim in its data block."""
        lines = []
        if self.report is not None:
            uncovered, ungrounded = say("uncovered", language), say("ungrounded", language)
            lines += [f"- {sentence_block(f.text)}: {uncovered} ({f.reason})" for f in self.report.uncovered]
            lines += [
                f"- {claim_block(f.text, f.index + 1)}: {ungrounded} ({f.reason})" for f in self.report.ungrounded
            ]
        lines += [
            f"- {claim_block(text, i)}: {escape_data(j.checked.feedback or '')}"
            for i, (text, j) in enumerate(zip(self.texts, self.judged, strict=True), 1)
            if j.checked.verification == "unverified"
        ]
        return lines


async def single_call(setup: Judging, reference: str, contexts: Contexts, *, coverage: bool) -> Outcome:
    """Claims and verdicts of ``reference`` against ``contexts`` (see the module docstring).

    Raises:
        NoClaimsError: without ``coverage``, the claim list of a reference that states facts stayed empty.
        LLMOutputError, LLMRequestError, CacheMissError: no valid reply (carrying the usage paid).
    """
    language = setup.language
    template = setup.prompts.get("single", language)
    request = LLMRequest(
        template.render(contexts=number_contexts(contexts.texts), reference=reference_block(reference)),
        SingleReply,
        template.version,
        "context_recall.single",
        {"reference": reference, "contexts": list(contexts.texts), "language": language},
    )
    n_contexts = len(contexts)
    need_claims = not coverage and states_facts(reference)  # with coverage, uncovered sentences become claims

    def check(reply: SingleReply) -> None:
        check_single(reply, n_contexts)
        if need_claims:
            require_claims(reply.claims)

    reply = await ask_for_claims(setup.llm, request, check=check, max_repairs=setup.max_repairs)
    read = _read(setup, reply, reference, contexts, coverage)
    usage, reasks = reply.usage, 0
    problems = read.problems(language)
    if problems:
        message, version = setup.prompts.follow_up(
            "single_fix", language, template.version, problems="\n".join(problems)
        )
        with spent_before(usage):
            follow = await ask_again(
                setup.llm,
                request,
                reply,
                message,
                SingleReply,
                task="context_recall.single_fix",
                inputs=request.inputs,
                prompt_version=version,
                check=check,
                max_repairs=setup.max_repairs,
            )
        usage, reasks = usage + follow.usage, int(follow.asked)
        if follow.reply is not None:
            read = _read(setup, follow.reply, reference, contexts, coverage)
    if read.report is None:
        claims = [Claim(t, "decomposition") for t in read.texts]
        return Outcome(claims, read.judged, [], usage, reasks)
    report = read.report
    claims = [Claim(read.texts[i], "decomposition") for i in report.kept_indices]
    judged = [read.judged[i] for i in report.kept_indices]
    if report.uncovered:
        added = [one_line(f.text) for f in report.uncovered]
        with spent_before(usage):
            extra, spent, more = await judge_claims(setup, added, contexts)
        claims += [Claim(text, "coverage") for text in added]
        judged += extra
        usage, reasks = usage + spent, reasks + more
    return Outcome(claims, judged, report.dropped(), usage, reasks)


def _read(setup: Judging, reply: LLMReply[SingleReply], reference: str, contexts: Contexts, coverage: bool) -> _Read:
    texts = [one_line(c.claim) for c in reply.parsed.claims]
    verdicts = [judged(setup, text, c, contexts) for text, c in zip(texts, reply.parsed.claims, strict=True)]
    return _Read(texts, verdicts, analyse(reference, texts) if coverage else None)
