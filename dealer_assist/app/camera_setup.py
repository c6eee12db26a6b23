"""``calibrate camera``: the camera's intrinsics and lens distortion from chessboard views, written to a profile.

The views come from photos (:func:`calibrate_camera` with ``images``) or a
live capture (``device``, needs a display). Photos that cannot be used are
named with the reason; too few usable views is an error naming them. The
geometry is :mod:`dealer_assist.calibration.intrinsics`.
"""

from __future__ import annotations

import glob
import os
from collections import Counter
from dataclasses import dataclass, replace
from pathlib import Path

import numpy as np

from dealer_assist.app.photo_files import load_photo
from dealer_assist.app.profiles import Saved, save_section, target_profile
from dealer_assist.calibration.profile import CalibrationError, CameraModel
from dealer_assist.capture import CaptureMode, check_camera_index
from dealer_assist.display import NO_DISPLAY_HINT, has_display
from dealer_assist.vision.images import ImageError

__all__ = ["FULL_RES_SIDE", "CameraSetup", "load_full_photo", "chessboard_views", "calibrate_camera"]

#: Photos are loaded at full resolution up to this side (calibration wants every pixel).
FULL_RES_SIDE = 8000


@dataclass(frozen=True)
class CameraSetup:
    """A camera section written: the model, the views' frame coverage, the photos not used and why.

    ``dropped_table``: the profile's table section was removed (it was made with another camera model).
    """

    saved: Saved
    camera: CameraModel
    coverage: float
    unusable: dict[str, str]
    dropped_table: bool


def load_full_photo(path: Path) -> np.ndarray:
    """A photo at full resolution (up to :data:`FULL_RES_SIDE`); :class:`ImageError` otherwise."""
    image, _ = load_photo(path, max_side=FULL_RES_SIDE)
    return image


def chessboard_views(images: str, pat: tuple[int, int]) -> tuple[list[np.ndarray], tuple[int, int] | None, dict[str, str]]:
    """The chessboard corners of every photo ``images`` (a glob) matches.

    Returns ``(views, image_size, unusable)``: the corners of each usable photo
    (all of the most common size), that size, and per unusable photo why.

    Raises:
        CalibrationError: the glob matches no file.
    """
    from dealer_assist.calibration.intrinsics import find_chessboard

    files = sorted(glob.glob(os.path.expanduser(images), recursive=True))
    files = [f for f in files if Path(f).is_file()]
    if not files:
        raise CalibrationError(f"--images {images!r} matches no file.")
    unusable: dict[str, str] = {}
    found: dict[str, tuple[np.ndarray, tuple[int, int]]] = {}
    for f in files:
        try:
            img = load_full_photo(Path(f))
        except ImageError as exc:
            unusable[f] = str(exc).split(": ", 1)[-1].rstrip(".")
            continue
        corners = find_chessboard(img, pat)
        if corners is None:
            unusable[f] = f"no whole {pat[0]}x{pat[1]} chessboard found"
        else:
            found[f] = (corners, (img.shape[1], img.shape[0]))
    sizes = Counter(s for _, s in found.values())
    size = sizes.most_common(1)[0][0] if sizes else None
    for f, (_, s) in list(found.items()):
        if s != size:
            unusable[f] = f"{s[0]}x{s[1]} px, the others are {size[0]}x{size[1]}"
            del found[f]
    return [c for c, _ in found.values()], size, unusable


def _live_views(device: int, pat: tuple[int, int], min_views: int, mode: CaptureMode | None = None):
    check_camera_index(device)
    if not has_display():
        raise CalibrationError(f"{NO_DISPLAY_HINT}: photograph the chessboard and give --images GLOB instead.")
    from dealer_assist.calibration.interactive import capture_chessboard_views, open_camera

    state = capture_chessboard_views(open_camera(device, mode or CaptureMode()), pat, min_views)
    if state is None:
        raise CalibrationError("Capture cancelled; nothing was written.")
    return state.views, state.image_size


def calibrate_camera(output: str, pattern: str = "9x6", square_mm: float = 25.0, images: str | None = None,
                     device: int | None = None, min_views: int = 10, mode: CaptureMode | None = None) -> CameraSetup:
    """Fit the camera from chessboard views and write its section to the profile ``output``.

    ``mode``: what to ask camera ``device`` for (default: its largest mode, as live mode asks).

    Raises:
        CalibrationError: the options do not fit together, too few views can be used
            (naming the unusable photos), or the profile cannot be written.
        CameraError: the camera cannot be opened.
    """
    from dealer_assist.calibration.intrinsics import MIN_VIEWS, calibrate_views, coverage, parse_pattern

    pat = parse_pattern(pattern)
    if (images is None) == (device is None):
        raise CalibrationError("Give either --images GLOB (photos of the chessboard) or --camera N (live).")
    target = target_profile(output)
    unusable: dict[str, str] = {}
    if device is not None:
        views, size = _live_views(device, pat, min_views, mode)
    else:
        views, size, unusable = chessboard_views(images, pat)
        if len(views) < MIN_VIEWS:
            listed = "; ".join(f"{Path(f).name} ({why})" for f, why in unusable.items())
            raise CalibrationError(
                f"Only {len(views)} of {len(views) + len(unusable)} photo(s) can be used (at least {MIN_VIEWS} are "
                f"needed)" + (f"; unusable: {listed}." if listed else "; take more photos of the chessboard."))
    cam = calibrate_views(views, size, pat, square_mm).camera
    saved = save_section(replace(target, camera=cam, table=None), output)
    return CameraSetup(saved, cam, float(coverage(views, size).mean()), unusable, target.table is not None)
