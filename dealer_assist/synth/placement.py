"""What lies on the table in a rendered scene: notes (:class:`Placement`) and hands or chips
(:class:`Occluder`), in table millimetres, and the map from a texture to the table (:func:`note_to_table`).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from dealer_assist.synth.layout import NOTE_SIZE_MM, NOTE_SIZE_PX
from dealer_assist.synth.note import NoteSpec


@dataclass
class Placement:
    """A note lying on the table.

    ``centre_mm``: its centre; ``angle_deg``: rotation of its upright x axis
    from the table's x axis, clockwise as seen in the image (0 = upright, 180 =
    upside down); ``face_up``: False shows the back; ``zone``: the zone it was
    dealt to; ``curl_mm``: bow of its (long, short) edges; ``fold_u``: position
    of a fold across the note (0..1 of its width) or None; ``crumple``:
    amplitude of the paper's shading; ``shade_seed``: seed of that shading.
    """

    spec: NoteSpec
    centre_mm: tuple[float, float]
    angle_deg: float
    face_up: bool = True
    zone: str | None = None
    curl_mm: tuple[float, float] = (0.0, 0.0)
    fold_u: float | None = None
    crumple: float = 0.0
    shade_seed: int = 0


@dataclass
class Occluder:
    """A hand or a chip on or above the table: ``kind`` ``"hand"`` | ``"chip"``,
    ``centre_mm``, ``angle_deg`` (clockwise), ``scale`` (1 = natural size), ``seed``."""

    kind: str
    centre_mm: tuple[float, float]
    angle_deg: float = 0.0
    scale: float = 1.0
    seed: int = 0


def replace_placement(pl: Placement, **kw) -> Placement:
    """A copy of ``pl`` with the fields in ``kw`` changed."""
    d = dict(pl.__dict__)
    d.update(kw)
    return Placement(**d)


def note_to_table(centre_mm: tuple[float, float], angle_deg: float, size_px=NOTE_SIZE_PX, size_mm=NOTE_SIZE_MM) -> np.ndarray:
    """Affine (3, 3) matrix from a texture's pixel frame (0..w, 0..h) to table millimetres."""
    a = np.deg2rad(angle_deg)
    ca, sa = np.cos(a), np.sin(a)
    sx, sy = size_mm[0] / size_px[0], size_mm[1] / size_px[1]
    t0 = np.array([[1, 0, -size_px[0] / 2], [0, 1, -size_px[1] / 2], [0, 0, 1.0]])
    sc = np.diag([sx, sy, 1.0])
    rot = np.array([[ca, -sa, 0], [sa, ca, 0], [0, 0, 1.0]])
    t1 = np.array([[1, 0, centre_mm[0]], [0, 1, centre_mm[1]], [0, 0, 1.0]])
    return t1 @ rot @ sc @ t0
