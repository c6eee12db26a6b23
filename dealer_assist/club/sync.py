"""``dealer-assist club sync``: store a whole hand log in the club (a night played offline).

The log is read as the outbox reads it (:class:`.outbox.Outbox`, the same checks per line) and
stored in batches, each hand once: a log synced twice, or partly sent by ``live`` already,
adds only what the club does not have.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Iterator

from dealer_assist.club import store
from dealer_assist.club.db import ClubError, check_ready, connect
from dealer_assist.club.outbox import BATCH_HANDS, Outbox
from dealer_assist.club.records import ClubHand

__all__ = ["SyncReport", "sync_log"]


@dataclass
class SyncReport:
    """What a sync did: hand records read, newly stored, already in the club, lines refused (sentences)."""

    read: int = 0
    new: int = 0
    refused: list[str] = field(default_factory=list)

    @property
    def already(self) -> int:
        return self.read - self.new


def _check_log(path: Path) -> None:
    """:class:`ClubError` unless ``path`` is a hand log (a regular file whose first line is a record)."""
    from dealer_assist.live.history import HistoryError, open_log

    try:
        open_log(path).close()
    except HistoryError as exc:
        raise ClubError(str(exc)) from None


def _log_hands(outbox: Outbox) -> Iterator[ClubHand]:
    """The hands of the whole log the sync would store, in log order (read again at each call)."""
    offset = 0
    while True:
        items = outbox.pending(offset).items
        if not items:
            return
        yield from (h for h, _, _ in items if h is not None)
        offset = items[-1][2]


def _refuse_another_tables_hands(conn, outbox: Outbox, path: Path, table: str) -> None:
    """:class:`ClubError` when a hand of the log is stored already as another table's (the same hand by
    :func:`~dealer_assist.ledger.hand_identity`: session, number, times, chips, serials): the log was
    played there, and storing it again as ``table``'s would count its hands twice. Nothing is stored then.
    Two tables' hands that only share a session id and numbers (the id is a time and a random part) are
    different hands and are not refused."""
    import psycopg

    sessions = {h.session for h in _log_hands(outbox)}
    if not sessions:
        return
    try:
        played = store.played_elsewhere(conn, sessions, table)
    except psycopg.Error as exc:
        from dealer_assist.club.db import _first_line

        raise ClubError(f"Reading the club's hands failed ({_first_line(exc)}).") from None
    tables: dict[str, int] = {}
    if played:  # read the log again only when the club has hands of its sessions from another table
        for hand in _log_hands(outbox):
            if (other := store.elsewhere_of(played, hand)) is not None:
                tables[other] = tables.get(other, 0) + 1
    if len(tables) == 1:
        (other, count), = tables.items()
        raise ClubError(f"{path}: these hands were played at table {other}, not {table} (the club has {count} of "
                        f"them from {other} already): give --table {other}; nothing was stored.")
    if tables:
        raise ClubError(f"{path}: these hands were played at tables {', '.join(sorted(tables))}, not {table} (the "
                        f"club has {sum(tables.values())} of them from those tables already); nothing was stored.")


def sync_log(path: str | Path, url: str, table: str) -> SyncReport:
    """Store every hand record of the log ``path`` as table ``table``'s in the club at ``url``.

    Raises:
        ClubError: the log cannot be read or is not a hand log; its hands are stored already as another
            table's (nothing is stored then); the club cannot be reached, is not
            initialised, or fails while storing (what was committed before stays, and is not stored
            twice by the next sync).
    """
    import psycopg

    path = Path(path)
    _check_log(path)
    outbox = Outbox(path, url, table)
    report = SyncReport()
    conn = connect(url)
    try:
        check_ready(conn)
        _refuse_another_tables_hands(conn, outbox, path, table)
        offset = 0
        while True:
            pending = outbox.pending(offset)
            if not pending.items:
                break
            chunk = pending.items[:BATCH_HANDS]
            hands = [h for h, _, _ in chunk if h is not None]
            report.read += len(hands)
            report.refused.extend(p for _, p, _ in chunk if p is not None)
            if hands:
                try:
                    new, refused = store.insert_or_refuse(conn, table, hands)
                    report.new += new
                    report.refused.extend(refused)
                    report.read -= len(refused)
                except psycopg.Error as exc:
                    from dealer_assist.club.db import _first_line

                    raise ClubError(f"Storing the hands failed ({_first_line(exc)}); {report.new} were stored, "
                                    f"run the same sync again for the rest.") from None
            offset = chunk[-1][2]
        if offset:
            try:
                outbox.mark_sent(offset)  # live --club need not send them again
            except OSError:
                pass
    finally:
        conn.close()
    return report
