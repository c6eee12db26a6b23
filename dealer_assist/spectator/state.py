"""The table-state file: the hand in play, as ``dealer-assist live`` writes it for the spectator screen.

``live`` appends a finished hand to the hand log; the hand still in play lives
only in its memory. So that ``dealer-assist serve`` (another process) can show
it, live writes this small JSON file atomically whenever its view changes:
:func:`state_from_view` turns a :class:`~dealer_assist.live.table_state.TableView`
into the object, :func:`write_state` stamps the time and replaces the file in
one ``os.replace`` (a reader never sees half a file). :class:`StateWriter` is
the three calls live makes: ``update(view)`` once per loop (writes only a
changed hand, at most twice a second), ``close()`` at the end (removes the file).

Only what the table itself shows goes in: the board, and for each seat
whether it is in the hand, folded, the dealer, **revealed** (both pocket
notes turned face up at the table: read by the camera, or the showdown
called; a serial the croupier typed is no reveal, :func:`shown_seats`) and — only for a revealed
seat — its pocket serials and best hand. A seat that has not revealed has no
serial in the file at all, not even the one note of two that is already known.
Pending reads, the croupier's warnings (which may quote a serial) and the
notes outside every zone are left out too.

The object (``schema`` ``dealer-assist/table-state``, ``version`` 1)::

    {"schema": "dealer-assist/table-state", "version": 1,
     "written": "2025-01-01T20:05:13.250+00:00",     # by write_state
     "session": "20250101T200000-ab12",               # optional: the hand log's session id
     "hand": 3, "position": 4, "position_random": false,
     "options": {"zero_joker": "off", "tie_policy": "split"},
     "dealer": "P2", "street": "flop", "status": "incomplete",   # "showdown" once decided
     "board": [{"serial": "1234567", "rank": 4, "natural": true, "reason": "d4=4, natural"},
               {"serial": null}],                     # a note on the board not read yet
     "seats": [{"name": "P1", "in_hand": true, "folded": false, "dealer": false, "revealed": true,
                "pocket": ["7654321", "0102030"],
                "best": {"class": "pair", "ranks": [4, 4, 2], "natural": true},
                "chips": 20},
               {"name": "P2", "in_hand": true, "folded": false, "dealer": true, "revealed": false}],
     "winners": ["P1"],                               # once decided (and every reveal it rests on public)
     "payouts": {"P1": 40, "P2": 0}, "carry": 0,      # once decided, when chips were entered
     "carried_in": 11,                                # chips carried in from the hands before (a tie rolled
                                                      # over), in the main pot; only when there are some
     "main_pot": {"amount": 21, "carried_in": 11, "winners": ["P1"]},   # once decided, with chips carried in
                                                      # (winners empty when the pot rolls on)
     "odds": {"board_unknown": 2, "players": {"P1": {"win": 0.4213, "tie": 0.031}, …}}}
                                                      # when every pocket still in is revealed

``rank`` / ``natural`` / ``reason`` of board notes, ``chips``, ``result``,
``payouts``, ``carry``, ``carried_in``, ``main_pot`` and ``odds`` are optional; a reader must not need them.
"""

from __future__ import annotations


import os
import time
from datetime import datetime, timezone
from pathlib import Path
from typing import Any, Callable

from dealer_assist.fileio import dumps_json, write_atomic
from dealer_assist.rules import chips_to_json
from dealer_assist.rules.odds import AllInOdds, odds_to_json

__all__ = ["SCHEMA", "VERSION", "state_from_view", "shown_seats", "write_state", "default_state_path", "StateWriter"]

#: The street a decided hand whose reveals are not public yet is shown at: the river, board complete.
STREETS_SHOWN = ("preflop", "flop", "turn", "river")
SCHEMA = "dealer-assist/table-state"
VERSION = 1


