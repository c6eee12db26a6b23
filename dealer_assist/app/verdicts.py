"""One hand's verdict from its photos' readings: ``scored`` with the rules engine's result, or
``needs_review`` with every reason. A hand is never guessed."""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum, unique
from typing import Any, Mapping

from dealer_assist.app.hand_folders import BOARD, SETTINGS_FILE, HandFolder
from dealer_assist.app.photo_files import is_photo_name
from dealer_assist.app.photos import ImageReading
from dealer_assist.rules import Game, HandError, evaluate, is_serial, parse_hand, repeated_serials, result_to_json
from dealer_assist.vision.model import NoteRead, NoteStatus
from dealer_assist.vision.serials import SerialKind

__all__ = ["Verdict", "NoteSource", "HandScore", "score_hand", "is_stray_read", "stray_remark", "SETTING_KEYS"]

#: The ``hand.json`` (and command-line) settings of a hand.
SETTING_KEYS = ("position", "zero_joker", "tie_policy", "game")


@unique
class Verdict(StrEnum):
    """What ``score`` concluded about a hand."""

    SCORED = "scored"
    NEEDS_REVIEW = "needs_review"


@unique
class NoteSource(StrEnum):
    """Where a note's serial came from: the reader, or ``hand.json``'s ``serials``."""

    OCR = "ocr"
    MANUAL = "manual"


