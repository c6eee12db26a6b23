"""Loading photos from disk: the I/O edge of the vision pipeline."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np

#: Images whose longer side exceeds this many pixels are downscaled on load.
MAX_SIDE_PX = 2000
#: Images smaller than this (either side, pixels) cannot hold a legible serial.
MIN_SIDE_PX = 64


class ImageError(ValueError):
    """An image file that cannot be used; the message is one plain sentence."""


def load_image(path: str | Path, max_side: int = MAX_SIDE_PX) -> tuple[np.ndarray, float]:
    """Read a photo as BGR pixels, honouring its EXIF orientation.

    Args:
        path: any image format OpenCV reads (JPEG, PNG, WebP, TIFF, AVIF, ...),
            or Pillow with ``pillow-heif`` (HEIC/HEIF, an iPhone's default).
        max_side: longer side in pixels above which the image is downscaled
            (INTER_AREA), so that a 50-megapixel photo does not stall the reader.

    Returns:
        ``(image, scale)``: ``image`` is ``uint8`` of shape ``(H, W, 3)``, BGR;
        ``scale`` is the factor applied (1.0 when not downscaled), so a point in
        the original file is ``point_in_image / scale``.

    Raises:
        ImageError: the file is missing, is not an image OpenCV can decode,
            is empty, declares more pixels than OpenCV decodes, or is smaller
            than :data:`MIN_SIDE_PX` on a side.
    """
    p = Path(path)
    if not p.exists():
        raise ImageError(f"{p}: no such file.")
    if p.is_dir():
        raise ImageError(f"{p}: is a folder, not an image.")
    try:
        data = np.fromfile(p, dtype=np.uint8)
    except OSError as exc:
        raise ImageError(f"{p}: cannot be read ({exc.strerror or exc}).") from None
    if data.size == 0:
        raise ImageError(f"{p}: the file is empty.")
    # IMREAD_COLOR applies the EXIF orientation tag (OpenCV >= 3.1).
    try:
        image = cv2.imdecode(data, cv2.IMREAD_COLOR)
    except (cv2.error, MemoryError):
        # OpenCV refuses images whose header declares more pixels than it allows
        # (a "decompression bomb") and runs out of memory on some others.
        raise ImageError(f"{p}: the image is too large to decode (or its header is corrupt).") from None
    if image is None:
        image = _decode_with_pillow(p)
    if image is None:
        raise ImageError(f"{p}: not an image that can be decoded (corrupt or unsupported format).")
    h, w = image.shape[:2]
    if min(h, w) < MIN_SIDE_PX:
        raise ImageError(f"{p}: the image is too small ({w}x{h} px) to hold a legible serial.")
    scale = 1.0
    if max(h, w) > max_side:
        scale = max_side / max(h, w)
        image = cv2.resize(image, (round(w * scale), round(h * scale)), interpolation=cv2.INTER_AREA)
    return image, scale


def _decode_with_pillow(path: Path) -> np.ndarray | None:
    """What OpenCV does not decode, through Pillow with pillow-heif's opener (HEIC/HEIF), turned by
    its EXIF orientation: ``uint8`` ``(H, W, 3)`` BGR, or None when Pillow cannot decode it either."""
    try:
        import pillow_heif
        from PIL import Image, ImageOps
    except ImportError:  # pragma: no cover - both are dependencies of the package
        return None
    pillow_heif.register_heif_opener()
    try:
        with Image.open(path) as im:
            rgb = ImageOps.exif_transpose(im).convert("RGB")
    except (OSError, ValueError, SyntaxError, Image.DecompressionBombError):
        return None
    return cv2.cvtColor(np.asarray(rgb), cv2.COLOR_RGB2BGR)
