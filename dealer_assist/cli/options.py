"""What every command shares: the typed options (``--game``, ``--zero-joker``, ``--tie-policy``, ``--lang``),
one error exit (:func:`fail`) and the number of jobs.

Closed vocabularies are parsed once, here, with one case rule: any case and
surrounding spaces are accepted (``PER-ZERO``, ``Rollover``, ``RU``), and a
wrong value is one sentence naming the option and its values. Each option
gives the command its enum (:class:`~dealer_assist.rules.Game`, :class:`~dealer_assist.rules.ZeroJoker`,
:class:`~dealer_assist.rules.TiePolicy`, :class:`~dealer_assist.i18n.Lang`).

Usage in a command module::

    zero_joker: Optional[ZeroJoker] = zero_joker_option(None, help="...")
    lang: Optional[Lang] = lang_option()
    ...
    lang = resolve_lang(lang)
    fail("the sentence.")            # "Error: the sentence." on stderr, exit code 2
"""

from __future__ import annotations

import os
from datetime import datetime
from contextlib import contextmanager
from enum import Enum
from typing import Any, Callable, Iterator, NoReturn, TypeVar

import typer

from dealer_assist.i18n import LANGUAGES, Lang, default_lang
from dealer_assist.rules import Game, TiePolicy, ZeroJoker
from dealer_assist.rules.formats import option_choices, short_value

__all__ = ["fail", "echo_err", "error_text", "warn_serial_model", "errors_as_fail", "choice", "game_option", "zero_joker_option", "tie_policy_option", "lang_option", "resolve_lang",
           "default_jobs", "since_time", "parse_since", "camera_size_option", "fourcc_option", "capture_mode", "USAGE_ERROR", "shown_default",
           "LOG_DEFAULT"]

#: Exit code of a refused command line, path or file (as click's usage errors).
USAGE_ERROR = 2

E = TypeVar("E", bound=Enum)


def echo_err(line: str, stream: Any = None) -> None:
    """One message (``Error: …``, ``warning: …``) on standard error (or ``stream``).

    On a terminal the line is wrapped at word boundaries to the terminal's width, continuation lines
    indented by two spaces, so no word (an option name the croupier must type) is cut in two; to a file
    or a pipe it stays one line, for ``grep``. The caller has already made names safe
    (:func:`dealer_assist.render.safe_text`); nothing else changes in the text.
    """
    import shutil
    import sys
    import textwrap

    stream = sys.stderr if stream is None else stream
    isatty = getattr(stream, "isatty", None)
    if isatty is not None and isatty():
        width = max(20, shutil.get_terminal_size((80, 24)).columns - 1)
        line = textwrap.fill(line, width=width, subsequent_indent="  ", break_long_words=False,
                             break_on_hyphens=False, replace_whitespace=False, drop_whitespace=True)
    typer.echo(line, file=stream)


def error_text(message: str, lang: str | None = None) -> str:
    """``Error: <message>`` in ``lang`` (None: English) through the one sentence table
    (:func:`dealer_assist.i18n.say`; a sentence it does not know stays English, nothing is lost); the names
    in it shown as text (:func:`dealer_assist.render.safe_text`)."""
    from dealer_assist.i18n import say
    from dealer_assist.render import safe_text

    line = f"Error: {message}"
    return safe_text(say(line, str(lang)) if lang is not None else line)


def warn_serial_model(lang: str) -> None:
    """Say on stderr, once before reading, that the serial model cannot be used and the reader does without
    it (:func:`dealer_assist.app.readers.serial_model_warning`), in ``lang``; nothing when it can."""
    from dealer_assist.app.readers import serial_model_warning
    from dealer_assist.i18n import say
    from dealer_assist.render import safe_text

    warning = serial_model_warning()
    if warning is not None:
        echo_err(safe_text(say(warning, str(lang))))


def fail(message: str, code: int = USAGE_ERROR, lang: str | None = None) -> NoReturn:
    """End the command: ``Error: <message>`` (one sentence, in ``lang``, else in the command line's language:
    :func:`resolve_lang`, :func:`error_text`) on stderr, exit ``code``; wrapped at word boundaries on a
    terminal (:func:`echo_err`)."""
    echo_err(error_text(message, lang if lang is not None else resolve_lang(None).value))
    raise typer.Exit(code)


