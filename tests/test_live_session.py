"""The live session's wiring without OCR: changes -> reads -> tracks -> the hand, with a stand-in reader.

Frames are drawn: a plain table and pale rectangles where notes lie (a
"hand" is a block that hides part of a note for a frame). The stand-in
reader reports, for each note lying wholly in a read's view and visible in
that view's pixels, its serial and its two serial prints (1997-series
places), as the real reader would. So the test checks the session's own
logic: what is read when, the k-of-N rule across frames, zones, the board
order, the showdown, and a hand ending when the table is cleared.
"""

from __future__ import annotations

from datetime import datetime, timezone

import numpy as np

from dealer_assist.live.frame_source import Frame
from dealer_assist.live.history import HandLog, read_log
from dealer_assist.live.session import LiveOptions, LiveSession
from dealer_assist.live.table_state import TableState
from dealer_assist.live.tracker import Observation
from dealer_assist.live.worker import InlineWorker, JobKind
from dealer_assist.rules import evaluate, parse_hand, result_to_json
from dealer_assist.vision.geometry import LEFT_PRINT_MM, NOTE_SIZE_MM, TOP_RIGHT_PRINT_MM
from live_helpers import plain_profile

SIZE = (640, 448)  # the 1000 x 700 mm table fills the frame: 0.64 px/mm
PX = 0.64
SEATS = ["P1", "P2"]
TABLE = (60, 90, 120)
PAPER = (225, 230, 235)


def note_quad(x: float, y: float) -> np.ndarray:
    w, h = NOTE_SIZE_MM
    return np.array([[x, y], [x + w, y], [x + w, y + h], [x, y + h]], float)


def print_quad(x: float, y: float, centre) -> np.ndarray:
    cx, cy = x + centre[0], y + centre[1]
    return np.array([[cx - 12, cy - 2.5], [cx + 12, cy - 2.5], [cx + 12, cy + 2.5], [cx - 12, cy + 2.5]], float)


class Table:
    """The notes on the table (top-left corner in mm, upright) and what hides them."""

    def __init__(self, profile) -> None:
        self.profile = profile
        self.notes: dict[str, tuple[float, float]] = {}
        self.hand: tuple[float, float] | None = None

    def frame(self, index: int) -> Frame:
        img = np.zeros((SIZE[1], SIZE[0], 3), np.uint8)
        img[:] = TABLE
        rng = np.random.default_rng(index)
        for x, y in self.notes.values():
            x0, y0 = int(x * PX), int(y * PX)
            img[y0:y0 + int(NOTE_SIZE_MM[1] * PX), x0:x0 + int(NOTE_SIZE_MM[0] * PX)] = PAPER
        if self.hand is not None:
            hx, hy = int(self.hand[0] * PX), int(self.hand[1] * PX)
            img[hy:hy + 60, hx:hx + 60] = (90, 140, 200)
        noise = rng.normal(0, 1.5, img.shape).round().astype(np.int16)
        img = np.clip(img.astype(np.int16) + noise, 0, 255).astype(np.uint8)
        return Frame(img, index, index * 0.25)

    def read(self, job) -> list[Observation]:
        """The stand-in reader: notes wholly in the view whose middle shows paper in the view's pixels; for
        a scan, as the reader's line search, their prints (not read) lying whole in the view and centred
        in its core."""
        out = []
        x0, y0, x1, y1 = job.region_mm
        for serial, (x, y) in self.notes.items():
            q = note_quad(x, y)
            if job.kind is JobKind.SCAN:
                cx0, cy0, cx1, cy1 = job.core_mm
                for p in (print_quad(x, y, TOP_RIGHT_PRINT_MM), print_quad(x, y, LEFT_PRINT_MM)):
                    c = p.mean(axis=0)
                    whole = p[:, 0].min() >= x0 and p[:, 1].min() >= y0 and p[:, 0].max() <= x1 and p[:, 1].max() <= y1
                    if whole and cx0 <= c[0] <= cx1 and cy0 <= c[1] <= cy1:
                        out.append(Observation(p, None, 0.0, "unreadable", "not read", (p,), c))
                continue
            if q[:, 0].min() < x0 or q[:, 1].min() < y0 or q[:, 0].max() > x1 or q[:, 1].max() > y1:
                continue
            cx = int((x + NOTE_SIZE_MM[0] / 2 - x0) * job.px_per_mm)
            cy = int((y + NOTE_SIZE_MM[1] / 2 - y0) * job.px_per_mm)
            if np.abs(job.image[cy, cx].astype(int) - PAPER).max() > 40:
                continue  # a hand over it
            prints = (print_quad(x, y, TOP_RIGHT_PRINT_MM), print_quad(x, y, LEFT_PRINT_MM))
            out.append(Observation(q, serial, 0.95, "trusted", "", prints,
                                   np.mean([p.mean(axis=0) for p in prints], axis=0)))
        return out


