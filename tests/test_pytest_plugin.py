"""The pytest plugin: found through its entry point, the ragrecall_judge fixture (offline by default, a model when
configured, reached over HTTP), and --ragrecall-report writing the report of the run's assertions."""

from __future__ import annotations

import html
import re

import pytest

from ragrecall import ContextRecall, IDBasedContextRecall, NonLLMContextRecall, OfflineJudge
from ragrecall.errors import ConfigurationError
from ragrecall.llm.fake_server import FakeOpenAIServer
from ragrecall.pytest_plugin import build_report_result, judge_from_settings
from ragrecall.testing import assert_recall, record_assertions

pytest_plugins = ["pytester"]

TESTS = """
from ragrecall import ContextRecall, IDBasedContextRecall
from ragrecall.testing import assert_recall

SAMPLE = {
    "id": "eiffel",
    "reference": "The Eiffel Tower is in Paris. It is 330 metres tall.",
    "retrieved_contexts": ["The Eiffel Tower is in Paris, on the Champ de Mars."],
}


def test_judge(ragrecall_judge):
    print("JUDGE", type(ragrecall_judge).__name__, ragrecall_judge.model_name)


def test_claims_pass(ragrecall_judge):
    assert_recall([SAMPLE], ContextRecall(ragrecall_judge), at_least=0.5)


def test_ids_fail():
    assert_recall([{"id": "q9", "retrieved_context_ids": ["a"], "reference_context_ids": ["a", "zz"]}],
                  IDBasedContextRecall(), at_least=0.9)
"""


def _ini(pytester: pytest.Pytester, lines: str = "") -> None:
    """The inner run's ini file (pytest-asyncio, installed here, asks for its loop scope)."""
    pytester.makeini(f"[pytest]\nasyncio_default_fixture_loop_scope = function\n{lines}")


