"""``dealer-assist eval``: evaluate hands from a JSON Lines file or typed at the table.

Wiring only: parsing and rules live in :mod:`dealer_assist.rules`, the human
output in :mod:`dealer_assist.render`.
"""

from __future__ import annotations

import json
import os
import re
import sys
from typing import IO, Iterator, List, Optional

import typer
from rich.console import Console

from dealer_assist.cli.app import app
from dealer_assist.cli.output import OutputError, output_errors, write_stdout
from dealer_assist.render import LANGUAGES, render_showdown
from dealer_assist.rules import HandError, TiePolicy, ZeroJoker, evaluate, parse_hand, result_to_json
from dealer_assist.rules.formats import option_choices, short_value

__all__ = ["eval_command", "default_lang"]

INPUT, QUICK, OUTPUT = "Hands file", "One hand typed at the table (quick form)", "Output"

EPILOG = (
    "Examples:\n\n"
    "  dealer-assist eval --hands hands.jsonl --json\n\n"
    "  cat hands.jsonl | dealer-assist eval --hands -\n\n"
    "  dealer-assist eval --position 4 --board 1234567 --board 0000123 --board 5550555 "
    "--player alice=7654321,0102030 --player bob=9990999,1234000 "
    "--chips alice=25 --chips bob=25 --dealer bob --zero-joker per-zero"
)


def default_lang(environ: Optional[dict] = None) -> str:
    """``"ru"`` when the locale (LC_ALL, else LC_MESSAGES, else LANG) starts with ``ru``.

    >>> default_lang({"LANG": "ru_RU.UTF-8"}), default_lang({"LC_ALL": "C", "LANG": "ru_RU"})
    ('ru', 'en')
    """
    env = os.environ if environ is None else environ
    for key in ("LC_ALL", "LC_MESSAGES", "LANG"):
        value = env.get(key)
        if value:
            return "ru" if value.lower().startswith("ru") else "en"
    return "en"


@app.command("eval", epilog=EPILOG)
def eval_command(
    hands: Optional[str] = typer.Option(
        None, "--hands", metavar="FILE", rich_help_panel=INPUT,
        help="JSON Lines file of hands (FORMATS.md §1), one hand per line; '-' reads standard input.",
    ),
    position: Optional[int] = typer.Option(
        None, "--position", "-p", metavar="P", rich_help_panel=QUICK,
        help="Playing position P, 1-7 (digit of the serial counted from the left).",
    ),
    board: Optional[List[str]] = typer.Option(
        None, "--board", "-b", metavar="SERIAL", rich_help_panel=QUICK,
        help="A board note's 7 digits; repeat for each board note (0-3).",
    ),
    player: Optional[List[str]] = typer.Option(
        None, "--player", metavar="NAME=SERIAL,SERIAL", rich_help_panel=QUICK,
        help="A player and both pocket notes, e.g. alice=7654321,0102030; repeat in seat order (2 or more).",
    ),
    zero_joker: Optional[str] = typer.Option(
        None, "--zero-joker", metavar="off|per-zero|once", rich_help_panel=QUICK,
        help="Zero-joker option (RULES.md §2.5). [default: off]",
    ),
    tie_policy: Optional[str] = typer.Option(
        None, "--tie-policy", metavar="split|rollover", rich_help_panel=QUICK,
        help="What a tied pot does (RULES.md §4). [default: split]",
    ),
    dealer: Optional[str] = typer.Option(
        None, "--dealer", metavar="NAME", rich_help_panel=QUICK,
        help="The dealer; odd chips go to tied winners from the dealer's left.",
    ),
    chips: Optional[List[str]] = typer.Option(
        None, "--chips", metavar="NAME=CHIPS", rich_help_panel=QUICK,
        help="Chips a player put in this hand, e.g. alice=25; repeat per player to get the settlement.",
    ),
    folded: Optional[List[str]] = typer.Option(
        None, "--folded", metavar="NAME", rich_help_panel=QUICK, help="A player who folded; repeat.",
    ),
    not_revealed: Optional[List[str]] = typer.Option(
        None, "--not-revealed", metavar="NAME", rich_help_panel=QUICK,
        help="A player who did not reveal at the showdown; repeat.",
    ),
    as_json: bool = typer.Option(
        False, "--json", rich_help_panel=OUTPUT,
        help='One FORMATS.md §2 result per hand on standard output; a bad line gives {"error": ...}.',
    ),
    lang: Optional[str] = typer.Option(
        None, "--lang", metavar="en|ru", rich_help_panel=OUTPUT,
        help="Language of the human output. [default: from LC_ALL / LANG]",
    ),
    exact: bool = typer.Option(
        False, "--exact", rich_help_panel=OUTPUT,
        help="Split tied pots into exact fractions (e.g. 17/3) instead of whole chips.",
    ),
    reject_duplicates: bool = typer.Option(
        False, "--reject-duplicates", rich_help_panel=INPUT,
        help="Treat the same serial in two places of one hand as an error (default: a warning).",
    ),
) -> None:
    """Evaluate hands: each note's rank and why, best hands, winners and the settlement.

    Give either --hands FILE or one hand with --position, --board and --player.
    """
    if lang is None:
        lang = default_lang()
    elif lang not in LANGUAGES:
        raise typer.BadParameter(f"must be en or ru, not {lang!r}.", param_hint="'--lang'")
    quick = {
        "--position": position is not None, "--board": bool(board), "--player": bool(player),
        "--zero-joker": zero_joker is not None, "--tie-policy": tie_policy is not None,
        "--dealer": dealer is not None, "--chips": bool(chips), "--folded": bool(folded),
        "--not-revealed": bool(not_revealed),
    }
    used = [flag for flag, given in quick.items() if given]
    if hands is not None and used:
        raise typer.BadParameter(
            f"--hands takes every hand from the file; drop {', '.join(used)}.", param_hint="'--hands'"
        )
    if hands is None:
        if not used:
            raise typer.BadParameter(
                "give --hands FILE, or one hand with --position, --board and --player (see --help).",
                param_hint="'--hands' / '--position'",
            )
        obj = _quick_hand(position, board or [], player or [], _option(zero_joker, ZeroJoker, "--zero-joker"),
                          _option(tie_policy, TiePolicy, "--tie-policy"), dealer,
                          chips or [], folded or [], not_revealed or [])
        try:
            hand = parse_hand(obj, reject_duplicates=reject_duplicates)
        except HandError as error:
            flag, message = _flag_of(str(error), obj)
            raise typer.BadParameter(message, param_hint=f"'{flag}'") from None
        with output_errors():
            _emit(None, evaluate(hand, exact=exact), as_json, lang, title=None)
        return

    with output_errors():
        seen, bad = _evaluate_file(hands, as_json, lang, exact, reject_duplicates)
    if not seen:
        source = "standard input" if hands == "-" else hands
        typer.echo(f"no hands in {source}.", err=True)
        raise typer.Exit(code=1)
    if bad:
        typer.echo(f"{bad} hand line(s) could not be evaluated.", err=True)
        raise typer.Exit(code=1)


