"""Writing to standard output that may fail: a full disk, a closed pipe.

``with output_errors():`` around the code that prints turns an ``OSError``
from standard output into one sentence on stderr ("cannot write output: no
space left on device.") and exit code 1, instead of a traceback. A pipe whose
reader has gone (``| head``) ends quietly with exit code 1. Standard output is
then pointed at the null device, so Python's own flush at exit cannot fail a
second time. It works inside a typer command and around ``app()`` alike.
"""

from __future__ import annotations

import errno
import os
import sys
from contextlib import contextmanager
from typing import Iterator

__all__ = ["OutputError", "output_errors", "write_stdout"]


class OutputError(Exception):
    """Standard output cannot be written; ``__cause__`` is the ``OSError``."""


def write_stdout(text: str) -> None:
    """Write and flush ``text`` on standard output; :class:`OutputError` when that fails."""
    try:
        sys.stdout.write(text)
        sys.stdout.flush()
    except OSError as error:
        raise OutputError() from error


def _is_stdout_error(exc: BaseException) -> bool:
    return isinstance(exc, (OutputError, BrokenPipeError)) or (
        isinstance(exc, OSError) and exc.errno in (errno.ENOSPC, errno.EPIPE, errno.EFBIG, errno.EDQUOT))


@contextmanager
def output_errors() -> Iterator[None]:
    """See the module doc. Other exceptions pass through unchanged.

    A bare ``OSError`` is taken as an output error only for a full disk,
    file-size or quota limit or a broken pipe (the errors a write to standard
    output gives); reading errors keep their own handling.
    """
    try:
        yield
    except Exception as exc:  # noqa: BLE001 - filtered just below
        if not _is_stdout_error(exc):
            raise
        cause = exc.__cause__ if isinstance(exc, OutputError) and exc.__cause__ is not None else exc
        try:
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, sys.stdout.fileno())
            os.close(devnull)
        except (OSError, ValueError):
            pass
        if not (isinstance(cause, BrokenPipeError) or getattr(cause, "errno", None) == errno.EPIPE):
            reason = (getattr(cause, "strerror", None) or str(cause) or "unknown error").rstrip(".")
            sys.stderr.write(f"cannot write output: {reason[0].lower() + reason[1:]}.\n")
            sys.stderr.flush()
        raise SystemExit(1) from None
