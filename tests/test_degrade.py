"""The degradation functions of dealer_assist.synth.degrade, on small synthetic images only."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from dealer_assist.synth import degrade
from dealer_assist.synth.degrade import Kind


def _scene(h: int = 120, w: int = 200) -> np.ndarray:
    """Light paper with dark and red marks: every pixel position is told apart."""
    rng = np.random.default_rng(7)
    img = np.full((h, w, 3), (205, 215, 225), np.uint8)
    img[20:50, 30:90] = (40, 40, 40)
    img[70:100, 120:180] = (60, 60, 200)
    img += rng.integers(0, 20, img.shape, dtype=np.uint8)
    return img


def _print_image() -> tuple[np.ndarray, np.ndarray, list[tuple[int, int]]]:
    """Paper with two letters and seven dark digit blocks on one line; the line's quad
    (upright order) and each digit's x range."""
    img = np.full((80, 300, 3), (200, 220, 230), np.uint8)
    y0, y1 = 30, 54
    xs = [(20, 34), (40, 54)]  # the letters
    digits = [(76 + 18 * i, 76 + 18 * i + 13) for i in range(7)]
    for a, b in xs + digits:
        img[y0:y1, a:b] = (30, 30, 30)
    quad = np.array([[18, 28], [203, 28], [203, 56], [18, 56]], np.float32)
    return img, quad, digits


def test_jpeg_at_quality_4_changes_pixels_and_keeps_shape():
    img = _scene()
    out = degrade.jpeg(img, 4)
    assert out.shape == img.shape and out.dtype == np.uint8
    assert np.abs(out.astype(int) - img.astype(int)).mean() > 2.0
    assert np.abs(out.astype(int) - img.astype(int)).mean() > np.abs(
        degrade.jpeg(img, 90).astype(int) - img.astype(int)).mean()


def test_gaussian_blur_smooths_an_edge():
    img = np.zeros((40, 40, 3), np.uint8)
    img[:, 20:] = 255
    out = degrade.gaussian_blur(img, 2.5)
    assert out.shape == img.shape
    row = out[20, :, 0].astype(int)
    assert row[0] == 0 and row[-1] == 255
    assert 0 < row[19] < 255 and 0 < row[21] < 255  # the step is now a ramp


def test_motion_blur_smears_along_its_angle_only():
    img = np.zeros((41, 41, 3), np.uint8)
    img[20, 20] = 255
    out = degrade.motion_blur(img, 9, 0.0)[..., 0]
    assert (out[20, 16:25] > 0).all()  # spread along the row
    assert out[12, 20] == 0 and out[28, 20] == 0  # not across it
    k = degrade.motion_kernel(9, 90.0)
    assert k.shape == (9, 9) and abs(k.sum() - 1) < 1e-5
    assert k[:, 3:6].sum() > 0.99 and k[:, 4].sum() > 0.8  # 90 degrees: a vertical line


def test_downscale_shape():
    out = degrade.downscale(_scene(120, 200), 0.4)
    assert out.shape == (48, 80, 3)


@pytest.mark.parametrize("degrees, shape", [(90, (200, 120, 3)), (180, (120, 200, 3)), (270, (200, 120, 3))])
def test_rotation_by_right_angles_is_exact(degrees, shape):
    img = _scene()
    out = degrade.rotate(img, degrees)
    assert out.shape == shape
    # counter-clockwise as on screen: the top-right corner goes to the top-left
    if degrees == 90:
        assert (out[0, 0] == img[0, -1]).all() and (out[-1, 0] == img[0, 0]).all()
    if degrees == 180:
        assert np.array_equal(out, img[::-1, ::-1])
    assert np.array_equal(degrade.rotate(degrade.rotate(img, degrees), 360 - degrees), img)


def test_rotation_by_45_enlarges_the_canvas_and_keeps_the_centre():
    img = _scene()
    out = degrade.rotate(img, 45)
    side = (120 + 200) / np.sqrt(2)
    assert abs(out.shape[0] - side) <= 2 and abs(out.shape[1] - side) <= 2
    cy, cx = out.shape[0] // 2, out.shape[1] // 2
    assert np.abs(out[cy, cx].astype(int) - img[60, 100].astype(int)).max() < 25


def test_dark_and_overexposed():
    img = _scene()
    dark = degrade.apply(img, Kind.DARK, {"gain": 0.2, "noise": 2.0, "seed": 1})[0]
    assert dark.mean() < 0.25 * img.mean()
    assert np.array_equal(dark, degrade.apply(img, Kind.DARK, {"gain": 0.2, "noise": 2.0, "seed": 1})[0])
    over = degrade.apply(img, Kind.OVEREXPOSED, {"gain": 2.0, "lift": 30})[0]
    assert (over[5:15, 5:15] == 255).all()  # the paper clips
    assert over[35, 60, 0] == min(255, round(img[35, 60, 0] * 2.0 + 30))


