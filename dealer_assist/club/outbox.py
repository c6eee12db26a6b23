"""The table's side of the club: the hand log is the outbox, a thread publishes it.

``live`` appends every finished hand to its local log first (fsynced, as without a club:
:class:`dealer_assist.live.history.HandLog`). The log itself is the outbox: an
:class:`Outbox` keeps, in a small file beside it (``hands.jsonl.club.json``), how far the
log has been stored in each club (a byte offset per club database and table). The
:class:`Publisher` thread sends the records after that offset in log order, in batches,
each batch in one transaction, and moves the offset only after the batch committed. So:

* a hand is never lost: it is on the local disk before the club is even tried, and stays
  "to send" until a commit says it is stored;
* a hand is stored once: a batch sent again (the answer to a commit was lost, the process
  was killed between the commit and the offset's write) finds its rows there already
  (idempotent insert keyed by table, session and hand, :func:`.store.insert_hands`);
* the table plays on when the database or the network is down: the publisher retries with
  backoff (:data:`BACKOFF_FIRST` doubling up to :data:`BACKOFF_MAX`) and :meth:`Publisher.status`
  says so for the dashboard's header; the backlog goes up in order when the club is back,
  also after a restart of ``live`` (the offset is on disk), or with ``dealer-assist club sync``.

The hand in play (the spectator state) is sent too, latest value only (:meth:`Publisher.offer_state`):
a state lost in an outage is simply replaced by the next.
"""

from __future__ import annotations

import os
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

import psycopg

from dealer_assist.club import store
from dealer_assist.club.db import ClubError, check_ready, connect, describe_url
from dealer_assist.club.records import ClubHand, parse_line
from dealer_assist.fileio import JsonInputError, dumps_json, parse_json, write_atomic

__all__ = ["Outbox", "Publisher", "ClubStatus", "BACKOFF_FIRST", "BACKOFF_MAX", "BATCH_HANDS", "cursor_path"]

#: Seconds before the first retry after a failure; each further failure doubles it ...
BACKOFF_FIRST = 0.5
#: ... up to this many seconds, so a club back after an outage gets the backlog within about 5 s.
BACKOFF_MAX = 5.0
#: Hands sent in one transaction (a night's backlog of ~300 hands goes up in a few seconds).
BATCH_HANDS = 200
#: The most of the log read in one pass (the rest waits for the next pass).
READ_BYTES = 8 * 1024 * 1024
CURSOR_SCHEMA = "dealer-assist/club-outbox"
#: The publisher's error before its first attempt ended.
CONNECTING = "connecting…"
#: Seconds between two checks that an idle connection still reaches the club (the header stays true).
HEALTH_CHECK = 5.0


def cursor_path(log: Path) -> Path:
    """The outbox's offset file beside the log: ``hands.jsonl`` -> ``hands.jsonl.club.json``."""
    return log.with_name(log.name + ".club.json")


@dataclass
class Pending:
    """The complete lines of the log after an offset, in order: ``(hand, None, end)`` for a hand to send,
    ``(None, sentence, end)`` for a line the club cannot take (``end``: the offset just past the line);
    ``end``: the offset after the last complete line read."""

    items: list[tuple[ClubHand | None, str | None, int]] = field(default_factory=list)
    end: int = 0

    @property
    def hands(self) -> list[ClubHand]:
        return [h for h, _, _ in self.items if h is not None]


