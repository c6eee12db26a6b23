"""Following the files ``dealer-assist live`` writes: the hand log (appended) and the state file (replaced).

:class:`LogFollower` reads only what was appended since the last look, line by
line through the log's one reader (:func:`dealer_assist.live.history.record_from_line`:
the one validator, a warning naming each line that is no record), and hands
each record to a sink (:class:`RecordSink`) instead of keeping it: memory is
one chunk and one line (at most 4 MiB; a longer one is skipped to its newline
with a warning, never held), whatever the log's length. A line without its
newline yet is left for the next look (live may be writing it); a line that
never becomes a record (torn by a crash: live starts the next record on a
fresh line) is skipped and counted.

The log is only ever appended to. Any other change is a rewrite, and the log
is then read again from its start (the sink reset first), so the screen never
keeps balances of hands that are no longer in the file: another file at the
path (a new inode: ``mv``, an editor's save), a file shorter than what was read
(cut), the same length with another modification time (a rewrite of equal
length), or a checksum of the part already read that no longer matches (the
first block, the last block read and up to :data:`MAX_CHECKPOINTS` blocks
between: ``cp new.jsonl hands.jsonl`` over a longer file).

:class:`StateFollower` reads the state file when its size, modification time
or inode changed. The file is replaced atomically by live, so it is read
whole; a file that is not a state object is reported once and shows nothing.

Both return the modification time of what they read, which dates the snapshot
(see :mod:`.timeline`).
"""

from __future__ import annotations


import hashlib
import os
import stat
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

from dealer_assist.fileio import MAX_JSON_BYTES, JsonInputError, open_stream, parse_json
from dealer_assist.live.history import record_from_line

__all__ = ["LogFollower", "StateFollower", "RecordSink", "KeepAll", "path_refusal", "MAX_STATE_BYTES",
           "READ_CHUNK", "CHECK_BLOCK", "MAX_CHECKPOINTS", "WARNINGS_KEPT"]

#: A state file is a few kilobytes; anything far larger is not one.
MAX_STATE_BYTES = 1 << 20
#: The log is read in chunks of this size (to its end at each look); memory holds one chunk and one line.
READ_CHUNK = 1 << 20
#: Bytes of each checksummed block of the part of the log already read.
CHECK_BLOCK = 4096
#: Checksummed blocks kept (the first, the last read, others spread between): each look re-reads these
#: few kilobytes to notice a rewrite that kept or grew the file's length.
MAX_CHECKPOINTS = 16
#: Warnings one look keeps for the caller to say (the others are counted).
WARNINGS_KEPT = 10


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


class RecordSink(Protocol):
    """What a :class:`LogFollower` hands the records to, one at a time (it keeps none itself)."""

    def reset(self) -> None:
        """Forget every record: the log is read again from its start."""

    def add(self, record: dict[str, Any]) -> None:
        """One more record, in log order (checked by the log's validator)."""


class KeepAll:
    """A sink that keeps every record (small logs, tests); the spectator screen keeps a summary instead."""

    def __init__(self) -> None:
        self.records: list[dict[str, Any]] = []

    def reset(self) -> None:
        self.records = []

    def add(self, record: dict[str, Any]) -> None:
        self.records.append(record)


@dataclass(frozen=True, slots=True)
class _Checkpoint:
    offset: int
    length: int
    digest: bytes


