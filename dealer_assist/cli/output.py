"""Writing to standard output that may fail: a full disk, a closed pipe, an encoding without the characters.

``with output_errors():`` around the code that prints turns an ``OSError``
from standard output into one sentence on stderr ("cannot write output: no
space left on device.") and exit code 1, instead of a traceback. A pipe whose
reader has gone (``| head``) ends quietly with exit code 1. Standard output is
then pointed at the null device, so Python's own flush at exit cannot fail a
second time. It works inside a typer command and around ``app()`` alike.

An output whose encoding cannot show a character (``PYTHONIOENCODING=ascii``,
a POSIX locale without UTF-8 mode) degrades to ASCII instead of ending in a
``UnicodeEncodeError``: :func:`degrade_unshowable` (called once at start, by
:func:`dealer_assist.cli.main`) makes standard output and standard error
write ``·`` as ``|``, ``—`` as ``-``, Russian in Latin letters (``Пара`` as
``Para``) and anything else as ``\\uXXXX``. The rich consoles spell their text
so before they lay it out (:func:`showable_console_class`): a column is as wide
as the Latin words it shows. JSON is written by
:func:`json_line`, which escapes every non-ASCII character the JSON way
(``\\u00b7``) on such an output, so it stays exact, valid JSON.

:func:`report_console` is the rich console of a command's report: at least
:data:`MIN_WIDTH` columns wide, whatever ``COLUMNS`` says (``0``, ``20``), so
the words of a table are never cut to ``s…``.
"""

from __future__ import annotations

import codecs
import errno
import functools
import os
import sys
from contextlib import contextmanager
from typing import Any, Iterator

from dealer_assist.fileio import dumps_json

__all__ = ["print_warnings", "WARNINGS_SHOWN", "Warnings", "OutputError", "output_errors", "refuse_closed_stdout",
           "CLOSED_STDOUT", "write_stdout", "degrade_unshowable", "json_line", "line_error", "report_console",
           "MIN_WIDTH", "ASCII_FALLBACK", "showable", "showable_console", "showable_console_class"]

#: The fewest columns a report is laid out in (a narrower terminal wraps its lines instead).
MIN_WIDTH = 80
#: The name of the codec error handler (and of the ASCII codec) that writes what an output cannot show
#: as ASCII (see the module doc).
ASCII_FALLBACK = "dealer_assist_ascii"

_PUNCTUATION = {
    "\u00b7": "|", "\u2022": "*", "\u2014": "-", "\u2013": "-", "\u2212": "-", "\u2026": "...", "\u2192": "->",
    "\u2190": "<-", "\u00d7": "x", "\u00a7": "S", "\u00ab": '"', "\u00bb": '"', "\u201c": '"', "\u201d": '"',
    "\u201e": '"', "\u2018": "'", "\u2019": "'", "\u2264": "<=", "\u2265": ">=", "\u00b1": "+/-", "\u00a0": " ",
    "\u2713": "v", "\u2717": "x", "\u2248": "~", "\u2116": "No.", "\u00b0": " deg",
}
_CYRILLIC = dict(zip(
    "абвгдеёжзийклмнопрстуфхцчшщъыьэюя",
    ["a", "b", "v", "g", "d", "e", "yo", "zh", "z", "i", "y", "k", "l", "m", "n", "o", "p", "r", "s", "t", "u",
     "f", "kh", "ts", "ch", "sh", "shch", "", "y", "", "e", "yu", "ya"]))


def _ascii_for(ch: str) -> str:
    if ch in _PUNCTUATION:
        return _PUNCTUATION[ch]
    low = ch.lower()
    if low in _CYRILLIC:
        latin = _CYRILLIC[low]
        return latin.capitalize() if ch != low else latin
    n = ord(ch)
    return f"\\x{n:02x}" if n < 0x100 else f"\\u{n:04x}" if n < 0x10000 else f"\\U{n:08x}"


def _fallback(exc: UnicodeError) -> tuple[str, int]:
    if not isinstance(exc, UnicodeEncodeError):
        raise exc
    return "".join(_ascii_for(ch) for ch in exc.object[exc.start:exc.end]), exc.end


codecs.register_error(ASCII_FALLBACK, _fallback)


