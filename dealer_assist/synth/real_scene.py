"""Webcam videos of dealt hands played with flat note images (real notes cut out at run time).

The notes are given as :class:`NoteImage` (a flat upright front, a face-down
back, where its two serial prints are); :mod:`.real_notes` makes them from
labelled photos. Everything else is the synthetic renderer's: the table
surfaces, the hand sprite, the camera homography, the composer that draws
notes and hands and reports per-note truth, lighting, blur and noise
(:mod:`.compositor`, :mod:`.camera`, :mod:`.effects`, :mod:`.sprites`).

Two set-ups (:data:`SETUPS`): **A**, a 1920x1080 webcam on a stand over a
compact 57x33 cm mat; **B**, a 3840x2160 webcam over a 115x65 cm table; both
see the table at about 2.2 px/mm on the far side and 3.3 px/mm on the near
side (the camera leans towards the croupier's side).

One hand, at 10 frames per second: the empty table; the deal (two rounds, one
pocket note per seat per round, face down, each slid in under the dealer's
hand from the croupier's place); the flop, the turn and the river (one board
note each, face up, slid in the same way); the showdown (each player's hand
comes over their two notes and turns them face up: both prints show, a pair
may fan over itself); then the table holds still. Notes: rotation up to
+-15 degrees where they fit, 30% put down upside down, seats at the table's
ends turned ~90 degrees. Pocket pairs lie apart, or fanned so that the lower
note's two prints stay uncovered. Every frame comes with its truth (what the
composer reports, plus ``moving``), and the frames go through a real video
encoder (H.264 by ``ffmpeg`` when it is installed, else OpenCV's ``mp4v``):
the benchmark plays the *decoded* video.
"""

from __future__ import annotations

import dataclasses
import json
import shutil
import subprocess
from dataclasses import dataclass, field
from pathlib import Path
from typing import Iterator, Sequence

import cv2
import numpy as np

from dealer_assist.synth.camera import fit_to_image, look_at_homography, project
from dealer_assist.synth.effects import lighting
from dealer_assist.synth.layout import NOTE_SIZE_MM, NOTE_SIZE_PX
from dealer_assist.synth.note import PrintInfo, RenderedNote
from dealer_assist.synth.presets import Preset, get_preset
from dealer_assist.synth.compositor import BACKGROUND, OCCLUDER_BASE, Composer
from dealer_assist.synth.placement import Occluder, Placement, note_to_table, replace_placement
from dealer_assist.synth.table import TableLayout, Zone
from dealer_assist.synth.truth import SCHEMA, atomic_write_bytes, dumps_truth, to_jsonable

__all__ = ["NoteImage", "Setup", "SETUPS", "RealHand", "plan_real_hand", "render_real_hand", "write_real_hand",
           "video_codec", "decode_video", "WEBCAM_PRESET"]

NOTE_W_MM, NOTE_H_MM = NOTE_SIZE_MM
FPS = 10.0


@dataclass(frozen=True)
class NoteImage:
    """One note to deal: ``front`` and ``back`` uint8 BGR of :data:`~.layout.NOTE_SIZE_PX`
    (upright); ``prints`` normalised boxes ``{"top_right": (x0, y0, x1, y1), "left": ...}`` of
    its serial prints on the front; ``serial`` 7 digits; ``letters``; ``denomination``; ``key``
    names the image (unique)."""

    key: str
    serial: str
    letters: str
    denomination: int
    front: np.ndarray = field(repr=False)
    back: np.ndarray = field(repr=False)
    prints: dict[str, tuple[float, float, float, float]] = field(default_factory=dict)

    @staticmethod
    def from_cutout(cut) -> "NoteImage":
        """From a :class:`~.real_notes.NoteCutout`."""
        return NoteImage(cut.key, cut.serial, cut.letters, cut.denomination, cut.image, cut.back, dict(cut.prints))


@dataclass(frozen=True)
class _Spec:
    """What a :class:`~.placement.Placement` needs of its note (the composer's ``NoteSpec`` role)."""

    key: str
    letters: str
    digits: str
    denomination: int


@dataclass(frozen=True)
class Setup:
    """A camera over a table.

    ``image_size`` (w, h) px; ``table_mm`` (w, h) of the playing surface (the mat);
    ``px_per_mm`` the (far, near) scale aimed at; ``end_seats``: seats at the short ends
    turn their notes ~90 degrees (where there is room); ``distance_mm``: camera to the
    table's centre; ``video_rate``: the H.264 rate cap (a webcam's stream).
    """

    name: str
    image_size: tuple[int, int]
    table_mm: tuple[float, float]
    px_per_mm: tuple[float, float]
    end_seats: bool
    distance_mm: float
    video_rate: str
    blur_sigma: tuple[float, float]


SETUPS: dict[str, Setup] = {
    "A": Setup("A", (1920, 1080), (570.0, 330.0), (2.2, 3.3), False, 650.0, "4M", (0.5, 0.9)),
    "B": Setup("B", (3840, 2160), (1150.0, 650.0), (2.2, 3.3), True, 1300.0, "12M", (0.5, 0.9)),
}

