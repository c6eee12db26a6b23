"""Batch work over files: read photos, score photographed hands (FORMATS.md §3-4).

This is the app layer: it wires the vision pipeline (which knows no game
rules) to the rules engine (which does no I/O). Nothing here draws or prints.

A *hand folder* (FORMATS.md §4) holds ``board.*`` (all three board notes) or
``board-N.*`` (one each), and per player ``NAME.*`` (both pocket notes) or
``NAME-N.*`` (one each), plus an optional ``hand.json`` with ``position``,
``zero_joker``, ``tie_policy`` and ``serials`` overrides for notes the camera
could not read. A hand is never guessed: anything short of every note read
and trusted gives ``needs_review`` with the exact reason.
"""

from __future__ import annotations

import json
import os
import re
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Iterable, Sequence

import numpy as np

from dealer_assist.fileio import folder_refusal, is_special_file
from dealer_assist.rules import HandError, evaluate, is_serial, parse_hand, repeated_serials, result_to_json
from dealer_assist.vision.images import ImageError, load_image
from dealer_assist.vision.ocr import EngineError
from dealer_assist.vision.reader import NoteRead, SerialReader
from dealer_assist.vision.serials import SerialKind

IMAGE_SUFFIXES = {".jpg", ".jpeg", ".png", ".webp", ".bmp", ".tif", ".tiff"}
_NUMBERED = re.compile(r"^(?P<name>.+)-(?P<n>\d+)$")


class BatchError(ValueError):
    """A path or option the batch job cannot use; one plain sentence."""


# ----------------------------------------------------------------------------- reading

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


_WORKER_READER: SerialReader | None = None
_WORKER_LAYOUT = None


def configure_reader(layout=None) -> None:
    """Set the deck's note layout (from a calibration profile) for this process's reader."""
    global _WORKER_READER, _WORKER_LAYOUT
    if layout is not _WORKER_LAYOUT:
        _WORKER_LAYOUT = layout
        _WORKER_READER = None


def _reader() -> SerialReader:
    global _WORKER_READER
    if _WORKER_READER is None:
        _WORKER_READER = SerialReader(layout=_WORKER_LAYOUT)
    return _WORKER_READER


_GENERAL_READER: SerialReader | None = None


def _general_reader() -> SerialReader:
    """The reader without the deck's layout (for photos the fast path found too few notes on)."""
    global _GENERAL_READER
    if _GENERAL_READER is None:
        _GENERAL_READER = SerialReader(primary=_reader().primary)
    return _GENERAL_READER


def read_image_file(path: str, expected: int | None = None) -> ImageReading:
    """Load and read one image; every failure becomes ``error``, never an exception.

    ``expected``: the notes the photo should hold, when known (a hand folder's
    photo). With a calibrated deck's layout, a photo on which the fast path
    trusted fewer notes than that is read again by the general reader (the
    fast path misses a note whose outline it does not find), and the reading
    with more trusted notes is kept.
    """
    try:
        image, scale = load_image(path)
    except ImageError as exc:
        return ImageReading(path, error=str(exc))
    try:
        reader = _reader()
        notes = reader.read(image)
        trusted = sum(n.status == "trusted" for n in notes)
        if reader.layout is not None and expected is not None and trusted < expected:
            again = _general_reader().read(image)
            if sum(n.status == "trusted" for n in again) > trusted:
                notes = again
    except EngineError as exc:
        return ImageReading(path, error=str(exc))
    except Exception as exc:  # noqa: BLE001 - one photo must never stop a batch
        return ImageReading(path, error=f"{path}: the reader failed on this photo ({type(exc).__name__}: {exc}).")
    return ImageReading(path, notes=notes, scale=scale)


def _read_expected(item: tuple[str, int | None]) -> ImageReading:
    return read_image_file(*item)


