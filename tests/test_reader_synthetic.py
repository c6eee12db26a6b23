"""The reader on synthetic photos whose truth is exact: serials and note quads."""

import numpy as np
import pytest

from dealer_assist.synth import render_note_photo
from dealer_assist.vision.geometry import quad_iou

SEEDS = range(8)


@pytest.fixture(scope="module")
def easy_reads(serial_reader):
    out = []
    for seed in SEEDS:
        image, truth = render_note_photo(seed, "easy")
        out.append((truth, serial_reader.read(image)))
    return out


def test_every_easy_note_is_read_exactly(easy_reads):
    for truth, notes in easy_reads:
        assert sorted(n.serial for n in notes if n.serial) == sorted(t["serial"] for t in truth["notes"])


def test_note_quads_overlap_the_truth(easy_reads):
    # OpenCV's squares test asks overlap > 0.9 of reference quads; so do we.
    ious = []
    for truth, notes in easy_reads:
        for t in truth["notes"]:
            (note,) = [n for n in notes if n.serial == t["serial"]]
            ious.append(quad_iou(np.array(t["quad"], np.float32), note.quad))
    assert min(ious) >= 0.9, ious


def test_quad_corner_order_starts_at_the_notes_top_left(easy_reads):
    for truth, notes in easy_reads:
        for t in truth["notes"]:
            (note,) = [n for n in notes if n.serial == t["serial"]]
            tq = np.array(t["quad"], np.float32)
            # Each corner lies nearer its own truth corner than any other.
            d = np.linalg.norm(note.quad[:, None, :] - tq[None, :, :], axis=2)
            assert list(d.argmin(axis=1)) == [0, 1, 2, 3]
