"""Metrics named in text (the command line): ``context_recall(mode=single)``, ``id_based_context_recall@5``,
``non_llm_context_recall(threshold=0.8,scorer=partial)``, or any ranking measure such as ``nDCG@10``."""

from __future__ import annotations

import dataclasses
import difflib
import re
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from .errors import ConfigurationError

if TYPE_CHECKING:
    from .llm import LLM
    from .metrics import Metric

__all__ = [
    "ENTRY_POINTS",
    "METRIC_HELP",
    "MetricFactory",
    "needs_llm",
    "parse_metric",
    "register_metric",
    "resolve_metric_name",
    "unregister_metric",
]

METRIC_HELP = (
    "a metric: context_recall[(mode=claims|single,language=auto|en|zh,quote_threshold=0.9,"
    "unverified=unsupported|supported|fail,coverage=true,votes=1,judging=together|per_context,seed=0)], "
    "nugget_recall[(score=strict_vital|vital|strict_all|all|weighted,nuggetizer_compat=false,language=auto,"
    "quote_threshold=0.9,unverified=unsupported,votes=1,judging=together|per_context,seed=0)], "
    "id_based_context_recall[@K], "
    "non_llm_context_recall[(threshold=0.5,scorer=levenshtein,normalize=false,max_chars=100000)], or a ranking "
    "measure such as nDCG@10, Recall@100, AP, RR(rel=2) (repeatable)"
)

_SPEC = re.compile(r"^\s*(?P<name>[A-Za-z_]\w*)\s*(?:\((?P<args>[^()]*)\))?\s*(?:@\s*(?P<k>\d+))?\s*$")


@dataclasses.dataclass(frozen=True)
class MetricFactory:
    """How a metric named in text is built: ``build(**settings)`` (``build(llm, **settings)`` when it
    ``needs_llm``); a dataclass ``build`` has its settings checked by name first."""

    build: Callable[..., Metric] | str
    """The metric class or a function returning a metric; a string names a class of ``ragrecall.metrics``,
    imported on first use."""
    needs_llm: bool = False

    def resolve(self) -> Callable[..., Metric]:
        if isinstance(self.build, str):
            from . import metrics

            built: Callable[..., Metric] = getattr(metrics, self.build)
            return built
        return self.build


# Each metric ``-m`` knows, by the name that selects it: one line per metric. Ranking measures (``nDCG@10``) are
# read by the ranking parser when no name here matches.
_METRICS: dict[str, MetricFactory] = {
    "context_recall": MetricFactory("ContextRecall", needs_llm=True),
    "llm_context_recall": MetricFactory("ContextRecall", needs_llm=True),
    "id_based_context_recall": MetricFactory("IDBasedContextRecall"),
    "non_llm_context_recall": MetricFactory("NonLLMContextRecall"),
    "nugget_recall": MetricFactory("NuggetRecall", needs_llm=True),
}
_BUILT_IN = frozenset(_METRICS)


ENTRY_POINTS = "ragrecall.metrics"
"""The entry-point group through which an installed package adds metrics to ``-m``: each entry point's name is the
metric's, its object what :func:`register_metric` takes as ``build``; e.g. in the package's ``pyproject.toml``,
``[project.entry-points."ragrecall.metrics"]`` then ``word_recall = "mypkg.metrics:WordRecall"``."""


def register_metric(name: str, build: Callable[..., Metric], *, needs_llm: bool | None = None) -> None:
    """Let ``name`` select a metric in text (``ragrecall eval -m NAME(key=value)@k`` and :func:`parse_metric`):
    ``build(**settings)`` makes it, or ``build(llm, **settings)`` when it needs an LLM (by default: when
    ``build`` is a dataclass with an ``llm`` field). ``build`` is a metric class (a dataclass has its setting
    names checked, with a suggestion for a typo) or any function returning a metric. Its results then reach the
    summary, the report and the exports through its evidence's own rendering (see
    :class:`ragrecall.results.Evidence`). A package can do the same for the command line with an entry point
    (see :data:`ENTRY_POINTS`).

    Raises:
        ConfigurationError: ``name`` is not an identifier or is already taken.
    """
    if not name.isidentifier():
        raise ConfigurationError(f"metric name {name!r} is not an identifier (letters, digits and _)")
    if name in _METRICS:
        raise ConfigurationError(f"a metric named {name!r} is already registered")
    _METRICS[name] = MetricFactory(build, needs_llm=_takes_llm(build) if needs_llm is None else needs_llm)


