"""The OCR worker's region reads: sizes in mm, where notes are placed, what is kept.

The reader's engines are stand-ins: a stand-in reader returns decided notes and runs the reader's own
last stage over them (:func:`dealer_assist.vision.grouping.settle_notes`: placement and joining), as
:class:`~dealer_assist.vision.reader.SerialReader` does, so the placing and joining rules are the reader's.
"""

from __future__ import annotations

import dataclasses
from types import SimpleNamespace

import numpy as np
import pytest

from dealer_assist.calibration.profile import NoteLayout, PrintLayout
from dealer_assist.live.worker import CUT, InlineWorker, ReadJob, job_hints, note_box_around_print, read_region
from dealer_assist.vision.fastpath import notes_from_layout
from dealer_assist.vision.geometry import LEFT_PRINT_MM, NOTE_SIZE_MM, TOP_RIGHT_PRINT_MM
from dealer_assist.vision.grouping import disputed_values, settle_notes
from dealer_assist.vision.model import NoteRead, Print
from dealer_assist.vision.ocr import LineRead
from dealer_assist.vision.prints import detect_lines
from dealer_assist.vision.serials import parse_serial_text

PPM = 3.5
REGION = (100.0, 200.0, 400.0, 400.0)  # table mm: a 300 x 200 mm view, 1050 x 700 px


def job(kind="discover", core=REGION, hints=()) -> ReadJob:
    w = int((REGION[2] - REGION[0]) * PPM)
    h = int((REGION[3] - REGION[1]) * PPM)
    return ReadJob(1, 7, 1.75, kind, REGION, core, PPM, np.zeros((h, w, 3), np.uint8), hints)


def px(x_mm: float, y_mm: float) -> tuple[float, float]:
    return (x_mm - REGION[0]) * PPM - 0.5, (y_mm - REGION[1]) * PPM - 0.5


def upright_note(x_mm: float, y_mm: float):
    """A note's quad and its two print quads (view px) for a note upright with its top-left at (x, y) mm."""
    w, h = NOTE_SIZE_MM
    quad = np.array([px(x_mm, y_mm), px(x_mm + w, y_mm), px(x_mm + w, y_mm + h), px(x_mm, y_mm + h)])

    def pq(c):
        cx, cy = x_mm + c[0], y_mm + c[1]
        return np.array([px(cx - 12, cy - 2.5), px(cx + 12, cy - 2.5), px(cx + 12, cy + 2.5), px(cx - 12, cy + 2.5)])

    return quad, pq(TOP_RIGHT_PRINT_MM), pq(LEFT_PRINT_MM)


def a_print(quad, values=(), cut=False, engine="rapidocr"):
    """A print at ``quad`` (view px) whose reads by ``engine`` named ``values``."""
    reads = [(LineRead(v, 0.9, engine), parse_serial_text(v)) for v in values]
    return Print(quad=np.asarray(quad, np.float32), crop=np.zeros((1, 1, 3), np.uint8), reads=reads, cut=cut)


def note_read(serial, quad, prints, status="trusted", cut=False):
    return NoteRead(serial, None, 0.9 if serial else 0.0, np.asarray(quad, np.float32), status,
                    "" if serial else "the reads disagree",
                    [a_print(p, [serial] if serial else [], cut=cut) for p in prints])


class Reader:
    """A stand-in for the reader: its notes as decided, through the reader's last stage."""

    def __init__(self, notes) -> None:
        self.notes = notes

    def read(self, image, hints=None):
        return settle_notes(self.notes, image, hints)


def test_a_note_read_by_both_prints_is_placed_by_them():
    quad, top, left = upright_note(150, 250)
    wrong = quad + 400  # the reader's edge snap caught something else
    (ob,) = read_region(Reader([note_read("1234567", wrong, [top, left])]), job())
    assert ob.serial == "1234567" and ob.confidence == 0.9
    assert ob.quad_mm.mean(axis=0) == pytest.approx((150 + 78.5, 250 + 34.5), abs=3)
    assert len(ob.print_quads_mm) == 2
    assert ob.anchor == pytest.approx(np.mean([np.mean(p, axis=0) for p in ob.print_quads_mm], axis=0))