def _clean_env(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("RAGRECALL_MODEL", "RAGRECALL_CACHE", "RAGRECALL_REPLAY", "OPENAI_BASE_URL", "OPENAI_API_KEY"):
        monkeypatch.delenv(name, raising=False)


def test_the_fixture_is_the_offline_judge_by_default(
    pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch
) -> None:
    _clean_env(monkeypatch)
    _ini(pytester)
    pytester.makepyfile(test_recall=TESTS)
    run = pytester.runpytest_subprocess("-s", "-p", "no:cacheprovider")  # a fresh interpreter: the entry point
    run.assert_outcomes(passed=2, failed=1)
    run.stdout.fnmatch_lines(["plugins:*ragrecall-*", "*JUDGE OfflineJudge offline-lexical-judge*"])
    run.stdout.fnmatch_lines(["*missing ID 'zz'*"])
    assert "ragrecall: report" not in run.stdout.str()  # no report unless asked for


def test_the_report_holds_every_assertion_of_the_run(
    pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch
) -> None:
    _clean_env(monkeypatch)
    _ini(pytester)
    pytester.makepyfile(test_recall=TESTS)
    missing = pytester.runpytest("-p", "no:cacheprovider", "--ragrecall-report", "out/recall.html")
    assert missing.ret == pytest.ExitCode.USAGE_ERROR
    missing.stderr.fnmatch_lines(["*--ragrecall-report out/recall.html: the folder out does not exist*"])
    (pytester.path / "out").mkdir()
    run = pytester.runpytest("-p", "no:cacheprovider", "--ragrecall-report", "out/recall.html")
    run.assert_outcomes(passed=2, failed=1)  # recording changes no outcome
    assert run.ret == 1
    run.stdout.fnmatch_lines(["ragrecall: report of 2 assertions (2 samples) written to out/recall.html"])
    page = html.unescape((pytester.path / "out" / "recall.html").read_text(encoding="utf-8"))
    assert "ragrecall assertions of the test run" in page
    for node in ("test_recall.py::test_claims_pass", "test_recall.py::test_ids_fail"):
        assert node in page
    assert "eiffel" in page and "q9" in page
    assert "mean id_based_context_recall ≥ 0.9" in page
    assert "not asserted on this sample" in page  # two metrics: each row's other cell says why it is empty


def test_a_configured_model_is_asked_over_http(pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch) -> None:
    _clean_env(monkeypatch)
    pytester.makepyfile(test_recall=TESTS)
    _ini(pytester, "ragrecall_model = gpt-4o-mini\nragrecall_cache = judge.sqlite\n")
    with FakeOpenAIServer() as server:
        monkeypatch.setenv("OPENAI_BASE_URL", server.base_url)
        monkeypatch.setenv("OPENAI_API_KEY", "sk-test-plugin")
        run = pytester.runpytest("-s", "-p", "no:cacheprovider", "-k", "judge or claims")
        asked = len(server.requests)
    run.assert_outcomes(passed=2)
    run.stdout.fnmatch_lines(["*JUDGE * gpt-4o-mini*"])
    assert asked >= 1 and all(r["model"] == "gpt-4o-mini" for r in server.requests)
    assert (pytester.path / "judge.sqlite").is_file()

    # Replayed from the cache just written: no server at all.
    monkeypatch.setenv("OPENAI_BASE_URL", "http://127.0.0.1:9/v1")
    monkeypatch.setenv("RAGRECALL_REPLAY", "1")
    replay = pytester.runpytest("-p", "no:cacheprovider", "-k", "claims")
    replay.assert_outcomes(passed=1)


def test_the_command_line_wins_over_the_environment_and_the_ini(
    pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch
) -> None:
    _clean_env(monkeypatch)
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test-plugin")
    pytester.makepyfile(test_recall=TESTS)
    _ini(pytester, "ragrecall_model = from-ini\n")
    assert_judge = ["-s", "-p", "no:cacheprovider", "-k", "test_judge"]
    pytester.runpytest(*assert_judge).stdout.fnmatch_lines(["*JUDGE * from-ini*"])
    monkeypatch.setenv("RAGRECALL_MODEL", "from-env")
    pytester.runpytest(*assert_judge).stdout.fnmatch_lines(["*JUDGE * from-env*"])
    run = pytester.runpytest(*assert_judge, "--ragrecall-model", "offline")
    run.stdout.fnmatch_lines(["*JUDGE OfflineJudge offline-lexical-judge*"])


def test_a_model_without_a_key_says_which_variable_to_set(
    pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch
) -> None:
    _clean_env(monkeypatch)
    monkeypatch.setenv("RAGRECALL_MODEL", "gpt-4o-mini")
    pytester.makepyfile(test_recall=TESTS)
    _ini(pytester)
    run = pytester.runpytest("-p", "no:cacheprovider", "-k", "test_judge")
    run.assert_outcomes(errors=1)
    text = run.stdout.str()
    assert (
        "ragrecall_judge: RAGRECALL_MODEL names the model 'gpt-4o-mini', reached with the key in OPENAI_API_KEY, "
        "which is not set: set OPENAI_API_KEY (and OPENAI_BASE_URL for another server), or RAGRECALL_MODEL=offline "
        "for the offline judge"
    ) in " ".join(text.split())
    assert "OpenAIError" not in text and "Traceback" not in text
    flag = pytester.runpytest("-p", "no:cacheprovider", "-k", "test_judge", "--ragrecall-model", "gpt-4o")
    assert "--ragrecall-model names the model 'gpt-4o'" in " ".join(flag.stdout.str().split())
    assert "or --ragrecall-model offline for the offline judge" in " ".join(flag.stdout.str().split())


def test_replay_without_a_cache_is_a_configuration_error() -> None:
    with pytest.raises(ConfigurationError, match="RAGRECALL_REPLAY=1 needs a response cache"):
        judge_from_settings("gpt-4o-mini", None, replay=True)
    assert isinstance(judge_from_settings("offline"), OfflineJudge)
    assert isinstance(judge_from_settings(""), OfflineJudge)


def test_the_report_rows_carry_test_assertion_and_outcome() -> None:
    text = "Paris is the capital."
    passing = [{"id": "p", "retrieved_contexts": [text], "reference_contexts": [text]}]
    failing = [{"retrieved_context_ids": ["a"], "reference_context_ids": ["b"]}, {"id": "ok"}]
    with record_assertions() as records:
        assert_recall(passing, NonLLMContextRecall(), at_least=0.9)
        with pytest.raises(AssertionError):
            assert_recall(failing, IDBasedContextRecall(), at_least=0.5, per_sample=True)
    assert [r.passed for r in records] == [True, False]
    assert records[1].message is not None and records[1].message.startswith("id_based_context_recall: 1 of 1")

    result = build_report_result([("t.py::a", records[0]), ("t.py::b", records[1])])
    assert result.metrics == ("non_llm_context_recall", "id_based_context_recall")
    assert len(result.rows) == 3 and [row.index for row in result.rows] == [0, 1, 2]
    first, second, third = result.rows
    assert first.sample is not None and first.sample.metadata == {
        "test": "t.py::a",
        "assertion": "mean non_llm_context_recall ≥ 0.9",
        "outcome": "passed",
    }
    assert first.results["non_llm_context_recall"].value == 1.0
    assert first.results["id_based_context_recall"].status == "unscorable"
    assert second.sample is not None and second.sample.metadata["outcome"] == "failed"
    assert second.sample.metadata["assertion"] == "each id_based_context_recall ≥ 0.5"
    assert second.results["id_based_context_recall"].value == 0.0
    assert third.results["id_based_context_recall"].status == "failed"  # {"id": "ok"} lacks the ID fields
    assert result.summary["id_based_context_recall"].failed == 1
    assert result.run is not None and result.run.metrics["non_llm_context_recall"]["class"] == "NonLLMContextRecall"


def test_recorders_nest_and_close() -> None:
    sample = [{"retrieved_context_ids": ["a"], "reference_context_ids": ["a"]}]
    with record_assertions() as outer:
        with record_assertions() as inner:
            assert_recall(sample, IDBasedContextRecall(), at_least=1.0)
        assert_recall(sample, IDBasedContextRecall(), at_least=1.0)
    assert_recall(sample, IDBasedContextRecall(), at_least=1.0)
    assert len(outer) == 2 and len(inner) == 1


def test_claim_recall_through_the_fixture_gives_verdicts(ragrecall_judge: OfflineJudge) -> None:
    # This suite's own runs use the plugin too: with no model configured the fixture is the offline judge.
    sample = {"reference": "Paris is the capital of France.", "retrieved_contexts": ["Paris is the capital of France."]}
    (result,) = assert_recall([sample], ContextRecall(ragrecall_judge), at_least=1.0)
    assert result.evidence is not None and re.search("stated|verified", str(result.evidence.model_dump()))
