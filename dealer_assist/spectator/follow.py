"""Following the files ``dealer-assist live`` writes: the hand log (appended) and the state file (replaced).

:class:`LogFollower` reads only what was appended since the last look. A line
without its newline yet is left for the next look (live may be writing it);
a line that never becomes a record (torn by a crash: live starts the next
record on a fresh line) is skipped and counted. A log that shrinks or is
replaced by another file is read again from its start.

:class:`StateFollower` reads the state file when its size, modification time
or inode changed. The file is replaced atomically by live, so it is read
whole; a file that is not a state object is reported once and shows nothing.

Both return the modification time of what they read, which dates the snapshot
(see :mod:`.timeline`).
"""

from __future__ import annotations


import os
import stat
from pathlib import Path
from typing import Any

from dealer_assist.fileio import JsonInputError, parse_json
from dealer_assist.live.history import SCHEMA as LOG_SCHEMA
from dealer_assist.live.history import VERSION as LOG_VERSION

__all__ = ["LogFollower", "StateFollower", "path_refusal", "MAX_STATE_BYTES"]

#: A state file is a few kilobytes; anything far larger is not one.
MAX_STATE_BYTES = 1 << 20
#: At most this much of the log is read in one look (the rest at the next).
READ_CHUNK = 8 << 20


def path_refusal(path: str | os.PathLike, what: str) -> str | None:
    """One sentence saying why ``path`` cannot be followed (a folder, a device, a pipe), or ``None``.

    A missing file is fine: it is waited for.
    """
    try:
        mode = os.stat(path).st_mode
    except FileNotFoundError:
        return None
    except OSError as exc:
        return f"The {what} {path} cannot be opened ({exc.strerror or exc})."
    if stat.S_ISDIR(mode):
        return f"The {what} {path} is a folder; give the file (e.g. {Path(path) / 'hands.jsonl'})." \
            if what == "hand log" else f"The {what} {path} is a folder; give a file."
    if not stat.S_ISREG(mode):
        return f"The {what} {path} is not a regular file (a device, a pipe or a socket); give a file."
    return None


def _is_record(obj: object) -> bool:
    return (isinstance(obj, dict) and obj.get("schema") == LOG_SCHEMA and type(obj.get("version")) is int
            and obj.get("version") == LOG_VERSION)


class LogFollower:
    """The records of a hand log, read incrementally (see the module doc)."""

    def __init__(self, path: str | os.PathLike) -> None:
        self.path = Path(path)
        self.records: list[dict[str, Any]] = []
        self.skipped = 0
        self.problem: str | None = None
        self._offset = 0
        self._ino: tuple[int, int] | None = None
        self._partial = b""
        self._line = 0

    def _reset(self) -> None:
        self.records, self.skipped, self._offset, self._partial, self._line = [], 0, 0, b"", 0

    def poll(self) -> tuple[bool, float | None]:
        """Read what was appended; ``(changed, modification time)``. A missing log has no records."""
        try:
            st = os.stat(self.path)
        except FileNotFoundError:
            changed = bool(self.records) or self._ino is not None
            self._reset()
            self._ino, self.problem = None, None
            return changed, None
        except OSError as exc:
            self.problem = f"The hand log {self.path} cannot be read ({exc.strerror or exc})."
            return False, None
        if not stat.S_ISREG(st.st_mode):
            self.problem = f"The hand log {self.path} is not a regular file any more."
            return False, None
        changed = False
        ino = (st.st_dev, st.st_ino)
        if ino != self._ino or st.st_size < self._offset:
            changed = bool(self.records)  # replaced or cut: read it again from its start
            self._reset()
            self._ino = ino
        if st.st_size == self._offset:
            return changed, st.st_mtime
        try:
            with open(self.path, "rb") as fh:
                fh.seek(self._offset)
                data = fh.read(READ_CHUNK)
        except OSError as exc:
            self.problem = f"The hand log {self.path} cannot be read ({exc.strerror or exc})."
            return changed, None
        self.problem = None
        self._offset += len(data)
        data = self._partial + data
        lines = data.split(b"\n")
        self._partial = lines.pop()  # no newline yet: maybe still being written
        for line in lines:
            self._line += 1
            if self._line == 1 and line.startswith(b"\xef\xbb\xbf"):
                line = line[3:]
            if not line.strip():
                continue
            try:
                obj = parse_json(line, f"{self.path} line {self._line}")
            except JsonInputError:
                self.skipped += 1  # torn by a crash, or not JSON
                continue
            if not _is_record(obj):
                self.skipped += 1
                continue
            self.records.append(obj)
            changed = True
        return changed, st.st_mtime


class StateFollower:
    """The state file's JSON object, read again whenever the file changed (see the module doc)."""

    def __init__(self, path: str | os.PathLike) -> None:
        self.path = Path(path)
        self.obj: Any = None
        self.problem: str | None = None
        self.mtime: float | None = None
        self._key: tuple | None = None

    def poll(self) -> tuple[bool, float | None]:
        """``(changed, modification time)``; a missing file is no state."""
        try:
            st = os.stat(self.path)
        except FileNotFoundError:
            changed = self.obj is not None
            self.obj, self.problem, self._key, self.mtime = None, None, None, None
            return changed, None
        except OSError as exc:
            self.problem = f"The state file {self.path} cannot be read ({exc.strerror or exc})."
            return False, self.mtime
        key = (st.st_dev, st.st_ino, st.st_size, st.st_mtime_ns)
        if key == self._key:
            return False, self.mtime
        self._key = key
        self.mtime = st.st_mtime
        previous = self.obj
        if not stat.S_ISREG(st.st_mode) or st.st_size > MAX_STATE_BYTES:
            self.obj = None
            self.problem = f"The state file {self.path} is not a state file (not a regular file, or too large)."
            return previous is not None, self.mtime
        try:
            with open(self.path, "rb") as fh:
                raw = fh.read(MAX_STATE_BYTES + 1)
            obj = parse_json(raw, str(self.path))
        except OSError as exc:
            self.problem = f"The state file {self.path} cannot be read ({exc.strerror or exc})."
            self._key = None  # try again at the next look
            return False, self.mtime
        except JsonInputError:
            obj = None
            self.problem = f"The state file {self.path} is not JSON; the hand in play is not shown."
        else:
            self.problem = None
        self.obj = obj
        return obj != previous, self.mtime
