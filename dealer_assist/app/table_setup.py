"""``calibrate table``: the table plane (image px -> table mm) and its zones, written to a profile.

:func:`calibrate_table` owns every sanity check: a table over 10 m is a unit
mistake and is refused; so is a plane that puts most of the table outside
the photo; zones centred outside the table and markers that measure another
table size are said (:attr:`TableSetup.notes`). Nothing is written unless
the profile asked for can be.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from pathlib import Path

import numpy as np

from dealer_assist.fileio import path_text
from dealer_assist.app.camera_setup import load_full_photo
from dealer_assist.app.profiles import Saved, save_section, target_profile
from dealer_assist.calibration.profile import CalibrationError, TablePlane
from dealer_assist.calibration.store import load_profile
from dealer_assist.capture import CaptureMode, check_camera_index
from dealer_assist.display import NO_DISPLAY_HINT, has_display
from dealer_assist.fileio import JsonInputError, load_json

__all__ = ["MAX_TABLE_MM", "ZONE_SLACK_MM", "TableRequest", "TableSetup", "calibrate_table", "parse_corners",
           "parse_size", "read_zones_file", "zone_notes"]

#: Larger tables are taken for a unit mistake (a size in cm or m given as mm, a wrong marker size).
MAX_TABLE_MM = 10_000.0
#: A zone centred further than this outside the table is said to be outside.
ZONE_SLACK_MM = 50.0


@dataclass(frozen=True)
class TableRequest:
    """What ``calibrate table`` was asked: the photo, how to find the plane, the zones, the profile.

    Exactly one of ``corners`` (``"x,y x,y x,y x,y"``), ``aruco`` and
    ``interactive`` gives the plane; one of ``seats`` (``"a,b,c"``) and
    ``zones`` (a JSON file) the zones; one of ``image`` and ``device`` the photo.
    """

    output: str
    image: Path | None = None
    device: int | None = None
    corners: str | None = None
    aruco: bool = False
    interactive: bool = False
    table_mm: str | None = None
    marker_mm: float = 56.0
    marker_inset_mm: float = 45.0
    seats: str | None = None
    zones: Path | None = None
    intrinsics: str | None = None
    capture: CaptureMode = CaptureMode()


@dataclass
class TableSetup:
    """A table section written, with the fit, the photo's size and what the user should check."""

    saved: Saved
    image_size: tuple[int, int]
    fit: object
    notes: list[str]


def parse_size(text: str, option: str) -> tuple[float, float]:
    """``"W,H"`` (or ``WxH``) as two positive numbers; :class:`CalibrationError` otherwise."""
    import re

    m = re.fullmatch(r"\s*([-+]?\d+(?:\.\d*)?)\s*[,x×]\s*([-+]?\d+(?:\.\d*)?)\s*", text or "")
    if not m:
        raise CalibrationError(f"{option} must be two numbers as W,H (e.g. 1000,700), not {text!r}.")
    a, b = float(m.group(1)), float(m.group(2))
    if a <= 0 or b <= 0:
        raise CalibrationError(f"{option} must be two positive numbers, not {text!r}.")
    return a, b


def parse_corners(text: str) -> np.ndarray:
    """``"x,y x,y x,y x,y"`` -> float64 ``(4, 2)``; :class:`CalibrationError` otherwise."""
    import re

    pairs = re.findall(r"([-+]?\d+(?:\.\d*)?)\s*,\s*([-+]?\d+(?:\.\d*)?)", text or "")
    rest = re.sub(r"[-+]?\d+(?:\.\d*)?\s*,\s*[-+]?\d+(?:\.\d*)?", "", text or "").strip(" ;")
    if len(pairs) != 4 or rest:
        raise CalibrationError(
            "--corners needs four image points as 'x,y x,y x,y x,y' (px, clockwise from the table's top-left).")
    return np.array(pairs, np.float64)


def read_zones_file(zones: Path) -> list:
    """The zones of a ``--zones`` JSON file (table mm); :class:`CalibrationError` with one sentence otherwise."""
    from dealer_assist.calibration.table import check_zones_apart, zones_from_json

    try:
        obj = load_json(zones)
    except JsonInputError as exc:
        raise CalibrationError(f"{exc.label} {exc.reason}, so it gives no zones.") from None
    zone_list = zones_from_json(obj, str(zones))
    check_zones_apart(zone_list, str(zones))  # a note lying in two seats would go to one by the list's order
    return zone_list


def _check_request(req: TableRequest) -> None:
    if (req.image is None) == (req.device is None):
        raise CalibrationError("Give either --image FILE or --camera N (one frame is grabbed).")
    if req.device is not None:
        check_camera_index(req.device)  # OpenCV segfaults on a negative index
    if sum([req.corners is not None, req.aruco, req.interactive]) != 1:
        raise CalibrationError("Give exactly one of --corners, --aruco or --interactive.")
    if (req.seats is None) == (req.zones is None):
        raise CalibrationError("Give either --seats NAME,NAME,... (automatic zones) or --zones FILE.json.")


def _photo(req: TableRequest) -> tuple[np.ndarray, str]:
    if req.image is not None:
        return load_full_photo(req.image), path_text(req.image)
    from dealer_assist.calibration.interactive import grab_frame

    return grab_frame(req.device, mode=req.capture), f"camera {req.device}"


def _refuse_headless_clicking(photo: np.ndarray) -> None:
    """Refused, not replaced by another method: the profile written must be the one asked for."""
    from dealer_assist.calibration.table import detect_markers

    if len(detect_markers(photo)) >= 3:
        raise CalibrationError(f"{NO_DISPLAY_HINT}, and nothing was written: the photo shows the corner "
                               f"markers, so use --aruco instead of --interactive (or give --corners).")
    raise CalibrationError(f"{NO_DISPLAY_HINT}, and nothing was written: give the corners with --corners "
                           f"'x,y x,y x,y x,y' or use --aruco.")


