"""Dealt-hand sequences: one hand from an empty table to the showdown, frame by frame.

The camera and the light stay put (a webcam over the table); notes arrive one
at a time under the dealer's hand, players' hands hover and move a little,
pocket notes lie face down until the showdown, when each player turns them
face up. Every frame comes with its truth (see :mod:`.compositor`), plus
``frame``, ``time_s``, ``stage`` (one of :data:`.scene.STAGES`) and ``event``.
``game="indian"`` deals Indian poker (RULES.md §7): one note per seat, face
down (it is on the forehead), no board, then each note face up at the showdown.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from dealer_assist.synth.presets import get_preset
from dealer_assist.synth.compositor import MAX_IMAGE_BYTES, Composer
from dealer_assist.synth.placement import Occluder, Placement, replace_placement
from dealer_assist.synth.random_choices import derived_seeds
from dealer_assist.synth.scene import deal_table, hand_truth, indian_deal, table_camera, table_truth
from dealer_assist.synth.surfaces import TABLE_SURFACES
from dealer_assist.synth.truth import atomic_write_bytes, dumps_truth, to_jsonable

#: FourCC and extension of the video file; ``mp4v`` in an .mp4 container works
#: with the opencv-python wheels (H.264 encoders are often missing).
VIDEO_FOURCC = "mp4v"


@dataclass(frozen=True)
class _Frame:
    stage: str
    event: str
    notes: list[Placement]
    occluders: list[Occluder]


def _plan(rng: np.random.Generator, deal, hold: int) -> list[_Frame]:
    """The storyboard: which notes lie where, and which hands are over the table, per frame."""
    table = deal.table
    frames: list[_Frame] = []
    on_table: list[Placement] = []
    centre = np.array(table.size_mm) / 2

    def hand_over(pl: Placement, tag: int) -> Occluder:
        # the hand comes from the table's edge behind the note, palm a little past the note
        c = np.array(pl.centre_mm)
        out = c - centre
        out = out / (np.linalg.norm(out) + 1e-9)
        p = c + out * rng.uniform(50, 80) + rng.normal(0, 6, 2)
        ang = np.rad2deg(np.arctan2(out[0], -out[1])) + 180 + rng.uniform(-20, 20)
        return Occluder("hand", (float(p[0]), float(p[1])), float(ang % 360), float(rng.uniform(0.9, 1.05)), tag)

    markers_mm = table.marker_centres_mm()
    resting_seats = list(rng.permutation(table.seats))[:2]

    def resting_hands(k: int) -> list[Occluder]:
        # now and then a player's hand rests near their notes, moving a little between frames
        occ = []
        for j, seat in enumerate(resting_seats):
            if rng.random() < 0.5:
                continue
            z = table.zones[seat]
            out = np.array(z.centre_mm) - centre
            out /= np.linalg.norm(out)
            p = np.array(z.centre_mm) + out * 110 + rng.normal(0, 3, 2) + np.array([np.sin(k / 2 + j), np.cos(k / 3)]) * 4
            if np.min(np.linalg.norm(markers_mm - p, axis=1)) < 130:
                continue  # keep the calibration markers clear
            ang = np.rad2deg(np.arctan2(out[0], -out[1])) + 180
            occ.append(Occluder("hand", (float(p[0]), float(p[1])), float(ang % 360), 0.95, 7000 + j))
        return occ

    def jitter(notes: list[Placement], amount: float) -> list[Placement]:
        return [
            replace_placement(
                pl,
                centre_mm=(pl.centre_mm[0] + float(rng.normal(0, amount)), pl.centre_mm[1] + float(rng.normal(0, amount))),
                angle_deg=(pl.angle_deg + float(rng.normal(0, amount * 0.3))) % 360,
            )
            for pl in notes
        ]

    k = 0

    def hold_frames(stage: str, n: int) -> None:
        nonlocal k, on_table
        for _ in range(n):
            on_table = jitter(on_table, 0.3)
            frames.append(_Frame(stage, "hold", list(on_table), resting_hands(k)))
            k += 1

    hold_frames("empty", hold)
    # preflop: two rounds, one note per seat per round, face down (one round in Indian poker)
    for rnd in range(len(deal.pockets[table.seats[0]])):
        for seat in table.seats:
            pl = replace_placement(deal.pockets[seat][rnd], face_up=False)
            on_table.append(pl)
            frames.append(_Frame("preflop", f"deal {seat} {rnd + 1}", list(on_table), [hand_over(pl, 100 + k)]))
            k += 1
    hold_frames("preflop", hold)
    for stage, idx in (("flop", 0), ("turn", 1), ("river", 2))[:len(deal.board)]:
        pl = deal.board[idx]
        on_table.append(pl)
        frames.append(_Frame(stage, f"deal board {idx + 1}", list(on_table), [hand_over(pl, 100 + k)]))
        k += 1
        hold_frames(stage, hold)
    # showdown: each player in turn turns both notes face up
    for seat in table.seats:
        on_table = [replace_placement(pl, face_up=True) if pl.zone == seat else pl for pl in on_table]
        mine = [pl for pl in on_table if pl.zone == seat]
        frames.append(_Frame("showdown", f"reveal {seat}", list(on_table), [hand_over(mine[0], 100 + k)]))
        k += 1
    hold_frames("showdown", hold)
    return frames


def render_hand_sequence(
    seed: int,
    preset: str = "easy",
    *,
    n_players: int | None = None,
    position: int | None = None,
    image_size: tuple[int, int] = (1280, 720),
    hold: int = 3,
    fps: float = 4.0,
    markers: bool = True,
    game: str = "holdem",
    on_plan: Callable[[int], None] | None = None,
) -> Iterator[tuple[np.ndarray, bytes, dict]]:
    """Yield ``(image, jpeg_bytes, truth)`` for every frame of one dealt hand.

    ``image``: uint8 ``(h, w, 3)`` BGR decoded from ``jpeg_bytes``; ``truth``
    as in :func:`.scene.render_scene` plus ``frame``, ``time_s`` (at ``fps``),
    ``stage`` and ``event`` (``"hold"``, ``"deal P2 1"``, ``"deal board 1"``,
    ``"reveal P3"``). ``hold``: quiet frames after each street. The first
    frame's truth also carries ``table`` and ``hand``; later ones repeat them.
    ``on_plan``, when given, is told the number of frames before the first is rendered (a progress bar's
    total). ``ValueError`` for an unknown preset or bad counts.
    """
    p = get_preset(preset)
    s_layout, s_cam, s_surface, s_light, s_noise, s_plan = derived_seeds(seed, 6)
    rng = np.random.default_rng(s_layout)
    n_players = int(rng.integers(3, 7)) if n_players is None else int(n_players)
    position = int(rng.integers(1, 8)) if position is None else int(position)
    deal = deal_table(rng, p, n_players, position)
    if game == "indian":
        deal = indian_deal(deal)
    surface_kind = TABLE_SURFACES[int(rng.integers(len(TABLE_SURFACES)))]
    hom, cam = table_camera(np.random.default_rng(s_cam), p, deal.table, image_size)
    light = np.random.default_rng(s_light).uniform(0, 2 * np.pi)
    comp = Composer(image_size, hom, p, surface_kind, s_surface, deal.table, markers,
                    (float(np.cos(light)), float(np.sin(light))))
    table_json = to_jsonable(table_truth(comp, deal, cam))
    hand = hand_truth(deal)
    noise_seeds = np.random.SeedSequence(s_noise).generate_state(1000)
    plan = _plan(np.random.default_rng(s_plan), deal, hold)
    if on_plan is not None:
        on_plan(len(plan))
    for i, fr in enumerate(plan):
        img, data, truth = comp.render(fr.notes, fr.occluders, s_light, int(noise_seeds[i % 1000]), MAX_IMAGE_BYTES)
        truth.update(seed=seed, kind="sequence_frame", frame=i, time_s=i / fps, stage=fr.stage, event=fr.event,
                     table=table_json, hand=hand)
        yield img, data, to_jsonable(truth)


def write_hand_sequence(
    out_dir: str | Path,
    seed: int,
    preset: str = "easy",
    *,
    fps: float = 4.0,
    video: bool = True,
    on_frame: Callable[[int, int], None] | None = None,
    **kw,
) -> dict:
    """Render a sequence into ``out_dir``: ``frames/frame_NNNN.jpg``, ``truth.jsonl``
    (one truth per frame, in order), ``sequence.json`` (hand, table, frame count)
    and, with ``video``, ``hand.mp4`` (``mp4v``, ``fps`` frames per second).

    ``on_frame(done, total)``, when given, is called after each frame is written (a progress bar).
    Returns the summary written to ``sequence.json``. Raises ``RuntimeError``
    when OpenCV cannot open a video writer here.
    """
    out = Path(out_dir)
    (out / "frames").mkdir(parents=True, exist_ok=True)
    writer = None
    lines: list[str] = []
    first: dict | None = None
    n = 0
    total = [0]
    try:
        for img, data, truth in render_hand_sequence(seed, preset, fps=fps, on_plan=lambda k: total.__setitem__(0, k),
                                                     **kw):
            name = f"frame_{truth['frame']:04d}.jpg"
            atomic_write_bytes(out / "frames" / name, data)
            truth["image"] = f"frames/{name}"
            lines.append(json.dumps(truth, ensure_ascii=False))
            if first is None:
                first = truth
            if video:
                if writer is None:
                    h, w = img.shape[:2]
                    tmp_video = out / ".hand.mp4.tmp.mp4"
                    writer = cv2.VideoWriter(str(tmp_video), cv2.VideoWriter_fourcc(*VIDEO_FOURCC), fps, (w, h))
                    if not writer.isOpened():
                        raise RuntimeError(f"OpenCV cannot write {VIDEO_FOURCC} video on this machine")
                writer.write(img)
            n += 1
            if on_frame is not None:
                on_frame(n, total[0])
    finally:
        if writer is not None:
            writer.release()
    if writer is not None:
        (out / ".hand.mp4.tmp.mp4").replace(out / "hand.mp4")
    atomic_write_bytes(out / "truth.jsonl", ("\n".join(lines) + "\n").encode("utf-8"))
    assert first is not None
    summary = {
        "seed": seed,
        "preset": preset,
        "frames": n,
        "fps": fps,
        "video": "hand.mp4" if video else None,
        "video_fourcc": VIDEO_FOURCC if video else None,
        "hand": first["hand"],
        "table": first["table"],
        "width": first["width"],
        "height": first["height"],
    }
    atomic_write_bytes(out / "sequence.json", dumps_truth(summary).encode("utf-8"))
    return summary