def test_one_print_is_taken_as_whichever_print_puts_the_note_in_view():
    quad, top, left = upright_note(230, 300)  # the note's right part reaches x 387: in view
    # the reader guessed the print was the top-right one: the note would reach out of the view
    guess = quad - [PPM * 105, 0]
    (ob,) = read_region(Reader([note_read("1234567", guess, [left])]), job())
    assert ob.quad_mm.mean(axis=0) == pytest.approx((230 + 78.5, 300 + 34.5), abs=4)


def test_a_note_whose_other_print_is_out_of_view_is_left_to_another_read():
    # a print by the view's bottom-left corner: taken as either print, the note reaches well out of the view
    quad, top, left = upright_note(105 - LEFT_PRINT_MM[0], 395 - LEFT_PRINT_MM[1])
    (ob,) = read_region(Reader([note_read("1234567", quad, [left])]), job())
    # no serial from it here: a CUT observation, for the session to read the note's own place
    assert (ob.serial, ob.status) == (None, CUT)
    assert ob.anchor == pytest.approx((105, 395), abs=1)


def test_a_confirm_read_keeps_its_note_read_by_one_print_wherever_the_view_ends():
    # the same print by the view's corner; a confirm read was asked for this note (it has hints)
    quad, top, left = upright_note(105 - LEFT_PRINT_MM[0], 395 - LEFT_PRINT_MM[1])
    hint = np.array([[100.0, 390.0], [110.0, 390.0], [110.0, 396.0], [100.0, 396.0]])
    (ob,) = read_region(Reader([note_read("1234567", quad, [left])]), job("confirm", hints=(hint,)))
    assert ob.serial == "1234567" and ob.anchor == pytest.approx((105, 395), abs=1)


def test_the_box_around_a_print_holds_its_note_whichever_print_and_way_up_it_is():
    w, h = NOTE_SIZE_MM
    for angle in (0.0, 90.0, 33.0, 180.0):
        rot = np.deg2rad(angle)
        r = np.array([[np.cos(rot), -np.sin(rot)], [np.sin(rot), np.cos(rot)]])
        note = np.array([[0, 0], [w, 0], [w, h], [0, h]], float) @ r.T + 500
        for centre in (TOP_RIGHT_PRINT_MM, LEFT_PRINT_MM):
            p = np.array([[centre[0] - 12, centre[1] - 2.5], [centre[0] + 12, centre[1] - 2.5],
                          [centre[0] + 12, centre[1] + 2.5], [centre[0] - 12, centre[1] + 2.5]]) @ r.T + 500
            for q in (p, p[[2, 3, 0, 1]]):  # the print's way up unknown: its quad may start at either end
                x0, y0, x1, y1 = note_box_around_print(q)
                assert (note[:, 0] >= x0 - 1e-6).all() and (note[:, 0] <= x1 + 1e-6).all()
                assert (note[:, 1] >= y0 - 1e-6).all() and (note[:, 1] <= y1 + 1e-6).all()
                if angle % 90 == 0:  # and not the whole table: about 2 x 2 notes around an axis-aligned print
                    assert (x1 - x0) * (y1 - y0) < 4.5 * w * h


def test_a_note_cut_by_the_edge_without_a_serial_is_left_to_a_read_of_its_place():
    quad, top, left = upright_note(150, 250)
    (ob,) = read_region(Reader([note_read(None, quad, [top], "unreadable", cut=True)]), job())
    assert (ob.serial, ob.status, ob.confidence) == (None, CUT, 0.0)


def test_two_prints_read_apart_are_joined_into_one_note():
    quad, top, left = upright_note(150, 250)
    notes = [note_read("1234567", quad, [top]), note_read(None, quad, [left], "unreadable")]
    (ob,) = read_region(Reader(notes), job())
    assert ob.serial == "1234567" and len(ob.print_quads_mm) == 2


class LineFinder:
    """A stand-in for the reader's line search (``find_lines``): its line quads (view px); reading is an error."""

    def __init__(self, lines) -> None:
        self.lines = lines
        self.hints = None

    def find_lines(self, image, hints=None):
        self.hints = hints
        return [np.asarray(q, np.float32) for q in self.lines]

    def read(self, image, hints=None):
        raise AssertionError("a scan reads no serial")


