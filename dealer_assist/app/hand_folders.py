"""FORMATS.md §4 hand folders: finding them, and the photos in one.

A *hand folder* holds ``board.*`` (all three board notes) or ``board-N.*``
(one each), and per player ``NAME.*`` (both pocket notes) or ``NAME-N.*``
(one each), plus an optional ``hand.json`` with ``position``, ``zero_joker``,
``tie_policy`` and ``serials`` overrides for notes the camera could not read.

Photos of other names and files of other types are not read.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterable

from dealer_assist.app.photo_files import is_photo_name

__all__ = ["BOARD", "InputError", "PhotoSlot", "HandFolder", "is_photo", "looks_like_hand", "discover_hands",
           "parse_hand_folder", "SETTINGS_FILE"]

#: The seat name of the board notes.
BOARD = "board"
#: The optional settings of a hand folder.
SETTINGS_FILE = "hand.json"
_NUMBERED = re.compile(r"^(?P<name>.+)-(?P<n>\d+)$")


class InputError(ValueError):
    """A path the batch job cannot use; one plain sentence."""


@dataclass
class PhotoSlot:
    """One photo of a hand and what it should hold.

    Attributes:
        path: the photo (for a whole-table photo, ``<photo>[<zone>]``).
        seat: :data:`BOARD` or the player's name.
        expected: notes this photo should hold.
    """

    path: Path
    seat: str
    expected: int


@dataclass
class HandFolder:
    """A parsed hand folder: its photos by seat, its ``hand.json`` settings, and the problems found."""

    path: Path
    slots: list[PhotoSlot]
    settings: dict[str, Any]
    problems: list[str] = field(default_factory=list)


def is_photo(path: Path) -> bool:
    """A regular, visible file with a photo suffix (``._x.jpg`` and other dotfiles are not)."""
    return path.is_file() and is_photo_name(path)


def looks_like_hand(folder: Path) -> bool:
    """A sub-folder that is a hand folder: it has ``hand.json`` or a ``board``/``board-N`` photo."""
    return (folder / SETTINGS_FILE).is_file() or any(
        is_photo(c) and (c.stem.lower() == BOARD or c.stem.lower().startswith(BOARD + "-")) for c in folder.iterdir())


def discover_hands(paths: Iterable[str | Path]) -> list[Path]:
    """Expand the command-line paths into hand folders, in sorted order.

    A folder holding photos is a hand folder; a folder
    holding folders is a folder of hand folders: its sub-folders with a
    ``hand.json`` or a ``board*`` photo are taken (others, e.g. whole-table
    photos, are not).

    Raises:
        InputError: a path does not exist, is not a folder, or holds no hand.
    """
    hands: list[Path] = []
    for raw in paths:
        p = Path(raw)
        if not p.exists():
            raise InputError(f"{p}: no such folder.")
        if not p.is_dir():
            raise InputError(f"{p}: is a file; give a hand folder or a folder of hand folders.")
        if any(is_photo(c) for c in p.iterdir()):
            hands.append(p)
            continue
        subs = sorted(c for c in p.iterdir() if c.is_dir() and looks_like_hand(c))
        if not subs:
            raise InputError(f"{p}: holds no hand folder (no images found in it or its sub-folders).")
        hands.extend(subs)
    return hands


def _read_settings(path: Path) -> tuple[dict[str, Any], list[str]]:
    hj = path / SETTINGS_FILE
    if not hj.exists():
        return {}, []
    try:
        settings = json.loads(hj.read_text(encoding="utf-8-sig"))
        if not isinstance(settings, dict):
            raise ValueError("it is not a JSON object")
    except json.JSONDecodeError as exc:
        return {}, [f"hand.json is not valid JSON (line {exc.lineno}, column {exc.colno}: {exc.msg})."]
    except (ValueError, OSError) as exc:
        return {}, [f"hand.json cannot be used: {exc}."]
    return settings, []


def _seat_and_count(stem: str) -> tuple[str, int]:
    """The seat a photo's stem names, and the notes it should hold."""
    m = _NUMBERED.match(stem)
    if stem.lower() == BOARD:
        return BOARD, 3
    if m and m.group("name").lower() == BOARD:
        return BOARD, 1
    if m:
        return m.group("name"), 1
    return stem, 2


def parse_hand_folder(path: Path) -> HandFolder:
    """Read a hand folder's layout (no OCR yet). Problems are collected, not raised."""
    settings, problems = _read_settings(path)
    for c in sorted(path.iterdir()):
        if is_photo_name(c) and not c.is_file():
            problems.append(f"{c.name}: not a readable photo (a broken link or a folder).")
    slots: list[PhotoSlot] = []
    for entry in sorted(c for c in path.iterdir() if is_photo(c)):
        seat, expected = _seat_and_count(entry.stem)
        slots.append(PhotoSlot(entry, seat, expected))
    return HandFolder(path, slots, settings, problems)
