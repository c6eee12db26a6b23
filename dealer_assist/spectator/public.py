"""What a spectator may see: one hand and the session's balances, as plain JSON for the page.

Both sources — a table-state file (:mod:`.state`, the hand in play) and a
hand-log record (:mod:`dealer_assist.live.history`, a finished hand) — are
turned into the same *public hand* by copying only known fields, each checked
for its type; nothing else passes. The rule that matters:

    a seat's pocket serials, its best hand and its odds are public only when
    the seat has **revealed** (both pocket notes face up at the table). In
    Indian poker (its one note) only once the hand is **decided**: a player
    must not learn their own note from the screen (RULES.md §7.1).

It is applied here, on the server, whatever the file says: a buggy or
hand-edited state file that carries the pocket serials of a seat that has not
revealed does not get them to the page. A log record's seat counts as
revealed only when its ``best_hands`` entry says ``"revealed": true``.

The public hand::

    {"source": "live" | "log", "game": "holdem" | "indian", "hand": 3, "session": "…" | null,
     "position": 4, "position_random": false, "zero_joker": "off", "tie_policy": "split",
     "dealer": "P2" | null, "street": "flop", "decided": false, "time": "<ISO>" | null,
     "board": [{"serial": "1234567" | null, "rank": 4 | null, "natural": true | null,
                "reason": "d4=4, natural" | null, "reason_ru": "d4=4, натуральная" | null}, …],  # 0-3 notes
     "seats": [{"name": "P1", "folded": false, "dealer": false, "revealed": true,
                "pocket": ["…", "…"] | null, "notes": [{as a board note}, …] | null, "best": {"class": "pair", "en": "Pair", "ru": "Пара",
                "ranks": [4, 4, 2], "natural": true} | null, "odds": {"win": 0.42, "tie": 0.03} | null,
                                                  # Indian poker: "pocket": ["…"], "best" with the one
                                                  # rank and its "reason", worked out here from the serial
                "result": "wins" | … | null, "payout": 40 | "17/3" | null, "chips": 20 | null}, …],
     "winners": ["P1"], "carry": 0 | null, "board_unknown": 2 | null,
     "carried_in": {"carried": 11, "main": 10 | null, "total": 21 | null, "to": ["P1"] | null} | null}

``carried_in``: chips carried into the hand's main pot from the hands before (a tie rolled over,
RULES.md §4); once decided, the main pot's own chips (``main``), its whole (``total``) and who takes
it (``to``: empty when it rolls on again), as the rules settled it: the seats' ``payout`` holds it.
"""

from __future__ import annotations

import math
import re
from datetime import datetime
from typing import Any, Iterable, Mapping, Sequence

from dealer_assist.i18n import texts
from dealer_assist.live.log_record import MAX_NAME, normal_name, record_time
from dealer_assist.render import safe_text
from dealer_assist.rules import Game, HandClass, best_of, rank_options
from dealer_assist.rules.formats import chips_to_json
from dealer_assist.spectator import state as state_file

__all__ = ["public_from_state", "public_from_record", "balances", "LogSummary", "current_hand", "CLASS_NAMES", "has_content"]

#: Hand classes in English and Russian (RULES.md §3), from the one translation table.
CLASS_NAMES = {c.value: tuple(texts(lang)[c.value] for lang in ("en", "ru")) for c in HandClass}
STREETS = ("preflop", "flop", "turn", "river", "showdown")
RESULTS = ("wins", "splits", "loses", "folded", "not revealed")
ZERO_JOKER = ("off", "per-zero", "once")
TIE_POLICY = ("split", "rollover")
MAX_SEATS = 20
_SERIAL = re.compile(r"[0-9]{7}")
_CHIPS = re.compile(r"[0-9]{1,15}(/[0-9]{1,15})?")
#: The longest name shown uncut: the log's longest (MAX_NAME) with every character escaped (``\\u202e``).
SHOWN_NAME = 6 * MAX_NAME


