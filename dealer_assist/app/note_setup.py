"""``calibrate notes``, ``check`` and ``pattern``: the deck's note layout, a check of a table profile on a
photo, and a chessboard to print.
"""

from __future__ import annotations

import os
from collections import Counter
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Sequence

import cv2
import numpy as np

from dealer_assist.app.camera_setup import load_full_photo
from dealer_assist.app.profiles import Saved, save_section, target_profile
from dealer_assist.app.readers import get_reader, table_reader
from dealer_assist.calibration.profile import CalibrationError, NoteLayout, Profile
from dealer_assist.calibration.store import load_profile
from dealer_assist.fileio import write_atomic
from dealer_assist.vision.images import ImageError
from dealer_assist.vision.ocr import EngineError

__all__ = ["IMAGE_SUFFIXES", "MAX_PATTERN_SIDE_PX", "NoteSetup", "TableCheck", "learn_notes", "check_table_photo",
           "write_pattern", "write_image"]

#: Image files the commands write (annotated photos, printable chessboards), by extension.
IMAGE_SUFFIXES = (".png", ".jpg", ".jpeg", ".webp", ".bmp", ".tif", ".tiff")
#: Largest side of a printable chessboard, px (10000 px is 85 cm at 300 dpi; 100 MB in memory).
MAX_PATTERN_SIDE_PX = 10000


@dataclass(frozen=True)
class NoteSetup:
    """A notes section written: the layout learned, and the photos skipped with why."""

    saved: Saved
    layout: NoteLayout
    problems: list[str]


def learn_notes(images: Sequence[Path], output: str) -> NoteSetup:
    """Learn the deck's note layout from photos of one sample note and write it to the profile ``output``.

    Each photo should show one note whose two serial prints read alike; the
    others are skipped with a reason. Raises :class:`CalibrationError` when no
    photo gives a usable note, the photos disagree, or the reader cannot run.
    """
    from dealer_assist.calibration.notes import learn_layout, measure_note

    target = target_profile(output)
    reader = get_reader()
    samples, problems = [], []
    for path in images:
        try:
            photo = load_full_photo(path)
            notes = [n for n in reader.read(photo) if n.serial is not None and len(n.prints) >= 2]
        except ImageError as exc:
            problems.append(str(exc).rstrip("."))
            continue
        except EngineError as exc:
            raise CalibrationError(str(exc)) from None
        if not notes:
            problems.append(f"{path.name}: no note whose two serial prints read alike")
            continue
        if len(notes) > 1:
            problems.append(f"{path.name}: {len(notes)} notes; only the first is used")
        s = measure_note(photo, notes[0], path.name)
        if s.problem:
            problems.append(f"{path.name}: {s.problem}")
        else:
            samples.append(s)
    if not samples:
        raise CalibrationError(f"No photo gave a usable note: {'; '.join(problems)}.")
    try:
        layout = learn_layout(samples)
    except ValueError as exc:
        raise CalibrationError(f"The photos do not agree on a layout: {exc}.") from None
    return NoteSetup(save_section(replace(target, notes=layout), output), layout, problems)


def write_image(output: Path, image: np.ndarray, suffix: str, what: str) -> None:
    """Encode ``image`` (``uint8`` BGR) as ``suffix`` and write it to ``output`` atomically.

    Raises:
        CalibrationError: OpenCV cannot encode that type, or the file cannot be written.
    """
    ok, buf = cv2.imencode(suffix, image)
    if not ok:
        raise CalibrationError(f"Cannot encode {what} as {suffix}.")
    try:
        write_atomic(output, buf.tobytes())
    except OSError as exc:
        raise CalibrationError(f"Cannot write {output} ({exc.strerror or exc}).") from None


@dataclass(frozen=True)
class TableCheck:
    """Where every note of a whole-table photo falls through a profile.

    ``rows``: per note its serial, status, zone, centre in px, anchor in table mm
    and quad; ``counts``: notes per zone (None: no zone); ``image_size``: the
    photo's (width, height) px; ``zones``: per zone how the camera sees it
    (:func:`~dealer_assist.calibration.resolution.zone_scales`, as JSON).
    """

    profile: Profile
    rows: list[dict]
    counts: Counter
    image_size: tuple[int, int] | None = None
    zones: list[dict] | None = None


