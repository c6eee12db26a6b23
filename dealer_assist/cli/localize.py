"""``--help`` and click's usage errors in the command's language (``--lang``, else the locale).

Every command's language is known before click parses its options: :func:`_note_lang` looks for
``--lang X`` among the raw arguments (so ``--help --lang ru`` and ``--lang ru --help`` agree) and
keeps it in the context (:func:`cli_lang`). Then, in one place each:

- :func:`_help` shows a command's ``--help`` in that language: its text, epilog and option help from
  :data:`dealer_assist.i18n_help.HELP` (English: the docstrings themselves), with typer's own words
  ("Usage:", "Options", "[default: …]") translated, and every paragraph re-flowed to the terminal's
  width (a line break inside a paragraph of a docstring is no break on the screen; a paragraph that
  starts with ``\\b`` keeps its lines: examples);
- :func:`_error` shows click's usage errors ("No such option", "Missing argument", "Invalid value")
  in that language: the usage line, the hint, and the message through :func:`dealer_assist.i18n.say`.

Installed on import (:mod:`dealer_assist.cli.app` imports this module).
"""

from __future__ import annotations

import re
from contextlib import contextmanager
from typing import Any, Iterator

try:  # typer 0.2x carries its own copy of click, whose classes and exceptions its commands use
    from typer._click import core as _core, exceptions as _exceptions
except ImportError:  # pragma: no cover - an older typer on click itself
    from click import core as _core, exceptions as _exceptions

from dealer_assist.i18n import Lang, default_lang, parse_lang

__all__ = ["cli_lang", "current_context", "usage_message"]

_META = "dealer_assist.lang"
#: The language of the command line parsed last, for a usage error raised where click has no context.
_LAST: list[Lang | None] = [None]

#: typer's and click's own words in help and usage errors.
_WORDS_RU = {
    "Usage:": "Использование:", "Arguments": "Аргументы", "Options": "Параметры", "Commands": "Команды",
    "Error": "Ошибка", "[default: {}]": "[по умолчанию: {}]", "[required]": "[обязательно]",
    "Aborted.": "Прервано.", "help": "Показать эту справку и выйти.",
    "try": "Справка: [blue]'{command_path} {help_option}'[/].",
    # click's placeholders in a usage line (third new-user trial, L9: "Использование: … odds [OPTIONS]")
    "[OPTIONS]": "[ПАРАМЕТРЫ]", "COMMAND [ARGS]...": "КОМАНДА [АРГУМЕНТЫ]...",
}

#: The option panels the commands group their options in (eval, live).
_PANELS_RU = {"Hands file": "Файл раздач", "One hand typed at the table (quick form)": "Одна раздача, введённая за "
              "столом (краткая форма)", "Output": "Вывод", "Input": "Ввод", "The game": "Игра", "Tuning": "Настройка"}


def cli_lang(ctx: _core.Context | None) -> Lang:
    """The language of the command being run: its ``--lang`` (even before click has parsed it), else the
    locale's (:func:`dealer_assist.i18n.default_lang`)."""
    if ctx is None and _LAST[0] is not None:
        return _LAST[0]
    while ctx is not None:
        if _META in ctx.meta:
            return ctx.meta[_META]
        ctx = ctx.parent
    return default_lang()


def current_context() -> _core.Context | None:
    """The context of the command being run (None outside one)."""
    from typer._click.globals import get_current_context

    return get_current_context(silent=True)


def _lang_in(args: list[str]) -> Lang | None:
    for i, arg in enumerate(args):
        if arg == "--":
            break
        value = None
        if arg == "--lang" and i + 1 < len(args):
            value = args[i + 1]
        elif arg.startswith("--lang="):
            value = arg.split("=", 1)[1]
        if value is not None:
            try:
                return parse_lang(value)
            except ValueError:
                return None  # click refuses it in turn, in the locale's language
    return None


def _note_lang(original):
    def parse_args(self, ctx, args):
        found = _lang_in(list(args))
        _LAST[0] = found
        if found is not None:
            ctx.meta[_META] = found
        return original(self, ctx, args)
    return parse_args


#: An example command longer than this is continued on the next line with `` \\`` (80 columns, less the
#: help's padding and indent).
EXAMPLE_WIDTH = 72

_COMMAND = re.compile(r"^\s*(?:Example: )?(?:dealer-assist|cat|echo) ")


