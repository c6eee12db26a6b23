"""The committed ``sample_images/``: photographed hands (FORMATS.md §4) and table photos.

Each hand folder holds the photos (``board-N.jpg`` / ``board.jpg`` for board
notes, ``NAME.jpg`` or ``NAME-1.jpg`` + ``NAME-2.jpg`` for a player's pocket
notes), ``hand.json`` (``position``, ``zero_joker``, ``tie_policy``; ``game``
for the Indian poker hand, which has no board and one note per player) and
``truth.json``:

* ``hand``: the full hand in FORMATS.md §1 form (players in seat order);
* ``images``: per file name, ``role`` (``"board"`` | ``"pocket"``), ``player``,
  ``serials`` and ``letters`` of the notes in it (in hand order) and ``notes``
  (full note truth, see :mod:`.compositor`), ``conditions``, ``seed``.

``tables/`` holds whole-table photos with ArUco markers, each with its settings
``STEM.json`` (as ``hand.json``) and its truth ``STEM.truth.json`` (see
:func:`.scene.render_scene`). Everything derives from fixed seeds.
"""

from __future__ import annotations

import json
from collections.abc import Callable
import shutil
import tempfile
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from dealer_assist.synth.note import NoteSpec
from dealer_assist.synth.photos import render_hand_photo
from dealer_assist.synth.compositor import MAX_IMAGE_BYTES
from dealer_assist.synth.random_choices import random_hand_serials
from dealer_assist.synth.scene import render_scene_jpeg
from dealer_assist.synth.truth import SCHEMA, atomic_write_bytes, dumps_truth


@dataclass(frozen=True)
class HandPlan:
    """One photographed hand: folder name, seed, players, playing position,
    options, whether the board is one photo, and which players have one photo
    for both notes (the others have one photo per note); ``game`` ``"indian"``:
    RULES.md §7, one note per player, one photo each, no board."""

    folder: str
    seed: int
    players: tuple[str, ...]
    position: int
    zero_joker: str
    tie_policy: str
    board_one_photo: bool
    one_photo_players: tuple[str, ...]
    zero_prob: float = 0.25
    game: str = "holdem"


#: The committed hands: 3-6 players, every position style, some zeros at P.
HAND_PLANS: tuple[HandPlan, ...] = (
    HandPlan("hand_01", 101, ("alice", "boris", "chen"), 4, "off", "split", False, ()),
    HandPlan("hand_02", 102, ("dana", "egor", "fatima", "gleb"), 2, "per-zero", "split", True,
             ("dana", "egor", "fatima", "gleb")),
    HandPlan("hand_03", 103, ("ivan", "julia", "kemal", "lena", "misha"), 7, "off", "rollover", False,
             ("julia", "lena")),
    HandPlan("hand_04", 104, ("nadia", "oleg", "pavel", "rita", "sasha", "timur"), 1, "once", "split", False,
             ("nadia", "oleg", "pavel", "rita", "sasha", "timur")),
    HandPlan("hand_05", 105, ("ulyana", "vadim", "wen"), 5, "per-zero", "split", True, ("vadim",), 0.45),
    HandPlan("hand_06", 106, ("yana", "zakhar", "anton", "bella"), 3, "off", "split", False, ("zakhar", "bella")),
    HandPlan("indian_01", 108, ("anna", "boris", "chen", "dasha"), 3, "off", "split", False, (), 0.3, "indian"),
)

#: Whole-table photos: (file stem, seed, players, preset, image size).
TABLE_PLANS: tuple[tuple[str, int, int, str, tuple[int, int]], ...] = (
    ("table_1", 201, 4, "easy", (1920, 1080)),
    ("table_2", 202, 6, "medium", (1920, 1080)),
)

_SIZES = ((1280, 960), (960, 1280), (1280, 720))


def _deal(plan: HandPlan) -> tuple[list[NoteSpec], list[list[NoteSpec]]]:
    rng = np.random.default_rng(plan.seed)
    board, pockets = random_hand_serials(rng, len(plan.players), plan.position, plan.zero_prob)
    if plan.game == "indian":  # RULES.md §7.1: one note each, no board
        board, pockets = [], [pk[1:] for pk in pockets]
    # every hand shows the zero rules at least once: a pocket note with 0 at P
    if not any(s.digits[plan.position - 1] == "0" for pk in pockets for s in pk):
        s = pockets[0][-1]
        d = list(s.digits)
        d[plan.position - 1] = "0"
        pockets[0][-1] = NoteSpec(s.letters, "".join(d), s.denomination, s.style_seed)
    return board, pockets


def hand_photos(plan: HandPlan) -> list[tuple[str, str, str | None, list[NoteSpec]]]:
    """The photos of one hand: (file name, role, player, notes in it)."""
    board, pockets = _deal(plan)
    photos: list[tuple[str, str, str | None, list[NoteSpec]]] = []
    if plan.board_one_photo:
        photos.append(("board.jpg", "board", None, board))
    else:
        photos += [(f"board-{i + 1}.jpg", "board", None, [s]) for i, s in enumerate(board)]
    for name, pk in zip(plan.players, pockets):
        if name in plan.one_photo_players or len(pk) == 1:
            photos.append((f"{name}.jpg", "pocket", name, pk))
        else:
            photos += [(f"{name}-{i + 1}.jpg", "pocket", name, [s]) for i, s in enumerate(pk)]
    return photos