# -- checked fields --------------------------------------------------------------------
def _serial(value: object) -> str | None:
    return value if isinstance(value, str) and _SERIAL.fullmatch(value) else None


def _name(value: object) -> str | None:
    """A seat name as shown, or None when not a non-blank string. Two names the log tells apart are
    shown apart, so a balance or a transfer is never hidden or merged with another player's: control
    and invisible characters as visible escapes (:func:`~dealer_assist.render.safe_text`, as in the
    terminal: a name of a bell character alone is ``\\x07``, not nothing), spaces at an end as
    ``␣``, cut only beyond :data:`SHOWN_NAME` (no name the log takes is that long)."""
    if not isinstance(value, str):
        return None
    text = safe_text(normal_name(value))
    core = text.strip()
    if not core:
        return None
    start = text.index(core[0])
    text = "␣" * start + core + "␣" * (len(text) - start - len(core))
    return text if len(text) <= SHOWN_NAME else text[:SHOWN_NAME] + "…"


def _int(value: object, low: int, high: int) -> int | None:
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        return None
    return value


def _bool(value: object) -> bool:
    return value is True


def _choice(value: object, choices: Sequence[str]) -> str | None:
    return value if isinstance(value, str) and value in choices else None


def _chips(value: object) -> int | str | None:
    if isinstance(value, bool):
        return None
    if isinstance(value, int) and 0 <= value < 10**15:
        return value
    if isinstance(value, str) and _CHIPS.fullmatch(value):
        return value
    return None


def _probability(value: object) -> float | None:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
        return None
    return round(float(value), 4) if 0 <= value <= 1 else None


def _time(value: object) -> str | None:
    if not isinstance(value, str) or len(value) > 40:
        return None
    try:
        datetime.fromisoformat(value)
    except ValueError:
        return None
    return value


def _best(value: object) -> dict[str, Any] | None:
    if not isinstance(value, Mapping):
        return None
    klass = value.get("class")
    if klass not in CLASS_NAMES:
        return None
    ranks = value.get("ranks")
    if not isinstance(ranks, list) or len(ranks) != 3 or any(_int(r, 1, 9) is None for r in ranks):
        return None
    names = dict(zip(("en", "ru"), CLASS_NAMES[klass]))
    return {"class": klass, **names, "ranks": list(ranks), "natural": _bool(value.get("natural"))}


def _note(serial: str, option, options, alternatives: bool) -> dict[str, Any]:
    """A note as shown, its rank and why in both languages (the one wording: :func:`dealer_assist.render.note_reason`)."""
    from dealer_assist.render import alternatives_text, note_reason

    if option is None:
        return {"serial": serial, "rank": None, "natural": None, "reason": texts("en")["dead"],
                "reason_ru": texts("ru")["dead"]}
    why = {lang: note_reason(option, lang) + (alternatives_text(options, None, lang, best_known=False)
                                              if alternatives and options[0] is option else "")
           for lang in ("en", "ru")}
    return {"serial": serial, "rank": option.rank, "natural": option.natural, "reason": why["en"],
            "reason_ru": why["ru"]}


def _board_note(serial: str | None, position: int | None) -> dict[str, Any]:
    """A board note as shown: its rank and why, worked out here from the serial and P (never taken from a file)."""
    if serial is None or position is None:
        return {"serial": serial, "rank": None, "natural": None, "reason": None, "reason_ru": None}
    options = rank_options(serial, position)
    return _note(serial, options[0] if options else None, options, False)