#: Light and paper of a webcam over a table under room light (blur and noise are set per set-up).
WEBCAM_PRESET: Preset = dataclasses.replace(
    get_preset("medium"), name="webcam", gain=(0.85, 1.08), light_gradient=0.25, vignette=0.2,
    colour_cast=0.04, glare_prob=0.6, glare_strength=(0.25, 0.55), glare_radius_frac=(0.03, 0.07),
    shadow_prob=0.3, shadow_strength=(0.1, 0.25), motion_blur_prob=0.0, noise_sigma=(2.0, 4.0),
    curl_mm=(0.0, 2.0), fold_prob=0.2, crumple=(0.0, 0.05))


# --------------------------------------------------------------------------- the camera


def _px_per_mm(hom: np.ndarray, p: Sequence[float]) -> float:
    q = project(hom, [p, (p[0] + 5.0, p[1]), (p[0], p[1] + 5.0)])
    return float((np.linalg.norm(q[1] - q[0]) + np.linalg.norm(q[2] - q[0])) / 10.0)


def _camera(rng: np.random.Generator, setup: Setup) -> tuple[np.ndarray, dict]:
    """Homography table mm -> image px: the camera leans from the croupier's side (+y) so that
    the far edge is seen at ``px_per_mm[0]`` and the near edge at ``px_per_mm[1]`` (within a few
    per cent), a little azimuth and roll."""
    tw, th = setup.table_mm
    target = (tw / 2, th / 2)
    w, h = setup.image_size
    azimuth, roll = float(rng.uniform(-4, 4)), float(rng.uniform(-1.5, 1.5))
    want = setup.px_per_mm[0] / setup.px_per_mm[1] * float(rng.uniform(1.0, 1.06))

    def build(tilt: float) -> np.ndarray:
        hom = look_at_homography(target, tilt, azimuth, roll, setup.distance_mm, 0.8 * w, (w, h))
        outline = np.array([[0, 0], [tw, 0], [tw, th], [0, th]], np.float64)
        return fit_to_image(hom, outline, (w, h), 0.96)

    def ratio(hom: np.ndarray) -> float:  # the far corners' scale over the near edge's
        far = min(_px_per_mm(hom, (x, 0.0)) for x in (0.0, tw / 2, tw))
        return far / max(_px_per_mm(hom, (x, th)) for x in (0.0, tw / 2, tw))

    lo, hi = 0.0, 75.0
    for _ in range(40):  # the far/near ratio falls as the camera leans
        mid = (lo + hi) / 2
        if ratio(build(mid)) > want:
            lo = mid
        else:
            hi = mid
    tilt = (lo + hi) / 2
    hom = build(tilt)
    # zoom so that the near edge is seen at the aimed scale, if the table still fits in the frame
    near = max(_px_per_mm(hom, (x, th)) for x in (0.0, tw / 2, tw))
    corners = project(hom, [[0, 0], [tw, 0], [tw, th], [0, th]])
    span = corners.max(axis=0) - corners.min(axis=0)
    zoom = min(setup.px_per_mm[1] / near, 0.98 * w / span[0], 0.98 * h / span[1])
    c = corners.mean(axis=0)
    sim = np.array([[zoom, 0, w / 2 - zoom * c[0]], [0, zoom, h / 2 - zoom * c[1]], [0, 0, 1.0]])
    hom = sim @ hom
    hom = hom / hom[2, 2]
    scales = [_px_per_mm(hom, (x, y)) for x in np.linspace(0, tw, 5) for y in np.linspace(0, th, 5)]
    info = {"tilt_deg": round(tilt, 2), "azimuth_deg": round(azimuth, 2), "roll_deg": round(roll, 2),
            "px_per_mm_far": round(_px_per_mm(hom, (tw / 2, 0.0)), 3),
            "px_per_mm_near": round(_px_per_mm(hom, (tw / 2, th)), 3),
            "px_per_mm_range": [round(min(scales), 3), round(max(scales), 3)]}
    return hom, info


# --------------------------------------------------------------------------- the layout


@dataclass
class _Slot:
    """Where a seat's notes go: centre (mm), the seat's note angle (0 = upright in the image),
    its zone rectangle's size (along, across the player's view), and the kind of seat."""

    name: str
    centre: np.ndarray
    angle: float
    size: tuple[float, float]
    kind: str  # "bottom", "top", "end"


def _rect(centre, size, angle_deg) -> np.ndarray:
    a = np.deg2rad(angle_deg)
    ca, sa = np.cos(a), np.sin(a)
    w, h = size
    local = np.array([[-w / 2, -h / 2], [w / 2, -h / 2], [w / 2, h / 2], [-w / 2, h / 2]])
    return np.column_stack([centre[0] + ca * local[:, 0] - sa * local[:, 1],
                            centre[1] + sa * local[:, 0] + ca * local[:, 1]])


def _clockwise(slots: list[_Slot], table_mm) -> list[_Slot]:
    """Seats clockwise (as seen from above), starting left of the croupier's place at the middle of
    the near (bottom) edge, named P1..Pn (the convention of :func:`.table.make_table`)."""
    cx, cy = table_mm[0] / 2, table_mm[1] / 2

    def key(s: _Slot) -> float:
        return (np.rad2deg(np.arctan2(s.centre[1] - cy, s.centre[0] - cx)) - 90.0) % 360.0

    out = sorted(slots, key=key)
    for i, s in enumerate(out):
        s.name = f"P{i + 1}"
    return out


