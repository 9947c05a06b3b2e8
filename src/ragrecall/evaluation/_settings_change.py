"""What differs between the metric settings a checkpoint was written with and a run's, named setting by setting.

A run stopped by a wrong base URL or model name is resumed with the fix: when the checkpoint holds no LLM answer,
nothing recorded depends on where the LLM is, so the endpoint may change; otherwise the change must be asked
for (``allow_endpoint_change``) and is recorded in the run details.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any

__all__ = ["ENDPOINT_SETTINGS", "SettingChange", "setting_changes"]

ENDPOINT_SETTINGS = frozenset({"endpoint", "model"})
"""Settings that say where the LLM is asked and which one: they change no recorded result that holds no answer."""
_LABELS = {"endpoint": "base_url"}
_MISSING = "(none)"


@dataclass(frozen=True)
class SettingChange:
    """One setting of one metric that differs: ``context_recall: base_url: http://a/v1 → http://b/v1``."""

    metric: str
    path: tuple[str, ...]
    before: Any
    after: Any

    @property
    def endpoint(self) -> bool:
        """True for a change of where or which LLM is asked (:data:`ENDPOINT_SETTINGS`)."""
        return bool(self.path) and self.path[-1] in ENDPOINT_SETTINGS

    def text(self) -> str:
        name = ".".join(_LABELS.get(part, part) for part in self.path if part not in ("settings", "llm"))
        return f"{self.metric}: {name or 'metric'}: {_shown(self.before)} → {_shown(self.after)}"


def setting_changes(before: Mapping[str, Any], after: Mapping[str, Any]) -> list[SettingChange]:
    """Every leaf setting that differs between two checkpoint headers' metrics (``name → identity``); a metric
    present on one side only is one change with ``path`` ``()``."""
    pairs = [(name, name) for name in before if name in after]
    gone = [name for name in before if name not in after]
    new = [name for name in after if name not in before]
    # A metric whose settings changed may have changed its name with them (context_recall(votes=3)): paired
    # with the one of its class that left, in order.
    for name in list(new):
        twin = next((g for g in gone if _class(before[g]) == _class(after[name])), None)
        if twin is not None:
            gone.remove(twin)
            new.remove(name)
            pairs.append((twin, name))
    changes = [SettingChange(name, (), before[name], _MISSING) for name in gone]
    changes += [SettingChange(name, (), _MISSING, after[name]) for name in new]
    for old_name, new_name in pairs:
        changes += [SettingChange(new_name, p, a, b) for p, a, b in _diff(before[old_name], after[new_name])]
    return sorted(changes, key=lambda c: (c.metric, c.path))


def _class(identity: Any) -> Any:
    return identity.get("class") if isinstance(identity, Mapping) else None


def _diff(old: Any, new: Any, path: tuple[str, ...] = ()) -> Iterator[tuple[tuple[str, ...], Any, Any]]:
    if isinstance(old, Mapping) and isinstance(new, Mapping):
        for key in sorted(set(old) | set(new), key=str):
            yield from _diff(old.get(key, _MISSING), new.get(key, _MISSING), (*path, str(key)))
    elif old != new:
        yield path, old, new


def _shown(value: Any) -> str:
    text = value if isinstance(value, str) else json.dumps(value, ensure_ascii=False, default=repr)
    return text if len(text) <= 80 else text[:77] + "..."