def _pocket_notes(serials: list[str], position: int | None, zero_joker: str | None,
                  best: object) -> list[dict[str, Any]] | None:
    """A revealed seat's pocket notes as shown: rank and why worked out here from the serial, P and the
    zero-joker option (RULES.md §2); of a note's options, the one its best hand plays (the file only
    chooses among them), else the first with the others said ("also 2")."""
    if position is None:
        return None
    best = best if isinstance(best, Mapping) else {}
    played = {n.get("serial"): n.get("rank") for n in best.get("notes", []) if isinstance(n, Mapping)} \
        if isinstance(best.get("notes"), list) else {}
    ranks = list(best.get("ranks")) if isinstance(best.get("ranks"), list) else []
    out = []
    for serial in serials:
        options = rank_options(serial, position, pocket=True, zero_joker=zero_joker or "off")
        chosen = next((o for o in options if o.rank == played.get(serial)), None)
        if chosen is None and not played:
            chosen = next((o for o in options if o.rank in ranks), None)
        out.append(_note(serial, chosen or (options[0] if options else None), options, chosen is None))
    return out


def _names(value: object) -> list[str]:
    if not isinstance(value, list):
        return []
    out = []
    for item in value[:MAX_SEATS]:
        name = _name(item)
        if name is not None and name not in out:
            out.append(name)
    return out


def _game(value: object) -> Game:
    """The game a file names; a file without one (or with another value) is a Hold'em hand (FORMATS.md §1)."""
    return Game.INDIAN if value == Game.INDIAN.value else Game.HOLDEM


def _indian_best(serial: str | None, position: int | None) -> dict[str, Any] | None:
    """An Indian poker seat's note as shown: its rank and why, worked out here (never taken from a file)."""
    if serial is None or position is None:
        return None
    best = best_of(Game.INDIAN, [rank_options(serial, position, pocket=True)])
    if best is None:
        return {"class": None, **dict.fromkeys(("en", "ru"), ""), "ranks": [], "natural": None,
                "reason": "all zeros: dead note, does not play"}
    names = dict(zip(("en", "ru"), CLASS_NAMES[best.hand_class.value]))
    return {"class": best.hand_class.value, **names, "ranks": list(best.ranks), "natural": best.natural,
            "reason": best.options[0].reason}


def _seat(name: str, *, folded: bool, dealer: bool, revealed: bool, pocket: object, best: object,
          odds: object, result: object, payout: object, chips: object, game: Game = Game.HOLDEM,
          position: int | None = None, zero_joker: str | None = None) -> dict[str, Any]:
    """A public seat; pocket (with each note's rank and why), best hand and odds only when ``revealed``."""
    serials = None
    if revealed and isinstance(pocket, (list, tuple)) and len(pocket) == game.pocket_notes:
        checked = [_serial(s) for s in pocket]
        serials = checked if None not in checked else None
    if game is Game.INDIAN:
        best = _indian_best(serials[0] if serials else None, position)
    win = tie = None
    if revealed and isinstance(odds, Mapping):
        win, tie = _probability(odds.get("win")), _probability(odds.get("tie"))
    return {
        "name": name, "folded": folded, "dealer": dealer, "revealed": revealed,
        "pocket": serials,
        "notes": _pocket_notes(serials, position, None if game is Game.INDIAN else zero_joker, best)
        if serials is not None else None,
        "best": (best if game is Game.INDIAN else _best(best)) if revealed else None,
        "odds": {"win": win, "tie": tie} if win is not None and tie is not None else None,
        "result": _choice(result, RESULTS), "payout": _chips(payout), "chips": _chips(chips),
    }


