"""The project's serial model is heard only when sure of every digit, and never trusts a value alone.

The first reads are those of real_hands' hand_06 board-3.jpg (note 7273916, one print in the photo):
PP-OCRv6 and PP-OCRv4 read it right and surely; the serial model read 7273906 with the wrong digit at
0.41. Heard as any engine, that read made "the reads disagree" and sent the hand to review.
"""

from __future__ import annotations

import dataclasses

import numpy as np

from dealer_assist.vision.geometry import LEFT_PRINT_MM, TOP_RIGHT_PRINT_MM
from dealer_assist.vision.model import Evidence, NoteStatus, Print
from dealer_assist.vision.ocr import LineRead
from dealer_assist.vision.params import DEFAULT_PARAMS
from dealer_assist.vision.recognizer import SERIAL_CTC
from dealer_assist.vision.serials import parse_serial_text
from dealer_assist.vision.trust import decide, heard

from trust_helpers import PX_PER_MM, FakeEngine
from trust_helpers import print_box as _box


V6_READ = LineRead("kb 7273916", 0.9, "rapidocr", (0.525, 0.985, 0.773, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 0.999))
V4_READ = LineRead("Hb7273916", 0.9, "ppocr-v4", (0.531, 0.772, 0.987, 0.997, 0.995, 0.988, 0.998, 0.997, 0.996))
MODEL_PROBS = (0.351, 0.338, 0.998, 0.992, 0.998, 1.0, 0.941, 0.927, 0.41, 0.866)  # the 0 at 0.41


def _one_print(v6: LineRead, v4: LineRead, model: LineRead):
    p = Print(quad=_box(TOP_RIGHT_PRINT_MM), crop=np.full((8, 40, 3), 1, np.uint8),
              reads=[(v6, parse_serial_text(v6.text))])
    engines = (FakeEngine("ppocr-v4", {1: v4}), FakeEngine(SERIAL_CTC, {1: model}),
               FakeEngine("tesseract", {1: LineRead("- и пола в", 0.3, "tesseract")}))
    return decide([p], engines, "rapidocr", DEFAULT_PARAMS, PX_PER_MM)


def test_an_unsure_model_misread_does_not_block_the_note():
    note = _one_print(V6_READ, V4_READ, LineRead("КЯ 7273906", 0.8, SERIAL_CTC, MODEL_PROBS))
    assert (note.serial, note.status, note.evidence) == ("7273916", NoteStatus.TRUSTED, Evidence.ONE_PRINT)
    # the read is kept for the person, not parsed as a vote
    model_reads = [(r, ss) for r, ss in note.prints[0].reads if r.engine == SERIAL_CTC]
    assert [(r.text, ss) for r, ss in model_reads] == [("КЯ 7273906", [])]


def test_a_sure_model_read_of_another_value_blocks_the_note():
    sure = MODEL_PROBS[:2] + (0.998, 0.992, 0.998, 1.0, 0.941, 0.927, 0.95, 0.97)
    note = _one_print(V6_READ, V4_READ, LineRead("КЯ 7273906", 0.9, SERIAL_CTC, sure))
    assert note.status is NoteStatus.UNREADABLE and note.serial is None
    assert "7273906" in note.reason and "7273916" in note.reason


def test_the_model_and_pp_ocr_each_sure_are_two_engines_on_one_print():
    v4_nothing = LineRead("Hb72739", 0.5, "ppocr-v4", (0.5,) * 7)
    sure = (0.6, 0.6) + (0.99,) * 8
    note = _one_print(V6_READ, v4_nothing, LineRead("КЯ 7273916", 0.9, SERIAL_CTC, sure))
    assert (note.serial, note.status, note.evidence) == ("7273916", NoteStatus.TRUSTED, Evidence.ONE_PRINT)
    unsure = sure[:-1] + (0.89,)
    note = _one_print(V6_READ, v4_nothing, LineRead("КЯ 7273916", 0.9, SERIAL_CTC, unsure))
    assert note.status is NoteStatus.UNREADABLE


def test_the_model_alone_on_two_prints_trusts_nothing():
    short = LineRead("kb 727391", 0.6, "rapidocr", (0.5,) * 9)  # PP-OCRv6 reads 6 digits on both
    prints = [Print(quad=_box(c), crop=np.full((8, 40, 3), t, np.uint8), reads=[(short, parse_serial_text(short.text))])
              for c, t in ((TOP_RIGHT_PRINT_MM, 1), (LEFT_PRINT_MM, 2))]
    sure = LineRead("КЯ 7273916", 0.95, SERIAL_CTC, (0.9,) * 2 + (0.99,) * 8)
    nothing = {k: LineRead("", 0.0, "x") for k in (1, 2)}
    engines = (FakeEngine("ppocr-v4", nothing), FakeEngine(SERIAL_CTC, {1: sure, 2: sure}),
               FakeEngine("tesseract", nothing))
    note = decide(prints, engines, "rapidocr", DEFAULT_PARAMS, PX_PER_MM)
    assert note.status is NoteStatus.UNREADABLE and note.serial is None
    assert "only the serial model" in note.reason


