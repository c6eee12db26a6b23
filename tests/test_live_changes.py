"""Change detection on the low-resolution top view: notes placed, hands moving, the light changing."""

from __future__ import annotations

import numpy as np
import pytest

from dealer_assist.live.changes import ChangeDetector, TopView, source_px_per_mm, warp_region
from live_helpers import plain_profile

S = 0.5  # px per mm, the detector's default
H, W = 350, 500  # a 1000 x 700 mm table


def table(seed: int = 0) -> np.ndarray:
    rng = np.random.default_rng(seed)
    img = np.zeros((H, W, 3), np.uint8)
    img[:] = (40, 70, 110)
    stripes = (12 * np.sin(np.arange(W) / 3.0)).astype(np.int16)
    img = np.clip(img.astype(np.int16) + stripes[None, :, None], 0, 255).astype(np.uint8)
    return img


def noisy(img: np.ndarray, seed: int) -> np.ndarray:
    rng = np.random.default_rng(seed)
    return np.clip(img.astype(np.int16) + rng.normal(0, 2.0, img.shape).round().astype(np.int16), 0, 255).astype(np.uint8)


def with_note(img: np.ndarray, x_mm: float, y_mm: float) -> np.ndarray:
    """A 157 x 69 mm pale note with a dark band, top-left at (x, y) mm."""
    out = img.copy()
    x, y = int(x_mm * S), int(y_mm * S)
    out[y:y + 35, x:x + 78] = (225, 230, 235)
    out[y + 5:y + 9, x + 50:x + 72] = (40, 40, 150)
    return out


def with_hand(img: np.ndarray, x_mm: float, y_mm: float) -> np.ndarray:
    out = img.copy()
    x, y = int(x_mm * S), int(y_mm * S)
    out[y:y + 45, x:x + 50] = (120, 160, 220)
    return out


def test_a_note_placed_is_one_still_note_shaped_blob():
    det = ChangeDetector()
    base = table()
    assert det.update(noisy(base, 0), 0.0).blobs == ()  # the first view is the reference
    assert det.update(noisy(base, 1), 0.1).blobs == ()  # sensor noise is no change
    placed = with_note(base, 300, 300)
    # the dealer's hand is still over it: a change, but moving
    r = det.update(noisy(with_hand(placed, 380, 330), 2), 0.2)
    assert len(r.blobs) == 1 and not r.blobs[0].still
    r = det.update(noisy(placed, 3), 0.3)  # the hand leaves
    assert not r.blobs[0].still
    r = det.update(noisy(placed, 4), 0.4)
    (blob,) = r.blobs
    assert blob.still and blob.note_shaped
    assert blob.bbox_mm == pytest.approx((300, 300, 457, 370), abs=6)
    assert blob.area_mm2 == pytest.approx(157 * 69, rel=0.15)
    assert blob.changed_since_s == pytest.approx(0.3, abs=0.11)
    # once read, the place is the reference again: nothing to report
    det.accept((285, 285, 472, 385))
    assert det.update(noisy(placed, 5), 0.5).blobs == ()
    # taken away: the same place changes again
    (gone,) = det.update(noisy(base, 6), 0.6).blobs
    assert gone.note_shaped and gone.bbox_mm == pytest.approx(blob.bbox_mm, abs=6)


def test_moving_hand_is_reported_moving():
    det = ChangeDetector()
    base = table()
    det.update(base, 0.0)
    det.update(with_hand(base, 100, 100), 0.1)
    r = det.update(with_hand(base, 130, 110), 0.2)
    assert r.blobs and not any(b.still for b in r.blobs)
    assert det.moving_in((100, 100, 240, 200)) > 0.2
    assert det.moving_in((600, 400, 800, 600)) == 0.0


def test_light_change_over_the_whole_table_resets_the_reference():
    det = ChangeDetector()
    base = table()
    det.update(base, 0.0)
    brighter = np.clip(base.astype(np.int16) + 60, 0, 255).astype(np.uint8)
    r = det.update(brighter, 0.1)
    assert r.global_change and r.blobs == ()
    assert det.update(brighter, 0.2).blobs == ()


def test_top_view_and_region_warp_follow_the_calibration():
    profile = plain_profile((640, 448), ["P1", "P2"])
    assert source_px_per_mm(profile, (640, 448)) == pytest.approx(0.64, rel=0.01)
    frame = np.zeros((448, 640, 3), np.uint8)
    frame[64:128, 320:384] = 255  # table mm x 500-600, y 100-200
    view = TopView(profile, (640, 448))
    top = view(frame)
    assert top.shape == (350, 500, 3) and view.visible.all()
    ys, xs = np.nonzero(top[:, :, 0] > 128)
    assert (xs.min() / S, xs.max() / S, ys.min() / S, ys.max() / S) == pytest.approx((500, 598, 100, 198), abs=4)
    crop = warp_region(frame, profile, (480, 80, 620, 220), 2.0)
    assert crop.shape == (280, 280, 3)
    ys, xs = np.nonzero(crop[:, :, 0] > 128)
    assert (xs.min(), ys.min()) == pytest.approx((40, 40), abs=3)
    with pytest.raises(ValueError):
        view(np.zeros((100, 100, 3), np.uint8))


def test_a_light_note_on_a_light_table_is_found_while_the_exposure_flickers():
    # a webcam's auto exposure: every frame a few per cent brighter or darker. Before the exposure
    # was matched, that flicker counted as noise, the threshold rose to ~50 levels, and a beige note
    # on a light table (~25 levels apart) was never found.
    rng = np.random.default_rng(3)
    light = np.full((H, W, 3), (170, 195, 215), np.uint8)
    note = light.copy()
    note[100:135, 150:228] = (200, 215, 225)
    note[105:109, 200:222] = (120, 120, 160)  # its print
    det = ChangeDetector(S)
    report = None
    for f in range(30):
        img = light if f < 20 else note
        gain = 1.0 + 0.04 * rng.standard_normal()
        report = det.update(noisy(np.clip(img * gain, 0, 255).astype(np.uint8), f), 0.1 * f)
        if f == 19:
            assert report.blobs == () and not report.global_change and report.threshold < 20
    assert report.threshold < 20 and not report.global_change
    (blob,) = [b for b in report.blobs if b.area_mm2 > 2000]
    assert blob.note_shaped and blob.still
    x0, y0, x1, y1 = blob.bbox_mm
    assert abs(x0 - 300) < 8 and abs(y0 - 200) < 8 and abs(x1 - 456) < 8 and abs(y1 - 270) < 8
