"""One live session: frames in, the hand on the table out (the frame loop's logic, no terminal).

:class:`LiveSession` wires the parts together for each frame:

1. warp the frame to a low-resolution top view and find what changed
   (:mod:`.changes`);
2. for every changed place over which nothing moves (or that has kept
   changing for ``force_s``), queue a *discover* read of that place; at the
   start, and after a change of the whole view, queue a *scan* of every zone (text lines of a
   serial print's size looked for at a low scale, and the places where lines are found read);
3. when the OCR worker is free, give it the next queued read, or else a
   *confirm* read of a note still pending (from the newest frame: the k-of-N
   rule counts only reads of different frames);
4. apply finished reads to the :class:`~.tracker.Tracker`;
5. :meth:`view` combines the notes (placed in the calibration's zones by
   their serial prints' centre) with the croupier's
   :class:`~.table_state.TableState`.

Nothing here waits for the OCR, except :meth:`pump` with ``wait=True``
(played-back recordings, tests): then every read a frame calls for is done
before the next frame, so the result does not depend on the machine's speed.
"""

from __future__ import annotations

import dataclasses
import time
import uuid
from dataclasses import dataclass, field
from datetime import datetime, timezone
from typing import Callable

import numpy as np

from dealer_assist.calibration.resolution import below_floor_sentence, zones_below_floor
from dealer_assist.live.frame_source import Frame
from dealer_assist.live.changes import ChangeDetector, TopView, source_px_per_mm
from dealer_assist.live.read_planning import DETECT_PX_PER_MM, ReadPlanning
from dealer_assist.live.regions import inside_quad
from dealer_assist.live.commands import Command
from dealer_assist.live.croupier import apply_command
from dealer_assist.live.history import hand_record
from dealer_assist.live.table_state import NoteInfo, TableState
from dealer_assist.live.table_view import TableView, table_view
from dealer_assist.live.tracker import Observation, TrackEvent, Tracker, TrustRule, quad_iou_mm
from dealer_assist.live.worker import CUT, JobKind, JobResult, ReadJob, note_box_around_print

__all__ = ["LiveOptions", "LiveSession", "READ_PX_PER_MM"]

#: Scale range (px/mm) of the top views handed to the reader: the camera's own
#: scale, kept within it. Upsampling helps the text detector: on 1280x720 windows
#: of synthetic tables seen at 1.8 px/mm, reads at 2.0 / 3.0 / 3.5 px/mm found
#: 50% / 63% / 70-88% of the notes (and 2.0 gave wrong serials), at 2.8 px/mm
#: 89% / 83% / 100%, for ~30% more time per read.
READ_PX_PER_MM = (3.5, 4.0)
#: A changed place read without finding anything is read again this many times (later frames).
RETRIES = 2
#: A note seen cut by a read's edge has its own place read, once per this many frames at one place.
FOLLOW_FRAMES = 30


@dataclass(frozen=True)
class LiveOptions:
    """Tuning of a live session (the defaults suit a webcam over a whole table).

    Attributes:
        trust: the k-of-N rule for trusting a serial.
        change_px_per_mm: scale of the change-detection top view.
        read_px_per_mm: scale of the views given to the reader (None: from the camera, within :data:`READ_PX_PER_MM`).
        force_s: a place that keeps changing (a hand resting by the notes) is read anyway after this long.
        mostly_still: a changed place is read when less than this share of it moved in the
            latest frame (a hand resting on a corner of a note does not hide its serial).
        margin_mm: a read's view reaches this far around the changed place.
        tile_mm: larger places are read in tiles of at most this size (a 300-mm tile and its
            margins stay within the detector's 1536-px input at 3.5 px/mm).
        recheck_s: a note still pending or unreadable after all its attempts is read again this
            often (source seconds), when the worker has nothing else to do and nothing moves over
            it: notes are read until they settle while the table is still; None: never. Such a
            read looks for the note's prints afresh (the places a failed read left may be wrong).
        detect_at_camera_scale: every read's text detector looks for lines in its view shrunk to the
            detection scale (:data:`~.read_planning.DETECT_PX_PER_MM`: the camera's own), the lines found
            recognised in the view itself; False: the detector sees the view at the read scale.
        look_windows: a note found with both serial prints but not trusted is looked at again in each new
            frame by the serial model on its two print windows alone, and the looks accumulate print by print
            (:mod:`dealer_assist.vision.print_evidence`: both prints agreeing with the measured margin trust
            the serial); False: only the reader's reads and the k-of-N rule (as before issue 21's step 3).
        auto_new_hand: when a decided hand's notes have all been taken off the table, the next hand starts.
        ocr: False to run without reading (serials typed by the croupier only).
    """

    trust: TrustRule = field(default_factory=TrustRule)
    change_px_per_mm: float = 0.5
    read_px_per_mm: float | None = None
    force_s: float = 0.5
    mostly_still: float = 0.1
    margin_mm: float = 15.0
    tile_mm: float = 300.0
    recheck_s: float | None = 0.2
    detect_at_camera_scale: bool = True
    look_windows: bool = True
    auto_new_hand: bool = True
    ocr: bool = True


