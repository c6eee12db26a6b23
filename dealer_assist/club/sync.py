"""``dealer-assist club sync``: store a whole hand log in the club (a night played offline).

The log is read as the outbox reads it (:class:`.outbox.Outbox`, the same checks per line) and
stored in batches, each hand once: a log synced twice, or partly sent by ``live`` already,
adds only what the club does not have.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from dealer_assist.club import store
from dealer_assist.club.db import ClubError, check_ready, connect
from dealer_assist.club.outbox import BATCH_HANDS, Outbox

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


def sync_log(path: str | Path, url: str, table: str) -> SyncReport:
    """Store every hand record of the log ``path`` as table ``table``'s in the club at ``url``.

    Raises:
        ClubError: the log cannot be read or is not a hand log; the club cannot be reached, is not
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
