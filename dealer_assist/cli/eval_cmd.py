"""``dealer-assist eval``: evaluate hands from a JSON Lines file or typed at the table.

Wiring only: reading and checking hands is :mod:`dealer_assist.app.typed_hands`,
the rules :mod:`dealer_assist.rules`, the human output :mod:`dealer_assist.render`.
"""

from __future__ import annotations

import sys
from typing import List, Optional

import typer

from dealer_assist.app.typed_hands import (
    HandsFileError,
    QuickFormError,
    duplicate_warnings,
    evaluate_lines,
    evaluate_quick,
    numbered_lines,
    quick_hand,
)
from dealer_assist.cli.app import app
from dealer_assist.cli.options import game_option, lang_option, resolve_lang, tie_policy_option, zero_joker_option, echo_err
from dealer_assist.cli.output import (WARNINGS_SHOWN, OutputError, json_line, line_error, output_errors, report_console,
                                      write_stdout)
from dealer_assist.i18n import Lang, say, texts
from dealer_assist.render import render_showdown, safe_text
from dealer_assist.rules import Game, Showdown, TiePolicy, ZeroJoker, result_to_json

__all__ = ["eval_command"]

INPUT, QUICK, OUTPUT = "Hands file", "One hand typed at the table (quick form)", "Output"

EPILOG = (
    "Examples:\n\n"
    "  dealer-assist eval --hands hands.jsonl --json\n\n"
    "  cat hands.jsonl | dealer-assist eval --hands -\n\n"
    "  dealer-assist eval --position 4 --board 1234567 --board 0000123 --board 5550555 "
    "--player alice=7654321,0102030 --player bob=9990999,1234000 "
    "--chips alice=25 --chips bob=25 --dealer bob --zero-joker per-zero\n\n"
    "  dealer-assist eval --game indian --position 4 --player alice=7654321 --player bob=9990999 "
    "--player chen=1234000 --dealer chen"
)


@app.command("eval", epilog=EPILOG)
def eval_command(
    hands: Optional[str] = typer.Option(
        None, "--hands", metavar="FILE", rich_help_panel=INPUT,
        help="JSON Lines file of hands, one hand per line (see `dealer-assist formats`); '-' reads standard input."),
    position: Optional[int] = typer.Option(
        None, "--position", "-p", metavar="P", rich_help_panel=QUICK, show_default=False,
        help="Playing position P, 1-7 (digit of the serial counted from the left)."),
    board: Optional[List[str]] = typer.Option(
        None, "--board", "-b", metavar="SERIAL", rich_help_panel=QUICK,
        help="A board note's 7 digits; repeat for each board note (0-3)."),
    player: Optional[List[str]] = typer.Option(
        None, "--player", metavar="NAME=SERIAL,SERIAL", rich_help_panel=QUICK,
        help="A player and both pocket notes, e.g. alice=7654321,0102030 (Indian poker: the one note, alice=7654321); "
             "repeat in seat order (2 or more)."),
    game: Optional[Game] = game_option(
        None, rich_help_panel=QUICK, shown="holdem; a line of --hands says its own game"),
    zero_joker: Optional[ZeroJoker] = zero_joker_option(
        None, rich_help_panel=QUICK, shown="off"),
    tie_policy: Optional[TiePolicy] = tie_policy_option(
        None, rich_help_panel=QUICK, shown="split"),
    dealer: Optional[str] = typer.Option(
        None, "--dealer", metavar="NAME", rich_help_panel=QUICK,
        help="The dealer; odd chips go to tied winners from the dealer's left."),
    chips: Optional[List[str]] = typer.Option(
        None, "--chips", metavar="NAME=CHIPS", rich_help_panel=QUICK,
        help="Chips a player put in this hand, e.g. alice=25; repeat per player to get the settlement."),
    folded: Optional[List[str]] = typer.Option(
        None, "--folded", metavar="NAME", rich_help_panel=QUICK, help="A player who folded; repeat."),
    not_revealed: Optional[List[str]] = typer.Option(
        None, "--not-revealed", metavar="NAME", rich_help_panel=QUICK,
        help="A player who did not reveal at the showdown; repeat."),
    as_json: bool = typer.Option(
        False, "--json", rich_help_panel=OUTPUT,
        help='One JSON result per hand on standard output (see `dealer-assist formats`); a bad line gives '
             '{"error": ...}.'),
    lang: Optional[Lang] = lang_option(rich_help_panel=OUTPUT),
    exact: bool = typer.Option(
        False, "--exact", rich_help_panel=OUTPUT,
        help="Split tied pots into exact fractions (e.g. 17/3) instead of whole chips."),
    reject_duplicates: bool = typer.Option(
        False, "--reject-duplicates", rich_help_panel=INPUT,
        help="Treat the same serial in two places of one hand as an error (default: a warning)."),
) -> None:
    """Evaluate hands: each note's rank and why, best hands, winners and the settlement.

    Give either --hands FILE or one hand with --position, --board and --player.
    """
    lang = resolve_lang(lang)
    quick = {
        "--position": position is not None, "--board": bool(board), "--player": bool(player),
        "--zero-joker": zero_joker is not None, "--tie-policy": tie_policy is not None,
        "--dealer": dealer is not None, "--chips": bool(chips), "--folded": bool(folded),
        "--not-revealed": bool(not_revealed), "--game": game is not None,
    }
    used = [flag for flag, given in quick.items() if given]
    if hands is not None and used:
        raise typer.BadParameter(f"--hands takes every hand from the file; drop {', '.join(used)}.",
                                 param_hint="'--hands'")
    if hands is None:
        if not used:
            raise typer.BadParameter("give --hands FILE, or one hand with --position, --board and --player "
                                     "(see --help).", param_hint="'--hands' / '--position'")
        try:
            showdown = evaluate_quick(quick_hand(position, board or [], player or [], zero_joker, tie_policy, dealer,
                                                 chips or [], folded or [], not_revealed or [], game),
                                      exact=exact, reject_duplicates=reject_duplicates)
        except QuickFormError as error:
            raise typer.BadParameter(str(error), param_hint=f"'{error.flag}'") from None
        with output_errors():
            _emit(None, showdown, as_json, lang, title=None)
        return
    with output_errors():
        seen, bad = _evaluate_file(hands, as_json, lang, exact, reject_duplicates)
    if not seen:
        echo_err(say(f"no hands in {'standard input' if hands == '-' else hands}.", lang))
        raise typer.Exit(code=1)
    if bad:
        echo_err(say(f"{bad} hand line(s) could not be evaluated.", lang))
        raise typer.Exit(code=1)


