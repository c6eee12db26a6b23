"""Two prints agreeing are two pieces of evidence only when no read contradicts a digit one of them is unsure of.

The reads below are those of a real 1000-rouble note (serial 2744194) seen upside down at
2.5 px/mm on the far side of ``bench_live_real.py`` set-up B: PP-OCRv6 read 2744199 on both prints,
sure of the last 9 on one print (0.986) and not on the other (0.711), where PP-OCRv4 read "62744194"
(the true 2744194). Before ``two_print_each_min_char_prob`` the note was trusted as 2744199 and the
hand paid the wrong player. The second case is the clean real_101 photo, where one print's 3 is unsure
(0.68) and PP-OCRv4 backs it (0.993): it stays trusted.
"""

from __future__ import annotations

import dataclasses

import numpy as np

from dealer_assist.vision.geometry import LEFT_PRINT_MM, TOP_RIGHT_PRINT_MM
from dealer_assist.vision.model import Evidence, NoteStatus, Print
from dealer_assist.vision.ocr import LineRead
from dealer_assist.vision.params import DEFAULT_PARAMS
from dealer_assist.vision.serials import parse_serial_text
from dealer_assist.vision.trust import decide

from trust_helpers import PX_PER_MM, FakeEngine
from trust_helpers import print_box as _box


def _print(centre_mm, text: str, probs, tag: int) -> Print:
    read = LineRead(text, float(np.mean(probs)), "rapidocr", tuple(probs))
    crop = np.full((8, 40, 3), tag, np.uint8)
    return Print(quad=_box(centre_mm), crop=crop, reads=[(read, parse_serial_text(text))])


def _note(top_probs, left_probs, v4_answers):
    prints = [_print(TOP_RIGHT_PRINT_MM, "6Я 2744199", top_probs, 1),
              _print(LEFT_PRINT_MM, "68 2744199", left_probs, 2)]
    v4 = FakeEngine("ppocr-v4", v4_answers)
    tesseract = FakeEngine("tesseract", {1: LineRead("", 0.0, "tesseract"), 2: LineRead("", 0.0, "tesseract")})
    return decide(prints, (v4, tesseract), "rapidocr", DEFAULT_PARAMS, PX_PER_MM), v4


SURE_TOP = (0.919, 0.95, 0.95, 1.0, 1.0, 0.995, 0.96, 0.978, 0.96, 0.986)
UNSURE_LEFT = (0.9, 0.9, 0.942, 0.999, 0.999, 0.991, 0.988, 0.993, 0.947, 0.711)


def test_a_digit_one_print_is_unsure_of_and_the_second_engine_reads_otherwise_is_not_trusted():
    v4 = {1: LineRead("6Я2744199", 0.8, "ppocr-v4", (0.5,) * 2 + (0.97, 0.9, 0.9, 0.9, 0.99, 0.93, 0.77)),
          2: LineRead("62744194", 0.8, "ppocr-v4", (0.83, 0.983, 0.971, 0.831, 0.81, 0.929, 0.694, 0.427))}
    note, engine = _note(SURE_TOP, UNSURE_LEFT, v4)
    assert note.status is NoteStatus.UNREADABLE
    assert note.serial is None
    assert "7th digit" in note.reason
    assert engine.asked == 2


def test_without_the_each_print_rule_the_same_reads_were_trusted_wrong():
    prints = [_print(TOP_RIGHT_PRINT_MM, "6Я 2744199", SURE_TOP, 1),
              _print(LEFT_PRINT_MM, "68 2744199", UNSURE_LEFT, 2)]
    old = dataclasses.replace(DEFAULT_PARAMS, two_print_each_min_char_prob=None)
    note = decide(prints, (), "rapidocr", old, PX_PER_MM)
    assert (note.serial, note.status) == ("2744199", NoteStatus.TRUSTED)


def test_a_digit_one_print_is_unsure_of_and_the_second_engine_backs_is_trusted():
    probs = (0.901, 0.981, 0.894, 1.0, 1.0, 1.0, 1.0, 1.0, 0.68, 1.0)  # real_101's left print: the 3
    prints = [Print(quad=_box(TOP_RIGHT_PRINT_MM), crop=np.full((8, 40, 3), 1, np.uint8),
                    reads=[(LineRead("bE 4694539", 0.95, "rapidocr", (0.99,) * 10),
                            parse_serial_text("bE 4694539"))]),
              Print(quad=_box(LEFT_PRINT_MM), crop=np.full((8, 40, 3), 2, np.uint8),
                    reads=[(LineRead("bE 4694539", 0.95, "rapidocr", probs), parse_serial_text("bE 4694539"))])]
    v4 = FakeEngine("ppocr-v4", {
        1: LineRead("bE4694539", 0.9, "ppocr-v4", (0.93, 0.94, 0.95, 0.994, 0.991, 0.99, 0.992, 0.921, 0.992)),
        2: LineRead("bE 4694539", 0.9, "ppocr-v4", (0.674, 0.973, 0.557, 0.996, 0.993, 0.997, 0.978, 0.997,
                                                    0.993, 0.996))})
    tesseract = FakeEngine("tesseract", {1: LineRead("", 0.0, "tesseract"), 2: LineRead("", 0.0, "tesseract")})
    note = decide(prints, (v4, tesseract), "rapidocr", DEFAULT_PARAMS, PX_PER_MM)
    assert (note.serial, note.status, note.evidence) == ("4694539", NoteStatus.TRUSTED, Evidence.TWO_PRINTS)


def test_two_prints_each_sure_of_every_digit_need_no_second_engine():
    v4 = {}
    note, engine = _note(SURE_TOP, SURE_TOP, v4)
    assert (note.serial, note.status, note.evidence) == ("2744199", NoteStatus.TRUSTED, Evidence.TWO_PRINTS)
    assert engine.asked == 0


def test_a_digit_one_print_is_unsure_of_stands_when_no_engine_reads_another_there():
    # a synthetic specimen note of bench_live_recorded.py (2672838 at ~1.8 px/mm): the top print is unsure
    # of its 5th and 6th digits; PP-OCRv4 reads only 6 digits there, nothing that contradicts them
    unsure = (0.997, 0.997, 0.998, 0.997, 0.649, 0.481, 0.948)
    prints = [Print(quad=_box(TOP_RIGHT_PRINT_MM), crop=np.full((8, 40, 3), 1, np.uint8),
                    reads=[(LineRead("2672838", 0.9, "rapidocr", unsure), parse_serial_text("2672838"))]),
              Print(quad=_box(LEFT_PRINT_MM), crop=np.full((8, 40, 3), 2, np.uint8),
                    reads=[(LineRead("ay 2672838", 0.95, "rapidocr", (0.652, 0.999, 0.965) + (1.0,) * 7),
                            parse_serial_text("ay 2672838"))])]
    v4 = FakeEngine("ppocr-v4", {1: LineRead("267278", 0.6, "ppocr-v4", (0.839, 0.578, 0.74, 0.755, 0.32, 0.685)),
                                 2: LineRead("qy2672838", 0.9, "ppocr-v4", (0.453,) + (0.99,) * 8)})
    tesseract = FakeEngine("tesseract", {1: LineRead("", 0.0, "tesseract"), 2: LineRead("чу 2672838", 0.0, "tesseract")})
    note = decide(prints, (v4, tesseract), "rapidocr", DEFAULT_PARAMS, PX_PER_MM)
    assert (note.serial, note.status, note.evidence) == ("2672838", NoteStatus.TRUSTED, Evidence.TWO_PRINTS)
    assert v4.asked == 2  # the unsure print was read by the cross-check engine before it was let stand