def read_image_files(paths: Sequence[str], jobs: int = 1,
                     progress: Callable[[ImageReading], None] | None = None,
                     expected: Sequence[int | None] | None = None) -> list[ImageReading]:
    """Read many images, in parallel processes when ``jobs > 1``; results in input order.

    ``expected``: per path, the notes it should hold, or None (see :func:`read_image_file`).
    Each worker process holds its own engines (one onnxruntime thread each),
    so ``jobs=N`` gives the same results as ``jobs=1``.
    """
    items = list(zip(paths, expected if expected is not None else [None] * len(paths)))
    results: list[ImageReading] = []
    if jobs <= 1 or len(paths) <= 1:
        for item in items:
            r = _read_expected(item)
            results.append(r)
            if progress:
                progress(r)
        return results
    with ProcessPoolExecutor(max_workers=jobs, initializer=configure_reader, initargs=(_WORKER_LAYOUT,)) as pool:
        for r in pool.map(_read_expected, items):
            results.append(r)
            if progress:
                progress(r)
    return results


# ----------------------------------------------------------------------------- hand folders

@dataclass
class Slot:
    """One image of a hand folder and what it should hold."""

    path: Path
    seat: str  # "board" or the player's name
    expected: int  # notes this image should hold


@dataclass
class HandFolder:
    """A parsed hand folder: its images by seat and its ``hand.json`` settings."""

    path: Path
    slots: list[Slot]
    settings: dict[str, Any]
    problems: list[str] = field(default_factory=list)


def is_image(path: Path) -> bool:
    """A regular, visible file with an image suffix (``._x.jpg`` and other dotfiles are not)."""
    return path.is_file() and looks_like_image_name(path)


def looks_like_image_name(path: Path) -> bool:
    return path.suffix.lower() in IMAGE_SUFFIXES and not path.name.startswith(".")


def looks_like_hand(folder: Path) -> bool:
    """A sub-folder that is a hand folder: it has ``hand.json`` or a ``board``/``board-N`` image."""
    return (folder / "hand.json").is_file() or any(
        is_image(c) and (c.stem.lower() == "board" or c.stem.lower().startswith("board-")) for c in folder.iterdir())


def discover_hands(paths: Iterable[str | Path]) -> list[Path]:
    """Expand the command-line paths into hand folders, in sorted order.

    A folder holding images is a hand folder; a folder holding folders is a
    folder of hand folders: its sub-folders with a ``hand.json`` or a
    ``board*`` image are taken (others, e.g. whole-table photos, are not).

    Raises:
        BatchError: a path does not exist, is not a folder, or holds no hand.
    """
    hands: list[Path] = []
    for raw in paths:
        p = Path(raw)
        if not p.exists():
            raise BatchError(f"{p}: no such folder.")
        if not p.is_dir():
            raise BatchError(f"{p}: is a file; give a hand folder or a folder of hand folders.")
        if any(is_image(c) for c in p.iterdir()):
            hands.append(p)
            continue
        subs = sorted(c for c in p.iterdir() if c.is_dir() and looks_like_hand(c))
        if not subs:
            raise BatchError(f"{p}: holds no hand folder (no images found in it or its sub-folders).")
        hands.extend(subs)
    return hands


def parse_hand_folder(path: Path) -> HandFolder:
    """Read a hand folder's layout (no OCR yet). Problems are collected, not raised."""
    problems: list[str] = []
    settings: dict[str, Any] = {}
    hj = path / "hand.json"
    if hj.exists():
        try:
            settings = json.loads(hj.read_text(encoding="utf-8-sig"))
            if not isinstance(settings, dict):
                raise ValueError("it is not a JSON object")
        except json.JSONDecodeError as exc:
            problems.append(f"hand.json is not valid JSON (line {exc.lineno}, column {exc.colno}: {exc.msg}).")
            settings = {}
        except (ValueError, OSError) as exc:
            problems.append(f"hand.json cannot be used: {exc}.")
            settings = {}
    for c in sorted(path.iterdir()):
        if looks_like_image_name(c) and not c.is_file():
            problems.append(f"{c.name}: not a readable photo (a broken link or a folder).")
    slots: list[Slot] = []
    for img in sorted(c for c in path.iterdir() if is_image(c)):
        stem = img.stem
        m = _NUMBERED.match(stem)
        if stem.lower() == "board":
            slots.append(Slot(img, "board", 3))
        elif m and m.group("name").lower() == "board":
            slots.append(Slot(img, "board", 1))
        elif m:
            slots.append(Slot(img, m.group("name"), 1))
        else:
            slots.append(Slot(img, stem, 2))
    return HandFolder(path, slots, settings, problems)