class LiveSession(ReadPlanning):
    """The state of the table across frames (see the module doc).

    Args:
        profile: a calibration profile with a table section (zones: the board and the seats).
        state: the croupier's starting state (seats from the profile, P, options, dealer).
        worker: a :class:`~.worker.ProcessWorker` or :class:`~.worker.InlineWorker`.
        options: tuning.
        on_finished: called with each finished hand's record (the hand log's form,
            :func:`~.history.hand_record`) as the hand ends: the app layer writes it to the
            hand log. An ``OSError`` it raises (the log cannot take it) is kept in
            :attr:`log_errors` and said, and the session goes on. None: hands are not logged.
        clock: wall-clock for the records' times (tests pass a fixed one).
    """

    def __init__(self, profile, state: TableState, worker, options: LiveOptions = LiveOptions(),
                 on_finished: Callable[[dict], None] | None = None,
                 clock: Callable[[], datetime] = lambda: datetime.now(timezone.utc)) -> None:
        self.profile = profile
        self.table = profile.require_table()
        self.state = state
        self.worker = worker
        self.options = options
        self.on_finished = on_finished
        self.clock = clock
        self.tracker = Tracker(options.trust)
        self.session_id = datetime.now(timezone.utc).strftime("%Y%m%dT%H%M%S") + "-" + uuid.uuid4().hex[:4]
        self.hand_started = clock()
        self.undo_stack: list[TableState] = []
        self.queue: list[ReadJob] = []
        self.frame: Frame | None = None
        self.frames = 0
        self.read_px_per_mm: float | None = None
        #: the text detector's scale (px/mm; :data:`DETECT_PX_PER_MM`)
        self.detect_px_per_mm: float | None = None
        #: (width, height) px of the frames, and the camera's px/mm over the table (lowest, highest zone)
        self.frame_size: tuple[int, int] | None = None
        self.scale_px_per_mm: tuple[float, float] | None = None
        self.warning = ""
        self.message = ""
        self.ocr_error = ""
        self.quit_requested = False
        #: after :meth:`close`: one sentence saying what became of the hand in play ("" when none was open)
        self.closing: str | None = None
        self.finished: list[dict] = []
        #: the records of this session logged by earlier runs (a restart goes on with the night's session)
        self.earlier: list[dict] = []
        #: one sentence per finished hand the log could not take (the caller says them and fails)
        self.log_errors: list[str] = []
        #: whether the last :meth:`command` was refused (its sentence says why)
        self.last_refused = False
        #: (event, time.monotonic() when applied) for every tracker event, for benchmarks
        self.events: list[tuple[TrackEvent, float]] = []
        self.jobs_done = 0
        self.job_seconds = 0.0
        #: (kind, frame, seconds, notes found) of the last reads, for benchmarks and debugging
        self.job_log: list[tuple[str, int, float, int]] = []
        self._topview: TopView | None = None
        self._changes: ChangeDetector | None = None
        self._job_id = 0
        self._in_flight: ReadJob | None = None
        self._confirmed: set[tuple[int, int]] = set()  # (track, frame) confirm reads asked for
        self._retries: list[tuple[tuple[float, float, float, float], int, int]] = []  # (core, tries, after frame)
        self._prev: Frame | None = None
        self._decided_view: TableView | None = None  # the hand as it stood when last decided
        self._decided_notes: tuple[list, set[str]] | None = None  # the notes and seats it was decided on
        self._view: TableView | None = None
        #: seats in whose zone the camera saw notes during this hand (they stay in the hand)
        self.seen_seats: set[str] = set()
        #: the recording has ended: no further frame will read a pending note
        self.recording_ended = False
        #: the worker said the serial model cannot be used: no ``look`` jobs
        self._looks_off = False
        #: (anchor mm, frame) of notes seen cut by a read's edge whose own place was queued for a read
        self._followed: list[tuple[np.ndarray, int]] = []

    # ------------------------------------------------------------------ views
    def notes(self) -> list[NoteInfo]:
        """The tracked notes, each placed in a zone by its serial prints' centre."""
        n = self.options.trust.n
        out = []
        seats = set(self.state.seats)
        for t in self.tracker:
            zone = self.table.zone_at_mm(t.anchor_mm)
            if zone in seats:
                self.seen_seats.add(zone)
            out.append(NoteInfo(f"t{t.id}", t.id, zone, t.serial, t.status, t.confidence, t.first_seen_s,
                                tuple(t.candidates(n)), t.last_reason, len(t.reads)))
        return out

    def view(self) -> TableView:
        """The hand as it stands (cached until something changes)."""
        if self._view is None:
            notes = self.notes()
            self._view = table_view(self.state, notes, self.seen_seats | self.awaiting_seats())
            if self._view.complete and any(s.note is not None or s.source == "manual" for s in self._view.all_slots):
                self._decided_view = self._view
                self._decided_notes = (notes, self.seen_seats | self.awaiting_seats())
        return self._view

    def _redecide(self) -> None:
        """The croupier changed the hand after it was decided (chips, a fold, a serial, an undo): the decided
        hand is what its notes give under the new state -- or none, when the rules refuse it as it stands
        (chips the rules refuse were logged away with the earlier decision, without a word: third new-user
        trial, M10). The notes stay those it was decided on (some may have been collected since)."""
        if self._decided_notes is None:
            return
        notes, seats = self._decided_notes
        again = table_view(self.state, notes, seats)
        if again.complete:
            self._decided_view = again
        else:
            self._decided_view = self._decided_notes = None

    def awaiting_seats(self) -> set[str]:
        """Seats where a change waits to be read (a queued or running read of a changed place): a note
        may lie there that no read has found yet, so the seat stays in the hand until the read is done
        (a showdown is never decided while a dealt seat's notes are still to be found)."""
        jobs = [j for j in self.queue if j.kind.discovers or j.kind is JobKind.RETRY]
        if self._in_flight is not None and (self._in_flight.kind.discovers or self._in_flight.kind is JobKind.RETRY):
            jobs.append(self._in_flight)
        cores = [j.core_mm for j in jobs] + [r[0] for r in self._retries]
        seats = set(self.state.seats)
        out = set()
        for x0, y0, x1, y1 in cores:
            zone = self.table.zone_at_mm(((x0 + x1) / 2, (y0 + y1) / 2))
            if zone in seats:
                out.add(zone)
        return out

    def _changed(self) -> None:
        self._view = None

    @property
    def reading(self) -> bool:
        """A read is queued or in the worker."""
        return bool(self.queue) or self._in_flight is not None

    @property
    def ocr_state(self) -> str:
        if not self.options.ocr:
            return "off (type the serials)"
        if self.ocr_error:
            return f"error: {self.ocr_error}"
        if self._in_flight is not None:
            queued = f", {len(self.queue)} queued" if self.queue else ""
            return f"reading{queued}"
        return "idle"

    # ------------------------------------------------------------------ frames
    def _setup(self, image: np.ndarray) -> None:
        size = (image.shape[1], image.shape[0])
        self._topview = TopView(self.profile, size, self.options.change_px_per_mm)
        self._changes = ChangeDetector(self.options.change_px_per_mm, visible=self._topview.visible)
        src = source_px_per_mm(self.profile, size)
        lo, hi = READ_PX_PER_MM
        self.read_px_per_mm = self.options.read_px_per_mm or float(np.clip(src, lo, hi))
        self.detect_px_per_mm = min(self.read_px_per_mm, float(np.clip(src, *DETECT_PX_PER_MM)))
        self.frame_size = size
        # the camera's scale over the table: the board's and every seat's centre (far seats are lower)
        scales = [source_px_per_mm(self.profile, size, np.asarray(z.polygon_mm, np.float64).mean(axis=0))
                  for z in self.table.zones] or [src]
        self.scale_px_per_mm = (float(min(scales)), float(max(scales)))
        # zones the camera sees below the reader's floor (dealer_assist.vision.readability): said at
        # start-up and in the dashboard's header
        self.warning = below_floor_sentence(zones_below_floor(self.profile, size))

    def on_frame(self, frame: Frame) -> None:
        """Take a new frame: find the changes and queue the reads they call for.

        Raises:
            CalibrationError: the frame's shape does not match the calibration
                (the caller shows the sentence and stops).
        """
        image = frame.image
        if self._topview is None or self._topview.image_size != (image.shape[1], image.shape[0]):
            self._setup(image)
        assert self._topview is not None and self._changes is not None
        first = not self._changes.started
        report = self._changes.update(self._topview(image), frame.time_s)
        self._prev, self.frame = self.frame, frame
        self.frames += 1
        if not self.options.ocr:
            return
        if first or report.global_change:
            self._queue_scan(frame)
            return
        for blob in report.blobs:
            if blob.moving_share < self.options.mostly_still or frame.time_s - blob.changed_since_s >= self.options.force_s:
                self._queue_discover(blob, frame)
        if self.options.auto_new_hand:
            self._check_cleared()

    def hold(self) -> None:
        """The recording ended: take its last frame again as a still scene.

        Places that were still changing in the last frame are read from it;
        it keeps its frame index, so no note gets a second read out of it.
        """
        if self.frame is not None:
            f = self.frame
            self.on_frame(Frame(f.image, f.index, f.time_s + self.options.force_s))

    # ------------------------------------------------------------------ OCR results
    def pump(self, wait: bool = False, timeout_s: float = 120.0) -> int:
        """Apply finished reads and hand the worker its next read; returns how many reads were applied.

        With ``wait``, keep going until no read is due for the current frame
        (or ``timeout_s`` passed): every frame is then fully read.
        """
        applied = 0
        deadline = time.monotonic() + timeout_s
        while True:
            for result in self.worker.poll(0.05 if (wait and self._in_flight is not None) else 0.0):
                self._apply(result)
                applied += 1
            if self._in_flight is None and self.options.ocr and not self.ocr_error.startswith("!"):
                job = self._next_job()
                if job is not None:
                    if self.worker.submit(job):
                        self._in_flight = job
                    else:
                        self.queue.insert(0, job)
            if not wait or (self._in_flight is None and not self.queue) or time.monotonic() > deadline:
                return applied

    def _apply(self, result: JobResult) -> None:
        job = result.job
        self._in_flight = None
        self.jobs_done += 1
        self.job_seconds += result.elapsed_s
        if job is None:
            return
        self.job_log.append((job.kind, job.frame, result.elapsed_s, len(result.observations)))
        del self.job_log[:-200]
        if result.error:
            self.ocr_error = result.error
            self.message = f"OCR: {result.error}"
            return
        self.ocr_error = ""
        if job.kind is JobKind.LOOK:
            # the serial model's looks at notes' print windows: their evidence, print by print
            if result.looks is None:
                self._looks_off = True  # no usable model: notes are read by the reader alone
                return
            events = []
            for wl in result.looks:
                events.extend(self.tracker.add_looks(wl.track_id, job.frame, job.time_s, wl.windows_mm, wl.looks))
            now = time.monotonic()
            self.events.extend((e, now) for e in events)
            if events:
                self._changed()
            return
        observations = [o for o in result.observations if o.status != CUT]
        if job.kind is not JobKind.SCAN:
            self._follow_cut([o for o in result.observations if o.status == CUT], job)
        if not self.options.look_windows:
            observations = [dataclasses.replace(o, looks=None) for o in observations]
        for rect in job.blank_rects_mm:
            on_rect = [i for i, o in enumerate(observations)
                       if quad_iou_mm(o.quad_mm, rect) > 0.3 or inside_quad(o.anchor, rect)]
            if any(observations[i].serial is not None for i in on_rect):
                continue
            if any(quad_iou_mm(t.quad_mm, rect) > 0.3 for t in self.tracker):
                continue  # where a note was, nothing is read: it was taken away (a miss), not a new blank note
            if on_rect:
                # a note-shaped change with prints that gave no serial: an unreadable note lies here
                o = observations[on_rect[0]]
                observations[on_rect[0]] = Observation(np.asarray(rect, np.float64), None, 0.0, o.status, o.reason,
                                                       o.print_quads_mm, o.anchor, placed=True, disputed=o.disputed)
            else:
                observations.append(Observation(np.asarray(rect, np.float64), None, 0.0, "blank",
                                                "no serial seen: face down, or covered"))
        if job.kind is JobKind.SCAN:
            self._queue_found(observations, job)  # text lines found: the places around them are read
            return
        if job.kind.discovers and not observations:
            # nothing found where something changed: unreadable in this frame (blur, a shadow), or
            # only a hand; read it again from a later frame, a few times
            self._retries.append((job.core_mm, RETRIES, job.frame))
        if job.kind.discovers:
            # a print that gave no serial on no known note: a note partly covered (a hand) or cut
            # by the read's edge; read all the note it may belong to, around the print, from a
            # later frame (the change that led here may cover only part of it)
            for o in observations:
                if (o.serial is None and o.status != "blank" and len(o.print_quads_mm) == 1
                        and not any(inside_quad(o.anchor, t.quad_mm) for t in self.tracker)):
                    box = note_box_around_print(o.print_quads_mm[0])
                    if not any(r[0] == box for r in self._retries):
                        self._retries.append((box, RETRIES, job.frame))
        del self._retries[:-20]
        events = self.tracker.apply(observations, job.region_mm, job.frame, job.time_s,
                                    count_misses=job.kind.discovers and job.still,
                                    drop_blanks=job.kind.discovers)
        for tid in job.track_ids:
            self.tracker.add_failed_read(tid, job.frame, job.time_s, "the note was not found in this frame")
        self.notes()  # the seats notes were seen in stay in the hand (seen_seats)
        now = time.monotonic()
        self.events.extend((e, now) for e in events)
        self._changed()

    def _follow_cut(self, cut: list[Observation], job: ReadJob) -> None:
        """Notes a read saw only in part (cut by its view's edge, :data:`~.worker.CUT`) on no known note: their
        own place is read next (a note revealed or put down beside the changed place that was read; before,
        such a note was left to a read that might never come). Each place once per :data:`FOLLOW_FRAMES`
        frames (a view that cuts it again is not followed in a loop)."""
        frame = self.frame
        if frame is None or not cut:
            return
        self._followed = [(a, f) for a, f in self._followed if frame.index - f < FOLLOW_FRAMES]
        for o in cut:
            a = o.anchor
            if any(inside_quad(a, t.quad_mm) and t.status != "blank" for t in self.tracker):
                continue  # a note found already: its own reads go on
            # (a face-down note's track is not: its reads stop after two, and a print seen on it now is the
            # note turned over -- set-up D hand 2: a revealed end-seat note cut by the reveal's read, on its
            # face-down track, was never read again)
            if any(float(np.linalg.norm(a - b)) < 20.0 for b, _ in self._followed):
                continue
            if len(o.print_quads_mm) == 1:
                box = note_box_around_print(o.print_quads_mm[0])
            else:
                q = np.asarray(o.quad_mm, np.float64).reshape(-1, 2)
                box = (float(q[:, 0].min()) - 10, float(q[:, 1].min()) - 10, float(q[:, 0].max()) + 10,
                       float(q[:, 1].max()) + 10)
            self._followed.append((np.asarray(a, np.float64), frame.index))
            follow = self._make_job(JobKind.DISCOVER, frame, box, True)
            self.queue.append(follow)
            self._changes.accept(follow.region_mm)
            self._changed()

    # ------------------------------------------------------------------ hands
    def _check_cleared(self) -> None:
        self.view()
        decided = self._decided_view
        # the camera saw the decided hand's notes, and now sees none: they were collected
        if (decided is not None and any(s.note is not None for s in decided.all_slots) and len(self.tracker) == 0
                and not self.queue and self._in_flight is None):
            self.finish_hand("table cleared")

    def decided_record(self) -> dict | None:
        """The hand on screen as it would be logged, once it is decided (the record :meth:`finish_hand` would
        write, ``end`` ``"decided"``); None while it is not decided. The running balances of the dashboard's
        Session line count it as soon as its pot is shown (seventh new-user trial H3: the line left the
        decided hand out, 5 chips a player off the ledger)."""
        view = self.view()
        if not view.complete and self._decided_view is not None:
            view = self._decided_view
        if not view.complete or not view.eventful:
            return None
        return hand_record(view, session=self.session_id, started=self.hand_started, finished=self.hand_started,
                           end="decided")

    def finish_hand(self, end: str) -> dict | None:
        """Log the hand (when anything happened in it) and start the next one; returns the record.

        A hand that was decided and then lost notes (they were collected) is
        logged as it stood when decided.
        """
        view = self.view()
        if not view.complete and self._decided_view is not None:
            view = self._decided_view
        record = None
        if view.eventful:
            record = hand_record(view, session=self.session_id, started=self.hand_started, finished=self.clock(),
                                 end=end)
            self.finished.append(record)
            if self.on_finished is not None:
                try:
                    self.on_finished(record)
                except OSError as exc:
                    # not logged: said now, and kept for the end of the session (the caller fails)
                    self.log_errors.append(str(exc))
                    self.message = str(exc)
        self.state = self.state.next_hand(view.carried_out)  # a tied pot rolls over (RULES.md §4)
        self.seen_seats.clear()
        self.tracker.clear()
        self.queue = [j for j in self.queue if j.kind is JobKind.SCAN]
        self._confirmed.clear()
        self._retries.clear()
        self._followed.clear()
        self.undo_stack.clear()
        self.hand_started = self.clock()
        self._decided_view = self._decided_notes = None
        self._changed()
        return record

    def close(self, end: str = "quit") -> dict | None:
        """At the end (``q``, ``--max-frames``, the end of a recording, Ctrl-C): log the hand in play, decided
        or not -- an undecided one as abandoned (its record's status ``incomplete``, ``end`` saying why) --
        and say so in :attr:`closing`. Only the first call logs; a hand in which nothing happened is not logged."""
        if self.closing is not None:
            return None
        view = self.view()
        number = self.state.hand_number
        decided = view.complete or self._decided_view is not None
        errors = len(self.log_errors)
        record = self.finish_hand(end) if view.eventful else None
        if record is None:
            self.closing = ""
        elif len(self.log_errors) > errors:
            self.closing = ""  # not logged: the log's error is said by the caller
        elif self.on_finished is None:
            self.closing = (f"Hand {number} is decided; it is not logged (no hand log)." if decided else
                            f"Hand {number} was not decided; it is not logged (no hand log).")
        elif decided:
            self.closing = f"Hand {number} is logged ({end})."
        else:
            self.closing = f"Hand {number} was not decided: logged as abandoned ({end})."
        return record

    # ------------------------------------------------------------------ the croupier
    def set_state(self, state: TableState) -> None:
        """The croupier changed the hand's state (undoable)."""
        self.undo_stack.append(self.state)
        self.state = state
        self._changed()
        self._redecide()

    def undo(self) -> bool:
        """Take back the croupier's last change of this hand; False when there is none."""
        if not self.undo_stack:
            return False
        self.state = self.undo_stack.pop()
        self._changed()
        self._redecide()
        return True

    def command(self, cmd: Command) -> str:
        """Apply a croupier's command; returns the sentence to show (also kept in :attr:`message`)."""
        self.last_refused = False
        try:
            msg = apply_command(self, cmd)
        except ValueError as exc:
            msg = str(exc)
            self.last_refused = True
        self.message = msg
        return msg
