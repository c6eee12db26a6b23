"""Helpers shared by the live-mode tests: calibration profiles made with the calibration module's own functions."""

from __future__ import annotations

import json
from pathlib import Path

import cv2
import numpy as np

from dealer_assist.calibration.profile import Profile, TablePlane, save_profile
from dealer_assist.calibration.table import (
    auto_zones,
    detect_markers,
    homography_from_corners,
    homography_from_markers,
    zones_from_json,
)

TABLE_MM = (1000.0, 700.0)


def plain_profile(image_size: tuple[int, int], seats: list[str], path: Path | None = None) -> Profile:
    """A profile whose table fills the whole frame (corners at the image corners), automatic zones."""
    w, h = image_size
    fit = homography_from_corners(np.array([[0, 0], [w - 1, 0], [w - 1, h - 1], [0, h - 1]], float), TABLE_MM)
    plane = TablePlane((w, h), fit.homography, fit.table_size_mm, tuple(auto_zones(seats, TABLE_MM)))
    profile = Profile("test", None, None, plane)
    return save_profile(profile, path) if path is not None else profile


def sequence_profile(seq_dir: Path, path: Path) -> Profile:
    """The profile of a rendered dealt-hand sequence, as `calibrate table --aruco --zones` makes it:
    the plane from the ArUco markers of its first frame, the zones from its truth (table mm)."""
    truth0 = json.loads((seq_dir / "truth.jsonl").read_text(encoding="utf-8").splitlines()[0])
    frame0 = cv2.imread(str(seq_dir / "frames" / "frame_0000.jpg"))
    fit = homography_from_markers(detect_markers(frame0), None)
    plane = TablePlane((frame0.shape[1], frame0.shape[0]), fit.homography, fit.table_size_mm,
                       tuple(zones_from_json(truth0["table"])))
    return save_profile(Profile("sequence", None, None, plane), path)


def write_frames(folder: Path, n: int, size: tuple[int, int] = (320, 180)) -> str:
    """``n`` plain frames (a wooden-table brown) in ``folder``; returns their glob."""
    folder.mkdir(parents=True, exist_ok=True)
    for i in range(n):
        img = np.full((size[1], size[0], 3), (40, 70, 110), np.uint8)
        cv2.imwrite(str(folder / f"frame_{i:04d}.png"), img)
    return str(folder / "*.png")