@dataclass
class HandScore:
    """The verdict on one hand folder (the ``--json`` object of ``score``)."""

    folder: str
    status: str  # "scored" | "needs_review"
    reasons: list[str]
    settings: dict[str, Any]
    notes: list[dict[str, Any]]
    result: dict[str, Any] | None = None  # FORMATS.md §2 when scored
    showdown: Any = None  # rules.Showdown when scored (for the report)

    def to_json(self) -> dict[str, Any]:
        obj: dict[str, Any] = {
            "folder": self.folder,
            "status": self.status,
            "reasons": self.reasons,
            "position": self.settings.get("position"),
            "zero_joker": self.settings.get("zero_joker", "off"),
            "tie_policy": self.settings.get("tie_policy", "split"),
            "notes": self.notes,
            "players": {},
            "winners": [],
        }
        if self.result:
            obj["players"] = {
                name: {k: v for k, v in res.items() if k in ("class", "ranks", "natural", "notes")}
                for name, res in self.result["players"].items()
            }
            obj["winners"] = self.result["winners"]
        return obj


def _count(n: int) -> str:
    return f"{n} note" if n == 1 else f"{n} notes"


def is_stray_read(note: NoteRead) -> bool:
    """One print, at most one 7-digit read, no letters: too little to call it a note."""
    if note.serial is not None or note.status != "unreadable" or len(note.prints) != 1:
        return False
    sevens = note.prints[0].serials(SerialKind.SERIAL7)
    return len(sevens) <= 1 and not any(s.letters for _, s in sevens)


def score_hand(folder: HandFolder, readings: dict[str, ImageReading],
               overrides: dict[str, Any] | None = None) -> HandScore:
    """Turn a hand folder's readings into a verdict.

    Args:
        folder: from :func:`parse_hand_folder`.
        readings: :class:`ImageReading` per image path (``str(slot.path)``).
        overrides: ``position``/``zero_joker``/``tie_policy`` from the command
            line; they win over ``hand.json``.

    Returns:
        ``scored`` with the rules engine's result, or ``needs_review`` with every
        reason (which image, which note, why) and no winner.
    """
    settings = {k: v for k, v in folder.settings.items() if k in ("position", "zero_joker", "tie_policy")}
    settings.update({k: v for k, v in (overrides or {}).items() if v is not None})
    manual = folder.settings.get("serials") or {}
    reasons = list(folder.problems)
    if not isinstance(manual, dict):
        reasons.append("hand.json: 'serials' must map an image name to a list of serials.")
        manual = {}
    names = {slot.path.name for slot in folder.slots}
    for key in manual:
        if key not in names:
            reasons.append(f"hand.json: 'serials' names {key}, which is not a photo in this hand.")
    notes: list[dict[str, Any]] = []
    board: list[str] = []
    pockets: dict[str, list[str]] = {}
    for slot in folder.slots:
        name = slot.path.name
        pockets.setdefault(slot.seat, []) if slot.seat != "board" else None
        target = board if slot.seat == "board" else pockets[slot.seat]
        if name in manual:
            given = manual[name]
            if isinstance(given, str):
                given = [given]
            if not isinstance(given, list):
                reasons.append(f"hand.json: the serials for {name} must be a list of 7-digit strings.")
                continue
            bad = [str(x) for x in given if not is_serial(x)]
            if bad:
                shown = bad[0] if len(bad[0]) <= 12 else bad[0][:12] + "…"
                reasons.append(f"hand.json: the serial {shown!r} given for {name} is not exactly 7 digits.")
                continue
            for s in given:
                notes.append({"image": name, "seat": slot.seat, "serial": str(s), "confidence": 1.0,
                              "source": "manual", "status": "manual", "ignored": False})
                target.append(str(s))
            if len(given) != slot.expected:
                reasons.append(f"{name}: hand.json gives {len(given)} serial(s), {slot.expected} expected.")
            continue
        reading = readings.get(str(slot.path))
        if reading is None or reading.error:
            reasons.append(f"{name}: {reading.error if reading else 'not read'}")
            continue
        trusted = [n for n in reading.notes if n.serial is not None]
        found = reading.notes
        if len(trusted) == slot.expected:
            # Every expected note is trusted: a lone uncorroborated 7-digit read
            # elsewhere in the photo is other print (a date, a code), not a note.
            found = [n for n in reading.notes if n.serial is not None or not is_stray_read(n)]
        for i, n in enumerate(reading.notes, 1):
            notes.append({"image": name, "seat": slot.seat, "serial": n.serial,
                          "confidence": round(n.confidence, 3), "source": "ocr", "status": n.status,
                          "ignored": not any(n is f for f in found)})  # identity: NoteRead holds arrays
        for i, n in enumerate(found, 1):
            if n.serial is None:
                label = f"note {i}" if len(found) > 1 else "the note"
                reasons.append(f"{name}: {label} is {n.status.replace('_', ' ')}: {n.reason}.")
        if len(found) != slot.expected:
            reasons.append(f"{name}: {_count(slot.expected)} expected, {len(found)} found"
                           + (" (a note whose serial prints are hidden is not seen)."
                              if len(found) < slot.expected else "."))
        target.extend(n.serial for n in trusted)
    for serial, images in repeated_serials((n["image"], n["serial"]) for n in notes
                                           if n["serial"] and not n.get("ignored")):
        where = " and ".join(images) if len(set(images)) > 1 else f"{images[0]} (twice)"
        reasons.append(f"serial {serial} is read in {where}: one note cannot lie in two places.")
    if "position" not in settings:
        reasons.append("no playing position: put \"position\" in hand.json or pass --position.")
    if not [s for s in folder.slots if s.seat == "board"]:
        reasons.append("no board photo (board.jpg or board-1.jpg ...).")
    if not reasons:
        # Each seat's count, named by its photos (the rules engine would say "players[2]").
        for seat, serials in [("board", board), *pockets.items()]:
            want = 3 if seat == "board" else 2
            if len(serials) != want:
                photos = ", ".join(sl.path.name for sl in folder.slots if sl.seat == seat)
                who = "the board" if seat == "board" else f"player {seat}"
                reasons.append(f"{who} ({photos}) has {_count(len(serials))}, {want} expected.")
    if reasons:
        return HandScore(str(folder.path), "needs_review", reasons, settings, notes)
    hand_obj = {**settings, "board": board,
                "players": [{"name": name, "pocket": serials} for name, serials in pockets.items()]}
    try:
        hand = parse_hand(hand_obj, reject_duplicates=True)
    except HandError as exc:
        return HandScore(str(folder.path), "needs_review", [str(exc)], settings, notes)
    showdown = evaluate(hand)
    return HandScore(str(folder.path), "scored", [], settings, notes, result_to_json(showdown), showdown)


