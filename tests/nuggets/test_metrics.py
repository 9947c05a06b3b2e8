"""nuggetizer's metrics, reproduced: hand-computed lines, and random files against an independent
re-implementation of nuggetizer's rules written here (counts per record, then the plain mean)."""

from __future__ import annotations

import json
import random
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

from ragrecall.cli import main
from ragrecall.errors import FileFormatError, InputError
from ragrecall.nuggets import nugget_metrics, nugget_scores, read_assignments

KEYS = ("strict_vital_score", "strict_all_score", "vital_score", "all_score")


def _n(assignment: str, importance: str | None = "vital", text: str = "a fact") -> dict[str, Any]:
    out: dict[str, Any] = {"text": text, "assignment": assignment}
    if importance is not None:
        out["importance"] = importance
    return out


def test_hand_computed_lines() -> None:
    records = [
        # vital: support, partial, failed (missing importance); okay: support, not_support
        {
            "qid": "q1",
            "nuggets": [
                _n("support"),
                _n("partial_support"),
                _n("failed", importance=None),
                _n("support", "okay"),
                _n("not_support", "okay"),
            ],
        },
        {"qid": "q2", "nuggets": [_n("partial_support", "okay"), _n("support", "okay")]},  # no vital nugget
        {"qid": 3, "nuggets": []},  # no nugget at all
    ]
    lines = nugget_metrics(records)
    assert lines[0] == {
        "qid": "q1",
        "strict_vital_score": 1 / 3,
        "strict_all_score": 2 / 5,
        "vital_score": 1.5 / 3,
        "all_score": 2.5 / 5,
    }
    assert lines[1] == {
        "qid": "q2",
        "strict_vital_score": 0.0,
        "strict_all_score": 0.5,
        "vital_score": 0.0,
        "all_score": 0.75,
    }
    assert lines[2] == {"qid": 3, **dict.fromkeys(KEYS, 0.0)}
    assert lines[3]["qid"] == "all"
    assert lines[3]["strict_all_score"] == pytest.approx((2 / 5 + 0.5 + 0) / 3, abs=1e-15)
    assert lines[3]["vital_score"] == pytest.approx((0.5 + 0 + 0) / 3, abs=1e-15)
    assert len(lines) == 4


def test_importance_null_is_not_vital_but_missing_is() -> None:
    missing = nugget_metrics([{"qid": "a", "nuggets": [_n("support", None)]}])[0]
    null = nugget_metrics([{"qid": "a", "nuggets": [{"text": "x", "importance": None, "assignment": "support"}]}])[0]
    assert missing["strict_vital_score"] == 1.0
    assert null["strict_vital_score"] == 0.0 and null["strict_all_score"] == 1.0


def test_weighted_and_unscorable_outside_compat() -> None:
    scores = nugget_scores([("vital", "support"), ("okay", "partial_support"), ("okay", "not_support")])
    assert scores["weighted"] == pytest.approx((1 + 0.5 * 0.5) / (1 + 0.5 + 0.5))
    assert nugget_scores([("okay", "support")])["vital"] is None
    assert nugget_scores([("okay", "support")], nuggetizer_compat=True)["vital"] == 0.0
    assert nugget_scores([])["all"] is None


