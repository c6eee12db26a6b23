"""Parsing OCR text into serials (RULES.md §6.6: only exactly 7 digits play)."""

import pytest

from dealer_assist.vision.serials import SerialKind, normalise_letters, parse_serial_text


@pytest.mark.parametrize("text, digits, letters", [
    ("aK 4270166", "4270166", "АК"),
    ("XB 6552401", "6552401", "ХВ"),
    ("MT 0900099", "0900099", "МТ"),
    ("бк 9060689.", "9060689", "БК"),
    (" 6697298", "6697298", None),
    ("B49617584", "9617584", None),  # second letter Л read as 4
])
def test_seven_digit_serials(text, digits, letters):
    found = parse_serial_text(text)
    assert [(s.digits, s.letters, s.kind) for s in found] == [(digits, letters, SerialKind.SERIAL7)]


def test_nine_digits_are_out_of_format_never_cut():
    (s,) = parse_serial_text("AA394009037")
    assert s.kind is SerialKind.SERIAL9 and s.digits == "394009037"


@pytest.mark.parametrize("text", ["A49958052C", "MH77392927A", "NA3809356903", "3150001.008 500", "1000", ""])
def test_other_currencies_and_amounts_give_no_serial(text):
    kinds = {s.kind for s in parse_serial_text(text)}
    assert kinds <= {SerialKind.PARTIAL, SerialKind.LONG}


def test_partial_runs_are_marked_partial():
    (s,) = parse_serial_text("BC 474092")
    assert s.kind is SerialKind.PARTIAL and s.digits == "474092"


def test_letters_only_when_two_cyrillic_lookalikes():
    assert normalise_letters("ra") is None  # r has no Cyrillic twin
    assert normalise_letters("Ae") == "АЕ"
    assert normalise_letters("A") is None


def test_two_letters_read_as_digits_give_a_derived_serial():
    (s,) = parse_serial_text("331196375")  # ЭЗ 1196375
    assert (s.digits, s.letters, s.kind, s.derived) == ("1196375", None, SerialKind.SERIAL7, True)


def test_a_2017_serial_with_its_letters_stays_nine_digits():
    (s,) = parse_serial_text("AA347815173")  # starts with letter-like digits 3, 4
    assert s.kind is SerialKind.SERIAL9 and not s.derived


def test_ctc_decoding_merges_repeats_drops_blanks_and_keeps_each_character_s_probability():
    import numpy as np

    from dealer_assist.vision.ocr import ctc_decode

    charset = ["blank", "1", "2", " "]
    frames = [(1, 0.6), (1, 0.9), (0, 0.8), (1, 0.7), (2, 0.55), (2, 0.95), (3, 0.5)]
    probs = np.full((len(frames), len(charset)), 0.01, np.float32)
    for t, (k, p) in enumerate(frames):
        probs[t, k] = p
    text, char_probs = ctc_decode(probs, charset)
    assert text == "112 "  # a blank between two runs of "1" keeps both
    assert char_probs == pytest.approx((0.9, 0.7, 0.95, 0.5))


def test_letters_read_as_digits_on_one_print_are_not_a_2017_note():
    """Issue 13: 'КО 9528710' read as '509528710' on one print, while the other print reads the 7 digits:
    one 1997-series note (the 9-digit read backs it only as a derived read), not an out-of-format note."""
    import numpy as np

    from dealer_assist.vision.geometry import LEFT_PRINT_MM, TOP_RIGHT_PRINT_MM
    from dealer_assist.vision.model import NoteStatus, Print
    from dealer_assist.vision.ocr import LineRead
    from dealer_assist.vision.trust import decide

    def at(centre, text):
        cx, cy = (np.asarray(centre) * 8).tolist()
        quad = np.array([[cx - 96, cy - 20], [cx + 96, cy - 20], [cx + 96, cy + 20], [cx - 96, cy + 20]], np.float32)
        r = LineRead(text, 0.99, "rapidocr", tuple([0.99] * len(text)))
        return Print(quad=quad, crop=np.zeros((40, 192, 3), np.uint8), reads=[(r, parse_serial_text(r.text))])

    note = decide([at(TOP_RIGHT_PRINT_MM, "509528710"), at(LEFT_PRINT_MM, "KO 9528710")])
    assert note.status is not NoteStatus.OUT_OF_FORMAT
    both = decide([at(TOP_RIGHT_PRINT_MM, "AA394009037"), at(LEFT_PRINT_MM, "AA 394009037")])
    assert both.status is NoteStatus.OUT_OF_FORMAT  # a 2017-series note reads 9 digits throughout