def _slots(setup: Setup, n: int, board_box: tuple[float, float, float, float]) -> list[_Slot]:
    """Seat places for ``n`` players: on the compact mat two rows (above and below the board);
    on the big table round an ellipse, the seats at the short ends turned 90 degrees."""
    tw, th = setup.table_mm
    bx0, by0, bx1, by1 = board_box
    slots: list[_Slot] = []
    if not setup.end_seats:
        bottom = (n + 1) // 2
        top = n - bottom
        for k, y0, y1, angle, kind in ((bottom, by1, th, 0.0, "bottom"), (top, 0.0, by0, 180.0, "top")):
            for j in range(k):
                x0, x1 = j * tw / k, (j + 1) * tw / k
                slots.append(_Slot("", np.array([(x0 + x1) / 2, (y0 + y1) / 2]), angle, (x1 - x0, y1 - y0), kind))
    else:
        rx, ry = tw / 2 - 130, th / 2 - 110
        cx, cy = tw / 2, th / 2
        for i in range(n):
            phi = np.deg2rad(90 + (i + 0.5) * 360 / n)
            c, s = np.cos(phi), np.sin(phi)
            if abs(c) >= 0.85:
                x = 95.0 if c < 0 else tw - 95.0
                slots.append(_Slot("", np.array([x, cy + ry * s * 0.3]), 90.0 if c < 0 else 270.0, (250.0, 170.0),
                                   "end"))
            else:
                y = cy + ry * s
                slots.append(_Slot("", np.array([cx + rx * c, y]), 0.0 if s > 0 else 180.0, (270.0, 2 * min(
                    abs(y - (by1 if s > 0 else by0)), th - y if s > 0 else y) - 10), "bottom" if s > 0 else "top"))
    return _clockwise(slots, setup.table_mm)


def _note_quad_mm(pl: Placement) -> np.ndarray:
    return project(note_to_table(pl.centre_mm, pl.angle_deg), [[0, 0], [NOTE_SIZE_PX[0], 0], list(NOTE_SIZE_PX),
                                                                [0, NOTE_SIZE_PX[1]]])


def _print_quads_mm(pl: Placement, prints: dict) -> list[np.ndarray]:
    m = note_to_table(pl.centre_mm, pl.angle_deg)
    w, h = NOTE_SIZE_PX
    out = []
    for b in prints.values():
        out.append(project(m, [[b[0] * w, b[1] * h], [b[2] * w, b[1] * h], [b[2] * w, b[3] * h], [b[0] * w, b[3] * h]]))
    return out


def _overlap(a: np.ndarray, b: np.ndarray, clearance: float) -> bool:
    def grow(q):
        c = q.mean(axis=0)
        d = q - c
        return (c + d * (1 + clearance / np.linalg.norm(d, axis=1, keepdims=True))).astype(np.float32)

    inter, _ = cv2.intersectConvexConvex(grow(a), grow(b))
    return inter > 0


def _inside(point, poly) -> bool:
    return cv2.pointPolygonTest(np.asarray(poly, np.float32).reshape(-1, 1, 2), (float(point[0]), float(point[1])),
                                False) >= 0


def _grown(q: np.ndarray, d: float) -> np.ndarray:
    """A convex quad moved outwards by ``d`` along its corners' diagonals (about ``d`` on every side)."""
    c = q.mean(axis=0)
    v = q - c
    return c + v * (1 + d * np.sqrt(2) / np.linalg.norm(v, axis=1, keepdims=True))


def _print_visibility(stack: list[Placement], prints: dict[str, dict], table_mm, res: float = 2.0,
                      margin_mm: float = 4.0) -> list[float]:
    """Least visible share of a serial print, per note, for notes drawn in ``stack`` order, each note
    taken ``margin_mm`` larger than it is (its curl, its shadow, the pixels of a small view)."""
    w, h = int(table_mm[0] * res) + 1, int(table_mm[1] * res) + 1
    labels = np.full((h, w), -1, np.int16)
    for i, pl in enumerate(stack):
        q = _grown(_note_quad_mm(pl), margin_mm)
        cv2.fillPoly(labels, [np.round(q * res * 16).astype(np.int32)], i, cv2.LINE_8, shift=4)
    out = []
    for i, pl in enumerate(stack):
        worst = 1.0
        for q in _print_quads_mm(pl, prints[pl.spec.key]):
            m = np.zeros((h, w), np.uint8)
            cv2.fillPoly(m, [np.round(q * res * 16).astype(np.int32)], 1, cv2.LINE_8, shift=4)
            n = int(m.sum())
            worst = min(worst, float((labels[m > 0] == i).sum()) / n if n else 0.0)
        out.append(worst)
    return out


