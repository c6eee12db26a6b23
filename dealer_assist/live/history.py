"""The hand log: one JSON line per finished hand, appended, flushed and fsynced.

A crash (power cut, ``kill -9``) loses at most the hand in progress: each
record is written with a single ``write`` on a file opened for appending,
then flushed to the disk (``fsync``) before the next hand starts. A line
torn by a crash in the middle of that write is skipped (with a warning) when
the log is read, and the next record starts on a fresh line. A record glued to
a torn line (appended by a tool that starts no fresh line: ``cat FALLBACK >>
LOG``) is still read, with a warning about the torn part.

A record (``schema`` ``dealer-assist/hand-log``, version 1)::

    {"schema": "dealer-assist/hand-log", "version": 1, "session": "20250101T200000-ab12",
     "hand": 3, "started": "2025-01-01T20:05:00+00:00", "finished": "…", "end": "new hand",
     "position": 4, "position_random": true, "zero_joker": "off", "tie_policy": "split",
     "position_changes": [{"from": 5, "to": 4}],    # only when P was changed after the deal (RULES.md §2)
     "dealer": "P2", "status": "showdown", "street": "showdown",
     "notes": [{"zone": "board", "index": 1, "serial": "1234567", "confidence": 0.93,
                "source": "ocr", "status": "trusted"}, …],
     "folded": ["P3"], "chips": {"P1": 25, …},
     "best_hands": {"P1": {"class": "pair", "ranks": [7, 7, 5], "natural": true, "notes": […]}, …},
     "winners": ["P1"], "settlement": {…},          # FORMATS.md §2, when chips were entered
     "input": {…}}                                   # the hand in FORMATS.md §1 form

An Indian poker hand (RULES.md §7) also has ``"game": "indian"`` (a record
without it is a Hold'em hand), as its ``input`` does.

``input`` lets ``dealer-assist history --show N`` evaluate the hand again.
A line that is not a record this program can show (torn, only NUL bytes,
another schema or version, a field of the wrong type or out of bounds: the
one validator, :mod:`dealer_assist.live.log_record`) is skipped by
:func:`iter_log` / :func:`read_log` with a warning sentence naming its line;
the other records are still read.
"""

from __future__ import annotations

import os
import re
import stat
from datetime import datetime
from pathlib import Path
from typing import Any, BinaryIO, Callable, Iterator

from dealer_assist.fileio import (MAX_JSON_BYTES, JsonInputError, bounded_lines, dumps_json, folder_refusal,
                                  is_blank_line, open_stream, parse_json)
from dealer_assist.live.log_record import check_record
from dealer_assist.live.table_view import TableView

__all__ = ["SCHEMA", "VERSION", "HistoryError", "HandLog", "default_log_path", "hand_record", "read_log",
           "iter_log", "open_log", "record_from_line", "record_input", "first_line_refusal", "is_damaged_line", "is_record_line"]

SCHEMA = "dealer-assist/hand-log"
VERSION = 1
#: Environment variable naming the log file (overrides the default place).
ENV_LOG = "DEALER_ASSIST_HISTORY"


class HistoryError(OSError):
    """The log cannot be created, written or read; one plain sentence."""


def default_log_path(environ: dict[str, str] | None = None) -> Path:
    """``$DEALER_ASSIST_HISTORY``, else ``$XDG_DATA_HOME/dealer-assist/hands.jsonl``
    (``~/.local/share/dealer-assist/hands.jsonl`` when XDG_DATA_HOME is unset)."""
    env = os.environ if environ is None else environ
    if env.get(ENV_LOG, "").strip():
        return Path(env[ENV_LOG]).expanduser()
    base = env.get("XDG_DATA_HOME", "").strip()
    root = Path(base).expanduser() if base else Path.home() / ".local" / "share"
    return root / "dealer-assist" / "hands.jsonl"


def tie_rolled_over(record: dict[str, Any]) -> bool:
    """Whether a logged hand was a tie under the rollover policy (RULES.md §4): its pot went to the next hand,
    so its logged ``winners`` (the best hands, FORMATS.md) tied and nobody won or split it."""
    return (record.get("tie_policy") == "rollover" and record.get("status") == "showdown"
            and len(record.get("winners") or []) > 1)