def test_a_scan_finds_lines_centred_in_its_core_and_reads_none():
    quad, top, left = upright_note(150, 250)  # top print at x ~ 281 mm, left print at x ~ 168 mm
    finder = LineFinder([top, left])
    core = (250.0, 200.0, 400.0, 400.0)
    (ob,) = read_region(finder, job("scan", core))
    assert finder.hints.px_per_mm == PPM and finder.hints.print_quads is None  # lines of a print's size only
    assert ob.serial is None and len(ob.print_quads_mm) == 1
    expected = np.array([[x / PPM, y / PPM] for x, y in np.asarray(top) + 0.5]) + [REGION[0], REGION[1]]
    np.testing.assert_allclose(ob.print_quads_mm[0], expected, atol=1e-6)
    np.testing.assert_allclose(ob.anchor_mm, expected.mean(axis=0), atol=1e-6)
    assert len(read_region(finder, job("scan", REGION))) == 2


def test_fast_path_notes_get_their_prints_from_the_layout():
    quad, top, left = upright_note(150, 250)
    w, h = NOTE_SIZE_MM
    layout = NoteLayout(2.28, (PrintLayout("top_right", ((TOP_RIGHT_PRINT_MM[0] - 12) / w, (TOP_RIGHT_PRINT_MM[1] - 2.5) / h,
                                                        (TOP_RIGHT_PRINT_MM[0] + 12) / w, (TOP_RIGHT_PRINT_MM[1] + 2.5) / h)),
                               PrintLayout("left", ((LEFT_PRINT_MM[0] - 12) / w, (LEFT_PRINT_MM[1] - 2.5) / h,
                                                    (LEFT_PRINT_MM[0] + 12) / w, (LEFT_PRINT_MM[1] + 2.5) / h))), 1)
    # the fast path found the note's outline and read both prints at the layout's ROIs
    reads = [("top_right", LineRead("АБ 1234567", 0.9, "rapidocr")), ("left", LineRead("АБ 1234567", 0.9, "rapidocr"))]
    notes = notes_from_layout([("1234567", np.asarray(quad, np.float32), reads)], layout)
    (ob,) = read_region(Reader(notes), job())
    centres = sorted(tuple(np.mean(p, axis=0)) for p in ob.print_quads_mm)
    want = sorted([(150 + TOP_RIGHT_PRINT_MM[0], 250 + TOP_RIGHT_PRINT_MM[1]), (150 + LEFT_PRINT_MM[0], 250 + LEFT_PRINT_MM[1])])
    assert centres[0] == pytest.approx(want[0], abs=0.5) and centres[1] == pytest.approx(want[1], abs=0.5)


def test_the_reader_keeps_serial_sized_lines_and_returns_hints():
    boxes = [np.array([[0, 0], [w * PPM, 0], [w * PPM, h * PPM], [0, h * PPM]], np.float32)
             for w, h in ((35, 9), (80, 11), (6, 6), (30, 40))]
    base = SimpleNamespace(name="stub", detect=lambda image: boxes, is_upside_down=lambda c: (False, 1.0),
                           recognize=lambda c: None)
    hints = job_hints(job())
    kept = detect_lines(np.zeros((10, 10, 3), np.uint8), base, hints)
    assert len(kept) == 1 and kept[0] is boxes[0]  # a print-sized line; not a header, a dot, or a block
    hint = np.array([[1, 1], [90, 1], [90, 20], [1, 20]], np.float32)
    hinted = job_hints(job("confirm", hints=((hint + 0.5) / PPM + REGION[:2],)))
    assert [np.round(h, 3).tolist() for h in detect_lines(np.zeros((10, 10, 3), np.uint8), base, hinted)] == [hint.tolist()]


def test_the_detector_looks_for_lines_at_the_detection_scale_and_they_are_read_in_the_view():
    # a 1050 x 700 px view at 3.5 px/mm, detected at 1.75 px/mm: the detector sees 525 x 350 px, and the
    # line it finds there (a 24 x 5 mm print) comes back in the view's pixels, where it is read
    seen = []
    small_box = np.array([[100, 50], [142, 50], [142, 58.75], [100, 58.75]], np.float32)

    def detect(image):
        seen.append(image.shape[:2])
        return [small_box]

    base = SimpleNamespace(name="stub", detect=detect)
    view = np.zeros((700, 1050, 3), np.uint8)
    (line,) = detect_lines(view, base, dataclasses.replace(job_hints(job()), detect_px_per_mm=1.75))
    assert seen == [(350, 525)]
    np.testing.assert_allclose(line, (small_box + 0.5) * 2 - 0.5)
    # a job carries its detection scale to the reader's hints; none: the view's own scale
    assert job_hints(dataclasses.replace(job(), detect_px_per_mm=1.9)).detect_px_per_mm == 1.9
    detect_lines(view, base, job_hints(job()))
    assert seen[-1] == (700, 1050)