@dataclass
class RealHand:
    """One hand's deal: the table (zones), where every note ends, P, the camera."""

    setup: Setup
    table: TableLayout
    position: int
    board: list[Placement]
    pockets: dict[str, list[Placement]]
    hom: np.ndarray
    camera: dict
    notes: dict[str, NoteImage]
    layout_info: dict

    def hand_json(self) -> dict:
        """FORMATS.md §1 (players clockwise from P1; the dealer is P1, as a new live session has it)."""
        seats = self.table.seats
        return {"position": self.position, "zero_joker": "off", "tie_policy": "split", "dealer": seats[0],
                "board": [pl.spec.digits for pl in self.board],
                "players": [{"name": s, "pocket": [pl.spec.digits for pl in self.pockets[s]]} for s in seats]}


def _paper(rng: np.random.Generator, preset: Preset) -> dict:
    sign = lambda: 1.0 if rng.random() < 0.5 else -1.0  # noqa: E731
    return {"curl_mm": (sign() * float(rng.uniform(*preset.curl_mm)),
                        sign() * float(rng.uniform(*preset.curl_mm)) * 0.4),
            "fold_u": float(rng.uniform(0.3, 0.7)) if rng.random() < preset.fold_prob else None,
            "crumple": float(rng.uniform(*preset.crumple)), "shade_seed": int(rng.integers(2**31 - 1))}


class _NoFit(Exception):
    pass


def _lay_out(rng, setup: Setup, specs, prints, n_players: int, jitter: float, preset: Preset):
    """One try at laying out a hand with notes turned up to ``jitter`` degrees; :class:`_NoFit` if it fails."""
    tw, th = setup.table_mm
    clearance = 4.0
    info: dict = {"angle_jitter_deg": jitter, "fans": {}}

    def on_table(q) -> bool:
        return bool((q >= 2).all() and (q[:, 0] <= tw - 2).all() and (q[:, 1] <= th - 2).all())

    # the board: a row of three in the middle
    for attempt in range(150):
        gap = float(rng.uniform(6, 22))
        c = np.array([tw / 2, th / 2]) + rng.normal(0, [6, 4])
        board = []
        for k, spec in enumerate(specs[:3]):
            ang = (180.0 if rng.random() < 0.25 else 0.0) + float(rng.uniform(-jitter, jitter))
            centre = (float(c[0] + (k - 1) * (NOTE_W_MM + gap)), float(c[1] + rng.normal(0, 3)))
            board.append(Placement(specs[k], centre, ang % 360, True, "board", **_paper(rng, preset)))
        quads = [_note_quad_mm(pl) for pl in board]
        if all(on_table(q) for q in quads) and not any(
                _overlap(quads[i], quads[j], clearance) for i in range(3) for j in range(i + 1, 3)):
            break
    else:
        raise _NoFit("the board row does not fit")
    allq = np.concatenate(quads)
    board_box = (float(allq[:, 0].min() - 8), float(allq[:, 1].min() - 8), float(allq[:, 0].max() + 8),
                 float(allq[:, 1].max() + 8))
    board_zone = np.array([[board_box[0], board_box[1]], [board_box[2], board_box[1]], [board_box[2], board_box[3]],
                           [board_box[0], board_box[3]]])
    slots = _slots(setup, n_players, board_box)
    zones: dict[str, Zone] = {"board": Zone("board", "board", board_zone, (float(c[0]), float(c[1])), 0.0)}
    for slot in slots:
        zones[slot.name] = Zone(slot.name, "seat", _rect(slot.centre, slot.size, slot.angle),
                                (float(slot.centre[0]), float(slot.centre[1])), slot.angle)
    placed: list[Placement] = list(board)
    pockets: dict[str, list[Placement]] = {}
    pocket_specs = specs[3:]
    for i, slot in enumerate(slots):
        mine = pocket_specs[2 * i:2 * i + 2]
        zone_poly = zones[slot.name].polygon_mm
        narrow = slot.size[0] < 240

        def home(pl) -> bool:
            # the note's centre and its prints' centre in its own zone, in no other
            pq = _print_quads_mm(pl, prints[pl.spec.key])
            pts = [np.asarray(pl.centre_mm), np.mean([q.mean(axis=0) for q in pq], axis=0)]
            return all(_inside(p, zone_poly) and not any(_inside(p, z.polygon_mm) for n, z in zones.items()
                                                         if n != slot.name) for p in pts)

        for attempt in range(300):
            fan = str(rng.choice(["down", "down", "apart"] if narrow else ["side", "down", "apart"]))
            sign = 1.0 if rng.random() < 0.5 else -1.0
            if fan == "side":
                du, dv = sign * rng.uniform(0.40, 0.52) * NOTE_W_MM, rng.uniform(0.27, 0.42) * NOTE_H_MM
            elif fan == "down":
                du, dv = sign * rng.uniform(0.0, 0.12) * NOTE_W_MM, rng.uniform(0.68, 0.85) * NOTE_H_MM
            else:
                du, dv = sign * rng.uniform(0.0, 0.1) * NOTE_W_MM, rng.uniform(1.08, 1.25) * NOTE_H_MM
            base = slot.angle + float(rng.uniform(-jitter, jitter))
            a = np.deg2rad(base)
            along, across = np.array([np.cos(a), np.sin(a)]), np.array([-np.sin(a), np.cos(a)])
            offset = along * du + across * dv
            centre = slot.centre + rng.normal(0, [4, 4]) - offset / 2
            pls = []
            for j, spec in enumerate(mine):
                ang = base + float(rng.uniform(-jitter, jitter) * 0.4) + (180.0 if rng.random() < 0.3 else 0.0)
                cj = centre + offset * j
                pls.append(Placement(spec, (float(cj[0]), float(cj[1])), ang % 360, False, slot.name,
                                     **_paper(rng, preset)))
            quads = [_note_quad_mm(pl) for pl in pls]
            if not all(on_table(q) for q in quads):
                continue
            if any(_overlap(q, _note_quad_mm(o), clearance) for q in quads for o in placed):
                continue
            if not all(home(pl) for pl in pls):
                continue
            if min(_print_visibility([replace_placement(p, face_up=True) for p in pls], prints, setup.table_mm)) < 0.99:
                continue
            info["fans"][slot.name] = fan
            break
        else:
            raise _NoFit(f"{slot.name}'s notes do not fit")
        pockets[slot.name] = pls
        placed.extend(pls)
    info["seat_kinds"] = {s.name: s.kind for s in slots}
    return board, zones, pockets, info