def _example(paragraph: str) -> str:
    """An example command line as lines a terminal does not wrap: cut before an option where it would pass
    :data:`EXAMPLE_WIDTH`, each cut continued with `` \\``; a trailing ``# comment`` goes on a line above."""
    line = paragraph.strip()
    comment = ""
    if "   # " in line:
        line, comment = (part.strip() for part in line.split("   # ", 1))
    head = "Example: " if line.startswith("Example: ") else ""
    line = line[len(head):]
    out, current = [], ""
    for word in re.split(r" (?=--|\| )", line):
        if current and len(current) + 1 + len(word) > EXAMPLE_WIDTH:
            out.append(current + " \\")
            current = "    " + word
        else:
            current = f"{current} {word}" if current else word
    out.append(current)
    lines = ([f"# {comment}"] if comment else []) + out
    return (head.strip() + "\n\n" if head else "") + "\b\n" + "\n".join("  " + ln for ln in lines)


def _reflow(text: str | None) -> str | None:
    """Each paragraph of ``text`` as one line (the terminal wraps it at words); a paragraph that starts
    with ``\\b`` keeps its line breaks, without the ``\\b``; an example command is cut before its options
    (:func:`_example`) so that it is never wrapped."""
    if not text:
        return text
    out = []
    for paragraph in text.split("\n\n"):
        if paragraph.lstrip("\n").startswith("\b"):
            out.append(paragraph.lstrip("\n")[1:].lstrip("\n"))
            continue
        flat = " ".join(line.strip() for line in paragraph.splitlines())
        if _COMMAND.match(flat):
            flat = _example(flat)
            if flat.startswith("Example:"):
                head, body = flat.split("\n\n", 1)
                out.extend([head, body[1:].lstrip("\n")])
                continue
            flat = flat[1:].lstrip("\n")
        out.append(flat)
    return "\n\n".join(out)


def _path(ctx: _core.Context) -> str:
    """The command's path without the program's name: ``"calibrate table"`` ('' for the program)."""
    names = []
    while ctx is not None and ctx.parent is not None:
        names.append(ctx.info_name or "")
        ctx = ctx.parent
    return " ".join(reversed(names))


@contextmanager
def _swapped(objects: list[tuple[Any, str, Any]]) -> Iterator[None]:
    saved = [(obj, name, getattr(obj, name)) for obj, name, _ in objects]
    try:
        for obj, name, value in objects:
            setattr(obj, name, value)
        yield
    finally:
        for obj, name, value in saved:
            setattr(obj, name, value)


def _help_texts(command: _core.Command, path: str, ctx: _core.Context, lang: Lang) -> list[tuple[Any, str, Any]]:
    """What to put in place of ``command``'s help texts for ``lang`` (its sub-commands' too)."""
    table = {}
    if lang != Lang.EN:
        from dealer_assist.i18n_help import HELP

        table = HELP[str(lang)].get(path, {})
    swaps: list[tuple[Any, str, Any]] = [(command, "help", _reflow(table.get("", command.help))),
                                         (command, "epilog", _reflow(table.get("epilog", command.epilog)))]
    for param in command.get_params(ctx):
        if param.name == "help" and lang != Lang.EN:
            swaps.append((param, "help", _WORDS_RU["help"]))
        elif getattr(param, "help", None):
            swaps.append((param, "help", _reflow(table.get(param.name, param.help))))
        panel = getattr(param, "rich_help_panel", None)
        if panel and lang != Lang.EN:
            swaps.append((param, "rich_help_panel", _PANELS_RU.get(panel, panel)))
    if hasattr(command, "list_commands"):
        for name in command.list_commands(ctx):
            sub = command.get_command(ctx, name)
            if sub is not None and lang != Lang.EN:
                from dealer_assist.i18n_help import HELP

                sub_table = HELP[str(lang)].get(f"{path} {name}".strip(), {})
                swaps.append((sub, "help", _reflow(sub_table.get("", sub.help))))
                swaps.append((sub, "short_help", None))
    return swaps


