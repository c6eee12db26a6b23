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
from dealer_assist.vision.reader import is_ruble_pair


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