def hand_dict(plan: HandPlan) -> dict:
    """The hand of ``plan`` in FORMATS.md §1 form."""
    board, pockets = _deal(plan)
    return {
        **({"game": plan.game} if plan.game != "holdem" else {}),
        "position": plan.position,
        "zero_joker": plan.zero_joker,
        "tie_policy": plan.tie_policy,
        "board": [s.digits for s in board],
        "players": [{"name": n, "pocket": [s.digits for s in pk]} for n, pk in zip(plan.players, pockets)],
    }


def write_hand(plan: HandPlan, folder: Path, preset: str = "medium") -> dict:
    """Render every photo of ``plan`` into ``folder`` with ``hand.json`` and ``truth.json``.
    Returns the truth dict."""
    folder.mkdir(parents=True, exist_ok=True)
    images: dict[str, dict] = {}
    for k, (fname, role, player, specs) in enumerate(hand_photos(plan)):
        seed = plan.seed * 100 + k
        size = _SIZES[(plan.seed + k) % len(_SIZES)] if len(specs) < 3 else (1280, 960)
        _, data, truth = render_hand_photo(seed, specs, preset, image_size=size)
        atomic_write_bytes(folder / fname, data)
        by_serial = {n["serial"]: n for n in truth["notes"] if n["face"] == "up"}
        images[fname] = {
            "role": role,
            "player": player,
            "serials": [s.digits for s in specs],
            "letters": [s.letters for s in specs],
            "notes": [by_serial[s.digits] for s in specs],
            "width": truth["width"],
            "height": truth["height"],
            "surface": truth["surface"],
            "conditions": truth["conditions"],
            "seed": seed,
            "attempt": truth["attempt"],
        }
    hand = hand_dict(plan)
    options = {**({"game": plan.game} if plan.game != "holdem" else {}),
               "position": plan.position, "zero_joker": plan.zero_joker, "tie_policy": plan.tie_policy}
    truth = {"schema": SCHEMA, "kind": "photographed_hand", "preset": preset, "hand": hand, "images": images}
    atomic_write_bytes(folder / "hand.json", (json.dumps(options, indent=1) + "\n").encode())
    atomic_write_bytes(folder / "truth.json", dumps_truth(truth).encode("utf-8"))
    return truth


def write_tables(folder: Path) -> list[str]:
    """Render the whole-table photos (with ArUco markers) into ``folder``: per photo ``STEM.jpg``, its
    settings ``STEM.json`` (what ``score`` reads beside a whole-table photo: ``position``, ``zero_joker``,
    ``tie_policy`` of the dealt hand, as a hand folder's ``hand.json``) and its truth ``STEM.truth.json``
    (kept apart, as a hand folder's ``truth.json``: in ``STEM.json`` the hand's position sat under
    ``hand.position``, which ``score`` rightly does not read as a setting)."""
    folder.mkdir(parents=True, exist_ok=True)
    names = []
    for stem, seed, players, preset, size in TABLE_PLANS:
        _, data, truth = render_scene_jpeg(seed, preset, n_players=players, position=None, stage="showdown",
                                           image_size=size, markers=True, surface_kind=None, flat_colour=None,
                                           jpeg_max_bytes=MAX_IMAGE_BYTES)
        truth["image"] = f"{stem}.jpg"
        hand = truth["hand"]
        settings = {"position": hand["position"], "zero_joker": hand["zero_joker"], "tie_policy": hand["tie_policy"]}
        atomic_write_bytes(folder / f"{stem}.jpg", data)
        atomic_write_bytes(folder / f"{stem}.json", (json.dumps(settings, indent=1) + "\n").encode())
        atomic_write_bytes(folder / f"{stem}.truth.json", dumps_truth(truth).encode("utf-8"))
        names.append(stem)
    return names


def write_samples(root: str | Path, preset: str = "medium",
                  on_folder: Callable[[str, int, int], None] | None = None) -> list[str]:
    """(Re)build ``root``: every hand folder of :data:`HAND_PLANS` and ``tables/``.

    ``on_folder(name, done, total)``, when given, is called after each folder is swapped in (a progress bar).

    Each folder is rendered into a temporary sibling first and then swapped in,
    so an interrupted run leaves the previous samples intact. Other entries of
    ``root`` are left alone. Returns the folder names written.
    """
    root = Path(root)
    root.mkdir(parents=True, exist_ok=True)
    written = []
    jobs = [(p.folder, lambda d, p=p: write_hand(p, d, preset)) for p in HAND_PLANS]
    jobs.append(("tables", write_tables))
    for name, job in jobs:
        tmp = Path(tempfile.mkdtemp(prefix=f".{name}.", dir=root))
        tmp.chmod(0o755)
        try:
            job(tmp)
            target = root / name
            old = None
            if target.exists():
                old = root / f".{name}.old"
                if old.exists():
                    shutil.rmtree(old)
                target.rename(old)
            tmp.rename(target)
            if old is not None:
                shutil.rmtree(old)
        finally:
            if tmp.exists():
                shutil.rmtree(tmp)
        written.append(name)
        if on_folder is not None:
            on_folder(name, len(written), len(jobs))
    return written