def default_state_path(log_path: str | os.PathLike) -> Path:
    """Where the state file lives for a hand log: beside it, ``hands.jsonl`` -> ``hands.state.json``.

    Live and serve both derive it from the log they use, so they agree without a setting.

    >>> default_state_path("/tmp/x/hands.jsonl").as_posix()
    '/tmp/x/hands.state.json'
    """
    p = Path(log_path)
    if not p.name:  # "", ".", "/": not a file; the log's own check refuses it with one sentence
        return p / "hands.state.json"
    return p.with_name(f"{p.stem}.state.json")


def state_from_view(view, *, session: str | None = None, odds: AllInOdds | None = None) -> dict[str, Any]:
    """The state object of ``view`` (a :class:`~dealer_assist.live.table_state.TableView`); see the module doc.

    Pure: no clock (``written`` is stamped by :func:`write_state`), no files.
    ``session``: the hand log's session id, so a reader can tell this hand from
    a logged one of the same number. ``odds``: the hand's all-in odds when the
    caller has them; otherwise the view's (``TableView.odds``: known when every seat still
    in has revealed and board notes are still to come).
    """
    state = view.state
    board = []
    for slot, options in zip(view.board, view.board_options):
        if slot.serial is None:
            board.append({"serial": None})
            continue
        entry: dict[str, Any] = {"serial": slot.serial}
        if options:
            entry.update({"rank": options[0].rank, "natural": options[0].natural, "reason": options[0].reason})
        else:
            entry.update({"rank": None, "natural": None, "reason": "all zeros: dead note, does not play"})
        board.append(entry)
    shown = shown_seats(view)
    # a decided hand whose reveals are not all public yet (a pocket typed in before the showdown) is shown as
    # still in play: its winners, payouts and results would tell what the hidden pockets hold
    still_in = [seat for seat in view.seats if seat.in_hand and not seat.folded]
    decided = view.complete and (len(still_in) <= 1 or all(seat.name in shown for seat in still_in if seat.revealed))
    seats = []
    for seat in view.seats:
        entry = {"name": seat.name, "in_hand": seat.in_hand, "folded": seat.folded, "dealer": seat.is_dealer,
                 "revealed": seat.name in shown}
        # the only place a pocket serial is written
        if seat.name in shown:
            entry["pocket"] = list(seat.serials[:state.pocket_notes])
            if seat.best is not None:
                entry["best"] = {"class": seat.best.hand_class.value, "ranks": list(seat.best.ranks),
                                 "natural": seat.best.natural}
        if seat.chips is not None:
            entry["chips"] = seat.chips
        if seat.result is not None and (decided or seat.result == "folded"):
            entry["result"] = seat.result
        seats.append(entry)
    out: dict[str, Any] = {"schema": SCHEMA, "version": VERSION, "written": None}
    if session is not None:
        out["session"] = str(session)
    out.update({
        "game": state.game.value,
        "hand": state.hand_number, "position": state.position, "position_random": state.position_random,
        "options": {"zero_joker": state.zero_joker.value, "tie_policy": state.tie_policy.value},
        "dealer": state.dealer, "street": view.street if decided or not view.complete else STREETS_SHOWN[-1],
        "status": "showdown" if decided else "incomplete",
        "board": board, "seats": seats,
    })
    if decided:
        out["winners"] = list(view.winners)
        if view.settlement is not None:
            out["payouts"] = {n: chips_to_json(c) for n, c in view.settlement.payouts.items()}
            out["carry"] = chips_to_json(view.settlement.carry)
            pot = view.settlement.pots[0] if view.settlement.pots else None
            if pot is not None and pot.carried_in:
                rolls_on = not pot.winners or (len(pot.winners) > 1 and state.tie_policy.value == "rollover")
                out["main_pot"] = {"amount": pot.amount, "carried_in": pot.carried_in,
                                   "winners": [] if rolls_on else list(pot.winners)}
    if state.carried_in:
        out["carried_in"] = state.carried_in
    if odds is None:
        odds = getattr(view, "odds", None)  # decided by table_view (every seat still in revealed, board to come)
    # the odds of one seat are worked out from every pocket still in: public only when all of those are
    if odds is not None and all(seat.name in shown for seat in view.seats
                                if seat.in_hand and not seat.folded and seat.revealed):
        as_json = odds_to_json(odds)
        as_json["players"] = {n: o for n, o in as_json["players"].items() if n in shown}
        out["odds"] = as_json
    return out