class Outbox:
    """One table's log as the outbox toward one club (see the module doc)."""

    def __init__(self, log: str | os.PathLike, url: str, table: str) -> None:
        self.log = Path(log)
        self.url = url
        self.table = table
        self.key = f"{describe_url(url)} {table}"
        self.cursor_file = cursor_path(self.log)
        self._line_numbers: tuple[int, int] = (0, 0)  # (offset, number of the line starting there)

    # ---------------------------------------------------------------- the stored offset
    def _cursors(self) -> dict[str, int]:
        try:
            obj = parse_json(self.cursor_file.read_bytes(), str(self.cursor_file))
        except (OSError, JsonInputError):
            return {}  # none yet, or damaged: everything is sent again, and stored once
        sent = obj.get("sent") if isinstance(obj, dict) and obj.get("schema") == CURSOR_SCHEMA else None
        if not isinstance(sent, dict):
            return {}
        return {k: v for k, v in sent.items() if isinstance(v, int) and not isinstance(v, bool) and v >= 0}

    def sent_offset(self) -> int:
        """Bytes of the log already stored in this club for this table (0 when the log shrank below it:
        another file now; everything is sent again, and stored once)."""
        offset = self._cursors().get(self.key, 0)
        try:
            size = self.log.stat().st_size
        except OSError:
            return 0
        return offset if offset <= size else 0

    def mark_sent(self, offset: int) -> None:
        """Remember that the log is stored up to ``offset`` (atomically, fsynced; ``OSError`` when the
        folder takes no file: the hands are then sent again later, and stored once)."""
        cursors = self._cursors()
        cursors[self.key] = offset
        write_atomic(self.cursor_file, dumps_json({"schema": CURSOR_SCHEMA, "version": 1, "sent": cursors},
                                                  indent=1) + "\n")

    # ---------------------------------------------------------------- reading the log
    def pending(self, offset: int | None = None, limit: int = READ_BYTES) -> Pending:
        """The complete lines of the log from ``offset`` (default: the stored one); a last line
        without its newline is left for later (live may be writing it)."""
        start = self.sent_offset() if offset is None else offset
        out = Pending(end=start)
        try:
            with open(self.log, "rb") as fh:
                fh.seek(start)
                data = fh.read(limit)
        except FileNotFoundError:
            return out
        except OSError as exc:
            raise ClubError(f"The hand log {self.log} cannot be read ({exc.strerror or exc}).") from None
        number = self._line_number(start)
        pos = 0
        while True:
            nl = data.find(b"\n", pos)
            if nl < 0:
                break
            line = data[pos:nl].rstrip(b"\r")
            end = start + nl + 1
            hand, problem = parse_line(self.log, number, line)
            if hand is not None or problem is not None:
                out.items.append((hand, problem, end))
            number += 1
            pos = nl + 1
            out.end = end
        self._line_numbers = (out.end, number)
        return out

    def _line_number(self, offset: int) -> int:
        """The number of the line starting at ``offset`` (for warnings), counting from the start when unknown."""
        known_offset, known_number = self._line_numbers
        if offset == known_offset and known_number:
            return known_number
        if offset == 0:
            return 1
        try:
            with open(self.log, "rb") as fh:
                count = 1
                left = offset
                while left > 0:
                    chunk = fh.read(min(left, 1 << 20))
                    if not chunk:
                        break
                    count += chunk.count(b"\n")
                    left -= len(chunk)
                return count
        except OSError:
            return 1


@dataclass(frozen=True)
class ClubStatus:
    """What the dashboard says about the club.

    ``online``: the last attempt reached the database; ``waiting``: hands in the log not yet stored;
    ``since``: when the current state began (``time.time()``); ``error``: why the club is not
    reached (one sentence); ``stored``: hands this run stored; ``refused``: log lines the club
    cannot take (sentences, the first few).
    """

    table: str
    club: str
    online: bool
    waiting: int
    since: float
    error: str | None = None
    stored: int = 0
    refused: tuple[str, ...] = ()

    def line(self) -> str:
        """One line for the header, e.g. ``"club 127.0.0.1/club as T1: offline since 20:05:13, 3 hand(s) waiting
        in the log (connection refused)"``."""
        head = f"club {self.club} as {self.table}: "
        if not self.online and self.error == CONNECTING:
            text = head + f"connecting…, {self.waiting} hand(s) waiting in the log"
        elif self.online:
            text = head + ("connected, every hand stored" if not self.waiting else
                           f"connected, sending {self.waiting} hand(s)")
        else:
            when = time.strftime("%H:%M:%S", time.localtime(self.since))
            text = head + f"OFFLINE since {when}, {self.waiting} hand(s) waiting in the log; the table plays on"
            if self.error:
                text += f" ({self.error})"
        if self.refused:
            text += f" · {len(self.refused)} log line(s) the club cannot take"
        return text


