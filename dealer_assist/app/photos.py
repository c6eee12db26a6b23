"""Reading photos: every note's serial in each photo, in parallel processes when asked.

Used by ``read`` (the photos given) and ``score`` (every photo of the hand
folders). Every failure becomes :attr:`ImageReading.error`, one sentence,
never an exception: one bad photo never stops a batch.
"""

from __future__ import annotations

from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from typing import Any, Callable, Sequence

from dealer_assist.app.photo_files import load_photo
from dealer_assist.app.readers import get_reader
from dealer_assist.vision.images import ImageError
from dealer_assist.vision.model import NoteRead, NoteStatus
from dealer_assist.vision.ocr import EngineError
from dealer_assist.vision.readability import explain_small, print_digit_px

__all__ = ["ImageReading", "read_photo", "read_photos"]


@dataclass
class ImageReading:
    """The reader's result for one image file.

    Attributes:
        image: the path as given.
        notes: the notes found (empty when none), or ``[]`` with ``error`` set.
        error: one plain sentence when the file could not be read at all.
        scale: the downscale applied on load (quads are in the loaded image's pixels
            divided back by it, i.e. in the file's pixels).
    """

    image: str
    notes: list[NoteRead] = field(default_factory=list)
    error: str | None = None
    scale: float = 1.0

    def to_json(self) -> dict[str, Any]:
        """FORMATS.md §3 object for this image (``error`` instead of ``notes`` on failure)."""
        if self.error:
            return {"image": self.image, "error": self.error, "notes": []}
        notes = []
        for n in self.notes:
            obj = n.to_json()
            obj["quad"] = [[round(x / self.scale, 1), round(y / self.scale, 1)] for x, y in obj["quad"]]
            notes.append(obj)
        return {"image": self.image, "notes": notes}


def _trusted(notes: list[NoteRead]) -> int:
    return sum(n.status == NoteStatus.TRUSTED for n in notes)


def read_photo(path: str, expected: int | None = None, layout=None) -> ImageReading:
    """Load and read one photo; every failure becomes ``error``, never an exception.

    Args:
        path: the photo.
        expected: the notes the photo should hold, when known (a hand folder's photo).
        layout: the deck's note layout (a profile's ``notes``), or None. With a
            layout, a photo on which the fast path trusted fewer notes than
            ``expected`` is read again by the general reader (the fast path
            misses a note whose outline it does not find), and the reading
            with more trusted notes is kept.
    """
    try:
        image, scale = load_photo(path)
    except ImageError as exc:
        return ImageReading(path, error=str(exc))
    try:
        reader = get_reader(layout)
        notes = reader.read(image)
        if layout is not None and expected is not None and _trusted(notes) < expected:
            again = get_reader(None).read(image)
            if _trusted(again) > _trusted(notes):
                notes = again
    except EngineError as exc:
        return ImageReading(path, error=str(exc))
    except Exception as exc:  # noqa: BLE001 - one photo must never stop a batch
        return ImageReading(path, error=f"{path}: the reader failed on this photo ({type(exc).__name__}: {exc}).")
    # an unread note whose digits are below the reader's floor says so (their size from the prints' length,
    # in the file's pixels: a downscaled load is not the camera's fault)
    notes = [explain_small(n, _file_digit_px(n, scale)) for n in notes]
    return ImageReading(path, notes=notes, scale=scale)


def _file_digit_px(note: NoteRead, scale: float) -> float | None:
    px = print_digit_px([p.quad for p in note.prints])
    return None if px is None else px / scale


def _read_job(item: tuple[str, int | None, Any]) -> ImageReading:
    return read_photo(*item)


def read_photos(paths: Sequence[str], jobs: int = 1, progress: Callable[[ImageReading], None] | None = None,
                expected: Sequence[int | None] | None = None, layout=None) -> list[ImageReading]:
    """:func:`read_photo` over many photos, in parallel processes when ``jobs > 1``; results in input order.

    ``expected``: per path, the notes it should hold, or None. Each worker
    process holds its own engines (one onnxruntime thread each), so ``jobs=N``
    gives the same results as ``jobs=1``.
    """
    items = [(p, e, layout) for p, e in zip(paths, expected if expected is not None else [None] * len(paths))]
    results: list[ImageReading] = []
    if jobs <= 1 or len(paths) <= 1:
        for item in items:
            r = _read_job(item)
            results.append(r)
            if progress:
                progress(r)
        return results
    with ProcessPoolExecutor(max_workers=jobs) as pool:
        for r in pool.map(_read_job, items):
            results.append(r)
            if progress:
                progress(r)
    return results
