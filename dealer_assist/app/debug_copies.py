"""``read --debug-dir``: the annotated copy of each photo, written atomically, every failure said.

The drawing is :func:`dealer_assist.debug.annotate`; this writes it as
``<folder>/<photo stem>.debug.jpg`` through :func:`dealer_assist.fileio.write_atomic`,
so that a full disk or a folder that refuses files is a :class:`DebugCopyError`
(one sentence), never a copy silently missing (``cv2.imwrite`` only returns False).
"""

from __future__ import annotations

from pathlib import Path

from dealer_assist.app.photo_files import load_photo
from dealer_assist.app.photos import ImageReading
from dealer_assist.fileio import write_atomic
from dealer_assist.vision.images import ImageError

__all__ = ["DebugCopyError", "write_debug_copy"]


class DebugCopyError(OSError):
    """An annotated copy that could not be written; one sentence naming it."""


def debug_name(image: str, taken: set[str] | None = None) -> str:
    """``<stem>.debug.jpg``; a name in ``taken`` (two photos ``x.jpg`` in two folders) gets ``x-2.debug.jpg``.

    >>> debug_name("a/x.jpg"), debug_name("b/x.jpg", {"x.debug.jpg"})
    ('x.debug.jpg', 'x-2.debug.jpg')
    """
    stem = Path(image).stem
    name, k = f"{stem}.debug.jpg", 1
    while taken is not None and name in taken:
        k += 1
        name = f"{stem}-{k}.debug.jpg"
    return name


def write_debug_copy(reading: ImageReading, folder: Path, taken: set[str] | None = None) -> Path:
    """Write the annotated copy of ``reading``'s photo into ``folder`` and return its path.

    Raises:
        DebugCopyError: the photo cannot be loaded again, the copy cannot be encoded, or the file cannot be
            written (a full disk: the earlier file of that name is left as it was).
    """
    import cv2

    from dealer_assist.debug import annotate

    target = folder / debug_name(reading.image, taken)
    try:
        image, _ = load_photo(reading.image)
    except ImageError as exc:
        raise DebugCopyError(f"cannot write the annotated copy {target}: {exc}") from None
    ok, buf = cv2.imencode(".jpg", annotate(image, reading))
    if not ok:
        raise DebugCopyError(f"cannot write the annotated copy {target}: OpenCV could not encode it.")
    try:
        write_atomic(target, buf.tobytes())
    except OSError as exc:
        raise DebugCopyError(f"cannot write the annotated copy {target}: "
                             f"{(exc.strerror or str(exc)).lower()}.") from None
    return target