# -- the two sources ---------------------------------------------------------------------
def public_from_state(obj: object) -> dict[str, Any] | None:
    """The public hand of a table-state object (:mod:`.state`), or ``None`` when it is not one this program reads."""
    if not isinstance(obj, Mapping) or obj.get("schema") != state_file.SCHEMA:
        return None
    if type(obj.get("version")) is not int or obj.get("version") != state_file.VERSION:
        return None
    position = _int(obj.get("position"), 1, 7)
    game = _game(obj.get("game"))
    options = obj.get("options") if isinstance(obj.get("options"), Mapping) else {}
    board_in = obj.get("board") if isinstance(obj.get("board"), list) else []
    board = []
    for note in board_in[:3]:
        serial = _serial(note.get("serial")) if isinstance(note, Mapping) else None
        board.append(_board_note(serial, position))
    dealer = _name(obj.get("dealer"))
    decided = obj.get("status") == "showdown"
    payouts = obj.get("payouts") if isinstance(obj.get("payouts"), Mapping) else {}
    odds = obj.get("odds") if isinstance(obj.get("odds"), Mapping) else {}
    odds_players = odds.get("players") if isinstance(odds.get("players"), Mapping) else {}
    seats = []
    seen: set[str] = set()
    for entry in (obj.get("seats") if isinstance(obj.get("seats"), list) else [])[:MAX_SEATS]:
        if not isinstance(entry, Mapping):
            continue
        name = _name(entry.get("name"))
        if name is None or name in seen or entry.get("in_hand") is False:
            continue
        seen.add(name)
        raw_name = entry.get("name")
        revealed = _bool(entry.get("revealed")) and (decided or game is Game.HOLDEM)
        seats.append(_seat(name, folded=_bool(entry.get("folded")), dealer=_bool(entry.get("dealer")),
                           revealed=revealed, pocket=entry.get("pocket"), best=entry.get("best"),
                           odds=odds_players.get(raw_name), result=entry.get("result"),
                           payout=payouts.get(raw_name), chips=entry.get("chips"), game=game, position=position,
                           zero_joker=_choice(options.get("zero_joker"), ZERO_JOKER)))
    return {
        "source": "live", "game": game.value, "hand": _int(obj.get("hand"), 0, 10**9),
        "session": _name(obj.get("session")), "position": position,
        "position_random": _bool(obj.get("position_random")),
        "zero_joker": _choice(options.get("zero_joker"), ZERO_JOKER),
        "tie_policy": _choice(options.get("tie_policy"), TIE_POLICY),
        "dealer": dealer, "street": _choice(obj.get("street"), STREETS) or "preflop", "decided": decided,
        "time": _time(obj.get("written")), "board": board, "seats": seats,
        "winners": _names(obj.get("winners")) if decided else [],
        "carry": _chips(obj.get("carry")) if decided else None,
        "board_unknown": _int(odds.get("board_unknown"), 0, 3) if odds_players else None,
        "carried_in": _carried(obj.get("carried_in"), obj.get("main_pot"), decided,
                               _choice(options.get("tie_policy"), TIE_POLICY)),
    }


def _carried(carried: object, pot: object, decided: bool, tie_policy: str | None) -> dict[str, Any] | None:
    """The public ``carried_in`` (see the module doc): ``carried`` chips carried in; ``pot``, once decided, the
    main pot as settled (``amount``, ``carried_in``, ``winners``); None when nothing was carried in."""
    pot = pot if isinstance(pot, Mapping) else {}
    carried = _chips(pot.get("carried_in")) or _chips(carried)
    if not carried or not isinstance(carried, int):
        return None
    total = _chips(pot.get("amount")) if decided else None
    if not isinstance(total, int) or total < carried:
        return {"carried": carried, "main": None, "total": None, "to": None}
    winners = _names(pot.get("winners"))
    rolls_on = not winners or (len(winners) > 1 and tie_policy == "rollover")
    return {"carried": carried, "main": total - carried, "total": total, "to": [] if rolls_on else winners}


