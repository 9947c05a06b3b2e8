"""The pytest plugin, registered through the ``pytest11`` entry point when ragrecall is installed.

It adds:

- the ``ragrecall_judge`` fixture: the LLM that claim-recall metrics in your tests should use. By default the
  offline judge (:class:`~ragrecall.OfflineJudge`: no key, no network); a model when one is configured, by
  ``--ragrecall-model NAME``, the ``RAGRECALL_MODEL`` environment variable or the ``ragrecall_model`` ini option
  (in that order; ``offline`` names the offline judge). A model is reached through ``llm_factory`` (the key from
  ``OPENAI_API_KEY``, the server from ``OPENAI_BASE_URL``); ``ragrecall_cache`` (ini) or ``RAGRECALL_CACHE``
  names a response cache file, and ``RAGRECALL_REPLAY=1`` replays from it only, so CI never reaches the network.
- ``--ragrecall-report PATH``: after the run, the HTML report of every
  :func:`~ragrecall.testing.assert_recall` made in it, passed or failed; each sample carries the test's node id,
  the assertion and its outcome as metadata, which the report's filter and grouping read.

Example::

    from ragrecall import ContextRecall
    from ragrecall.testing import assert_recall

    def test_retriever_brings_the_facts(ragrecall_judge):
        assert_recall(samples, ContextRecall(ragrecall_judge), at_least=0.8)

and ``pytest --ragrecall-report recall.html``.
"""

from __future__ import annotations

import os
from collections.abc import Generator, Mapping
from datetime import datetime, timezone
from pathlib import Path
from time import perf_counter
from typing import TYPE_CHECKING, Any

import pytest

if TYPE_CHECKING:  # imported when used: pytest loads this plugin in every run, ragrecall's or not
    from .evaluation import EvaluationResult, SampleRow
    from .llm import LLM
    from .schema import Sample
    from .testing import RecallAssertion

__all__ = ["build_report_result", "judge_from_settings"]

OFFLINE = "offline"
"""The model setting that names the offline judge (also what an unset setting means)."""


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("ragrecall", "ragrecall: context recall of RAG retrieval")
    group.addoption(
        "--ragrecall-report",
        metavar="PATH",
        default=None,
        help="write the HTML report of the ragrecall assertions (assert_recall) made in the run to PATH",
    )
    group.addoption(
        "--ragrecall-model",
        metavar="NAME",
        default=None,
        help="the model the ragrecall_judge fixture gives (default: the ragrecall_model ini option, else offline)",
    )
    parser.addini("ragrecall_model", "the model the ragrecall_judge fixture gives ('offline' by default)", default="")
    parser.addini("ragrecall_cache", "a response cache file for the ragrecall_judge fixture's model", default="")


def judge_from_settings(
    model: str | None, cache: str | None = None, replay: bool = False, *, named_by: str = "RAGRECALL_MODEL"
) -> LLM:
    """The LLM a model setting names: the offline judge for ``None``, ``""`` or ``"offline"``, else
    ``llm_factory(model)`` with a response cache at ``cache`` (``replay``: answered from the cache only).
    ``named_by`` is the setting that named the model, for the messages.

    Raises:
        ConfigurationError: ``replay`` without a cache, a replay cache file that does not exist, or no
            ``OPENAI_API_KEY`` to reach the model with (the message says which variable to set).
    """
    from .errors import ConfigurationError
    from .llm import OfflineJudge, ResponseCache, llm_factory

    if not model or model == OFFLINE:
        return OfflineJudge()
    if replay and not cache:
        raise ConfigurationError("RAGRECALL_REPLAY=1 needs a response cache: set ragrecall_cache or RAGRECALL_CACHE")
    if not os.environ.get("OPENAI_API_KEY"):
        raise ConfigurationError(
            f"{named_by} names the model {model!r}, reached with the key in OPENAI_API_KEY, which is not set: set "
            f"OPENAI_API_KEY (and OPENAI_BASE_URL for another server), or {_offline(named_by)} for the offline judge"
        )
    store = ResponseCache(cache, mode="replay-only" if replay else "read-write") if cache else None
    return llm_factory(model, cache=store)


def _offline(named_by: str) -> str:
    """How to ask for the offline judge through the setting that named a model."""
    return {"--ragrecall-model": "--ragrecall-model offline", "RAGRECALL_MODEL": "RAGRECALL_MODEL=offline"}.get(
        named_by, "ragrecall_model = offline"
    )


