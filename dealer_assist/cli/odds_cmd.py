"""``dealer-assist odds``: each player's exact chance to win or split at an all-in.

Wiring only: the odds are :func:`dealer_assist.rules.odds.all_in_odds`; this
module reads FORMATS.md §1 lines, prints one result per hand and says what is
wrong with a bad line in one sentence, as ``dealer-assist eval`` does.
"""

from __future__ import annotations

import sys
from typing import Iterator, Optional

import typer
from rich.console import Group
from rich.table import Table
from rich.text import Text

from dealer_assist.app.typed_hands import HandsFileError, line_json, numbered_lines
from dealer_assist.cli.app import app
from dealer_assist.cli.options import lang_option, resolve_lang, echo_err
from dealer_assist.i18n import Lang, number, say, texts
from dealer_assist.cli.output import OutputError, json_line, line_error, output_errors, report_console, write_stdout
from dealer_assist.render import name_text, percent, serial_text
from dealer_assist.rules.errors import HandError
from dealer_assist.rules.indian_odds import IndianOdds, indian_odds, indian_odds_to_json
from dealer_assist.rules.odds import AllInOdds, all_in_odds, odds_to_json, parse_odds_hand
from dealer_assist.rules.options import Game
from dealer_assist.rules.showdown import Hand

__all__ = ["odds_command", "render_odds", "render_indian_odds", "deal_count"]

EPILOG = (
    "Examples:\n\n"
    "  dealer-assist odds --hands allin.jsonl\n\n"
    "  echo '{\"position\": 4, \"board\": [\"1234567\"], \"players\": [{\"name\": \"A\", \"pocket\": "
    "[\"7654321\", \"0102030\"]}, {\"name\": \"B\", \"pocket\": [\"9990999\", \"1234000\"]}]}' "
    "| dealer-assist odds --hands - --json"
)


@app.command("odds", epilog=EPILOG)
def odds_command(
    hands: str = typer.Option(
        ..., "--hands", metavar="FILE",
        help="JSON Lines file of hands (see `dealer-assist formats`) with 0-3 board notes known; '-' reads standard "
             "input. "
             "Every player still in needs both pocket notes; a folded or unrevealed player's may be null.",
    ),
    as_json: bool = typer.Option(
        False, "--json",
        help='One line per hand: {"players": {"P1": {"win": 0.4213, "tie": 0.031}, ...}, "board_unknown": 2}; '
             'a bad line gives {"error": ...}.',
    ),
    exact: bool = typer.Option(
        False, "--exact", help="With --json, also the exact probabilities as fractions (win_exact, tie_exact).",
    ),
    lang: Optional[Lang] = lang_option(),
) -> None:
    """Exact all-in odds: each player's chance to win the pot alone or to split it.

    Every serial not seen in the hand is equally likely for a board note to come (the rules: `dealer-assist rules`).

    An Indian poker line ("game": "indian") gets both views: each player's own chance over every note their own
    can be (they see every note but theirs), and the spectator's (every note known).

    Folded and unrevealed players have no chance; with 3 board notes known the result is the showdown's.
    """
    language = resolve_lang(lang).value
    with output_errors():
        seen, bad = _odds_file(hands, as_json, exact, language)
    if not seen:
        source = "standard input" if hands == "-" else hands
        echo_err(say(f"no hands in {source}.", language))
        raise typer.Exit(code=1)
    if bad:
        echo_err(say(f"{bad} hand line(s) could not be evaluated.", language))
        raise typer.Exit(code=1)


_STATUS = {"folded": "folded", "not revealed": "hidden", "last standing": "standing"}

#: Counts of deals above this are written as a power of ten (``about 1.0 × 10^21``): 22 digits say nothing.
EXACT_COUNT_LIMIT = 10 ** 9


def deal_count(n: int, lang: str = "en") -> str:
    """A number of deals for people: ``"1,368"``; ``"about 1.0 × 10^21"`` above :data:`EXACT_COUNT_LIMIT`.

    Russian groups digits with narrow no-break spaces and writes a decimal comma (:func:`~dealer_assist.i18n.number`).

    >>> deal_count(1368), deal_count(999_998_500_000_739_999_880), deal_count(9_999_995, "ru")
    ('1,368', 'about 1.0 × 10^21', '9\u202f999\u202f995')
    """
    if n <= EXACT_COUNT_LIMIT:
        return number(n, lang)
    exponent = len(str(n)) - 1
    mantissa = n / 10 ** exponent
    if round(mantissa, 1) >= 10:
        mantissa, exponent = mantissa / 10, exponent + 1
    return f"{texts(lang)['about']} {number(mantissa, lang, 1)} × 10^{exponent}"


