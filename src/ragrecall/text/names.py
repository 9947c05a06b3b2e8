"""The names a claim is about, which its evidence must name too: capitalised name sequences (``Marie Curie``,
``University of Lyon``), names written with digits (``AX3000``) and, in Chinese, the term a claim opens with
before its predicate (``张三`` in ``张三出生于1980年``).

A capitalised word that opens the claim is a name only with another capitalised word after it (``Marie
Curie was …``) or when the caller finds it written nowhere in lower case (``Einstein was …``, not ``Bananas
are …``): :attr:`Name.initial` marks it for that test; an opening adverb or participle (``Afterwards``,
``Buying``) is no name. A Chinese claim opening with a pronoun (它, 他, 她) names no subject.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from functools import lru_cache

from .anaphora import words_of
from .dates import MONTHS
from .numbers import names_in
from .segment import CJK_RANGES, has_cjk
from .terms import STOPWORDS, spelling

__all__ = ["Name", "claim_names", "fold_word", "folded_words"]

# Letters and digits, joined by an apostrophe, a point or a hyphen between two of them (O'Brien, U.S, Jean-Luc).
_WORD = re.compile(f"[^\\W_{CJK_RANGES}]+(?:['’.\\-][^\\W_{CJK_RANGES}]+)*")
# Words that open a sentence without naming anything: adverbs, gerunds and participles ("Afterwards", "Buying").
_NOT_A_NAME = re.compile(r"(?i).+(?:ing|ly|wards|ed)$")
_PRONOUNS = tuple(w for w in words_of("pronoun", "first person") if not w.isascii())
# 有人…, 有专家认为…, 没有史料…: "some people", "there are experts who", "no record": what exists, which is no name
# (a name may start with 有 or 无: 有色金属研究院, 无锡大剧院).
# 当地年均…, 当时…: "locally", "at the time" point at a place or time named elsewhere, and name nothing.
_DEICTIC = ("当地", "本地", "此地", "当时", "那时", "该地")
_EXISTENTIAL = tuple(
    lead + what
    for lead in ("有", "没有", "沒有")
    for what in [
        "人",
        "些",
        "专家",
        "学者",
        "记录",
        "报道",
        "消息",
        "资料",
        "研究",
        "评论",
        "网友",
        "媒体",
        "观点",
        "说法",
        "数据",
        "证据",
        "史料",
        "文献",
        "据可查",
        "关",
    ]
)
# Function words that open a sentence capitalised and name nothing ("Since 1988 …", "During the war …").
_OPENERS = frozenset(
    [
        "since",
        "although",
        "though",
        "during",
        "after",
        "before",
        "when",
        "while",
        "because",
        "despite",
        "in",
        "on",
        "at",
        "from",
        "with",
        "without",
        "about",
        "as",
        "by",
        "for",
        "every",
        "each",
        "many",
        "most",
        "some",
        "all",
        "both",
        "either",
        "neither",
        "once",
        "until",
        "unless",
        "whereas",
        "whether",
        "here",
        "there",
        "this",
        "these",
        "those",
        "that",
        "its",
        "their",
        "his",
        "her",
        "our",
        "your",
        "my",
        "around",
        "about",
        "less",
        "more",
        "fewer",
        "nearly",
        "almost",
        "over",
        "under",
        "roughly",
        "approximately",
        "only",
        "just",
        "some",
    ]
)
_NO_NAME_OPENERS = STOPWORDS | _OPENERS
_CJK_LEAD = re.compile(
    r"^(?:\d+(?:[.,]\d+)?\s*[年月日号號]?|[，,、\s]|在|于|於|如果|假如|倘若|若是|若|要是|据传|据说|据称|相传|可能"
    r"|按照|依照|根据|根據|依据|依據|关于|關於|对于|對於|正在|每天|每年|每月|据|从|從|自从|自從|同期|同一时期)+"
)
_NOUNS_OF_A_MEASURE_WORD = frozenset(
    ["条例", "条约", "条款", "项目", "部门", "部队", "家族", "家庭", "名单", "名称", "位置", "台风", "座位", "张力"]
)
_CJK_HEAD = re.compile(
    "大学|学院|公司|集团|协会|联盟|俱乐部|博物馆|美术馆|图书馆|医院|铁路|天文台|航空|工厂|剧院|乐团|银行|"
    "[线桥站港湖河江山峰岛镇村市省县馆厂队号社寺塔]"
)
_TITLE = re.compile(r"《([^》]{2,30})》")
_CALENDAR = frozenset(MONTHS) | frozenset(
    ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"]
)
_MEASURE_WORDS = "个個座艘条條位名所家部本件只隻台辆輛间間张張棵栋棟项項次届屆"
_CONNECTORS = frozenset(
    {"of", "de", "du", "des", "la", "le", "van", "von", "der", "den", "di", "da", "del", "y", "and"}
)
_CJK_SUBJECT = re.compile(f"^[{CJK_RANGES}]+")
# Where a Chinese claim's subject ends: the first predicate or function word after it.
_CJK_PREDICATE = re.compile(
    "认为|認為|没有|沒有|没|沒|未|不|现在|現在|现为|現為|现有|現有|目前|如今|之后|之後|反对|反對|支持|位于|位於|出生|成立|建于|建於|建成|获得|獲得|发明|發明|创立|創立|创建|創建|成为|成為|拥有|擁有|包括|开放|開放|开始|開始|创作|創作|收购|收購|担任|擔任|发行|發行|举办|舉辦"
    "|超过|超過|首次|共有|曾经|曾經|已经|已經|是|为|為|在|于|於|有|的|将|將|把|被|曾|已|和|与|與|也|都|共|约|約|由|从|從"
    "|到|向|对|對|比|因|以|用|自|获|獲|达|達|占|佔|高|长|長|重|宽|寬|深|每|最|更|很|还|還|就|才|又|再|会|會|可|能|只"
)


@dataclass(frozen=True)
class Name:
    """A name of a claim: its words, folded (case, width, possessive ``'s``), as they must appear."""

    text: str
    """As the claim writes it."""
    words: tuple[str, ...]
    """Folded words (for a Chinese term: the term itself, folded)."""
    initial: bool = False
    """A single capitalised word opening the claim: a name only if the evidence's passage never writes it in
    lower case."""
    cjk: bool = False
    """A Chinese term, matched as a substring rather than as words."""


@lru_cache(maxsize=4096)
def claim_names(claim: str) -> tuple[Name, ...]:
    """The names of ``claim`` (see the module docstring), in order of appearance, without repeats."""
    norm = unicodedata.normalize("NFKC", claim).strip()
    names: list[Name] = []
    words = list(_WORD.finditer(norm))
    run: list[re.Match[str]] = []

    first_start = words[0].start() if words else 0

    def close() -> None:
        while run and run[-1].group().lower() in _CONNECTORS:
            run.pop()
        if run:
            first_is_start = run[0].start() == first_start
            kept = [m for m in run if m.group().lower() not in _CONNECTORS]
            if first_is_start and kept[0].group().lower() in _NO_NAME_OPENERS:
                kept = kept[1:]
            if kept and first_is_start and len(kept) == 1 and kept[0] is run[0] and _NOT_A_NAME.match(kept[0].group()):
                kept = []
            if kept:
                initial = first_is_start and len(kept) == 1 and kept[0] is run[0]
                text = norm[kept[0].start() : kept[-1].end()]
                names.append(Name(text, tuple(fold_word(m.group()) for m in kept), initial=initial))
        run.clear()

    for m in words:
        word = m.group()
        if word.lower().rstrip(".") in _CALENDAR:
            close()  # "April", "Monday": a date, not a name
            continue
        if (
            (word[0].isupper() and not word.isupper())
            or (word.isupper() and len(word) > 1 and word.isalpha())
            or (run and word.lower() in _CONNECTORS and word.islower())
        ):
            run.append(m)
        else:
            close()
    close()
    names += [Name(name, (name,)) for name in sorted(names_in(norm)) if not has_cjk(name)]
    titles = [Name(title, (title,), cjk=True) for title in _TITLE.findall(norm)]  # 《农村合作社促进法》
    # A claim led in by a date, a place or a source (2020年…, 在…, 据称…) is read as naming no subject: what
    # follows a lead-in is as often an adverbial (每年夏天, 被收购后, 之前) as a name.
    subject = None if _CJK_LEAD.match(norm) else _CJK_SUBJECT.match(norm)
    if subject and not subject.group().startswith(_PRONOUNS + _EXISTENTIAL + _DEICTIC):
        cut = _CJK_PREDICATE.search(subject.group(), 2)  # a subject has two characters at least: 长城 is no 长
        term = subject.group()[: cut.start() if cut else None]
        if term[:1] in "该這这那此本其":  # 这艘拖轮: the demonstrative and its measure word name nothing
            term = term.lstrip("该這这那此本其")
            # 该条例: a measure word that opens a noun (条例, 项目) stays
            term = term if term[:2] in _NOUNS_OF_A_MEASURE_WORD else term.lstrip(_MEASURE_WORDS)
        if len(term) > 8:  # a long run: the name ends at its first head noun (苇檀线, 洛文霍尔特大学)
            head = _CJK_HEAD.search(term[:9])
            term = term[: head.end()] if head else term
        if 2 <= len(term) <= 8:
            names.append(Name(term, (term,), cjk=True))  # before the titles: it opens the claim
    names += titles
    unique: dict[tuple[str, ...], Name] = {}
    for name in names:
        unique.setdefault(name.words, name)
    return tuple(unique.values())


def fold_word(word: str) -> str:
    """A word as names are compared: NFKC, case folded, without a possessive ``'s``."""
    folded = unicodedata.normalize("NFKC", word).casefold()
    for suffix in ("'s", "’s"):
        if folded.endswith(suffix):
            folded = folded[: -len(suffix)]
            break
    return spelling(folded)


@lru_cache(maxsize=4096)
def folded_words(text: str) -> frozenset[str]:
    """The words of ``text`` folded as :func:`fold_word` does, for looking names up."""
    return frozenset(fold_word(m.group()) for m in _WORD.finditer(unicodedata.normalize("NFKC", text)))