def run(session: LiveSession, table: Table, frames: list[int]) -> None:
    for i in frames:
        session.on_frame(table.frame(i))
        session.pump(wait=True)


def test_a_hand_dealt_read_decided_and_cleared(tmp_path):
    profile = plain_profile(SIZE, SEATS)
    zones = {z.name: z for z in profile.table.zones}
    table = Table(profile)
    log = HandLog(tmp_path / "hands.jsonl")
    clock = lambda: datetime(2025, 1, 1, tzinfo=timezone.utc)  # noqa: E731
    session = LiveSession(profile, TableState(tuple(SEATS), 4), InlineWorker(read=table.read), LiveOptions(),
                          on_finished=log.append, clock=clock)
    frame = 0

    def place(serial: str, zone: str, k: int) -> None:
        """A note laid in a zone (k-th place in it), a hand over it for one frame, then still for two."""
        nonlocal frame
        c = zones[zone].centre_mm
        w, h = NOTE_SIZE_MM
        x = c[0] - w / 2 + ((k - 1) * (w + 20) if zone == "board" else 0) - (w + 20 if zone == "board" else 0)
        y = c[1] - h / 2 + (0 if zone == "board" else (k - 1.5) * (h + 8))
        table.notes[serial] = (x, y)
        table.hand = (x + 40, y + 10)
        run(session, table, [frame])
        table.hand = None
        run(session, table, [frame + 1, frame + 2, frame + 3])
        frame += 4

    run(session, table, [0, 1])
    frame = 2
    deal = [("1119111", "board", 1), ("1118111", "board", 2), ("1117111", "board", 3),
            ("1111111", "P1", 1), ("2222222", "P1", 2), ("9999999", "P2", 1), ("9990999", "P2", 2)]
    for serial, zone, k in deal[:2]:
        place(serial, zone, k)
    view = session.view()
    assert view.street == "turn" and view.board_serials == ("1119111", "1118111")
    # every note read in two frames, nothing read from the one with the hand
    assert all(len(t.reads) >= 2 and t.serial is not None for t in session.tracker)
    for serial, zone, k in deal[2:]:
        place(serial, zone, k)
    view = session.view()
    want = result_to_json(evaluate(parse_hand({"position": 4, "board": ["1119111", "1118111", "1117111"],
                                               "dealer": "P1", "players": [
                                                   {"name": "P1", "pocket": ["1111111", "2222222"]},
                                                   {"name": "P2", "pocket": ["9999999", "9990999"]}]})))
    assert view.complete and list(view.winners) == want["winners"] == ["P2"]
    assert view.board_serials == ("1119111", "1118111", "1117111")  # in the order dealt
    assert view.seat("P1").serials == ("1111111", "2222222")
    # the croupier collects the notes: the hand is logged and the next one starts, button moved
    table.notes.clear()
    run(session, table, [frame, frame + 1, frame + 2])
    assert session.state.hand_number == 2 and session.state.dealer == "P2"
    (record,), warnings = read_log(log.path)
    assert warnings == [] and record["end"] == "table cleared" and record["winners"] == ["P2"]
    assert len(session.tracker) == 0


