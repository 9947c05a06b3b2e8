"""Optional extras: importing their packages when a call needs them, with one line naming what to install."""

from __future__ import annotations

import importlib
from types import ModuleType

from .errors import MissingExtraError

__all__ = ["need"]


def need(module: str, extra: str, what: str) -> ModuleType:
    """Import ``module`` for ``what`` (e.g. ``"to_pandas()"``).

    Raises:
        MissingExtraError: ``module`` is not installed; one line: ``to_pandas() needs pandas, in the pandas
            extra: pip install 'ragrecall[pandas]'``.
    """
    try:
        return importlib.import_module(module)
    except ModuleNotFoundError as exc:
        if exc.name is not None and exc.name.split(".")[0] != module.split(".")[0]:
            raise  # the package is there but broken: its own error says more
        top = module.split(".")[0]
        raise MissingExtraError(f"{what} needs {top}, in the {extra} extra: pip install 'ragrecall[{extra}]'") from None
