"""The curated public surface: adding or removing a public name is a deliberate act."""

from __future__ import annotations

from pathlib import Path

import ragrecall

EXPECTED = {
    "BatchBackend",
    "RoundExported",
    "CacheMissError",
    "CalibrationResult",
    "CorrectedMean",
    "EndpointDownError",
    "CheckpointError",
    "ClaimRecallEvidence",
    "ClaimVerdict",
    "Comparison",
    "ConfigurationError",
    "ConfirmationError",
    "ContextMatch",
    "ContextRecall",
    "Dataset",
    "DroppedClaim",
    "EvaluationDataset",
    "EvaluationResult",
    "Evidence",
    "Failure",
    "FakeLLM",
    "FileFormatError",
    "FoundID",
    "IDBasedContextRecall",
    "IDRecallEvidence",
    "InputError",
    "InvalidSampleError",
    "LLMContextRecall",
    "LLMError",
    "LLMOutputError",
    "LLMRequestError",
    "Metric",
    "MetricResult",
    "MissingFieldError",
    "NoClaimsError",
    "NonLLMContextRecall",
    "NuggetRecall",
    "NothingToEvaluateError",
    "OfflineJudge",
    "OpenAILLM",
    "Quote",
    "RagrecallError",
    "RankingEvidence",
    "RankingMetric",
    "ResponseCache",
    "RetryPolicy",
    "RunConfig",
    "Sample",
    "SingleTurnSample",
    "StringRecallEvidence",
    "SyncMetric",
    "UnverifiedVerdictError",
    "Usage",
    "__version__",
    "aevaluate",
    "calibrate",
    "labels_needed",
    "ppi_mean",
    "compare",
    "demo_dataset",
    "evaluate",
    "evaluate_diversity",
    "evaluate_run",
    "llm_factory",
    "parse_measure",
    "parse_ranking",
    "read_qrels",
    "read_run",
}


def test_public_names_are_pinned() -> None:
    assert set(ragrecall.__all__) == EXPECTED
    for name in ragrecall.__all__:
        assert hasattr(ragrecall, name), name


def test_error_tree() -> None:
    assert issubclass(ragrecall.MissingFieldError, ragrecall.InvalidSampleError)
    assert issubclass(ragrecall.InvalidSampleError, ragrecall.InputError)
    assert issubclass(ragrecall.InputError, ValueError)
    assert issubclass(ragrecall.UnverifiedVerdictError, ragrecall.LLMOutputError)
    assert issubclass(ragrecall.NoClaimsError, ragrecall.LLMOutputError)
    for name in ("InputError", "LLMError", "FileFormatError", "ConfigurationError", "CacheMissError"):
        assert issubclass(getattr(ragrecall, name), ragrecall.RagrecallError)


def test_dir_lists_public_names() -> None:
    assert set(ragrecall.__all__) <= set(dir(ragrecall))


def test_importing_the_package_or_ranking_does_not_load_the_llm_stack() -> None:
    import subprocess
    import sys

    code = (
        "import sys, ragrecall, ragrecall.ranking\n"
        "from ragrecall import Sample, IDBasedContextRecall, NonLLMContextRecall, evaluate_run\n"
        "assert 'openai' not in sys.modules, 'openai was imported'\n"
        "from ragrecall import ContextRecall\n"
        "assert 'openai' in sys.modules\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True)


def test_the_command_line_loads_the_llm_stack_only_for_commands_that_use_it() -> None:
    import subprocess
    import sys

    code = (
        "import sys\n"
        "from ragrecall.cli._main import _parser\n"
        "_parser().parse_args(['trec', 'q', 'r'])\n"
        "assert 'openai' not in sys.modules, 'building the parser imported openai'\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True)


def test_the_report_of_a_run_without_an_llm_loads_neither_the_llm_stack_nor_the_run_machinery(tmp_path: Path) -> None:
    import subprocess
    import sys

    from ragrecall import IDBasedContextRecall, NonLLMContextRecall, demo_dataset
    from ragrecall.evaluation import evaluate

    results = tmp_path / "results.jsonl"
    evaluate(demo_dataset(), [IDBasedContextRecall(), NonLLMContextRecall()], show_progress=False).to_jsonl(results)
    code = (
        "import sys\n"
        "from ragrecall.cli import main\n"
        f"assert main(['report', {str(results)!r}, '-o', {str(tmp_path / 'page.html')!r}]) == 0\n"
        "loaded = [m for m in ('openai', 'ragrecall.llm', 'ragrecall.evaluation._run', 'ragrecall.calibration') "
        "if m in sys.modules]\n"
        "assert not loaded, loaded\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True, capture_output=True)
    assert (tmp_path / "page.html").read_text(encoding="utf-8").startswith("<!doctype html>")


def test_unknown_attribute_is_an_attribute_error() -> None:
    import pytest

    with pytest.raises(AttributeError, match="has no attribute 'nope'"):
        _ = ragrecall.nope  # type: ignore[attr-defined]


def test_no_public_name_is_shadowed_by_a_submodule() -> None:
    # Importing a submodule sets it as an attribute of its package; a lazily exported name equal to a
    # submodule's name would then resolve to the module instead of the function or class.
    import importlib
    import pkgutil
    import types

    packages = ["ragrecall"] + [
        info.name for info in pkgutil.walk_packages(ragrecall.__path__, "ragrecall.") if info.ispkg
    ]
    for info in pkgutil.walk_packages(ragrecall.__path__, "ragrecall."):
        if not info.name.endswith("__main__"):
            importlib.import_module(info.name)
    for name in packages:
        package = importlib.import_module(name)
        for public in getattr(package, "__all__", []):
            assert not isinstance(getattr(package, public), types.ModuleType), f"{name}.{public} is a module"