class _Warnings:
    """The duplicate-serial warnings of a run: the first :data:`~dealer_assist.cli.output.WARNINGS_SHOWN` said
    at once on stderr, beside their hand; the rest counted and said in one line at the end."""

    def __init__(self, lang: str = "en") -> None:
        self.said = self.more = 0
        self.lang = lang

    def say(self, warning: str) -> None:
        if self.said < WARNINGS_SHOWN:
            self.said += 1
            echo_err(safe_text(say(warning, self.lang)))
        else:
            self.more += 1

    def close(self) -> None:
        if self.more:
            echo_err(say(f"warning: and {self.more} more serial(s) seen in two places of one hand "
                         f"(--reject-duplicates refuses such hands).", self.lang))


def _emit(number: Optional[int], showdown: Showdown, as_json: bool, lang: str, title: Optional[str],
          warnings: Optional[_Warnings] = None) -> None:
    if as_json:
        write_stdout(json_line(result_to_json(showdown)))
    else:
        try:
            report_console().print(render_showdown(showdown, lang, title=title, duplicate_warnings=False))
            sys.stdout.flush()
        except OSError as error:
            raise OutputError() from error
    for warning in duplicate_warnings(showdown, number):
        if warnings is not None:
            warnings.say(warning)
        else:
            echo_err(safe_text(say(warning, lang)))



def _evaluate_file(path: str, as_json: bool, lang: str, exact: bool, reject_duplicates: bool) -> tuple[int, int]:
    """Evaluate and print every line of ``path`` in order; return how many lines held something, and how many were bad."""
    seen = bad = 0
    warnings = _Warnings(lang)
    try:
        for result in evaluate_lines(numbered_lines(path), exact, reject_duplicates):
            seen += result.is_text
            if result.error is not None:
                bad += 1
                line_error(result.number, result.error, as_json, lang)
            else:
                _emit(result.number, result.showdown, as_json, lang,
                      title=texts(lang)["hand_line"].format(line=result.number), warnings=warnings)
    except HandsFileError as error:
        raise typer.BadParameter(str(error), param_hint="'--hands'") from None
    warnings.close()
    return seen, bad
