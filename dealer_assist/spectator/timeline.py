"""The delay: what the table looked like at least ``delay`` seconds ago.

Every change the server sees (a new state file, a hand appended to the log)
becomes a *snapshot* with the time it became true. :meth:`Timeline.current`
gives the newest snapshot whose time is at least ``delay`` seconds old, so a
spectator never sees the table as it is now — only as it was. Snapshots that
can no longer be served (an older one than the one served) are dropped.

Times are seconds since the epoch (``time.time()``), the clock of file
modification times: a change read from a file counts from the file's
modification time, never later than when it was read, so a server started
in the middle of a session shows at once what was already old enough.
Times only go forward: a snapshot is never dated before the one added
before it.

>>> t = Timeline(delay=30)
>>> t.add(100.0, {"hand": 1}); t.add(110.0, {"hand": 2})
True
True
>>> t.current(125.0) is None, t.current(130.0).payload, t.current(140.0).payload
(True, {'hand': 1}, {'hand': 2})
"""

from __future__ import annotations

import math
import threading
from dataclasses import dataclass
from typing import Any

__all__ = ["Snapshot", "Timeline"]


@dataclass(frozen=True)
class Snapshot:
    """One picture of the table: ``payload`` as it stood from ``time`` on; ``number`` counts snapshots from 1."""

    number: int
    time: float
    payload: Any


class Timeline:
    """Snapshots in time order; thread-safe (the watcher adds, the request handlers read)."""

    def __init__(self, delay: float) -> None:
        if isinstance(delay, bool) or not isinstance(delay, (int, float)) or not math.isfinite(delay) or delay < 0:
            raise ValueError(f"the delay must be a number of seconds >= 0, not {delay!r}.")
        self.delay = float(delay)
        self._snapshots: list[Snapshot] = []
        self._count = 0
        self._lock = threading.Lock()

    def add(self, when: float, payload: Any) -> bool:
        """Record that the table looks like ``payload`` from ``when`` on; ``False`` (nothing added) when
        it is equal to the latest snapshot's payload."""
        with self._lock:
            if self._snapshots:
                last = self._snapshots[-1]
                if last.payload == payload:
                    return False
                when = max(when, last.time)
            self._count += 1
            self._snapshots.append(Snapshot(self._count, float(when), payload))
            return True

    def current(self, now: float) -> Snapshot | None:
        """The newest snapshot at least ``delay`` seconds old at ``now``, or ``None`` when there is none yet."""
        cutoff = now - self.delay
        with self._lock:
            chosen = None
            for i in range(len(self._snapshots) - 1, -1, -1):
                if self._snapshots[i].time <= cutoff:
                    chosen = i
                    break
            if chosen is None:
                return None
            if chosen:
                del self._snapshots[:chosen]  # never to be served again
            return self._snapshots[0]

    def next_time(self, now: float) -> float | None:
        """When the next snapshot not yet served becomes visible (``time + delay``), or ``None``."""
        cutoff = now - self.delay
        with self._lock:
            for snap in self._snapshots:
                if snap.time > cutoff:
                    return snap.time + self.delay
        return None

    def __len__(self) -> int:
        with self._lock:
            return len(self._snapshots)
