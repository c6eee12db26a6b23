"""Webcam videos of dealt hands played with flat note images (real notes cut out at run time).

The notes are given as :class:`~.real_hand.NoteImage` (a flat upright front, a face-down
back, where its two serial prints are); :mod:`.real_notes` makes them from
labelled photos. Everything else is the synthetic renderer's: the table
surfaces, the hand sprite, the camera homography, the composer that draws
notes and hands and reports per-note truth, lighting, blur and noise
(:mod:`.compositor`, :mod:`.camera`, :mod:`.effects`, :mod:`.sprites`).
The set-ups and the layout of a hand are :mod:`.real_hand`'s, the video
coding :mod:`.video`'s.

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

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Iterator, Sequence

import cv2
import numpy as np

from dealer_assist.synth.pose import project
from dealer_assist.synth.compositor import BACKGROUND, OCCLUDER_BASE, Composer
from dealer_assist.synth.effects import lighting
from dealer_assist.synth.layout import NOTE_SIZE_PX
from dealer_assist.synth.note import PrintInfo, RenderedNote
from dealer_assist.synth.placement import Occluder, Placement, replace_placement
from dealer_assist.synth.presets import Preset
from dealer_assist.synth.real_hand import WEBCAM_PRESET, NoteImage, RealHand, Setup, plan_real_hand
from dealer_assist.synth.truth import SCHEMA, atomic_write_bytes, dumps_truth, to_jsonable
from dealer_assist.synth.video import VideoWriter, video_codec

__all__ = ["FPS", "render_real_hand", "write_real_hand"]

FPS = 10.0


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


def render_real_hand(hand: RealHand, seed: int, preset: Preset | None = None,
                     frames: Sequence[int] | None = None) -> Iterator[tuple[np.ndarray, dict]]:
    """Yield ``(image, truth)`` for every frame of ``hand`` (uint8 BGR, before video coding), or only
    for the frame indices in ``frames`` (negative ones count from the end). Each truth also says
    ``frames``, the hand's frame count."""
    preset = hand.setup.preset if preset is None else preset
    rng = np.random.default_rng(np.random.SeedSequence([seed, ord(hand.setup.name), 7]))
    surface_kind = str(rng.choice(list(hand.setup.surfaces)))
    light = rng.uniform(0, 2 * np.pi)
    comp = _RealComposer(hand.setup.image_size, hand.hom, preset, surface_kind, int(rng.integers(2**31 - 1)),
                         hand.table, hand.setup.markers, (float(np.cos(light)), float(np.sin(light))),
                         notes=hand.notes)
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
    writer = VideoWriter(tmp, setup.image_size, FPS, codec, setup.video_rate)
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
