"""Checkpoints: resume does only what is missing, survives SIGKILL and torn lines, refuses other runs."""

from __future__ import annotations

import fcntl
import hashlib
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from ragrecall import CheckpointError, FileFormatError, IDBasedContextRecall, InputError, NonLLMContextRecall
from ragrecall.evaluation import evaluate

# A script that evaluates 200 samples with an async metric that logs each call it makes to CALLS.
SCRIPT = """
import asyncio
import hashlib
import sys
from dataclasses import dataclass
from typing import ClassVar
from ragrecall import Metric, MetricResult
from ragrecall.evaluation import evaluate

CALLS = sys.argv[2]

@dataclass(frozen=True)
class SlowHash(Metric):
    required_fields: ClassVar[tuple[str, ...]] = ("reference",)
    metric_name: ClassVar[str] = "slow_hash"

    async def _ascore_sample(self, sample):
        await asyncio.sleep(0.01)
        with open(CALLS, "a") as log:
            log.write(f"{sample.id}\\n")
        value = hashlib.sha256(sample.reference.encode()).digest()[0] / 255
        return MetricResult.scored(self.name, value, sample_id=sample.id)

samples = [{"id": f"q{i}", "reference": f"reference {i}"} for i in range(200)]
result = evaluate(samples, [SlowHash()], max_concurrency=4, show_progress=False, checkpoint=sys.argv[1])
result.to_jsonl(sys.argv[3])
"""


def run_script(tmp_path: Path, name: str, checkpoint: Path) -> subprocess.Popen[str]:
    script = tmp_path / "run_eval.py"
    script.write_text(SCRIPT, encoding="utf-8")
    calls, out = tmp_path / f"{name}.calls", tmp_path / f"{name}.out.jsonl"
    return subprocess.Popen(
        [sys.executable, str(script), str(checkpoint), str(calls), str(out)], text=True, stderr=subprocess.PIPE
    )


def rows_of(path: Path) -> list[dict[str, object]]:
    """The rows of a results file without the run's details."""
    rows = [json.loads(line) for line in read_lines(path)]
    return [{k: v for k, v in row.items() if k != "run"} for row in rows]


def read_lines(path: Path) -> list[str]:
    return path.read_text(encoding="utf-8").splitlines() if path.exists() else []


def test_sigkill_then_resume_equals_uninterrupted_run(tmp_path: Path) -> None:
    whole = run_script(tmp_path, "whole", tmp_path / "whole.ckpt")
    assert whole.wait(timeout=120) == 0, whole.stderr.read() if whole.stderr else ""

    checkpoint = tmp_path / "killed.ckpt"
    first = run_script(tmp_path, "first", checkpoint)
    deadline = time.monotonic() + 60
    while len(read_lines(checkpoint)) < 60 and time.monotonic() < deadline:
        time.sleep(0.01)
    os.kill(first.pid, signal.SIGKILL)
    first.wait(timeout=30)
    assert first.returncode == -signal.SIGKILL
    finished_before = {json.loads(line)["index"] for line in read_lines(checkpoint)[1:] if line.endswith("}")}
    assert 0 < len(finished_before) < 200

    second = run_script(tmp_path, "second", checkpoint)
    assert second.wait(timeout=120) == 0, second.stderr.read() if second.stderr else ""

    resumed_calls = read_lines(tmp_path / "second.calls")
    assert len(resumed_calls) == len(set(resumed_calls)) == 200 - len(finished_before)
    assert not {f"q{i}" for i in finished_before} & set(resumed_calls)
    # The same rows; only the run's details on the first (its date and wall time) differ.
    assert rows_of(tmp_path / "second.out.jsonl") == rows_of(tmp_path / "whole.out.jsonl")


def samples(n: int) -> list[dict[str, object]]:
    return [{"id": i, "retrieved_context_ids": [str(i % 3)], "reference_context_ids": ["1"]} for i in range(n)]


