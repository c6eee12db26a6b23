"""Which files are photos, and loading them as BGR pixels (HEIC/HEIF too).

:func:`dealer_assist.vision.images.load_image` decodes what OpenCV reads
(JPEG, PNG, WebP, TIFF, BMP, AVIF). An iPhone's default, HEIC/HEIF, it does
not: :func:`load_photo` decodes those through ``pillow-heif``, turned by their
EXIF orientation, and applies the same size rules.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path

import numpy as np

from dealer_assist.vision.images import MAX_SIDE_PX, ImageError, load_image  # noqa: F401 (ImageError: callers)

__all__ = ["PHOTO_SUFFIXES", "HEIF_SUFFIXES", "is_photo_name", "load_photo"]

#: Photos OpenCV decodes (``.jpe`` and ``.jfif`` are JPEG's other standard names).
OPENCV_SUFFIXES = frozenset({".jpg", ".jpeg", ".jpe", ".jfif", ".png", ".webp", ".tif", ".tiff", ".bmp", ".avif"})
#: Photos decoded through pillow-heif (by :func:`~dealer_assist.vision.images.load_image`).
HEIF_SUFFIXES = frozenset({".heic", ".heif"})
#: Every suffix read as a photo (any case).
PHOTO_SUFFIXES = OPENCV_SUFFIXES | HEIF_SUFFIXES


def is_photo_name(path: Path) -> bool:
    """A name with a photo suffix (any case) that is not hidden (``._x.jpg`` is macOS metadata)."""
    return path.suffix.lower() in PHOTO_SUFFIXES and not path.name.startswith(".")


def load_photo(path: str | Path, max_side: int = MAX_SIDE_PX) -> tuple[np.ndarray, float]:
    """A photo as BGR pixels: :func:`~dealer_assist.vision.images.load_image` (which reads HEIC/HEIF
    through pillow-heif, turned by its EXIF orientation). Raises :class:`ImageError` with one sentence.

    A path that is not a regular file (a FIFO, a device, a socket) is refused after an ``os.stat``,
    never opened: reading a FIFO nobody writes to would hang the batch.
    """
    try:
        mode = os.stat(path).st_mode
    except OSError:
        mode = None  # missing or unreadable: load_image says so
    if mode is not None and not stat.S_ISREG(mode) and not stat.S_ISDIR(mode):
        what = "a pipe" if stat.S_ISFIFO(mode) else "a socket" if stat.S_ISSOCK(mode) else "a device"
        raise ImageError(f"{path}: is not a regular file ({what}), so it is not read.")
    return load_image(path, max_side=max_side)