def plan_real_hand(seed: int, setup: Setup, notes: Sequence[NoteImage], n_players: int | None = None,
                   position: int | None = None, preset: Preset = WEBCAM_PRESET) -> RealHand:
    """Lay out one hand: choose the notes (distinct serials), P, the seats and where each note lies.

    ``ValueError`` when there are too few distinct notes, or no layout fits after many tries.
    """
    rng = np.random.default_rng(np.random.SeedSequence([seed, ord(setup.name)]))
    n_players = int(rng.integers(3, 7)) if n_players is None else int(n_players)
    position = int(rng.integers(1, 8)) if position is None else int(position)
    by_serial: dict[str, NoteImage] = {}
    for nt in notes:
        by_serial.setdefault(nt.serial, nt)
    need = 3 + 2 * n_players
    if len(by_serial) < need:
        raise ValueError(f"{n_players} players need {need} notes with distinct serials; {len(by_serial)} given")
    chosen = [by_serial[s] for s in rng.permutation(sorted(by_serial))[:need]]
    specs = [_Spec(nt.key, nt.letters, nt.serial, nt.denomination) for nt in chosen]
    prints = {nt.key: nt.prints for nt in chosen}
    tw, th = setup.table_mm
    why = ""
    # as much rotation as fits (on the compact mat six players' notes fit only nearly straight)
    for jitter in (15.0, 10.0, 6.0, 3.0, 1.0, 0.0) * 3:
        try:
            board, zones, pockets, info = _lay_out(rng, setup, specs, prints, n_players, jitter, preset)
            break
        except _NoFit as exc:
            why = str(exc)
    else:
        raise ValueError(f"no layout of {n_players} players fits set-up {setup.name}: {why}")
    table = TableLayout((tw, th), zones)
    hom, cam = _camera(np.random.default_rng(rng.integers(2**31)), setup)
    return RealHand(setup, table, position, board, pockets, hom, cam, {nt.key: nt for nt in chosen}, info)


# --------------------------------------------------------------------------- the storyboard


@dataclass(frozen=True)
class _Frame:
    stage: str
    event: str
    notes: list[Placement]  # in drawing order (later on top)
    occluders: list[Occluder]
    moving: frozenset[str]  # keys of notes moving in this frame


def _ease(t: float) -> float:
    return 1 - (1 - t) ** 2


