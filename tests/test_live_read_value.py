"""Live mode's reads by value (issue 21, the compute budget): a note just put down before the rest of
the start-up scan, a note read but not settled before a face-down note, nothing for a trusted note."""

from __future__ import annotations

import numpy as np

from dealer_assist.live.session import LiveOptions, LiveSession
from dealer_assist.live.table_state import TableState
from dealer_assist.live.tracker import Observation
from dealer_assist.live.worker import InlineWorker, JobKind, job_hints
from dealer_assist.vision.geometry import LEFT_PRINT_MM, NOTE_SIZE_MM, TOP_RIGHT_PRINT_MM
from live_helpers import plain_profile
from test_live_session import SEATS, SIZE, Table, note_quad, print_quad


def _session(table: Table) -> LiveSession:
    return LiveSession(table.profile, TableState(tuple(SEATS), 4), InlineWorker(read=table.read), LiveOptions())


def _board_corner(profile) -> tuple[float, float]:
    c = {z.name: z for z in profile.table.zones}["board"].centre_mm
    return c[0] - NOTE_SIZE_MM[0] / 2, c[1] - NOTE_SIZE_MM[1] / 2


def test_a_note_put_down_is_read_before_the_rest_of_the_start_up_scan():
    table = Table(plain_profile(SIZE, SEATS))
    session = _session(table)
    session.on_frame(table.frame(0))
    scans = [j for j in session.queue if j.kind is JobKind.SCAN]
    assert len(scans) >= 2
    table.notes["5550555"] = _board_corner(table.profile)
    session.on_frame(table.frame(1))  # the note lands (moving)
    session.on_frame(table.frame(2))  # still: its place is queued
    job = session._next_job()
    assert job.kind is JobKind.DISCOVER and job.frame == 2
    # the scan tiles wait; when read, they are read from the newest frame
    assert sum(j.kind is JobKind.SCAN for j in session.queue) == len(scans)
    session.on_frame(table.frame(3))
    job = session._next_job()
    assert job.kind is JobKind.SCAN and job.frame == 3


def _two_notes(session: LiveSession, table: Table) -> tuple[int, int]:
    """A face-down note (placed, no serial seen) and a note read once with a serial, both in a seat."""
    seat = {z.name: z for z in table.profile.table.zones}["P1"].centre_mm
    down = note_quad(seat[0] - 80, seat[1] - 40)
    up = note_quad(seat[0] + 5, seat[1] - 40)
    region = (0.0, 0.0, 1000.0, 700.0)
    session.tracker.apply([Observation(down, None, 0.0, "blank", "no serial seen", placed=True)], region, 2, 0.5, count_misses=False)
    session.tracker.apply([Observation(up, "1234567", 0.9, "trusted", "", anchor_mm=up.mean(axis=0))], region, 3, 0.75, count_misses=False)
    (t_down, t_up) = sorted(session.tracker, key=lambda t: t.first_seen_s)
    assert (t_down.status, t_up.status) == ("blank", "pending")
    return t_down.id, t_up.id


def test_a_note_read_but_not_settled_is_read_again_before_a_face_down_note():
    table = Table(plain_profile(SIZE, SEATS))
    session = _session(table)
    for i in range(2):
        session.on_frame(table.frame(i))
    session.queue.clear()
    down, up = _two_notes(session, table)
    session.on_frame(table.frame(4))
    session.queue.clear()
    order = []
    while (job := session._next_job()) is not None:
        assert job.kind is JobKind.CONFIRM
        order.append(job.track_ids[0])
    # the unsettled note's reads due (this frame, and the one before: nothing moved) come first; the
    # face-down note's second look only when nothing of more value waits
    assert order[:2] == [up, up] and order[2:] and set(order[2:]) == {down}