def test_rerun_does_nothing_when_complete_and_retries_failures(tmp_path: Path) -> None:
    path = tmp_path / "run.ckpt"
    data = samples(10)
    data[4] = {"id": 4, "retrieved_context_ids": ["1"]}  # fails: no reference_context_ids
    first = evaluate(data, [IDBasedContextRecall()], show_progress=False, checkpoint=path)
    assert len(first.failures) == 1 and len(read_lines(path)) == 11
    again = evaluate(data, [IDBasedContextRecall()], show_progress=False, checkpoint=path)
    assert again.values("id_based_context_recall") == first.values("id_based_context_recall")
    assert len(read_lines(path)) == 12  # only the failed pair ran again


def test_torn_last_line_is_dropped_and_cut(tmp_path: Path) -> None:
    path = tmp_path / "run.ckpt"
    data = samples(6)
    full = evaluate(data, [IDBasedContextRecall()], show_progress=False, checkpoint=path)
    lines = read_lines(path)
    path.write_text("\n".join(lines[:4]) + "\n" + lines[4][: len(lines[4]) // 2], encoding="utf-8")
    resumed = evaluate(data, [IDBasedContextRecall()], show_progress=False, checkpoint=path)
    assert resumed.values("id_based_context_recall") == full.values("id_based_context_recall")
    assert all(json.loads(line) for line in read_lines(path))
    assert len(read_lines(path)) == 7


def test_malformed_middle_line_is_an_error(tmp_path: Path) -> None:
    path = tmp_path / "run.ckpt"
    evaluate(samples(3), [IDBasedContextRecall()], show_progress=False, checkpoint=path)
    lines = read_lines(path)
    lines[2] = "{oops"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    with pytest.raises(FileFormatError, match=r"run\.ckpt:3: malformed checkpoint line"):
        evaluate(samples(3), [IDBasedContextRecall()], show_progress=False, checkpoint=path)


def test_other_metric_settings_are_refused(tmp_path: Path) -> None:
    path = tmp_path / "run.ckpt"
    evaluate(samples(3), [NonLLMContextRecall(threshold=0.5)], show_progress=False, checkpoint=tmp_path / "s.ckpt")
    evaluate(samples(3), [IDBasedContextRecall()], show_progress=False, checkpoint=path)
    with pytest.raises(CheckpointError, match="written for other metrics or settings"):
        evaluate(samples(3), [IDBasedContextRecall(k=2)], show_progress=False, checkpoint=path)
    with pytest.raises(CheckpointError, match="written for other metrics or settings"):
        evaluate(samples(3), [NonLLMContextRecall(threshold=0.6)], show_progress=False, checkpoint=tmp_path / "s.ckpt")


def test_changed_dataset_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "run.ckpt"
    evaluate(samples(3), [IDBasedContextRecall()], show_progress=False, checkpoint=path)
    changed = samples(3)
    changed[1] = {"id": 1, "retrieved_context_ids": ["9"], "reference_context_ids": ["1"]}
    with pytest.raises(CheckpointError, match="sample 1 differs"):
        evaluate(changed, [IDBasedContextRecall()], show_progress=False, checkpoint=path)


def test_not_a_checkpoint(tmp_path: Path) -> None:
    path = tmp_path / "data.jsonl"
    path.write_text('{"id": 1}\n', encoding="utf-8")
    with pytest.raises(CheckpointError, match="is not a ragrecall checkpoint"):
        evaluate(samples(1), [IDBasedContextRecall()], show_progress=False, checkpoint=path)


def test_a_torn_header_starts_the_checkpoint_again(tmp_path: Path) -> None:
    path = tmp_path / "run.ckpt"
    evaluate(samples(3), [IDBasedContextRecall()], show_progress=False, checkpoint=tmp_path / "whole.ckpt")
    header = read_lines(tmp_path / "whole.ckpt")[0]
    for torn in (header[:40], header):  # killed mid-header, or before its newline
        path.write_text(torn, encoding="utf-8")
        first = evaluate(samples(3), [IDBasedContextRecall()], show_progress=False, checkpoint=path)
        again = evaluate(samples(3), [IDBasedContextRecall()], show_progress=False, checkpoint=path)
        assert first.values("id_based_context_recall") == again.values("id_based_context_recall")
        assert len(read_lines(path)) == 4 and read_lines(path)[0] == header


def test_dicts_and_their_dataset_share_a_checkpoint(tmp_path: Path) -> None:
    from ragrecall import Dataset

    path = tmp_path / "run.ckpt"
    evaluate(samples(4), [IDBasedContextRecall()], show_progress=False, checkpoint=path)
    evaluate(Dataset.from_records(samples(4)), [IDBasedContextRecall()], show_progress=False, checkpoint=path)
    assert len(read_lines(path)) == 5  # nothing ran twice


def test_other_llm_settings_are_refused(tmp_path: Path) -> None:
    from ragrecall import ContextRecall, OfflineJudge

    path = tmp_path / "run.ckpt"
    data = [
        {"id": i, "reference": "Paris is in France.", "retrieved_contexts": ["Paris is in France."]} for i in range(2)
    ]
    evaluate(data, [ContextRecall(OfflineJudge(threshold=0.5))], show_progress=False, checkpoint=path)
    with pytest.raises(CheckpointError, match="written for other metrics or settings"):
        evaluate(data, [ContextRecall(OfflineJudge(threshold=1.0))], show_progress=False, checkpoint=path)


def checksum(record: dict[str, object]) -> str:
    """The documented checksum: SHA-256 of the record without its checksum as canonical JSON, 16 hex digits."""
    body = {k: v for k, v in record.items() if k != "checksum"}
    text = json.dumps(body, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]


@pytest.mark.parametrize(
    "content",
    [
        b'{"id": "q1", "retrieved_context_ids": ["a"], "reference_context_ids": ["a"]}',  # one-line dataset
        b'{"id": "q1", "retrieved_context_ids": ["a"], "reference_context_ids": ["a"]}\n',
        b'{"model": "gpt-4o-mini", "temperature": 0}',  # json.dump(config)
        b'{\n    "model": "gpt-4o-mini",\n    "temperature": 0\n}',  # json.dump(config, indent=4)
        b'{"format": "ragrecall-checkpoint/1", "metr',  # a header torn by an older version
        b"notes about the run\nsecond line",
        b"\n",
    ],
)
def test_a_file_that_is_not_a_checkpoint_is_refused_untouched(tmp_path: Path, content: bytes) -> None:
    path = tmp_path / "precious.json"
    path.write_bytes(content)
    with pytest.raises(CheckpointError, match=r"precious\.json is not a ragrecall checkpoint.*left untouched"):
        evaluate(samples(1), [IDBasedContextRecall()], show_progress=False, checkpoint=path)
    assert path.read_bytes() == content
    assert sorted(p.name for p in tmp_path.iterdir()) == ["precious.json"]  # no lock file left behind


def test_the_checkpoint_cannot_be_the_dataset(tmp_path: Path) -> None:
    path = tmp_path / "data.jsonl"
    content = "".join(json.dumps(s) + "\n" for s in samples(2)).encode()
    path.write_bytes(content)
    with pytest.raises(InputError, match=r"checkpoint .*data\.jsonl is the dataset"):
        evaluate(path, [IDBasedContextRecall()], show_progress=False, checkpoint=path)
    assert path.read_bytes() == content


def test_a_checkpoint_held_by_another_process_is_refused_naming_the_holder(tmp_path: Path) -> None:
    path = tmp_path / "run.ckpt"
    holder = {"lock": "ragrecall", "pid": 4242, "host": "nightly-box", "started": "2025-01-02T03:04:05+00:00"}
    with open(tmp_path / "run.ckpt.lock", "w", encoding="utf-8") as lock:
        lock.write(json.dumps(holder))
        lock.flush()
        fcntl.flock(lock.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
        with pytest.raises(CheckpointError) as info:
            evaluate(samples(2), [IDBasedContextRecall()], show_progress=False, checkpoint=path)
        assert not path.exists()  # nothing was written, nothing was run
    message = str(info.value)
    assert "run.ckpt is in use by another run" in message
    assert "pid 4242 on nightly-box, started 2025-01-02T03:04:05+00:00" in message
    # Released: the next run takes it, and leaves no lock file behind.
    evaluate(samples(2), [IDBasedContextRecall()], show_progress=False, checkpoint=path)
    assert len(read_lines(path)) == 3 and not (tmp_path / "run.ckpt.lock").exists()


def test_a_running_process_holds_its_checkpoint_until_it_dies(tmp_path: Path) -> None:
    checkpoint = tmp_path / "run.ckpt"
    first = run_script(tmp_path, "first", checkpoint)
    deadline = time.monotonic() + 60
    while len(read_lines(checkpoint)) < 5 and time.monotonic() < deadline:
        time.sleep(0.01)
    try:
        with pytest.raises(CheckpointError, match=rf"in use by another run \(pid {first.pid} on "):
            evaluate(samples(2), [IDBasedContextRecall()], show_progress=False, checkpoint=checkpoint)
    finally:
        os.kill(first.pid, signal.SIGKILL)
        first.wait(timeout=30)
    # A killed holder leaves its lock file, but the operating system released the lock: the file is taken
    # over, and this run is refused for what it is (other metrics), not for a lock.
    assert (tmp_path / "run.ckpt.lock").exists()
    with pytest.raises(CheckpointError, match="written for other metrics"):
        evaluate(samples(2), [IDBasedContextRecall()], show_progress=False, checkpoint=checkpoint)
    second = run_script(tmp_path, "second", checkpoint)
    assert second.wait(timeout=120) == 0, second.stderr.read() if second.stderr else ""


def test_every_line_carries_its_checksum(tmp_path: Path) -> None:
    path = tmp_path / "run.ckpt"
    evaluate(samples(3), [IDBasedContextRecall()], show_progress=False, checkpoint=path)
    records = [json.loads(line) for line in read_lines(path)]
    assert records[0]["format"] == "ragrecall-checkpoint/2"
    assert all(r["checksum"] == checksum(r) for r in records)


def flip_bit(text: str, at: int) -> str:
    return text[:at] + chr(ord(text[at]) ^ 1) + text[at + 1 :]


@pytest.mark.parametrize(
    ("line", "edit"),
    [
        (3, lambda text: text.replace('"value": 1.0', '"value": 0.0')),  # a result edited by hand
        (2, lambda text: flip_bit(text, text.index('"sample": "') + 11)),  # one bit of a fingerprint flipped
        (1, lambda text: text.replace('"k": null', '"k": 5')),  # the header's settings edited
        (4, lambda text: text.replace(', "checksum": ', ', "x": ')),  # the checksum removed
    ],
)
def test_an_edited_or_damaged_record_is_refused_naming_its_line(tmp_path: Path, line: int, edit: Any) -> None:
    path = tmp_path / "run.ckpt"
    evaluate(samples(4), [IDBasedContextRecall()], show_progress=False, checkpoint=path)
    lines = read_lines(path)
    changed = edit(lines[line - 1])
    assert changed != lines[line - 1] and json.loads(changed)
    lines[line - 1] = changed
    content = ("\n".join(lines) + "\n").encode()
    path.write_bytes(content)
    with pytest.raises(CheckpointError, match=rf"run\.ckpt:{line}: the record does not match its checksum"):
        evaluate(samples(4), [IDBasedContextRecall()], show_progress=False, checkpoint=path)
    assert path.read_bytes() == content


def test_one_pair_recorded_twice_with_different_results_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "run.ckpt"
    evaluate(samples(3), [IDBasedContextRecall()], show_progress=False, checkpoint=path)
    lines = read_lines(path)
    # The same result twice (two runs agreeing) is harmless ...
    path.write_text("\n".join([*lines, lines[1]]) + "\n", encoding="utf-8")
    again = evaluate(samples(3), [IDBasedContextRecall()], show_progress=False, checkpoint=path)
    assert again.values("id_based_context_recall") == [0.0, 1.0, 0.0]
    # ... another result for it, with a valid checksum, is not: which one is right cannot be known.
    record = json.loads(lines[1])
    assert record["index"] == 0 and record["result"]["value"] == 0.0
    record["result"]["value"] = 1.0
    record["checksum"] = checksum(record)
    content = "\n".join([*lines, json.dumps(record)]) + "\n"
    path.write_text(content, encoding="utf-8")
    with pytest.raises(CheckpointError, match=r"run\.ckpt:5: sample 0, metric 'id_based_context_recall' is recorded"):
        evaluate(samples(3), [IDBasedContextRecall()], show_progress=False, checkpoint=path)
    assert path.read_text(encoding="utf-8") == content


def test_a_format_1_checkpoint_is_resumed(tmp_path: Path) -> None:
    path = tmp_path / "run.ckpt"
    full = evaluate(samples(4), [IDBasedContextRecall()], show_progress=False, checkpoint=path)
    records = [json.loads(line) for line in read_lines(path)]
    records[0]["format"] = "ragrecall-checkpoint/1"
    for record in records:
        del record["checksum"]
    path.write_text("".join(json.dumps(r) + "\n" for r in records[:-1]), encoding="utf-8")  # one pair left
    resumed = evaluate(samples(4), [IDBasedContextRecall()], show_progress=False, checkpoint=path)
    assert resumed.values("id_based_context_recall") == full.values("id_based_context_recall")
    lines = read_lines(path)
    assert len(lines) == 5 and json.loads(lines[-1])["checksum"] == checksum(json.loads(lines[-1]))
    again = evaluate(samples(4), [IDBasedContextRecall()], show_progress=False, checkpoint=path)
    assert again.values("id_based_context_recall") == full.values("id_based_context_recall")
    assert len(read_lines(path)) == 5


def test_a_lock_file_name_taken_by_another_file_is_refused_untouched(tmp_path: Path) -> None:
    other = tmp_path / "run.ckpt.lock"
    other.write_text("my notes, not a lock\n", encoding="utf-8")
    with pytest.raises(CheckpointError, match=r"run\.ckpt\.lock exists and is not a ragrecall lock file"):
        evaluate(samples(2), [IDBasedContextRecall()], show_progress=False, checkpoint=tmp_path / "run.ckpt")
    assert other.read_text(encoding="utf-8") == "my notes, not a lock\n"
    assert not (tmp_path / "run.ckpt").exists()


@pytest.mark.parametrize("torn", ['{"lock": "ragr', '{"lock": "ragrecall", "pid": 4242, "ho', "\x00" * 64, ""])
def test_a_torn_lock_file_left_by_a_killed_run_is_taken_over(tmp_path: Path, torn: str) -> None:
    (tmp_path / "run.ckpt.lock").write_text(torn, encoding="utf-8")
    evaluate(samples(2), [IDBasedContextRecall()], show_progress=False, checkpoint=tmp_path / "run.ckpt")
    assert len(read_lines(tmp_path / "run.ckpt")) == 3 and not (tmp_path / "run.ckpt.lock").exists()


@pytest.mark.parametrize(
    ("torn", "named"),
    [
        ('{"lock": "ragrecall", "pid": 4242, "ho', "pid 4242"),
        ('{"lock": "ragrec', "no pid readable"),
    ],
)
def test_a_torn_lock_file_that_is_held_is_named_torn_with_how_to_clear_it(
    tmp_path: Path, torn: str, named: str
) -> None:
    path = tmp_path / "run.ckpt"
    with open(tmp_path / "run.ckpt.lock", "w", encoding="utf-8") as lock:
        lock.write(torn)
        lock.flush()
        fcntl.flock(lock.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
        with pytest.raises(CheckpointError) as info:
            evaluate(samples(2), [IDBasedContextRecall()], show_progress=False, checkpoint=path)
    message = str(info.value)
    assert "\n" not in message
    assert f"run.ckpt is in use by another run (its lock file is torn, cut short as it was written; {named})" in message
    assert f"if no run uses it, delete the lock file {tmp_path / 'run.ckpt.lock'}" in message


def test_a_damaged_last_line_that_is_complete_is_refused_not_dropped(tmp_path: Path) -> None:
    path = tmp_path / "run.ckpt"
    evaluate(samples(3), [IDBasedContextRecall()], show_progress=False, checkpoint=path)
    lines = read_lines(path)
    lines[-1] = lines[-1][:-1] + "]"  # damaged, but its newline is there: not a write torn by a kill
    content = ("\n".join(lines) + "\n").encode()
    path.write_bytes(content)
    with pytest.raises(FileFormatError, match=rf"run\.ckpt:{len(lines)}: malformed checkpoint line"):
        evaluate(samples(3), [IDBasedContextRecall()], show_progress=False, checkpoint=path)
    assert path.read_bytes() == content
