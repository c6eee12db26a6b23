"""Live mode's looks at a known note's print windows (the serial model alone, each frame) and the evidence they
accumulate, with a stand-in reader and model: the one-print rule in live mode, a serial trusted by its two
prints' evidence, and evidence that contradicts the reader's reads."""

from __future__ import annotations

import numpy as np
import pytest

from dealer_assist.live.session import LiveOptions, LiveSession
from dealer_assist.live.table_state import TableState
from dealer_assist.live.tracker import Observation
from dealer_assist.live.worker import InlineWorker, JobKind, WindowLooks
from dealer_assist.vision.geometry import LEFT_PRINT_MM, NOTE_SIZE_MM, TOP_RIGHT_PRINT_MM
from dealer_assist.vision.print_evidence import DIGITS, MIN_MARGIN, PrintLook
from live_helpers import plain_profile
from test_live_session import SEATS, SIZE, Table, note_quad, print_quad

NOTHING = PrintLook("")


def sure(value: str, margin: float = MIN_MARGIN + 3.0) -> PrintLook:
    """A look reading ``value`` with every digit ``margin`` nats ahead of the next digit."""
    logp = np.full((DIGITS, 10), -30.0)
    for i, ch in enumerate(value):
        logp[i, int(ch)] = -0.01
        logp[i, (int(ch) + 1) % 10] = -0.01 - margin
    return PrintLook(f"АК {value}", value, logp)


class ModelTable(Table):
    """The stand-in reader finds both prints of each note but trusts nothing (digits unsure, as at the camera's
    limit), and gives the model's looks at them; ``reader_serial`` makes it trust a serial instead. The stand-in
    model reads ``top`` on the top-right window and ``left`` on the left one (``None``: that print reads nothing,
    hidden under another note)."""

    def __init__(self, profile, top: str | None, left: str | None, reader_serial: str | None = None) -> None:
        super().__init__(profile)
        self.top, self.left, self.reader_serial = top, left, reader_serial
        self.kinds: list[JobKind] = []

    def _looks(self, windows_mm) -> dict:
        per = []
        for q in windows_mm:
            c = np.mean(q, axis=0)
            x, y = next(iter(self.notes.values()))
            top = np.linalg.norm(c - np.mean(print_quad(x, y, TOP_RIGHT_PRINT_MM), axis=0)) < 5
            value = self.top if top else self.left
            per.append(sure(value) if value else NOTHING)
        return {0: tuple(per), 1: (NOTHING,) * len(per)}

    def read(self, job):
        self.kinds.append(job.kind)
        out = []
        for o in super().read(job):
            if job.kind is JobKind.SCAN:
                out.append(o)
                continue
            serial = self.reader_serial
            out.append(Observation(o.quad_mm, serial, 0.9 if serial else 0.0, "trusted" if serial else "unreadable",
                                   "" if serial else "both prints read, not surely", o.print_quads_mm, o.anchor,
                                   looks=self._looks(o.print_quads_mm)))
        return out

    def look(self, job):
        self.kinds.append(job.kind)
        return [WindowLooks(v.track_id, v.windows_mm, self._looks(v.windows_mm)) for v in job.windows]


def place(table: ModelTable) -> None:
    """The note laid in P1's zone."""
    c = next(z for z in table.profile.table.zones if z.name == "P1").centre_mm
    table.notes["X"] = (c[0] - NOTE_SIZE_MM[0] / 2, c[1] - NOTE_SIZE_MM[1] / 2)


def play(table: ModelTable, frames: int) -> LiveSession:
    session = LiveSession(table.profile, TableState(tuple(SEATS), 4),
                          InlineWorker(read=table.read, look=table.look), LiveOptions())
    for i in (0, 1):
        session.on_frame(table.frame(i))
        session.pump(wait=True)
    place(table)
    for i in range(2, frames + 2):
        session.on_frame(table.frame(i))
        session.pump(wait=True)
    return session