def _storyboard(hand: RealHand, rng: np.random.Generator) -> list[_Frame]:
    """Frames at 10 fps: empty table 1 s; each note slid in under the dealer's hand (0.5 s) and
    the hand taken away (0.3 s); 1 s still after the deal and after each board note; each
    player turning both notes over (0.7 s) and 0.5 s still; 2.5 s still at the end."""
    tw, th = hand.setup.table_mm
    croupier = np.array([tw / 2, th + 60.0])
    frames: list[_Frame] = []
    on_table: list[Placement] = []
    hand_seed = int(rng.integers(2**31 - 1))

    def still(stage: str, n: int) -> None:
        for _ in range(n):
            frames.append(_Frame(stage, "hold", list(on_table), [], frozenset()))

    def hand_at(point: np.ndarray, towards: np.ndarray, seed: int, back_mm: float) -> Occluder:
        d = towards / (np.linalg.norm(towards) + 1e-9)
        p = point - d * back_mm
        ang = float(np.rad2deg(np.arctan2(d[0], -d[1])))  # the sprite's fingers point along d
        return Occluder("hand", (float(p[0]), float(p[1])), ang % 360, 0.95, seed)

    def slide_in(pl: Placement, stage: str, event: str) -> None:
        target = np.array(pl.centre_mm)
        start = target + (croupier - target) * float(rng.uniform(0.3, 0.45))
        d = target - start
        ang0 = pl.angle_deg + float(rng.uniform(-10, 10))
        for k in range(1, 6):
            t = _ease(k / 5)
            p = start + d * t
            moving = replace_placement(pl, centre_mm=(float(p[0]), float(p[1])),
                                       angle_deg=(ang0 + (pl.angle_deg - ang0) * t) % 360)
            frames.append(_Frame(stage, event, on_table + [moving], [hand_at(p, d, hand_seed, 55.0)],
                                 frozenset({pl.spec.key})))
        on_table.append(pl)
        for k in range(1, 4):
            p = target - d / (np.linalg.norm(d) + 1e-9) * (25.0 * k)
            frames.append(_Frame(stage, event, list(on_table), [hand_at(p, d, hand_seed, 55.0 + 15 * k)], frozenset()))

    still("empty", 10)
    seats = hand.table.seats
    for rnd in range(2):
        for s in seats:
            slide_in(hand.pockets[s][rnd], "preflop", f"deal {s} {rnd + 1}")
    still("preflop", 10)
    for stage, idx in (("flop", 0), ("turn", 1), ("river", 2)):
        slide_in(hand.board[idx], stage, f"deal board {idx + 1}")
        still(stage, 10)
    for s in seats:
        zone = hand.table.zones[s]
        centre = np.array(zone.centre_mm)
        out = centre - np.array([tw / 2, th / 2])
        out = out / (np.linalg.norm(out) + 1e-9)
        seed = int(rng.integers(2**31 - 1))
        keys = [pl.spec.key for pl in hand.pockets[s]]
        # the player's hand comes in over the notes, turns one, then the other, and leaves
        for k, reach in enumerate((140.0, 70.0, 40.0, 40.0)):
            if k == 2:
                on_table = [replace_placement(pl, face_up=True) if pl.spec.key == keys[0] else pl for pl in on_table]
            if k == 3:
                on_table = [replace_placement(pl, face_up=True) if pl.spec.key == keys[1] else pl for pl in on_table]
            moving = frozenset(keys) if k >= 2 else frozenset()
            frames.append(_Frame("showdown", f"reveal {s}", list(on_table), [hand_at(centre + out * reach, -out, seed,
                                                                                      60.0)], moving))
        for reach in (110.0, 190.0):
            frames.append(_Frame("showdown", f"reveal {s}", list(on_table), [hand_at(centre + out * reach, -out, seed,
                                                                                      60.0)], frozenset()))
        still("showdown", 5)
    still("showdown", 25)
    return frames


# --------------------------------------------------------------------------- drawing


def _rendered_front(nt: NoteImage) -> RenderedNote:
    """The composer's view of a flat note: its image and its prints (box, colour, text, digit height)."""
    h = NOTE_SIZE_PX[1]
    prints = {}
    for name, box in nt.prints.items():
        box_h = (box[3] - box[1]) * h
        # the reader's print quad is padded: the digits are about two thirds of its height
        prints[name] = PrintInfo(tuple(box), (), "unknown", f"{nt.letters} {nt.serial}", "real",
                                 (int(round(box_h * 0.65)),))
    return RenderedNote(None, nt.front, prints)  # type: ignore[arg-type]