def test_mirror_flips():
    img = _scene()
    h = degrade.mirror(img, "horizontal")
    v = degrade.mirror(img, "vertical")
    assert np.array_equal(h[:, 0], img[:, -1]) and np.array_equal(h[:, ::-1], img)
    assert np.array_equal(v[0], img[-1]) and np.array_equal(v[::-1], img)
    with pytest.raises(ValueError):
        degrade.mirror(img, "diagonal")


def test_paint_over_covers_exactly_the_box():
    img = _scene()
    quad = np.array([[30, 20], [90, 20], [90, 50], [30, 50]], np.float32)
    out = degrade.paint_over(img, quad, colour=(200, 210, 220))
    inside = degrade._poly_mask(img.shape, quad) > 0
    assert inside.sum() >= 59 * 29
    assert (out[inside] == (200, 210, 220)).all()
    assert np.array_equal(out[~inside], img[~inside])  # no feather: nothing else changes


def test_digit_quads_find_the_seven_digits():
    img, quad, digits = _print_image()
    cells = degrade.digit_quads(img, quad)
    assert len(cells) == 7
    for cell, (a, b) in zip(cells, digits):
        x0, x1 = cell[:, 0].min(), cell[:, 0].max()
        assert x0 <= a + 1 and x1 >= b - 1  # the whole digit
        assert x1 - x0 < 18 + 4  # and not much more than its pitch


def test_paint_digits_hides_two_digits_and_nothing_else_of_the_line():
    img, quad, digits = _print_image()
    out, info = degrade.paint_digits(img, quad, first=2, count=2)
    dark = out.min(axis=2) < 100
    for i, (a, b) in enumerate(digits):
        ink = dark[30:54, a:b].mean()
        assert (ink < 0.02) if i in (2, 3) else (ink > 0.9), (i, ink)
    assert dark[30:54, 20:54].mean() > 0.4  # the letters are still there
    assert np.array(info["cover"]).shape == (4, 2)


def test_hide_print_by_cover_and_by_crop():
    img = np.full((300, 600, 3), 220, np.uint8)
    top_right = np.array([[420, 40], [560, 40], [560, 64], [420, 64]], np.float32)
    left = np.array([[40, 180], [180, 180], [180, 204], [40, 204]], np.float32)
    for q in (top_right, left):
        x0, y0 = q.min(axis=0).astype(int)
        x1, y1 = q.max(axis=0).astype(int)
        img[y0:y1, x0:x1] = 20
    covered, info = degrade.hide_print(img, top_right, [left], "cover")
    assert info["how"] == "cover"
    assert covered[40:64, 420:560].min() > 150  # the print is gone
    assert np.array_equal(covered[180:204, 40:180], img[180:204, 40:180])  # the other one is not
    cropped, info = degrade.hide_print(img, top_right, [left], "crop")
    x0, y0, x1, y1 = info["window"]
    assert info["how"] == "crop" and np.array_equal(cropped, img[y0:y1, x0:x1])
    assert x1 <= 420 or y0 >= 64  # the hidden print lies wholly outside the crop
    assert x0 <= 40 and y0 <= 180 and x1 >= 180 and y1 >= 204  # the kept one inside
    # no single straight cut hides a print lying between the kept ones: a cover instead
    middle = np.array([[250, 120], [350, 120], [350, 140], [250, 140]], np.float32)
    _, info = degrade.hide_print(img, middle, [top_right, left, np.array([[250, 250], [350, 250], [350, 270],
                                                                          [250, 270]], np.float32)], "crop")
    assert info["how"] == "cover"


@pytest.mark.parametrize("kind", list(Kind))
def test_every_kind_draws_json_params_and_applies_deterministically(kind):
    img, quad, _ = _print_image()
    img = cv2.copyMakeBorder(img, 40, 40, 40, 40, cv2.BORDER_REPLICATE)
    quad = quad + 40
    rng = np.random.default_rng(3)
    params = degrade.draw_params(kind, rng)
    if kind in degrade.NEEDS_PRINTS:
        params["quad"] = quad.tolist()
        params["keep"] = []
    a, _ = degrade.apply(img, kind, params)
    b, _ = degrade.apply(img, kind, params)
    assert a.dtype == np.uint8 and a.ndim == 3 and a.shape[2] == 3
    assert np.array_equal(a, b)
    assert not np.array_equal(a[:img.shape[0], :img.shape[1]], img) or a.shape != img.shape