def test_notes_already_on_the_table_are_found_at_start():
    profile = plain_profile(SIZE, SEATS)
    zones = {z.name: z for z in profile.table.zones}
    table = Table(profile)
    c = zones["board"].centre_mm
    table.notes["5550555"] = (c[0] - NOTE_SIZE_MM[0] / 2, c[1] - NOTE_SIZE_MM[1] / 2)
    session = LiveSession(profile, TableState(tuple(SEATS), 4), InlineWorker(read=table.read), LiveOptions())
    run(session, table, [0, 1, 2])
    assert [t.serial for t in session.tracker] == ["5550555"]
    assert session.view().board_serials == ("5550555",)


def _one_print_reader(table: Table, jobs: list):
    """The stand-in reader, seeing only each note's top-right print (the left one under a thumb, say)."""

    def read(job):
        jobs.append(job)
        out = []
        for ob in table.read(job):
            p = ob.print_quads_mm[0]
            out.append(Observation(ob.quad_mm, ob.serial, ob.confidence, "trusted", "", (p,), p.mean(axis=0)))
        return out

    return read


def test_a_note_seen_by_one_print_is_confirmed_from_that_print_without_detection():
    profile = plain_profile(SIZE, SEATS)
    zones = {z.name: z for z in profile.table.zones}
    table = Table(profile)
    jobs: list = []
    session = LiveSession(profile, TableState(tuple(SEATS), 4), InlineWorker(read=_one_print_reader(table, jobs)),
                          LiveOptions())
    run(session, table, [0, 1])
    c = zones["board"].centre_mm
    table.notes["4444444"] = (c[0] - NOTE_SIZE_MM[0] / 2, c[1] - NOTE_SIZE_MM[1] / 2)
    run(session, table, [2, 3, 4])
    (track,) = list(session.tracker)
    assert track.serial == "4444444"
    confirms = [j for j in jobs if j.kind == "confirm"]
    # the second read re-reads the one print seen (the reader skips its text detector for hints)
    assert confirms and len(confirms[0].hints_mm) == 1
    assert np.allclose(confirms[0].hints_mm[0], print_quad(*table.notes["4444444"], TOP_RIGHT_PRINT_MM))


def test_a_print_without_a_serial_on_no_known_note_gets_a_read_of_all_the_note_around_it():
    """A hand over a note when it is placed, then only the hand's place changes as it leaves:
    the read of that place sees one print of the note and no serial. The whole note is read later."""
    profile = plain_profile(SIZE, SEATS)
    zones = {z.name: z for z in profile.table.zones}
    table = Table(profile)
    jobs: list = []
    serial = "7654321"

    def read(job):
        jobs.append(job)
        out = table.read(job)
        if out or serial not in table.notes:
            return out
        # the note is not wholly in view (or is under the hand): its top-right print, if in view, gives no serial
        p = print_quad(*table.notes[serial], TOP_RIGHT_PRINT_MM)
        x0, y0, x1, y1 = job.region_mm
        if p[:, 0].min() >= x0 and p[:, 0].max() <= x1 and p[:, 1].min() >= y0 and p[:, 1].max() <= y1:
            out.append(Observation(p.copy(), None, 0.0, "unreadable", "the reads disagree", (p,), p.mean(axis=0)))
        return out

    session = LiveSession(profile, TableState(tuple(SEATS), 4), InlineWorker(read=read), LiveOptions())
    run(session, table, [0, 1])
    c = zones["P1"].centre_mm
    table.notes[serial] = (c[0] - NOTE_SIZE_MM[0] / 2, c[1] - NOTE_SIZE_MM[1] / 2)
    x, y = table.notes[serial]
    table.hand = (x + 60, y + 5)  # over the note's middle and its top-right print's left end
    run(session, table, [2, 3])
    table.hand = None
    run(session, table, [4, 5, 6, 7])
    retries = [j for j in jobs if j.kind == "retry"]
    note = note_quad(x, y)
    assert any(j.region_mm[0] <= note[:, 0].min() and note[:, 0].max() <= j.region_mm[2]
               and j.region_mm[1] <= note[:, 1].min() and note[:, 1].max() <= j.region_mm[3] for j in retries)
    assert [t.serial for t in session.tracker] == [serial]


