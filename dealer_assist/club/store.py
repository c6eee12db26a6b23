"""Writing hands and table states to the club's database, and reading them back.

Every write ends with a ``NOTIFY`` on :data:`CHANNEL` in the same transaction (delivered only
when it commits), payload ``{"table": "T1", "kind": "hand" | "state"}``: the club's spectator
screen LISTENs instead of polling.

Hands are inserted with ``ON CONFLICT (table_name, session, hand) DO NOTHING``: sending a hand
again (a retry after a lost answer, ``club sync`` of a log already sent) stores nothing new.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any, Iterable, Mapping, Sequence

import psycopg
import psycopg.errors
from psycopg.types.json import Jsonb

from dealer_assist.club.records import ClubHand
from dealer_assist.fileio import dumps_json

__all__ = ["CHANNEL", "StoredHand", "insert_hands", "insert_or_refuse", "put_state", "fetch_hands", "fetch_states", "table_names",
           "last_session", "hands_elsewhere", "played_elsewhere", "elsewhere_of"]

#: The LISTEN/NOTIFY channel of the club's writes.
CHANNEL = "dealer_assist_club"

_INSERT = ("INSERT INTO hands (table_name, session, hand, started, finished, status, winners, serials, record) "
           "VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s) ON CONFLICT ON CONSTRAINT hands_once DO NOTHING")


def _notify(conn: psycopg.Connection, table: str, kind: str) -> None:
    conn.execute("SELECT pg_notify(%s, %s)", (CHANNEL, dumps_json({"table": table, "kind": kind})))


def insert_hands(conn: psycopg.Connection, table: str, hands: Sequence[ClubHand]) -> int:
    """Store ``hands`` of table ``table`` in one transaction; returns how many were new (the others were
    there already). ``psycopg.Error`` when the database fails (nothing of the batch is stored)."""
    new = 0
    with conn.transaction():
        for h in hands:
            cur = conn.execute(_INSERT, (table, h.session, h.hand, h.started, h.finished, h.status,
                                         list(h.winners), list(h.serials), Jsonb(h.record, dumps=dumps_json)))
            new += cur.rowcount
        if hands:
            _notify(conn, table, "hand")
    return new


def played_elsewhere(conn: psycopg.Connection, sessions: Iterable[str], table: str) -> dict[tuple, str]:
    """The hands of the live ``sessions`` the club holds as another table's than ``table``, by what makes
    a hand the same hand (:func:`dealer_assist.ledger.hand_identity`: session, number, times, chips,
    serials): ``{identity: that table}``. Two tables whose session ids happen to be equal are told apart."""
    from dealer_assist.ledger import hand_identity

    played: dict[tuple, str] = {}
    for stored in hands_elsewhere(conn, sessions, table):
        try:
            played.setdefault(hand_identity(stored.record), stored.table)
        except (ValueError, TypeError, AttributeError):
            continue  # a stored record whose chips are no chips is nobody's copy
    return played


def elsewhere_of(played: Mapping[tuple, str], hand: ClubHand) -> str | None:
    """The other table ``played`` (:func:`played_elsewhere`) says holds ``hand`` already, or None."""
    from dealer_assist.ledger import hand_identity

    if not played:
        return None
    try:
        return played.get(hand_identity(hand.record))
    except (ValueError, TypeError, AttributeError):
        return None


def insert_or_refuse(conn: psycopg.Connection, table: str, hands: Sequence[ClubHand]) -> tuple[int, list[str]]:
    """:func:`insert_hands`, and when the database refuses the batch's data (``DataError``: a value it
    cannot hold) each hand on its own, so one bad record never blocks the ones after it: returns the
    number stored anew and a phrase per hand refused (``"hand 3 of session s: <why>"``). A hand the club
    holds already as another table's (:func:`played_elsewhere`: a log synced under a wrong name before
    its table sent it) is refused too, not stored twice. A failure of the connection is raised as it
    is (the batch is sent again later)."""
    played = played_elsewhere(conn, {h.session for h in hands}, table) if hands else {}
    elsewhere = {i: other for i, h in enumerate(hands) if (other := elsewhere_of(played, h)) is not None}
    refused = [f"hand {hands[i].hand} of session {hands[i].session[:40]}: the club has it already as table "
               f"{other}'s, so it is not stored again as {table}'s" for i, other in elsewhere.items()]
    hands = [h for i, h in enumerate(hands) if i not in elsewhere]
    try:
        return insert_hands(conn, table, hands), refused
    except psycopg.errors.DataError:
        pass
    new = 0
    for h in hands:
        try:
            new += insert_hands(conn, table, [h])
        except psycopg.errors.DataError as exc:
            from dealer_assist.club.db import _first_line

            refused.append(f"hand {h.hand} of session {h.session[:40]}: the club's database refuses it "
                           f"({_first_line(exc)})")
    return new, refused


def put_state(conn: psycopg.Connection, table: str, state: Mapping[str, Any] | None) -> None:
    """Replace table ``table``'s hand in play (a table-state object, :mod:`dealer_assist.spectator.state`;
    ``None``: no hand in play, the screen shows the last finished hand)."""
    session = state.get("session") if isinstance(state, Mapping) else None
    with conn.transaction():
        conn.execute("INSERT INTO table_states (table_name, session, state, updated_at) "
                     "VALUES (%s, %s, %s, clock_timestamp()) ON CONFLICT (table_name) DO UPDATE SET "
                     "session = excluded.session, state = excluded.state, updated_at = excluded.updated_at",
                     (table, session if isinstance(session, str) else None,
                      Jsonb(dict(state), dumps=dumps_json) if state is not None else None))
        _notify(conn, table, "state")


@dataclass(frozen=True)
class StoredHand:
    """A hand as the club holds it: its row id (the order hands arrived), table, record, arrival time."""

    id: int
    table: str
    record: dict[str, Any]
    received_at: datetime


def fetch_hands(conn: psycopg.Connection, *, table: str | None = None, tables: Iterable[str] | None = None,
                since: datetime | None = None, until: datetime | None = None, serial: str | None = None,
                session: str | None = None, after_id: int | None = None, limit: int | None = None
                ) -> list[StoredHand]:
    """Stored hands matching every filter given, by table, session and hand number (each session's
    hands in the order it played them; sessions by their ids, which start with their UTC start time).

    ``since`` / ``until``: the hand finished at or after / before; ``serial``: one of its notes had
    this serial; ``after_id``: arrived after the row with that id (then ordered by arrival).
    """
    where, args = [], []
    if table is not None:
        where.append("table_name = %s")
        args.append(table)
    if tables is not None:
        where.append("table_name = ANY(%s)")
        args.append(list(tables))
    if since is not None:
        where.append("finished >= %s")
        args.append(since)
    if until is not None:
        where.append("finished < %s")
        args.append(until)
    if serial is not None:
        where.append("serials @> ARRAY[%s]::text[]")
        args.append(serial)
    if session is not None:
        where.append("session = %s")
        args.append(session)
    if after_id is not None:
        where.append("id > %s")
        args.append(after_id)
    sql = "SELECT id, table_name, record, received_at FROM hands"
    if where:
        sql += " WHERE " + " AND ".join(where)
    sql += " ORDER BY id" if after_id is not None else " ORDER BY table_name, session, hand"
    if limit is not None:
        sql += " LIMIT %s"
        args.append(limit)
    with conn.transaction():
        rows = conn.execute(sql, args).fetchall()
    return [StoredHand(r[0], r[1], r[2], r[3]) for r in rows]


def fetch_states(conn: psycopg.Connection, table: str | None = None) -> dict[str, tuple[dict | None, datetime]]:
    """Each table's hand in play and when it was written: ``{table: (state or None, updated_at)}``."""
    sql = "SELECT table_name, state, updated_at FROM table_states"
    args: list = []
    if table is not None:
        sql += " WHERE table_name = %s"
        args.append(table)
    with conn.transaction():
        rows = conn.execute(sql, args).fetchall()
    return {r[0]: (r[1], r[2]) for r in rows}


def table_names(conn: psycopg.Connection) -> list[str]:
    """Every table the club has heard of (a hand or a state), by name."""
    with conn.transaction():
        rows = conn.execute("SELECT table_name FROM hands UNION SELECT table_name FROM table_states "
                            "ORDER BY 1").fetchall()
    return [r[0] for r in rows]


def last_session(conn: psycopg.Connection, table: str) -> str | None:
    """The session of the table's hand that arrived last, or None."""
    with conn.transaction():
        row = conn.execute("SELECT session FROM hands WHERE table_name = %s ORDER BY id DESC LIMIT 1",
                           (table,)).fetchone()
    return row[0] if row else None


def hands_elsewhere(conn: psycopg.Connection, sessions: Iterable[str], table: str) -> list[StoredHand]:
    """Stored hands of the live ``sessions`` that another table than ``table`` sent (a log synced under
    the wrong table name shows up here: its sessions are stored under the right one already)."""
    with conn.transaction():
        rows = conn.execute("SELECT id, table_name, record, received_at FROM hands WHERE session = ANY(%s) "
                            "AND table_name <> %s ORDER BY id", (list(sessions), table)).fetchall()
    return [StoredHand(r[0], r[1], r[2], r[3]) for r in rows]
