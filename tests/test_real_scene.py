"""The webcam renderer of dealt hands with flat note images (dealer_assist.synth.real_scene), checked on
synthetic specimen notes (never a real photo): sizes, zones, stacking, backs without a serial."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from dealer_assist.calibration.profile import TablePlane
from dealer_assist.calibration.table import zones_from_json
from dealer_assist.synth.note import random_spec, render_note
from dealer_assist.synth.real_hand import SETUPS, NoteImage, Setup, plan_real_hand
from dealer_assist.synth.real_notes import note_back
from dealer_assist.synth.real_scene import _table_truth, render_real_hand

#: A small camera over the compact mat, so that a few frames render in a second.
SMALL = Setup("T", (640, 360), (570.0, 330.0), (0.7, 1.1), False, 650.0, "1M", (0.3, 0.5))


@pytest.fixture(scope="module")
def specimen_notes() -> list[NoteImage]:
    """15 notes with distinct serials; three specimen images (rendering one takes a while) serve them all."""
    rng = np.random.default_rng(5)
    images = []
    for denomination in (100, 1000, 5000):
        note = render_note(random_spec(rng, denomination=denomination))
        images.append((note, note_back(note.image, denomination)))
    out = []
    for i in range(15):
        note, back = images[i % 3]
        serial = f"{1234567 + 1111 * i:07d}"
        out.append(NoteImage(f"specimen{i}", serial, note.spec.letters, note.spec.denomination, note.image, back,
                             {k: p.box for k, p in note.prints.items()}))
    return out


def test_face_down_note_shows_no_serial(specimen_notes):
    # a serial needs sharp strokes: in the print boxes the back keeps almost none of the front's
    for note in specimen_notes[:3]:
        w, h = note.front.shape[1], note.front.shape[0]
        front = cv2.Laplacian(cv2.cvtColor(note.front, cv2.COLOR_BGR2GRAY), cv2.CV_64F)
        back = cv2.Laplacian(cv2.cvtColor(note.back, cv2.COLOR_BGR2GRAY), cv2.CV_64F)
        assert note.back.shape == note.front.shape
        for name, (x0, y0, x1, y1) in note.prints.items():
            box = (slice(int(y0 * h), int(y1 * h) + 1), slice(int(x0 * w), int(x1 * w) + 1))
            # the back is the front mirrored: its print boxes sit on the other side
            mirrored = (box[0], slice(w - 1 - int(x1 * w), w - int(x0 * w)))
            assert back[box].var() < 0.03 * front[box].var(), name
            assert back[mirrored].var() < 0.03 * front[box].var(), name


@pytest.mark.parametrize("setup_name,players", [("A", 6), ("B", 5)])
def test_layout_fits_the_table_and_its_zones(specimen_notes, setup_name, players):
    setup = SETUPS[setup_name]
    hand = plan_real_hand(3, setup, specimen_notes, n_players=players, position=4)
    serials = hand.hand_json()["board"] + [s for p in hand.hand_json()["players"] for s in p["pocket"]]
    assert len(serials) == 3 + 2 * players == len(set(serials))  # one note, one place
    truth = _table_truth(hand)
    plane = TablePlane(setup.image_size, np.asarray(truth["homography_table_mm_from_image"]),
                       tuple(truth["size_mm"]), tuple(zones_from_json(truth)))
    assert plane.seats == [f"P{i}" for i in range(1, players + 1)]
    notes = hand.board + [pl for pls in hand.pockets.values() for pl in pls]
    for pl in notes:  # the live session places a note by where it lies: its own zone
        assert plane.zone_at_mm(pl.centre_mm) == pl.zone
    lo, hi = truth["camera"]["px_per_mm_range"]
    assert 2.15 <= lo and hi <= 3.35 and hi / lo > 1.3  # the far side is seen smaller
    if setup.end_seats:  # the seats at the table's ends have their notes turned about 90 degrees
        ends = [s for s, k in hand.layout_info["seat_kinds"].items() if k == "end"]
        assert ends
        for s in ends:
            for pl in hand.pockets[s]:
                assert abs(((pl.angle_deg % 180) - 90)) <= 16


def test_frames_size_stages_and_uncovered_prints(specimen_notes):
    hand = plan_real_hand(2, SMALL, specimen_notes, n_players=3, position=5)
    frames = list(render_real_hand(hand, 2, frames=[0, 40, -1]))
    assert [img.shape for img, _ in frames] == [(360, 640, 3)] * 3
    first, middle, last = (t for _, t in frames)
    assert first["stage"] == "empty" and first["notes"] == []
    assert middle["stage"] == "preflop" and all(n["face"] == "down" and not n["prints"] for n in middle["notes"])
    assert last["frame"] == last["frames"] - 1 and last["stage"] == "showdown"
    assert len(last["notes"]) == 9 and all(n["face"] == "up" for n in last["notes"])
    # at the end every note lies still with both serial prints uncovered (fans keep them clear)
    for n in last["notes"]:
        assert not n["moving"]
        assert min(p["visible_fraction"] for p in n["prints"].values()) >= 0.98, n["serial"]
    # the picture matches the truth: where the truth puts a note, the picture changed from the empty
    # table; a little way outside it, it did not
    empty, end = (cv2.cvtColor(frames[k][0], cv2.COLOR_BGR2GRAY).astype(np.float32) for k in (0, 2))
    for n in last["notes"]:
        q = np.asarray(n["quad"], np.float64)
        c = q.mean(axis=0)
        inner = np.zeros(empty.shape, np.uint8)
        cv2.fillPoly(inner, [np.round(c + (q - c) * 0.8).astype(np.int32)], 1)
        assert np.abs(end - empty)[inner > 0].mean() > 12, n["serial"]
    table = np.zeros(empty.shape, np.uint8)
    cv2.fillPoly(table, [np.round(np.asarray(last["notes"][0]["quad"])).astype(np.int32)], 1)
    for n in last["notes"]:
        cv2.fillPoly(table, [np.round(np.asarray(n["quad"])).astype(np.int32)], 1)
    free = cv2.erode(1 - table, np.ones((15, 15), np.uint8))
    assert np.abs(end - empty)[free > 0].mean() < 4


def test_setup_d_differs_from_the_others_and_fits_six_seats(specimen_notes):
    """Set-up D (issue 21: vary the table): 100x60 cm, six seats, the end seats' notes turned ~90 degrees,
    the whole table above the reader's floor, the corner markers uncovered by any note."""
    from dealer_assist.synth.real_hand import LIGHTING, _note_quad_mm
    from dealer_assist.synth.table import TableLayout
    from dealer_assist.vision.readability import READABLE_PX_PER_MM

    d = SETUPS["D"]
    assert d.markers and d.lighting == "dim" and d.players_of_hand(0) == d.players_of_hand(2) == 6
    assert LIGHTING["dim"].gain[1] < LIGHTING["room"].gain[0]
    assert [SETUPS[s].variant_key() for s in "ABC"] == ["", "", ""]  # A-C's cache keys as before
    assert "markers=True" in d.variant_key()
    hand = plan_real_hand(1000, d, specimen_notes, n_players=6)
    kinds = hand.layout_info["seat_kinds"]
    assert sorted(kinds.values()).count("end") == 2 and len(kinds) == 6
    for s, k in kinds.items():
        if k == "end":
            assert all(abs((pl.angle_deg % 180) - 90) <= 16 for pl in hand.pockets[s])
    lo, hi = hand.camera["px_per_mm_range"]
    assert READABLE_PX_PER_MM < 2.9 <= lo and hi <= 4.1
    layout = TableLayout(d.table_mm)
    s = layout.marker_size_mm / 2
    for pl in hand.board + [p for pls in hand.pockets.values() for p in pls]:
        q = _note_quad_mm(pl)
        for c in layout.marker_centres_mm():
            inside = (np.abs(q - c) <= s + 4).all(axis=1)
            assert not inside.any()
            assert not ((q[:, 0].min() < c[0] + s) and (q[:, 0].max() > c[0] - s)
                        and (q[:, 1].min() < c[1] + s) and (q[:, 1].max() > c[1] - s))


def test_marker_setup_draws_markers_the_calibration_finds(specimen_notes):
    """A set-up with markers draws ArUco 0-3 at the table's corners: ``calibrate table --aruco``'s functions
    find all four in a rendered frame and measure the table within 1%."""
    import dataclasses

    from dealer_assist.calibration.table import detect_markers, homography_from_markers

    small = dataclasses.replace(SETUPS["D"], image_size=(1600, 900), px_per_mm=(1.3, 1.6))
    hand = plan_real_hand(4, small, specimen_notes, n_players=4)
    (img, truth), = list(render_real_hand(hand, 4, frames=[0]))
    markers = detect_markers(img)
    assert sorted(markers) == [0, 1, 2, 3]
    fit = homography_from_markers(markers, None)
    assert fit.table_size_mm == pytest.approx(small.table_mm, rel=0.01)
    assert truth["surface"] == "felt"
    # without markers nothing is found
    plain = dataclasses.replace(small, markers=False)
    (img2, _), = list(render_real_hand(plan_real_hand(4, plain, specimen_notes, n_players=4), 4, frames=[0]))
    assert detect_markers(img2) == {}
