"""``eval``: hands typed in -- FORMATS.md §1 lines from a file, or one hand from the quick-form flags.

Every line is evaluated on its own: a bad line is one sentence
(:attr:`LineResult.error`) and the others still run. The quick form builds
one FORMATS.md §1 object from ``NAME=SERIAL,SERIAL`` style flags; what is
wrong with it is a :class:`QuickFormError` naming the flag.
"""

from __future__ import annotations

import re
import sys
from dataclasses import dataclass
from typing import Iterable, Iterator, Sequence

from dealer_assist.fileio import MAX_JSON_BYTES, NOT_UTF8, JsonInputError, bounded_lines, is_blank_line, open_stream, \
    parse_json
from dealer_assist.rules import Game, HandError, Showdown, TiePolicy, ZeroJoker, evaluate, parse_hand
from dealer_assist.rules.formats import short_value

__all__ = ["LineResult", "QuickFormError", "HandsFileError", "numbered_lines", "line_json", "evaluate_lines", "quick_hand",
           "evaluate_quick", "duplicate_warnings"]


class HandsFileError(ValueError):
    """The hands file cannot be read; one sentence."""


class QuickFormError(ValueError):
    """A quick-form flag that cannot be used: ``flag`` names it, the message says why."""

    def __init__(self, flag: str, message: str) -> None:
        super().__init__(message)
        self.flag = flag


@dataclass(frozen=True)
class LineResult:
    """One non-blank line of a hands file: its showdown, or the sentence saying what is wrong.

    ``is_text`` is False for a line that is not UTF-8 text (it is bad, but not counted as a hand seen).
    """

    number: int
    showdown: Showdown | None = None
    error: str | None = None
    is_text: bool = True


def numbered_lines(path: str) -> Iterator[tuple[int, bytes | None]]:
    """Numbered raw lines of ``path`` ('-' = standard input), read lazily; None for a line over
    :data:`~dealer_assist.fileio.MAX_JSON_BYTES` (see :func:`~dealer_assist.fileio.bounded_lines`).

    A file must be a regular file or a pipe (``--hands <(…)``; a FIFO is opened without blocking, so
    one nobody writes to reads as empty); a folder, a device (``/dev/zero``) or a socket is refused.

    Raises:
        HandsFileError: the file cannot be opened (one sentence).
    """
    if path == "-":
        yield from bounded_lines(sys.stdin.buffer)
        return
    try:
        stream = open_stream(path, label=repr(path), pipes=True)
    except JsonInputError as error:
        raise HandsFileError(f"cannot read {path!r}: it {error.reason}.") from None
    with stream:
        yield from bounded_lines(stream)


def line_json(number: int, raw: bytes | None) -> tuple[object, str | None, bool]:
    """One line of a JSON Lines file of hands (``eval``, ``odds``) through the one JSON loader:
    ``(value, None, True)``, or ``(None, sentence, is_text)`` when it cannot be used, or
    ``(None, None, True)`` for a blank line (it carries no hand). ``is_text`` is False for a line
    that is not UTF-8 text."""
    if raw is None:
        return None, f"the line is longer than {MAX_JSON_BYTES // (1024 * 1024)} MiB, the most a hand may take.", True
    if is_blank_line(raw):
        return None, None, True
    try:
        value = parse_json(raw, "the line")
    except JsonInputError as error:
        return None, str(error), error.reason != NOT_UTF8
    if value is None:  # JSON null: not a blank line, and no hand
        return None, "a hand must be a JSON object, got null.", True
    return value, None, True


def _line_hand(number: int, raw: bytes | None, exact: bool, reject_duplicates: bool) -> LineResult | None:
    obj, problem, is_text = line_json(number, raw)
    if problem is not None:
        return LineResult(number, error=problem, is_text=is_text)
    if obj is None:
        return None  # blank lines carry no hand
    try:
        return LineResult(number, evaluate(parse_hand(obj, reject_duplicates=reject_duplicates), exact=exact))
    except HandError as error:
        return LineResult(number, error=str(error))


def evaluate_lines(lines: Iterable[tuple[int, bytes]], exact: bool = False,
                   reject_duplicates: bool = False) -> Iterator[LineResult]:
    """Evaluate every non-blank line in order (lazily: a result per line as it is read)."""
    for number, raw in lines:
        result = _line_hand(number, raw, exact, reject_duplicates)
        if result is not None:
            yield result


def duplicate_warnings(showdown: Showdown, number: int | None = None) -> list[str]:
    """One sentence per serial that lies in two places of the hand (``line N:`` first when given)."""
    where = f"line {number}: " if number is not None else ""
    out = []
    for serial, fields in showdown.hand.duplicate_serials():
        times = "twice" if len(fields) == 2 else f"{len(fields)} times"
        places = ", ".join(fields[:-1]) + " and " + fields[-1]
        out.append(f"warning: {where}serial {serial} appears {times}: in {places}; one note cannot lie in two places.")
    return out


