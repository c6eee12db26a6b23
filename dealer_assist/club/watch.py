"""The club's spectator screen, its data side: LISTEN for the tables' writes, keep each table's timeline.

A :class:`ClubWatcher` thread holds one connection that ``LISTEN``\\ s on
:data:`dealer_assist.club.store.CHANNEL`. Each notification names a table and what changed
(a hand stored, the hand in play replaced); the watcher reads just that (the hands that
arrived after the last one it has, or the table's state row), turns it into the public
payload with the single-table screen's own filter (:mod:`dealer_assist.spectator.public`: no
pocket serial of a seat that has not revealed) and adds it to the table's
:class:`~dealer_assist.spectator.timeline.Timeline` and to the overview's. The database is
never polled: between notifications the watcher waits in ``conn.notifies()``.

When the connection breaks (the server restarted, the network dropped) the watcher says so
once, reconnects with backoff and reads every table again: a notification sent while it was
away is not lost, because what it reads is the tables' rows, not the notifications.

Per table it keeps the hands of the table's last session (the session's balances), or, with
``since``, every hand finished since then.
"""

from __future__ import annotations

import threading
import time
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, Callable

import psycopg

from dealer_assist.club import store
from dealer_assist.club.db import ClubError, check_ready, connect
from dealer_assist.club.records import TABLE_NAME
from dealer_assist.fileio import JsonInputError, parse_json
from dealer_assist.spectator.public import balances, current_hand, has_content, public_from_record, public_from_state
from dealer_assist.spectator.timeline import Timeline

__all__ = ["ClubWatcher", "TableFeed", "RECONNECT_FIRST", "RECONNECT_MAX"]

#: Seconds before the watcher's first reconnection attempt, doubling up to :data:`RECONNECT_MAX`.
RECONNECT_FIRST = 0.5
RECONNECT_MAX = 5.0
#: The most tables one screen follows (a club's night, with room to spare).
MAX_TABLES = 100


@dataclass
class TableFeed:
    """One table as the screen knows it: its hands (last session, or since ``since``), hand in play, timeline."""

    name: str
    timeline: Timeline
    records: list[dict[str, Any]] = field(default_factory=list)
    last_id: int = 0
    state: dict[str, Any] | None = None
    payload: Any = None


def _seconds(delay: float) -> int | float:
    return int(delay) if float(delay).is_integer() else delay


