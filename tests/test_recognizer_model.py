"""The committed serial recognizer reproduces its card's figures on held-out real prints.

The held-out prints (the ``test`` split by note of ../shared/real_photos, clean and degraded with the
card's fixed seed) are located at run time (:mod:`training.data`); nothing derived from the photos is
committed. Only onnxruntime runs the model: no PyTorch needed.
"""

from __future__ import annotations

import json

import numpy as np
import pytest

from dealer_assist.vision.recognizer import CARD_PATH, CHARSET, MODEL_PATH, SerialCtcEngine, preprocess

pytestmark = pytest.mark.slow  # locates the test prints with the text detector (about 20 s the first time)


@pytest.fixture(scope="module")
def card() -> dict:
    return json.loads(CARD_PATH.read_text())


def test_model_file_is_small_and_matches_the_charset(card):
    assert MODEL_PATH.stat().st_size <= 10 * 1024 * 1024
    assert card["parameters"] < 1_000_000
    scores = SerialCtcEngine().scores(np.zeros((2, 1, 32, 128), np.float32))
    assert scores.shape == (2, 32, len(CHARSET))


def test_held_out_figures_reproduce_the_card(card):
    from training.train import evaluate, held_out_set

    engine = SerialCtcEngine()
    x, y, kinds = held_out_set("test", card["held_out"]["variants"], card["held_out"]["seed"])
    ev = evaluate(engine.scores(x), y, kinds, engine.temperature)
    for kind in ("clean", "degraded"):
        got, want = ev[kind], card["test"][kind]
        assert got["prints"] == want["prints"]
        # within noise: one print of the clean ones, 2 % of the degraded ones
        slack = 1 if kind == "clean" else max(2, round(0.02 * want["prints"]))
        assert abs(got["exact"] - want["exact"]) <= slack, (kind, got, want)
        assert got["sure_wrong"] <= want["sure_wrong"] + slack, (kind, got, want)
    assert abs(ev["ece"] - card["test"]["ece"]) <= 0.02
    # calibrated: digits reported at 0.99 or more are right at least 98 % of the time
    top = [r for r in ev["calibration"] if r["bin"][0] >= 0.99]
    assert top and top[0]["right"] >= 0.98, ev["calibration"]


def test_upside_down_print_reads_as_nothing(card):
    """Trained so: a print turned over is no serial, which settles a print's way up."""
    from training.data import real_samples
    from dealer_assist.vision.geometry import rectify

    engine = SerialCtcEngine()
    samples = real_samples("test")
    upright = [engine.recognize(rectify(s.image, s.quad)) for s in samples]
    over = [engine.recognize(rectify(s.image, s.quad)[::-1, ::-1].copy()) for s in samples]
    assert sum(s.text.split()[-1] in r.text for s, r in zip(samples, upright)) >= card["test"]["clean"]["exact"] - 1
    assert sum(sum(ch.isdigit() for ch in r.text) >= 7 for r in over) <= 1
    assert preprocess(rectify(samples[0].image, samples[0].quad)).shape == (1, 32, 128)