def test_two_prints_evidence_trusts_a_note_the_reader_could_not():
    table = ModelTable(plain_profile(SIZE, SEATS), "4455667", "4455667")
    session = play(table, 8)
    tracks = list(session.tracker)
    assert len(tracks) == 1
    t = tracks[0]
    assert t.serial == "4455667"
    assert t.status == "trusted"
    # the reader never trusted it: its serial came from the looks, one of which was a look job
    assert all(r.serial is None for r in t.reads)
    assert JobKind.LOOK in table.kinds
    assert t.decision.frames[0] >= 2 and t.decision.frames[1] >= 2
    assert session.notes()[0].serial == "4455667"
    # its confidence is the evidence's: the least sure digit's mean probability (e^-0.01 in every look here)
    assert session.notes()[0].confidence == pytest.approx(np.exp(-0.01))


def test_one_print_frames_never_trust_in_live_mode():
    """The second print hidden (fanned pockets): however many frames the model reads the first print surely,
    the note stays untrusted."""
    table = ModelTable(plain_profile(SIZE, SEATS), "4455667", None)
    session = play(table, 30)
    (t,) = list(session.tracker)
    assert t.serial is None
    assert t.status != "trusted"
    assert t.evidence is not None and t.evidence.prints[0][0].n >= 10  # looked at in many frames
    assert t.evidence.prints[0][1].n == 0
    assert "only one print" in t.decision.reason
    assert session.notes()[0].serial is None


def test_evidence_that_contradicts_the_readers_reads_keeps_the_note_pending():
    table = ModelTable(plain_profile(SIZE, SEATS), "4455667", "4455667", reader_serial="4455661")
    session = play(table, 8)
    (t,) = list(session.tracker)
    assert any(r.serial == "4455661" for r in t.reads)
    assert t.decision.serial == "4455667"
    assert t.serial is None


def test_looks_off_leaves_the_reader_alone():
    table = ModelTable(plain_profile(SIZE, SEATS), "4455667", "4455667")
    session = LiveSession(table.profile, TableState(tuple(SEATS), 4),
                          InlineWorker(read=table.read, look=table.look), LiveOptions(look_windows=False))
    for i in (0, 1):
        session.on_frame(table.frame(i))
        session.pump(wait=True)
    place(table)
    for i in range(2, 10):
        session.on_frame(table.frame(i))
        session.pump(wait=True)
    (t,) = list(session.tracker)
    assert JobKind.LOOK not in table.kinds
    assert t.serial is None and t.evidence is None


def test_each_windows_looks_go_to_the_print_lying_there():
    """Looks given for the windows in another order (a later read listed the prints the other way) are counted
    for the print each window shows, never for the other print; looks at windows that moved are dropped."""
    from dealer_assist.live.tracker import Tracker

    x, y = 100.0, 100.0
    pa, pb = print_quad(x, y, TOP_RIGHT_PRINT_MM), print_quad(x, y, LEFT_PRINT_MM)
    quad = note_quad(x, y)
    tracker = Tracker()
    ob = Observation(quad, None, 0.0, "unreadable", "unsure", (pa, pb), looks={0: (sure("1234567", 5.0),
                                                                                  sure("1234567", 7.0)),
                                                                              1: (NOTHING, NOTHING)})
    tracker.apply([ob], (0, 0, 400, 300), frame=1, time_s=0.1)
    (t,) = list(tracker)
    events = tracker.add_looks(t.id, 2, 0.2, (pb, pa), {0: (sure("1234567", 7.0), sure("1234567", 5.0)),
                                                         1: (NOTHING, NOTHING)})
    assert np.allclose(t.evidence.prints[0][0].margins(), 5.0)
    assert np.allclose(t.evidence.prints[0][1].margins(), 7.0)
    assert [e.kind for e in events] == ["trusted"] and t.serial == "1234567"
    moved = (pa + [10.0, 0.0], pb + [10.0, 0.0])
    assert tracker.add_looks(t.id, 3, 0.3, moved, {0: (sure("7654321"), sure("7654321")), 1: (NOTHING, NOTHING)}) == []
    assert t.evidence.prints[0][0].n == 2 and t.serial == "1234567"