def test_heard_needs_every_digit_at_the_threshold():
    probs = (0.3, 0.3) + (0.95,) * 8
    assert heard(LineRead("КЯ 7273916", 0.9, SERIAL_CTC, probs))  # the letters do not matter
    assert not heard(LineRead("КЯ 7273916", 0.9, SERIAL_CTC, probs[:-1] + (0.89,)))
    assert not heard(LineRead("", 0.0, SERIAL_CTC, ()))
    assert heard(LineRead("kb 7273916", 0.2, "rapidocr", (0.1,) * 10))  # other engines always count
    lower = dataclasses.replace(DEFAULT_PARAMS, model_min_char_prob=0.85)
    assert heard(LineRead("КЯ 7273916", 0.9, SERIAL_CTC, probs[:-1] + (0.89,)), lower)


GLUED_V6 = LineRead("kb7273916", 0.9, "rapidocr", (0.525, 0.985) + (1.0,) * 7)  # letters touching the digits
GLUED_V4 = LineRead("Hb7273916", 0.9, "ppocr-v4", (0.531, 0.772) + (0.99,) * 7)


def test_the_models_two_sure_letters_show_a_rubles_layout_on_one_print():
    # no PP-OCR read shows the gap after the letters (one_print_spaced); the model's letters stand for it
    model = LineRead("КЯ 7273916", 0.95, SERIAL_CTC, (0.85, 0.81) + (0.99,) * 8)
    note = _one_print(GLUED_V6, GLUED_V4, model)
    assert (note.serial, note.status, note.evidence) == ("7273916", NoteStatus.TRUSTED, Evidence.ONE_PRINT)


def test_the_models_unsure_or_missing_letters_do_not():
    cases = [LineRead("КЯ 7273916", 0.95, SERIAL_CTC, (0.85, 0.79) + (0.99,) * 8),  # a letter under 0.8
             LineRead("7273916", 0.95, SERIAL_CTC, (0.99,) * 7),  # digits alone: the Polish note's look
             LineRead("КЦЯ 7273916", 0.95, SERIAL_CTC, (0.99,) * 11),  # three letters
             LineRead("КЯ 7273916", 0.95, SERIAL_CTC, (0.99,) * 2 + (0.99,) * 7 + (0.89,))]  # not heard
    for model in cases:
        note = _one_print(GLUED_V6, GLUED_V4, model)
        assert note.status is NoteStatus.UNREADABLE and note.serial is None, model.text
        assert "laid out as a ruble's" in note.reason, (model.text, note.reason)
    off = dataclasses.replace(DEFAULT_PARAMS, one_print_model_letters_min_prob=None)
    p = Print(quad=_box(TOP_RIGHT_PRINT_MM), crop=np.full((8, 40, 3), 1, np.uint8),
              reads=[(GLUED_V6, parse_serial_text(GLUED_V6.text))])
    sure = LineRead("КЯ 7273916", 0.95, SERIAL_CTC, (0.99,) * 10)
    engines = (FakeEngine("ppocr-v4", {1: GLUED_V4}), FakeEngine(SERIAL_CTC, {1: sure}))
    assert decide([p], engines, "rapidocr", off, PX_PER_MM).status is NoteStatus.UNREADABLE


def test_the_model_sure_and_pp_ocr_fairly_sure_are_two_families_on_one_print():
    # PP-OCRv6 reads the value with a digit at 0.85 (< one_print_min_char_prob), PP-OCRv4 nothing: the model
    # sure of every digit at model_first_min_char_prob makes the second engine of another family
    v6 = LineRead("kb 7273916", 0.9, "rapidocr", (0.5, 0.9) + (0.99,) * 7 + (0.85,))
    v4_nothing = LineRead("Hb72739", 0.5, "ppocr-v4", (0.5,) * 7)
    sure = LineRead("КЯ 7273916", 0.95, SERIAL_CTC, (0.9, 0.9) + (0.96,) * 8)
    note = _one_print(v6, v4_nothing, sure)
    assert (note.serial, note.status, note.evidence) == ("7273916", NoteStatus.TRUSTED, Evidence.ONE_PRINT)
    # the model at 0.94 (heard, but not sure enough to stand with a PP-OCR digit under 0.9)
    note = _one_print(v6, v4_nothing, LineRead("КЯ 7273916", 0.95, SERIAL_CTC, (0.9, 0.9) + (0.96,) * 7 + (0.94,)))
    assert note.status is NoteStatus.UNREADABLE and "not sure" in note.reason
    # PP-OCRv6 under 0.8 at a digit
    low = LineRead("kb 7273916", 0.9, "rapidocr", (0.5, 0.9) + (0.99,) * 7 + (0.79,))
    note = _one_print(low, v4_nothing, sure)
    assert note.status is NoteStatus.UNREADABLE and "not sure" in note.reason
