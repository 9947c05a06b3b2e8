"""ragrecall on Ray, for real: one local cluster of 2 CPUs shared by the module's tests.

The numbers must be ``evaluate``'s whatever the number of actors or blocks; a killed actor, a resumed run and a dead
endpoint must lose, repeat and count nothing wrongly.
"""

from __future__ import annotations

import functools
import glob
import json
import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pyarrow.parquet as pq
import pytest

ray = pytest.importorskip("ray")

import helpers.ray_llm as ray_llm  # noqa: E402
from ragrecall import (  # noqa: E402
    ContextRecall,
    IDBasedContextRecall,
    NonLLMContextRecall,
    OfflineJudge,
    RankingMetric,
    demo_dataset,
    evaluate,
)
from ragrecall.errors import CheckpointError, EndpointDownError  # noqa: E402
from ragrecall.evaluation import EvaluationResult, read_result_line  # noqa: E402
from ragrecall.integrations.ray import evaluate_dataset, score_dataset  # noqa: E402
from ragrecall.llm.fake_server import FakeOpenAIServer  # noqa: E402

# Actors take a quarter CPU each, so that four of them and Ray Data's read tasks fit the 2-CPU cluster.
ACTOR = {"num_cpus": 0.25}


@pytest.fixture(scope="module", autouse=True)
def cluster() -> Iterator[None]:
    ray.cloudpickle.register_pickle_by_value(ray_llm)  # the workers cannot import the tests' helpers
    ray.init(address="local", num_cpus=2, include_dashboard=False, log_to_driver=False, configure_logging=False)
    ray.data.DataContext.get_current().enable_progress_bars = False
    try:
        yield
    finally:
        ray.shutdown()


def metrics() -> list[Any]:
    """One metric of every family; claim recall takes the run's LLM."""
    return [ContextRecall(), NonLLMContextRecall(), IDBasedContextRecall(), RankingMetric("nDCG@10")]


def demo_rows(copies: int = 1) -> list[dict[str, Any]]:
    """The demo samples as plain rows (``copies`` times, ids kept apart), and one that claim recall cannot score:
    it has no reference, which is that sample's failure, not the run's."""
    rows = [s.model_dump(mode="json", exclude_none=True) for s in demo_dataset()]
    out = [{**r, "id": f"{r['id']}-{k}"} for k in range(copies) for r in rows]
    broken = {k: v for k, v in rows[0].items() if k != "reference"}
    return [*out, {**broken, "id": "no-reference"}]


def rows_of(result: EvaluationResult) -> list[dict[str, Any]]:
    return [r.model_dump(mode="json", exclude={"results": {"__all__": {"failure": {"traceback"}}}}) for r in result]


def part_indices(out: Path) -> list[int]:
    return [i for p in sorted(glob.glob(str(out / "part-*.parquet"))) for i in pq.read_table(p)["index"].to_pylist()]


def test_the_demo_scores_as_evaluate_scores_it_with_every_metric_family(tmp_path: Path) -> None:
    rows = demo_rows()
    expected = evaluate(rows, metrics(), llm=OfflineJudge(), show_progress=False)
    assert expected.summary["context_recall"].failed == 1  # the sample without a reference

    result = evaluate_dataset(
        ray.data.from_items(rows),
        metrics(),
        out=tmp_path / "out",
        llm=OfflineJudge,
        batch_size=4,
        concurrency=2,
        ray_remote_args=ACTOR,
    )

    assert rows_of(result) == rows_of(expected)
    assert result.summary == expected.summary
    failure = result.rows[-1].results["context_recall"].failure
    assert failure is not None and "reference" in failure.message and "sample 12" in failure.message
    assert sorted(part_indices(tmp_path / "out")) == list(range(len(rows)))


def test_score_dataset_gives_the_rows_of_a_results_file() -> None:
    rows = demo_rows()
    expected = evaluate(rows, metrics(), llm=OfflineJudge(), show_progress=False)
    scored = score_dataset(ray.data.from_items(rows), metrics(), llm=OfflineJudge, concurrency=1, ray_remote_args=ACTOR)
    table = sorted(scored.take_all(), key=lambda r: r["index"])
    assert [r["index"] for r in table] == list(range(len(rows)))
    assert [r["context_recall:status"] for r in table] == [r.results["context_recall"].status for r in expected]
    assert [r["nDCG@10"] for r in table] == expected.values("nDCG@10")
    back = [read_result_line(r["row"], "rows", i, first=False)[0] for i, r in enumerate(table)]
    assert rows_of(EvaluationResult(back, expected.metrics)) == rows_of(expected)


