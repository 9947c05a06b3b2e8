"""``python -m ragrecall.cli``: the same as the ``ragrecall`` command."""

import sys

from ._main import console

sys.exit(console())