# ----------------------------------------------------------------------------- whole-table photos

# FORMATS.md §4, second form: one photo of the whole table plus a calibration
# profile whose zones say which notes are the board and which are each seat's.
# The photo is read through a top view of the table (dealer_assist.calibration.
# tabletop) and split into one virtual slot per zone, named ``<photo>[<zone>]``,
# so that score_hand applies the same rules as to a hand folder.


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


_WORKER_TABLE_READER: SerialReader | None = None


def _table_reader() -> SerialReader:
    """The reader for top views: its detector sees the whole view at full size."""
    global _WORKER_TABLE_READER
    if _WORKER_TABLE_READER is None:
        from dealer_assist.calibration.tabletop import TOP_VIEW_MAX_SIDE
        from dealer_assist.vision.ocr import RapidOcrEngine

        _WORKER_TABLE_READER = SerialReader(primary=RapidOcrEngine(det_max_side=TOP_VIEW_MAX_SIDE))
    return _WORKER_TABLE_READER


#: Longest side a whole-table photo is loaded at (its full resolution matters).
TABLE_MAX_SIDE_PX = 8000


def read_table_file(path: str, profile) -> TableReading:
    """Load and read one whole-table photo through ``profile``; failures become ``error``, never an exception."""
    from dealer_assist.calibration.profile import CalibrationError
    from dealer_assist.calibration.tabletop import read_table

    try:
        image, scale = load_image(path, max_side=TABLE_MAX_SIDE_PX)
    except ImageError as exc:
        return TableReading(path, error=str(exc))
    size = (image.shape[1], image.shape[0])
    try:
        notes = read_table(image, profile, _table_reader())
    except (CalibrationError, EngineError) as exc:
        return TableReading(path, error=str(exc), image_size=size)
    if scale != 1.0:  # quads back into the file's pixels
        import dataclasses

        def back(n):
            return dataclasses.replace(n, quad=n.quad / scale,
                                       prints=[dataclasses.replace(p, quad=p.quad / scale) for p in n.prints])
        notes = [dataclasses.replace(t, note=back(t.note)) for t in notes]
        size = (round(size[0] / scale), round(size[1] / scale))
    return TableReading(path, notes, image_size=size)


