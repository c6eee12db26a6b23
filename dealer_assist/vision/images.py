"""Loading photos from disk: the I/O edge of the vision pipeline.

Every photo is decoded here (:func:`load_image`; the frames of a recorded image
list too, :func:`check_pixels`), after its header was read by Pillow (with
pillow-heif's opener for HEIC/HEIF): an image declaring more than
:data:`MAX_IMAGE_PIXELS` is refused before a single pixel is decoded, so a
2.7 MB PNG of 30000x30000 px (a "decompression bomb", 2.7 GB as pixels) costs
a header read, not gigabytes.
"""

from __future__ import annotations

import io
import re
import warnings
from pathlib import Path

import cv2
import numpy as np

#: Images whose longer side exceeds this many pixels are downscaled on load.
MAX_SIDE_PX = 2000
#: Images smaller than this (either side, pixels) cannot hold a legible serial.
MIN_SIDE_PX = 64
#: The most pixels an image may declare to be decoded: 400 megapixels, twice the largest phone photo
#: there is (a 200-megapixel sensor: 16,320 x 12,240 = 199.8 MP, Samsung's ISOCELL HP2 of the Galaxy S23
#: Ultra). Decoded as BGR such a photo takes 1.2 GB; 30000x30000 px would take 2.7 GB, and is refused.
#: Pillow's own decompression-bomb check is set to this limit and is the check (see :func:`check_pixels`).
MAX_IMAGE_PIXELS = 400_000_000


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
        ImageError: the file is missing, is not an image OpenCV or Pillow can
            decode, is empty, declares more than :data:`MAX_IMAGE_PIXELS` in its
            header (checked before decoding), or is smaller than
            :data:`MIN_SIDE_PX` on a side.
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
    check_pixels(data, p)
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


def _pillow():
    """Pillow, with pillow-heif's opener (HEIC/HEIF) and the decompression-bomb limit of this module."""
    import pillow_heif
    from PIL import Image

    pillow_heif.register_heif_opener()
    Image.MAX_IMAGE_PIXELS = MAX_IMAGE_PIXELS
    return Image


def check_pixels(data: np.ndarray | bytes, label: str | Path) -> None:
    """Refuse an image whose header declares more than :data:`MAX_IMAGE_PIXELS` (or that has no header
    Pillow reads), before anything is decoded.

    Args:
        data: the file's bytes (``uint8`` array or ``bytes``).
        label: the file, for the sentence.

    Raises:
        ImageError: one sentence: the image is too large to decode, or is not an image.
    """
    Image = _pillow()
    buffer = io.BytesIO(data.tobytes() if isinstance(data, np.ndarray) else bytes(data))
    try:
        with warnings.catch_warnings():
            # Pillow warns above MAX_IMAGE_PIXELS (and raises above twice that): either is a refusal here
            warnings.simplefilter("error", Image.DecompressionBombWarning)
            with Image.open(buffer):
                pass
    except (Image.DecompressionBombWarning, Image.DecompressionBombError) as exc:
        # Pillow's sentence gives the count: "Image size (900000000 pixels) exceeds limit of ..."
        count = re.search(r"\((\d+) pixels\)", str(exc))
        declared = f" ({int(count.group(1)) / 1e6:,.0f} megapixels)" if count else ""
        raise ImageError(f"{label}: the image is too large to decode{declared}: a photo may have at most "
                         f"{MAX_IMAGE_PIXELS // 1_000_000} megapixels here (twice the largest phone photo), "
                         f"so it is not read.") from None
    except (OSError, ValueError, SyntaxError, EOFError, MemoryError):
        raise ImageError(f"{label}: not an image that can be decoded (corrupt or unsupported format).") from None


def _decode_with_pillow(path: Path) -> np.ndarray | None:
    """What OpenCV does not decode, through Pillow with pillow-heif's opener (HEIC/HEIF), turned by
    its EXIF orientation: ``uint8`` ``(H, W, 3)`` BGR, or None when Pillow cannot decode it either."""
    from PIL import ImageOps

    Image = _pillow()
    try:
        with Image.open(path) as im:
            rgb = ImageOps.exif_transpose(im).convert("RGB")
    except (OSError, ValueError, SyntaxError, Image.DecompressionBombError):
        return None
    return cv2.cvtColor(np.asarray(rgb), cv2.COLOR_RGB2BGR)