class _AsciiEncoder(codecs.IncrementalEncoder):
    def encode(self, text: str, final: bool = False) -> bytes:
        return text.encode("ascii", ASCII_FALLBACK)


class _AsciiDecoder(codecs.IncrementalDecoder):
    def decode(self, data: bytes, final: bool = False) -> str:
        return bytes(data).decode("ascii", "replace")


def _search(name: str) -> codecs.CodecInfo | None:
    if name != ASCII_FALLBACK:
        return None
    return codecs.CodecInfo(name=ASCII_FALLBACK, encode=lambda t, e="strict": (t.encode("ascii", ASCII_FALLBACK), len(t)),
                            decode=lambda b, e="strict": (bytes(b).decode("ascii", "replace"), len(b)),
                            incrementalencoder=_AsciiEncoder, incrementaldecoder=_AsciiDecoder)


codecs.register(_search)


def _is_unicode(stream: Any) -> bool:
    """Whether ``stream`` writes every character (a UTF encoding)."""
    encoding = getattr(stream, "encoding", None) or "utf-8"
    try:
        return codecs.lookup(encoding).name.startswith("utf")
    except LookupError:
        return False


def showable(text: str, encoding: str | None) -> str:
    """``text`` with every character ``encoding`` cannot write spelt as the output will write it (``Пара``
    as ``Para``, ``·`` as ``|``: the fallback of :func:`degrade_unshowable`); ``text`` itself for a UTF
    encoding or one that writes it all.

    >>> showable("Лучшая рука · 5", "ascii"), showable("Лучшая рука", "utf-8")
    ('Luchshaya ruka | 5', 'Лучшая рука')
    """
    name = _codec_name(encoding)
    if name.startswith("utf") or text.isascii():
        return text
    out = []
    for ch in text:
        try:
            ch.encode(name)
            out.append(ch)
        except (UnicodeEncodeError, LookupError):
            out.append(_ascii_for(ch))
    return "".join(out)


def _codec_name(encoding: str | None) -> str:
    if not encoding:
        return "utf-8"
    if encoding.lower() == ASCII_FALLBACK:
        return "ascii"
    try:
        return codecs.lookup(encoding).name
    except LookupError:
        return "ascii"


def _showable_text(text: Any, encoding: str) -> Any:
    """A rich ``Text`` spelt as :func:`showable` does, its styles kept on the same characters."""
    from rich.text import Span, Text

    plain = text.plain
    if _codec_name(encoding).startswith("utf") or plain.isascii():
        return text
    offsets = [0]
    for ch in plain:
        offsets.append(offsets[-1] + len(showable(ch, encoding)))
    new = Text(showable(plain, encoding), style=text.style, justify=text.justify, overflow=text.overflow,
               no_wrap=text.no_wrap, end=text.end, tab_size=text.tab_size)
    new.spans = [Span(offsets[min(s.start, len(plain))], offsets[min(s.end, len(plain))], s.style) for s in text.spans]
    return new


def _showable_renderable(renderable: Any, encoding: str) -> Any:
    """``renderable`` with its text spelt by :func:`showable` before rich lays it out, so a column is as wide
    as the words it will show (``Лучшая рука`` is 11 columns, ``Luchshaya ruka`` 14): a string, a ``Text``,
    and the containers the reports use (``Table``: headers, cells, footers, title, caption; ``Group``;
    ``Panel``; ``Padding``), copied; anything else as it is (its strings and texts are still spelt as they
    are rendered, by :class:`ShowableConsole`)."""
    import copy

    from rich.console import Group
    from rich.padding import Padding
    from rich.panel import Panel
    from rich.table import Table
    from rich.text import Text

    def again(value: Any) -> Any:
        return _showable_renderable(value, encoding)

    if isinstance(renderable, str):
        return showable(renderable, encoding)
    if isinstance(renderable, Text):
        return _showable_text(renderable, encoding)
    if isinstance(renderable, Table):
        table = copy.copy(renderable)
        table.columns = []
        for column in renderable.columns:
            column = copy.copy(column)
            column.header, column.footer = again(column.header), again(column.footer)
            column._cells = [again(cell) for cell in column._cells]
            table.columns.append(column)
        table.title, table.caption = again(renderable.title), again(renderable.caption)
        return table
    if isinstance(renderable, Group):
        return Group(*(again(r) for r in renderable.renderables), fit=renderable.fit)
    if isinstance(renderable, Panel):
        panel = copy.copy(renderable)
        panel.renderable, panel.title, panel.subtitle = (again(renderable.renderable), again(renderable.title),
                                                        again(renderable.subtitle))
        return panel
    if isinstance(renderable, Padding):
        padding = copy.copy(renderable)
        padding.renderable = again(renderable.renderable)
        return padding
    return renderable