@pytest.fixture(scope="session")
def ragrecall_judge(pytestconfig: pytest.Config) -> LLM:
    """The judge for claim-recall metrics in tests: offline unless a model is configured (see the module); a
    setting that cannot work fails the tests that use it with one line saying what to set."""
    from .errors import ConfigurationError

    named = [
        ("--ragrecall-model", pytestconfig.getoption("ragrecall_model")),
        ("RAGRECALL_MODEL", os.environ.get("RAGRECALL_MODEL")),
        ("the ragrecall_model ini option", str(pytestconfig.getini("ragrecall_model"))),
    ]
    named_by, model = next(((n, m) for n, m in named if m), ("RAGRECALL_MODEL", ""))
    cache = os.environ.get("RAGRECALL_CACHE") or str(pytestconfig.getini("ragrecall_cache"))
    cache_path = str(pytestconfig.rootpath / cache) if cache else None
    try:
        return judge_from_settings(
            model, cache_path, replay=os.environ.get("RAGRECALL_REPLAY") == "1", named_by=named_by
        )
    except ConfigurationError as exc:
        pytest.fail(f"ragrecall_judge: {exc}", pytrace=False)


def pytest_configure(config: pytest.Config) -> None:
    path = config.getoption("ragrecall_report")
    if path:
        report = Path(path)
        folder = report.parent if str(report.parent) else Path(".")
        if not folder.is_dir() or not os.access(folder, os.W_OK):
            raise pytest.UsageError(f"--ragrecall-report {path}: the folder {folder} does not exist or is not writable")
        if report.is_dir():
            raise pytest.UsageError(f"--ragrecall-report {path}: a folder, expected an HTML file's path")
        config.pluginmanager.register(_ReportRecorder(report), "ragrecall-report")


class _ReportRecorder:
    """Records the assertions of the run, tagged with their test, and writes the report at the end."""

    def __init__(self, path: Path) -> None:
        from .testing import record_assertions

        self.path = path
        self.tagged: list[tuple[str, RecallAssertion]] = []
        self._recording = record_assertions()
        self._records = self._recording.__enter__()
        self._started = datetime.now(timezone.utc)
        self._clock = perf_counter()

    @pytest.hookimpl(wrapper=True)
    def pytest_runtest_protocol(self, item: pytest.Item) -> Generator[None, object, object]:
        before = len(self._records)
        try:
            return (yield)
        finally:
            self.tagged.extend((item.nodeid, record) for record in self._records[before:])

    def pytest_sessionfinish(self, session: pytest.Session) -> None:
        self._recording.__exit__(None, None, None)
        from .report import write_report

        result = build_report_result(self.tagged, started_at=self._started, wall_time_s=perf_counter() - self._clock)
        write_report(result, self.path, title="ragrecall assertions of the test run")

    def pytest_terminal_summary(self, terminalreporter: Any) -> None:
        samples = sum(len(record.samples) for _, record in self.tagged)
        terminalreporter.write_line(
            f"ragrecall: report of {len(self.tagged)} assertions ({samples} samples) written to {self.path}"
        )


def build_report_result(
    assertions: list[tuple[str, RecallAssertion]],
    *,
    started_at: datetime | None = None,
    wall_time_s: float = 0.0,
) -> EvaluationResult:
    """One result of every sample of every assertion, each row tagged in ``metadata`` with ``test`` (the node
    id given), ``assertion`` (metric and bound) and ``outcome`` (``passed`` or ``failed``).

    A row holds the result of the metric its assertion used; where several metrics were asserted in the run,
    the other metrics' cells are unscorable, with the reason "not asserted on this sample"."""
    from . import __version__
    from .evaluation import EvaluationResult, RunInfo, SampleRow
    from .results import MetricResult

    metrics: dict[str, RecallAssertion] = {}
    for _, record in assertions:
        metrics.setdefault(record.metric.name, record)
    rows: list[SampleRow] = []
    for test, record in assertions:
        bound = f"{'each' if record.per_sample else 'mean'} {record.metric.name} ≥ {record.at_least}"
        tags = {"test": test, "assertion": bound, "outcome": "passed" if record.passed else "failed"}
        for given, result in zip(record.samples, record.results, strict=True):
            index = len(rows)
            results = {
                name: result
                if name == record.metric.name
                else MetricResult(
                    metric=name, status="unscorable", reason="not asserted on this sample", sample_id=result.sample_id
                )
                for name in metrics
            }
            rows.append(
                SampleRow(index=index, sample_id=result.sample_id, results=results, sample=_tagged(given, tags))
            )
    info = RunInfo(
        started_at=started_at or datetime.now(timezone.utc),
        wall_time_s=wall_time_s,
        ragrecall_version=__version__,
        metrics={
            name: {"class": type(record.metric).__name__, "settings": record.metric.settings()}
            for name, record in metrics.items()
        },
    )
    return EvaluationResult(rows, list(metrics), wall_time_s=wall_time_s, run=info)


def _tagged(given: Sample | Mapping[str, Any], tags: dict[str, str]) -> Sample | None:
    """The sample with the assertion's tags in its metadata; None for a record that is no valid sample."""
    from .schema import Sample

    try:
        sample = given if isinstance(given, Sample) else Sample.model_validate(dict(given))
    except (ValueError, TypeError):
        return None
    return sample.model_copy(update={"metadata": {**sample.metadata, **tags}})
