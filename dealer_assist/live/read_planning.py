"""What live mode reads next: the plan of read jobs over a session's frames (a mixin of the session).

The order is by value, for a worker that cannot read everything at once (two cores; see
:meth:`ReadPlanning._next_job`): note-shaped changes and changes at known notes (newest
first: where a note was just put down), then another read of a note whose serial was read
but is not settled, in a zone in play (:data:`READ_VALUE`), then the start-up scan of every
zone (the table as it lay when live mode started, searched for serial-sized text lines at the
camera's scale, from the newest frame; the places where lines are found are then read as changes),
then other changes (a hand, part of a note), then notes whose reads gave no serial (those
in play first), then a second look at a note-shaped change where no serial was seen (a note face down: it stays
so until it changes), then places read without finding a note, and last, when nothing else
is due and nothing moves over it, a note still unsettled (every ``recheck_s``). A trusted
note is never read again unless its place changes.

The mixin uses the session's state: ``profile``, ``table``, ``options``, ``tracker``,
``frame``/``_prev``, ``_changes``, ``_topview``, ``queue``, ``_confirmed``, ``_retries``
``read_px_per_mm`` and ``detect_px_per_mm``.
"""

from __future__ import annotations

import dataclasses

import numpy as np

from dealer_assist.live.frame_source import Frame
from dealer_assist.live.changes import Blob, warp_region
from dealer_assist.live.regions import bbox, grow, inside, inside_quad, tiles, union
from dealer_assist.live.tracker import quad_iou_mm
from dealer_assist.live.worker import JobKind, ReadJob, WindowView, note_box_around_print
from dealer_assist.vision.geometry import NOTE_SIZE_MM
from dealer_assist.vision.print_evidence import MIN_MARGIN

__all__ = ["ReadPlanning", "READ_VALUE", "DETECT_PX_PER_MM", "SCAN_TILE_PX", "SCAN_LINE_MARGIN_MM", "LOOK_BATCH",
           "LOOK_MAX", "LOOK_MARGIN_MM", "LOOKS_BEFORE_CONFIRM", "FULL_DETECT_AFTER", "SEEN_TRUSTED_IOU",
           "SEEN_TRUSTED_MM"]

#: Scale range (px/mm) the text detector looks for serial-sized lines at: the start-up scan's views
#: (lines only; the places where lines are found are then read), and, with
#: ``LiveOptions.detect_at_camera_scale``, every read's view shrunk to it (the lines found are recognised
#: in the view at the read scale): the camera's own scale, kept within this range. On bench_live.py's windows (a camera of 1.9 px/mm), the text detector found all 54 of the
#: serial prints lying face up in the six windows at 1.9 px/mm, as at 2.4 and 3.5 px/mm, for 0.3 and
#: 0.6 of the CPU of 2.4 and 3.5 px/mm (the scan at the read scale cost 2.2-3.8 s of CPU per tile,
#: 19-24 s a window, and held up the first notes dealt).
DETECT_PX_PER_MM = (1.9, 2.4)
#: Side (px) of a scan view at most: the detector's input (:func:`~.worker.make_reader`'s
#: ``det_max_side``), so that no scan view is shrunk before detection.
SCAN_TILE_PX = 1536
#: A scan view reaches this far (mm) around the part it answers for: a serial print (at most
#: ``ReaderParams.print_length_mm`` long) centred in that part lies whole in the view.
SCAN_LINE_MARGIN_MM = 35.0

