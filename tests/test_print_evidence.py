"""Per-print evidence over frames (dealer_assist.vision.print_evidence): the one-print rule, the margin
rule, averaging (not summing) frames, the way up, and the serial model's looks at rendered prints."""

from __future__ import annotations

import numpy as np
import pytest

from dealer_assist.vision.print_evidence import (
    DIGITS, MIN_FRAMES, MIN_MARGIN, NoteEvidence, PrintEvidence, PrintLook, look_at_windows, look_from_probs)
from dealer_assist.vision.recognizer import CHARSET


def look(value: str, margin: float, weak: int | None = None, weak_margin: float | None = None,
         runner_up: str | None = None) -> PrintLook:
    """A 7-digit look whose every digit leads its runner-up (the next digit, or ``runner_up``'s) by ``margin``
    nats, position ``weak`` by ``weak_margin``."""
    logp = np.full((DIGITS, 10), -20.0)
    for i, ch in enumerate(value):
        d = int(ch)
        other = int(runner_up[i]) if runner_up else (d + 1) % 10
        m = weak_margin if (weak is not None and i == weak) else margin
        logp[i, d] = -0.01
        logp[i, other] = -0.01 - m
    return PrintLook(f"АК {value}", value, logp)


NOTHING = PrintLook("")


def frames_of(ev: NoteEvidence, first: int, looks_per_frame: list[dict]) -> None:
    for k, looks in enumerate(looks_per_frame):
        ev.add(first + k, looks)


def test_two_prints_agreeing_with_the_margin_are_trusted_from_the_second_frame():
    ev = NoteEvidence()
    ev.add(1, {0: (look("1234567", 5.0), look("1234567", 4.0)), 1: (NOTHING, NOTHING)})
    d = ev.decide()
    assert MIN_FRAMES == 2
    assert d.serial is None and d.value == "1234567"
    assert "2 frames of each" in d.reason
    ev.add(2, {0: (look("1234567", 5.0), look("1234567", 4.0)), 1: (NOTHING, NOTHING)})
    d = ev.decide()
    assert d.serial == "1234567"
    assert d.way == 0
    assert d.margin == pytest.approx(4.0)
    assert d.frames == (2, 2)


def test_frames_of_one_print_never_trust():
    """The one-print rule: a note whose second print is hidden stays untrusted however many frames of its one
    print agree, however surely."""
    ev = NoteEvidence()
    frames_of(ev, 1, [{0: (look("7654321", 12.0), NOTHING), 1: (NOTHING, NOTHING)}] * 30)
    d = ev.decide()
    assert d.serial is None
    assert d.frames == (30, 0)
    assert "only one print" in d.reason
    # and not with any margin either
    assert ev.decide(min_margin=0.0).serial is None


def test_margin_rule_each_print_needs_every_digit_ahead_by_the_margin():
    ev = NoteEvidence()
    weak = MIN_MARGIN - 0.5
    ev.add(1, {0: (look("1234567", 6.0), look("1234567", 6.0, weak=3, weak_margin=weak)), 1: (NOTHING, NOTHING)})
    d = ev.decide(min_frames=1)
    assert d.serial is None
    assert d.value == "1234567"
    assert d.margin == pytest.approx(weak)
    assert "not yet surely" in d.reason
    # the same evidence with a lower threshold is trusted: the margin is what decides
    assert ev.decide(min_margin=weak - 0.01, min_frames=1).serial == "1234567"


def test_frames_are_averaged_not_summed():
    """Frames of a still note are not independent: a digit 1 nat ahead in every one of 40 frames stays 1 nat ahead."""
    ev = NoteEvidence()
    frames_of(ev, 1, [{0: (look("1234567", 1.0), look("1234567", 1.0)), 1: (NOTHING, NOTHING)}] * 40)
    d = ev.decide()
    assert d.serial is None
    assert d.margin == pytest.approx(1.0)
    assert d.frames == (40, 40)


def test_a_frame_counts_once():
    ev = NoteEvidence()
    for _ in range(3):
        ev.add(7, {0: (look("1234567", 1.0), look("1234567", 1.0)), 1: (NOTHING, NOTHING)})
    assert ev.prints[0][0].n == 1
    assert ev.frames == 1


def test_a_bad_frame_is_outvoted_by_the_average():
    """One frame misreading the 4th digit (4 -> 9, unsure) among four good ones: the mean still reads 4 with a
    margin, and the serial is trusted as 1234567."""
    ev = NoteEvidence()
    good = look("1234567", 6.0, runner_up="1239567")
    bad = look("1239567", 1.0, runner_up="1234567")
    frames_of(ev, 1, [{0: (good, good), 1: (NOTHING, NOTHING)}] * 4)
    ev.add(5, {0: (bad, good), 1: (NOTHING, NOTHING)})
    d = ev.decide()
    assert d.serial == "1234567"
    # the first print's 4th digit: (4 * 6 - 1) / 5 = 4.6 nats ahead
    assert ev.prints[0][0].margins()[3] == pytest.approx(4.6)


