"""How finely the calibrated camera sees each zone: px per table mm along both axes, and the verdict.

The floor and the verdict's wording are :mod:`dealer_assist.vision.readability`'s;
this module measures a profile's scale over its zones (lens distortion
included: it maps points through :meth:`~.profile.Profile.to_image_px`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

import numpy as np

from dealer_assist.calibration.profile import Profile
from dealer_assist.vision.readability import ScaleVerdict, px_per_mm_figure, scale_verdict

__all__ = ["ZoneScale", "axis_scales", "zone_scales", "zones_below_floor", "below_floor_sentence"]


@dataclass(frozen=True)
class ZoneScale:
    """One zone's worst point as the camera sees it.

    Attributes:
        zone: the zone's name; kind: ``board`` or ``seat``.
        worst_mm: the table point (mm) where it is seen coarsest.
        check: the verdict there (px/mm across and deep, readable or not, what to change).
    """

    zone: str
    kind: str
    worst_mm: tuple[float, float]
    check: ScaleVerdict


def axis_scales(profile: Profile, points_mm: np.ndarray, image_size: Sequence[int] | None = None,
                step_mm: float = 2.0) -> np.ndarray:
    """Camera px per table mm along x and along y at each point: ``float64`` ``(N, 2)``.

    ``image_size``: (width, height) of the frames (None: the calibration's).
    """
    p = np.asarray(points_mm, np.float64).reshape(-1, 2)
    size = image_size if image_size is not None else profile.image_size
    base = profile.to_image_px(p, size)
    along_x = profile.to_image_px(p + [step_mm, 0.0], size)
    along_y = profile.to_image_px(p + [0.0, step_mm], size)
    return np.column_stack([np.linalg.norm(along_x - base, axis=1), np.linalg.norm(along_y - base, axis=1)]) / step_mm


def _samples(polygon_mm: np.ndarray, n: int = 5) -> np.ndarray:
    """The polygon's corners, points along its edges and a grid over its bounding box that lie inside."""
    poly = np.asarray(polygon_mm, np.float64)
    pts = [poly]
    for a, b in zip(poly, np.roll(poly, -1, axis=0)):
        pts.append(a + (b - a) * np.linspace(0, 1, n, endpoint=False)[:, None])
    return np.concatenate(pts)


def zone_scales(profile: Profile, image_size: Sequence[int] | None = None) -> list[ZoneScale]:
    """Each zone's worst point (the lowest px/mm along either table axis over its outline) and its verdict,
    in the profile's zone order. Raises :class:`~.profile.CalibrationError` without a table section."""
    table = profile.require_table()
    out = []
    for z in table.zones:
        pts = _samples(z.polygon_mm)
        s = axis_scales(profile, pts, image_size)
        i = int(np.argmin(s.min(axis=1)))
        out.append(ZoneScale(z.name, str(z.kind), (float(pts[i, 0]), float(pts[i, 1])),
                             scale_verdict(float(s[i, 0]), float(s[i, 1]))))
    return out


def zones_below_floor(profile: Profile, image_size: Sequence[int] | None = None) -> list[ZoneScale]:
    """The zones the camera sees below the readability floor."""
    return [z for z in zone_scales(profile, image_size) if not z.check.readable]


def below_floor_sentence(low: Sequence[ZoneScale]) -> str:
    """One sentence naming the zones below the floor and the fix ("" when none)."""
    if not low:
        return ""
    worst = min(low, key=lambda z: z.check.px_per_mm)
    names = ", ".join(f"{z.zone} {px_per_mm_figure(z.check.px_per_mm)}" for z in low)
    return (f"Serial digits are too small to read in {len(low)} zone(s) (px/mm: {names}); "
            f"{worst.check.advice[0].lower()}{worst.check.advice[1:]}")
