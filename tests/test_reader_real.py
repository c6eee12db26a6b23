"""The reader on ../shared/real_photos: accuracy floors and the never-guess cases.

Like OpenCV's squares test, this asserts measured quality on stored images.
The floors are the figures measured when the reader landed (43 of 44 legible
7-digit notes, 0 wrong, 0 invented); a change that lowers them fails here.
"""

from __future__ import annotations

import pytest

from dealer_assist.evaluation import ReaderFigures, score_photo
from dealer_assist.vision.images import load_image

from conftest import REAL_PHOTOS


@pytest.fixture(scope="module")
def real_reads(real_labels, serial_reader):
    out = {}
    for entry in real_labels:
        image, _ = load_image(REAL_PHOTOS / entry["file"])
        out[entry["file"]] = serial_reader.read(image)
    return out


@pytest.fixture(scope="module")
def figures(real_labels, real_reads) -> ReaderFigures:
    f = ReaderFigures()
    for entry in real_labels:
        trusted = [n.serial for n in real_reads[entry["file"]] if n.serial]
        score_photo(f, entry["file"], entry["notes"], trusted)
    return f


def test_no_wrong_trusted_read(figures):
    assert figures.wrong == 0, figures.wrongs


def test_no_serial_invented_on_photos_without_a_ruble_serial(figures, real_labels, real_reads):
    empty = [e["file"] for e in real_labels if not e["notes"]]
    assert len(empty) == 6
    assert figures.invented == 0
    assert all(n.serial is None for f in empty for n in real_reads[f])


def test_exact_read_floor(figures):
    assert figures.legible == 44
    assert figures.exact >= 43, figures.misses


def test_2017_series_reported_out_of_format_never_cut(real_labels, real_reads):
    nine = [e for e in real_labels if any(n["n_digits"] == 9 for n in e["notes"])]
    assert len(nine) == 7
    for e in nine:
        notes = real_reads[e["file"]]
        assert notes and all(n.serial is None for n in notes)
        assert any(n.status == "out_of_format" and "9-digit" in n.reason for n in notes), e["file"]


def test_upside_down_rotation_symmetric_serial_is_not_misread(real_reads):
    # 0900099 upside down reads 6600060: the letters decide the way up.
    assert [n.serial for n in real_reads["real_157.jpg"]] == ["0900099"]


def test_polish_note_with_the_same_serial_format_is_not_trusted(real_reads):
    notes = real_reads["real_195.jpg"]
    assert notes and all(n.serial is None for n in notes)
    assert notes[0].status == "out_of_format"


def test_two_notes_in_one_photo_are_both_read(real_reads):
    assert sorted(n.serial for n in real_reads["real_057.jpg"] if n.serial) == ["6827644", "9528710"]
    assert sorted(n.serial for n in real_reads["real_049.jpg"] if n.serial) == ["2535876", "8047229"]


def test_trusted_notes_carry_confidence_and_quad(real_reads):
    (note,) = real_reads["real_047.jpg"]
    assert note.serial == "4270166"
    assert 0.5 < note.confidence <= 1.0
    assert note.to_json()["quad"] and len(note.to_json()["quad"]) == 4


def test_letters_are_never_wrong(real_labels, real_reads):
    # Reported letters must be the label's; PP-OCR's Latin look-alikes ("BA"
    # for ВЯ) are not reported unless Tesseract, trained on Cyrillic, agrees.
    for entry in real_labels:
        truth = {n["serial_digits"]: n["serial_letters"] for n in entry["notes"] if n.get("letters_certain")}
        for note in real_reads[entry["file"]]:
            if note.serial in truth and note.letters is not None:
                assert note.letters == truth[note.serial], entry["file"]


def test_print_cut_by_the_frame_supports_only_with_the_digits_it_shows(real_reads):
    # real_193: the top-right print loses its last digit to the frame edge; an
    # engine then invents one (4740928). Its six visible digits back the left
    # print's 4740925; its invented full-length read does not vote.
    (note,) = real_reads["real_193.jpg"]
    assert note.serial == "4740925"
    assert any(p.cut for p in note.prints)


def test_single_print_notes_are_cross_checked_by_a_second_engine(real_reads):
    # real_062 and real_064 show one print with 7-px digits: PP-OCRv6 and
    # PP-OCRv4 must agree before the serial is trusted.
    for photo, serial in (("real_062.jpg", "7273916"), ("real_064.jpg", "6262852")):
        (note,) = [n for n in real_reads[photo] if n.serial]
        assert note.serial == serial
        engines = {r.engine for p in note.prints for r, ss in p.reads if any(s.digits == serial for s in ss)}
        assert {"rapidocr", "ppocr-v4"} <= engines


def test_small_prints_are_confirmed_by_a_second_engine(real_reads):
    # real_064's print is 14 px high: whatever agrees, PP-OCRv4 must read it too.
    from dealer_assist.vision.reader import SMALL_PRINT_PX

    (note,) = [n for n in real_reads["real_064.jpg"] if n.serial]
    assert min(p.height for p in note.prints) < SMALL_PRINT_PX
    assert any(r.engine == "ppocr-v4" and "6262852" in r.text for p in note.prints for r, _ in p.reads)
