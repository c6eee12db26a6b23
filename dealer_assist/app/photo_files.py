"""Which files are photos, and loading them as BGR pixels (HEIC/HEIF too).

:func:`dealer_assist.vision.images.load_image` decodes what OpenCV reads
(JPEG, PNG, WebP, TIFF, BMP, AVIF). An iPhone's default, HEIC/HEIF, it does
not: :func:`load_photo` decodes those through ``pillow-heif``, turned by their
EXIF orientation, and applies the same size rules.
"""

from __future__ import annotations

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
    through pillow-heif, turned by its EXIF orientation). Raises :class:`ImageError` with one sentence."""
    return load_image(path, max_side=max_side)