def test_a_folded_seat_s_note_waits_behind_the_notes_in_play():
    table = Table(plain_profile(SIZE, SEATS))
    session = _session(table)
    session.on_frame(table.frame(0))
    session.queue.clear()
    region = (0.0, 0.0, 1000.0, 700.0)
    zones = {z.name: z for z in table.profile.table.zones}
    quads = {}
    for name, serial in (("P1", "1234567"), ("P2", "7654321")):
        c = zones[name].centre_mm
        quads[name] = note_quad(c[0] - 78, c[1] - 35)
        session.tracker.apply([Observation(quads[name], serial, 0.9, "trusted", "", anchor_mm=quads[name].mean(axis=0))],
                              region, 1 if name == "P1" else 2, 0.25, count_misses=False)
    p1 = next(t.id for t in session.tracker if t.candidates(3)[0][0] == "1234567")
    p2 = next(t.id for t in session.tracker if t.candidates(3)[0][0] == "7654321")
    session.state = session.state.with_fold("P1")
    session.on_frame(table.frame(3))
    session.queue.clear()
    order = []
    while (job := session._next_job()) is not None:
        order.append(job.track_ids[0])
    # P1's note was laid first, but P1 folded: every read due of P2's note comes before
    assert p1 in order and p2 in order and max(i for i, t in enumerate(order) if t == p2) < order.index(p1)


def test_a_trusted_still_note_is_not_read_again():
    table = Table(plain_profile(SIZE, SEATS))
    table.notes["5550555"] = _board_corner(table.profile)
    session = _session(table)
    for i in range(4):
        session.on_frame(table.frame(i))
        session.pump(wait=True)
    (track,) = session.tracker
    assert track.serial == "5550555"
    reads = len(track.reads)
    for i in range(4, 12):
        session.on_frame(table.frame(i))
        session.pump(wait=True)
    assert len(track.reads) == reads and session._next_job() is None


def test_a_note_whose_prints_gave_no_serial_is_read_again_at_its_two_windows_both_ways_up():
    # issue 21: a found note is re-read by recognition of its two print windows only (no text detector);
    # while its way up is not settled (no read gave the serial), each window is read both ways up
    table = Table(plain_profile(SIZE, SEATS))
    session = _session(table)
    session.on_frame(table.frame(0))
    session.queue.clear()
    c = {z.name: z for z in table.profile.table.zones}["P1"].centre_mm
    quad = note_quad(c[0] - 78, c[1] - 35)
    windows = (print_quad(c[0] - 78, c[1] - 35, TOP_RIGHT_PRINT_MM), print_quad(c[0] - 78, c[1] - 35, LEFT_PRINT_MM))
    region = (0.0, 0.0, 1000.0, 700.0)
    why = "the two prints read 1234567 and 1234557; read again"
    session.tracker.apply([Observation(quad, None, 0.0, "unreadable", why, windows, placed=True,
                                       disputed=("1234557", "1234567"))], region, 0, 0.0, count_misses=False)
    (track,) = session.tracker
    assert track.status == "unreadable" and len(track.window_quads_mm) == 2
    session.on_frame(table.frame(1))
    session.queue.clear()
    job = session._next_job()
    assert job.kind is JobKind.CONFIRM and job.track_ids == (track.id,)
    assert len(job.hints_mm) == 2 and not job.hints_upright
    assert np.allclose(job.hints_mm[0], windows[0]) and np.allclose(job.hints_mm[1], windows[1])
    hints = job_hints(job)
    assert hints.print_quads is not None and not hints.prints_upright  # the reader reads each both ways up
    # the view is the note's, not a note-and-a-half guess around one print
    assert job.region_mm[2] - job.region_mm[0] < NOTE_SIZE_MM[0] + 2 * 30
    # once a read gives the serial, the prints it read are known upright
    session.tracker.apply([Observation(quad, "1234567", 0.9, "trusted", "", windows, np.mean([w.mean(axis=0) for w in windows], axis=0))],
                          region, 1, 0.25, count_misses=False)
    session.on_frame(table.frame(2))
    session.queue.clear()
    job = session._next_job()
    assert job.track_ids == (track.id,) and job.hints_upright and job_hints(job).prints_upright


def test_a_note_of_one_print_is_not_given_windows():
    # a read that found one print of a note gives no window pair: the next read detects text afresh,
    # around the note (a single print does not fix where the other lies nor which way up it is)
    table = Table(plain_profile(SIZE, SEATS))
    session = _session(table)
    session.on_frame(table.frame(0))
    session.queue.clear()
    c = {z.name: z for z in table.profile.table.zones}["P1"].centre_mm
    quad = note_quad(c[0] - 78, c[1] - 35)
    lone = (print_quad(c[0] - 78, c[1] - 35, TOP_RIGHT_PRINT_MM),)
    session.tracker.apply([Observation(quad, None, 0.0, "unreadable", "one print only", lone, placed=True,
                                       disputed=("1234567",))], (0.0, 0.0, 1000.0, 700.0), 0, 0.0, count_misses=False)
    (track,) = session.tracker
    assert track.window_quads_mm == ()
    session.on_frame(table.frame(1))
    session.queue.clear()
    job = session._next_job()
    assert job.kind is JobKind.CONFIRM and job.hints_mm == ()