def render_odds(hand: Hand, odds: AllInOdds, unknown: frozenset[tuple[str, int]], title: str | None = None,
                lang: str = "en") -> Group:
    """A hand's odds as a rich renderable: the title, the board, then per player the pocket notes
    (digit at P highlighted; ``?`` when unknown), win, tie and why a player has no chance."""
    t = texts(lang)
    p = hand.position
    board = Text(t["odds_header"].format(p=p, zj=t[hand.zero_joker.value]) + " ")
    for serial in hand.board:
        board.append_text(serial_text(serial, p))
        board.append(" ")
    if odds.board_unknown:
        from dealer_assist.i18n import plural

        notes = plural(odds.board_unknown, lang, "note", "notes") if lang == "en" else plural(
            odds.board_unknown, lang, "купюра", "купюры", "купюр")
        board.append(t["odds_to_come" if hand.board else "odds_notes_to_come"].format(n=odds.board_unknown,
                                                                                       notes=notes))
    else:
        board.append(t["odds_complete"])
    table = Table()
    statuses = any(result.status != "in" for result in odds.players)
    for key in ("player", "pocket", "win", "tie"):
        table.add_column(t[key], justify="right" if key in ("win", "tie") else "left")
    if statuses:
        table.add_column("")
    for player, result in zip(hand.players, odds.players):
        pocket = Text()
        for j, serial in enumerate(player.pocket):
            if j:
                pocket.append(" ")
            pocket.append("???????" if (player.name, j) in unknown else serial_text(serial, p))
        row = [name_text(player.name), pocket, percent(result.win, lang=lang), percent(result.tie, lang=lang)]
        status = _STATUS.get(result.status)
        table.add_row(*row, *([t[status] if status else ""] if statuses else []))
    caption = Text(t["odds_shared"].format(p=percent(float(odds.split_exact), lang=lang)))
    if odds.board_unknown:
        caption.append(" · " + t["odds_deals"].format(n=deal_count(odds.deals, lang)))
    heading = [Text(title, style="bold")] if title else []
    return Group(*heading, board, table, caption)



def render_indian_odds(hand: Hand, odds: IndianOdds, unknown: frozenset[tuple[str, int]],
                       title: str | None = None, lang: str = "en") -> Group:
    """An Indian poker hand's odds: per player the note (digit at P highlighted; ``?`` when unknown), the chance
    the player computes not seeing their own note, and the spectator's, who sees every note (RULES.md §7)."""
    t = texts(lang)
    p = hand.position
    table = Table()
    statuses = any(result.status != "in" for result in odds.players)
    for key in ("player", "note", "own_win", "tie_lower", "spectator_win", "tie_lower"):
        table.add_column(t[key], justify="left" if key in ("player", "note") else "right")
    if statuses:
        table.add_column("")
    for player, own, seen in zip(hand.players, odds.players, odds.spectator):
        note = Text("???????") if (player.name, 0) in unknown or not player.pocket else serial_text(player.pocket[0], p)
        status = _STATUS.get(own.status)
        table.add_row(name_text(player.name), note, percent(own.win, lang=lang), percent(own.tie, lang=lang),
                      percent(seen.win, lang=lang), percent(seen.tie, lang=lang), *([t[status] if status else ""] if statuses else []))
    heading = [Text(title, style="bold")] if title else []
    return Group(*heading, Text(t["indian_header"].format(p=p)), table, Text(t["indian_own_legend"]))


#: Each game's odds: the function, its JSON and its renderable (RULES.md §2-4; §7).
_ODDS = {Game.HOLDEM: (all_in_odds, odds_to_json, render_odds),
         Game.INDIAN: (indian_odds, indian_odds_to_json, render_indian_odds)}


def _lines(path: str) -> Iterator[tuple[int, bytes | None]]:
    """Numbered raw lines of ``path`` ('-' = stdin), read lazily (:func:`~dealer_assist.app.typed_hands.numbered_lines`)."""
    try:
        yield from numbered_lines(path)
    except HandsFileError as error:
        raise typer.BadParameter(str(error), param_hint="'--hands'") from None


def _decode(number: int, raw: bytes | None) -> tuple[object, str | None]:
    """The JSON value of a line, or the sentence saying why there is none (``None`` for a blank line)."""
    obj, problem, _ = line_json(number, raw)
    return obj, problem


def _odds_file(path: str, as_json: bool, exact: bool, lang: str = "en") -> tuple[int, int]:
    """The odds of every line of ``path`` in order; how many lines held something, how many were bad."""
    seen = bad = 0
    for number, raw in _lines(path):
        obj, problem = _decode(number, raw)
        if obj is None and problem is None:
            continue  # blank lines carry no hand
        seen += 1
        if problem is not None:
            bad += 1
            line_error(number, problem, as_json, lang)
            continue
        try:
            hand, unknown = parse_odds_hand(obj)
            compute, to_json, render = _ODDS[hand.game]
            odds = compute(hand, unknown_notes=unknown)
        except HandError as error:
            bad += 1
            line_error(number, str(error), as_json, lang)
            continue
        if as_json:
            write_stdout(json_line(to_json(odds, exact=exact)))
        else:
            try:
                report_console().print(render(hand, odds, unknown, title=texts(lang)["hand_line"].format(line=number),
                                              lang=lang))
                sys.stdout.flush()
            except OSError as error:
                raise OutputError() from error
        _warn_duplicates(number, hand, unknown, lang)
    return seen, bad


def _warn_duplicates(number: int, hand: Hand, unknown: frozenset[tuple[str, int]], lang: str = "en") -> None:
    """One stderr line per serial seen in two places (it is taken out of the deck once)."""
    stand_ins = {f"players[{i}].pocket[{j}]" for i, p in enumerate(hand.players) for j in (0, 1)
                 if (p.name, j) in unknown}
    for serial, fields in hand.duplicate_serials():
        fields = [f for f in fields if f not in stand_ins]
        if len(fields) > 1:
            places = ", ".join(fields[:-1]) + " and " + fields[-1]
            echo_err(say(f"warning: line {number}: serial {serial} appears in {places}; one note cannot lie in two "
                         f"places (it is taken out of the deck once).", lang))