def test_prints_that_disagree_are_not_trusted():
    ev = NoteEvidence()
    ev.add(1, {0: (look("1234567", 8.0), look("1234568", 8.0)), 1: (NOTHING, NOTHING)})
    d = ev.decide()
    assert d.serial is None
    assert "read differently (1234567, 1234568)" in d.reason


def test_seven_digits_both_ways_up_are_not_trusted():
    ev = NoteEvidence()
    ev.add(1, {0: (look("1234567", 8.0), look("1234567", 8.0)), 1: (look("6600060", 3.0), NOTHING)})
    d = ev.decide()
    assert d.serial is None
    assert "both ways up" in d.reason


def test_the_other_way_up_is_found():
    ev = NoteEvidence()
    ev.add(1, {0: (NOTHING, NOTHING), 1: (look("5550123", 8.0), look("5550123", 8.0))})
    d = ev.decide(min_frames=1)
    assert (d.serial, d.way) == ("5550123", 1)


def test_look_from_probs_aligns_digits_to_their_ctc_frames():
    """Frames of "АК 1234567" with blanks between; the 3rd digit's surest frame gives 0.7 to 3 and 0.3 to 8."""
    idx = {c: CHARSET.index(c) for c in "АК 01234567"}
    text = "АК 1234567"
    rows = []
    for ch in text:
        row = np.full(len(CHARSET), 1e-4)
        row[idx[ch]] = 1.0
        rows += [row / row.sum(), row / row.sum()]  # each character over two frames
        blank = np.full(len(CHARSET), 1e-4)
        blank[0] = 1.0
        rows.append(blank / blank.sum())
    probs = np.array(rows)
    third = 3 * (3 + 2)  # "А", "К", " ", "1", "2" then "3": frames 15, 16
    probs[15] = 1e-4
    probs[15, idx["3"]], probs[15, CHARSET.index("8")] = 0.6, 0.3
    probs[16] = 1e-4
    probs[16, idx["3"]], probs[16, CHARSET.index("8")] = 0.7, 0.3
    got = look_from_probs(probs, CHARSET)
    assert got.text == text
    assert got.digits == "1234567"
    p = np.exp(got.logp)
    assert p[2, 3] == pytest.approx(0.7 / (1.0 + 8e-4), rel=1e-3)
    assert p[2, 8] == pytest.approx(0.3 / (1.0 + 8e-4), rel=1e-3)
    assert p.argmax(axis=1).tolist() == [1, 2, 3, 4, 5, 6, 7]
    # 6 digits, or 8: no 7-digit serial, nothing to accumulate
    assert look_from_probs(probs[:-3], CHARSET).digits is None
    assert PrintEvidence().add(1, look_from_probs(probs[:-3], CHARSET)) is False


def test_the_model_looks_at_a_rendered_notes_windows_both_ways_up():
    """The serial model on a rendered note's two print windows (given upside down: the way up is found)."""
    cv2 = pytest.importorskip("cv2")
    from dealer_assist.synth.note import NoteSpec, render_note
    from dealer_assist.vision.recognizer import SerialCtcEngine

    engine = SerialCtcEngine()
    if engine.problem():
        pytest.fail(engine.problem())
    note = render_note(NoteSpec("ЧЛ", "3079146", 1000, 5))
    small = cv2.resize(note.image, (575, 250), interpolation=cv2.INTER_AREA)[::-1, ::-1].copy()
    h, w = small.shape[:2]
    windows = []
    for info in note.prints.values():
        x0, y0, x1, y1 = info.box[0] * w, info.box[1] * h, info.box[2] * w, info.box[3] * h
        pad = 0.25 * (y1 - y0)
        # the box on the turned image, padded, corners clockwise from its top-left as it lies there (the
        # print's own bottom-right): the window given the wrong way up
        X0, Y0, X1, Y1 = w - x1 - pad, h - y1 - pad, w - x0 + pad, h - y0 + pad
        windows.append(np.array([[X0, Y0], [X1, Y0], [X1, Y1], [X0, Y1]], np.float32))
    ev = NoteEvidence()
    ev.add(1, look_at_windows(engine, small, windows))
    d = ev.decide(min_frames=1)
    assert d.way == 1
    assert d.value == "3079146"
    assert d.serial == "3079146"
