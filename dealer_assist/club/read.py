"""Reading a club back for ``ledger --club`` and ``history --club``: hand records from the database.

The records are the ones the tables logged, each with one field added, ``table`` (the table
that played it). For the ledger each record's ``session`` is prefixed with its table
(``"T1/20250101T200000-ab12"``): the ledger counts a (session, hand) once and carries a rolled-over
pot within a session, and two tables' sessions must never be taken for one.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from dealer_assist.club import store
from dealer_assist.club.db import ClubError, check_ready, connect

__all__ = ["club_records", "ledger_records"]


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


def ledger_records(url: str, *, table: str | None = None) -> list[dict[str, Any]]:
    """Every hand of the club (or of one table) for :func:`dealer_assist.ledger.build_ledger`, sessions
    told apart by table (see the module doc). ``since`` is left to the ledger: hands before it still
    pass their carry on."""
    out = []
    for r in club_records(url, table=table):
        session = r.get("session")
        out.append({**r, "session": f"{r['table']}/{session}"})
    return out
