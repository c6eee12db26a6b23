"""The serial model read first: a note whose two prints it reads alone, each sure of every digit and
alike, is trusted without the general engines; anything else goes the general way, as without it.

The reader runs whole (:meth:`SerialReader.read`: detection, way up, the model, grouping, the trust
rules) on a blank photo with the two print boxes of a note lying flat at 6 px/mm; the engines are fakes
that answer by the crop's corner pixel. Each box is painted a tag on its upper half and the tag + 100 on
its lower half, so a crop turned over starts with the other number: the model tells the way up.
"""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from dealer_assist.vision.geometry import LEFT_PRINT_MM, TOP_RIGHT_PRINT_MM
from dealer_assist.vision.model import Evidence, NoteStatus, Print
from dealer_assist.vision.ocr import LineRead
from dealer_assist.vision.params import DEFAULT_PARAMS
from dealer_assist.vision.prints import model_read
from dealer_assist.vision.reader import SerialReader
from dealer_assist.vision.recognizer import SERIAL_CTC
from dealer_assist.vision.serials import parse_serial_text
from dealer_assist.vision.trust import model_two_prints

from trust_helpers import FakeEngine
from trust_helpers import print_box as _box

TOP, LEFT = 10, 20  # the two prints' tags (upright crop's first pixel); +100 turned over
SURE = (0.6, 0.7, 1.0) + (0.99,) * 7  # letters unsure, a space, every digit sure
NOTHING = LineRead("", 0.0, "x", ())
TAU = 0.95  # every digit at least this (ReaderParams.model_first_min_char_prob, as measured)
ON = dataclasses.replace(DEFAULT_PARAMS, model_first_min_char_prob=TAU)


def _photo(boxes, width: int = 960) -> np.ndarray:
    image = np.zeros((420, width, 3), np.uint8)
    for box, tag in boxes:
        (x0, y0), (x1, y1) = np.floor(box.min(axis=0)).astype(int) - 3, np.ceil(box.max(axis=0)).astype(int) + 3
        mid = (y0 + y1) // 2
        image[y0:mid, x0:x1] = tag
        image[mid:y1, x0:x1] = tag + 100
    return image


class FakePrimary(FakeEngine):
    """PP-OCRv6's stand-in: finds the given boxes, takes every crop as upright, reads by the crop's pixel."""

    def __init__(self, boxes, answers):
        super().__init__("rapidocr", answers)
        self.boxes = boxes

    def detect(self, image):
        return [b.copy() for b in self.boxes]

    def is_upside_down(self, crop):
        return False, 1.0

    def recognize(self, crop):
        self.asked += 1
        return self.answers.get(int(crop[0, 0, 0]), LineRead("", 0.0, "rapidocr", ()))


class FakeModel(FakeEngine):
    """The serial model's stand-in: reads nothing on a crop it has no answer for (turned over)."""

    def __init__(self, answers):
        super().__init__(SERIAL_CTC, answers)

    def recognize(self, crop):
        self.asked += 1
        return self.answers.get(int(crop[0, 0, 0]), LineRead("", 0.0, SERIAL_CTC, ()))

    def recognize_many(self, crops):
        return [self.recognize(c) for c in crops]


def _v6(text="АБ 1234567"):
    return LineRead(text, 0.97, "rapidocr", (0.9, 0.9, 0.99) + (0.99,) * 7)


def _model(text="АБ 1234567", probs=SURE):
    return LineRead(text, float(np.mean(probs)), SERIAL_CTC, probs)


def _read(model_answers, with_left=True, params=ON, width=960):
    boxes = [(_box(TOP_RIGHT_PRINT_MM), TOP)] + ([(_box(LEFT_PRINT_MM), LEFT)] if with_left else [])
    primary = FakePrimary([b for b, _ in boxes], {TOP: _v6(), LEFT: _v6()})
    v4 = FakeEngine("ppocr-v4", {TOP: LineRead("АБ1234567", 0.95, "ppocr-v4", (0.9, 0.9) + (0.99,) * 7),
                                 LEFT: LineRead("АБ1234567", 0.95, "ppocr-v4", (0.9, 0.9) + (0.99,) * 7)})
    tesseract = FakeEngine("tesseract", {TOP: NOTHING, LEFT: NOTHING})
    model = FakeModel(model_answers)
    reader = SerialReader(primary=primary, seconds=(v4, model, tesseract), letters=tesseract, params=params)
    notes = reader.read(_photo(boxes, width))
    return notes, primary, v4, model


def test_two_prints_read_by_the_model_sure_and_alike_are_trusted_without_the_general_engines():
    (note,), primary, v4, model = _read({TOP: _model(), LEFT: _model()})
    assert (note.serial, note.status, note.evidence) == ("1234567", NoteStatus.TRUSTED, Evidence.TWO_PRINTS)
    assert (primary.asked, v4.asked, model.asked) == (0, 0, 4)  # the model both ways up on each print
    assert [[r.engine for r, _ in p.reads] for p in note.prints] == [[SERIAL_CTC], [SERIAL_CTC]]
    assert all(p.model_box is not None for p in note.prints)


