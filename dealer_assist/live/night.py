"""A night at the table is one session across restarts of ``dealer-assist live``.

:func:`continue_session` reads where the hand log left off: the session id, the
next hand number, the next dealer (the button moves one seat left after the
log's last hand, as between two hands of one run) and the chips carried into
the next hand (a tie rolled over, RULES.md §4: the ledger's carry over the
session's records, so a restart between a tie and the next hand loses no pot). A restart of ``live`` (a
crash, a new camera, a break) then goes on with "Hand 5 · dealer: boris" instead
of a second "Hand 1"; ``history``, ``ledger`` and the spectator screen see one
session with its hands numbered once.

A session is held by the ``live`` run playing it (:class:`SessionLock`, an advisory lock on a small
file beside the log, released by the system when the run ends, a crash included): a second table
started on the same log while the first plays never joins the first's session, even when its seats
have the same names; a restart after the first run ended goes on with it.

A new session starts when the log has no hand, when ``--new-session`` is given,
when the log's last hand is of a session another running ``live`` holds,
when the log's last hand finished more than :data:`SESSION_BREAK` ago (the
next evening), or when it names a seat this table does not have (another
table's hand: two tables writing one log never share a session, whose rolled-over
pots and Indian poker meetings are the table's own).

>>> from datetime import datetime, timezone
>>> last = {"session": "s1", "hand": 4, "dealer": "A", "finished": "2025-01-01T21:00:00+00:00"}
>>> go_on = continue_session([last], ("A", "B", "C"), datetime(2025, 1, 1, 21, 30, tzinfo=timezone.utc))
>>> go_on.session, go_on.hand_number, go_on.dealer_index
('s1', 5, 1)
"""

from __future__ import annotations

import fcntl
import hashlib
import os
import re
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any, Sequence

__all__ = ["SESSION_BREAK", "Continuation", "continue_session", "SessionLock"]

#: A restart this long after the log's last hand starts a new session: a game night lasts well under
#: 12 hours, and the next one starts at least that long after the last hand of the one before.
SESSION_BREAK = timedelta(hours=12)


@dataclass(frozen=True)
class Continuation:
    """Where the night goes on.

    Attributes:
        session: the session id of the log's last hand (hands of one session share it).
        hand_number: the number of the next hand (the last hand's plus one).
        dealer_index: index in the seats of the next dealer, or None when the last dealer is no seat
            of this table (then the first seat deals, or ``--dealer``).
        earlier: the session's records already in the log, in order (the running balances start from them).
        sentence: what the dashboard says at start ("Hand 5: dealer boris. Session … goes on …").
        carried_in: whole chips carried into the next hand's main pot (0 when none; a share that is not
            whole chips, which only a hand-edited log holds, is not carried).
    """

    session: str
    hand_number: int
    dealer_index: int | None
    earlier: tuple[dict[str, Any], ...] = field(default=())
    sentence: str = ""
    carried_in: int = 0


def _seats_named(record: dict[str, Any]) -> set[str]:
    """The seats a record names (its best hands, chips and input players)."""
    source = record.get("input") if isinstance(record.get("input"), dict) else {}
    players = source.get("players") if isinstance(source.get("players"), list) else []
    names = [*(record.get("best_hands") or {}), *(record.get("chips") or {}),
             *(p.get("name") for p in players if isinstance(p, dict))]
    return {n for n in names if isinstance(n, str)}


def _finished(record: dict[str, Any]) -> datetime | None:
    try:
        when = datetime.fromisoformat(str(record.get("finished")))
    except ValueError:
        return None
    return when if when.tzinfo is not None else None