def unregister_metric(name: str) -> None:
    """Forget a name :func:`register_metric` added (the built-in names stay).

    Raises:
        ConfigurationError: ``name`` is built in or was not registered.
    """
    if name in _BUILT_IN or name not in _METRICS:
        raise ConfigurationError(f"no registered metric named {name!r} to remove")
    del _METRICS[name]


def parse_metric(spec: str, *, llm: Callable[[], LLM] | None = None) -> Metric:
    """Build a metric from its name with optional ``(key=value, ...)`` settings and ``@k`` cutoff.

    ``llm`` is called (once per LLM metric) to get the model an LLM metric needs.

    Raises:
        ConfigurationError: unknown metric, malformed spec, bad settings, or an LLM metric without ``llm``.
    """
    match = _SPEC.match(spec)
    factory = _METRICS.get(match["name"]) if match else None
    if match is None or factory is None:
        try:
            return _ranking_metric(spec)
        except ConfigurationError:
            factory = _installed(match["name"]) if match else None
            if match is None or factory is None:
                raise
    name = match["name"]
    build = factory.resolve()
    kwargs = _settings(match["args"] or "", spec)
    if match["k"] is not None:
        kwargs["k"] = int(match["k"])
    _check_setting_names(name, build, kwargs, spec)
    try:
        # A metric named on the command line keeps its settings in its name, so that two specs never collide.
        if not factory.needs_llm:
            return build(**kwargs).named_by_settings()
        if llm is None:
            raise ConfigurationError(f"{name} needs an LLM: give --model (and --base-url) or --offline")
        return build(llm(), **kwargs).named_by_settings()
    except TypeError as exc:
        raise ConfigurationError(f"bad settings for {name}: {exc}") from exc


def needs_llm(spec: str) -> bool:
    """True when ``spec`` names an LLM metric."""
    match = _SPEC.match(spec)
    if match is None:
        return False
    factory = _METRICS.get(match["name"])
    if factory is None and not _is_measure(spec):
        factory = _installed(match["name"])
    return factory is not None and factory.needs_llm


def _takes_llm(build: Callable[..., Metric]) -> bool:
    """True when ``build`` is a dataclass whose first argument is its ``llm``."""
    if not dataclasses.is_dataclass(build):
        return False
    fields = [f for f in dataclasses.fields(build) if f.init]
    return bool(fields) and fields[0].name == "llm"


def _is_measure(spec: str) -> bool:
    from .ranking import parse_measure

    try:
        parse_measure(spec)
    except ConfigurationError:
        return False
    return True


def _installed(name: str) -> MetricFactory | None:
    """The metric an installed package adds under ``name`` through :data:`ENTRY_POINTS`, registered on first use;
    None when no package does."""
    from importlib.metadata import entry_points

    for point in entry_points(group=ENTRY_POINTS, name=name):
        try:
            build = point.load()
        except Exception as exc:  # a broken plugin is named, whatever it raised
            raise ConfigurationError(f"cannot load metric {name!r} from {point.value!r}: {exc}") from exc
        register_metric(name, build)
        return _METRICS[name]
    return None


def resolve_metric_name(text: str, metrics: Sequence[Metric]) -> str | None:
    """The name, among ``metrics``, that ``text`` stands for: the name itself, any spelling ``-m`` accepts for
    it (``llm_context_recall``, ``ndcg_cut_10``, ``MRR``), or a bare metric family (``context_recall``) when
    exactly one metric of that family is present. None when it stands for none of them."""
    names = [m.name for m in metrics]
    if text in names:
        return text
    llm_of = {id(m): getattr(m, "llm", None) for m in metrics}
    first_llm = next((llm for llm in llm_of.values() if llm is not None), None)
    try:
        parsed = parse_metric(text, llm=(lambda: first_llm) if first_llm is not None else None)
    except ConfigurationError:
        return None
    if parsed.name in names:
        return parsed.name
    family = [m.name for m in metrics if type(m) is type(parsed) and m.metric_name == parsed.metric_name]
    if len(family) == 1 and parsed.name == parsed.metric_name and type(parsed).__name__ != "RankingMetric":
        return family[0]
    return None