def test_the_model_read_turned_over_settles_the_way_up():
    # the prints lie upside down: the model reads them only turned over (its answers on the +100 pixel)
    (note,), primary, _, _ = _read({TOP + 100: _model(), LEFT + 100: _model()})
    assert (note.serial, note.status, primary.asked) == ("1234567", NoteStatus.TRUSTED, 0)
    assert int(note.prints[0].crop[0, 0, 0]) in (TOP + 100, LEFT + 100)


def _as_without_the_model(**kw):
    """The same photo read with the model never asked first (the general path as before it)."""
    notes, primary, _, _ = _read(kw.pop("answers"), params=dataclasses.replace(DEFAULT_PARAMS,
                                                                                model_first_min_char_prob=None), **kw)
    return [(n.serial, n.status, n.evidence, n.reason) for n in notes], primary.asked


@pytest.mark.parametrize("why, answers", [
    ("one digit unsure on one print", {TOP: _model(), LEFT: _model(probs=SURE[:-1] + (TAU - 0.01,))}),
    ("the prints disagree", {TOP: _model(), LEFT: _model("АБ 1234568")}),
    ("a read both ways up", {TOP: _model(), LEFT: _model(), LEFT + 100: _model("ЕЕ 6621234", (0.3,) * 10)}),
])
def test_an_unsure_or_split_model_sends_the_prints_the_general_way(why, answers):
    notes, primary, v4, model = _read(answers)
    before, asked_before = _as_without_the_model(answers=answers)
    assert [(n.serial, n.status, n.evidence, n.reason) for n in notes] == before, why
    assert before == [("1234567", NoteStatus.TRUSTED, Evidence.TWO_PRINTS, "")]
    assert primary.asked == asked_before == 4  # PP-OCRv6 read both prints both ways up, as before
    assert all(p.model_box is None for n in notes for p in n.prints)
    assert [[r.engine for r, _ in p.reads] for n in notes for p in n.prints] == [["rapidocr"], ["rapidocr"]]


def test_one_print_read_by_the_model_alone_is_not_enough():
    notes, primary, v4, _ = _read({TOP: _model()}, with_left=False)
    before, _ = _as_without_the_model(answers={TOP: _model()}, with_left=False)
    assert [(n.serial, n.status, n.evidence, n.reason) for n in notes] == before
    assert primary.asked == 2 and v4.asked == 1  # the general path: PP-OCRv6, then the cross-check engines


def _pair(top: LineRead, left: LineRead, model_read_both=True) -> list[Print]:
    out = []
    for centre, r in ((TOP_RIGHT_PRINT_MM, top), (LEFT_PRINT_MM, left)):
        out.append(Print(quad=_box(centre), crop=np.zeros((30, 150, 3), np.uint8),
                         reads=[(r, parse_serial_text(r.text))], model_box=_box(centre) if model_read_both else None))
    return out


def test_model_two_prints_needs_two_model_read_prints_agreeing_in_a_rubles_layout():
    assert model_two_prints(_pair(_model(), _model()), ON, 6.0).serial == "1234567"
    assert model_two_prints(_pair(_model(), _model("АБ 1234568")), ON, 6.0) is None
    assert model_two_prints(_pair(_model(), _model(), model_read_both=False), ON, 6.0) is None
    assert model_two_prints(_pair(_model(), _model())[:1], ON, 6.0) is None
    swapped = _pair(_model(), _model())
    swapped[0].quad, swapped[1].quad = swapped[1].quad, _box((60.0, 47.5))  # two prints side by side
    assert model_two_prints(swapped, ON, 6.0) is None
    small = dataclasses.replace(ON, small_print_px=40.0)  # these prints are 30 px high
    assert model_two_prints(_pair(_model(), _model()), small, 6.0) is None


def test_model_read_takes_the_way_up_the_model_alone_is_sure_of():
    crop = np.zeros((30, 150, 3), np.uint8)
    crop[15:] = 100
    sure_upright = FakeModel({0: _model()})
    turned, read, parsed = model_read(sure_upright, crop, ON)
    assert (turned, read.text, [s.digits for s in parsed]) == (False, "АБ 1234567", ["1234567"])
    assert model_read(FakeModel({100: _model()}), crop, ON)[0] is True
    assert model_read(FakeModel({0: _model(probs=SURE[:-1] + (TAU - 0.001,))}), crop, ON) is None
    assert model_read(FakeModel({0: _model(probs=SURE[:-1] + (TAU,))}), crop, ON) is not None
    assert model_read(FakeModel({0: _model(), 100: _model("ЕЕ 6621234", (0.2,) * 10)}), crop, ON) is None
    assert model_read(FakeModel({0: _model("1234567", (0.99,) * 7)}), crop, ON) is None  # no letters: not a print


