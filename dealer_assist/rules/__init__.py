"""The rules engine of Banknote Hold'em (RULES.md §2-4) and banknote Indian poker (§7): pure Python, no I/O.

Typical use::

    from dealer_assist.rules import parse_hand, evaluate, result_to_json
    showdown = evaluate(parse_hand(json.loads(line)))
    showdown.winners                  # ('P3',)
    result_to_json(showdown)          # FORMATS.md §2

Modules, after the domain nouns: :mod:`~.notes` (a note's rank options, §2),
:mod:`~.hands` (best 3-note hand, §3), :mod:`~.showdown` (the hand and its
winners, §3-4), :mod:`~.settlement` (side pots, §4), :mod:`~.options`
(zero-joker and tie policy), :mod:`~.formats` (FORMATS.md §1-2 objects),
:mod:`~.odds` (exact all-in odds over the board notes to come, §2-4),
:mod:`~.indian_odds` (Indian poker's odds, the player's and the spectator's
view, §7), :mod:`~.betting` (Indian poker's betting round, §7.3).  The game
(:class:`Game`, Hold'em or Indian poker) is an option of the hand: both share
the ranks, the showdown, the settlement and the odd chips.
"""

from dealer_assist.rules.errors import HandError
from dealer_assist.rules.formats import chips_to_json, parse_hand, result_to_json
from dealer_assist.rules.hands import NO_HAND, BestHand, HandClass, best_hand, best_note, best_of, classify, hand_strength
from dealer_assist.rules.notes import RankOption, Shift, check_serial, is_serial, rank_options, repeated_serials
from dealer_assist.rules.odds import AllInOdds, PlayerOdds, all_in_odds, odds_to_json, parse_odds_hand
from dealer_assist.rules.indian_odds import IndianOdds, indian_odds, indian_odds_to_json
from dealer_assist.rules.options import Game, TiePolicy, ZeroJoker
from dealer_assist.rules.settlement import Pot, Settlement, settle, split_chips
from dealer_assist.rules.showdown import Hand, Player, PlayerResult, Showdown, dealer_among, evaluate, from_dealers_left

__all__ = [
    "AllInOdds",
    "BestHand",
    "Game",
    "IndianOdds",
    "Hand",
    "HandClass",
    "HandError",
    "NO_HAND",
    "Player",
    "PlayerOdds",
    "PlayerResult",
    "Pot",
    "RankOption",
    "Settlement",
    "Shift",
    "Showdown",
    "TiePolicy",
    "ZeroJoker",
    "all_in_odds",
    "best_hand",
    "best_note",
    "best_of",
    "indian_odds",
    "indian_odds_to_json",
    "check_serial",
    "chips_to_json",
    "classify",
    "dealer_among",
    "from_dealers_left",
    "evaluate",
    "hand_strength",
    "is_serial",
    "odds_to_json",
    "parse_hand",
    "parse_odds_hand",
    "rank_options",
    "repeated_serials",
    "result_to_json",
    "settle",
    "split_chips",
]