def hand_record(view: TableView, *, session: str, started: datetime, finished: datetime, end: str) -> dict[str, Any]:
    """The log record of a finished hand (see the module doc).

    Args:
        view: the hand as it stood when it finished.
        session: an id of the live session (hands of one session share it).
        started, finished: aware datetimes.
        end: what finished it (``"new hand"``, ``"quit"``, ``"table cleared"``, ``"end of video"``).
    """
    state = view.state
    result = view.result_json()
    notes = []
    for slot in view.all_slots:
        notes.append({"zone": slot.zone, "index": slot.index, "serial": slot.serial,
                      "confidence": round(slot.confidence, 3), "source": slot.source, "status": slot.status})
    record: dict[str, Any] = {
        "schema": SCHEMA, "version": VERSION, "session": session, "hand": state.hand_number,
        "started": started.isoformat(timespec="seconds"), "finished": finished.isoformat(timespec="seconds"),
        "end": end, "position": state.position, "position_random": state.position_random,
        "zero_joker": state.zero_joker.value, "tie_policy": state.tie_policy.value, "dealer": state.dealer,
        "status": result["status"], "street": view.street, "notes": notes,
        "folded": sorted(state.folded), "chips": state.chips_map,
        "best_hands": result["players"], "winners": result["winners"],
    }
    if state.position_changes:  # P changed after the deal (RULES.md §2): the record says from what
        record["position_changes"] = [{"from": a, "to": b} for a, b in state.position_changes]
    if state.game.board_notes == 0:  # FORMATS.md §1: a record without "game" is a Hold'em hand
        record["game"] = state.game.value
    if "settlement" in result:
        record["settlement"] = result["settlement"]
    if view.waiting:
        record["waiting"] = list(view.waiting)
    if view.problems:
        record["problems"] = list(view.problems)
    record["input"] = result["hand"]
    return record


