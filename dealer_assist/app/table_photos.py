"""Whole-table photos (FORMATS.md §4, second form): one photo of the table plus a calibration profile
whose zones say which notes are the board and which are each seat's.

The photo is read through a top view of the table
(:mod:`dealer_assist.calibration.tabletop`) and split into one virtual photo
per zone, named ``<photo>[<zone>]``, so that
:func:`~.verdicts.score_hand` applies the same rules as to a hand folder.
"""

from __future__ import annotations

import dataclasses
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Sequence

import numpy as np

from dealer_assist.app.hand_folders import (BOARD, HandFolder, PhotoSlot, hand_game, is_photo, looks_like_hand,
                                            read_settings_file)
from dealer_assist.app.photo_files import load_photo
from dealer_assist.app.photos import ImageReading
from dealer_assist.app.readers import table_reader
from dealer_assist.vision.images import ImageError
from dealer_assist.vision.model import NoteRead
from dealer_assist.vision.ocr import EngineError

__all__ = ["TableReading", "TABLE_MAX_SIDE_PX", "read_table_photo", "read_table_photos", "is_table_folder",
           "table_settings", "table_hand"]

#: Longest side a whole-table photo is loaded at (its full resolution matters).
TABLE_MAX_SIDE_PX = 8000


@dataclass
class TableReading:
    """The reader's result for one whole-table photo.

    Attributes:
        image: the path as given.
        notes: :class:`~dealer_assist.calibration.tabletop.TableNote` items
            (quads in the file's pixels, each with its zone).
        error: one plain sentence when the photo could not be read at all.
        image_size: (width, height) px of the file.
    """

    image: str
    notes: list = field(default_factory=list)
    error: str | None = None
    image_size: tuple[int, int] | None = None


def read_table_photo(path: str, profile) -> TableReading:
    """Load and read one whole-table photo through ``profile``; failures become ``error``, never an exception."""
    from dealer_assist.calibration.profile import CalibrationError
    from dealer_assist.calibration.tabletop import read_table

    try:
        image, scale = load_photo(path, max_side=TABLE_MAX_SIDE_PX)
    except ImageError as exc:
        return TableReading(path, error=str(exc))
    size = (image.shape[1], image.shape[0])
    try:
        notes = read_table(image, profile, table_reader())
    except (CalibrationError, EngineError) as exc:
        return TableReading(path, error=str(exc), image_size=size)
    if scale != 1.0:  # quads back into the file's pixels
        def back(n):
            return dataclasses.replace(n, quad=n.quad / scale,
                                       prints=[dataclasses.replace(p, quad=p.quad / scale) for p in n.prints])
        notes = [dataclasses.replace(t, note=back(t.note)) for t in notes]
        size = (round(size[0] / scale), round(size[1] / scale))
    return TableReading(path, notes, image_size=size)


def _read_table_job(args: tuple[str, Any]) -> TableReading:
    return read_table_photo(*args)


def read_table_photos(paths: Sequence[str], profile, jobs: int = 1,
                      progress: Callable[[TableReading], None] | None = None) -> list[TableReading]:
    """:func:`read_table_photo` over many photos, in parallel processes when ``jobs > 1``; input order."""
    results: list[TableReading] = []
    if jobs <= 1 or len(paths) <= 1:
        it = (read_table_photo(p, profile) for p in paths)
        pool = None
    else:
        pool = ProcessPoolExecutor(max_workers=jobs)
        it = pool.map(_read_table_job, [(p, profile) for p in paths])
    try:
        for r in it:
            results.append(r)
            if progress:
                progress(r)
    finally:
        if pool is not None:
            pool.shutdown()
    return results


def is_table_folder(folder: Path) -> bool:
    """A folder of whole-table photos: it holds photos, and neither ``hand.json`` nor a board photo
    (:func:`~.hand_folders.looks_like_hand`)."""
    try:
        return folder.is_dir() and not looks_like_hand(folder) and any(is_photo(c) for c in folder.iterdir())
    except OSError:
        return False