# ----------------------------------------------------------------------------- the quick form

_NAME_IS = re.compile(r"^\s*([^=]+?)\s*=\s*(.*?)\s*$")


def _shown(text: str) -> str:
    """A value from the command line as an error echoes it: quoted, at most 20 characters of it."""
    return short_value(repr(text))


def _known(name: str, names: list[str], flag: str) -> None:
    if name not in names:
        raise QuickFormError(
            flag, f"{_shown(name)} is not one of the players ({', '.join(short_value(n) for n in names) or 'none given'}).")


def _seats(players: Sequence[str], game: Game = Game.HOLDEM) -> list[dict]:
    seats: list[dict] = []
    form = "NAME=SERIAL,SERIAL, e.g. alice=7654321,0102030" if game.pocket_notes == 2 else \
        "NAME=SERIAL (Indian poker: one note each), e.g. alice=7654321"
    for spec in players:
        match = _NAME_IS.match(spec)
        if not match or not match.group(2):
            raise QuickFormError("--player", f"{_shown(spec)} must look like {form}.")
        name, notes = match.groups()
        seats.append({"name": name, "pocket": [s.strip() for s in notes.split(",")]})
    return seats


def _add_chips(seats: list[dict], chips: Sequence[str]) -> None:
    names = [seat["name"] for seat in seats]
    for spec in chips:
        match = _NAME_IS.match(spec)
        if not match or not re.fullmatch(r"\d+", match.group(2)):
            raise QuickFormError("--chips", f"{_shown(spec)} must look like NAME=CHIPS with a whole number of chips, "
                                            f"e.g. alice=25.")
        name, amount = match.groups()
        _known(name, names, "--chips")
        seat = seats[names.index(name)]
        if "contributed" in seat:
            raise QuickFormError("--chips", f"the chips of {_shown(name)} are given twice "
                                            f"({short_value(str(seat['contributed']))} and {short_value(amount)}); "
                                            f"give each player's chips once.")
        seat["contributed"] = int(amount)


def quick_hand(position: int | None, board: Sequence[str], players: Sequence[str],
               zero_joker: ZeroJoker | None = None, tie_policy: TiePolicy | None = None, dealer: str | None = None,
               chips: Sequence[str] = (), folded: Sequence[str] = (), not_revealed: Sequence[str] = (),
               game: Game | None = None) -> dict:
    """A FORMATS.md §1 object from the quick-form flags (``game`` Indian poker: ``NAME=SERIAL``, one note each).

    Raises:
        QuickFormError: a flag's syntax is wrong, or it names no player.
    """
    seats = _seats(players, Game(game or Game.HOLDEM))
    _add_chips(seats, chips)
    names = [seat["name"] for seat in seats]
    for flag, key, value, given in (("--folded", "folded", True, folded),
                                    ("--not-revealed", "revealed", False, not_revealed)):
        for name in given:
            _known(name, names, flag)
            seats[names.index(name)][key] = value
    if len(seats) < 2:
        raise QuickFormError("--player", f"{len(seats)} player(s) given; a hand needs at least 2 (repeat --player).")
    if position is None:
        raise QuickFormError("--position", "the playing position P (1-7) is needed.")
    obj: dict = {"position": position, "board": list(board), "players": seats}
    if game is not None and Game(game) is not Game.HOLDEM:
        obj["game"] = Game(game).value
    if zero_joker is not None:
        obj["zero_joker"] = ZeroJoker(zero_joker).value
    if tie_policy is not None:
        obj["tie_policy"] = TiePolicy(tie_policy).value
    if dealer is not None:
        obj["dealer"] = dealer
    return obj


def flag_of(message: str, obj: dict) -> tuple[str, str]:
    """Map a HandError about a FORMATS.md field to the quick-form flag that set it, and say it in its words."""
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
                        ("zero_joker", "--zero-joker"), ("tie_policy", "--tie-policy"), ("every player folded", "--folded"),
                        ("no player still in", "--not-revealed"),
                        ("players", "--player"), ("serial", "--player / --board")):
        if message.startswith(field):
            if field == "position":  # the flag names it: "Invalid value for '--position': must be from 1 to 7, ..."
                message = message[len(field):].lstrip()
            return flag, message
    return "--player / --board", message


def evaluate_quick(obj: dict, exact: bool = False, reject_duplicates: bool = False) -> Showdown:
    """Evaluate a :func:`quick_hand` object.

    Raises:
        QuickFormError: the rules refuse the hand (named by the flag that set the bad field).
    """
    try:
        hand = parse_hand(obj, reject_duplicates=reject_duplicates)
    except HandError as error:
        raise QuickFormError(*flag_of(str(error), obj)) from None
    return evaluate(hand, exact=exact)
