"""Which files are photos, and loading them as BGR pixels."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from dealer_assist.vision.images import MAX_SIDE_PX, load_image

__all__ = ["PHOTO_SUFFIXES", "is_photo_name", "load_photo"]

#: Every suffix read as a photo (any case).
PHOTO_SUFFIXES = frozenset({".jpg", ".jpeg", ".png", ".webp", ".bmp", ".tif", ".tiff"})


def is_photo_name(path: Path) -> bool:
    """A name with a photo suffix (any case) that is not hidden (``._x.jpg`` is macOS metadata)."""
    return path.suffix.lower() in PHOTO_SUFFIXES and not path.name.startswith(".")


def load_photo(path: str | Path, max_side: int = MAX_SIDE_PX) -> tuple[np.ndarray, float]:
    """:func:`~dealer_assist.vision.images.load_image`: ``(image, scale)``, :class:`ImageError` with one sentence."""
    return load_image(path, max_side=max_side)
