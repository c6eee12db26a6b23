"""FORMATS.md §1-2 as plain Python objects: parse a hand, shape a result.

No I/O here: callers decode the JSON line themselves and pass the object.

>>> hand = parse_hand({"position": 1, "board": ["2555555", "3666666", "7888888"],
...     "players": [{"name": "A", "pocket": ["9111110", "5222222"]},
...                 {"name": "B", "pocket": ["9123456", "8234567"]}]})
>>> out = result_to_json(evaluate(hand))
>>> out["players"]["B"]["class"], out["players"]["B"]["ranks"], out["winners"]
('straight', [9, 8, 7], ['B'])
>>> parse_hand({"position": 8, "board": [], "players": []})
Traceback (most recent call last):
...
dealer_assist.rules.errors.HandError: position must be from 1 to 7, got 8.
"""

from __future__ import annotations

import json
import re
from fractions import Fraction
from typing import Any

from dealer_assist.rules.errors import HandError
from dealer_assist.rules.hands import BestHand
from dealer_assist.rules.options import Game, TiePolicy, ZeroJoker
from dealer_assist.rules.showdown import Hand, Player, Showdown, evaluate  # noqa: F401 (doctests)
from dealer_assist.rules.settlement import Settlement

__all__ = ["parse_hand", "result_to_json", "best_to_json", "settlement_to_json", "chips_to_json", "short_value",
           "shorten_echo", "option_choices"]


def parse_hand(obj: object, *, reject_duplicates: bool = False) -> Hand:
    """Validate a FORMATS.md §1 object (already JSON-decoded) and build a Hand.

    ``position``, ``board`` and ``players`` are required (``board`` may be left
    out of an Indian poker hand: it has none); ``game`` (default ``"holdem"``: a
    record without it is a Hold'em hand), ``zero_joker`` (default ``"off"``),
    ``tie_policy`` (default ``"split"``), ``dealer`` and ``carried_in`` (an extra
    field: whole chips carried into the main pot from the hands before, RULES.md
    §4 rollover; default 0) are optional; unknown
    keys (``why``, ``expect``...) are ignored.  With
    ``reject_duplicates`` the same serial in two places is an error too.

    Raises :class:`HandError` with one sentence naming the field for any
    missing field, wrong type or value outside RULES.md (see :class:`Hand`).
    """
    if not isinstance(obj, dict):
        raise HandError(f"a hand must be a JSON object, got {_kind(obj)}.")
    if "game" in obj and obj["game"] not in [m.value for m in Game]:
        raise HandError(f"game must be {option_choices(Game)}, not {_kind(obj['game'])}.")
    game = Game(obj.get("game", Game.HOLDEM.value))
    for key in ("position", "board", "players"):
        if key not in obj and not (key == "board" and game is Game.INDIAN):
            raise HandError(f"{key} is missing.")
    board = obj.get("board", [])
    if not isinstance(board, list):
        raise HandError(f"board must be a list of serials, got {_kind(board)}.")
    players_obj = obj["players"]
    if not isinstance(players_obj, list):
        raise HandError(f"players must be a list of players, got {_kind(players_obj)}.")
    players = tuple(_parse_player(p, f"players[{i}]") for i, p in enumerate(players_obj))
    dealer = obj.get("dealer")
    if dealer is not None and not isinstance(dealer, str):
        raise HandError(f"dealer must be a player's name, got {_kind(dealer)}.")
    carried_in = obj.get("carried_in", 0)
    if isinstance(carried_in, bool) or not isinstance(carried_in, int):
        raise HandError(f"carried_in must be a whole number of chips, got {_kind(carried_in)}.")
    for key, enum in (("zero_joker", ZeroJoker), ("tie_policy", TiePolicy)):
        if key in obj and obj[key] not in [m.value for m in enum]:
            raise HandError(f"{key} must be {option_choices(enum)}, not {_kind(obj[key])}.")
    try:
        hand = Hand(
            position=obj["position"],
            board=tuple(board),
            players=players,
            zero_joker=obj.get("zero_joker", "off"),
            tie_policy=obj.get("tie_policy", "split"),
            dealer=dealer,
            game=game,
            carried_in=carried_in,
        )
    except HandError as error:
        raise HandError(shorten_echo(str(error))) from None
    if reject_duplicates:
        for serial, fields in hand.duplicate_serials():
            raise HandError(
                f"serial {serial} appears in {' and '.join(fields)}; one note cannot lie in two places."
            )
    return hand