class Publisher:
    """The thread that sends one table's outbox to the club (see the module doc).

    ``start()``; ``wake()`` after a hand was appended to the log; ``offer_state(obj)`` with each new
    table state; ``status()`` for the header; ``close(flush)`` at the end: waits up to ``flush``
    seconds for the backlog to be stored (what is left stays in the log for the next run or ``club sync``).
    """

    def __init__(self, outbox: Outbox, *, clock: Callable[[], float] = time.time,
                 backoff_first: float = BACKOFF_FIRST, backoff_max: float = BACKOFF_MAX,
                 on_stored: Callable[[list[ClubHand]], None] | None = None) -> None:
        self.outbox = outbox
        self.clock = clock
        self.backoff_first, self.backoff_max = backoff_first, backoff_max
        self.on_stored = on_stored
        self._conn: psycopg.Connection | None = None
        self._wake = threading.Event()
        self._stop = threading.Event()
        self._lock = threading.Lock()
        self._state: Any = None
        self._state_version = 0
        self._state_sent = 0
        now = clock()
        self._status = ClubStatus(outbox.table, describe_url(outbox.url), False, 0, now, CONNECTING)
        self._thread = threading.Thread(target=self._run, name=f"club-publisher-{outbox.table}", daemon=True)
        self._refused: list[str] = []
        self._checked = 0.0
        self._failures = 0

    # ---------------------------------------------------------------- the table's calls
    def start(self) -> "Publisher":
        self._thread.start()
        return self

    def wake(self, *_args: Any) -> None:
        """A hand was appended to the log: send it now (when the club is reachable)."""
        self._wake.set()

    def offer_state(self, state: dict[str, Any] | None) -> None:
        """The table's hand in play changed (a table-state object, or None when no hand is in play)."""
        with self._lock:
            self._state = state
            self._state_version += 1
        self._wake.set()

    def status(self) -> ClubStatus:
        with self._lock:
            return self._status

    def close(self, flush: float = 3.0) -> ClubStatus:
        """Stop after storing what is waiting, for at most ``flush`` seconds; returns the last status
        (its ``waiting``: the hands left in the log for the next run or ``club sync``)."""
        self.offer_state(None)  # no hand in play at this table any more
        failures = self._failures
        deadline = time.monotonic() + flush
        while self._thread.is_alive() and time.monotonic() < deadline:
            with self._lock:
                state_done = self._state_sent == self._state_version
            status = self.status()
            if status.online and state_done and not self.outbox.pending().hands:
                break
            if self._failures > failures:
                break  # the club is down now: the log keeps the backlog
            time.sleep(0.05)
        self._stop.set()
        self._wake.set()
        self._thread.join(timeout=max(0.5, deadline - time.monotonic()))
        try:
            self._set(waiting=len(self.outbox.pending().hands))
        except ClubError:
            pass
        return self.status()

    # ---------------------------------------------------------------- the thread
    def _set(self, **changes: Any) -> None:
        with self._lock:
            old = self._status
            online = changes.get("online", old.online)
            since = old.since if online == old.online else self.clock()
            self._status = ClubStatus(old.table, old.club, online, changes.get("waiting", old.waiting), since,
                                      changes.get("error", old.error), changes.get("stored", old.stored),
                                      tuple(self._refused[:20]))

    def _disconnect(self) -> None:
        if self._conn is not None:
            try:
                self._conn.close()
            except Exception:
                pass
            self._conn = None

    def _run(self) -> None:
        delay = self.backoff_first
        while True:
            stopping = self._stop.is_set()
            try:
                self._pass()
                delay = self.backoff_first
                if stopping:
                    break
                self._wake.wait(timeout=1.0)
                self._wake.clear()
            except (ClubError, psycopg.Error, OSError) as exc:
                self._failures += 1
                self._disconnect()
                self._set(online=False, error=_reason(exc))
                if stopping:
                    break
                self._stop.wait(timeout=delay)  # backoff; wake() does not cut it short (no hammering)
                delay = min(self.backoff_max, delay * 2)
                if self._stop.is_set():
                    break
        self._disconnect()

    def _pass(self) -> None:
        """Send what is waiting (hands first, then the latest state); raises on any failure."""
        pending = self.outbox.pending()
        self._set(waiting=len(pending.hands))
        if self._conn is None or self._conn.closed:
            self._conn = connect(self.outbox.url)
            check_ready(self._conn)
        self._set(online=True, error=None)
        stored = self.status().stored
        while pending.items:
            chunk, count = [], 0
            for item in pending.items:
                if item[0] is not None:
                    if count == BATCH_HANDS:
                        break
                    count += 1
                chunk.append(item)
            hands = [h for h, _, _ in chunk if h is not None]
            problems = [p for _, p, _ in chunk if p is not None]
            if hands:
                new, refused = store.insert_or_refuse(self._conn, self.outbox.table, hands)
                stored += new
                problems += refused
                self._checked = time.monotonic()
            for problem in problems:
                if problem not in self._refused:
                    self._refused.append(problem)
            mark = chunk[-1][2]
            self.outbox.mark_sent(mark)
            if self.on_stored is not None and hands:
                self.on_stored(hands)
            pending = self.outbox.pending(mark)
            self._set(waiting=len(pending.hands), stored=stored)
        if time.monotonic() - self._checked >= HEALTH_CHECK:  # an idle connection: is the club still there?
            with self._conn.transaction():
                self._conn.execute("SELECT 1")
            self._checked = time.monotonic()
        with self._lock:
            state, version = self._state, self._state_version
        if version != self._state_sent:
            store.put_state(self._conn, self.outbox.table, state)
            self._checked = time.monotonic()
            with self._lock:
                self._state_sent = version


def _reason(exc: BaseException) -> str:
    from dealer_assist.club.db import _first_line

    if isinstance(exc, ClubError):
        text = str(exc)
        if "(" in text and text.endswith(").") and "cannot be reached" in text:
            return text[text.index("(") + 1:-2]
        return text
    return _first_line(exc)
