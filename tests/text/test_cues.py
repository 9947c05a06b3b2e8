"""Cue classes read from data, English and Chinese: frames, values, names not taken for cues."""

from __future__ import annotations

import pytest

from ragrecall.text.chinese import simplified
from ragrecall.text.cues import FRAMES, cues_in


def classes(text: str) -> set[tuple[str, str]]:
    return {(c.cls, c.value) for c in cues_in(text)}


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Critics claimed that the bridge was unsafe.", ("attribution", "attribution")),
        ("据传，该桥由罗马人建造。", ("attribution", "attribution")),
        ("The hall may have seated 500 people.", ("modality", "modality")),
        ("该馆可能建于1850年前后。", ("modality", "modality")),
        ("If the dam is raised, the reservoir will hold more.", ("conditional", "conditional")),
        ("如果大坝加高，水库库容将增加。", ("conditional", "conditional")),
        ("In the novel The Gale, the ship sinks.", ("fiction", "fiction")),
        ("在小说《北航》中，该船沉没。", ("fiction", "fiction")),
        ("Whether he wrote it remains an open question.", ("question", "question")),
        ("他是否写过此曲，至今尚无定论。", ("question", "question")),
    ],
)
def test_frames_in_both_languages(text: str, expected: tuple[str, str]) -> None:
    assert expected in classes(text)
    assert expected[0] in FRAMES


@pytest.mark.parametrize(
    ("text", "cls", "value"),
    [
        ("It is larger than the old hall.", "comparative", "size+"),
        ("甲湖比乙湖小。", "comparative", "size-"),
        ("the second-largest lake", "comparative", "size+1"),
        ("全省第二大水库", "comparative", "size+2"),
        ("All residents left.", "quantifier", "universal"),
        ("Nearly all residents left.", "quantifier", "majority"),
        ("大多数球队以城市命名。", "quantifier", "majority"),
        ("The population doubled.", "fraction", "x2"),
        ("人口翻了两番。", "fraction", "x4"),
        ("She was the sole founder.", "membership", "sole"),
        ("五位创办人之一", "membership", "among"),
        ("It was shortlisted for the prize.", "outcome", "candidate"),
        ("The door was painted blue.", "contrast", "colour:blue"),
        ("墙被刷成红色。", "contrast", "colour:red"),
        ("He served as mayor from 1990 to 1998.", "status", "ended"),
        ("孟清远曾任镇长。", "status", "ended"),
        ("built before the war", "temporal", "time-"),
        ("A defeated B.", "relation", "rel"),
        ("甲队击败乙队。", "relation", "rel"),
        ("A met B.", "relation", "sym"),
    ],
)
def test_values_in_both_languages(text: str, cls: str, value: str) -> None:
    assert (cls, value) in classes(text)


def test_a_capitalised_cue_inside_a_sentence_is_a_name() -> None:
    assert ("modality", "modality") not in classes("In May 1921 the hall opened.")
    assert ("modality", "modality") in classes("The hall may have opened in 1921.")
    assert not any(c.cls == "contrast" for c in cues_in("He lived on Rose Hill."))


def test_words_that_write_a_cue_but_are_none() -> None:
    assert not any(c.cls == "conditional" for c in cues_in("若干年后"))  # 若干: "several"
    assert not any(c.cls == "conditional" for c in cues_in("殷若谷于2009年逝世。"))  # 若 inside a name
    assert not any(c.cls == "modality" for c in cues_in("He would later become mayor."))  # narrative future
    assert ("bound", "upper") in classes("nearly 500 people") and ("modality", "modality") in classes("nearly won")


def test_a_longer_cue_wins_and_overlapping_ones_are_both_kept() -> None:
    found = classes("The town lies north of Harwick.")
    assert ("direction", "ns+") in found and not any(c == ("contrast", "compass:north") for c in found)
    assert {("status", "ended"), ("membership", "sole")} <= classes("In 1908 it was the only liner.")


def test_traditional_chinese_is_read_as_simplified_with_its_length() -> None:
    assert simplified("國家圖書館於1876年開放") == "国家图书馆于1876年开放"
    assert simplified("plain English") == "plain English"
    assert ("attribution", "attribution") in classes("據傳，該橋由羅馬人建造。")


@pytest.mark.parametrize(
    ("ours", "theirs"),
    [
        ("became part of", "joined"),
        ("shows", "depicts"),
        ("link", "connection"),
        ("ascents", "climbed"),
        ("a year", "annually"),
        ("valued at", "worth"),
    ],
)
def test_words_of_one_meaning_share_a_synonym_group(ours: str, theirs: str) -> None:
    groups = [{c.value for c in cues_in(f"It {w} the hall.") if c.cls == "synonym"} for w in (ours, theirs)]
    assert groups[0] and groups[0] == groups[1]