#: Which unsettled notes are read again first (lower first), by what the tracker knows of them:
#: a serial read but not yet trusted in a zone still in play; no serial yet (the reads disagreed,
#: or digits were unsure); the same outside play (a folded seat, a seat sitting out, no zone); a
#: note-shaped change where no serial was seen (face down: read again only when nothing else waits).
#: Measured on bench_live.py --cpu-clock (1280x720 windows, 2 cores shared, load 5-8): the start-up
#: scan (text lines only) ~2 s of CPU a window, a read of a changed place ~0.3 s, a known note's
#: prints 0.1-0.2 s.
READ_VALUE = {"pending": 0, "unreadable": 1, "out_of_format": 1, "blank": 3}
#: The most notes one ``look`` job carries (the serial model on their two print windows, one batch: ~5-10 ms
#: of CPU a note, against 0.1-0.3 s for a read with the text detector).
LOOK_BATCH = 8
#: Looks at one note's windows (frames) while it is not trusted, before it is left to the reader's reads
#: (its windows' evidence has settled by then; a change at its windows starts it afresh): 2 s of a 10-fps camera.
LOOK_MAX = 20
#: A note whose windows' evidence already agrees with the margin and lacks only frames
#: (:data:`~dealer_assist.vision.print_evidence.MIN_FRAMES`) waits for its next looks, up to this many, before
#: the reader's confirm read of it (0.1-0.3 s of CPU); any other note is confirmed as before. On set-up C
#: (bench_live_real.py, hand 0) the model was sure of both prints of most notes, but not of a 500-ruble
#: left print's growing digits (margin ~1 nat at 5.4 px/mm) nor of a print it read with a digit too many:
#: holding every note's confirm reads back for 5 looks delayed those (median 0.8 -> 1.2 s).
LOOKS_BEFORE_CONFIRM = 3
#: A window's view reaches this far (mm) around it (the window's quad is the print's as the reader found it).
LOOK_MARGIN_MM = 4.0
#: Reads of a note (since its place last changed) that found no serial print before its next fresh read has the
#: text detector see the view at the read scale, not shrunk to :data:`DETECT_PX_PER_MM` (the last retry of a
#: changed place where nothing was found does so too). On set-up C's hand 4 (bench_live_real.py, a checked
#: cloth, 5.4-6.0 px/mm) three plainly legible notes were read 6-10 times at the detection scale (2.4 px/mm)
#: and never found: the detector found no serial-sized line there, and at the read scale (4.0) it found both
#: prints of two of them (one still read right only at 4.0, not at 3.5). It costs a read at the read scale
#: (0.3-0.8 s of CPU against 0.1-0.3 s) only where reads fail.
FULL_DETECT_AFTER = 1
#: A track without a serial and without a print of its own (no read of it found a print) whose outline overlaps a
#: trusted note's by this share (intersection over union) or more, its anchor within :data:`SEEN_TRUSTED_MM` of
#: the trusted note's, is that trusted note seen again: it is not confirm-read (nothing is re-read once trusted and
#: still; a change at the place still has it read). On set-up C (bench_live_real.py --setups C --hands 3
#: --cpu-clock, load 5-7) one such track (IoU 0.91 with 8376925, anchors 3 mm apart) took 7 confirm reads at the
#: read scale, ~1.1 s of CPU each, 6.9 s of the three hands' ~50 s; the other untrusted tracks overlapped trusted
#: notes by 0.06-0.16 with anchors 66-164 mm away (neighbours, fanned pockets, a quad guessed from one print).
SEEN_TRUSTED_IOU = 0.7
#: See :data:`SEEN_TRUSTED_IOU` (mm; an anchor is the centre of a note's prints, or of its outline without them).
SEEN_TRUSTED_MM = 15.0
#: :data:`READ_VALUE` of a note outside play (added to its own, up to the face-down notes' value).
OUT_OF_PLAY = 2