def _fit(req: TableRequest, photo: np.ndarray, camera, size_mm):
    """The plane's fit from markers, typed corners or clicked corners (undistorted first with a camera)."""
    from dealer_assist.calibration.table import (MarkerLayout, detect_markers, homography_from_corners,
                                                 homography_from_markers)

    if req.aruco:
        markers = detect_markers(photo)
        if camera is not None:
            markers = {k: camera.undistort_points(v) for k, v in markers.items()}
        if not markers:
            raise CalibrationError("No ArUco marker (DICT_4X4_50) was found in the photo.")
        return homography_from_markers(markers, size_mm, MarkerLayout(req.marker_mm, req.marker_inset_mm))
    if size_mm is None:
        raise CalibrationError("--table-mm W,H is needed with --corners or --interactive.")
    if req.interactive:
        from dealer_assist.calibration.interactive import click_corners

        pts = click_corners(photo)
        if pts is None:
            raise CalibrationError("Corner clicking cancelled; nothing was written.")
    else:
        pts = parse_corners(req.corners)
    if camera is not None:
        pts = camera.undistort_points(pts)
    return homography_from_corners(pts, size_mm)


def _check_fit(req: TableRequest, fit, size: tuple[int, int]) -> None:
    """A table over :data:`MAX_TABLE_MM`, or one mostly outside the photo, is a mistake in the options."""
    from dealer_assist.calibration.table import MIN_SHARE_IN_PHOTO, share_in_photo

    if max(fit.table_size_mm) > MAX_TABLE_MM:
        check = "--table-mm, --marker-mm and --marker-inset-mm" if req.aruco else "--table-mm"
        raise CalibrationError(
            f"The fit gives a table of {fit.table_size_mm[0] / 1000:.1f} x {fit.table_size_mm[1] / 1000:.1f} m, "
            f"so nothing was written: check {check} (millimetres).")
    share = share_in_photo(fit.homography, fit.table_size_mm, size)
    if share < MIN_SHARE_IN_PHOTO:
        check = ("--table-mm, --marker-mm and --marker-inset-mm" if req.aruco
                 else "the corners (image px, clockwise from the table's top-left) and --table-mm")
        raise CalibrationError(
            f"The fitted plane puts only {share:.0%} of the {fit.table_size_mm[0]:g} x {fit.table_size_mm[1]:g} mm "
            f"table inside the {size[0]} x {size[1]} px photo, so nothing was written: check {check}.")


def zone_notes(table: TablePlane, fit) -> list[str]:
    """What to check in a table section: markers that measure another table size, zones outside the table."""
    notes = []
    w, h = table.table_size_mm
    if fit.measured_size_mm is not None:
        mw, mh = fit.measured_size_mm
        if abs(mw / w - 1) > 0.02 or abs(mh / h - 1) > 0.02:
            notes.append(f"the markers measure the table as {mw:.0f} x {mh:.0f} mm, not {w:g} x {h:g} mm: check "
                         f"--table-mm and the markers' placement.")
    for z in table.zones:
        cx, cy = z.centre_mm
        if not (-ZONE_SLACK_MM <= cx <= w + ZONE_SLACK_MM and -ZONE_SLACK_MM <= cy <= h + ZONE_SLACK_MM):
            notes.append(f"the zone {z.name} is centred at ({cx:.0f}, {cy:.0f}) mm, outside the {w:g} x {h:g} mm "
                         f"table: notes there are not seen; check the zones.")
    return notes


def calibrate_table(req: TableRequest) -> TableSetup:
    """Fit the table plane, lay out the zones, check them, and write the table section.

    Raises:
        CalibrationError: the options do not fit together, the photo or the fit is
            unusable, or the profile cannot be written (nothing is written then).
        CameraError, ImageError: the camera or the photo cannot be used.
    """
    from dealer_assist.calibration.table import auto_zones

    _check_request(req)
    target = target_profile(req.output)
    camera = target.camera
    if req.intrinsics is not None:
        camera = load_profile(req.intrinsics).camera
        if camera is None:
            raise CalibrationError(f"The profile {req.intrinsics!r} has no camera section.")
    photo, source = _photo(req)
    size = (photo.shape[1], photo.shape[0])
    if camera is not None and tuple(camera.image_size) != size:
        raise CalibrationError(
            f"The photo is {size[0]}x{size[1]} px but the camera section was calibrated at "
            f"{camera.image_size[0]}x{camera.image_size[1]} px: use frames of one size.")
    size_mm = parse_size(req.table_mm, "--table-mm") if req.table_mm is not None else None
    if req.interactive and not has_display():
        _refuse_headless_clicking(photo)
    fit = _fit(req, photo, camera, size_mm)
    _check_fit(req, fit, size)
    if req.seats is not None:
        zone_list = auto_zones([s.strip() for s in req.seats.split(",") if s.strip()], fit.table_size_mm)
    else:
        zone_list = read_zones_file(req.zones)
    extra = {"source": {"method": "aruco" if req.aruco else "corners", "image": source, "points": fit.points,
                        "rms_px": round(fit.rms_px, 3),
                        "measured_size_mm": [round(v, 1) for v in fit.measured_size_mm]
                        if fit.measured_size_mm else None}}
    plane = TablePlane(size, fit.homography, fit.table_size_mm, tuple(zone_list), extra)
    saved = save_section(replace(target, camera=camera, table=plane), req.output)
    return TableSetup(saved, size, fit, zone_notes(saved.profile.table, fit))