class ClubWatcher:
    """Follows the club's database (see the module doc). ``start()``, ``stop()``; the web side calls
    :meth:`served_table` and :meth:`served_overview`."""

    def __init__(self, url: str, *, delay: float = 30.0, since: datetime | None = None,
                 clock: Callable[[], float] = time.time, warn: Callable[[str], None] = lambda text: None) -> None:
        self.url = url
        self.delay = delay
        self.since = since
        self.clock = clock
        self.warn = warn
        self.tables: dict[str, TableFeed] = {}
        self.overview = Timeline(delay)
        self.online = False
        self.notifications = 0
        self._lock = threading.RLock()
        self._stop = threading.Event()
        self._conn: psycopg.Connection | None = None
        self._thread = threading.Thread(target=self._run, name="club-watcher", daemon=True)
        self._warned: set[str] = set()
        self.loaded = threading.Event()
        self.started_at = clock()
        self._outage = False

    # ------------------------------------------------------------------ lifecycle
    def check(self) -> None:
        """Reach the club once before serving: :class:`ClubError` when it cannot be reached or is not initialised."""
        with connect(self.url) as conn:
            check_ready(conn)

    def start(self) -> "ClubWatcher":
        self._thread.start()
        return self

    def stop(self) -> None:
        self._stop.set()
        self._thread.join(timeout=3.0)  # it looks at the stop flag at least twice a second

    def _say(self, text: str) -> None:
        if text not in self._warned:
            self._warned.add(text)
            self.warn(text)

    def _run(self) -> None:
        delay = RECONNECT_FIRST
        while not self._stop.is_set():
            try:
                self._conn = connect(self.url, autocommit=True)
                self._conn.execute(f"LISTEN {store.CHANNEL}")
                self.online = True
                if self._outage:
                    self._outage = False
                    self.warn("the club database is reachable again.")
                self._load_all()
                self.loaded.set()
                delay = RECONNECT_FIRST
                while not self._stop.is_set():
                    # the generator holds the connection: take what came, then read the rows
                    notes = [n.payload for n in self._conn.notifies(timeout=0.5, stop_after=1)]
                    for payload in dict.fromkeys(notes):  # a burst naming a table twice is read once
                        self.notifications += 1
                        self._on_notify(payload)
            except (ClubError, psycopg.Error, OSError) as exc:
                self.online = False
                self._touch_overview()
                if not self._outage:  # once per outage
                    self._outage = True
                    self.warn(f"the club database is not reachable ({_reason(exc)}); the screen shows what it had "
                              f"and reconnects.")
                self._close()
                self._stop.wait(delay)
                delay = min(RECONNECT_MAX, delay * 2)
        self._close()

    def _close(self) -> None:
        if self._conn is not None:
            try:
                self._conn.close()
            except Exception:
                pass
            self._conn = None

    # ------------------------------------------------------------------ reading
    def _feed(self, name: str) -> TableFeed | None:
        if not TABLE_NAME.fullmatch(name):
            return None  # not written by dealer-assist (a name the page's address cannot carry)
        feed = self.tables.get(name)
        if feed is None:
            if len(self.tables) >= MAX_TABLES:
                self._say(f"the club has more than {MAX_TABLES} tables; the screen shows the first {MAX_TABLES}.")
                return None
            feed = self.tables[name] = TableFeed(name, Timeline(self.delay))
        return feed

    def _load_all(self) -> None:
        conn = self._conn
        names = store.table_names(conn)
        times = [self._load_table(name, first=True) for name in names]
        self._touch_overview(max((t for t in times if t is not None), default=None))

    def _load_table(self, name: str, first: bool = False) -> float | None:
        """Read the table again; returns the time its snapshot counts from."""
        conn = self._conn
        with self._lock:
            feed = self._feed(name)
        if feed is None:
            return None
        if self.since is not None:
            hands = store.fetch_hands(conn, table=name, since=self.since)
        else:
            session = store.last_session(conn, name)
            hands = store.fetch_hands(conn, table=name, session=session) if session is not None else []
        states = store.fetch_states(conn, name)
        state, updated = states.get(name, (None, None))
        times = [h.received_at.timestamp() for h in hands] + ([updated.timestamp()] if updated is not None else [])
        with self._lock:
            feed.records = [h.record for h in hands]
            feed.last_id = max([h.id for h in hands], default=feed.last_id)
            feed.state = state
            # a change read at start counts from when it was stored (a screen started late shows it at once)
            when = min(self.clock(), max(times)) if times and first else self.clock()
            self._changed(feed, when)
        return when

    def _on_notify(self, payload: str) -> None:
        try:
            note = parse_json(payload, "a notification")
        except JsonInputError:
            return
        if not isinstance(note, dict) or not isinstance(note.get("table"), str):
            return
        name, kind = note["table"], note.get("kind")
        conn = self._conn
        with self._lock:
            feed = self._feed(name)
        if feed is None:
            return
        now = self.clock()
        if kind == "hand":
            new = store.fetch_hands(conn, table=name, after_id=feed.last_id)
            with self._lock:
                for h in new:
                    session = h.record.get("session")
                    if self.since is None and feed.records and feed.records[-1].get("session") != session:
                        feed.records = []  # a new session at this table: its balances start again
                    feed.records.append(h.record)
                    feed.last_id = max(feed.last_id, h.id)
                self._changed(feed, now)
        elif kind == "state":
            state = store.fetch_states(conn, name).get(name, (None, None))[0]
            with self._lock:
                feed.state = state
                self._changed(feed, now)
        self._touch_overview(now)

    # ------------------------------------------------------------------ payloads
    def _table_payload(self, feed: TableFeed) -> dict[str, Any]:
        last = public_from_record(feed.records[-1]) if feed.records else None
        live = public_from_state(feed.state) if feed.state is not None else None
        hand = current_hand(live, last)
        previous = None
        if hand is not None and hand is not last and last is not None:
            previous = {"hand": last["hand"], "winners": last["winners"]}
        return {"table": feed.name, "hand": hand, "previous": previous,
                "balances": balances(feed.records, since=self.since)}

    def _changed(self, feed: TableFeed, when: float) -> None:
        payload = self._table_payload(feed)
        if payload != feed.payload:
            feed.payload = payload
            feed.timeline.add(when, payload)

    def _touch_overview(self, when: float | None = None) -> None:
        with self._lock:
            rows = []
            for name in sorted(self.tables):
                payload = self.tables[name].payload or {}
                hand = payload.get("hand")
                last = public_from_record(self.tables[name].records[-1]) if self.tables[name].records else None
                rows.append({
                    "name": name,
                    "hand": None if not has_content(hand) else {
                        "hand": hand.get("hand"), "source": hand.get("source"), "street": hand.get("street"),
                        "decided": hand.get("decided"), "winners": hand.get("winners"),
                        "tie_policy": hand.get("tie_policy"),
                        "board": [n.get("serial") for n in hand.get("board", [])], "time": hand.get("time"),
                        "seats": len(hand.get("seats", []))},
                    "last": None if last is None else {"hand": last.get("hand"), "session": last.get("session"),
                                                       "winners": last.get("winners"), "time": last.get("time")},
                })
            self.overview.add(self.clock() if when is None else when, {"tables": rows, "club_online": self.online})

    # ------------------------------------------------------------------ serving
    def _served(self, timeline: Timeline, empty: dict[str, Any]) -> dict[str, Any]:
        """The newest snapshot older than the delay. ``visible_from`` (while nothing is served yet: the
        screen's start plus the delay) is decided from the start alone, as on the single-table screen:
        the time of a change not yet served never reaches the page before the delay."""
        now = self.clock()
        snap = timeline.current(now)
        out: dict[str, Any] = {"snapshot": 0, "as_of": None, "delay": _seconds(self.delay), **empty}
        if snap is not None:
            out.update(snap.payload)
            out["snapshot"], out["as_of"] = snap.number, round(snap.time, 3)
        out["visible_from"] = round(self.started_at + self.delay, 3) if snap is None else None
        return out

    def served_table(self, name: str) -> dict[str, Any] | None:
        """What the table's page shows now (the single-table screen's shape); a table not heard of yet
        shows nothing (its page waits for its first hand)."""
        with self._lock:
            feed = self.tables.get(name)
        empty = {"table": name, "hand": None, "previous": None, "balances": None}
        if feed is None:
            return {"snapshot": 0, "as_of": None, "delay": _seconds(self.delay), **empty,
                    "visible_from": round(self.started_at + self.delay, 3)}
        return self._served(feed.timeline, empty)

    def served_overview(self) -> dict[str, Any]:
        """What the club's page shows now: every table's hand (after the delay) and last winner."""
        return self._served(self.overview, {"tables": [], "club_online": self.online})


def _reason(exc: BaseException) -> str:
    from dealer_assist.club.db import _first_line

    if isinstance(exc, ClubError):
        text = str(exc)
        if "(" in text and text.endswith(")."):
            return text[text.index("(") + 1:-2]
        return text
    return _first_line(exc)