@pytest.mark.parametrize(("actors", "batch_size"), [(1, 50), (2, 16), (4, 7)])
def test_the_summary_is_the_same_for_one_two_and_four_actors(tmp_path: Path, actors: int, batch_size: int) -> None:
    rows = demo_rows(copies=20)
    expected = evaluate(rows, metrics(), llm=OfflineJudge(), show_progress=False)
    ds = ray.data.from_items(rows, override_num_blocks=actors * 3)
    result = evaluate_dataset(
        ds,
        metrics(),
        out=tmp_path / "out",
        llm=OfflineJudge,
        batch_size=batch_size,
        concurrency=actors,
        ray_remote_args=ACTOR,
    )
    assert result.summary == expected.summary
    assert result.summary_table().splitlines()[:-1] == expected.summary_table().splitlines()[:-1]


def test_thousands_of_samples_through_the_fake_server_score_as_evaluate(tmp_path: Path) -> None:
    rows = demo_rows(copies=170)  # 2,041 samples
    with FakeOpenAIServer() as server:
        expected = evaluate(rows, metrics(), llm=ray_llm.openai_llm(server.base_url), show_progress=False)
        sent = len(server.requests)
        result = evaluate_dataset(
            ray.data.from_items(rows, override_num_blocks=8),
            metrics(),
            out=tmp_path / "out",
            llm=functools.partial(ray_llm.openai_llm, server.base_url),
            batch_size=128,
            concurrency=2,
            ray_remote_args=ACTOR,
        )
        assert len(server.requests) == 2 * sent  # each request once, as in one process
    assert len(result) == len(rows) and rows_of(result) == rows_of(expected)
    assert result.summary == expected.summary
    assert result.summary["context_recall"].usage.requests == sent


def test_a_run_finishes_when_the_actors_leave_no_whole_cpu_and_the_output_outruns_the_object_store(
    tmp_path: Path,
) -> None:
    """The actor reserves 1.5 of the 2 CPUs, so a task wanting a whole CPU cannot start while it lives, and Ray
    Data's object-store budget is a few rows, so the scoring stops until its output is taken: the output must be
    taken by the driver itself (it once went through a task first, and the run waited forever). A stuck run is
    the failure; the join's bound is only there so that a stuck run fails this test instead of hanging it."""
    import threading

    rows = demo_rows(copies=40)
    expected = evaluate(rows, metrics(), llm=OfflineJudge(), show_progress=False)
    context = ray.data.DataContext.get_current()
    limits = context.execution_options.resource_limits
    context.execution_options.resource_limits = limits.copy(object_store_memory=200_000)
    found: list[EvaluationResult] = []

    def run() -> None:
        found.append(
            evaluate_dataset(
                ray.data.from_items(rows),
                metrics(),
                out=tmp_path / "out",
                llm=OfflineJudge,
                batch_size=8,
                concurrency=1,
                ray_remote_args={"num_cpus": 1.5},
            )
        )

    try:
        worker = threading.Thread(target=run, daemon=True)
        worker.start()
        worker.join(600)
    finally:
        context.execution_options.resource_limits = limits
    assert found, "the run did not finish"
    assert found[0].summary == expected.summary


def test_an_actor_killed_mid_run_loses_and_repeats_nothing(tmp_path: Path) -> None:
    rows = demo_rows(copies=10)
    expected = evaluate(rows, metrics(), llm=OfflineJudge(), show_progress=False)
    marker = tmp_path / "died"
    dies = ray_llm.DiesOnce(OfflineJudge(), str(marker), after=30)
    result = evaluate_dataset(
        ray.data.from_items(rows),
        metrics(),
        out=tmp_path / "out",
        llm=dies,
        batch_size=8,
        concurrency=2,
        ray_remote_args=ACTOR,
    )
    assert marker.exists()  # an actor did die, mid-batch
    assert rows_of(result) == rows_of(expected)
    assert result.summary == expected.summary
    assert sorted(part_indices(tmp_path / "out")) == list(range(len(rows)))  # each sample written once


