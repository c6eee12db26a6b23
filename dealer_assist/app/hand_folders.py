"""FORMATS.md §4 hand folders: finding them, and every file in one accounted for.

A *hand folder* holds ``board.*`` (all three board notes) or ``board-N.*``
(one each), and per player ``NAME.*`` (both pocket notes) or ``NAME-N.*``
(one each), plus an optional ``hand.json`` with ``position``, ``zero_joker``,
``tie_policy``, ``game`` and ``serials`` overrides for notes the camera could not read.
An Indian poker hand (``"game": "indian"`` in ``hand.json``, or ``score --game
indian``; RULES.md §7) has no board photo and one note per player: ``NAME.*``.

Every file in it is accounted for (:func:`parse_hand_folder`): a photo
(:data:`~.photo_files.PHOTO_SUFFIXES`, any case) whose name maps to the board
or a player is read; ``hand.json`` gives the settings; ``truth.json`` (the
truth the sample renderer writes beside its photos) and the file managers'
own files (``._*``, ``.DS_Store``, ``Thumbs.db``, ``desktop.ini``) are not
part of the hand. Anything else -- another file type, a sub-folder, a hidden
file, a name with a space at either end or one that names no player -- is a
problem naming the file, and the hand then needs review: a photo is never
skipped without a word.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterable

from dealer_assist.app.photo_files import PHOTO_SUFFIXES, is_photo_name
from dealer_assist.fileio import JsonInputError, load_json
from dealer_assist.rules import Game

__all__ = ["BOARD", "InputError", "PhotoSlot", "HandFolder", "is_photo", "looks_like_hand", "discover_hands",
           "parse_hand_folder", "read_settings_file", "SETTINGS_FILE", "NOT_PART_OF_THE_HAND", "hand_game"]

#: The seat name of the board notes.
BOARD = "board"
#: The optional settings of a hand folder.
SETTINGS_FILE = "hand.json"
#: Files a hand folder may hold that are not part of the hand (never read, never a problem).
NOT_PART_OF_THE_HAND = frozenset({"truth.json", ".DS_Store", "Thumbs.db", "desktop.ini"})
_NUMBERED = re.compile(r"^(?P<name>.+)-(?P<n>\d+)$")
#: A player's name as a file name gives it: letters (any script), digits, ``_`` and ``-``.
_PLAYER_NAME = re.compile(r"[^\W_][\w-]{0,39}")


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


def _is_board_photo(entry: Path) -> bool:
    stem = entry.stem.lower()
    return is_photo(entry) and (stem == BOARD or stem.startswith(BOARD + "-"))


def looks_like_hand(folder: Path) -> bool:
    """A folder that is a hand folder: it has a ``hand.json`` (of any kind: one that cannot be read is the
    hand's problem, said in its verdict) or a ``board``/``board-N`` photo."""
    try:
        return os.path.lexists(folder / SETTINGS_FILE) or any(_is_board_photo(c) for c in folder.iterdir())
    except OSError:
        return False


def _names(paths: list[Path], most: int = 5) -> str:
    shown = ", ".join(p.name for p in paths[:most])
    return shown + (f" and {len(paths) - most} more" if len(paths) > most else "")


def _photos_in(folder: Path) -> list[Path]:
    return sorted(c for c in folder.iterdir() if is_photo(c))


def discover_hands(paths: Iterable[str | Path], notices: list[str] | None = None,
                   unscored: list[Path] | None = None) -> list[Path]:
    """Expand the command-line paths into hand folders, in sorted order, by one rule (README, ``score``):

    1. a folder with ``hand.json`` or a ``board`` photo is a hand folder (see :func:`looks_like_hand`);
    2. otherwise a folder whose sub-folders include hand folders is a folder of hands: those sub-folders
       are the hands. Photos lying loose beside them are not part of any hand: they are named in one
       sentence appended to ``notices`` (and listed in ``unscored``), never scored as a hand of their
       own, and never turn the folder into one hand. A sub-folder holding photos that is no hand folder
       is named (and listed) too;
    3. otherwise a folder holding photos is no hand (no ``hand.json``, no board photo: e.g. whole-table
       photos, which ``score`` reads only with ``--calibration``): refused, as is a folder without photos.

    Raises:
        InputError: a path does not exist, is not a folder, or holds no hand (one sentence, naming it).
    """
    hands: list[Path] = []
    for raw in paths:
        p = Path(raw)
        try:
            hands.extend(_hands_in(p, notices, unscored))
        except OSError as exc:
            raise InputError(f"{p}: cannot be read ({(exc.strerror or str(exc)).lower()}).") from None
    return hands


def _hands_in(p: Path, notices: list[str] | None, unscored: list[Path] | None) -> list[Path]:
    """The hand folders of one command-line path (see :func:`discover_hands`)."""
    if not p.exists():
        raise InputError(f"{p}: no such file or folder.")
    if not p.is_dir():
        raise InputError(f"{p}: is a file; give a hand folder or a folder of hand folders.")
    if looks_like_hand(p):
        return [p]
    subs = sorted(c for c in p.iterdir() if c.is_dir())
    hand_subs = [c for c in subs if looks_like_hand(c)]
    photos = _photos_in(p)
    if not hand_subs:
        if photos:
            raise InputError(
                f"{p}: holds photos ({_names(photos)}) but neither hand.json nor a board photo, so it is no "
                f"hand folder; name the board's photo board.jpg (or board-1.jpg ...), or, for whole-table "
                f"photos, give --calibration NAME.")
        raise InputError(f"{p}: holds no hand folder (no images found in it or its sub-folders).")
    if photos:
        if unscored is not None:
            unscored.extend(photos)
        if notices is not None:
            notices.append(
                f"{p} holds {len(photos)} loose photo(s) beside its {len(hand_subs)} hand folder(s), and they "
                f"are not scored: {_names(photos)}; move each into its hand's folder.")
    for c in subs:
        if c not in hand_subs and _photos_in(c):
            if unscored is not None:
                unscored.append(c)
            if notices is not None:
                notices.append(f"{c} holds photos but neither hand.json nor a board photo, so it is not "
                               f"scored as a hand (whole-table photos: give that folder itself with --calibration NAME).")
    return hand_subs


def read_settings_file(path: Path) -> tuple[dict[str, Any], list[str]]:
    """A settings file's JSON object (``hand.json``, a whole-table photo's ``<stem>.json``), or ``{}`` and
    the one sentence (naming the file) that says why it cannot be used; ``{}`` and no problem when it does
    not exist. Read by :func:`dealer_assist.fileio.load_json`: a pipe or a device is never read."""
    if not os.path.lexists(path):
        return {}, []
    try:
        settings = load_json(path, label=path.name)
    except JsonInputError as exc:
        return {}, [str(exc)]
    if not isinstance(settings, dict):
        return {}, [f"{path.name} holds no JSON object, so its settings cannot be used."]
    return settings, []


def _read_settings(path: Path) -> tuple[dict[str, Any], list[str]]:
    return read_settings_file(path / SETTINGS_FILE)


def _not_part_of_the_hand(name: str) -> bool:
    return name in NOT_PART_OF_THE_HAND or name.startswith("._")  # ._x: macOS metadata of x


def file_problem(entry: Path) -> str | None:
    """Why a file of a hand folder is neither read nor known (one sentence naming it), or None.

    None for :data:`SETTINGS_FILE`, the files that are not part of a hand, and
    a regular photo whose name maps to the board or a player.
    """
    name = entry.name
    if name == SETTINGS_FILE or _not_part_of_the_hand(name):
        return None
    if name != name.strip() or Path(name).stem != Path(name).stem.strip():
        return f"{name!r}: the name begins or ends with a space, so it names no player; rename the file."
    if name.startswith("."):
        return f"{name}: a hidden file is not read; rename it (a photo) or remove it from the hand folder."
    if entry.suffix.lower() in PHOTO_SUFFIXES and not entry.is_file():
        return f"{name}: not a readable photo (a broken link or a folder)."
    if entry.is_dir():
        return (f"{name}/: a sub-folder is not read; put its photos in the hand folder itself "
                f"(or score it as a hand of its own).")
    if entry.suffix.lower() not in PHOTO_SUFFIXES:
        shown = entry.suffix or "no suffix"
        return (f"{name}: not a photo this program reads ({shown}; it reads "
                f"{', '.join(sorted(PHOTO_SUFFIXES))}); convert it or remove it from the hand folder.")
    seat = _seat_and_count(entry.stem)[0]
    if seat != BOARD and not _PLAYER_NAME.fullmatch(seat):
        return (f"{name}: the name does not map to a player (a player's photo is NAME or NAME-N, the name of "
                f"letters, digits, _ and -); rename the file.")
    return None


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


def hand_game(settings: dict[str, Any], game: Game | None = None, label: str = SETTINGS_FILE
              ) -> tuple[Game, list[str]]:
    """The game of a hand: ``game`` (the command line's) or the settings' ``"game"`` (default Hold'em,
    FORMATS.md §1), and the sentence saying why the settings' (the file ``label``) cannot be used."""
    if game is not None:
        return Game(game), []
    value = settings.get("game", Game.HOLDEM.value)
    try:
        return Game(value), []
    except ValueError:
        shown = repr(value) if isinstance(value, str) and len(value) <= 20 else "that value"
        return Game.HOLDEM, [f"{label}: game must be holdem or indian, not {shown}."]


def parse_hand_folder(path: Path, game: Game | None = None) -> HandFolder:
    """Read a hand folder's layout (no OCR yet): its photos, settings and every file's problem.

    ``game`` (``score --game``) wins over ``hand.json``'s; in Indian poker a player's photo holds one
    note and a board photo is a problem (the game has no board). Problems are collected, not raised.
    """
    settings, problems = _read_settings(path)
    played, why = hand_game(settings, game)
    problems += why
    slots: list[PhotoSlot] = []
    try:
        entries = sorted(path.iterdir())
    except OSError as exc:
        return HandFolder(path, [], settings, problems + [
            f"{path.name}: the folder cannot be read ({(exc.strerror or str(exc)).lower()})."])
    for entry in entries:
        problem = file_problem(entry)
        if problem is not None:
            problems.append(problem)
        elif is_photo(entry):
            seat, expected = _seat_and_count(entry.stem)
            if seat == BOARD and not played.board_notes:
                problems.append(f"{entry.name}: Indian poker has no board notes; remove the photo from the hand "
                                f"folder.")
                continue
            slots.append(PhotoSlot(entry, seat, min(expected, played.pocket_notes) if seat != BOARD else expected))
    return HandFolder(path, slots, settings, problems)