def _check_setting_names(name: str, build: Callable[..., Metric], kwargs: dict[str, Any], spec: str) -> None:
    """Raise ConfigurationError for a setting the metric does not have, suggesting the closest one."""
    if dataclasses.is_dataclass(build):
        known = [f.name for f in dataclasses.fields(build) if f.init and f.name not in ("llm", "prompts")]
        # A metric may spell a setting otherwise in its constructor than in its fields (see setting_aliases).
        known += list(getattr(build, "setting_aliases", {}))
        for key in kwargs:
            if key not in known:
                raise ConfigurationError(f"{name} has no setting {key!r} (in {spec!r}){_did_you_mean(key, known)}")
    choices = _choices()
    for key, value in kwargs.items():
        options = choices.get(key)
        if options and isinstance(value, str) and value not in options:
            hint = _did_you_mean(value, options)
            raise ConfigurationError(f"{name}: {key}={value!r} is not one of {', '.join(options)} (in {spec!r}){hint}")


def _choices() -> dict[str, tuple[str, ...]]:
    """The settings that take one of a few words, and those words."""
    from .metrics.context_recall import LANGUAGES
    from .metrics.string_recall import SCORERS
    from .nuggets import SCORES

    return {
        "mode": ("claims", "single"),
        "unverified": ("unsupported", "supported", "fail"),
        "judging": ("together", "per_context"),
        "language": ("auto", *LANGUAGES),
        "scorer": tuple(SCORERS),
        "score": SCORES,
    }


def _did_you_mean(word: str, known: Sequence[str]) -> str:
    close = difflib.get_close_matches(word, list(known), n=1, cutoff=0.6)
    if not close:
        close = difflib.get_close_matches(word.lower(), [k.lower() for k in known], n=1, cutoff=0.6)
        close = [next(k for k in known if k.lower() == close[0])] if close else []
    if close:
        return f"; did you mean {close[0]!r}?"
    return "" if len(known) <= 6 else f"; known: {', '.join(known)}"


def _ranking_metric(spec: str) -> Metric:
    from .ranking import MEASURES, RankingMetric, parse_measure

    try:
        measure = parse_measure(spec)
    except ConfigurationError as exc:
        match = _SPEC.match(spec)
        word = match["name"] if match else spec.split("@")[0].split("(")[0].strip()
        candidates = [*_METRICS, *MEASURES]
        close = difflib.get_close_matches(word, candidates, n=1, cutoff=0.6) or difflib.get_close_matches(
            word.lower(), [c.lower() for c in candidates], n=1, cutoff=0.6
        )
        if close:
            guess = next(c for c in candidates if c.lower() == close[0].lower())
            rest = spec.strip()[len(word) :] if spec.strip().startswith(word) else ""
            hint = f"did you mean {guess + rest!r}?"
        else:
            named = ", ".join(n for n in _METRICS if n != "llm_context_recall")
            hint = f"known: {named}, or a ranking measure"
        raise ConfigurationError(f"unknown metric {spec!r}; {hint} ({exc})") from exc
    return RankingMetric(measure)


def _settings(text: str, spec: str) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for part in filter(None, (p.strip() for p in text.split(","))):
        key, sep, raw = part.partition("=")
        if not sep or not key.strip().isidentifier():
            raise ConfigurationError(f"cannot read setting {part!r} in {spec!r}; expected key=value")
        out[key.strip()] = _value(raw.strip())
    return out


def _value(raw: str) -> Any:
    lowered = raw.lower()
    if lowered in ("true", "false"):
        return lowered == "true"
    for kind in (int, float):
        try:
            return kind(raw)
        except ValueError:
            pass
    return raw.strip("'\"")
