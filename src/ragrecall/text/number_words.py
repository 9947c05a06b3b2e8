"""Numbers spelled in words, English and Chinese, read as the canonical numbers their digit forms give.

English: ``zero`` to ``nineteen``, the tens, ``hundred``, ``thousand``, ``million``, ``billion``, ``trillion``
and their compounds (``twenty-three``, ``three hundred and five``, ``two thousand five hundred``), ``a hundred``,
``a thousand``, ``a million``, ``a billion``, and ``a dozen`` (12). Plurals standing alone (``hundreds of``,
``dozens``) are no number. ``one`` is read as a number except where it is a pronoun: ``one of``, ``one
another``, ``no one``, ``the one``, ``each one``, ``one can`` (and the other modal verbs), and where no
content word follows it (``she won one in 1911``). A number word
joined by a hyphen to another word (``twenty-first``, ``one-sided``) is no number.

Chinese: runs of the numerals 〇零一二两三四五六七八九十百千万亿 (and their financial forms 壹贰叁肆伍陆柒捌玖拾佰仟)
with positional values (``三千五百`` 3500, ``十五`` 15, ``两万`` 20000, ``一百零五`` 105) or written digit by
digit (``二〇一九年`` 2019). A run is read only where it is plainly a quantity, since these characters also
write words (一起 "together", 一直 "always", 十分 "very", 千万 "by all means", 万一 "in case", 统一 "unify"):
when it holds a numeral and a positional character (and does not start with 百, 千, 万 or 亿), when a
measure word or unit follows it (个, 名, 人, 年, 座, 公里, …), or when 第 ("the n-th") or 百分之 ("per
cent") stands before it. A decimal is read whole (``二点五`` 2.5), and a 千 before 升, 米, 克, … after another
positional character is the unit's prefix (``五千千升`` 5,000 kilolitres).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from decimal import Decimal

from .letters import letter_runs
from .terms import STOPWORDS

__all__ = ["WordNumber", "chinese_numbers", "english_numbers", "measure_word_at", "parse_chinese"]


@dataclass(frozen=True)
class WordNumber:
    """A number written in words: its value (canonical, as :func:`~ragrecall.text.numbers.canonical_number`
    writes it) and its span in the text read."""

    value: str
    start: int
    end: int


_ONES = {
    "zero": 0, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8, "nine": 9,
    "ten": 10, "eleven": 11, "twelve": 12, "thirteen": 13, "fourteen": 14, "fifteen": 15, "sixteen": 16,
    "seventeen": 17, "eighteen": 18, "nineteen": 19,
}  # fmt: skip
_TENS = {"twenty": 20, "thirty": 30, "forty": 40, "fifty": 50, "sixty": 60, "seventy": 70, "eighty": 80, "ninety": 90}
_SCALES = {"hundred": 100, "thousand": 10**3, "million": 10**6, "billion": 10**9, "trillion": 10**12}
_WORD = "|".join(sorted([*_ONES, *_TENS, *_SCALES], key=len, reverse=True))
_ENGLISH_PATTERN = (
    rf"\b(?:(?P<dozen>an?\s+dozen|dozen)|(?P<a>an?\s+)?(?P<words>(?:{_WORD})(?:(?:\s*-\s*|\s+(?:and\s+)?)(?:{_WORD}))*))"
    r"\b(?!\s*-\s*(?:first|second|third|fourth|fifth|sixth|seventh|eighth|ninth|tenth|fold|sided|off|way|time|hundredth|thousandth)\b)(?!s\b)"
)
_ENGLISH = re.compile(_ENGLISH_PATTERN, re.IGNORECASE)
# The same on lower-cased ASCII text (the same length, so the same spans), a few times faster: a case-blind
# pattern compares every character both ways, and the lookahead skips positions no number word starts at.
_ENGLISH_WORDS = frozenset(w.encode("ascii") for w in (*_ONES, *_TENS, *_SCALES, "dozen"))
_FIRST_LETTERS = "".join(sorted({w[0] for w in (*_ONES, *_TENS, *_SCALES, "a", "an", "dozen")}))
_ENGLISH_LOWER = re.compile(f"(?=[{_FIRST_LETTERS}])" + _ENGLISH_PATTERN)
_PRONOUN_BEFORE = re.compile(r"\b(?:no|any|every|each|the|this|that|which|some|such|only|anyone|someone)\s+$", re.I)
_PRONOUN_AFTER = re.compile(
    r"^\s+(?:of|another|anyway|can|could|may|might|must|should|would|will|cannot|who|which|that|day)\b", re.I
)

_NEXT_WORD = re.compile(r"[ \t]+([^\W\d_]+)")

_CN_DIGITS = {
    "〇": 0, "零": 0, "一": 1, "壹": 1, "二": 2, "贰": 2, "两": 2, "兩": 2, "三": 3, "叁": 3, "四": 4, "肆": 4,
    "五": 5, "伍": 5, "六": 6, "陆": 6, "陸": 6, "七": 7, "柒": 7, "八": 8, "捌": 8, "九": 9, "玖": 9,
}  # fmt: skip
_CN_SMALL = {"十": 10, "拾": 10, "百": 100, "佰": 100, "千": 1000, "仟": 1000}
_CN_LARGE = {"万": 10**4, "萬": 10**4, "亿": 10**8, "億": 10**8}
_CN_RUN = re.compile(f"[{''.join(_CN_DIGITS)}{''.join(_CN_SMALL)}{''.join(_CN_LARGE)}]+")
# What may follow a numeral run for it to be a quantity: measure words and units (a selection of the common ones).
_CN_MEASURE = re.compile(
    "个|個|名|位|人|座|口|块|塊|颗|顆|枚|把|套|双|雙|对|對|根|道|棵|家|户|戶|盏|盞|幅|封|栋|棟|家|种|種|条|條|本|台|辆|輛|次|年|月|日|天|岁|歲|周|週|小时|小時|分钟|分鐘|秒|倍|层|層|所|件|项|項"
    "|只|头|頭|匹|架|艘|部|篇|首|场|場|届|屆|支|批|株|棵|间|間|张|張|片|份|公里|千米|米|厘米|毫米|公斤|千克|克|吨|噸"
    "|英里|英尺|元|美元|欧元|英镑|港元|度|亩|畝|平方|立方|所|座|国|國|省|州|城|门|門|节|節|点|點|季|期|代|世纪|世紀"
    "|处|處|区|區|县|縣|镇|鎮|乡|鄉|臺|村|队|隊|组|組|类|類|轮|輪|盘|盤|票"
)
_CN_SCORE = re.compile("比[〇零一二两三四五六七八九十]")
_CN_SCORE_AFTER = re.compile("[〇零一二两三四五六七八九十]比$")
# The fraction of a decimal written in numerals: 二点五 (2.5), but not 三点五十分 (ten to four).
_CN_DECIMAL = re.compile("[点點]([〇零一二三四五六七八九]+)(?![十拾百佰千仟分刻])")
# Units with the prefix 千 ("kilo"): in 五千千升 the second 千 belongs to the unit.
_CN_KILO_UNIT = "升米克瓦伏帕卡"
_CN_NOT_NUMBER = re.compile(
    "十分(?!钟|鐘)|万一|千万(?![个個名人元])|一一|一些|一直|一起|一样|一樣|一般|一切|一定|一旦|一致|一共|一同|一道|一向|一律"
    "|一度|一再|一带|一帶|一点(?![〇零一二三四五六七八九])|一點(?![〇零一二三四五六七八九])|一下|一面|一边|一邊|一时|一時|统一|統一|唯一|之一|万分|同一|单一|某一|其一|任一|第一时间"
)


_PARTS = {"half": 0.5, "quarter": 0.25, "third": 1 / 3}
_COUNTS = {"a": 1, "one": 1, "two": 2, "three": 3}
_MAY_BE_FRACTIONAL = re.compile(r"half|dozen|quarter|third", re.IGNORECASE)
_SCALE_WORD = r"(hundred|thousand|million|billion|trillion|dozen)"
_FRACTIONAL = re.compile(
    rf"\b(?:(half)|(?:a|one|two|three)\s+(quarters?|thirds?)(?:\s+of)?)\s+an?\s+{_SCALE_WORD}\b"
    rf"|\b({_WORD}|\d+)\s+and\s+a\s+half(?:\s+{_SCALE_WORD})?\b"
    rf"|\b({'|'.join(_ONES)}|\d+)\s+dozen\b",
    re.IGNORECASE,
)
_UNIT_OF = {"hundred": 100, "thousand": 10**3, "million": 10**6, "billion": 10**9, "trillion": 10**12, "dozen": 12}


def _fractional(text: str) -> list[WordNumber]:
    """ "half a million" (500000), "a quarter of a million", "one and a half (million)", "two dozen"."""
    found = []
    for m in _FRACTIONAL.finditer(text):
        if m.group(1) or m.group(2):
            part = (m.group(1) or m.group(2)).lower()
            count = _COUNTS[m.group().split()[0].lower()] if m.group(2) else 1
            value: float = round(count * _PARTS[part.rstrip("s")] * _UNIT_OF[m.group(3).lower()])
        elif m.group(4):
            whole = int(m.group(4)) if m.group(4).isdigit() else _english_value([m.group(4).lower()], leading_a=False)
            if whole is None:
                continue
            value = (whole + 0.5) * (_UNIT_OF[m.group(5).lower()] if m.group(5) else 1)
        else:
            count = int(m.group(6)) if m.group(6).isdigit() else _ONES[m.group(6).lower()]
            value = count * 12
        shown = str(int(value)) if float(value).is_integer() else str(value)
        found.append(WordNumber(shown, m.start(), m.end()))
    return found


def english_numbers(text: str) -> list[WordNumber]:
    """The numbers written in English words in ``text`` (see the module docstring), in order."""
    found: list[WordNumber] = []
    if text.isascii():
        # A number word is found whole, so it is a run of letters of the text: none among them, no number.
        if _ENGLISH_WORDS.isdisjoint(letter_runs(text)):
            return found
        matches = _ENGLISH_LOWER.finditer(text.lower())
    else:
        matches = _ENGLISH.finditer(text)
    taken = _fractional(text) if _MAY_BE_FRACTIONAL.search(text) else []
    found += taken
    for m in matches:
        if any(t.start < m.end() and m.start() < t.end for t in taken):
            continue
        if (
            m.group("words")
            and m.group("words").lower() == "zero"
            and text[max(0, m.start() - 6) : m.start()].lower().strip() in ("below", "above")
        ):
            continue  # "below zero" signs the number before it
        if m.group("dozen"):
            found.append(WordNumber("12", m.start(), m.end()))
            continue
        words = re.split(r"[\s-]+", m.group("words").lower())
        words = [w for w in words if w != "and"]
        if (
            words == ["one"]
            and not m.group("a")
            and (_pronoun(text, m.start(), m.end()) or text[m.end() : m.end() + 1] == "-")
        ):
            continue
        if m.group("a") and words[0] not in _SCALES:
            if text[m.end() : m.end() + 1] != "-":
                continue  # "a three …" is not a number phrase
            start = m.start("words")  # "a twelve-arch bridge": the article is the bridge's
            value = _english_value(words, leading_a=False)
            if value is not None:
                found.append(WordNumber(str(value), start, m.end()))
            continue
        value = _english_value(words, leading_a=bool(m.group("a")))
        if value is not None:
            found.append(WordNumber(str(value), m.start(), m.end()))
    return sorted(found, key=lambda w: w.start)


def _pronoun(text: str, start: int, end: int) -> bool:
    """True when a lone ``one`` stands for a thing rather than counting one: after a determiner, before "of"
    or a modal verb, or not followed by a content word ("she won one in 1911")."""
    if _PRONOUN_BEFORE.search(text[max(0, start - 12) : start]) or _PRONOUN_AFTER.match(text[end : end + 12]):
        return True
    following = _NEXT_WORD.match(text, end)
    return following is None or following.group(1).lower() in STOPWORDS


def _english_value(words: list[str], *, leading_a: bool) -> int | None:
    """The value of a run of English number words, or None when the run does not read as one number."""
    total, current, seen = 0, 1 if leading_a else 0, leading_a
    for word in words:
        if word in _ONES:
            current += _ONES[word]
        elif word in _TENS:
            current += _TENS[word]
        elif word == "hundred":
            current = (current or 1) * 100
        else:
            total += (current or 1) * _SCALES[word]
            current = 0
        seen = True
    return total + current if seen else None


def measure_word_at(text: str, at: int) -> bool:
    """Whether a Chinese measure word or unit (个, 名, 辆, 公里, …) starts at offset ``at`` of ``text``."""
    return _CN_MEASURE.match(text, at) is not None


def chinese_numbers(text: str) -> list[WordNumber]:
    """The numbers written in Chinese numerals in ``text`` where they are plainly quantities (see the module
    docstring), in order. A run right after digits (``3万``) is a scale word of that number, not read here."""
    blocked = [(m.start(), m.end()) for m in _CN_NOT_NUMBER.finditer(text)]
    found: list[WordNumber] = []
    for m in _CN_RUN.finditer(text):
        start, end, run = m.start(), m.end(), m.group()
        if found and start < found[-1].end:
            continue  # the fraction of a decimal read with its whole part
        if start and (text[start - 1].isdigit() or text[start - 1] == "."):
            continue
        if any(b_start <= start < b_end for b_start, b_end in blocked):
            continue
        positional = any(c in _CN_SMALL or c in _CN_LARGE for c in run)
        has_digit = any(c in _CN_DIGITS for c in run)
        # 百余间, 一百多间: an approximation between the number and its measure word
        approx = 1 if text[end : end + 1] and text[end] in "余多来" else 0
        measured = _CN_MEASURE.match(text, end + approx) is not None or text[end : end + 1] == "成"
        # 二比三: a score in words, both its sides
        score = _CN_SCORE.match(text, end) is not None or _CN_SCORE_AFTER.search(text, 0, start) is not None
        measured = measured or score
        marked = text[max(0, start - 1) : start] == "第" or text[max(0, start - 3) : start] == "百分之"
        plain = positional and has_digit and run[0] not in "百佰千仟万萬亿億"
        if not (plain or measured or marked or run == "十"):
            continue
        if text[end : end + 1] == "成" and len(run) == 1 and run in _CN_DIGITS:
            found.append(WordNumber(str(_CN_DIGITS[run] * 10), start, end + 1))  # 八成: 80 per cent
            continue
        if run in ("千", "仟") and text[end : end + 1] in _CN_KILO_UNIT:
            continue  # 平方千米, 千克: the prefix "kilo", no number
        if run == "一" and not _CN_DECIMAL.match(text, end) and not score:
            continue  # 一座, 一个, 第一: an article or "first", not a count to check
        kilo = len(run) > 1 and run[-2] in "十拾百佰千仟万萬亿億" and text[end : end + 1] in _CN_KILO_UNIT
        if run.endswith(("千", "仟")) and kilo:
            run, end = run[:-1], end - 1
        value = parse_chinese(run)
        scaled = _CN_LARGE.get(text[end + 1 : end + 2]) if approx else None
        if value is not None and value.isdigit() and scaled:  # 五十多亿, 十来万: the scale after the 多 is its own
            value, end = str(int(value) * scaled), end + 2
        decimal = _CN_DECIMAL.match(text, end)
        if value is not None and value.isdigit() and decimal:
            value = f"{value}.{''.join(str(_CN_DIGITS[c]) for c in decimal.group(1))}".rstrip("0").rstrip(".")
            end = decimal.end()
            scale = _CN_LARGE.get(text[end : end + 1])
            if scale:  # 三点五万: 35,000
                whole = Decimal(value) * scale
                value, end = format(whole.quantize(Decimal(1)) if whole == whole.to_integral() else whole, "f"), end + 1
        if value is not None:
            found.append(WordNumber(value, start, end))
    return found


def parse_chinese(run: str) -> str | None:
    """The canonical value of a run of Chinese numerals (positional, or digit by digit as in 二〇一九), or None
    when the run does not read as one number."""
    if not any(c in _CN_SMALL or c in _CN_LARGE for c in run):
        return str(int("".join(str(_CN_DIGITS[c]) for c in run)))
    yi = wan = section = 0
    digit: int | None = None
    for c in run:
        if c in _CN_DIGITS:
            if digit is not None and _CN_DIGITS[c] != 0:
                return None  # two digits in a row inside a positional number: 三四百 is "three or four hundred"
            digit = _CN_DIGITS[c] or None
        elif c in _CN_SMALL:
            section += (digit if digit is not None else 1) * _CN_SMALL[c]
            digit = None
        elif _CN_LARGE[c] == 10**4:
            wan = (section + (digit or 0) or 1) * 10**4
            section, digit = 0, None
        else:
            yi = (yi + wan + section + (digit or 0) or 1) * 10**8
            wan, section, digit = 0, 0, None
    return str(yi + wan + section + (digit or 0))
