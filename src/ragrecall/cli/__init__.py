"""The ``ragrecall`` command.

Every error a user can cause ends with one line on stderr (``ragrecall: error: ...``) and exit code 2;
``eval`` exits 2 when more sample-metric pairs failed than ``--max-failed`` allows (default 0), else 1 when an
aggregate falls under a ``--fail-under`` bound. Output paths (``--out``,
``--checkpoint``, ``report -o``) are checked before any work (their folder exists and is writable, and they are
none of the inputs). A reader that stops early (``ragrecall demo | head -1``) ends the command quietly with exit
code 141, as a Unix tool stopped by SIGPIPE; files already written are kept.
"""

from ._main import console, main

__all__ = ["console", "main"]