def test_a_showdown_waits_for_a_change_in_a_seat_that_no_read_has_found_yet():
    # issue 21, measured: with reads by value, a hand was decided while two seats' pocket notes had
    # changed but were not read yet (fanned notes, not note-shaped); the seats were left out. A seat
    # with a change still to read stays in the hand until the read is done.
    table = Table(plain_profile(SIZE, SEATS))
    session = _session(table)
    session.on_frame(table.frame(0))
    session.queue.clear()
    assert session.awaiting_seats() == set()
    c = {z.name: z for z in table.profile.table.zones}["P2"].centre_mm
    table.notes["9999999"] = (c[0] - NOTE_SIZE_MM[0] / 2, c[1] - NOTE_SIZE_MM[1] / 2)
    session.on_frame(table.frame(1))
    session.on_frame(table.frame(2))
    assert any(j.kind.discovers for j in session.queue)
    assert session.awaiting_seats() == {"P2"}
    assert session.view().seat("P2").in_hand
    session.pump(wait=True)  # read: the note is found, the seat is in the hand by its note
    assert session.awaiting_seats() == set() and "P2" in session.seen_seats


def test_the_scan_and_every_reads_detector_work_at_the_cameras_scale():
    # the start-up scan looks for text lines in views at the detection scale; a read of a change is warped
    # at the read scale (for recognition) and its detector shrinks it to the detection scale
    from dealer_assist.live.read_planning import DETECT_PX_PER_MM

    table = Table(plain_profile(SIZE, SEATS))
    session = _session(table)
    session.on_frame(table.frame(0))
    lo, hi = DETECT_PX_PER_MM
    assert lo <= session.detect_px_per_mm <= hi < session.read_px_per_mm
    scans = [j for j in session.queue if j.kind is JobKind.SCAN]
    assert scans and all(j.px_per_mm == session.detect_px_per_mm and j.detect_px_per_mm is None for j in scans)
    assert all(max(j.image.shape[:2]) <= 1536 for j in scans)
    table.notes["5550555"] = _board_corner(table.profile)
    session.on_frame(table.frame(1))
    session.on_frame(table.frame(2))
    job = session._next_job()
    assert job.kind is JobKind.DISCOVER and job.px_per_mm == session.read_px_per_mm
    assert job_hints(job).detect_px_per_mm == session.detect_px_per_mm
    table = Table(plain_profile(SIZE, SEATS))
    off = LiveSession(table.profile, TableState(tuple(SEATS), 4), InlineWorker(read=table.read),
                      LiveOptions(detect_at_camera_scale=False))
    off.on_frame(table.frame(0))
    table.notes["5550555"] = _board_corner(table.profile)
    off.on_frame(table.frame(1))
    off.on_frame(table.frame(2))
    job = off._next_job()
    assert job.kind is JobKind.DISCOVER and job_hints(job).detect_px_per_mm is None