def _parse_player(obj: object, where: str) -> Player:
    if not isinstance(obj, dict):
        raise HandError(f"{where} must be an object with name and pocket, got {_kind(obj)}.")
    for key in ("name", "pocket"):
        if key not in obj:
            raise HandError(f"{where}.{key} is missing.")
    name, pocket = obj["name"], obj["pocket"]
    if not isinstance(name, str):
        raise HandError(f"{where}.name must be a string, got {_kind(name)}.")
    if not isinstance(pocket, list):
        raise HandError(f"{where}.pocket must be a list of serials, got {_kind(pocket)}.")
    for key in ("folded", "revealed"):
        if key in obj and not isinstance(obj[key], bool):
            raise HandError(f"{where}.{key} must be true or false, got {_kind(obj[key])}.")
    contributed = obj.get("contributed")
    if contributed is not None and (isinstance(contributed, bool) or not isinstance(contributed, int)):
        raise HandError(f"{where}.contributed must be a whole number of chips, got {_kind(contributed)}.")
    return Player(
        name=name,
        pocket=tuple(pocket),
        contributed=contributed,
        folded=obj.get("folded", False),
        revealed=obj.get("revealed", True),
    )


#: Longest part of a wrong value an error sentence echoes (a 5 MB serial is shown by its start).
ECHO_LIMIT = 20


def short_value(text: str, limit: int = ECHO_LIMIT) -> str:
    """``text`` (a value as an error echoes it) cut to ``limit`` characters plus "…", quotes kept.

    >>> short_value("'" + "1" * 30 + "'"), short_value("9" * 25), short_value("'on'")
    ("'11111111111111111111…'", '99999999999999999999…', "'on'")
    """
    if len(text) <= limit + 2:
        return text
    quote = text[0]
    if quote in "'\"" and len(text) > 1 and text.endswith(quote):
        return quote + text[1:limit + 1] + "…" + quote
    return text[:limit] + "…"


# The engine's sentences that echo a value (rules/notes.py, rules/showdown.py), most specific first.
_ECHOES = (
    re.compile(r"^(players\[\d+\]\.name )(.+)( is used by another player\.)$", re.S),
    re.compile(r"^(dealer )(.+)( is not one of the players\.)$", re.S),
    re.compile(r"^(.*?, got )(.+)(\.)$", re.S),
)


def shorten_echo(message: str) -> str:
    """An engine error sentence with the wrong value it echoes cut by :func:`short_value`.

    >>> shorten_echo("position must be from 1 to 7, got " + "1" * 400 + ".")
    'position must be from 1 to 7, got 11111111111111111111….'
    """
    for form in _ECHOES:
        match = form.match(message)
        if match:
            return match.group(1) + short_value(match.group(2)) + match.group(3)
    return message


def option_choices(enum: type) -> str:
    """``"off, per-zero or once"``: an option's values for an error sentence."""
    values = [m.value for m in enum]
    return ", ".join(values[:-1]) + " or " + values[-1]