def degrade_unshowable() -> None:
    """Make standard output and error write what their encoding cannot show as ASCII (see the module doc).

    An ASCII stream gets the :data:`ASCII_FALLBACK` codec (click then writes through it instead of
    writing UTF-8 to an ASCII terminal); another non-UTF encoding (latin-1) keeps its encoding and
    gets the fallback for the characters it lacks. UTF-8 streams are left as they are.
    """
    for stream in (sys.stdout, sys.stderr):
        if stream is None or _is_unicode(stream) or not hasattr(stream, "reconfigure"):
            continue
        try:
            if codecs.lookup(stream.encoding).name == "ascii":
                stream.reconfigure(encoding=ASCII_FALLBACK, errors="strict")
            else:
                stream.reconfigure(errors=ASCII_FALLBACK)
        except (LookupError, OSError, ValueError):
            pass


def json_line(obj: Any, **kwargs: Any) -> str:
    """``obj`` as one line of strict JSON for standard output (:func:`dealer_assist.fileio.dumps_json`),
    with a newline; every non-ASCII character escaped when standard output cannot show it."""
    return dumps_json(obj, ascii_only=not _is_unicode(sys.stdout), **kwargs) + "\n"


def silence_stdout() -> None:
    """Point standard output at the null device once it cannot be written (a full disk, a closed pipe), so
    that what is still buffered, flushed at exit, is dropped instead of ending the process with code 120."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
    except (OSError, ValueError):
        pass


def report_console(stderr: bool = False, **kwargs: Any):
    """A rich console for a command's report, at least :data:`MIN_WIDTH` columns wide.

    A pipe closed part-way (``| head``) raises :class:`BrokenPipeError` from ``print`` -- an ``OSError``
    that a command catches to go on writing its result files -- where rich's own console ends the
    process at once (``SystemExit(1)``, which lost ``score --json``'s files after ``| head``)."""
    class _ReportConsole(showable_console_class()):  # type: ignore[misc]
        def on_broken_pipe(self) -> None:
            self.quiet = True  # nothing more is written to the closed pipe
            silence_stdout()
            raise BrokenPipeError(errno.EPIPE, "broken pipe")

    console = _ReportConsole(stderr=stderr, **kwargs)
    if console.width < MIN_WIDTH:
        console.width = MIN_WIDTH
    return console


@functools.cache
def showable_console_class() -> type:
    """:class:`rich.console.Console` that spells what its output cannot show (:func:`showable`) *before* it lays
    the text out, so a table's columns, a panel's border and rich's wrapping are measured on the letters that
    will be written (``Luchshaya ruka``, 14), not on the Cyrillic (``Лучшая рука``, 11) the codec spells only as
    the line is written (sixth new-user trial L6). On a UTF output it is rich's console, unchanged. The
    reports' console (:func:`report_console`), typer's help and error panels (``cli/localize.py``) and live's
    screen are of this class."""
    from rich.console import Console
    from rich.text import Text

    class ShowableConsole(Console):
        __doc__ = showable_console_class.__doc__

        def _spells(self) -> bool:
            return not _codec_name(self.encoding).startswith("utf")

        def render_str(self, text: str, **kwargs: Any) -> Text:
            out = super().render_str(text, **kwargs)
            return _showable_text(out, self.encoding) if self._spells() else out

        def render(self, renderable: Any, options: Any = None) -> Any:
            # every renderable passes here before it is laid out (print, a Live screen, a table's cells), so
            # a table is measured on the spelt words wherever it is nested
            if self._spells():
                renderable = _showable_renderable(renderable, self.encoding)
            return super().render(renderable, options)

    return ShowableConsole


def showable_console(**kwargs: Any) -> Any:
    """A :func:`showable_console_class` console made with rich's ``Console`` arguments."""
    return showable_console_class()(**kwargs)


class OutputError(Exception):
    """Standard output cannot be written; ``__cause__`` is the ``OSError``."""


def write_stdout(text: str) -> None:
    """Write and flush ``text`` on standard output; :class:`OutputError` when that fails."""
    try:
        sys.stdout.write(text)
        sys.stdout.flush()
    except OSError as error:
        raise OutputError() from error


#: The sentence for a standard output closed before the start (``dealer-assist ledger >&-``).
CLOSED_STDOUT = ("cannot write output: standard output is closed; give the command somewhere to write "
                 "(a terminal, a file: > out.txt, or a pipe).")


def refuse_closed_stdout() -> None:
    """End the process with :data:`CLOSED_STDOUT` on stderr and exit code 1 when standard output is closed.

    Python sets ``sys.stdout`` to ``None`` when file descriptor 1 is not open at start (``>&-``); every
    command writes its result there, so none can run (they would end in an ``AttributeError``).
    Nothing is written when standard error is closed too; the exit code still says it.
    """
    if sys.stdout is not None:
        return
    if sys.stderr is not None:
        try:
            sys.stderr.write(CLOSED_STDOUT + "\n")
            sys.stderr.flush()
        except (OSError, ValueError):
            pass
    raise SystemExit(1)


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
        silence_stdout()
        if not (isinstance(cause, BrokenPipeError) or getattr(cause, "errno", None) == errno.EPIPE):
            reason = (getattr(cause, "strerror", None) or str(cause) or "unknown error").rstrip(".")
            sys.stderr.write(f"cannot write output: {reason[0].lower() + reason[1:]}.\n")
            sys.stderr.flush()
        raise SystemExit(1) from None


def line_error(number: int, message: str, as_json: bool, lang: str = "en") -> None:
    """A bad input line of a JSON Lines file (``eval``, ``odds``): ``{"error": "line N: ..."}`` on standard
    output with ``--json`` (FORMATS.md §2: one output line per input line; always English, for programs),
    else the sentence on stderr in ``lang`` (:func:`dealer_assist.i18n.say`)."""
    from dealer_assist.i18n import say
    from dealer_assist.render import safe_text

    text = f"line {number}: {message}"
    if as_json:
        write_stdout(json_line({"error": text}))
    else:
        text = say(text, lang)
        err = report_console(stderr=True)
        # a terminal wraps at word boundaries; a file or a pipe keeps one line per message (grep)
        err.print(safe_text(text), style="bold red", markup=False, highlight=False, soft_wrap=not err.is_terminal)


#: Warnings said one by one; the rest are counted (a torn or foreign log: a screenful, not thousands of lines).
WARNINGS_SHOWN = 10


class Warnings:
    """A warning sink for a long read: keeps the first :data:`WARNINGS_SHOWN` sentences and counts the rest,
    so a log of a million bad lines costs a counter, not a million sentences.

    >>> w = Warnings()
    >>> for i in range(12): w(f"line {i}")
    >>> len(w.kept), w.total
    (10, 12)
    """

    def __init__(self) -> None:
        self.kept: list[str] = []
        self.total = 0

    def __call__(self, text: str) -> None:
        self.total += 1
        if len(self.kept) < WARNINGS_SHOWN:
            self.kept.append(text)


def print_warnings(console, warnings: list[str], *, what: str, total: int | None = None, lang: str = "en") -> None:
    """Each of ``warnings`` as ``warning: …`` on ``console`` (standard error), the first
    :data:`WARNINGS_SHOWN`; then ``warning: and N more <what>`` for the rest of ``total``
    (default: ``len(warnings)``). In ``lang`` (:func:`~dealer_assist.i18n.say`); shown as text
    (:func:`~dealer_assist.render.safe_text`)."""
    from dealer_assist.i18n import say
    from dealer_assist.render import safe_text

    total = len(warnings) if total is None else total
    for text in warnings[:WARNINGS_SHOWN]:
        console.print(safe_text(say(f"warning: {text}", lang)), markup=False, highlight=False,
                      soft_wrap=not console.is_terminal)
    if total > min(len(warnings), WARNINGS_SHOWN):
        console.print(safe_text(say(f"warning: and {total - min(len(warnings), WARNINGS_SHOWN)} more {what}", lang)),
                      markup=False, highlight=False, soft_wrap=not console.is_terminal)