def test_a_print_cut_by_the_photos_edge_goes_the_general_way():
    width = int(np.ceil(_box(TOP_RIGHT_PRINT_MM)[:, 0].max())) + 2  # the top-right print touches the edge
    answers = {TOP: _model(), LEFT: _model()}
    notes, primary, _, _ = _read(answers, width=width)
    before, asked_before = _as_without_the_model(answers=answers, width=width)
    assert [(n.serial, n.status, n.evidence, n.reason) for n in notes] == before
    assert primary.asked == asked_before > 0
    cut = [p for n in notes for p in n.prints if p.cut]
    assert len(cut) == 1 and cut[0].model_box is None


def test_the_way_up_the_model_read_settles_a_partner_that_reads_digits_both_ways():
    """0900099 turned over reads 6600060: PP-OCRv6, without the letters, cannot tell the way up of either
    print (the note is unreadable without the model). The model read the top print's way up surely
    (letters, digits; nothing turned over), so the grouping settles its partner by the layout, as for any
    print whose way up is known; the top print read again by PP-OCRv6 is settled by its partner in turn."""
    boxes = [(_box(TOP_RIGHT_PRINT_MM), TOP), (_box(LEFT_PRINT_MM), LEFT)]
    up, down = _v6("0900099"), LineRead("6600060", 0.97, "rapidocr", (0.99,) * 7)
    answers = {TOP: up, LEFT: up, TOP + 100: down, LEFT + 100: down}
    tesseract = FakeEngine("tesseract", {k: NOTHING for k in answers})

    def read(params):
        primary = FakePrimary([b for b, _ in boxes], answers)
        v4 = FakeEngine("ppocr-v4", {k: LineRead("", 0.0, "ppocr-v4", ()) for k in answers})
        model = FakeModel({TOP: _model("МТ 0900099")})
        reader = SerialReader(primary=primary, seconds=(v4, model, tesseract), letters=tesseract, params=params)
        return [(n.serial, n.status, n.evidence) for n in reader.read(_photo(boxes))]

    without = read(dataclasses.replace(DEFAULT_PARAMS, model_first_min_char_prob=None, model_way_up_min_char_prob=None))
    assert [(s, st) for s, st, _ in without] == [(None, NoteStatus.UNREADABLE)]
    assert read(ON) == [("0900099", NoteStatus.TRUSTED, Evidence.TWO_PRINTS)]


def _symmetric_note(model_answers, params):
    """A note whose serial PP-OCRv6 reads as digits both ways up (0900099 / 6600060), no letters, on both
    prints; the model is not read first (``model_first_min_char_prob`` None), only asked about the way up
    of the ambiguous prints (``model_way_up_min_char_prob``) and as a cross-check engine."""
    boxes = [(_box(TOP_RIGHT_PRINT_MM), TOP), (_box(LEFT_PRINT_MM), LEFT)]
    up, down = _v6("0900099"), LineRead("6600060", 0.97, "rapidocr", (0.99,) * 7)
    answers = {TOP: up, LEFT: up, TOP + 100: down, LEFT + 100: down}
    tesseract = FakeEngine("tesseract", {k: NOTHING for k in answers})
    primary = FakePrimary([b for b, _ in boxes], answers)
    v4 = FakeEngine("ppocr-v4", {k: LineRead("", 0.0, "ppocr-v4", ()) for k in answers})
    reader = SerialReader(primary=primary, seconds=(v4, FakeModel(model_answers), tesseract), letters=tesseract,
                          params=dataclasses.replace(params, model_first_min_char_prob=None))
    return [(n.serial, n.status) for n in reader.read(_photo(boxes))]


def test_the_model_settles_the_way_up_of_prints_that_read_as_digits_both_ways():
    sure = {TOP: _model("МТ 0900099"), LEFT: _model("МТ 0900099")}
    assert _symmetric_note(sure, DEFAULT_PARAMS) == [("0900099", NoteStatus.TRUSTED)]
    # the model reads the prints only turned over: they lie upside down, and the turned reads stand
    turned = {TOP + 100: _model("МТ 6600060"), LEFT + 100: _model("МТ 6600060")}
    assert _symmetric_note(turned, DEFAULT_PARAMS) == [("6600060", NoteStatus.TRUSTED)]
    off = dataclasses.replace(DEFAULT_PARAMS, model_way_up_min_char_prob=None)
    assert _symmetric_note(sure, off) == [(None, NoteStatus.UNREADABLE)]


@pytest.mark.parametrize("why, answers", [
    ("a digit under model_way_up_min_char_prob", {TOP: _model("МТ 0900099", SURE[:-1] + (0.89,)),
                                                  LEFT: _model("МТ 0900099", SURE[:-1] + (0.89,))}),
    ("digits without letters", {TOP: _model("0900099", (0.99,) * 7), LEFT: _model("0900099", (0.99,) * 7)}),
    ("a serial-like read both ways", {TOP: _model("МТ 0900099"), TOP + 100: _model("6600060", (0.4,) * 7),
                                      LEFT: _model("МТ 0900099"), LEFT + 100: _model("6600060", (0.4,) * 7)}),
])
def test_an_unsure_or_two_way_model_leaves_the_way_up_unsettled(why, answers):
    assert _symmetric_note(answers, DEFAULT_PARAMS) == [(None, NoteStatus.UNREADABLE)], why