def choice(enum: type[E], text: str) -> E:
    """``text`` as a member of ``enum``: any case, surrounding spaces ignored.

    Raises:
        ValueError: one sentence naming the values once, e.g. "must be off, per-zero or once, not 'on'."
    """
    try:
        return enum(str(text).strip().lower())
    except ValueError:
        raise ValueError(f"must be {option_choices(enum)}, not {short_value(repr(str(text)))}.") from None


def _parser(enum: type[E]) -> Callable[[Any], E]:
    def parse(value: Any) -> E:
        if isinstance(value, enum):
            return value
        try:
            return choice(enum, value)
        except ValueError as exc:
            raise typer.BadParameter(str(exc)) from None
    return parse


#: Where the hand log is when --log is not given (live/history.py: default_log_path).
LOG_DEFAULT = "$DEALER_ASSIST_HISTORY or ~/.local/share/dealer-assist/hands.jsonl"


def shown_default(text: str) -> str:
    """``[default: text]`` for a help string, as typer writes a default (escaped: help is rich markup), for
    an option whose default is not its value (``None`` meaning "the default profile", "from the locale")."""
    return f"\\[default: {text}]"


def _with_default(kwargs: dict, shown: str | None) -> dict:
    if shown is not None:
        kwargs["help"] = f"{kwargs['help']} {shown_default(shown)}"
    return kwargs


def _metavar(enum: type[Enum]) -> str:
    return "|".join(m.value for m in enum)


def zero_joker_option(default: ZeroJoker | str | None = None, shown: str | None = None, **kwargs: Any) -> Any:
    """``--zero-joker off|per-zero|once`` (RULES.md §2.5), parsed to :class:`ZeroJoker`.

    A ``None`` default that means ``off`` says so with ``shown="off"``."""
    kwargs.setdefault("help", "Zero-joker option: off, per-zero (each other zero of a pocket note moves its rank "
                              "one step) or once (one step at most); see `dealer-assist rules`.")
    _with_default(kwargs, shown)
    return typer.Option(default, "--zero-joker", metavar=_metavar(ZeroJoker), parser=_parser(ZeroJoker), **kwargs)


def game_option(default: Game | str | None = None, shown: str | None = None, **kwargs: Any) -> Any:
    """``--game holdem|indian`` (RULES.md §7, FORMATS.md §1 ``game``), parsed to :class:`Game`."""
    kwargs.setdefault("help", "The game: holdem (Banknote Hold'em) or indian (Indian poker: one note each, held to "
                              "the forehead, no board); see `dealer-assist rules --game indian`.")
    _with_default(kwargs, shown)
    return typer.Option(default, "--game", metavar=_metavar(Game), parser=_parser(Game), **kwargs)


def tie_policy_option(default: TiePolicy | str | None = None, shown: str | None = None, **kwargs: Any) -> Any:
    """``--tie-policy split|rollover`` (RULES.md §4), parsed to :class:`TiePolicy`."""
    kwargs.setdefault("help", "What a tied pot does: split among the tied winners, or roll over to the next hand; "
                              "see `dealer-assist rules`.")
    _with_default(kwargs, shown)
    return typer.Option(default, "--tie-policy", metavar=_metavar(TiePolicy), parser=_parser(TiePolicy), **kwargs)


def lang_option(**kwargs: Any) -> Any:
    """``--lang en|ru``, parsed to :class:`Lang`; None when not given (see :func:`resolve_lang`)."""
    kwargs.setdefault("help", "Language of the output.")
    _with_default(kwargs, "from LC_ALL / LANG")
    return typer.Option(None, "--lang", metavar="|".join(LANGUAGES), parser=_parser(Lang), **kwargs)


def resolve_lang(lang: Lang | None) -> Lang:
    """The language asked for, or the one default: a ``--lang`` given to a group before the command
    (``dealer-assist calibrate --lang ru show``), else the locale's (:func:`dealer_assist.i18n.default_lang`)."""
    if lang is not None:
        return lang
    from dealer_assist.cli.localize import cli_lang, current_context

    return cli_lang(current_context())


def default_jobs() -> int:
    """Photos read at once by default: one process per core."""
    return max(1, os.cpu_count() or 1)