class LogFollower:
    """The records of a hand log, read incrementally and handed to ``sink`` (see the module doc).

    Attributes:
        skipped: lines since the last (re)start that were no record.
        warnings: the sentences of the last poll's skipped lines (the first :data:`WARNINGS_KEPT`
            of ``new_skipped``), for the caller to say.
        rebuilds: how many times the log was found rewritten and read again from its start.
        rewrite: why the last rebuild happened (``None`` before any).
        problem: a sentence when the log cannot be read now.
    """

    def __init__(self, path: str | os.PathLike, sink: RecordSink | None = None) -> None:
        self.path = Path(path)
        self.sink: RecordSink = sink if sink is not None else KeepAll()
        self.skipped = 0
        self.new_skipped = 0
        self.warnings: list[str] = []
        self.rebuilds = 0
        self.rewrite: str | None = None
        self.problem: str | None = None
        self._ino: tuple[int, int] | None = None
        self._start()

    @property
    def records(self) -> list[dict[str, Any]]:
        """The records read (only with the default :class:`KeepAll` sink)."""
        return self.sink.records  # type: ignore[attr-defined]

    def _start(self) -> None:
        self.skipped, self._offset, self._partial, self._line, self._count = 0, 0, b"", 0, 0
        self._long = False  # inside a line over the limit: skipped up to its newline
        self._seen: tuple[int, int] | None = None  # (size, mtime_ns) when everything there was read
        self._checks: list[_Checkpoint] = []
        self.sink.reset()

    def _warn(self, text: str | None) -> None:
        if text is None:
            return
        self.skipped += 1
        self.new_skipped += 1
        if len(self.warnings) < WARNINGS_KEPT:
            self.warnings.append(text)

    def _rewritten(self, st: os.stat_result, ino: tuple[int, int]) -> str | None:
        """Why what was read is no longer the start of the file (None: only appended to, if at all)."""
        if self._ino is None:
            return None
        if ino != self._ino:
            return "replaced by another file"
        if st.st_size < self._offset:
            return "cut shorter"
        if self._seen is not None and self._seen[0] == st.st_size and self._seen[1] != st.st_mtime_ns:
            return "rewritten in place (same length, changed since read)"
        if self._checks and not self._prefix_intact():
            return "rewritten (the part already read changed)"
        return None

    def _prefix_intact(self) -> bool:
        try:
            with _open_log(self.path) as fh:
                for check in self._checks:
                    fh.seek(check.offset)
                    if _digest(fh.read(check.length)) != check.digest:
                        return False
        except OSError:
            return True  # unreadable now: said by the read below
        return True

    def _checkpoint(self, data: bytes) -> None:
        """Move past ``data`` (just read at the offset), remembering checksums of the first bytes of the log
        and of the last bytes read; at most MAX_CHECKPOINTS, spread out (the first and the last kept)."""
        start = self._offset
        self._offset += len(data)
        if start == 0:
            head = data[:CHECK_BLOCK]
            self._checks = [_Checkpoint(0, len(head), _digest(head))]
        tail = data[-CHECK_BLOCK:]
        if tail and self._offset - len(tail) > 0:
            self._checks.append(_Checkpoint(self._offset - len(tail), len(tail), _digest(tail)))
        if len(self._checks) > MAX_CHECKPOINTS:
            self._checks = [self._checks[0], *self._checks[1:-1:2], self._checks[-1]]

    def poll(self) -> tuple[bool, float | None]:
        """Read what was appended; ``(changed, modification time)``. A missing log has no records.

        A log found rewritten (see the module doc) is read again from its start: ``changed``, and
        :attr:`rebuilds` counts it.
        """
        self.warnings, self.new_skipped = [], 0
        try:
            st = os.stat(self.path)
        except FileNotFoundError:
            changed = self._count > 0 or self._ino is not None
            self._start()
            self._ino, self.problem = None, None
            return changed, None
        except OSError as exc:
            self.problem = f"The hand log {self.path} cannot be read ({exc.strerror or exc})."
            return False, None
        if not stat.S_ISREG(st.st_mode):  # a folder or a pipe now: no hand log there, so no balances either
            changed = self._count > 0 or self._ino is not None
            self._start()
            self._ino = None
            self.problem = f"The hand log {self.path} is not a regular file any more."
            return changed, None
        changed = False
        ino = (st.st_dev, st.st_ino)
        why = self._rewritten(st, ino)
        if why is not None:
            changed = self._count > 0 or self.skipped > 0
            self.rebuilds += 1
            self.rewrite = why
            self._start()
        self._ino = ino
        if st.st_size == self._offset:
            if self._seen is None and not self._partial and not self._long:
                self._seen = (st.st_size, st.st_mtime_ns)
            return changed, st.st_mtime
        try:
            with _open_log(self.path) as fh:  # never blocks: a pipe put there since the stat is refused
                fh.seek(self._offset)
                while True:  # to the end, a chunk at a time: memory by the chunk, not the log
                    data = fh.read(READ_CHUNK)
                    if not data:
                        break
                    changed |= self._take(data)
                    self._checkpoint(data)
                end = os.fstat(fh.fileno())
        except OSError as exc:
            self.problem = f"The hand log {self.path} cannot be read ({exc.strerror or exc})."
            return changed, None
        self.problem = None
        self._seen = (end.st_size, end.st_mtime_ns) if end.st_size == self._offset else None
        return changed or self.new_skipped > 0, st.st_mtime

    def _take(self, data: bytes) -> bool:
        """The complete lines of ``data`` (with what was left of the last look), to the sink."""
        added = False
        pieces = data.split(b"\n")
        last = pieces.pop()  # no newline yet: maybe still being written
        for piece in pieces:
            self._line += 1
            if self._long:
                self._long = False
                self._warn(record_from_line(self._line, None, str(self.path))[1])
                continue
            line, self._partial = self._partial + piece, b""
            record, warning = record_from_line(self._line, line, str(self.path))
            self._warn(warning)
            if record is not None:
                self.sink.add(record)
                self._count += 1
                added = True
        if self._long:
            return added
        self._partial += last
        if len(self._partial) > MAX_JSON_BYTES:  # a line longer than any record: not held, skipped to its newline
            self._partial, self._long = b"", True
        return added


def _open_log(path: Path):
    """The log opened for reading without ever blocking (a pipe or a device put at the path between the
    look and the open is refused, ``OSError``, instead of hanging the follower for the night)."""
    try:
        return open_stream(path, label=f"The hand log {path}")
    except JsonInputError as exc:
        raise OSError(exc.reason) from None


def _digest(data: bytes) -> bytes:
    return hashlib.blake2b(data, digest_size=16).digest()


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
            try:
                fh = open_stream(self.path, label=f"The state file {self.path}")  # never blocks on a pipe
            except JsonInputError as exc:  # not a regular file since the look
                raise OSError(exc.reason) from None
            with fh:
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