class HandLog:
    """Appends hand records to a JSON Lines file (created with its folder on the first append)."""

    def __init__(self, path: str | os.PathLike) -> None:
        self.path = Path(path)

    def check(self) -> None:
        """Make sure hands can be appended here before the first hand is played.

        Raises:
            HistoryError: the path is a folder, a device or a pipe; an existing
                file that is not a hand log (its first line is not a hand
                record: a calibration profile, a photo); or a folder that
                cannot be made or takes no new file.
        """
        p = self.path
        if not str(p).strip():
            raise HistoryError("The hand log path is empty; give --log FILE or --no-log.")
        try:
            st = os.stat(p)
        except FileNotFoundError:
            st = None
        except OSError as exc:
            raise HistoryError(f"The hand log {p} cannot be opened ({exc.strerror or exc}).") from None
        if st is not None:
            if stat.S_ISDIR(st.st_mode):
                raise HistoryError(f"The hand log {p} is a folder; give a file (e.g. {p / 'hands.jsonl'}).")
            if not stat.S_ISREG(st.st_mode):
                raise HistoryError(f"The hand log {p} is not a regular file (a device or a pipe); give a file.")
            if st.st_size:
                try:
                    with open(p, "rb") as fh:
                        refusal = first_line_refusal(fh, p)
                except OSError as exc:
                    raise HistoryError(f"The hand log {p} cannot be read ({exc.strerror or exc}).") from None
                if refusal is not None:
                    raise HistoryError(f"{p} is not a hand log (its first line is not a dealer-assist hand record); "
                                       f"hands are not appended to it. Give another --log file.")
            if not os.access(p, os.W_OK):
                raise HistoryError(f"The hand log {p} is not writable.")
            return
        try:
            p.parent.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise HistoryError(f"The hand log {p} cannot be created ({exc.strerror or exc}).") from None
        why = folder_refusal(p.parent)
        if why is not None:
            raise HistoryError(f"The hand log {p} cannot be created ({why}).")

    def append(self, record: dict[str, Any]) -> None:
        """Write ``record`` as one line and fsync it; :class:`HistoryError` when that fails."""
        data = (dumps_json(record, separators=(",", ":")) + "\n").encode("utf-8")
        try:
            new_dir = not self.path.parent.exists()
            self.path.parent.mkdir(parents=True, exist_ok=True)
            fd = os.open(self.path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
        except OSError as exc:
            raise HistoryError(f"The hand log {self.path} cannot be opened ({exc.strerror or exc}).") from None
        size = None
        try:
            size = os.fstat(fd).st_size
            if size:
                with open(self.path, "rb") as fh:  # a torn last line from a crash: start on a fresh line
                    fh.seek(size - 1)
                    if fh.read(1) != b"\n":
                        data = b"\n" + data
            view = memoryview(data)
            while view:
                written = os.write(fd, view)
                view = view[written:]
            os.fsync(fd)
        except OSError as exc:
            raise HistoryError(f"The hand log {self.path} cannot be written ({exc.strerror or exc})"
                               f"{_take_back(fd, size)}.") from exc  # the cause: its strerror
        finally:
            os.close(fd)
        if new_dir:
            _fsync_dir(self.path.parent)


def _take_back(fd: int, size: int | None) -> str:
    """After a failed append: cut what was written of the record (a full disk takes part of a line, an
    fsync that fails leaves it unsure), so the log ends as before; what the error sentence adds."""
    if size is None:
        return "; the hand is not in it"
    try:
        if os.fstat(fd).st_size > size:
            os.ftruncate(fd, size)
            os.fsync(fd)
    except OSError:
        return ("; part of the hand may be left as its last line, torn, which the log's readers skip with a "
                "warning")
    return "; the hand is not in it (the log is as it was before)"


def is_record_line(line: bytes) -> bool:
    """Whether a log's first line is a hand record (any version; a torn one still starts like one)."""
    line = line[3:] if line.startswith(b"\xef\xbb\xbf") else line
    try:
        obj = parse_json(line, "the line")
    except JsonInputError:
        return _RECORD_START.match(line) is not None
    return isinstance(obj, dict) and obj.get("schema") == SCHEMA


_RECORD_START = re.compile(rb'\s*\{\s*"schema"\s*:\s*"' + re.escape(SCHEMA.encode()) + rb'"')


def _fsync_dir(path: Path) -> None:
    try:
        fd = os.open(path, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def first_line_refusal(stream: BinaryIO, path: Path) -> str | None:
    """A sentence when the log read from ``stream`` is no hand log: its first line that holds anything
    (not blank, not only NUL bytes -- what a power cut during the first write leaves) is not a hand record;
    ``None`` for a hand log or an empty file. Reads at most a few lines of at most 4 MiB."""
    for _number, line in bounded_lines(stream):
        if line is None:
            break
        if is_blank_line(line) or is_damaged_line(line):
            continue
        if is_record_line(line):
            return None
        break
    else:
        return None
    return (f"{path} is not a hand log (its first line is not a dealer-assist hand record); "
            f"give the log live writes (--log FILE).")


def is_damaged_line(line: bytes) -> bool:
    """A line holding NUL bytes and nothing else but spaces: what a power cut leaves of a write (the
    file's size was set, its data never written). Skipped with a warning, never a reason to refuse the log."""
    return b"\0" in line and not line.replace(b"\0", b"").strip()


def record_from_line(number: int, line: bytes | None, label: str) -> tuple[dict[str, Any] | None, str | None]:
    """One line of a log as ``(record, None)``, ``(None, warning)`` or ``(None, None)`` for a blank line.

    The one reading of a log line, for :func:`iter_log` and the spectator screen's follower:
    ``line`` is the line's bytes (``None``: longer than 4 MiB, already skipped), ``label`` names
    the log in the warning: ``"line 3 of hands.jsonl is not a valid hand record (session must
    be a string); skipped."``. Every check of a record is :func:`~.log_record.check_record`.
    """
    where = f"line {number} of {label}"
    if line is None:
        return None, (f"{where} is longer than {MAX_JSON_BYTES // (1024 * 1024)} MiB, so it is no hand record; "
                      f"skipped.")
    if is_blank_line(line):
        return None, None
    if is_damaged_line(line):
        return None, f"{where} holds only NUL bytes (left by a power cut during a write?); skipped."
    try:
        obj = parse_json(line, where)
    except JsonInputError as exc:
        if exc.reason.startswith("is not valid JSON"):
            cut = f"{where} is not a whole record (cut by a crash?); skipped."
            glued = _glued_record(line)
            if glued is None:
                return None, cut
            record, warning = record_from_line(number, glued, label)
            if record is None:
                return None, cut
            return record, (f"{where} begins with a record cut by a crash, then a whole record with no newline "
                            f"between (appended after the cut, e.g. by cat); the cut part is skipped, the whole "
                            f"record read.")
        return None, f"{where} {exc.reason}; skipped."
    if not isinstance(obj, dict) or obj.get("schema") != SCHEMA:
        return None, f"{where} is not a hand record; skipped."
    if type(obj.get("version")) is not int or obj.get("version") != VERSION:  # true == 1 in Python
        version = obj.get("version")
        version = dumps_json(version) if not isinstance(version, int) or version.bit_length() < 64 else "a long number"
        version = version if len(version) <= 20 else version[:20] + "…"
        return None, (f"{where} is a hand record of version {version}; this program reads "
                      f"version {VERSION}; skipped.")
    record, problem = check_record(obj)
    if problem is not None:
        return None, f"{where} is not a valid hand record ({problem}); skipped."
    return record, None


def _glued_record(line: bytes) -> bytes | None:
    """The last part of ``line`` (not JSON) that starts like a hand record, after its start: a record
    appended to a log whose last line was torn, by a tool that does not start a fresh line (``cat
    FALLBACK >> LOG``); None when there is none. A record's own strings cannot hold the start
    unescaped, so a start inside a line is where a glued record begins."""
    found = None
    for match in _RECORD_START.finditer(line, 1):
        found = match.start()
    if found is None:
        return None
    return line[found:].lstrip()


def record_input(record: dict[str, Any]) -> Any:
    """A decided record's FORMATS.md §1 ``input`` as the rules decided the hand, for evaluating it again.

    Logs written before the input kept every seat of a Hold'em hand left out the seats that had not
    shown both pocket notes -- the last player standing among them, who wins without showing (RULES.md
    §4): evaluated again, the hand had another winner or none. Such a seat is in the record's
    ``best_hands`` (live logs one entry for every seat in the hand, in seat order), so it is put back
    there with no pocket, ``"folded": true`` or ``"revealed": false``, and its chips. Anything else is
    returned as logged (the rules' parser says what is wrong with it).
    """
    source = record.get("input")
    if not isinstance(source, dict) or not isinstance(source.get("players"), list):
        return source
    logged = {p.get("name"): p for p in source["players"] if isinstance(p, dict) and isinstance(p.get("name"), str)}
    best = record.get("best_hands") if isinstance(record.get("best_hands"), dict) else {}
    if all(name in logged for name in best):
        return source
    folded = record.get("folded") if isinstance(record.get("folded"), list) else []
    chips = record.get("chips") if isinstance(record.get("chips"), dict) else {}
    players = []
    for name in best:  # seat order
        if name in logged:
            players.append(logged[name])
            continue
        seat: dict[str, Any] = {"name": name, "pocket": []}
        seat["folded" if name in folded else "revealed"] = name in folded
        if type(chips.get(name)) is int:
            seat["contributed"] = chips[name]
        players.append(seat)
    players += [p for p in source["players"] if not (isinstance(p, dict) and p.get("name") in best)]
    return {**source, "players": players}


def open_log(path: str | os.PathLike) -> BinaryIO:
    """The hand log opened for reading (a regular file only, never opened blocking).

    Raises:
        HistoryError: it does not exist, cannot be read, is not a regular file, or is not a hand log.
    """
    p = Path(path)
    try:
        stream = open_stream(p, label=f"The hand log {p}")
    except JsonInputError as exc:
        if exc.reason == "does not exist":
            raise HistoryError(f"There is no hand log at {p} yet (hands are logged when they finish).") from None
        raise HistoryError(f"{exc}") from None
    try:
        refusal = first_line_refusal(stream, p)
        stream.seek(0)
    except OSError as exc:
        stream.close()
        raise HistoryError(f"The hand log {p} cannot be read ({exc.strerror or exc}).") from None
    if refusal is not None:
        stream.close()
        raise HistoryError(refusal)
    return stream


def iter_log(path: str | os.PathLike, warn: Callable[[str], None]) -> Iterator[dict[str, Any]]:
    """The records of a log, one at a time, in order (memory bounded by one line: at most 4 MiB);
    ``warn`` is called with one sentence per line that is not a record (see :func:`record_from_line`).

    Raises:
        HistoryError: as :func:`open_log` (before the first record), or the file cannot be read.
    """
    p = Path(path)
    stream = open_log(p)
    lines = bounded_lines(stream)
    with stream:
        while True:
            try:
                number, line = next(lines)
            except StopIteration:
                return
            except OSError as exc:
                raise HistoryError(f"The hand log {p} cannot be read ({exc.strerror or exc}).") from None
            record, warning = record_from_line(number, line, str(p))
            if warning is not None:
                warn(warning)
            if record is not None:
                yield record


def read_log(path: str | os.PathLike) -> tuple[list[dict[str, Any]], list[str]]:
    """Every record of a log, in order, and a warning sentence per line that is not a record.

    The file may start with a UTF-8 byte order mark and end its lines with
    CRLF (a log copied through a Windows editor). Every line goes through the
    one JSON loader (:func:`dealer_assist.fileio.parse_json`: at most 4 MiB,
    64 levels, no NaN) and the one record validator
    (:func:`dealer_assist.live.log_record.check_record`). Skipped, with a warning
    naming the line: a line that is not JSON (torn by a crash), only NUL bytes
    (a power cut), not a hand record, of another version than :data:`VERSION`,
    or not a valid record (a field of the wrong type or out of bounds, e.g.
    ``"session": ["s1"]`` or chips ``"1/0"``). Holds every record: callers that
    only sum the log use :func:`iter_log`.

    Raises:
        HistoryError: the file does not exist, cannot be read, is not a regular
            file (a folder, a pipe, a device: never opened blocking), or is not a
            hand log at all (its first line is not a hand record: a calibration
            profile, say) -- one sentence, instead of a warning per line.
    """
    warnings: list[str] = []
    records = list(iter_log(path, warnings.append))
    return records, warnings