def test_a_note_read_without_a_serial_print_is_read_again_with_the_detector_at_the_read_scale():
    """FULL_DETECT_AFTER: a fresh read of a note whose read since its change found no serial print has the text
    detector see the view at the read scale (set-up C hand 4: at the detection scale it never found three
    legible notes on a checked cloth); a first read, a face-down note and a read at known prints keep the
    detection scale; the last retry of a place where nothing was found looks at the read scale too."""
    table = Table(plain_profile(SIZE, SEATS))
    session = _session(table)
    for i in range(2):
        session.on_frame(table.frame(i))
    session.queue.clear()
    assert session.detect_px_per_mm < session.read_px_per_mm  # the views are shrunk for the detector
    seat = {z.name: z for z in table.profile.table.zones}["P1"].centre_mm
    q = note_quad(seat[0] - 60, seat[1] - 40)
    region = (0.0, 0.0, 1000.0, 700.0)
    session.tracker.apply([Observation(q, None, 0.0, "unreadable", "no line of it reads as a serial print",
                                       placed=True)], region, 2, 0.5, count_misses=False)
    (t,) = list(session.tracker)
    assert t.status == "unreadable" and t.attempts == 1 and not t.window_quads_mm
    session.on_frame(table.frame(4))
    session.queue.clear()
    job = session._confirm_job()
    assert job.kind is JobKind.CONFIRM and not job.hints_mm and job.detect_px_per_mm is None
    t.attempts = 0  # as if its place had just changed: the first read shrinks the view for the detector
    session._confirmed.clear()
    assert session._confirm_job().detect_px_per_mm == session.detect_px_per_mm
    session.tracker.clear()  # a face-down note (a note-shaped change, no serial seen), read once
    session.tracker.apply([Observation(q, None, 0.0, "blank", "no serial seen", placed=True)], region, 6, 1.5,
                          count_misses=False)
    (t,) = list(session.tracker)
    assert t.status == "blank" and t.attempts == 1
    session._confirmed.clear()
    assert session._confirm_job().detect_px_per_mm == session.detect_px_per_mm
    # retries of a changed place where nothing was found: the first at the detection scale, the last not
    session.tracker.clear()
    session._retries = [((100.0, 100.0, 300.0, 250.0), 2, 0)]
    assert session._retry_job().detect_px_per_mm == session.detect_px_per_mm
    session.on_frame(table.frame(5))
    assert session._retry_job().detect_px_per_mm is None
    assert session._retries == []


def test_a_trusted_note_seen_again_as_a_track_of_its_own_is_not_re_read():
    """SEEN_TRUSTED_IOU / SEEN_TRUSTED_MM: a track with no print of its own lying on a trusted note, anchor on
    anchor, is that note seen again (set-up C hand 1: 7 confirm reads of ~1.1 s CPU each); a note beside it, one
    overlapping it only in part, or one on it with an anchor elsewhere (a print of another note) is still read."""
    table = Table(plain_profile(SIZE, SEATS))
    session = _session(table)
    for i in range(2):
        session.on_frame(table.frame(i))
    session.queue.clear()
    seat = {z.name: z for z in table.profile.table.zones}["P1"].centre_mm
    x, y = seat[0] - 80, seat[1] - 40
    q = note_quad(x, y)
    prints = (print_quad(x, y, TOP_RIGHT_PRINT_MM), print_quad(x, y, LEFT_PRINT_MM))
    anchor = np.mean([p.mean(axis=0) for p in prints], axis=0)
    region = (0.0, 0.0, 1000.0, 700.0)
    session.tracker.apply([Observation(q, "1234567", 0.95, "trusted", "", prints, anchor)], region, 2, 0.5,
                          count_misses=False)
    session.tracker.apply([Observation(q, "1234567", 0.95, "trusted", "", prints, anchor)], region, 3, 0.75,
                          count_misses=False)
    (trusted,) = list(session.tracker)
    assert trusted.serial == "1234567"

    def add(quad, anchor_mm):
        t = session.tracker.tracks
        tid = max(t) + 1
        from dealer_assist.live.tracker import Track

        t[tid] = Track(tid, np.asarray(quad, float), np.asarray(anchor_mm, float), 1.0, 4, 1.0, 4,
                       last_status="unreadable", attempts=1)
        return t[tid]

    session.on_frame(table.frame(4))
    session.queue.clear()
    again = add(q + [2.0, 1.0], anchor + [3.0, 0.0])  # the trusted note, read again as a note of its own
    assert session._seen_trusted(again)
    assert session._confirm_job() is None  # nothing else to read: the trusted note is not read again
    beside = add(note_quad(x + 60, y + 20), anchor + [60.0, 20.0])  # fanned over it: overlaps in part
    elsewhere = add(q + [4.0, 0.0], anchor + [90.0, 0.0])  # on it, but placed by a print 90 mm away
    assert not session._seen_trusted(beside) and not session._seen_trusted(elsewhere)
    read = set()
    while (job := session._confirm_job()) is not None:
        read.update(job.track_ids)
    assert read == {beside.id, elsewhere.id}
    trusted.serial = None  # once the note is not trusted, its second track is read again
    session._confirmed.clear()
    assert not session._seen_trusted(again)