class _RealComposer(Composer):
    """The scene composer with flat real notes, and with the light computed once per hand."""

    def __init__(self, *args, notes: dict[str, NoteImage], **kw) -> None:
        super().__init__(*args, **kw)
        self._fronts = {k: _rendered_front(nt) for k, nt in notes.items()}
        self._backs = {k: RenderedNote(None, nt.back, {}) for k, nt in notes.items()}  # type: ignore[arg-type]
        self._light: tuple[np.ndarray, np.ndarray, np.ndarray, dict] | None = None

    def rendered_note(self, spec):  # noqa: D401 - the composer's hook
        return self._fronts[spec.key]

    def draw_note(self, canvas, labels, label, pl: Placement, rendered):
        if pl.face_up:
            return super().draw_note(canvas, labels, label, pl, rendered)
        # the back is drawn as a "front" texture; the truth still says face down
        return super().draw_note(canvas, labels, label, replace_placement(pl, face_up=True), self._backs[pl.spec.key])

    def light(self, light_seed: int) -> tuple[np.ndarray, np.ndarray, np.ndarray, dict]:
        """``lit = canvas * gain + offset`` (the light is linear in the scene), the glare map and its
        parameters, from :func:`.effects.lighting` with one seed for the whole hand."""
        if self._light is None:
            w, h = self.image_size
            ones = np.ones((h, w, 3), np.float32)
            lit1, glare, info = lighting(ones, np.random.default_rng(light_seed), self.preset)
            lit0, _, _ = lighting(ones * 0, np.random.default_rng(light_seed), self.preset)
            self._light = ((lit1 - lit0).astype(np.float32), lit0.astype(np.float32), glare, info)
        return self._light

    def _static_layer(self, notes: list[Placement]):
        """The background with ``notes`` drawn (cached: most frames differ from the last only by
        what moves over it). Returns (canvas, labels, [(hom, footprint)]) to be copied, not changed."""
        key = tuple((pl.spec.key, pl.centre_mm, pl.angle_deg, pl.face_up) for pl in notes)
        if getattr(self, "_layer_key", None) != key:
            W, H = self.image_size
            canvas = self.background()
            labels = np.full((H, W), BACKGROUND, np.int16)
            drawn = [self.draw_note(canvas, labels, i, pl, self.rendered_note(pl.spec) if pl.face_up else None)
                     for i, pl in enumerate(notes)]
            self._layer_key, self._layer = key, (canvas, labels, drawn)
        return self._layer

    def render_frame(self, fr: _Frame, light_seed: int, blur_sigma: float, noise_sigma: float,
                     noise_seed: int) -> tuple[np.ndarray, dict]:
        """One frame: (uint8 BGR image before video coding, truth)."""
        W, H = self.image_size
        first_moving = next((i for i, pl in enumerate(fr.notes) if pl.spec.key in fr.moving), len(fr.notes))
        base, base_labels, base_drawn = self._static_layer(fr.notes[:first_moving])
        canvas, labels = base.copy(), base_labels.copy()
        rendered = [self.rendered_note(pl.spec) if pl.face_up else None for pl in fr.notes]
        drawn = list(base_drawn) + [self.draw_note(canvas, labels, i, pl, rendered[i])
                                    for i, pl in enumerate(fr.notes) if i >= first_moving]
        occ_truth = []
        for k, occ in enumerate(fr.occluders):
            quad = self.draw_occluder(canvas, labels, OCCLUDER_BASE + k, occ)
            occ_truth.append({"kind": occ.kind, "centre_mm": occ.centre_mm, "quad": quad})
        gain, offset, glare, light_info = self.light(light_seed)
        rng = np.random.default_rng(noise_seed)
        img = canvas
        np.multiply(img, gain, out=img)
        img *= np.float32(1 + rng.normal(0, 0.008))  # a little auto-exposure flicker
        img += offset
        if blur_sigma > 0.05:
            img = cv2.GaussianBlur(img, (0, 0), blur_sigma)
        # sensor noise: luminance noise growing with the signal, and coarse chroma noise
        level = cv2.sqrt(np.clip(cv2.cvtColor(img, cv2.COLOR_BGR2GRAY), 1, 255) * np.float32(1 / 128))
        noise = np.empty((H, W), np.float32)
        cv2.setRNGSeed(int(noise_seed % (2**31 - 1)))
        cv2.randn(noise, 0.0, float(noise_sigma))
        img += (noise * level)[..., None]
        chroma = np.empty((H // 2, W // 2, 3), np.float32)
        cv2.randn(chroma, (0.0, 0.0, 0.0), (noise_sigma * 0.5,) * 3)
        img += cv2.resize(chroma, (W, H), interpolation=cv2.INTER_LINEAR)
        img += np.float32(0.5)
        np.clip(img, 0, 255, out=img)
        img8 = img.astype(np.uint8)
        notes = [self.note_truth(i, pl, rn, hom, fp, labels, glare)
                 for i, (pl, rn, (hom, fp)) in enumerate(zip(fr.notes, rendered, drawn))]
        for n, pl in zip(notes, fr.notes):
            n["key"] = pl.spec.key
            n["moving"] = pl.spec.key in fr.moving
            for p in n["prints"].values():
                del p["text"], p["box"]
        truth = {"schema": SCHEMA, "width": W, "height": H, "stage": fr.stage, "event": fr.event, "notes": notes,
                 "occluders": occ_truth, "conditions": {**light_info, "blur_sigma": round(blur_sigma, 3),
                                                        "noise_sigma": round(noise_sigma, 3)}}
        return img8, truth


def render_real_hand(hand: RealHand, seed: int, preset: Preset = WEBCAM_PRESET,
                     frames: Sequence[int] | None = None) -> Iterator[tuple[np.ndarray, dict]]:
    """Yield ``(image, truth)`` for every frame of ``hand`` (uint8 BGR, before video coding), or only
    for the frame indices in ``frames`` (negative ones count from the end). Each truth also says
    ``frames``, the hand's frame count."""
    rng = np.random.default_rng(np.random.SeedSequence([seed, ord(hand.setup.name), 7]))
    surface_kind = str(rng.choice(["felt", "wood", "cloth"]))
    light = rng.uniform(0, 2 * np.pi)
    comp = _RealComposer(hand.setup.image_size, hand.hom, preset, surface_kind, int(rng.integers(2**31 - 1)),
                         hand.table, False, (float(np.cos(light)), float(np.sin(light))), notes=hand.notes)
    light_seed = int(rng.integers(2**31 - 1))
    blur_sigma = float(rng.uniform(*hand.setup.blur_sigma))
    noise_sigma = float(rng.uniform(*preset.noise_sigma))
    board = _storyboard(hand, np.random.default_rng(rng.integers(2**31 - 1)))
    noise_seeds = np.random.SeedSequence(int(rng.integers(2**31 - 1))).generate_state(len(board))
    wanted = None if frames is None else {i % len(board) for i in frames}
    for i, fr in enumerate(board):
        if wanted is not None and i not in wanted:
            continue
        img, truth = comp.render_frame(fr, light_seed, blur_sigma, noise_sigma, int(noise_seeds[i]))
        truth.update(frame=i, frames=len(board), time_s=round(i / FPS, 3), surface=surface_kind)
        yield img, to_jsonable(truth, 6)


def _table_truth(hand: RealHand) -> dict:
    hom = hand.hom / hand.hom[2, 2]
    inv = np.linalg.inv(hom)
    return to_jsonable({
        "size_mm": hand.table.size_mm,
        "corners_mm": hand.table.corners_mm,
        "corners_image": project(hom, hand.table.corners_mm),
        "homography_image_from_table_mm": hom,
        "homography_table_mm_from_image": inv / inv[2, 2],
        "camera": hand.camera,
        "markers": [],
        "zones": [{"name": z.name, "kind": z.kind, "polygon_mm": z.polygon_mm,
                   "polygon_image": project(hom, z.polygon_mm), "note_angle_deg": z.note_angle_deg}
                  for z in hand.table.zones.values()],
        "seats": hand.table.seats,
    })


# --------------------------------------------------------------------------- video


def video_codec() -> str:
    """``"h264"`` when ``ffmpeg`` with libx264 can be run here, else ``"mp4v"`` (OpenCV's MPEG-4 part 2)."""
    exe = shutil.which("ffmpeg")
    if exe is None:
        return "mp4v"
    try:
        out = subprocess.run([exe, "-hide_banner", "-encoders"], capture_output=True, text=True, timeout=20).stdout
    except (OSError, subprocess.SubprocessError):
        return "mp4v"
    return "h264" if "libx264" in out else "mp4v"


class _VideoWriter:
    def __init__(self, path: Path, size: tuple[int, int], fps: float, codec: str, rate: str) -> None:
        self.codec = codec
        self.path = path
        self.proc = None
        self.writer = None
        if codec == "h264":
            # a webcam's stream: H.264, no B-frames, a key frame every 2 s, its bit rate capped
            cmd = [shutil.which("ffmpeg") or "ffmpeg", "-y", "-loglevel", "error", "-f", "rawvideo", "-pix_fmt",
                   "bgr24", "-s", f"{size[0]}x{size[1]}", "-r", str(fps), "-i", "-", "-c:v", "libx264",
                   "-preset", "veryfast", "-tune", "zerolatency", "-crf", "23", "-maxrate", rate, "-bufsize", rate,
                   "-g", str(int(2 * fps)), "-pix_fmt", "yuv420p", str(path)]
            self.proc = subprocess.Popen(cmd, stdin=subprocess.PIPE)
        else:
            self.writer = cv2.VideoWriter(str(path), cv2.VideoWriter_fourcc(*"mp4v"), fps, size)
            if not self.writer.isOpened():
                raise RuntimeError("OpenCV cannot write mp4v video on this machine")

    def write(self, img: np.ndarray) -> None:
        if self.proc is not None:
            assert self.proc.stdin is not None
            self.proc.stdin.write(np.ascontiguousarray(img).tobytes())
        else:
            self.writer.write(img)

    def close(self) -> None:
        if self.proc is not None:
            assert self.proc.stdin is not None
            self.proc.stdin.close()
            if self.proc.wait() != 0:
                raise RuntimeError(f"ffmpeg failed writing {self.path}")
        else:
            self.writer.release()


def decode_video(path: str | Path) -> Iterator[np.ndarray]:
    """The frames of a video file, decoded by OpenCV (uint8 BGR)."""
    cap = cv2.VideoCapture(str(path))
    if not cap.isOpened():
        raise RuntimeError(f"OpenCV cannot open {path}")
    try:
        while True:
            ok, frame = cap.read()
            if not ok:
                return
            yield frame
    finally:
        cap.release()


def write_real_hand(out_dir: str | Path, seed: int, setup: Setup, notes: Sequence[NoteImage], *,
                    n_players: int | None = None, position: int | None = None, codec: str | None = None,
                    log=None) -> dict:
    """Render one hand into ``out_dir``: ``hand.mp4`` (the coded video), ``truth.jsonl`` (one truth per
    frame) and ``sequence.json`` (hand, table, camera, codec, frame count; written last, so its
    presence means the folder is complete). Returns the summary."""
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    hand = plan_real_hand(seed, setup, notes, n_players, position)
    codec = codec or video_codec()
    tmp = out / ".hand.tmp.mp4"
    writer = _VideoWriter(tmp, setup.image_size, FPS, codec, setup.video_rate)
    lines = []
    try:
        for img, truth in render_real_hand(hand, seed):
            writer.write(img)
            lines.append(json.dumps(truth, ensure_ascii=False))
            if log is not None and truth["frame"] % 50 == 0:
                log(f"    frame {truth['frame']}")
    finally:
        writer.close()
    tmp.replace(out / "hand.mp4")
    atomic_write_bytes(out / "truth.jsonl", ("\n".join(lines) + "\n").encode("utf-8"))
    summary = {"seed": seed, "setup": setup.name, "image_size": list(setup.image_size),
               "table_mm": list(setup.table_mm), "fps": FPS, "frames": len(lines), "video": "hand.mp4",
               "codec": codec, "video_rate": setup.video_rate if codec == "h264" else None,
               "hand": hand.hand_json(), "table": _table_truth(hand), "layout": to_jsonable(hand.layout_info),
               "notes": {k: {"serial": nt.serial, "letters": nt.letters, "denomination": nt.denomination}
                         for k, nt in hand.notes.items()}}
    atomic_write_bytes(out / "sequence.json", dumps_truth(summary).encode("utf-8"))
    return summary