def _session_on_an_empty_table() -> LiveSession:
    """A live session that has seen three frames of the empty table (its reads done)."""
    table = ModelTable(plain_profile(SIZE, SEATS), "4455667", "4455667")
    session = LiveSession(table.profile, TableState(tuple(SEATS), 4), InlineWorker(read=table.read, look=table.look),
                          LiveOptions())
    for i in (0, 1, 2):
        session.on_frame(table.frame(i))
        session.pump(wait=True)
    return session


def test_a_note_cut_by_a_reads_edge_has_its_own_place_read_once():
    from dealer_assist.live.worker import CUT, JobResult, ReadJob

    session = _session_on_an_empty_table()
    x, y = 600.0, 300.0
    prints = (print_quad(x, y, TOP_RIGHT_PRINT_MM),)
    cut = Observation(note_quad(x, y), None, 0.0, CUT, "cut by the read's edge", prints, prints[0].mean(axis=0))
    read = ReadJob(99, 2, 0.5, JobKind.DISCOVER, (500.0, 250.0, 640.0, 400.0), (500.0, 250.0, 640.0, 400.0), 1.0,
                   np.zeros((1, 1, 3), np.uint8))
    session._apply(JobResult(read, (cut,)))
    follow = [j for j in session.queue if j.kind is JobKind.DISCOVER]
    assert len(follow) == 1
    x0, y0, x1, y1 = follow[0].core_mm
    q = note_quad(x, y)
    assert x0 <= q[:, 0].min() and q[:, 0].max() <= x1 and y0 <= q[:, 1].min() and q[:, 1].max() <= y1
    assert len(session.tracker) == 0  # a CUT observation is no track
    session._apply(JobResult(read, (cut,)))  # seen cut again: not followed twice
    assert len([j for j in session.queue if j.kind is JobKind.DISCOVER]) == 1


def test_a_note_cut_by_a_reads_edge_on_a_face_down_notes_track_has_its_place_read():
    """A print seen cut by a read's edge on a face-down note's track (``blank``: read twice, then left) is the
    note turned over: its place is read (set-up D hand 2: a revealed end-seat note was never read again); on a
    note already read with prints, its own reads go on."""
    from dealer_assist.live.worker import CUT, JobResult, ReadJob

    session = _session_on_an_empty_table()
    x, y = 600.0, 300.0
    region = (0.0, 0.0, 1000.0, 700.0)
    session.tracker.apply([Observation(note_quad(x, y), None, 0.0, "blank", "no serial seen", placed=True)], region,
                          2, 0.5, count_misses=False)
    assert [t.status for t in session.tracker] == ["blank"]
    prints = (print_quad(x, y, TOP_RIGHT_PRINT_MM),)
    cut = Observation(note_quad(x, y), None, 0.0, CUT, "cut by the read's edge", prints, prints[0].mean(axis=0))
    read = ReadJob(99, 2, 0.5, JobKind.DISCOVER, (500.0, 250.0, 640.0, 400.0), (500.0, 250.0, 640.0, 400.0), 1.0,
                   np.zeros((1, 1, 3), np.uint8))
    session.queue.clear()
    session._apply(JobResult(read, (cut,)))
    assert len([j for j in session.queue if j.kind is JobKind.DISCOVER]) == 1
    # on a note read with its prints (not face down), the cut print is left to that note's own reads
    session.queue.clear()
    session._followed.clear()
    session.tracker.clear()
    session.tracker.apply([Observation(note_quad(x, y), None, 0.0, "unreadable", "the reads disagree",
                                       (print_quad(x, y, TOP_RIGHT_PRINT_MM), print_quad(x, y, LEFT_PRINT_MM)),
                                       placed=True)], region, 3, 0.6, count_misses=False)
    assert [t.status for t in session.tracker] == ["unreadable"]
    session._apply(JobResult(read, (cut,)))
    assert [j for j in session.queue if j.kind is JobKind.DISCOVER] == []