def continue_session(records: Sequence[dict[str, Any]], seats: Sequence[str], now: datetime,
                     new_session: bool = False, tie_policy: str | None = None) -> Continuation | None:
    """The session to go on with, from the log's ``records`` (in the log's order), or None for a new one
    (no hand logged, ``new_session``, a record without a session id or hand number, or the last hand
    finished more than :data:`SESSION_BREAK` before ``now``, an aware datetime). ``tie_policy``: this run's
    (``"split"``/``"rollover"``); when the session's last hand was played with the other, the sentence says so
    (eighth new-user trial: a restart without ``--tie-policy rollover`` split the next tie without a word)."""
    if new_session or not records:
        return None
    last = records[-1]
    session, hand = last.get("session"), last.get("hand")
    if not isinstance(session, str) or not session or type(hand) is not int or hand < 1:
        return None
    finished = _finished(last)
    if finished is None or now - finished > SESSION_BREAK:
        return None
    if _seats_named(last) - set(seats):  # another table's hand (two tables writing one log): not this session
        return None
    dealer = last.get("dealer")
    dealer_index = (list(seats).index(dealer) + 1) % len(seats) if dealer in seats and seats else None
    earlier = tuple(r for r in records if r.get("session") == session)
    minutes = max(0, int((now - finished).total_seconds() // 60))
    next_dealer = seats[dealer_index] if dealer_index is not None else seats[0]
    sentence = (f"Hand {hand + 1}: dealer {next_dealer}. Session {session} goes on (hand {hand} finished "
                f"{minutes} min ago); --new-session starts a new one.")
    played = last.get("tie_policy")
    if tie_policy is not None and isinstance(played, str) and played in ("split", "rollover") and played != tie_policy:
        sentence += (f" Its last hand was played with --tie-policy {played}; this run plays --tie-policy "
                     f"{tie_policy} (give --tie-policy {played} to keep the session's rule).")
    carry = _carry(earlier, session)
    if carry:
        sentence += (f" {carry} chip{'' if carry == 1 else 's'} carried over from earlier hands "
                     f"join{'s' if carry == 1 else ''} this hand's main pot.")
    return Continuation(session, hand + 1, dealer_index, earlier, sentence, carry)


def _carry(records: Sequence[dict[str, Any]], session: str) -> int:
    """The chips the session's ``records`` carry into its next hand, as the ledger counts them (the one
    place that follows a carry over hands: undecided hands keep it, a decided one's rules settle it)."""
    from dealer_assist.ledger import LedgerBuilder

    builder = LedgerBuilder()
    for record in records:
        builder.add(record)
    carry = builder.carry_into(session)
    return int(carry) if carry == int(carry) else 0


class SessionLock:
    """The advisory lock (``flock``) that says a running ``live`` plays ``session`` of the log ``log``.

    The lock file is ``.<log name>.session-<id>.lock`` beside the log. :meth:`hold` takes it for the
    run's lifetime (the system drops it when the process ends, however it ends); :meth:`held_elsewhere`
    tells whether another process holds it. A folder where no lock file can be made (read-only) gives
    no lock: the session is then decided from the log alone, as before.
    """

    def __init__(self, log: str | os.PathLike, session: str) -> None:
        log = Path(log)
        tag = re.sub(r"[^A-Za-z0-9_-]", "", session)[:40]
        if tag != session:  # an odd id from a hand-edited log: a digest keeps the file name plain and unique
            tag = f"{tag}-{hashlib.sha256(session.encode('utf-8', 'replace')).hexdigest()[:12]}"
        self.path = log.with_name(f".{log.name}.session-{tag}.lock")
        self._fd: int | None = None

    def _lock(self) -> int | None | bool:
        """The lock file's descriptor, locked; False when another process holds it; None when no lock
        file can be made."""
        try:
            fd = os.open(self.path, os.O_RDWR | os.O_CREAT | getattr(os, "O_CLOEXEC", 0), 0o600)
        except OSError:
            return None
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            os.close(fd)
            return False
        return fd

    def held_elsewhere(self) -> bool:
        """True when another process holds this session's lock now."""
        if self._fd is not None:
            return False
        fd = self._lock()
        if fd is False:
            return True
        if fd is not None:
            os.close(fd)  # closing drops the lock taken just now
        return False

    def hold(self) -> bool:
        """Take the lock for this process's lifetime; False when another process holds it or no lock file
        can be made."""
        if self._fd is None:
            fd = self._lock()
            self._fd = fd if type(fd) is int else None
        return self._fd is not None

    def release(self) -> None:
        """Let the session go (the end of the run; a crash lets it go too)."""
        if self._fd is not None:
            fd, self._fd = self._fd, None
            try:
                os.unlink(self.path)
            except OSError:
                pass
            os.close(fd)