def check_table_photo(image: Path, calibration: str | None, output: Path) -> TableCheck:
    """Read a whole-table photo through a profile, write the annotated copy to ``output``, and say where each
    note falls. Raises :class:`CalibrationError` (and :class:`ImageError`) with one sentence."""
    from dealer_assist.calibration.draw import annotate_table
    from dealer_assist.calibration.tabletop import read_table

    profile = load_profile(calibration)
    profile.require_table()
    if not output.parent.is_dir():
        raise CalibrationError(f"Cannot write {output}: the folder {output.parent} does not exist.")
    if output.exists() and image.exists() and os.path.samefile(output, image):
        raise CalibrationError(f"--output {output} is the photo being checked; give another file "
                               f"(the annotated copy would replace the photo).")
    suffix = output.suffix.lower() or ".jpg"
    if suffix not in IMAGE_SUFFIXES:
        raise CalibrationError(f"--output must end in .jpg, .png or another image type "
                               f"({', '.join(IMAGE_SUFFIXES[2:])}), not {output.suffix!r}.")
    photo = load_full_photo(image)
    try:
        notes = read_table(photo, profile, table_reader())
    except EngineError as exc:
        raise CalibrationError(str(exc)) from None
    write_image(output, annotate_table(photo, profile, notes), suffix, "the annotated image")
    rows = []
    for tn in notes:
        c = np.asarray(tn.note.quad, np.float64).mean(axis=0)
        rows.append({"serial": tn.note.serial, "status": tn.note.status, "zone": tn.zone,
                     "centre_px": [round(float(c[0]), 1), round(float(c[1]), 1)],
                     "anchor_mm": [round(float(v), 1) for v in tn.anchor_mm],
                     "quad": [[round(float(x), 1), round(float(y), 1)] for x, y in tn.note.quad]})
    size = (photo.shape[1], photo.shape[0])
    return TableCheck(profile, rows, Counter(r["zone"] for r in rows), size, zone_scales_json(profile, size))


def zone_scales_json(profile: Profile, image_size) -> list[dict]:
    """Each zone's px/mm at its worst point along the table's width and depth, its verdict and what to change."""
    from dealer_assist.calibration.resolution import zone_scales
    from dealer_assist.vision.readability import READABLE_PX_PER_MM, shown_beside

    def shown(v: float) -> float:  # 2.396 is 2.39 beside "too small", not 2.4
        return round(*shown_beside(v, READABLE_PX_PER_MM, 2))

    return [{"zone": z.zone, "px_per_mm_across": shown(z.check.across_px_per_mm),
             "px_per_mm_deep": shown(z.check.deep_px_per_mm), "verdict": str(z.check.verdict),
             "advice": z.check.advice} for z in zone_scales(profile, image_size)]


#: Image types whose files carry a print resolution (Pillow writes it: PNG pHYs, JPEG JFIF, TIFF, BMP).
DPI_SUFFIXES = (".png", ".jpg", ".jpeg", ".tif", ".tiff", ".bmp")

#: Millimetres in an inch (a printed size from dots per inch).
MM_PER_INCH = 25.4


def write_pattern(output: Path, pattern: str = "9x6", square_px: int = 100, dpi: int = 300) -> tuple[int, int]:
    """Write a printable chessboard for ``calibrate camera``; returns its inner corners (cols, rows).

    The file says ``dpi`` as its print resolution (types of :data:`DPI_SUFFIXES`), so a viewer prints one
    square ``square_px / dpi`` inches wide at 100 % scale (:func:`printed_square_mm`).

    Raises :class:`CalibrationError` for a bad pattern, an output that is not an
    image type or cannot be written, or a board over :data:`MAX_PATTERN_SIDE_PX`.
    """
    from dealer_assist.calibration.intrinsics import parse_pattern
    from dealer_assist.calibration.chessboard import chessboard_image

    pat = parse_pattern(pattern)
    suffix = output.suffix.lower() or ".png"
    if suffix not in IMAGE_SUFFIXES:
        raise CalibrationError(f"--output must end in .png or another image type "
                               f"({', '.join(IMAGE_SUFFIXES[1:])}), not {output.suffix!r}.")
    if not output.parent.is_dir():
        raise CalibrationError(f"Cannot write {output}: the folder {output.parent} does not exist.")
    # the same size chessboard_image makes: the squares plus a margin of one square each side
    width, height = (pat[0] + 3) * square_px, (pat[1] + 3) * square_px
    if max(width, height) > MAX_PATTERN_SIDE_PX:
        raise CalibrationError(f"The board would be {width} x {height} px; at most {MAX_PATTERN_SIDE_PX} px a side "
                               f"is written: use a smaller --square-px or --pattern.")
    board = chessboard_image(pat, square_px)
    if suffix in DPI_SUFFIXES:
        _write_with_dpi(output, board, suffix, dpi)
    else:
        write_image(output, board, suffix, "the board")
    return pat


def printed_square_mm(square_px: int, dpi: int) -> float:
    """The side of a square printed at 100 % scale, mm: ``square_px`` dots at ``dpi`` dots per inch."""
    return square_px / dpi * MM_PER_INCH


def _write_with_dpi(output: Path, image: np.ndarray, suffix: str, dpi: int) -> None:
    """``image`` (``uint8``, grey or BGR) written atomically by Pillow with ``dpi`` as its print resolution."""
    import io

    from PIL import Image

    picture = Image.fromarray(image if image.ndim == 2 else image[:, :, ::-1])
    buf = io.BytesIO()
    kind = {".jpg": "JPEG", ".jpeg": "JPEG", ".tif": "TIFF", ".tiff": "TIFF"}.get(suffix, suffix[1:].upper())
    picture.save(buf, format=kind, dpi=(dpi, dpi), **({"quality": 95} if kind == "JPEG" else {}))
    try:
        write_atomic(output, buf.getvalue())
    except OSError as exc:
        raise CalibrationError(f"Cannot write {output} ({exc.strerror or exc}).") from None