def table_settings(photo: Path) -> tuple[dict[str, Any], list[str]]:
    """The settings beside a whole-table photo: ``<stem>.json`` (optional), and problems found in it.

    Fields used: ``position``, ``zero_joker``, ``tie_policy``, ``game`` (as in
    ``hand.json``), ``serials`` (overrides by zone name: ``{"P2": ["1234567",
    "7654321"], "board": [...]}``) and ``seats`` (the seats in play, when not all
    of the profile's seats hold a hand). Other fields are ignored.
    """
    return read_settings_file(photo.with_suffix(".json"))


def _seats_in_play(photo: Path, settings: dict[str, Any], profile, problems: list[str]) -> list[str]:
    seats = profile.seats
    in_play = settings.get("seats", seats)
    if not isinstance(in_play, list) or not all(isinstance(s, str) for s in in_play):
        problems.append(f"{photo.with_suffix('.json').name}: \"seats\" must be a list of seat names.")
        in_play = seats
    unknown = [s for s in in_play if s not in seats]
    if unknown:
        problems.append(f"{photo.with_suffix('.json').name}: seat(s) {', '.join(unknown)} are not in the calibration "
                        f"'{profile.name}' (its seats: {', '.join(seats)}).")
    return [s for s in seats if s in in_play]


def table_hand(photo: Path, profile, reading: TableReading, game=None) -> tuple[HandFolder, dict[str, ImageReading]]:
    """Turn a whole-table photo's reading into a hand folder with one slot per zone.

    The board zone must hold 3 notes and every seat in play 2 (all the
    profile's seats, or the sidecar's ``seats``); in Indian poker (``game``, else the
    sidecar's ``"game"``; RULES.md §7) every seat in play 1 and the board zone none. A note in no zone, or in a
    seat not in play, is a problem (the hand then needs review): a note is
    never dropped or given to a seat by guess.

    Returns:
        ``(folder, readings)`` ready for :func:`~.verdicts.score_hand`; the
        slots' paths are ``<photo>[board]``, ``<photo>[<seat>]``.
    """
    settings, problems = table_settings(photo)
    played, why = hand_game(settings, game, photo.with_suffix(".json").name)
    problems += why
    in_play = _seats_in_play(photo, settings, profile, problems)
    manual = settings.get("serials")
    if isinstance(manual, dict):
        settings = {**settings, "serials": {f"{photo.name}[{k}]": v for k, v in manual.items()}}

    def virtual(zone: str) -> Path:
        return photo.with_name(f"{photo.name}[{zone}]")

    slots = ([PhotoSlot(virtual(BOARD), BOARD, played.board_notes)] if played.board_notes else []) + [
        PhotoSlot(virtual(s), s, played.pocket_notes) for s in in_play]
    readings: dict[str, ImageReading] = {}
    if reading.error:
        for slot in slots:
            readings[str(slot.path)] = ImageReading(str(slot.path), error=reading.error)
        return HandFolder(photo, slots, settings, problems), readings
    by_zone: dict[str, list[NoteRead]] = {s.seat: [] for s in slots}
    for tn in reading.notes:
        what = f"a note ({tn.note.serial})" if tn.note.serial else "a note with no trusted serial"
        x, y = (float(v) for v in np.asarray(tn.note.quad, np.float64).mean(axis=0))
        if tn.zone is None:
            problems.append(f"{photo.name}: {what} at ({x:.0f}, {y:.0f}) px lies in no zone of the calibration "
                            f"'{profile.name}'.")
        elif tn.zone == BOARD and BOARD not in by_zone:
            problems.append(f"{photo.name}: {what} lies in the board zone; Indian poker has no board notes.")
        elif tn.zone not in by_zone:
            problems.append(f"{photo.name}: {what} lies in seat {tn.zone}, which is not in play.")
        else:
            by_zone[tn.zone].append(tn.note)
    for slot in slots:
        readings[str(slot.path)] = ImageReading(str(slot.path), notes=by_zone[slot.seat])
    return HandFolder(photo, slots, settings, problems), readings