def _read_table_job(args: tuple[str, Any]) -> TableReading:
    return read_table_file(*args)


def read_table_files(paths: Sequence[str], profile, jobs: int = 1,
                     progress: Callable[[TableReading], None] | None = None) -> list[TableReading]:
    """:func:`read_table_file` over many photos, in parallel processes when ``jobs > 1``; input order."""
    results: list[TableReading] = []
    if jobs <= 1 or len(paths) <= 1:
        it = (read_table_file(p, profile) for p in paths)
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
    """A folder of whole-table photos: it holds images and no ``hand.json``."""
    return folder.is_dir() and not (folder / "hand.json").exists() and any(is_image(c) for c in folder.iterdir())


def discover_inputs(paths: Iterable[str | Path], calibrated: bool) -> list[tuple[str, Path]]:
    """Sort the command-line paths into ``("hand", folder)`` and ``("table", photo)`` items, in input order.

    A photo given directly is a whole-table photo. With ``calibrated``, a
    folder holding images and no ``hand.json`` is a folder of whole-table
    photos (each one a hand); every other folder goes through
    :func:`discover_hands`.

    Raises:
        BatchError: a path does not exist, is a file that is not an image, or holds no hand.
    """
    items: list[tuple[str, Path]] = []
    for raw in paths:
        p = Path(raw)
        if p.is_file():
            if p.suffix.lower() not in IMAGE_SUFFIXES:
                raise BatchError(f"{p}: is a file but not a photo; give hand folders or whole-table photos.")
            items.append(("table", p))
        elif calibrated and is_table_folder(p):
            items.extend(("table", c) for c in sorted(p.iterdir()) if is_image(c))
        else:
            items.extend(("hand", h) for h in discover_hands([p]))
    # The same hand or photo named twice (``score a a``, ``score x x/hand_1``) is scored once.
    unique: list[tuple[str, Path]] = []
    seen: set[Path] = set()
    for kind, path in items:
        if path.resolve() not in seen:
            seen.add(path.resolve())
            unique.append((kind, path))
    return unique


def table_settings(photo: Path) -> tuple[dict[str, Any], list[str]]:
    """The settings beside a whole-table photo: ``<stem>.json`` (optional), and problems found in it.

    Fields used: ``position``, ``zero_joker``, ``tie_policy`` (as in
    ``hand.json``), ``serials`` (overrides by zone name: ``{"P2": ["1234567",
    "7654321"], "board": [...]}``) and ``seats`` (the seats in play, when not all
    of the profile's seats hold a hand). Other fields are ignored.
    """
    side = photo.with_suffix(".json")
    if not side.is_file():
        return {}, []
    try:
        obj = json.loads(side.read_text(encoding="utf-8"))
        if not isinstance(obj, dict):
            raise ValueError("not a JSON object")
    except (ValueError, OSError) as exc:
        return {}, [f"{side.name} cannot be used ({exc})."]
    return obj, []