def public_from_record(record: Mapping[str, Any]) -> dict[str, Any]:
    """The public hand of a hand-log record (a finished hand)."""
    position = _int(record.get("position"), 1, 7)
    game = _game(record.get("game"))
    notes = [n for n in record.get("notes", []) if isinstance(n, Mapping)] if isinstance(record.get("notes"), list) else []
    board_notes = sorted((n for n in notes if n.get("zone") == "board" and _int(n.get("index"), 1, 3)),
                         key=lambda n: n["index"])
    board = [_board_note(_serial(n.get("serial")), position) for n in board_notes[:3]]
    best_hands = record.get("best_hands") if isinstance(record.get("best_hands"), Mapping) else {}
    folded = set(_names(record.get("folded")))
    winners = _names(record.get("winners"))
    chips = record.get("chips") if isinstance(record.get("chips"), Mapping) else {}
    settlement = record.get("settlement") if isinstance(record.get("settlement"), Mapping) else {}
    payouts = settlement.get("payouts") if isinstance(settlement.get("payouts"), Mapping) else {}
    decided = record.get("status") == "showdown"
    source = record.get("input") if isinstance(record.get("input"), Mapping) else {}
    pots = settlement.get("pots") if isinstance(settlement.get("pots"), list) else []
    main_pot = pots[0] if pots and isinstance(pots[0], Mapping) and pots[0].get("carried_in") else None
    dealer = _name(record.get("dealer"))
    # the seats of the hand, in the order the log names them
    order: list[object] = []
    for name in [*best_hands, *(n.get("zone") for n in notes if n.get("zone") != "board"), *folded, *chips]:
        if name not in order and name is not None:
            order.append(name)
    seats = []
    seen: set[str] = set()
    for raw in order[:MAX_SEATS]:
        name = _name(raw)
        if name is None or name in seen:
            continue
        seen.add(name)
        entry = best_hands.get(raw) if isinstance(best_hands.get(raw), Mapping) else {}
        revealed = _bool(entry.get("revealed")) and (decided or game is Game.HOLDEM)
        pocket_notes = sorted((n for n in notes if n.get("zone") == raw and _int(n.get("index"), 1, 2)),
                              key=lambda n: n["index"])
        pocket = [n.get("serial") for n in pocket_notes]
        result = None
        if decided:
            if name in folded:
                result = "folded"
            elif name in winners:
                result = "splits" if len(winners) > 1 else "wins"
            elif not revealed and len([s for s in order if _name(s) not in folded]) > 1:
                result = "not revealed"
            else:
                result = "loses"
        seats.append(_seat(name, folded=name in folded, dealer=name == dealer, revealed=revealed,
                           pocket=pocket, best=entry, odds=None, result=result, payout=payouts.get(raw),
                           chips=chips.get(raw), game=game, position=position,
                           zero_joker=_choice(record.get("zero_joker"), ZERO_JOKER)))
    return {
        "source": "log", "game": game.value, "hand": _int(record.get("hand"), 0, 10**9),
        "session": _name(record.get("session")),
        "position": position, "position_random": _bool(record.get("position_random")),
        "zero_joker": _choice(record.get("zero_joker"), ZERO_JOKER),
        "tie_policy": _choice(record.get("tie_policy"), TIE_POLICY),
        "dealer": dealer, "street": _choice(record.get("street"), STREETS) or "showdown", "decided": decided,
        "time": _time(record.get("finished")), "board": board, "seats": seats,
        "winners": winners if decided else [],
        "carry": _chips(settlement.get("carry")) if decided else None, "board_unknown": None,
        "carried_in": _carried(settlement.get("carried_in") or source.get("carried_in"), main_pot, decided,
                               _choice(record.get("tie_policy"), TIE_POLICY)),
    }


def has_content(hand: Mapping[str, Any] | None) -> bool:
    """Whether a public hand shows anything dealt (a board note, or a seat in the hand)."""
    return bool(hand) and bool(hand.get("board") or hand.get("seats"))


def _when(text: object) -> float | None:
    when = record_time(text)
    return when.timestamp() if when is not None else None


def current_hand(live: Mapping[str, Any] | None, last: Mapping[str, Any] | None) -> Mapping[str, Any] | None:
    """The hand to show: the hand in play (``live``, from the state file) once something of it is dealt,
    unless the log's last finished hand (``last``) is that very hand (same number and session,
    finished after the state was written: live stopped writing the state); else the last finished hand."""
    if not has_content(live):
        return last
    if last is None:
        return live
    same = live.get("hand") == last.get("hand") and (live.get("session") is None
                                                     or live.get("session") == last.get("session"))
    written, finished = _when(live.get("time")), _when(last.get("time"))
    # the log keeps whole seconds: a record finished in the state's second counts as after it
    if same and (written is None or finished is None or finished + 1 >= written):
        return last
    return live