def _emit(number: Optional[int], showdown, as_json: bool, lang: str, title: Optional[str]) -> None:
    if as_json:
        write_stdout(json.dumps(result_to_json(showdown), ensure_ascii=False) + "\n")
    else:
        try:
            Console().print(render_showdown(showdown, lang, title=title, duplicate_warnings=False))
            sys.stdout.flush()
        except OSError as error:
            raise OutputError() from error
    where = f"line {number}: " if number is not None else ""
    for serial, fields in showdown.hand.duplicate_serials():
        times = "twice" if len(fields) == 2 else f"{len(fields)} times"
        places = ", ".join(fields[:-1]) + " and " + fields[-1]
        typer.echo(f"warning: {where}serial {serial} appears {times}: in {places}; one note cannot lie in two places.",
                   err=True)


def _error(number: int, message: str, as_json: bool) -> None:
    text = f"line {number}: {message}"
    if as_json:
        write_stdout(json.dumps({"error": text}, ensure_ascii=False) + "\n")
    else:
        Console(stderr=True).print(text, style="bold red", markup=False, highlight=False)


def _lines(path: str) -> Iterator[tuple[int, bytes]]:
    """Numbered raw lines of ``path`` ('-' = stdin), read lazily."""
    if path == "-":
        stream: IO[bytes] = sys.stdin.buffer
        yield from enumerate(stream, 1)
        return
    try:
        stream = open(path, "rb")
    except OSError as error:
        raise typer.BadParameter(
            f"cannot read {path!r}: {error.strerror or error}.", param_hint="'--hands'"
        ) from None
    with stream:
        yield from enumerate(stream, 1)


def _evaluate_file(path: str, as_json: bool, lang: str, exact: bool, reject_duplicates: bool) -> tuple[int, int]:
    """Evaluate every line of ``path`` in order; return how many lines held something, and how many were bad."""
    seen = bad = 0
    for number, raw in _lines(path):
        try:
            text = raw.decode("utf-8-sig" if number == 1 else "utf-8")
        except UnicodeDecodeError:
            bad += 1
            _error(number, "the line is not valid UTF-8 text.", as_json)
            continue
        if not text.strip():
            continue  # blank lines carry no hand
        seen += 1
        try:
            obj = json.loads(text)
        except json.JSONDecodeError as error:
            bad += 1
            _error(number, f"not valid JSON ({error.msg} at column {error.colno}).", as_json)
            continue
        except RecursionError:
            bad += 1
            _error(number, "not valid JSON (nested too deeply).", as_json)
            continue
        except ValueError:  # int() refuses a number of more than 4300 digits
            bad += 1
            _error(number, "a number on the line is too long to read (over 4300 digits).", as_json)
            continue
        try:
            showdown = evaluate(parse_hand(obj, reject_duplicates=reject_duplicates), exact=exact)
        except HandError as error:
            bad += 1
            _error(number, str(error), as_json)
            continue
        _emit(number, showdown, as_json, lang, title=f"Hand, line {number}" if lang == "en" else f"Раздача, строка {number}")
    return seen, bad