def table_hand(photo: Path, profile, reading: TableReading) -> tuple[HandFolder, dict[str, ImageReading]]:
    """Turn a whole-table photo's reading into a hand folder with one slot per zone.

    The board zone must hold 3 notes and every seat in play 2 (all the
    profile's seats, or the sidecar's ``seats``). A note in no zone, or in a
    seat not in play, is a problem (the hand then needs review): a note is
    never dropped or given to a seat by guess.

    Returns:
        ``(folder, readings)`` ready for :func:`score_hand`; the slots' paths
        are ``<photo>[board]``, ``<photo>[<seat>]``.
    """
    settings, problems = table_settings(photo)
    seats = profile.seats
    in_play = settings.get("seats", seats)
    if not isinstance(in_play, list) or not all(isinstance(s, str) for s in in_play):
        problems.append(f"{photo.with_suffix('.json').name}: \"seats\" must be a list of seat names.")
        in_play = seats
    unknown = [s for s in in_play if s not in seats]
    if unknown:
        problems.append(f"{photo.with_suffix('.json').name}: seat(s) {', '.join(unknown)} are not in the calibration "
                        f"'{profile.name}' (its seats: {', '.join(seats)}).")
    in_play = [s for s in seats if s in in_play]
    manual = settings.get("serials")
    if isinstance(manual, dict):
        settings = {**settings, "serials": {f"{photo.name}[{k}]": v for k, v in manual.items()}}

    def virtual(zone: str) -> Path:
        return photo.with_name(f"{photo.name}[{zone}]")

    slots = [Slot(virtual("board"), "board", 3)] + [Slot(virtual(s), s, 2) for s in in_play]
    readings: dict[str, ImageReading] = {}
    if reading.error:
        for slot in slots:
            readings[str(slot.path)] = ImageReading(str(slot.path), error=reading.error)
        return HandFolder(photo, slots, settings, problems), readings
    by_zone: dict[str, list[NoteRead]] = {s.seat: [] for s in slots}
    for k, tn in enumerate(reading.notes, 1):
        what = f"a note ({tn.note.serial})" if tn.note.serial else "a note with no trusted serial"
        x, y = (float(v) for v in np.asarray(tn.note.quad, np.float64).mean(axis=0))
        if tn.zone is None:
            problems.append(f"{photo.name}: {what} at ({x:.0f}, {y:.0f}) px lies in no zone of the calibration "
                            f"'{profile.name}'.")
        elif tn.zone not in by_zone:
            problems.append(f"{photo.name}: {what} lies in seat {tn.zone}, which is not in play.")
        else:
            by_zone[tn.zone].append(tn.note)
    for slot in slots:
        readings[str(slot.path)] = ImageReading(str(slot.path), notes=by_zone[slot.seat])
    return HandFolder(photo, slots, settings, problems), readings


# ----------------------------------------------------------------------------- outputs

def check_output_path(path: Path) -> str | None:
    """Why ``path`` cannot take a result file (one sentence), or ``None`` when it can.

    Checked before any photo is read: a device or a pipe must be writable; otherwise
    the folder must take a new file (see :func:`dealer_assist.fileio.folder_refusal`).
    """
    if is_special_file(path):
        return None if os.access(path, os.W_OK) else f"cannot write {path}: it is not writable."
    real = Path(os.path.realpath(path))
    if real.is_dir():
        return f"cannot write {path}: it is a folder."
    if not real.parent.is_dir():
        return f"cannot write {path}: the folder {real.parent} does not exist."
    why = folder_refusal(real.parent)
    return None if why is None else f"cannot write {path}: the folder {real.parent} does not take new files ({why})."


CSV_COLUMNS = ["folder", "status", "position", "zero_joker", "tie_policy", "seat", "images", "serials",
               "confidences", "class", "ranks", "natural", "winner", "reasons"]


def _csv_bool(value: bool | None) -> str:
    return "" if value is None else ("true" if value else "false")


def csv_rows(scores: Sequence[HandScore]) -> list[dict[str, Any]]:
    """One row per seat (the board, then each player) per hand, columns :data:`CSV_COLUMNS`."""
    rows = []
    for sc in scores:
        obj = sc.to_json()
        seats: dict[str, list[dict]] = {"board": []}
        for n in sc.notes:
            seats.setdefault(n["seat"], []).append(n)
        if not seats["board"]:
            del seats["board"]
        for seat, ns in seats.items():
            hand = obj["players"].get(seat, {})
            rows.append({
                "folder": sc.folder, "status": sc.status, "position": obj["position"],
                "zero_joker": obj["zero_joker"], "tie_policy": obj["tie_policy"], "seat": seat,
                "images": " ".join(sorted({n["image"] for n in ns})),
                "serials": " ".join(n["serial"] or "?" for n in ns),
                "confidences": " ".join(str(n["confidence"]) for n in ns),
                "class": hand.get("class") or "", "ranks": " ".join(map(str, hand.get("ranks") or [])),
                "natural": _csv_bool(hand.get("natural")), "winner": _csv_bool(seat in obj["winners"]),
                "reasons": " | ".join(sc.reasons),
            })
    return rows
