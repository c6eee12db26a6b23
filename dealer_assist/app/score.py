"""``score``: photographed hands in, verdicts out (FORMATS.md §4).

:func:`score_paths` is the whole job; :func:`plan_score` and
:func:`run_score` are its two halves, for a caller that shows progress
(the plan knows how many photos will be read before any is).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum, unique
from pathlib import Path
from typing import Callable, Iterable, Sequence

from dealer_assist.app.hand_folders import (HandFolder, InputError, discover_hands, is_photo, looks_like_hand,
                                           parse_hand_folder)
from dealer_assist.app.photo_files import PHOTO_SUFFIXES
from dealer_assist.app.photos import read_photos
from dealer_assist.app.table_photos import is_table_folder, read_table_photos, table_hand
from dealer_assist.app.verdicts import HandScore, score_hand
from dealer_assist.rules import Game, TiePolicy, ZeroJoker

__all__ = ["InputKind", "ScoreOptions", "ScorePlan", "discover_inputs", "plan_score", "run_score", "score_paths"]


@unique
class InputKind(StrEnum):
    """What a command-line path of ``score`` is."""

    HAND = "hand"  # a hand folder
    TABLE = "table"  # a whole-table photo


@dataclass(frozen=True)
class ScoreOptions:
    """The options of ``score``; None leaves a setting to each hand's ``hand.json``.

    Attributes:
        position: playing position P, 1-7.
        zero_joker, tie_policy, game: the hand's options (game: Hold'em or Indian poker, RULES.md §7).
        jobs: photos read at once (processes); results equal ``jobs=1``.
        calibration: profile name or path (``"default"``: the default profile) for whole-table
            photos, which are read only when it is given; None: no profile.
    """

    position: int | None = None
    zero_joker: ZeroJoker | None = None
    tie_policy: TiePolicy | None = None
    jobs: int = 1
    calibration: str | None = None
    game: Game | None = None

    def overrides(self) -> dict[str, object]:
        """The settings that win over ``hand.json`` (None: not given)."""
        return {"position": self.position,
                "zero_joker": None if self.zero_joker is None else ZeroJoker(self.zero_joker).value,
                "tie_policy": None if self.tie_policy is None else TiePolicy(self.tie_policy).value,
                "game": None if self.game is None else Game(self.game).value}


@dataclass
class ScorePlan:
    """What :func:`run_score` will read: the inputs in order, the hand folders parsed, the profile.

    Attributes:
        items: ``(kind, path)`` in input order.
        folders: each hand folder's layout, by path.
        profile: the calibration profile (whole-table photos, a deck's note layout), or None.
        notices: sentences for the user (photos found and not scored, see :func:`discover_inputs`).
        unscored: the photos and folders given that no hand holds (each named in ``notices``).
    """

    items: list[tuple[InputKind, Path]]
    folders: dict[Path, HandFolder]
    profile: object | None = None
    notices: list[str] = field(default_factory=list)
    unscored: list[Path] = field(default_factory=list)

    @property
    def tables(self) -> list[Path]:
        return [p for kind, p in self.items if kind == InputKind.TABLE]

    @property
    def slots_to_read(self) -> list:
        """The hand folders' photos the reader reads: all but those whose serials ``hand.json`` gives
        (their reading would not be used, see :func:`~.verdicts.score_hand`)."""
        return [s for f in self.folders.values() for s in f.slots if not _given(f, s)]

    @property
    def photo_count(self) -> int:
        """Photos to read: the hand folders' (:attr:`slots_to_read`), and every whole-table photo."""
        return len(self.slots_to_read) + len(self.tables)


def _given(folder: HandFolder, slot) -> bool:
    manual = folder.settings.get("serials")
    return isinstance(manual, dict) and slot.path.name in manual


def discover_inputs(paths: Iterable[str | Path], calibrated: bool, notices: list[str] | None = None,
                    unscored: list[Path] | None = None) -> list[tuple[InputKind, Path]]:
    """Sort the command-line paths into ``("hand", folder)`` and ``("table", photo)`` items, in input order.

    Folders follow :func:`~.hand_folders.discover_hands` (a hand, or a folder of hands; loose photos beside
    hand folders are named in ``notices`` and listed in ``unscored``). Whole-table photos are read only
    with ``calibrated`` (``--calibration`` given): a photo given directly, and a folder holding photos but
    neither ``hand.json`` nor a board photo. Without it, a photo given directly is refused (it is never
    silently taken for a table). The same hand or photo named twice is taken once.

    Raises:
        InputError: a path does not exist, is a file that is not a photo, is a photo without
            ``calibrated``, or holds no hand.
    """
    items: list[tuple[InputKind, Path]] = []
    for raw in paths:
        p = Path(raw)
        if p.exists() and not p.is_dir():
            if p.suffix.lower() not in PHOTO_SUFFIXES:
                raise InputError(f"{p}: is a file but not a photo; give hand folders (or whole-table photos "
                                 f"with --calibration NAME).")
            if not calibrated:
                hint = (f"; to score the hand it belongs to, give its folder {p.parent}"
                        if looks_like_hand(p.parent) else "")
                raise InputError(f"{p}: a photo given on its own is read as a whole-table photo, which needs "
                                 f"--calibration NAME (the profile whose zones split it into board and seats)"
                                 f"{hint}.")
            items.append((InputKind.TABLE, p))
        elif calibrated and is_table_folder(p):
            items.extend((InputKind.TABLE, c) for c in sorted(p.iterdir()) if is_photo(c))
        else:
            items.extend((InputKind.HAND, h) for h in discover_hands([p], notices, unscored))
    unique_items: list[tuple[InputKind, Path]] = []
    seen: set[Path] = set()
    for kind, path in items:
        if path.resolve() not in seen:
            seen.add(path.resolve())
            unique_items.append((kind, path))
    return unique_items


def plan_score(paths: Sequence[str | Path], options: ScoreOptions) -> ScorePlan:
    """Find the hands, parse their folders and load the profile; no photo is read yet.

    Raises:
        InputError: a path cannot be used, or the profile cannot (the sentence says why).
    """
    from dealer_assist.calibration import CalibrationError, load_profile

    notices: list[str] = []
    unscored: list[Path] = []
    items = discover_inputs(paths, calibrated=options.calibration is not None, notices=notices, unscored=unscored)
    plan = ScorePlan(items, {p: parse_hand_folder(p, options.game) for kind, p in items if kind == InputKind.HAND},
                     notices=notices, unscored=unscored)
    if options.calibration is not None:  # never the default profile unasked (whole-table photos need the option)
        try:
            plan.profile = load_profile(options.calibration)
            if plan.tables:
                plan.profile.require_table()
        except CalibrationError as exc:
            raise InputError(str(exc)) from None
    return plan


def run_score(plan: ScorePlan, options: ScoreOptions, progress: Callable[[], None] | None = None) -> list[HandScore]:
    """Read every photo of the plan and give each hand its verdict, in input order.

    ``progress`` is called once per photo read.
    """
    step = (lambda _: progress()) if progress else None
    slots = plan.slots_to_read
    layout = plan.profile.notes if plan.profile is not None else None  # a calibrated deck's fast path
    readings = read_photos([str(s.path) for s in slots], jobs=options.jobs, progress=step,
                           expected=[s.expected for s in slots], layout=layout)
    by_path = {r.image: r for r in readings}
    folders = dict(plan.folders)
    tables = plan.tables
    if tables:
        table_readings = read_table_photos([str(p) for p in tables], plan.profile, jobs=options.jobs, progress=step)
        for p, tr in zip(tables, table_readings):
            folders[p], zone_readings = table_hand(p, plan.profile, tr, options.game)
            by_path.update(zone_readings)
    return [score_hand(folders[p], by_path, options.overrides()) for _, p in plan.items]


def score_paths(paths: Sequence[str | Path], options: ScoreOptions = ScoreOptions()) -> list[HandScore]:
    """Score hand folders and whole-table photos: :func:`plan_score`, then :func:`run_score`.

    Raises:
        InputError: as :func:`plan_score`.
    """
    return run_score(plan_score(paths, options), options)
