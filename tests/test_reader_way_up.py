"""The reader's way-up rule for a line the up/down classifier turned without being sure (stand-in engines)."""

from __future__ import annotations

import dataclasses
from types import SimpleNamespace

import numpy as np

from dealer_assist.vision.params import DEFAULT_PARAMS, SURE_WAY_UP
from dealer_assist.vision.prints import find_prints

LIVE = dataclasses.replace(DEFAULT_PARAMS, unsure_way_up=SURE_WAY_UP)

# a 200 x 40 px line, dark on its left end: a crop taken the right way up starts dark
IMAGE = np.full((100, 300, 3), 230, np.uint8)
IMAGE[30:70, 50:90] = 20
BOX = np.array([[50, 30], [250, 30], [250, 70], [50, 70]], np.float32)


def engines(flip_score: float):
    """A classifier that wrongly says the line is upside down, with ``flip_score``; a recognizer
    that reads the serial only from a crop the right way up."""

    def recognize(crop):
        upright = crop[:, : crop.shape[1] // 5].mean() < crop[:, -crop.shape[1] // 5:].mean()
        return SimpleNamespace(text="АБ 1234567" if upright else "Mm2 79", score=0.9, engine="stub")

    return SimpleNamespace(name="stub", detect=lambda image: [BOX], is_upside_down=lambda crop: (True, flip_score),
                           recognize=recognize)


def serials(prints):
    return [s.digits for p in prints for _, parsed in p.reads for s in parsed]


def test_an_unsure_turn_that_reads_as_nothing_is_read_the_other_way_up():
    e = engines(0.75)
    prints = find_prints(IMAGE, e, e, None, LIVE)
    assert serials(prints) == ["1234567"]
    assert np.allclose(prints[0].quad[0], BOX[0])  # the quad turned back: it starts at the line's left end


def test_the_general_reader_keeps_the_classifier_s_turn():
    e = engines(0.75)
    assert find_prints(IMAGE, e, e, None) == []


def test_a_sure_turn_is_kept_even_in_live_reads():
    e = engines(0.97)
    assert find_prints(IMAGE, e, e, None, LIVE) == []
