"""Cue classes, English and Chinese: the words that say *how* a sentence asserts what it holds.

The cues are data (``data/cues.en.txt``, ``data/cues.zh.txt``), one section per class:

- *frames* — ``modality`` (may, planned, nearly won; 可能, 计划, 险些), ``conditional`` (if, unless; 如果,
  除非), ``attribution`` (claimed, according to legend, his rival said; 声称, 据传), ``fiction`` (in the
  novel; 小说中) and ``question`` (whether; 是否): a sentence in such a frame does not assert what it holds;
- *values* — ``comparative`` (larger/smaller; 大于/小于), ``temporal`` (before/after; 之前/之后),
  ``direction`` (north of/south of), ``quantifier`` (all/most/some; 全部/大多/部分), ``bound`` (at least,
  up to, about, exactly; 至少, 不足, 约; read next to a number), ``fraction`` (half, tripled; 一半, 翻两番),
  ``status`` (is the/served as; 现任/曾任), ``membership`` (sole/one of; 唯一/之一), ``outcome``
  (won/shortlisted; 获得/入围), ``contrast`` (one-word swaps: red/blue, rose/fell, north/south; 红色/蓝色);
- ``synonym``: words that say the same thing (died/passed away; 去世/逝世), for reading a predicate.

:func:`cues_in` finds them in a text: English cues as whole words (case ignored, a space matching any run of
spaces; a capitalised cue inside a sentence is a name: "May", "Rose", "Will"), Chinese cues anywhere, the
longest cue first where two overlap; words that write a cue but are none (若干, "above all", "would later")
are taken out first. The text is read folded (NFKC, Traditional Chinese as Simplified) with its length kept,
so a cue's span is a span of the text given whenever folding keeps its length (as it does for Chinese).
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from functools import lru_cache

from .chinese import simplified
from .datafile import sections
from .segment import has_cjk

__all__ = ["FRAMES", "Cue", "cues_in", "plain", "pole", "verb_of"]

FRAMES = ("modality", "conditional", "attribution", "fiction", "question")
"""The frame classes: a sentence in one of these frames does not assert what it holds."""
_SOURCE, _SAYING = "attribution source", "attribution verb"
_NUMBER_AFTER = re.compile(
    r"\W{0,3}(?:[$€£¥]\s?)?\d|\s?[〇零一二两三四五六七八九十百千万]"
    r"|\s+(?:all|every|everyone|half|twice|double|entirely|completely|always|a\s+(?:quarter|third|dozen)|one|two|three"
    r"|four|five|six|seven|eight|nine|ten|twenty|thirty|forty|fifty|a\s+hundred|a\s+thousand|hundreds|thousands)\b",
    re.IGNORECASE,
)


@dataclass(frozen=True)
class Cue:
    """A cue found in a text: its class, its value (the class's name for a frame), and where it is."""

    cls: str
    value: str
    start: int
    end: int
    text: str


@dataclass(frozen=True)
class _Entry:
    cls: str
    value: str
    before_number: bool = True
    """False for a cue that is no cue of this class where a number follows it (``nearly !number``)."""


def _load() -> tuple[dict[str, list[_Entry]], list[str]]:
    table: dict[str, list[_Entry]] = {}
    excluded: list[str] = []
    for name in ("cues.en.txt", "cues.zh.txt"):
        for section, lines in sections(name).items():
            if section == "not a cue":
                excluded += [line.casefold() for line in lines]
                continue
            for line in lines:
                cue, _, value = line.partition(" = ")
                before_number = not cue.endswith(" !number")
                cue = cue.removesuffix(" !number").strip().casefold()
                for v in (value.split() or [section]) if section in ("bound",) else [value.strip() or section]:
                    table.setdefault(cue, []).append(_Entry(section, v, before_number))
    return table, excluded


_TABLE, _EXCLUDED = _load()


_MAX_WORDS = max(len(c.split()) for c in _TABLE if c.isascii())
_LATIN_CUES = {tuple(c.split()): c for c in _TABLE if c.isascii()}
_LATIN_EXCLUDED = {tuple(c.split()) for c in _EXCLUDED if c.isascii()}
_LATIN_WORD = re.compile(r"[^\W\d_]+(?:['’-][^\W\d_]+)*")
_CJK_CUES = re.compile("|".join(map(re.escape, sorted((c for c in _TABLE if not c.isascii()), key=len, reverse=True))))
_CJK_EXCLUDED = re.compile(
    "|".join(map(re.escape, sorted((c for c in _EXCLUDED if not c.isascii()), key=len, reverse=True)))
)
_SENTENCE_START = re.compile(r"(?:^|[.!?;:\"“(]\s*)$")
_KINDS = "novel|novella|film|movie|opera|tale|comic|musical|poem|episode|drama|sitcom|series|play"
_EN_FICTION = re.compile(
    rf"\b(?i:in)\s+(?:(?i:the|a|an|his|her|their|its)|[A-Z][\w'’-]*(?:\s+[A-Z][\w'’-]*)?['’]s)\s+(?:\d{{4}}\s+)?"
    rf"(?:[a-z-]+\s+){{0,2}}?(?:{_KINDS})\b(?=\s*[,(]|\s+[A-Z\"“'‘])"
)
_ZH_FICTION = re.compile(
    r"(?:在)?(?:网络)?(?:小说|电影|影片|电视剧|话剧|戏剧|剧集|动画|漫画|游戏|童话|寓言)《[^》]{1,30}》(?:中|里)"
)
_ZH_ADJECTIVES = {
    "大": "size+", "小": "size-", "高": "height+", "低": "height-", "长": "length+", "短": "length-",
    "多": "amount+", "少": "amount-", "早": "time-", "晚": "time+", "老": "age+", "年轻": "age-", "宽": "width+",
    "窄": "width-", "深": "depth+", "浅": "depth-", "重": "weight+", "轻": "weight-", "快": "speed+", "慢": "speed-",
}  # fmt: skip
_ZH_COMPARE = re.compile(
    r"比[^，。；、,;]{1,15}?(?:更|还|要|略|稍|高出|多出)?("
    + "|".join(sorted(_ZH_ADJECTIVES, key=len, reverse=True))
    + ")"
)
# What may follow the adjective that closes a comparison: a number, a degree, 的, 了, 得, or no Chinese at all.
# An adjective followed by anything else may be inside a name (比跨海长堤…早四年, 比沧浪大剧院早三年).
_ZH_AFTER_COMPARISON = re.compile(
    r"[^\u4e00-\u9fff]|[〇零一二两三四五六七八九十百千万亿几半数多些了得的很许不出倍点近约达逾将]|$"
)


def pole(value: str) -> tuple[str, str, str] | None:
    """A polar cue's value ("size+", "time-", "height+1") as (dimension, sign, rank: "" for a comparison, the
    place for a superlative), or None for another value."""
    m = _POLE.match(value)
    return None if m is None else (m.group("group"), m.group("sign"), m.group("rank"))


_POLE = re.compile(r"^(?P<group>[a-z]+)(?P<sign>[+-])(?P<rank>\d*)$")


def verb_of(cue: Cue) -> str:
    """The verb a relation cue stands for: the one a role noun names ("trainer" = rel:trained), else its words,
    case folded."""
    return cue.value.partition(":")[2] or cue.text.casefold()


@lru_cache(maxsize=1 << 14)
def plain(text: str) -> str:
    """``text`` as cues are read in it: NFKC, Traditional Chinese as Simplified (the same length where NFKC
    keeps it)."""
    if text.isascii():
        return text
    return simplified(unicodedata.normalize("NFKC", text))


@lru_cache(maxsize=1 << 14)
def cues_in(text: str) -> tuple[Cue, ...]:
    """The cues of ``text`` in order (see the module docstring); a cue of several classes once per class."""
    norm = plain(text)
    found = [*_latin_cues(norm), *(_cjk_cues(norm) if has_cjk(norm) else ())]
    if "in " in norm.lower() and not any(c.cls == "fiction" for c in found):
        found += _fiction(norm)
    return tuple(sorted(found, key=lambda c: c.start)) if len(found) > 1 else tuple(found)


def _latin_cues(norm: str) -> list[Cue]:
    """English cues: at each word, the longest run of words (at most :data:`_MAX_WORDS`) that is a cue, or that
    is no cue (:data:`_LATIN_EXCLUDED`), words looked up in a table rather than searched for; a run inside a
    longer one found at an earlier word is dropped ("north" in "north of"), runs that only overlap are both
    kept ("was the" and "the only")."""
    words = [m for m in _LATIN_WORD.finditer(norm) if m.group().isascii()]
    keys = [m.group().lower() for m in words]
    runs: list[tuple[int, int, str | None, int]] = []  # (first word, word after the last, cue, head)
    for i in range(len(words)):
        for n in range(min(_MAX_WORDS, len(words) - i), 0, -1):
            run = tuple(keys[i : i + n])
            if run in _LATIN_EXCLUDED:
                runs.append((i, i + n, None, 0))
                break
            cue, head = _LATIN_CUES.get(run), 0
            if cue is None and n == 1 and "-" in run[0]:
                # ex-mayor; second-largest: the cue is the part after the hyphen, read with what is before it
                first_part, _, rest = run[0].partition("-")
                cue = "ex" if first_part == "ex" else _LATIN_CUES.get((rest,))
                head = 0 if first_part == "ex" else len(first_part) + 1
            if cue is not None:
                runs.append((i, i + n, cue, head))
                break
    found: list[Cue] = []
    reach = 0
    for i, j, cue, head in runs:
        if j <= reach:
            continue  # inside a longer run found at an earlier word
        reach = max(reach, j)
        if cue is None:
            continue
        first, last = words[i], words[j - 1]
        capitalised = first.group()[0].isupper() and not _SENTENCE_START.search(norm[: first.start()])
        if capitalised and not (_TABLE[cue][0].value.startswith("weekday:") and _alone(words, i, j)):
            continue  # a name inside a sentence: "in May 1921", "Rose Hill", "Will Carter" (not "on Tuesday")
        found += _entries(norm, cue, first.start() + head, last.end())
    return found


def _alone(words: list[re.Match[str]], i: int, j: int) -> bool:
    """Whether the words ``i`` to ``j`` stand outside a capitalised name: neither the word before nor the word
    after is capitalised ("on Tuesday", not "Sheffield Wednesday" or "Sunday Times")."""
    return not any(0 <= k < len(words) and words[k].group()[0].isupper() for k in (i - 1, j))


def _fiction(norm: str) -> list[Cue]:
    """ "In Edna Ruse's novel The Long Quay, …": a work of fiction named between "in" and its kind."""
    return [Cue("fiction", "fiction", m.start(), m.end(), m.group()) for m in _EN_FICTION.finditer(norm)]


# A title, or a name in quotation marks ending on a word that names a programme, a prize or a work (《攻杀要诀》,
# “青年学者计划”), writes no cue: 计划 in a programme's name is no plan. A quoted phrase (“可能推迟”) keeps its cues.
_CJK_NAMED = re.compile(
    r"《[^》]{1,30}》|“[^”。，,；;！？!?]{1,15}(?:计划|計劃|项目|項目|工程|行动|行動|奖|獎|杯|赛|賽|号|號)”"
)


def _cjk_cues(norm: str) -> list[Cue]:
    # A word that writes a cue but is none (小说 holds 说) is no cue, unless a longer cue opens with it (小说中).
    longer = {m.start(): m.end() for m in _CJK_CUES.finditer(norm)}
    cleaned = _CJK_EXCLUDED.sub(
        lambda m: m.group() if longer.get(m.start(), 0) > m.end() else " " * len(m.group()), norm
    )
    cleaned = _CJK_NAMED.sub(lambda m: " " * len(m.group()), cleaned)
    found = [
        c
        for m in _CJK_CUES.finditer(cleaned)
        # 若 (if), 万一 (in case) stand at the head of a clause, not inside a name or a number (殷若谷, 1万一千)
        if m.group() not in ("若", "万一") or not m.start() or not has_cjk(norm[m.start() - 1])
        for c in _entries(norm, m.group(), m.start(), m.end())
    ]
    # 甲比乙大: the comparison stands at 比, so that what is compared stays on its two sides.
    found += [
        Cue("comparative", _ZH_ADJECTIVES[adjective], m.start(), m.start() + 1, cleaned[m.start() : end])
        for m in _ZH_COMPARE.finditer(cleaned)
        for adjective, end in [_closing_adjective(cleaned, m)]
    ]
    found += [Cue("fiction", "fiction", m.start(), m.end(), m.group()) for m in _ZH_FICTION.finditer(norm)]
    return found


def _closing_adjective(text: str, found: re.Match[str]) -> tuple[str, int]:
    """The adjective that closes the comparison 比… opens: the first one within reach, not after 最, that a number,
    a degree or the end of the clause follows; else the first one (比…早建成一百多年)."""
    window = _ZH_COMPARE_REACH.match(text, found.start())
    reach = window.end() if window else found.end()
    for m in _ZH_ADJECTIVE.finditer(text, found.start(1), reach):
        if text[m.start() - 1] == "最":
            continue  # 比省内最大的湖泊苍渊海小: a superlative names what is compared
        if _ZH_AFTER_COMPARISON.match(text, m.end()):
            return m.group(), m.end()
    return found.group(1), found.end()


_ZH_ADJECTIVE = re.compile("|".join(sorted(_ZH_ADJECTIVES, key=len, reverse=True)))
_ZH_COMPARE_REACH = re.compile(r"比[^，。；、,;]{1,20}")


def _entries(norm: str, cue: str, start: int, end: int) -> list[Cue]:
    number_after = _NUMBER_AFTER.match(norm, end) is not None
    written = norm[start:end]
    return [Cue(e.cls, e.value, start, end, written) for e in _TABLE[cue] if e.before_number or not number_after]
