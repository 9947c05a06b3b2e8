"""The entry point: one parser, a subcommand module each, and the mapping of failures to exit codes."""

from __future__ import annotations

import argparse
import gc
import importlib
import os
import shlex
import sys
from collections.abc import Sequence

from .. import __version__
from ..errors import EndpointDownError, RagrecallError
from ._common import one_line

_COMMANDS = ("demo", "eval", "trec", "compare", "report", "calibrate", "label", "batch", "ndeval", "nuggets")
"""The subcommands in the order ``--help`` lists them; the module ``._NAME`` of each has ``register(sub)``."""


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit code."""
    argv = sys.argv[1:] if argv is None else list(argv)
    if argv and not argv[0].startswith("-") and argv[0] not in _COMMANDS:
        import difflib

        close = difflib.get_close_matches(argv[0], _COMMANDS, n=1, cutoff=0.6)
        hint = f"; did you mean {close[0]!r}?" if close else f"; the commands are {', '.join(_COMMANDS)}"
        print(
            f"usage: ragrecall [-h] [--version] COMMAND ...\nragrecall: error: unknown command {argv[0]!r}{hint}",
            file=sys.stderr,
        )
        return 2
    parser = _parser(_chosen(argv))
    args, unknown = parser.parse_known_args(argv)
    if unknown:
        _unknown_arguments(args, unknown)
    try:
        code: int = args.handler(args)
        sys.stdout.flush()  # a reader that went away is found here, not by the interpreter's flush at exit
        return code
    except BrokenPipeError:
        _silence_stdout()
        return _EXIT_BROKEN_PIPE
    except EndpointDownError as exc:
        hint = _resume_hint(args, argv, "after fixing the URL, model or key if that was the fault")
        print(f"ragrecall: error: {one_line(exc)}; {hint}", file=sys.stderr)
        return 2
    except (RagrecallError, OSError, KeyError, UnicodeError) as exc:
        print(f"ragrecall: error: {one_line(exc)}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print(f"ragrecall: interrupted; {_resume_hint(args, argv)}", file=sys.stderr)
        return 130


def console() -> int:
    """The ``ragrecall`` command itself: :func:`main` on ``sys.argv``, in a process that ends right after.

    The interpreter's exit still runs the ``atexit`` handlers, closes what is only referenced once and flushes
    stdout and stderr; what it no longer does is the last collection of the reference cycles of every imported
    module (numpy's and pyarrow's most of all): 15-60 ms of a ``trec`` over 25,000 to 500,000 lines. Only the
    process's owner may decide that, so :func:`main`, which tests and embedding hosts call, does not; what the
    commands open (the response cache) they close themselves.
    """
    code = main()
    gc.freeze()  # what is tracked now is never collected again: the process is about to end
    return code


def _resume_hint(args: argparse.Namespace, argv: Sequence[str] | None, fix: str = "") -> str:
    """What a stopped run kept, and the command that resumes it."""
    checkpoint = getattr(args, "checkpoint", None)
    if not checkpoint:
        return "nothing was kept: add --checkpoint FILE to resume a run that stops"
    command = shlex.join(["ragrecall", *(sys.argv[1:] if argv is None else argv)])
    return f"finished samples are kept in {checkpoint}; resume {fix + ' ' if fix else ''}with: {command}"


_EXIT_BROKEN_PIPE = 141
"""Exit code when stdout's reader went away: 128 + SIGPIPE, what a shell reports for a tool stopped by it."""


def _silence_stdout() -> None:
    """Point stdout at the null device, so that what is left in its buffer goes nowhere, quietly."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        try:
            os.dup2(devnull, sys.stdout.fileno())
        finally:
            os.close(devnull)
    except (OSError, ValueError, AttributeError):  # stdout is not a real file (an embedding host)
        pass


def _unknown_arguments(args: argparse.Namespace, unknown: list[str]) -> None:
    """Exit 2 with the subcommand's usage (not the top level's) and, for a misspelt flag, the closest one."""
    command: argparse.ArgumentParser = args.command_parser
    flags = [flag for action in command._actions for flag in action.option_strings]
    message = f"unrecognized arguments: {' '.join(unknown)}"
    first = next((u.split("=")[0] for u in unknown if u.startswith("--")), None)
    import difflib

    close = difflib.get_close_matches(first, flags, n=1, cutoff=0.6) if first else []
    command.error(message + (f"; did you mean {close[0]}?" if close else ""))


def _chosen(argv: Sequence[str]) -> str | None:
    """The subcommand ``argv`` names, when its first argument is one; None (every subcommand) otherwise."""
    return argv[0] if argv and argv[0] in _COMMANDS else None


def _parser(only: str | None = None) -> argparse.ArgumentParser:
    """The parser with every subcommand, or with ``only`` that one: building (and importing) the others costs
    more than running a small ``trec``."""
    parser = argparse.ArgumentParser(prog="ragrecall", description="Measure the context recall of RAG retrieval.")
    parser.add_argument("--version", action="version", version=f"ragrecall {__version__}")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for name in _COMMANDS if only is None else (only,):
        importlib.import_module(f"._{name}", __package__).register(sub)
    for sub_parser in sub.choices.values():  # so that an unknown flag is reported with its command's usage
        sub_parser.set_defaults(command_parser=sub_parser)
    return parser
