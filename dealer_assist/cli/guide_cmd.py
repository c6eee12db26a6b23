"""``dealer-assist rules`` and ``dealer-assist formats``: the game and the files in a page each.

The help of the other commands refers to them, so a user who installed only the
package has what the options mean (the words are in :data:`dealer_assist.i18n_guides.GUIDES`).
"""

from __future__ import annotations

from typing import Optional


from dealer_assist.cli.app import app
from dealer_assist.cli.options import game_option, lang_option, resolve_lang
from dealer_assist.cli.output import output_errors, write_stdout
from dealer_assist.i18n import Lang
from dealer_assist.i18n_guides import GUIDES
from dealer_assist.rules import Game

__all__ = ["rules_command", "formats_command"]


#: The guide of each game.
_RULES = {Game.HOLDEM: "rules", Game.INDIAN: "rules_indian"}


@app.command("rules")
def rules_command(lang: Optional[Lang] = lang_option(),
                  game: Game = game_option(Game.HOLDEM, help="The game whose rules to print: holdem or indian "
                                                             "(Indian poker, one note each).")) -> None:
    """The rules of Banknote Hold'em in short (--game indian: banknote Indian poker).

    A note's rank at the playing position, the zero rules and the zero-joker, the hands, ties, the showdown and
    the chips.
    """
    with output_errors():
        write_stdout(GUIDES[resolve_lang(lang).value][_RULES[game]])


@app.command("formats")
def formats_command(lang: Optional[Lang] = lang_option()) -> None:
    """The files dealer-assist reads and writes, in short.

    A hand and its result (eval, odds), the serials read from photos (read --json) and a photographed hand
    (score).
    """
    with output_errors():
        write_stdout(GUIDES[resolve_lang(lang).value]["formats"])
