"""Reading a club back for ``ledger --club`` and ``history --club``: hand records from the database.

The records are the ones the tables logged, each with one field added, ``table`` (the table
that played it). For the ledger each record's ``session`` is prefixed with its table
(``"T1/20250101T200000-ab12"``): the ledger counts a (session, hand) once and carries a rolled-over
pot within a session, and two tables' sessions must never be taken for one.

Players across tables (:func:`club_player`): a seat named by its number (``P3``,
:func:`dealer_assist.names.is_numbered_seat`) is a place at one table, so in a ledger of several
tables it is that table's seat, ``"T1/P3"``; a seat named after its player (``alice``) is that
player at every table. (A seat's name has no ``/``: :func:`dealer_assist.calibration.profile.is_seat_name`,
so ``T1/P3`` is nobody's name.)
"""

from __future__ import annotations

from datetime import datetime
from typing import Any, Callable, Mapping

from dealer_assist.club import store
from dealer_assist.club.db import ClubError, check_ready, connect

__all__ = ["club_records", "ledger_records", "club_player", "is_table_seat"]


def club_records(url: str, *, table: str | None = None, since: datetime | None = None,
                 until: datetime | None = None, serial: str | None = None) -> list[dict[str, Any]]:
    """The club's hand records matching the filters, by table, session and hand, each with ``table``.

    Raises:
        ClubError: the club cannot be reached or is not initialised.
    """
    import psycopg

    conn = connect(url)
    try:
        check_ready(conn)
        hands = store.fetch_hands(conn, table=table, since=since, until=until, serial=serial)
    except psycopg.Error as exc:
        from dealer_assist.club.db import _first_line

        raise ClubError(f"Reading the club's hands failed ({_first_line(exc)}).") from None
    finally:
        conn.close()
    return [{**h.record, "table": h.table} for h in hands]


def club_player(table: str, name: str) -> str:
    """Who a record's player ``name`` of table ``table`` is in a ledger of several tables: a seat named
    by its number stays that table's seat, anything else is the player of that name.

    >>> club_player("T1", "P3"), club_player("T2", "P3"), club_player("T1", "alice")
    ('T1/P3', 'T2/P3', 'alice')
    """
    from dealer_assist.names import is_numbered_seat

    return f"{table}/{name}" if is_numbered_seat(name) else name


def is_table_seat(name: str) -> bool:
    """Whether a ledger's player ``name`` is a table's numbered seat (``"T1/P3"``, :func:`club_player`)."""
    from dealer_assist.club.records import TABLE_NAME
    from dealer_assist.names import is_numbered_seat

    table, slash, seat = name.rpartition("/")
    return bool(slash) and TABLE_NAME.fullmatch(table) is not None and is_numbered_seat(seat)


def _renamed(record: Mapping[str, Any], rename: Callable[[str], str]) -> dict[str, Any]:
    """``record`` with each player's name replaced by ``rename(name)`` in every field that names players
    (:mod:`dealer_assist.live.log_record`'s list: ``chips``, ``best_hands``, ``settlement.payouts`` and
    its pots' ``eligible`` / ``winners``, ``winners``, ``folded``, ``dealer``, the notes' seat zones,
    ``input.players[].name`` and ``input.dealer``); values of the wrong type are left as logged, for the
    log's validator to refuse."""
    def name(v: Any) -> Any:
        return rename(v) if isinstance(v, str) else v

    def names(v: Any) -> Any:
        return [name(x) for x in v] if isinstance(v, list) else v

    def keys(v: Any) -> Any:
        return {name(k): x for k, x in v.items()} if isinstance(v, dict) else v

    out = dict(record)
    for field in ("chips", "best_hands"):
        if field in out:
            out[field] = keys(out[field])
    for field in ("winners", "folded"):
        if field in out:
            out[field] = names(out[field])
    if "dealer" in out:
        out["dealer"] = name(out["dealer"])
    if isinstance(out.get("notes"), list):
        out["notes"] = [{**n, "zone": name(n["zone"])} if isinstance(n, dict) and n.get("zone") != "board"
                        and "zone" in n else n for n in out["notes"]]
    settlement = out.get("settlement")
    if isinstance(settlement, dict):
        settlement = dict(settlement)
        if "payouts" in settlement:
            settlement["payouts"] = keys(settlement["payouts"])
        if isinstance(settlement.get("pots"), list):
            settlement["pots"] = [{**p, **{f: names(p[f]) for f in ("eligible", "winners") if f in p}}
                                  if isinstance(p, dict) else p for p in settlement["pots"]]
        out["settlement"] = settlement
    source = out.get("input")
    if isinstance(source, dict):
        source = dict(source)
        if isinstance(source.get("players"), list):
            source["players"] = [{**p, "name": name(p["name"])} if isinstance(p, dict) and "name" in p else p
                                 for p in source["players"]]
        if "dealer" in source:
            source["dealer"] = name(source["dealer"])
        out["input"] = source
    return out


def ledger_records(url: str, *, table: str | None = None) -> list[dict[str, Any]]:
    """Every hand of the club (or of one table) for :func:`dealer_assist.ledger.build_ledger`, sessions
    told apart by table (see the module doc); of every table (``table`` None), each numbered seat named
    as its table's (:func:`club_player`: ``"T1/P3"``). ``since`` is left to the ledger: hands before it
    still pass their carry on."""
    out = []
    for r in club_records(url, table=table):
        session = r.get("session")
        if table is None:
            r = _renamed(r, lambda name, t=r["table"]: club_player(t, name))
        out.append({**r, "session": f"{r['table']}/{session}"})
    return out
