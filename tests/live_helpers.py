"""Helpers shared by the live-mode tests: calibration profiles made with the calibration module's own functions."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np

from dealer_assist.calibration import Profile, TablePlane, save_profile
from dealer_assist.calibration.table import auto_zones, homography_from_corners

TABLE_MM = (1000.0, 700.0)


def plain_profile(image_size: tuple[int, int], seats: list[str], path: Path | None = None) -> Profile:
    """A profile whose table fills the whole frame (corners at the image corners), automatic zones."""
    w, h = image_size
    fit = homography_from_corners(np.array([[0, 0], [w - 1, 0], [w - 1, h - 1], [0, h - 1]], float), TABLE_MM)
    plane = TablePlane((w, h), fit.homography, fit.table_size_mm, tuple(auto_zones(seats, TABLE_MM)))
    profile = Profile("test", None, None, plane)
    return save_profile(profile, path) if path is not None else profile


def write_frames(folder: Path, n: int, size: tuple[int, int] = (320, 180)) -> str:
    """``n`` plain frames (a wooden-table brown) in ``folder``; returns their glob."""
    folder.mkdir(parents=True, exist_ok=True)
    for i in range(n):
        img = np.full((size[1], size[0], 3), (40, 70, 110), np.uint8)
        cv2.imwrite(str(folder / f"frame_{i:04d}.png"), img)
    return str(folder / "*.png")


def pseudo_terminal(columns: int = 80, rows: int = 24, **env_extra: str) -> tuple[int, int, dict[str, str]]:
    """A pseudo-terminal of ``columns`` x ``rows`` for a real ``dealer-assist`` process: its (master, slave)
    descriptors and the environment to run it with (this checkout first on the path, no COLUMNS/LINES
    to mask the terminal's size, ``env_extra`` added)."""
    import fcntl
    import os
    import struct
    import termios

    master, slave = os.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", rows, columns, 0, 0))
    env = {**os.environ, "TERM": "xterm-256color", "LANG": "C.UTF-8",
           "PYTHONPATH": str(Path(__file__).resolve().parents[1]), **env_extra}
    env.pop("COLUMNS", None)
    env.pop("LINES", None)
    return master, slave, env
