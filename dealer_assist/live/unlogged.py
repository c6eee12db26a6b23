"""Hands the hand log could not take (a full disk, a removed USB stick): never lost.

When :meth:`~dealer_assist.live.history.HandLog.append` fails, ``live`` keeps
the hand's record in :class:`UnloggedHands`; every later hand waits behind it
(the log keeps the order of the hands, which a carried pot depends on), and
each time a hand finishes the waiting ones are tried first: once the log can
be written again they all go in, in order, and nothing is left to do. Until
then they are kept in a fallback file (the first of these places that takes
it), rewritten whenever a hand joins them, so even a killed process leaves
them on disk (a restart that goes on with the session and cannot log either
keeps the hands the run before left in the file first, never writes over them):

1. beside the log: ``hands.unlogged-<session>.jsonl`` next to ``hands.jsonl``;
2. the user's data folder (``platformdirs``; ``~/.local/share/dealer-assist/unlogged/``);
3. a private folder made in the temporary folder (often another file system than a full disk's, e.g.
   a tmpfs; private, so nobody else's symlink there can redirect the file).

At the end of the run :meth:`UnloggedHands.report` gives what ``live`` prints on
stderr: each record as one line of JSON (its ``chips`` and ``settlement``
included), where the fallback file is, and the command that appends it to the
log once the log can be written again (``cat FALLBACK >> LOG``: the fallback
file holds exactly the log's lines).
"""

from __future__ import annotations

import os
import re
import shlex
import tempfile
from pathlib import Path
from typing import Any, Callable

from dealer_assist.fileio import dumps_json, open_stream, write_atomic
from dealer_assist.live.history import HistoryError

__all__ = ["UnloggedHands", "fallback_places"]


def fallback_places(log: Path, session: str) -> list[Path]:
    """Where the unlogged hands of ``session`` are kept, in the order tried (see the module doc); the last
    is the file's name alone, to be put in a private folder of the temporary folder."""
    import platformdirs

    tag = re.sub(r"[^A-Za-z0-9_.-]", "_", session)[:80] or "session"
    name = f"{log.stem or 'hands'}.unlogged-{tag}.jsonl"
    places = [log.parent / name, Path(platformdirs.user_data_dir("dealer-assist", appauthor=False)) / "unlogged" / name]
    return (places if places[0] != places[1] else places[:1]) + [Path(name)]


def _record_line(record: dict[str, Any], ascii_only: bool = False) -> str:
    """A record as the log writes it: one compact line of strict JSON."""
    return dumps_json(record, ascii_only=ascii_only, separators=(",", ":"))