_NAME_IS = re.compile(r"^\s*([^=]+?)\s*=\s*(.*?)\s*$")


def _quick_hand(position, board, players, zero_joker, tie_policy, dealer, chips, folded, not_revealed) -> dict:
    """Build a FORMATS.md §1 object from the quick-form flags (BadParameter on bad syntax)."""
    seats: list[dict] = []
    for spec in players:
        match = _NAME_IS.match(spec)
        if not match or not match.group(2):
            raise typer.BadParameter(
                f"{_shown(spec)} must look like NAME=SERIAL,SERIAL, e.g. alice=7654321,0102030.",
                param_hint="'--player'",
            )
        name, notes = match.groups()
        seats.append({"name": name, "pocket": [s.strip() for s in notes.split(",")]})
    names = [seat["name"] for seat in seats]
    for spec in chips:
        match = _NAME_IS.match(spec)
        if not match or not re.fullmatch(r"\d+", match.group(2)):
            raise typer.BadParameter(
                f"{_shown(spec)} must look like NAME=CHIPS with a whole number of chips, e.g. alice=25.",
                param_hint="'--chips'",
            )
        name, amount = match.groups()
        _known(name, names, "--chips")
        seat = seats[names.index(name)]
        if "contributed" in seat:
            raise typer.BadParameter(
                f"the chips of {_shown(name)} are given twice ({short_value(str(seat['contributed']))} and "
                f"{short_value(amount)}); give each player's chips once.",
                param_hint="'--chips'",
            )
        seat["contributed"] = int(amount)
    for flag, key, value, given in (("--folded", "folded", True, folded),
                                    ("--not-revealed", "revealed", False, not_revealed)):
        for name in given:
            _known(name, names, flag)
            seats[names.index(name)][key] = value
    if len(seats) < 2:
        raise typer.BadParameter(
            f"{len(seats)} player(s) given; a hand needs at least 2 (repeat --player).",
            param_hint="'--player'",
        )
    if position is None:
        raise typer.BadParameter("the playing position P (1-7) is needed.", param_hint="'--position'")
    obj: dict = {"position": position, "board": list(board), "players": seats}
    if zero_joker is not None:
        obj["zero_joker"] = zero_joker.value
    if tie_policy is not None:
        obj["tie_policy"] = tie_policy.value
    if dealer is not None:
        obj["dealer"] = dealer
    return obj


def _known(name: str, names: list[str], flag: str) -> None:
    if name not in names:
        raise typer.BadParameter(
            f"{_shown(name)} is not one of the players ({', '.join(short_value(n) for n in names) or 'none given'}).",
            param_hint=f"'{flag}'",
        )


def _shown(text: str) -> str:
    """A value from the command line as an error echoes it: quoted, at most 20 characters of it."""
    return short_value(repr(text))


def _option(value: Optional[str], enum: type, flag: str):
    """A quick-form option's value (any case) as ``enum``; BadParameter in plain words otherwise."""
    if value is None:
        return None
    try:
        return enum(value.strip().lower())
    except ValueError:
        raise typer.BadParameter(f"must be {option_choices(enum)}, not {_shown(value)}.", param_hint=f"'{flag}'") from None


def _flag_of(message: str, obj: dict) -> tuple[str, str]:
    """Map a HandError about a FORMATS.md field to the quick-form flag that set it."""
    match = re.match(r"players\[(\d+)\]\.(\w+)(?:\[(\d+)\])?", message)
    if match:
        index, field, note = int(match.group(1)), match.group(2), match.group(3)
        name = obj["players"][index]["name"]
        flag = {"contributed": "--chips", "folded": "--folded", "revealed": "--not-revealed"}.get(field, "--player")
        what = f"pocket note {int(note) + 1}" if note is not None else field
        return flag, f"{name}: {what}{message[match.end():]}"
    match = re.match(r"board\[(\d+)\]", message)
    if match:
        return "--board", f"board note {int(match.group(1)) + 1}{message[match.end():]}"
    for field, flag in (("position", "--position"), ("board", "--board"), ("dealer", "--dealer"),
                        ("players", "--player"), ("serial", "--player / --board")):
        if message.startswith(field):
            return flag, message
    return "--player / --board", message