@dataclass
class HandScore:
    """The verdict on one hand folder (the ``--json`` object of ``score``)."""

    folder: str
    status: Verdict
    reasons: list[str]
    settings: dict[str, Any]
    notes: list[dict[str, Any]]
    result: dict[str, Any] | None = None  # FORMATS.md §2 when scored
    showdown: Any = None  # rules.Showdown when scored (for the report)
    remarks: list[str] = field(default_factory=list)  # what was read and not counted (a stray read), said

    def to_json(self) -> dict[str, Any]:
        obj: dict[str, Any] = {
            "folder": self.folder,
            "status": self.status,
            "reasons": self.reasons,
            "position": self.settings.get("position"),
            "zero_joker": self.settings.get("zero_joker", "off"),
            "tie_policy": self.settings.get("tie_policy", "split"),
            "game": self.settings.get("game", Game.HOLDEM.value),
            "notes": self.notes,
            "remarks": self.remarks,
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
    if note.serial is not None or note.status != NoteStatus.UNREADABLE or len(note.prints) != 1:
        return False
    sevens = note.prints[0].serials(SerialKind.SERIAL7)
    return len(sevens) <= 1 and not any(s.letters for _, s in sevens)


def _manual_notes(name: str, seat: str, given: Any, expected: int) -> tuple[list[dict], list[str]]:
    """The notes ``hand.json`` gives for one photo, and the reasons it cannot be used."""
    if isinstance(given, str):
        given = [given]
    if not isinstance(given, list):
        return [], [f"hand.json: the serials for {name} must be a list of 7-digit strings."]
    numbers = [x for x in given if isinstance(x, int) and not isinstance(x, bool)]
    if numbers:  # 4740925 without quotes: a careless hand.json; a number cannot keep a serial's leading zero
        shown = str(numbers[0]) if len(str(numbers[0])) <= 12 else str(numbers[0])[:12] + "…"
        return [], [f"hand.json: the serial {shown} given for {name} is a number; write each serial in quotes "
                    f"(\"{shown}\"): a number cannot keep a leading zero."]
    bad = [str(x) for x in given if not is_serial(x)]
    if bad:
        shown = bad[0] if len(bad[0]) <= 12 else bad[0][:12] + "…"
        return [], [f"hand.json: the serial {shown!r} given for {name} is not exactly 7 digits."]
    notes = [{"image": name, "seat": seat, "serial": str(s), "confidence": 1.0, "source": NoteSource.MANUAL,
              "status": NoteSource.MANUAL, "ignored": False} for s in given]
    reasons = [] if len(given) == expected else [f"{name}: hand.json gives {len(given)} serial(s), {expected} expected."]
    return notes, reasons


def stray_remark(name: str, note: NoteRead) -> str:
    """The sentence saying that a stray read on the photo ``name`` is not counted as a note."""
    why = f" ({note.reason})" if note.reason else ""
    return f"{name}: a stray read{why} is not counted as a note: one print, at most one 7-digit read."


def _read_notes(name: str, seat: str, reading: ImageReading | None,
                expected: int) -> tuple[list[dict], list[str], list[str]]:
    """The notes the reader found on one photo (each with ``ignored``), the reasons for review, and a
    remark per note read and not counted (:func:`stray_remark`)."""
    if reading is None or reading.error:
        return [], [f"{name}: {reading.error if reading else 'not read'}"], []
    trusted = [n for n in reading.notes if n.serial is not None]
    found = reading.notes
    if len(trusted) == expected:
        # Every expected note is trusted: a lone uncorroborated 7-digit read
        # elsewhere in the photo is other print (a date, a code), not a note.
        found = [n for n in reading.notes if n.serial is not None or not is_stray_read(n)]
    notes = [{"image": name, "seat": seat, "serial": n.serial, "confidence": round(n.confidence, 3),
              "source": NoteSource.OCR, "status": n.status,
              "ignored": not any(n is f for f in found)}  # identity: NoteRead holds arrays
             for n in reading.notes]
    reasons = []
    for i, n in enumerate(found, 1):
        if n.serial is None:
            label = f"note {i}" if len(found) > 1 else "the note"
            reasons.append(f"{name}: {label} is {n.status.replace('_', ' ')}: {n.reason}.")
    if len(found) != expected:
        reasons.append(f"{name}: {_count(expected)} expected, {len(found)} found"
                       + (" (a note whose serial prints are hidden is not seen)." if len(found) < expected else "."))
    remarks = [stray_remark(name, n) for n in reading.notes if not any(n is f for f in found)]
    return notes, reasons, remarks


def score_hand(folder: HandFolder, readings: Mapping[str, ImageReading],
               overrides: Mapping[str, Any] | None = None) -> HandScore:
    """Turn a hand folder's readings into a verdict.

    Args:
        folder: from :func:`~.hand_folders.parse_hand_folder` (or :func:`~.table_photos.table_hand`).
        readings: :class:`~.photos.ImageReading` per photo path (``str(slot.path)``).
        overrides: ``position``/``zero_joker``/``tie_policy``/``game`` from the command
            line; they win over ``hand.json``.

    Returns:
        ``scored`` with the rules engine's result, or ``needs_review`` with every
        reason (which image, which note, why) and no winner.
    """
    settings = {k: v for k, v in folder.settings.items() if k in SETTING_KEYS}
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
    remarks: list[str] = []
    seats: dict[str, list[str]] = {BOARD: []}
    for slot in folder.slots:
        name = slot.path.name
        seats.setdefault(slot.seat, [])
        if name in manual:
            found, why = _manual_notes(name, slot.seat, manual[name], slot.expected)
        else:
            found, why, said = _read_notes(name, slot.seat, readings.get(str(slot.path)), slot.expected)
            remarks.extend(said)
        notes.extend(found)
        reasons.extend(why)
        seats[slot.seat].extend(n["serial"] for n in found if n["serial"] is not None)
    for serial, images in repeated_serials((n["image"], n["serial"]) for n in notes
                                           if n["serial"] and not n.get("ignored")):
        where = " and ".join(images) if len(set(images)) > 1 else f"{images[0]} (twice)"
        reasons.append(f"serial {serial} is read in {where}: one note cannot lie in two places.")
    if "position" not in settings:
        # A whole-table photo's settings are <stem>.json beside it (app/table_photos.py), not hand.json.
        settings_file = folder.path.with_suffix(".json").name if is_photo_name(folder.path) else SETTINGS_FILE
        reasons.append(f"no playing position: put \"position\" in {settings_file} or pass --position.")
    try:
        game = Game(settings.get("game", Game.HOLDEM.value))
    except ValueError:
        game = Game.HOLDEM  # parse_hand_folder has said why
    if game.board_notes and not [s for s in folder.slots if s.seat == BOARD]:
        reasons.append("no board photo (board.jpg or board-1.jpg ...).")
    if not game.board_notes:
        seats.pop(BOARD)
    if not reasons:
        # Each seat's count, named by its photos (the rules engine would say "players[2]").
        for seat, serials in seats.items():
            want = game.board_notes if seat == BOARD else game.pocket_notes
            if len(serials) != want:
                photos = ", ".join(sl.path.name for sl in folder.slots if sl.seat == seat)
                who = "the board" if seat == BOARD else f"player {seat}"
                reasons.append(f"{who} ({photos}) has {_count(len(serials))}, {want} expected.")
    if reasons:
        return HandScore(str(folder.path), Verdict.NEEDS_REVIEW, reasons, settings, notes, remarks=remarks)
    board = seats.pop(BOARD, [])
    hand_obj = {**settings, "board": board,
                "players": [{"name": name, "pocket": serials} for name, serials in seats.items()]}
    try:
        hand = parse_hand(hand_obj, reject_duplicates=True)
    except HandError as exc:
        return HandScore(str(folder.path), Verdict.NEEDS_REVIEW, [str(exc)], settings, notes, remarks=remarks)
    showdown = evaluate(hand)
    return HandScore(str(folder.path), Verdict.SCORED, [], settings, notes, result_to_json(showdown), showdown,
                     remarks)
