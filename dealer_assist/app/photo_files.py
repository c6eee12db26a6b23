"""Which files are photos, and loading them as BGR pixels (HEIC/HEIF too).

:func:`dealer_assist.vision.images.load_image` decodes what OpenCV reads
(JPEG, PNG, WebP, TIFF, BMP, AVIF). An iPhone's default, HEIC/HEIF, it does
not: :func:`load_photo` decodes those through ``pillow-heif``, turned by their
EXIF orientation, and applies the same size rules.
"""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np

from dealer_assist.vision.images import MAX_SIDE_PX, MIN_SIDE_PX, ImageError, load_image

__all__ = ["PHOTO_SUFFIXES", "HEIF_SUFFIXES", "is_photo_name", "load_photo"]

#: Photos OpenCV decodes (``.jpe`` and ``.jfif`` are JPEG's other standard names).
OPENCV_SUFFIXES = frozenset({".jpg", ".jpeg", ".jpe", ".jfif", ".png", ".webp", ".tif", ".tiff", ".bmp", ".avif"})
#: Photos decoded through pillow-heif.
HEIF_SUFFIXES = frozenset({".heic", ".heif"})
#: Every suffix read as a photo (any case).
PHOTO_SUFFIXES = OPENCV_SUFFIXES | HEIF_SUFFIXES


def is_photo_name(path: Path) -> bool:
    """A name with a photo suffix (any case) that is not hidden (``._x.jpg`` is macOS metadata)."""
    return path.suffix.lower() in PHOTO_SUFFIXES and not path.name.startswith(".")


def load_photo(path: str | Path, max_side: int = MAX_SIDE_PX) -> tuple[np.ndarray, float]:
    """:func:`~dealer_assist.vision.images.load_image`, with HEIC/HEIF read through pillow-heif.

    Returns ``(image, scale)`` as ``load_image`` does (``uint8`` ``(H, W, 3)`` BGR,
    EXIF orientation applied); raises :class:`ImageError` with one sentence.
    """
    p = Path(path)
    if p.suffix.lower() not in HEIF_SUFFIXES or not p.is_file():
        return load_image(p, max_side=max_side)
    image = _decode_heif(p)
    h, w = image.shape[:2]
    if min(h, w) < MIN_SIDE_PX:
        raise ImageError(f"{p}: the image is too small ({w}x{h} px) to hold a legible serial.")
    scale = 1.0
    if max(h, w) > max_side:
        scale = max_side / max(h, w)
        image = cv2.resize(image, (round(w * scale), round(h * scale)), interpolation=cv2.INTER_AREA)
    return image, scale


def _decode_heif(path: Path) -> np.ndarray:
    try:
        import pillow_heif
        from PIL import Image, ImageOps
    except ImportError:
        raise ImageError(f"{path}: HEIC/HEIF photos need the pillow-heif package (pip install pillow-heif).") from None
    pillow_heif.register_heif_opener()
    try:
        with Image.open(path) as im:
            rgb = ImageOps.exif_transpose(im).convert("RGB")
    except (OSError, ValueError, SyntaxError, Image.DecompressionBombError):
        raise ImageError(f"{path}: not an image that can be decoded (corrupt or unsupported format).") from None
    return cv2.cvtColor(np.asarray(rgb), cv2.COLOR_RGB2BGR)
