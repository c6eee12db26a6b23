"""The typer application object shared by every command module, and how ``--help`` shows options."""

from typing import Optional

import typer

from dealer_assist.cli.options import lang_option
from dealer_assist.i18n import Lang


def _no_type_names_in_help() -> None:
    """``--help`` without Python type names.

    Recent typer releases show each parameter's Python type (``--json <bool>``,
    ``PATH <list[Path]>``, ``<int range>``). A flag takes no value and an
    argument's name says what it is, so neither shows one; every option that
    takes a value gives its own ``metavar`` (``FILE``, ``N``, ``P``), which is
    shown instead. Older releases do not have the method and need nothing.
    """
    try:
        from typer.core import TyperArgument, TyperOption
    except ImportError:  # pragma: no cover - a typer without these classes shows no types
        return
    option_type = getattr(TyperOption, "display_type_rich", None)
    if option_type is not None:
        def display_type_rich(self, ctx):
            if getattr(self, "is_flag", False) or getattr(self, "count", False):
                return None
            return option_type(self, ctx)

        TyperOption.display_type_rich = display_type_rich
    if getattr(TyperArgument, "display_type_rich", None) is not None:
        TyperArgument.display_type_rich = lambda self, ctx: None


_no_type_names_in_help()

from dealer_assist.cli import localize  # noqa: E402,F401  (--help and usage errors in the command's language)

app = typer.Typer(
    name="dealer-assist",
    help=(
        "The croupier's assistant for Banknote Hold'em: read serials from photos, "
        "score photographed hands, evaluate hands typed at the table, watch the table with a camera. "
        "`dealer-assist rules` sums up the game, `dealer-assist formats` the files it reads and writes."
    ),
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)


def _group_lang_option():
    """A group's ``--lang``: the language of its ``--help`` and of the command under it (that command's own
    ``--lang`` comes first; :func:`dealer_assist.cli.options.resolve_lang`)."""
    return lang_option(help="Language of the help and of the command that follows.")


@app.callback()
def _root(lang: Optional[Lang] = _group_lang_option()) -> None:
    """Keep every command a sub-command (typer would otherwise run a lone command as the root)."""


#: ``dealer-assist calibrate ...``: its commands live in the ``calibrate_*_cmd`` modules.
calibrate_app = typer.Typer(
    name="calibrate",
    help=(
        "Calibrate a table set-up once: the camera's lens (chessboard), the table plane with the board "
        "and seat zones (corners or ArUco markers), the deck's note layout. Profiles are JSON files in "
        "your data folder (NAME; the samples sample_table_1 and sample_table_2 too) or anywhere (PATH.json)."
    ),
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)
app.add_typer(calibrate_app, name="calibrate")


@calibrate_app.callback()
def _calibrate(lang: Optional[Lang] = _group_lang_option()) -> None:
    """(The group's help is its ``help`` above; this callback only takes the group's ``--lang``.)"""