def shown_seats(view) -> set[str]:
    """The seats of ``view`` whose pocket the spectator screen may show: the seat has **revealed** its notes
    at the table, which is not the same as live knowing them.

    * Hold'em: both pocket notes known, and either read by the camera face up (each one's serial is the
      camera's: ``source`` ``"ocr"``), or the showdown called (``s``: every seat still in turns its notes
      up, RULES.md §4). A serial the croupier typed is no reveal: live's Waiting line asks for the notes the
      camera could not read while the hand is in play, and a note lying face down is one of those (seventh
      new-user trial: a pocket typed with ``e`` went to the screen with players still betting).
    * Indian poker: only once the hand is decided, whoever holds the note (RULES.md §7.1: a player must
      not learn their own note from the screen).
    """
    state = view.state
    if not state.board_notes:
        return {seat.name for seat in view.seats if seat.revealed} if view.complete else set()
    return {seat.name for seat in view.seats if seat.revealed
            and (state.showdown_called or all(slot.source == "ocr" for slot in seat.notes[:state.pocket_notes]))}


def write_state(view_json: dict[str, Any], path: str | os.PathLike, *, now: datetime | None = None) -> None:
    """Write the state object ``view_json`` (from :func:`state_from_view`) to ``path`` atomically,
    stamped with ``written`` = ``now`` (default: the current time, UTC, in milliseconds).

    Raises ``OSError`` when the folder does not exist or takes no file (the earlier file stays as it was).
    """
    when = now if now is not None else datetime.now(timezone.utc)
    data = {**view_json, "written": when.isoformat(timespec="milliseconds")}
    write_atomic(path, dumps_json(data, separators=(",", ":")) + "\n")


class StateWriter:
    """What live calls once per loop: writes the state file when the hand changed, at most every
    ``min_interval`` seconds (a change inside the interval is written at the first call after it).

    Never raises: a write that fails (a folder that takes no file) is retried at the next change,
    and :meth:`update` returns its sentence the first time, for the dashboard to show.

    >>> writer = StateWriter("/nonexistent-folder/hands.state.json", clock=lambda: 0.0)
    >>> writer.update(None) is None
    True
    """

    def __init__(self, path: str | os.PathLike, *, session: str | None = None, min_interval: float = 0.5,
                 clock: Callable[[], float] = time.monotonic,
                 publish: Callable[[dict[str, Any]], None] | None = None) -> None:
        self.path = Path(path)
        self.publish = publish  # also given each new state (live --club: the club's outbox)
        self.session = session
        self.min_interval = min_interval
        self.clock = clock
        self.writes = 0
        self._view: Any = None
        self._written: dict[str, Any] | None = None
        self._last_time: float | None = None
        self._failed = False
        self._published: dict[str, Any] | None = None

    def update(self, view) -> str | None:
        """Write ``view``'s state when it differs from the last one written and the interval has passed;
        ``None``, or once per run of failures the sentence saying why the file cannot be written."""
        if view is None:
            return None
        now = self.clock()
        if self._last_time is not None and now - self._last_time < self.min_interval:
            return None
        if view is self._view:  # live caches its view until something changes
            return None
        state = state_from_view(view, session=self.session)
        self._view = view
        if state == self._written:
            return None
        if self.publish is not None and state != self._published:
            self._published = state
            self.publish(state)
        try:
            write_state(state, self.path)
        except OSError as exc:
            self._view = None  # try again at the next call after the interval
            self._last_time = now
            if self._failed:
                return None
            self._failed = True
            return (f"The state file for the spectator screen, {self.path}, cannot be written "
                    f"({exc.strerror or exc}); dealer-assist serve does not see the hand in play.")
        self._failed = False
        self._written = state
        self._last_time = now
        self.writes += 1
        return None

    def close(self) -> None:
        """Remove the file at the end of the session, so the screen falls back to the last logged hand."""
        try:
            self.path.unlink(missing_ok=True)
        except OSError:
            pass
