"""Recorded hands played back as a table would log them (the benchmark's and the tests' tables).

A recorded hand in FORMATS.md §1 form (``../shared/golden/hands.jsonl``) becomes the
hand-log record ``live`` would write for it, through live's own code: a
:class:`~dealer_assist.live.table_state.TableState` with the players as seats, each
serial as a trusted note, the chips each player put in, decided by
:func:`~dealer_assist.live.table_view.table_view` and logged by
:func:`~dealer_assist.live.history.hand_record`. No camera and no OCR are involved.
"""

from __future__ import annotations

import random
from datetime import datetime, timezone
from typing import Any, Mapping

from dealer_assist.live.history import hand_record
from dealer_assist.live.table_state import NoteInfo, TableState
from dealer_assist.live.table_view import table_view
from dealer_assist.rules import TiePolicy, ZeroJoker

__all__ = ["recorded_record"]


def recorded_record(hand: Mapping[str, Any], *, session: str, number: int, rng: random.Random | None = None,
                    finished: datetime | None = None, chips: Mapping[str, int] | None = None) -> dict[str, Any]:
    """The log record of ``hand`` (FORMATS.md §1) played as hand ``number`` of ``session``.

    ``rng`` draws the chips each player puts in (1 to 50; none without ``rng``) and the
    dealer seat (the first seat without it); ``chips``: the chips given players put in, as the
    croupier types them (instead of drawn ones); ``finished``: the finish time (default: now, UTC).
    """
    players = [p for p in hand["players"]]
    seats = tuple(p["name"] for p in players)
    dealer = rng.randrange(len(seats)) if rng is not None else 0
    state = TableState(seats, int(hand.get("position", 1)), ZeroJoker(hand.get("zero_joker", "off")),
                       TiePolicy(hand.get("tie_policy", "split")), hand_number=number, dealer_index=dealer)
    for p in players:
        if chips is not None:
            if p["name"] in chips:
                state = state.with_chips(p["name"], chips[p["name"]])
        elif rng is not None:
            state = state.with_chips(p["name"], rng.randint(1, 50))
        if p.get("folded"):
            state = state.with_fold(p["name"])
    notes = []
    n = 0
    for i, serial in enumerate(hand.get("board", [])):
        n += 1
        notes.append(NoteInfo(f"t{n}", n, "board", serial, "trusted", 0.95, float(i)))
    for p in players:
        for serial in p.get("pocket", []):
            n += 1
            notes.append(NoteInfo(f"t{n}", n, p["name"], serial, "trusted", 0.95, float(n)))
    view = table_view(state.with_showdown(), notes)
    when = finished or datetime.now(timezone.utc)
    return hand_record(view, session=session, started=when, finished=when, end="new hand")
