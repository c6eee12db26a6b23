"""Quads, rectification and the 1997-series print layout."""

import numpy as np
import pytest

from dealer_assist.vision.geometry import (
    LEFT_PRINT_MM,
    NOTE_SIZE_MM,
    TOP_RIGHT_PRINT_MM,
    note_quad_from_prints,
    quad_iou,
    rectify,
    rotate_quad_180,
    upright_line_quad,
)
from dealer_assist.vision.grouping import is_ruble_pair


def _similarity(angle_deg, scale, shift):
    a = np.deg2rad(angle_deg)
    r = np.array([[np.cos(a), -np.sin(a)], [np.sin(a), np.cos(a)]]) * scale
    return lambda pts: (np.asarray(pts, float) @ r.T + shift).astype(np.float32)


def _print_quad(center_mm, length_mm=24.0, height_mm=4.0):
    cx, cy = center_mm
    return np.array([[cx - length_mm / 2, cy - height_mm / 2], [cx + length_mm / 2, cy - height_mm / 2],
                     [cx + length_mm / 2, cy + height_mm / 2], [cx - length_mm / 2, cy + height_mm / 2]])


@pytest.mark.parametrize("angle", [0, 37, 90, 180, 271])
def test_note_quad_recovered_from_two_prints(angle):
    to_img = _similarity(angle, 5.0, np.array([400.0, 300.0]))
    w, h = NOTE_SIZE_MM
    truth = to_img([[0, 0], [w, 0], [w, h], [0, h]])
    got = note_quad_from_prints(to_img(_print_quad(TOP_RIGHT_PRINT_MM)), to_img(_print_quad(LEFT_PRINT_MM)))
    assert np.abs(got - truth).max() < 1e-3
    assert quad_iou(got, truth) > 0.999


@pytest.mark.parametrize("angle", [0, 90, 180, 300])
def test_ruble_layout_accepted_in_any_rotation_and_order(angle):
    to_img = _similarity(angle, 4.0, np.array([500.0, 500.0]))
    tr, left = to_img(_print_quad(TOP_RIGHT_PRINT_MM)), to_img(_print_quad(LEFT_PRINT_MM))
    ok, top, _ = is_ruble_pair(left, tr)
    assert ok and np.allclose(top, tr)


@pytest.mark.parametrize("angle", [0, 90, 180, 300])
def test_at_a_known_scale_only_a_real_notes_print_spacing_is_a_pair(angle):
    """In a top view of known scale (live reads) two prints are one note's only at a real note's spacing:
    set-up C's read joined one note's left print with a neighbour's top-right print 66 x 38 mm away (the
    photo window takes it) into a note at 0.6 times a note's size, 90 mm off the real one."""
    ppm = 4.0
    to_img = _similarity(angle, ppm, np.array([900.0, 900.0]))
    tr, left = to_img(_print_quad(TOP_RIGHT_PRINT_MM)), to_img(_print_quad(LEFT_PRINT_MM))
    assert is_ruble_pair(left, tr, scale=ppm)[0]
    # the real cut-outs' spacings (157-mm notes: du -112..-122 mm, dv 19..34 mm) and a 150-mm note's
    for du, dv in ((-112.0, 19.0), (-122.0, 34.0), (-107.0, 19.0)):
        a = to_img(_print_quad(TOP_RIGHT_PRINT_MM))
        b = to_img(_print_quad((TOP_RIGHT_PRINT_MM[0] + du, TOP_RIGHT_PRINT_MM[1] + dv)))
        assert is_ruble_pair(a, b, scale=ppm)[0], (du, dv)
    near = to_img(_print_quad((TOP_RIGHT_PRINT_MM[0] - 66.0, TOP_RIGHT_PRINT_MM[1] + 38.0)))
    assert is_ruble_pair(tr, near)[0]  # a photo's window (scale unknown) takes it
    assert not is_ruble_pair(tr, near, scale=ppm)[0]
    far = to_img(_print_quad((TOP_RIGHT_PRINT_MM[0] - 150.0, TOP_RIGHT_PRINT_MM[1] + 37.0)))
    assert not is_ruble_pair(tr, far, scale=ppm)[0]


def test_two_prints_side_by_side_are_not_a_ruble_layout():
    # A Polish 10-zloty note: both prints on one line, 2.5 print lengths apart.
    a = _print_quad((100.0, 10.0))
    b = _print_quad((40.0, 11.0))
    assert not is_ruble_pair(a, b)[0]


def test_rectify_turns_a_rotated_box_upright():
    img = np.zeros((200, 200, 3), np.uint8)
    img[50:150, 90:110] = 255  # a tall white bar: text running vertically
    box = np.array([[90, 50], [109, 50], [109, 149], [90, 149]], np.float32)
    quad = upright_line_quad(box)
    crop = rectify(img, quad)
    assert crop.shape[1] > crop.shape[0] * 3  # long side now horizontal
    assert crop.mean() > 200
    assert np.allclose(rotate_quad_180(rotate_quad_180(quad)), quad)


def test_quad_iou_of_half_overlap():
    a = np.array([[0, 0], [10, 0], [10, 10], [0, 10]], np.float32)
    b = a + np.array([5, 0], np.float32)
    assert quad_iou(a, b) == pytest.approx(50 / 150)


def test_decide_refuses_small_prints_that_only_the_primary_reads():
    from dealer_assist.vision.ocr import LineRead
    from dealer_assist.vision.model import Print
    from dealer_assist.vision.trust import decide
    from dealer_assist.vision.serials import parse_serial_text

    class Blind:
        name = "ppocr-v4"

        def recognize(self, crop):
            return LineRead("", 0.0, self.name)

    scale = 0.6  # prints about 2.4 px per mm: 10 px high lines
    def make(center):
        q = _print_quad(center) * scale
        r = LineRead("КС 6145682", 0.99, "rapidocr")
        return Print(quad=q.astype(np.float32), crop=np.zeros((10, 60, 3), np.uint8),
                     reads=[(r, parse_serial_text(r.text))])
    prints = [make(TOP_RIGHT_PRINT_MM), make(LEFT_PRINT_MM)]
    note = decide(prints, [Blind()])
    assert note.serial is None and "small" in note.reason
    # Large prints that agree in the layout are trusted on their own.
    big = [make(TOP_RIGHT_PRINT_MM), make(LEFT_PRINT_MM)]
    for p in big:
        p.quad = p.quad / scale * 8
    assert decide(big, [Blind()]).serial == "6145682"