def _typer_words(lang: Lang) -> list[tuple[Any, str, Any]]:
    from typer import rich_utils

    if lang == Lang.EN:
        return []
    return [(rich_utils, "ARGUMENTS_PANEL_TITLE", _WORDS_RU["Arguments"]),
            (rich_utils, "OPTIONS_PANEL_TITLE", _WORDS_RU["Options"]),
            (rich_utils, "COMMANDS_PANEL_TITLE", _WORDS_RU["Commands"]),
            (rich_utils, "DEFAULT_STRING", _WORDS_RU["[default: {}]"]),
            (rich_utils, "REQUIRED_LONG_STRING", _WORDS_RU["[required]"]),
            (rich_utils, "ERRORS_PANEL_TITLE", _WORDS_RU["Error"]),
            (rich_utils, "RICH_HELP", _WORDS_RU["try"])]


def _help(original):
    def format_help(self, ctx, formatter):
        lang = cli_lang(ctx)
        with _swapped(_help_texts(self, _path(ctx), ctx, lang) + _typer_words(lang)):
            return original(self, ctx, formatter)
    return format_help


def _usage(original):
    def get_usage(self, ctx):
        text = original(self, ctx)
        if cli_lang(ctx) != Lang.EN:
            text = text.replace("Usage:", _WORDS_RU["Usage:"], 1)
            for english in ("[OPTIONS]", "COMMAND [ARGS]..."):  # click's placeholders (metavars stay as typed)
                text = text.replace(english, _WORDS_RU[english])
        return text
    return get_usage


def usage_message(exc: _exceptions.ClickException, lang: Lang) -> str:
    """The sentence of click's usage error ``exc`` in ``lang`` (its hint names the option as typed)."""
    from dealer_assist.i18n import say

    if lang == Lang.EN:
        return exc.format_message()
    ctx = getattr(exc, "ctx", None)
    if isinstance(exc, _exceptions.NoSuchOption):
        text = f"Нет такого параметра: {exc.option_name}."
        if exc.possibilities:
            text += f" Может быть, {', '.join(sorted(exc.possibilities))}?"
        return text
    english = exc.format_message()
    if isinstance(exc, _exceptions.MissingParameter):
        m = re.fullmatch(r"Missing (argument|option|parameter) ?(.*?)\.?", english, re.S)
        if m:
            kind = {"argument": "аргумент", "option": "параметр", "parameter": "параметр"}[m.group(1)]
            return f"Не указан {kind} {m.group(2)}.".replace(" .", ".")
    if isinstance(exc, _exceptions.BadParameter):
        message = say(exc.message, str(lang))
        prefix = "Invalid value for "
        if english.startswith(prefix) and english.endswith(": " + exc.message):
            hint = english[len(prefix):len(english) - len(exc.message) - 2]
            return f"Неверное значение {hint}: {message}"
        return f"Неверное значение: {message}"
    return say(exc.format_message(), str(lang))


def _error(original):
    def rich_format_error(self: _exceptions.ClickException) -> None:
        if self.__class__.__name__ == "NoArgsIsHelpError":
            return
        ctx = getattr(self, "ctx", None)
        lang = cli_lang(ctx)
        if lang == Lang.EN:
            return original(self)
        try:
            message = usage_message(self, lang)
        except Exception:  # noqa: BLE001 - a sentence not translated is shown in English, never a traceback
            return original(self)
        with _swapped(_typer_words(lang) + [(self, "format_message", lambda: message)]):
            return original(self)
    return rich_format_error


def _abort(original):
    def rich_abort_error() -> None:
        if default_lang() == Lang.EN:
            return original()
        from typer import rich_utils

        with _swapped([(rich_utils, "ABORTED_TEXT", _WORDS_RU["Aborted."])]):
            return original()
    return rich_abort_error


def install() -> None:
    """Patch typer's command classes and its error printer (once)."""
    from typer import rich_utils
    from typer.core import TyperCommand, TyperGroup

    if getattr(rich_utils, "_dealer_assist_localized", False):
        return
    for cls in (TyperCommand, TyperGroup):
        cls.parse_args = _note_lang(cls.parse_args)
        cls.format_help = _help(cls.format_help)
    _core.Command.get_usage = _usage(_core.Command.get_usage)
    rich_utils.rich_format_error = _error(rich_utils.rich_format_error)
    rich_utils.rich_abort_error = _abort(rich_utils.rich_abort_error)
    # help and error panels laid out on the letters an ASCII output writes (sixth new-user trial L6)
    from dealer_assist.cli.output import showable_console_class

    rich_utils.Console = showable_console_class()
    rich_utils._dealer_assist_localized = True


install()