def _kind(value: object) -> str:
    """A JSON-ish description of a wrong value for error sentences (at most :data:`ECHO_LIMIT` characters of it)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    names = {dict: "an object", list: "a list", type(None): "null"}
    if value is None or isinstance(value, (dict, list)):
        return names[type(value)]
    if isinstance(value, str):
        return short_value(repr(value))
    try:
        text = json.dumps(value, ensure_ascii=False) if isinstance(value, (int, float)) else repr(value)
    except ValueError:  # an int too long to spell (over 4300 digits)
        text = f"a {value.bit_length()}-bit number"
    return short_value(text)


def chips_to_json(chips: int | Fraction) -> int | str:
    """Chips as JSON: an int, or ``"a/b"`` for a non-whole exact share.

    >>> chips_to_json(Fraction(17, 3)), chips_to_json(Fraction(6)), chips_to_json(5)
    ('17/3', 6, 5)
    """
    if isinstance(chips, Fraction):
        return chips.numerator if chips.denominator == 1 else f"{chips.numerator}/{chips.denominator}"
    return chips


def best_to_json(best: BestHand | None, serials: tuple[str, ...], pocket_count: int) -> dict[str, Any]:
    """FORMATS.md §2 ``players[name]``: class, ranks, natural and the 3 notes played, for a best hand over
    ``serials`` (the pocket's ``pocket_count`` serials first, then the board's); ``class`` null for no hand."""
    if best is None:
        return {"class": None, "ranks": None, "natural": None, "notes": []}
    notes = [
        {
            "serial": serials[i],
            "from": "pocket" if i < pocket_count else "board",
            "rank": option.rank,
            "natural": option.natural,
            "reason": option.reason,
        }
        for i, option in zip(best.notes, best.options)
    ]
    return {"class": best.hand_class.value, "ranks": list(best.ranks), "natural": best.natural, "notes": notes}


def settlement_to_json(settlement: Settlement) -> dict[str, Any]:
    """FORMATS.md §2 ``settlement``: pots, payouts, carry; with chips carried in from the hands before,
    the extra field ``carried_in`` (in the settlement and in the main pot, whose ``amount`` and whose
    winners' ``payouts`` hold them: ``payouts`` stays what each player receives, paid once)."""
    pots = []
    for pot in settlement.pots:
        entry: dict[str, Any] = {"amount": pot.amount, "eligible": list(pot.eligible), "winners": list(pot.winners)}
        if pot.carried_in:
            entry["carried_in"] = pot.carried_in
        pots.append(entry)
    out: dict[str, Any] = {
        "pots": pots,
        "payouts": {name: chips_to_json(chips) for name, chips in settlement.payouts.items()},
        "carry": chips_to_json(settlement.carry),
    }
    if settlement.carried_in:
        out["carried_in"] = settlement.carried_in
    return out


def result_to_json(showdown: Showdown) -> dict[str, Any]:
    """The FORMATS.md §2 result of an evaluated hand, ready for ``json.dumps``.

    ``players`` maps each name (seat order) to ``class`` (``"high"``,
    ``"pair"``, ``"straight"``, ``"set"`` or ``None`` for no hand), ``ranks``
    by significance, ``natural`` and ``notes`` (the 3 notes played: serial,
    pocket or board, rank, natural, reason).  ``winners`` in seat order;
    ``settlement`` only when some player has ``contributed``; ``warnings``
    (extra) lists serials found in two places; ``game`` (extra) is given for an
    Indian poker hand, whose players' ``ranks`` hold the one note's rank (class
    ``"high"``; ``null`` for a dead note).
    """
    out: dict[str, Any] = {} if showdown.hand.game is Game.HOLDEM else {"game": showdown.hand.game.value}
    out |= {
        "players": {
            r.name: best_to_json(r.best, r.serials, len(r.player.pocket)) for r in showdown.players
        },
        "winners": list(showdown.winners),
    }
    if showdown.settlement is not None:
        out["settlement"] = settlement_to_json(showdown.settlement)
    duplicates = showdown.hand.duplicate_serials()
    if duplicates:
        out["warnings"] = [f"serial {s} appears in {' and '.join(f)}." for s, f in duplicates]
    return out