def test_a_rerun_sends_no_request_for_finished_samples(tmp_path: Path) -> None:
    rows = demo_rows(copies=5)
    out = tmp_path / "out"
    with FakeOpenAIServer() as server:
        llm = functools.partial(ray_llm.openai_llm, server.base_url)
        ds = ray.data.from_items(rows)
        first = evaluate_dataset(ds, metrics(), out=out, llm=llm, batch_size=10, concurrency=2, ray_remote_args=ACTOR)
        everything = len(server.requests)
        lost = sorted(glob.glob(str(out / "part-*.parquet")))[:2]  # as if the node that wrote them was lost
        lost_indices = [i for p in lost for i in pq.read_table(p)["index"].to_pylist()]
        for path in lost:
            os.remove(path)
        evaluate(
            [rows[i] for i in lost_indices], metrics(), llm=ray_llm.openai_llm(server.base_url), show_progress=False
        )
        needed = len(server.requests) - everything  # what those samples ask, in one process
        again = evaluate_dataset(ds, metrics(), out=out, llm=llm, batch_size=10, concurrency=2, ray_remote_args=ACTOR)
        resent = len(server.requests) - everything - needed
        assert resent == needed > 0  # those samples' requests, no more

        third = evaluate_dataset(ds, metrics(), out=out, llm=llm, batch_size=10, concurrency=2, ray_remote_args=ACTOR)
        assert len(server.requests) == everything + 2 * needed  # nothing left to do: nothing sent
    assert again.summary == first.summary == third.summary
    assert rows_of(again) == rows_of(first)
    assert sorted(part_indices(out)) == list(range(len(rows)))
    written = [pq.read_table(p).to_pylist() for p in glob.glob(str(out / "part-*.parquet"))]
    assert ray_llm.KEY not in json.dumps(written) + (out / "ragrecall-results.json").read_text()  # no key written

    changed = [*rows[:-1], {**rows[-1], "reference": "Something else."}]
    with pytest.raises(CheckpointError, match="sample 60 differs"):
        evaluate_dataset(ray.data.from_items(changed), metrics(), out=out, llm=llm, ray_remote_args=ACTOR)


def test_a_dead_endpoint_stops_the_run_with_one_line_naming_it(tmp_path: Path) -> None:
    with FakeOpenAIServer() as server:
        url = server.base_url  # stopped below: nothing listens there any more
    with pytest.raises(EndpointDownError) as info:
        evaluate_dataset(
            ray.data.from_items(demo_rows()),
            [ContextRecall()],
            out=tmp_path / "out",
            llm=functools.partial(ray_llm.openai_llm, url),
            concurrency=1,
            ray_remote_args=ACTOR,
        )
    message = str(info.value)
    assert "\n" not in message and url.split("/v1")[0].removeprefix("http://") in message
    assert "gpt-4o-mini" in message


SUITE = Path(__file__).resolve().parents[1] / "ranking" / "trec_eval_suite"
# trec_eval's quicktest lines (its Makefile) that skip judged queries absent from the run, the Ray path's scope.
QUICKTEST = [
    ("qrels.test results.test", "out.test"),
    ("qrels.comment.test.gz results.comment.test.gz", "out.comment.test"),
    ("-m all_trec qrels.test results.test", "out.test.a"),
    ("-m all_trec -q qrels.test results.test", "out.test.aq"),
    ("-m all_trec -mrelstring.20 -q -l2 qrels.rel_level results.test", "out.test.aql"),
    (
        "-q -miprec_at_recall..10,.20,.25,.75,.50 -m P.5,7,3 -m recall.20,2000 -m Rprec_mult.5.0,0.2,0.35 "
        "-mutility.2,-1,0,0 -m 11pt_avg..25,.5,.75 -mndcg.1=3,2=9,4=4.5 -mndcg_cut.10,20,23.4 -msuccess.2,5,20 "
        "qrels.test results.test",
        "out.test.meas_params",
    ),
]


@pytest.mark.parametrize(("args", "expected"), QUICKTEST, ids=[e for _, e in QUICKTEST])
def test_trec_on_ray_prints_trec_evals_output_byte_for_byte(
    args: str, expected: str, capsysbinary: pytest.CaptureFixture[bytes]
) -> None:
    from ragrecall.cli._main import main

    files = [str(SUITE / a) if (SUITE / a).exists() else a for a in args.split()]
    assert main(["trec", *files]) == 0
    one_machine = capsysbinary.readouterr().out
    assert main(["trec", "--ray", *files]) == 0
    assert capsysbinary.readouterr().out == one_machine == (SUITE / expected).read_bytes()


def test_evaluate_run_on_a_parquet_run_gives_the_one_machine_values(tmp_path: Path) -> None:
    import pyarrow as pa

    from ragrecall.integrations.ray import evaluate_run as evaluate_on_ray
    from ragrecall.ranking import evaluate_run, read_run

    run = read_run(SUITE / "results.test").to_dict()
    rows = [(q, d, s) for q, docs in run.items() for d, s in docs.items()]
    columns = {"query": [r[0] for r in rows], "doc": [r[1] for r in rows], "score": [r[2] for r in rows]}
    pq.write_table(pa.table(columns), tmp_path / "run.parquet")
    measures = ["nDCG@10", "AP", "P@5", "Bpref", "RR", "NumRet"]
    expected = evaluate_run(SUITE / "qrels.test", SUITE / "results.test", measures, per_query=True)
    found = evaluate_on_ray(SUITE / "qrels.test", tmp_path / "run.parquet", measures, per_query=True, partitions=3)
    assert found.means == expected.means and found.per_query == expected.per_query
    assert found.query_ids == expected.query_ids and found.n_missing == expected.n_missing