@contextmanager
def errors_as_fail(*kinds: type[Exception]) -> Iterator[None]:
    """Inside the block, an exception of ``kinds`` becomes :func:`fail` with its sentence (exit code 2), in the
    command's language (``--lang``, else the locale: :func:`dealer_assist.cli.localize.cli_lang`)."""
    try:
        yield
    except kinds as exc:
        from dealer_assist.cli.localize import cli_lang, current_context

        fail(str(exc), lang=cli_lang(current_context()))


def camera_size_option(**kwargs: Any) -> Any:
    """``--camera-size WIDTHxHEIGHT``: the resolution to ask a numbered camera for (None: its largest)."""
    kwargs.setdefault("help", "Resolution to ask a numbered camera for.")
    _with_default(kwargs, "its largest")
    return typer.Option(None, "--camera-size", metavar="WIDTHxHEIGHT", **kwargs)


def fourcc_option(**kwargs: Any) -> Any:
    """``--fourcc MJPG``: the pixel format to ask a numbered camera for (None: MJPG when it has it)."""
    kwargs.setdefault("help", "Pixel format to ask a numbered camera for (MJPG gives USB webcams their large modes "
                              "at a usable frame rate).")
    _with_default(kwargs, "MJPG when it has it")
    return typer.Option(None, "--fourcc", metavar="MJPG|YUYV|…", **kwargs)


def capture_mode(camera_size: str | None, fourcc: str | None):
    """The :class:`~dealer_assist.capture.CaptureMode` the two options ask for; :func:`fail` on a bad value."""
    from dealer_assist.capture import CameraError, CaptureMode, parse_camera_size, parse_fourcc

    try:
        return CaptureMode(parse_camera_size(camera_size), parse_fourcc(fourcc))
    except CameraError as exc:
        fail(str(exc))


def parse_since(text: str) -> datetime:
    """An ISO date or date-time as an aware datetime; a time without a zone is local time.

    Raises ``ValueError`` with a sentence for anything else.

    >>> parse_since("2025-01-01T20:00+01:00").isoformat()
    '2025-01-01T20:00:00+01:00'
    >>> parse_since("2025-01-01").tzinfo is not None
    True
    """
    from dealer_assist.live.log_record import EARLIEST, LATEST, TimeRangeError, parse_time

    shown = text if len(text) <= 30 else text[:30] + "…"
    try:
        return parse_time(text)  # the one time parser of the log: the calendar's edges are refused the same way
    except TimeRangeError:
        raise ValueError(f"must be a time in the years {EARLIEST.year} to {LATEST.year}, not {shown!r}.") from None
    except ValueError:
        raise ValueError(f"must be an ISO date or date-time such as 2025-01-01 or 2025-01-01T20:00, "
                         f"not {shown!r}.") from None


def whole_chips(text: str, option: str) -> int:
    """A chips option (``--ante``, ``--rake``) as a whole number 0..MAX_CHIPS; anything else (a
    5,000-digit number included: its length is checked first) is typer's one-sentence usage error."""
    from dealer_assist.live.log_record import MAX_CHIPS

    cleaned = text.strip()
    shown = cleaned if len(cleaned) <= 20 else cleaned[:20] + "…"
    if not (cleaned.isascii() and cleaned.isdigit()):
        raise typer.BadParameter(f"must be a whole number of chips from 0 up, not {shown!r}.", param_hint=f"'{option}'")
    if len(cleaned.lstrip("0")) > len(str(MAX_CHIPS)) or int(cleaned) > MAX_CHIPS:
        raise typer.BadParameter(f"must be at most {MAX_CHIPS:,} chips, not {shown!r} ({len(cleaned)} digits).",
                                 param_hint=f"'{option}'")
    return int(cleaned)


def since_time(text: str | None, option: str = "--since") -> datetime | None:
    """``--since TIME`` (``ledger``, ``serve``; ``option`` names another such as ``--until``) as an aware
    datetime, None when not given; a bad one is typer's one-sentence usage error naming the option."""
    if text is None:
        return None
    try:
        return parse_since(text)
    except ValueError as exc:
        raise typer.BadParameter(str(exc), param_hint=f"'{option}'") from None