# -- balances ----------------------------------------------------------------------------
class LogSummary:
    """What the screen needs of a followed log, summed as the records arrive (a
    :class:`~.follow.RecordSink`): the last record, and the ledgers the balances come from
    (:class:`dealer_assist.ledger.LedgerBuilder`: one per live session, or one over every record
    when ``since`` is given). Memory grows with sessions and players, not with hands."""

    def __init__(self, since: datetime | None = None) -> None:
        self.since = since
        self.reset()

    def reset(self) -> None:
        from dealer_assist.ledger import LedgerBuilder

        self.last: Mapping[str, Any] | None = None
        self.count = 0
        self.name_warnings: tuple[str, ...] = ()
        self._sessions: dict[Any, Any] = {}
        self._all = LedgerBuilder(since=self.since) if self.since is not None else None

    def add(self, record: Mapping[str, Any]) -> None:
        from dealer_assist.ledger import LedgerBuilder

        self.last = record
        self.count += 1
        if self._all is not None:
            self._all.add(record)
            return
        session = record.get("session")
        builder = self._sessions.get(session)
        if builder is None:
            builder = self._sessions[session] = LedgerBuilder()
        builder.add(record)

    def balances(self) -> dict[str, Any] | None:
        """:func:`balances` of the records added so far (the same object, without holding them)."""
        if self.last is None:
            self.name_warnings = ()
            return None
        builder, scope = (self._all, "since") if self._all is not None else (
            self._sessions[self.last.get("session")], "session")
        ledger = builder.ledger()
        self.name_warnings = ledger.name_warnings  # names that look alike or like the house: said by the server
        return _balances_json(ledger, scope)


def balances(records: Sequence[Mapping[str, Any]], *, since: datetime | None = None) -> dict[str, Any] | None:
    """The session's balances: the ledger (:func:`dealer_assist.ledger.build_ledger`) over the records
    of the last record's live session, or over every record finished at or after ``since`` when given.

    ``{"scope": "session" | "since", "hands": 4, "players": [{"name", "hands", "won", "net"}, …],
    "transfers": [{"from", "from_kind", "to", "to_kind", "amount"}, …], "players_not_shown": 0,
    "transfers_not_shown": 0}`` (at most :data:`MAX_BALANCES` of each listed, the rest counted; kinds:
    :class:`dealer_assist.ledger.PartyKind` values; a player called "organiser" is ``"player"``),
    or ``None`` with no record.
    """
    summary = LogSummary(since)
    for record in records:
        summary.add(record)
    return summary.balances()


#: The most players and transfers the screen lists (a table has a few seats; ``serve --since`` over many nights
#: can have hundreds): the rest are counted in ``players_not_shown`` / ``transfers_not_shown`` and the page says
#: so, never leaving a debt out silently.
MAX_BALANCES = MAX_SEATS * 5


def _balances_json(ledger, scope: str) -> dict[str, Any]:
    players = []
    for p in ledger.players[:MAX_BALANCES]:
        players.append({"name": _name(p.name) or repr(p.name), "hands": p.hands_played, "won": p.hands_won,
                        "net": chips_to_json(p.net)})
    transfers = []
    for t in ledger.transfers[:MAX_BALANCES]:
        transfers.append({"from": _name(t.payer.name) or repr(t.payer.name), "from_kind": t.payer.kind.value,
                          "to": _name(t.payee.name) or repr(t.payee.name), "to_kind": t.payee.kind.value,
                          "amount": chips_to_json(t.amount)})
    return {"scope": scope, "hands": ledger.hands, "players": players, "transfers": transfers,
            "players_not_shown": len(ledger.players) - len(players),
            "transfers_not_shown": len(ledger.transfers) - len(transfers)}