def _reference(records: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """nuggetizer's rules, written independently: exact fractions per record, the mean of the rounded values."""
    out = []
    for record in records:
        nuggets = record["nuggets"]
        vital = [n for n in nuggets if n.get("importance", "vital") == "vital"]

        def score(group: list[dict[str, Any]], partial: Fraction) -> float:
            if not group:
                return 0.0
            got = sum(
                (
                    Fraction(1)
                    if n["assignment"] == "support"
                    else partial
                    if n["assignment"] == "partial_support"
                    else Fraction(0)
                )
                for n in group
            )
            return float(Fraction(got) / len(group))

        out.append(
            {
                "qid": record["qid"],
                "strict_vital_score": score(vital, Fraction(0)),
                "strict_all_score": score(nuggets, Fraction(0)),
                "vital_score": score(vital, Fraction(1, 2)),
                "all_score": score(nuggets, Fraction(1, 2)),
            }
        )
    means = {k: float(sum(Fraction(line[k]) for line in out) / len(out)) for k in KEYS}
    return [*out, {"qid": "all", **means}]


def _random_records(rng: random.Random, n: int) -> list[dict[str, Any]]:
    labels = ["support", "partial_support", "not_support", "failed"]
    records = []
    for i in range(n):
        nuggets = []
        for _ in range(rng.choice([0, 1, 2, 3, 7, 13, 30])):
            importance = rng.choice(["vital", "okay", "okay", None])
            nuggets.append(_n(rng.choice(labels), importance))
        records.append({"qid": f"q{i}", "nuggets": nuggets})
    return records


@pytest.mark.parametrize("seed", range(5))
def test_random_labels_match_an_independent_implementation(seed: int) -> None:
    records = _random_records(random.Random(seed), 300)
    got, want = nugget_metrics(records), _reference(records)
    assert [g["qid"] for g in got] == [w["qid"] for w in want]
    for g, w in zip(got, want, strict=True):
        for key in KEYS:
            assert abs(g[key] - w[key]) <= 1e-12, (g["qid"], key)
    # every per-record value is the correctly rounded fraction: equal, not only close
    assert got[:-1] == want[:-1]


def test_command_writes_the_same_lines(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    records = _random_records(random.Random(7), 50)
    source = tmp_path / "assign.jsonl"
    source.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    out = tmp_path / "metrics.jsonl"
    assert main(["nuggets", "metrics", str(source), "-o", str(out)]) == 0
    lines = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]
    assert lines == nugget_metrics(records)
    assert json.loads(capsys.readouterr().out) == lines[-1]
    assert main(["nuggets", "metrics", str(source)]) == 0
    assert [json.loads(x) for x in capsys.readouterr().out.splitlines()] == lines
    assert read_assignments(source) == records


def test_command_refuses_to_overwrite_its_input(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    source = tmp_path / "assign.jsonl"
    source.write_text(json.dumps({"qid": "a", "nuggets": []}) + "\n", encoding="utf-8")
    assert main(["nuggets", "metrics", str(source), "-o", str(source)]) == 2
    assert "refusing to overwrite" in capsys.readouterr().err
    assert json.loads(source.read_text(encoding="utf-8")) == {"qid": "a", "nuggets": []}


@pytest.mark.parametrize(
    ("record", "words"),
    [
        ({"nuggets": []}, "expected an object with 'qid'"),
        ({"qid": "a", "nuggets": {}}, "'nuggets' must be a list"),
        ({"qid": "a", "nuggets": [{"text": "x", "importance": "vital"}]}, "nugget 1 needs an 'assignment'"),
        (
            {"qid": "a", "nuggets": [{"text": "x", "importance": 3, "assignment": "support"}]},
            "'importance' must be text",
        ),
    ],
)
def test_bad_records_name_the_record_and_nugget(record: dict[str, Any], words: str) -> None:
    with pytest.raises(InputError, match=words) as caught:
        nugget_metrics([{"qid": "ok", "nuggets": []}, record])
    assert str(caught.value).startswith("record 2")


def test_bad_file_lines_name_the_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    source = tmp_path / "assign.jsonl"
    source.write_text('{"qid": "a", "nuggets": []}\n{not json\n', encoding="utf-8")
    with pytest.raises(FileFormatError, match=r"assign.jsonl:2: not JSON"):
        read_assignments(source)
    source.write_text('{"qid": "a", "nuggets": [{"text": "x"}]}\n', encoding="utf-8")
    assert main(["nuggets", "metrics", str(source)]) == 2
    assert "assign.jsonl:1 (qid 'a'): nugget 1 needs an 'assignment'" in capsys.readouterr().err
    empty = tmp_path / "empty.jsonl"
    empty.write_text("\n", encoding="utf-8")
    with pytest.raises(InputError, match="no assignment records"):
        nugget_metrics([])
    assert main(["nuggets", "metrics", str(empty)]) == 2