def _late_reader(table: Table, serial: str, from_frame: int):
    """The stand-in reader, except that ``serial`` gives no serial before ``from_frame`` (glare, say)."""

    def read(job):
        out = []
        for ob in table.read(job):
            if ob.serial == serial and job.frame < from_frame:
                ob = Observation(ob.quad_mm, None, 0.0, "unreadable", "the reads disagree", ob.print_quads_mm,
                                 ob.anchor_mm)
            out.append(ob)
        return out

    return read


def test_a_note_still_unreadable_after_its_attempts_is_read_again_now_and_then():
    profile = plain_profile(SIZE, SEATS)
    zones = {z.name: z for z in profile.table.zones}
    results = {}
    for recheck in (1.0, None):
        table = Table(profile)
        session = LiveSession(profile, TableState(tuple(SEATS), 4), InlineWorker(read=_late_reader(table, "3213213", 10)),
                              LiveOptions(recheck_s=recheck))
        run(session, table, [0, 1])
        c = zones["board"].centre_mm
        table.notes["3213213"] = (c[0] - NOTE_SIZE_MM[0] / 2, c[1] - NOTE_SIZE_MM[1] / 2)
        run(session, table, list(range(2, 22)))  # 5 s of a still table at 4 frames per second
        (track,) = list(session.tracker)
        results[recheck] = (track.serial, len(track.reads))
    assert results[1.0][0] == "3213213"
    # without rechecks the note is read its attempts and then left unreadable: 2 N = 6, as its reads found
    # both prints (re-read at those two windows alone, a tenth of a read with the text detector)
    assert results[None] == (None, 6)
    # rechecks are rare: about one a second, not one a frame
    assert results[1.0][1] <= 6 + 5


def test_live_frames_of_one_print_never_trust_a_fanned_note():
    # issue 21, the one-print rule in live mode: a fanned pocket note shows one print; every frame's read
    # finds the same 7 digits there and the reader does not trust them alone. However many frames are
    # read, the seat's note stays without a serial and the hand undecided; when its second print shows
    # (the reader trusts it in two frames), it is trusted
    profile = plain_profile(SIZE, SEATS)
    zones = {z.name: z for z in profile.table.zones}
    table = Table(profile)
    hidden = {"on": True}
    why = "only one print shows the serial (4444444) and the engines are not sure of every digit; check it by eye"

    def read(job):
        out = []
        for ob in table.read(job):
            if job.kind is JobKind.SCAN or not hidden["on"]:
                out.append(ob)
                continue
            p = ob.print_quads_mm[0]
            out.append(Observation(ob.quad_mm, None, 0.0, "unreadable", why, (p,), p.mean(axis=0), placed=True,
                                   disputed=("4444444",)))
        return out

    session = LiveSession(profile, TableState(tuple(SEATS), 4), InlineWorker(read=read), LiveOptions())
    run(session, table, [0, 1])
    c = zones["P1"].centre_mm
    table.notes["4444444"] = (c[0] - NOTE_SIZE_MM[0] / 2, c[1] - NOTE_SIZE_MM[1] / 2)
    run(session, table, list(range(2, 30)))
    (track,) = list(session.tracker)
    assert len(track.reads) >= 4  # read again and again (frames of one print)
    assert track.serial is None and track.status == "unreadable"
    assert not any(e.kind == "trusted" for e, _ in session.events)
    assert "4444444" not in [n.serial for n in session.notes()]
    hidden["on"] = False
    table.hand = (c[0], c[1])  # the player's hand moves: the note is read again where it changed
    run(session, table, [30])
    table.hand = None
    run(session, table, list(range(31, 40)))
    assert [t.serial for t in session.tracker] == ["4444444"]
