"""The recognizer's hard training augmentation (training.data.hard_degrade): what the reader missed most.

Runs on rendered specimen prints (no photos, no PyTorch): the print is brought to a photo's print height,
the quad follows the image, a blown-out print gets an empty target, and the draws are reproducible.
"""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from dealer_assist.vision.geometry import quad_size
from training.data import HARD_MIN_SPREAD, HARD_RANGES, PrintSample, hard_degrade, sample, synthetic_prints


@pytest.fixture(scope="module")
def prints() -> list[PrintSample]:
    return [p for p in synthetic_prints(2, seed=3) if p.text]


def test_hard_degrade_brings_a_big_print_to_a_photo_height_and_moves_its_quad(prints):
    small = prints[0]
    big = cv2.resize(small.image, None, fx=2.0, fy=2.0, interpolation=cv2.INTER_CUBIC)  # a close-up
    ps = PrintSample(big, small.quad * np.float32(2.0), small.text, small.note, small.source)
    _, h0 = quad_size(ps.quad)
    assert h0 > 50
    for seed in range(8):
        img, q = hard_degrade(ps.image, ps.quad, np.random.default_rng(seed))
        w, h = quad_size(q)
        assert 24 - 1e-3 <= h <= 50 + 1e-3
        f = h / h0
        assert img.shape[0] == pytest.approx(ps.image.shape[0] * f, abs=1.5)
        assert img.shape[1] == pytest.approx(ps.image.shape[1] * f, abs=1.5)
        np.testing.assert_allclose(q, ps.quad * f, rtol=1e-5)
        assert img.dtype == np.uint8 and img.ndim == 3


def test_hard_samples_are_reproducible_and_keep_their_targets(prints):
    a = [sample(ps, np.random.default_rng(11), hard=True, flips=False) for ps in prints]
    b = [sample(ps, np.random.default_rng(11), hard=True, flips=False) for ps in prints]
    for (xa, ya), (xb, yb), ps in zip(a, b, prints):
        assert xa.shape == (1, 32, 128) and xa.dtype == np.float32
        np.testing.assert_array_equal(xa, xb)
        assert ya == yb and ya in (ps.text, "")


def test_a_blown_out_print_has_an_empty_target(prints):
    ps = prints[0]
    white = PrintSample(np.full_like(ps.image, 250), ps.quad, ps.text, ps.note, ps.source)
    for seed in range(5):
        x, y = sample(white, np.random.default_rng(seed), hard=True, flips=False)
        assert y == ""
    # the ranges the card and the docstring state
    assert HARD_RANGES["jpeg"]["quality"] == (4, 30) and HARD_MIN_SPREAD == 20.0


def test_most_hard_samples_of_a_clean_print_keep_the_serial(prints):
    rng = np.random.default_rng(5)
    ys = [sample(prints[i % len(prints)], rng, hard=True, flips=False)[1] for i in range(60)]
    kept = sum(bool(y) for y in ys)
    assert 40 <= kept < 60, kept  # some are blown out (over-exposed), most stay legible
