"""Which hand-log lines the club stores, and the columns copied out of them.

A line is stored when it is a hand record of the log's format (the log's one reading of a
line, :func:`dealer_assist.live.history.record_from_line`, and its one record validator,
:func:`dealer_assist.live.log_record.check_record`) that also has
what makes it a hand *exactly once* in the club: a ``session`` (text, no control characters)
and a ``hand`` number. Anything else is refused with one sentence, and the outbox and
``club sync`` go on with the next line (a refused line is never retried: it would block the
lines after it for ever).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any, Mapping

from dealer_assist.live.log_record import record_time

__all__ = ["TABLE_NAME", "check_table_name", "ClubHand", "club_hand", "parse_line", "MAX_SESSION"]

#: A table's name in the club: letters, digits, ``.``, ``_``, ``-``; 1 to 40 characters, starting
#: with a letter or a digit (it is part of the table page's address).
TABLE_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]{0,39}")
#: The longest session id stored (live writes 20 characters).
MAX_SESSION = 100
#: The largest hand number stored (PostgreSQL ``integer``).
MAX_HAND = 2**31 - 1
_CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f]")
_SERIAL = re.compile(r"[0-9]{7}")


def check_table_name(name: str) -> str:
    """``name`` when it is a valid table name (:data:`TABLE_NAME`); ``ValueError`` with the sentence otherwise."""
    if not isinstance(name, str) or not TABLE_NAME.fullmatch(name):
        shown = repr(name)[:50]
        raise ValueError(f"a table name is 1 to 40 letters, digits, '.', '_' or '-' starting with a letter or a "
                         f"digit (e.g. T1, table-2), not {shown}.")
    return name


@dataclass(frozen=True)
class ClubHand:
    """A record ready for the club: its key (session, hand), the searchable columns, the record."""

    session: str
    hand: int
    started: datetime | None
    finished: datetime | None
    status: str | None
    winners: tuple[str, ...]
    serials: tuple[str, ...]
    record: dict[str, Any]


def club_hand(record: Mapping[str, Any]) -> ClubHand:
    """The club's view of a hand record already checked by the log's reader; ``ValueError`` saying why
    it cannot be stored (no session or hand number, a NUL character PostgreSQL cannot hold)."""
    session, hand = record.get("session"), record.get("hand")
    if not isinstance(session, str) or not session.strip() or len(session) > MAX_SESSION or _CONTROL.search(session):
        raise ValueError("it has no session id (text of 1 to 100 characters), so it cannot be stored exactly once")
    if isinstance(hand, bool) or not isinstance(hand, int) or not 0 <= hand <= MAX_HAND:
        raise ValueError("it has no hand number, so it cannot be stored exactly once")
    if _has_nul(record):
        raise ValueError("it holds a NUL character, which the club's database cannot store")
    serials: list[str] = []
    for note in record.get("notes") or []:
        serial = note.get("serial") if isinstance(note, Mapping) else None
        if isinstance(serial, str) and _SERIAL.fullmatch(serial) and serial not in serials:
            serials.append(serial)
    winners = record.get("winners") or []
    return ClubHand(session, hand, record_time(record.get("started")), record_time(record.get("finished")),
                    record.get("status") if isinstance(record.get("status"), str) else None,
                    tuple(w for w in winners if isinstance(w, str)), tuple(serials), dict(record))


def _has_nul(value: Any) -> bool:
    if isinstance(value, str):
        return "\x00" in value
    if isinstance(value, Mapping):
        return any(_has_nul(k) or _has_nul(v) for k, v in value.items())
    if isinstance(value, (list, tuple)):
        return any(_has_nul(v) for v in value)
    return False


def parse_line(path: Path, number: int, line: bytes) -> tuple[ClubHand | None, str | None]:
    """One complete log line (without its newline): ``(hand, None)``, ``(None, None)`` for a blank
    line, or ``(None, warning sentence)`` for a line the club does not store."""
    from dealer_assist.fileio import MAX_JSON_BYTES
    from dealer_assist.live.history import record_from_line

    if number == 1 and line.startswith(b"\xef\xbb\xbf"):
        line = line[3:]
    record, warning = record_from_line(number, line if len(line) <= MAX_JSON_BYTES else None, str(path))
    if record is None:
        return None, warning
    try:
        return club_hand(record), None
    except ValueError as exc:
        return None, f"line {number} of {path} is a hand record the club cannot take: {exc}; skipped."
