"""Measure names are read whatever their case (``recall@10`` as ``ndcg@10``), and a misspelt one gets the
closest name instead of the list of every name."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from ragrecall import ConfigurationError, parse_measure


@pytest.mark.parametrize(
    ("text", "canonical"),
    [("recall@10", "Recall@10"), ("RECALL@10", "Recall@10"), ("ndcg@10", "nDCG@10"), ("Ndcg@5", "nDCG@5"),
     ("mrr", "RR"), ("ap", "AP"), ("success@3", "Success@3")],
)  # fmt: skip
def test_names_are_read_whatever_their_case(text: str, canonical: str) -> None:
    assert str(parse_measure(text)) == canonical


@pytest.mark.parametrize(("text", "suggested"), [("mapp", "map"), ("ndgc@10", "ndcg"), ("recal@5", "recall")])
def test_a_misspelt_name_gets_the_closest(text: str, suggested: str) -> None:
    with pytest.raises(ConfigurationError) as caught:
        parse_measure(text)
    assert str(caught.value).endswith(f"; did you mean {suggested!r}?")
    assert "known measures" not in str(caught.value)


def test_an_unknown_command_gets_the_closest() -> None:
    script = Path(sys.executable).with_name("ragrecall")
    if not script.exists():
        pytest.skip("the console script is not installed")
    done = subprocess.run([str(script), "evl", "x.jsonl"], capture_output=True, text=True, timeout=60)
    assert done.returncode == 2
    assert done.stderr.strip().splitlines()[-1] == "ragrecall: error: unknown command 'evl'; did you mean 'eval'?"