class UnloggedHands:
    """The records the log did not take in this run, and the fallback file that keeps them.

    Attributes:
        log: the hand log.
        records: the records not in the log (yet), in order.
        path: the fallback file that holds all of them, or None (none written yet, or no place took it).
        problem: why no place took the file (the last error), or None.
        refused: how many hands the log refused at first, over the run.
    """

    def __init__(self, log: str | os.PathLike) -> None:
        self.log = Path(log).absolute()  # the command printed at the end works from any folder
        self.records: list[dict[str, Any]] = []
        self.path: Path | None = None
        self.problem: str | None = None
        self.refused = 0
        self.reason: str | None = None
        self._private: Path | None = None  # the private folder in the temporary folder, once made
        self._looked = False  # whether the fallback files of an earlier run of the session were read

    @property
    def caught_up(self) -> bool:
        """Every hand the log refused was written to it later: nothing is missing."""
        return self.refused > 0 and not self.records

    def append_or_keep(self, append: Callable[[dict[str, Any]], None], record: dict[str, Any]) -> None:
        """``append(record)`` (the log's writer), after the records still waiting, in order.

        Raises:
            HistoryError: ``append`` raised ``OSError``: the records not written are kept (:meth:`keep`);
                the sentence is the writer's, then where the hand is kept.
        """
        queue = [*self.records, record]
        written = 0
        try:
            for waiting in queue:
                append(waiting)
                written += 1
        except OSError as exc:
            self.refused += 1
            self.reason = getattr(exc, "strerror", None) or getattr(exc.__cause__, "strerror", None)
            self.records = queue[written:-1]
            kept = self.keep(record)
            where = (f"kept in {kept}" if kept is not None
                     else f"not kept in a file either ({self.problem}), so it is printed at the end")
            raise HistoryError(f"{exc} It is {where}; the log is tried again when the next hand finishes.") from None
        if self.records:  # all in the log now: the fallback file is not needed any more
            self.records = []
            self._drop(self.path)
            self.path = None

    def _kept_before(self, session: str) -> list[dict[str, Any]]:
        """The records an earlier run of ``session`` kept in its fallback files (beside the log, in the data
        folder): a restart on a disk still full keeps them first, in order, instead of writing over them."""
        from dealer_assist.fileio import JsonInputError, parse_json

        out: list[dict[str, Any]] = []
        for place in fallback_places(self.log, session)[:-1]:
            try:
                with open_stream(place) as fh:
                    lines = fh.read(64 << 20).splitlines()
            except (OSError, JsonInputError):
                continue
            for line in lines:
                try:
                    obj = parse_json(line, str(place))
                except JsonInputError:
                    continue
                if isinstance(obj, dict) and obj not in out:
                    out.append(obj)
        return out

    @staticmethod
    def _drop(path: Path | None) -> None:
        if path is not None:
            try:
                path.unlink()
            except OSError:
                pass

    def keep(self, record: dict[str, Any]) -> Path | None:
        """Add ``record`` and write every record kept so far to the first fallback place that takes the file
        (atomically: an earlier fallback file is replaced whole, never left half written); the path, or None."""
        if not self._looked:  # an earlier run of this session (a restart) may have kept hands here already
            self._looked = True
            self.records = self._kept_before(str(record.get("session") or "session")) + self.records
        self.records.append(record)
        data = "".join(_record_line(r) + "\n" for r in self.records)
        session = str(self.records[0].get("session") or "session")
        previous = self.path
        places = fallback_places(self.log, session)
        for i, place in enumerate(places):
            try:
                if i == len(places) - 1:  # the last resort: a folder of our own in the temporary folder
                    if self._private is None:
                        self._private = Path(tempfile.mkdtemp(prefix="dealer-assist-unlogged-"))
                    place = self._private / place
                place.parent.mkdir(parents=True, exist_ok=True)
                write_atomic(place, data)
            except OSError as exc:
                self.problem = f"{place}: {(exc.strerror or str(exc)).lower()}"
                continue
            self.path, self.problem = place, None
            if previous != place:  # the earlier file holds fewer hands; the new one holds them all
                self._drop(previous)
            return place
        self.path = None
        return None

    def summary(self) -> str | None:
        """The run's one error sentence about the hands still not in the log, or None when there are none."""
        if not self.records:
            return None
        why = f" ({self.reason.lower()})" if self.reason else ""
        return (f"{len(self.records)} hand(s) are not in the hand log {self.log}{why}; their JSON is printed above"
                + (", with the command that appends them." if self.path is not None else "."))

    def report(self) -> list[str]:
        """What ``live`` prints on stderr at the end (see the module doc): sentences and JSON lines, the
        JSON with every non-ASCII character escaped (exact JSON, nothing a terminal would act on). The
        sentences name files: show them with :func:`~dealer_assist.render.safe_text`."""
        if self.caught_up:
            return [f"The hand log {self.log} could not take {self.refused} hand(s) for a while; they were written "
                    f"to it later, in order: nothing is missing."]
        if not self.records:
            return []
        n = len(self.records)
        lines = [f"{n} hand(s) could not be written to the hand log {self.log}; here they are as JSON, one line "
                 f"each (their chips and settlement included):"]
        lines += [_record_line(r, ascii_only=True) for r in self.records]
        if self.path is not None:
            lines.append(f"They are kept in {self.path}. Once the log can be written again (room on the disk), "
                         f"append them to it with:")
            lines.append(f"  cat {shlex.quote(str(self.path))} >> {shlex.quote(str(self.log))}")
        else:
            lines.append(f"They could not be kept in a file either ({self.problem}); append the JSON lines above "
                         f"to {self.log} by hand once it can be written again.")
        return lines