class ReadPlanning:
    """The read-planning half of :class:`~dealer_assist.live.session.LiveSession`."""

    def _region(self, core, margin: float | None = None):
        w, h = self.table.table_size_mm
        m = self.options.margin_mm if margin is None else margin
        return (max(core[0] - m, -m), max(core[1] - m, -m), min(core[2] + m, w + m), min(core[3] + m, h + m))

    def _make_job(self, kind: JobKind, frame: Frame, core, still: bool, hints=(), track_ids=(), blanks=(),
                  hints_upright: bool = True, full_detect: bool = False) -> ReadJob:
        """A read of ``core`` (table mm) grown by the margin; a scan (at the scan scale, text lines
        only) answers only for lines centred in its core (its neighbour reads the others whole),
        other reads for every note the view shows whole. ``full_detect``: the text detector sees the view
        at the read scale, not shrunk to the detection scale (a place where a read at that scale found
        nothing: :data:`FULL_DETECT_AFTER`)."""
        scan = kind is JobKind.SCAN
        region = self._region(core, SCAN_LINE_MARGIN_MM if scan else None)
        scale = self.detect_px_per_mm if scan else self.read_px_per_mm
        image = warp_region(frame.image, self.profile, region, scale)
        detect = self.detect_px_per_mm if (self.options.detect_at_camera_scale and not scan and not full_detect
                                           and self.detect_px_per_mm < scale) else None
        self._job_id += 1
        return ReadJob(self._job_id, frame.index, frame.time_s, kind, region, core if scan else region,
                       scale, image, tuple(hints), tuple(track_ids), still, tuple(blanks), hints_upright, detect,
                       look=self.options.look_windows and getattr(self.worker, "can_look", False))

    def _queue_scan(self, frame: Frame) -> None:
        """Search every zone the camera sees for notes: views of at most :data:`SCAN_TILE_PX` px at the
        scan scale over the zones (each part of the table once, however the zones overlap), read for
        text lines only; :meth:`_queue_found` then reads where lines are."""
        self.queue = [j for j in self.queue if j.kind is not JobKind.SCAN]
        tv = self._topview
        mask = np.zeros(tv.visible.shape, bool)
        for zone in self.table.zones:
            x0, y0, x1, y1 = tv.to_px(grow(bbox(zone.polygon_mm), self.options.margin_mm))
            mask[y0:y1, x0:x1] = True
        mask &= tv.visible  # the parts of the table the camera sees
        if not mask.any():
            return
        ys, xs = np.nonzero(mask)
        s = tv.px_per_mm
        box = (xs.min() / s, ys.min() / s, (xs.max() + 1) / s, (ys.max() + 1) / s)
        side = SCAN_TILE_PX / self.detect_px_per_mm - 2 * SCAN_LINE_MARGIN_MM
        for core in tiles(box, side):
            x0, y0, x1, y1 = tv.to_px(core)
            if not mask[y0:y1, x0:x1].any():
                continue
            job = self._make_job(JobKind.SCAN, frame, core, True)
            self.queue.append(job)
            self._changes.accept(job.region_mm)

    def _queue_found(self, lines, scan: ReadJob) -> None:
        """Read where a scan found text lines: around each line, every note it may be a print of
        (:func:`~.worker.note_box_around_print`), from the newest frame; a line inside a trusted note or
        inside a place already queued here is left out (one read per note, mostly)."""
        frame = self.frame
        if frame is None:
            return
        cores: list = []
        for o in lines:
            if len(o.print_quads_mm) == 1:  # a line: the note it may be a print of lies around it
                quad = np.asarray(o.print_quads_mm[0], np.float64)
                core = note_box_around_print(quad)
            else:  # a whole note (a reader that gave one)
                quad = np.asarray(o.quad_mm, np.float64)
                core = grow(bbox(quad), 5.0)
            c = quad.reshape(-1, 2).mean(axis=0)
            if any(t.serial is not None and inside_quad(c, t.quad_mm) for t in self.tracker):
                continue  # a trusted note is not read again
            if any(inside(c, k) for k in cores):
                continue
            cores.append(core)
            job = self._make_job(JobKind.DISCOVER, frame, core, True)
            self.queue.append(job)
            self._changes.accept(job.region_mm)
        if cores:
            self._changed()  # a seat where a line was found stays in the hand until it is read

    def _visible_share(self, region) -> float:
        x0, y0, x1, y1 = self._topview.to_px(region)
        part = self._topview.visible[y0:y1, x0:x1]
        return float(part.mean()) if part.size else 0.0

    def _in_zones(self, region) -> bool:
        """Whether a table region touches a zone (the board or a seat), 20 mm around it included."""
        for z in self.table.zones:
            zb = grow(bbox(z.polygon_mm), 20.0)
            if region[0] <= zb[2] and zb[0] <= region[2] and region[1] <= zb[3] and zb[1] <= region[3]:
                return True
        return False

    def _queue_discover(self, blob: Blob, frame: Frame) -> None:
        core = blob.bbox_mm
        if not self._in_zones(core):
            self._changes.accept(grow(core, 5.0))  # a hand or chips away from the board and the seats
            return
        grown = grow(core, 10.0)
        touched = [t for t in self.tracker if inside(t.centre_mm, grown) or quad_iou_mm(t.quad_mm, blob.rect_mm) > 0.2]
        for t in touched:
            core = union(core, bbox(t.quad_mm))
        note_area = NOTE_SIZE_MM[0] * NOTE_SIZE_MM[1]
        if not blob.note_shaped and blob.area_mm2 < 0.6 * note_area and not touched:
            # part of a note changed (its colour is close to the table's in places): read all the
            # note that may be there, a note's half-diagonal around the change
            c = blob.rect_mm.mean(axis=0)
            r = 0.5 * float(np.hypot(*NOTE_SIZE_MM)) + 5.0
            core = union(core, (c[0] - r, c[1] - r, c[0] + r, c[1] + r))
        self.tracker.reset_attempts(t.id for t in touched)
        # what the model saw at a note's print windows says nothing about what lies there after a change there
        rect = grow(bbox(blob.rect_mm), 3.0)
        self.tracker.forget_evidence(t.id for t in touched if any(_overlap(bbox(q), rect) for q in t.evidence_windows_mm))
        ids = {t.id for t in touched}
        self._confirmed = {(tid, f) for tid, f in self._confirmed if tid not in ids}
        centre = blob.rect_mm.mean(axis=0)
        # a note-shaped change is most likely a note placed or turned over: it goes first
        kind = JobKind.DISCOVER if blob.note_shaped or touched else JobKind.DISCOVER_OTHER
        for tile in tiles(core, self.options.tile_mm, NOTE_SIZE_MM[0] + 5.0):
            blanks = (blob.rect_mm,) if blob.note_shaped and inside(centre, tile) else ()
            job = self._make_job(kind, frame, tile, blob.still, blanks=blanks)
            # a newer read of the same place supersedes a queued one
            self.queue = [j for j in self.queue if not (j.kind.discovers and inside(
                ((j.core_mm[0] + j.core_mm[2]) / 2, (j.core_mm[1] + j.core_mm[3]) / 2), tile))]
            self.queue.append(job)
            self._changes.accept(job.region_mm)
            self._retries = [r for r in self._retries if not inside(
                ((r[0][0] + r[0][2]) / 2, (r[0][1] + r[0][3]) / 2), tile)]
        self._changed()  # a seat with a change to read stays in the hand (the session's awaiting_seats)

    def _value(self, t) -> int:
        """:data:`READ_VALUE` of a track (lower: read first)."""
        value = READ_VALUE.get(t.status, 3)
        if value < 3:
            zone = self.table.zone_at_mm(t.anchor_mm)
            state = self.state
            if zone is None or zone in state.folded or zone in state.sitting_out:
                value = OUT_OF_PLAY
        return value

    def _confirm_job(self, recheck: bool = False, values: tuple[int, ...] = (0, 1, 2, 3)) -> ReadJob | None:
        """A second read of a pending note, when one is due.

        ``values``: only notes of these :data:`READ_VALUE` classes; of those, the lowest class first.

        With ``recheck``: a read of a note still pending or unreadable after
        all its attempts, at most every ``options.recheck_s`` seconds of
        source time (the worker is idle: nothing else is due).

        From the newest frame; or, when the newest was read already, from the
        frame before it if nothing moved over the note between the two (both
        then show it undisturbed, with their own sensor noise): a recording
        with few frames per second still gets its k reads.
        """
        frame = self.frame
        if frame is None or self._changes is None:
            return None
        best = None
        for t in self.tracker:
            value = self._value(t)
            if value not in values:
                continue
            if not recheck and self._lookable(t) and t.looks < LOOKS_BEFORE_CONFIRM and _only_frames_missing(t):
                continue  # its next look (a few ms) will likely trust it: the reader waits
            if self._seen_trusted(t):
                continue  # a trusted note seen again (SEEN_TRUSTED_IOU): not re-read
            # a note read with a serial gets 2 N tries to settle; one never read as 7 digits, N;
            # a note-shaped change where nothing was read (face down?) one more; a 9-digit read
            # (2017 series, or letters taken for digits) N
            # a note whose two prints were found is re-read at them alone (a tenth of a read with the
            # text detector): it gets 2 N tries too
            cap = {"pending": self.max_attempts,
                   "unreadable": self.max_attempts if t.window_quads_mm else self.options.trust.n,
                   "out_of_format": self.options.trust.n, "blank": 2}.get(t.status, 0)
            last = max((r.time_s for r in t.reads), default=t.first_seen_s)
            if recheck:
                if (t.attempts < cap or t.status not in ("pending", "unreadable", "out_of_format")
                        or frame.time_s - last < self.options.recheck_s):
                    continue
            elif t.attempts >= cap:
                continue
            core = grow(bbox(t.quad_mm), 5.0)
            # what matters is whether anything moved over the serial prints (a hand resting on a
            # corner of the note does not hide them)
            watch = [grow(bbox(q), 3.0) for q in t.print_quads_mm] or [core]
            moving = max(self._changes.moving_in(r) for r in watch) >= self.options.mostly_still
            done = {r.frame for r in t.reads}
            pick = None
            if frame.index not in done and (t.id, frame.index) not in self._confirmed:
                if not moving or frame.time_s - t.last_seen_s >= self.options.force_s:
                    pick = frame
            elif (self._prev is not None and not moving and self._prev.index not in done
                  and (t.id, self._prev.index) not in self._confirmed):
                pick = self._prev
            # a second read goes to the note laid first; a recheck to the note read longest ago
            order = (value, last if recheck else t.first_seen_s)
            if pick is not None and (best is None or order < best[3]):
                best = (t, core, pick, order)
        if best is None:
            return None
        t, core, pick, _ = best
        self._confirmed.add((t.id, pick.index))
        # the prints' places from the last read, when it read the serial: the reader then skips
        # text detection (a third of a read's time) and reads those prints again, even when only
        # one was seen (one print read alike by two engines is a trusted read, as in a discover
        # read); else detect again. A note placed from one print is read a little wider (its
        # place is a guess)
        fresh = bool(t.reads) and t.reads[-1].serial is not None and not recheck
        hints = t.print_quads_mm if fresh else ()
        upright = True
        if not hints and not recheck and t.window_quads_mm and t.serial is None:
            # the last read found both prints but gave no serial (unsure digits, a disagreement): the
            # next reads recognise those two windows only, both ways up (issue 21: 0.03 s a note, as
            # many notes read right as by a read with the text detector); a recheck looks afresh
            hints, upright = t.window_quads_mm, False
        # a note read since its last change without a serial print found, read afresh: the detector sees
        # the view at the read scale (at the detection scale it missed every line of plainly legible notes
        # on a checked cloth, set-up C hand 4)
        full = not hints and t.attempts >= FULL_DETECT_AFTER and t.status != "blank"  # face down: nothing to find
        if len(hints or t.print_quads_mm) < 2:
            core = grow(core, 40.0)
            if not hints and len(t.print_quads_mm) == 1:
                # a note known by one print and read again afresh: its other print lies wherever the note may
                # be, either print either way up (the quad guessed from one print may sit on the wrong side;
                # set-up C hand 2: five confirm reads there saw the one print only, the note never settled)
                core = grow(note_box_around_print(t.print_quads_mm[0]), 5.0)
        return self._make_job(JobKind.CONFIRM, pick, core, True, hints=hints, track_ids=(t.id,),
                              hints_upright=upright, full_detect=full)

    def _seen_trusted(self, t) -> bool:
        """Whether an untrusted track with no print of its own lies on a trusted note, anchor on anchor
        (:data:`SEEN_TRUSTED_IOU`, :data:`SEEN_TRUSTED_MM`)."""
        if t.serial is not None or t.print_quads_mm or t.window_quads_mm:
            return False
        a = np.asarray(t.anchor_mm, np.float64)
        return any(u.serial is not None and u.id != t.id and quad_iou_mm(u.quad_mm, t.quad_mm) >= SEEN_TRUSTED_IOU
                   and float(np.linalg.norm(np.asarray(u.anchor_mm, np.float64) - a)) <= SEEN_TRUSTED_MM
                   for u in self.tracker)

    def _lookable(self, t) -> bool:
        """Whether look jobs may read this track's windows (looks on, a worker that looks, two windows)."""
        return (self.options.look_windows and not self._looks_off and getattr(self.worker, "can_look", False)
                and t.serial is None and t.evidence is not None and len(t.evidence_windows_mm) >= 2)

    def _look_job(self) -> ReadJob | None:
        """A look at the print windows of notes not yet trusted, in the newest frame: the serial model alone
        (no text detector), each note once a frame, up to :data:`LOOK_BATCH` notes (those of most value, then
        those looked at longest ago), only where nothing moves over the windows, at most :data:`LOOK_MAX`
        times a note. Their evidence accumulates print by print (:mod:`dealer_assist.vision.print_evidence`)."""
        frame = self.frame
        if (frame is None or self._changes is None or self._looks_off or not self.options.look_windows
                or not getattr(self.worker, "can_look", False)):
            return None
        picks = []
        for t in self.tracker:
            if (t.serial is not None or t.evidence is None or len(t.evidence_windows_mm) < 2
                    or t.looked_frame >= frame.index or t.looks >= LOOK_MAX):
                continue
            if max(self._changes.moving_in(grow(bbox(q), 3.0)) for q in t.evidence_windows_mm) >= self.options.mostly_still:
                continue
            picks.append(((self._value(t), t.looked_frame, t.id), t))
        if not picks:
            return None
        picks.sort(key=lambda p: p[0])
        views = []
        scale = self.read_px_per_mm
        for _, t in picks[:LOOK_BATCH]:
            images, quads = [], []
            for q in t.evidence_windows_mm:
                region = grow(bbox(q), LOOK_MARGIN_MM)
                images.append(warp_region(frame.image, self.profile, region, scale))
                quads.append(((np.asarray(q, np.float64) - [region[0], region[1]]) * scale - 0.5).astype(np.float32))
            t.looks += 1
            t.looked_frame = frame.index
            views.append(WindowView(t.id, tuple(t.evidence_windows_mm), tuple(images), tuple(quads)))
        self._job_id += 1
        box = bbox(np.concatenate([np.asarray(q, np.float64).reshape(-1, 2) for v in views for q in v.windows_mm]))
        return ReadJob(self._job_id, frame.index, frame.time_s, JobKind.LOOK, box, box, scale,
                       np.zeros((1, 1, 3), np.uint8), track_ids=tuple(v.track_id for v in views), windows=tuple(views))

    @property
    def max_attempts(self) -> int:
        """Reads of a pending note (since its place last changed) before the session stops asking: 2 N."""
        return 2 * self.options.trust.n

    def _next_job(self) -> ReadJob | None:
        """The next read, by value (the module doc): note-shaped changes and changes at known notes
        (newest first), another read of an unsettled note read with a serial, the start-up scan (from
        the newest frame), other changes (newest first), notes read without a serial, a face-down
        note's second look,
        places read without finding a note, and last, when nothing else is due, a note still unsettled
        after all its attempts (every ``recheck_s`` seconds)."""
        # changes newest first: the place that changed last is where a note was just put down (an older
        # change waiting in the queue is read from the newest frame all the same, see _refreshed)
        for i in range(len(self.queue) - 1, -1, -1):
            if self.queue[i].kind is JobKind.DISCOVER:
                return self._refreshed(self.queue.pop(i))
        # notes found but not trusted: the serial model on their print windows, each new frame (a few ms)
        job = self._look_job()
        if job is not None:
            return job
        job = self._confirm_job(values=(0,))
        if job is not None:
            return job
        for i, job in enumerate(self.queue):
            if job.kind is JobKind.SCAN:
                return self._refreshed(self.queue.pop(i))
        # other changes before notes whose reads gave no serial: a note never found (fanned pocket
        # notes are rarely note-shaped) is worth more than one more look at a note found
        for i in range(len(self.queue) - 1, -1, -1):
            if self.queue[i].kind is JobKind.DISCOVER_OTHER:
                return self._refreshed(self.queue.pop(i))
        job = self._confirm_job(values=(1, 2)) or self._confirm_job(values=(3,)) or self._retry_job()
        if job is None and self.options.recheck_s is not None:
            job = self._confirm_job(recheck=True)
        return job

    def _refreshed(self, job: ReadJob) -> ReadJob:
        """A queued read of a changed place, made again from the newest frame when one came since and
        nothing moves over the place in it (the reads then see the table as it is, not as it was when
        the change was queued)."""
        frame = self.frame
        if (frame is None or self._changes is None or frame.index <= job.frame
                or self._changes.moving_in(job.core_mm) >= self.options.mostly_still):
            return job
        image = warp_region(frame.image, self.profile, job.region_mm, job.px_per_mm)
        self._changes.accept(job.region_mm)
        return dataclasses.replace(job, frame=frame.index, time_s=frame.time_s, image=image, still=True)

    def _retry_job(self) -> ReadJob | None:
        """A place that changed and was read without finding a note, read again from a newer frame."""
        frame = self.frame
        if frame is None or self._changes is None:
            return None
        for i, (region, tries, after) in enumerate(self._retries):
            if frame.index <= after or self._changes.moving_in(region) >= self.options.mostly_still:
                continue
            if tries > 1:
                self._retries[i] = (region, tries - 1, frame.index)
            else:
                del self._retries[i]
            # the last retry of a place where nothing was found looks at the read scale (see FULL_DETECT_AFTER)
            return self._make_job(JobKind.RETRY, frame, region, True, full_detect=tries <= 1)
        return None


def _only_frames_missing(t) -> bool:
    """The track's print evidence agrees on a value with the margin; only frames are missing to trust it."""
    d = t.decision
    return d is not None and d.value is not None and d.serial is None and d.margin >= MIN_MARGIN


def _overlap(a, b) -> bool:
    """Two boxes (x0, y0, x1, y1) overlap."""
    return a[0] <= b[2] and b[0] <= a[2] and a[1] <= b[3] and b[1] <= a[3]