def test_inline_worker_reports_errors_as_a_sentence():
    def boom(job):
        raise RuntimeError("the OCR engine is missing")

    worker = InlineWorker(read=boom)
    assert worker.submit(job())
    (result,) = worker.poll()
    assert result.error == "the OCR engine is missing." and result.observations == ()
    assert worker.poll() == []


def disputed_read(quad, prints_and_values):
    """A note the reader left unreadable, each print with the 7-digit values its engines gave."""
    prints = [a_print(p, vs) for p, vs in prints_and_values]
    return NoteRead(None, None, 0.0, np.asarray(quad, np.float32), "unreadable", "the reads disagree", prints,
                    disputed=disputed_values(prints))


def test_a_note_whose_reads_disagreed_carries_the_values_they_named():
    quad, top, left = upright_note(150, 250)
    (ob,) = read_region(Reader([disputed_read(quad, [(top, ["8708589", "8708689"]), (left, ["8708689"])])]), job())
    assert ob.serial is None and ob.disputed == ("8708589", "8708689")


def test_a_print_naming_another_serial_on_a_read_note_makes_it_disputed():
    quad, top, left = upright_note(150, 250)
    notes = [note_read("8708589", quad, [top]), disputed_read(quad, [(left, ["8708689", "3708689"])])]
    (ob,) = read_region(Reader(notes), job())
    assert ob.serial is None and ob.status == "unreadable"
    assert ob.disputed == ("3708689", "8708589", "8708689") and len(ob.print_quads_mm) == 2


def test_a_print_naming_the_same_serial_joins_the_read_note():
    quad, top, left = upright_note(150, 250)
    notes = [note_read("8708689", quad, [top]), disputed_read(quad, [(left, ["8708689"])])]
    (ob,) = read_region(Reader(notes), job())
    assert ob.serial == "8708689" and ob.disputed == ()


def test_tesseract_s_values_do_not_dispute_a_note():
    quad, top, left = upright_note(150, 250)
    p = a_print(top, ["8708689"])
    p.reads += a_print(top, ["3708689"], engine="tesseract").reads
    note = NoteRead(None, None, 0.0, np.asarray(quad, np.float32), "unreadable", "", [p], disputed=disputed_values([p]))
    (ob,) = read_region(Reader([note]), job())
    assert ob.disputed == ("8708689",)


def test_a_dim_view_is_brightened_for_the_reader_and_a_bright_one_left_alone():
    """exposed_for_reading: paper below VIEW_PAPER_LEVEL is raised to it by one gain (at most MAX_VIEW_GAIN);
    a well-exposed view is the same array; nothing is darkened. read_region hands the reader the brightened
    view (set-up D's dim lamp: the text detector found no line on dark views of notes plain to the eye)."""
    from dealer_assist.live.changes import MAX_VIEW_GAIN, VIEW_PAPER_LEVEL, exposed_for_reading

    dim = np.full((100, 200, 3), 30, np.uint8)
    dim[20:60, 40:160] = 110  # a note's paper under a dim lamp
    dim[35:40, 60:100] = 50  # its digits
    out = exposed_for_reading(dim)
    gain = VIEW_PAPER_LEVEL / 110
    assert out[30, 50, 0] == pytest.approx(235, abs=1) and out[37, 70, 0] == pytest.approx(50 * gain, abs=1)
    assert out[5, 5, 0] == pytest.approx(30 * gain, abs=1)  # one gain everywhere: the contrast ratio kept
    bright = dim.copy()
    bright[20:60, 40:160] = 240
    assert exposed_for_reading(bright) is bright
    room = dim.copy()
    room[20:60, 40:160] = 180  # a room-lit view (would need 1.3): left alone
    assert exposed_for_reading(room) is room
    dark = np.full((50, 50, 3), 20, np.uint8)
    assert exposed_for_reading(dark)[0, 0, 0] == pytest.approx(20 * MAX_VIEW_GAIN, abs=1)  # the gain is capped

    seen = []

    class Looking:
        def read(self, image, hints=None):
            seen.append(np.percentile(image, 99.5))
            return []

    j = job()
    j = dataclasses.replace(j, image=np.full_like(j.image, 100))
    read_region(Looking(), j)
    assert seen == [pytest.approx(235, abs=1)]
