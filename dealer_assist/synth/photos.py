"""Close-up phone photos of one to three notes on a surface: the reader's benchmark
unit (:func:`render_note_photo`) and the committed sample hands (:func:`render_hand_photo`).

Truth as in :mod:`.compositor`; each note also has ``legible`` (see
:func:`.compositor.legible`): whether a person could read its serial in the photo.
"""

from __future__ import annotations

import dataclasses

import numpy as np

from dealer_assist.synth.pose import fit_to_image, look_at_homography, project
from dealer_assist.synth.layout import NOTE_SIZE_MM, NOTE_SIZE_PX
from dealer_assist.synth.note import NoteSpec, random_spec
from dealer_assist.synth.presets import Preset, get_preset
from dealer_assist.synth.compositor import MAX_IMAGE_BYTES, Composer
from dealer_assist.synth.placement import Occluder, Placement, note_to_table
from dealer_assist.synth.random_choices import derived_seeds, note_angle, paper_state, uniform_in
from dealer_assist.synth.surfaces import PHOTO_SURFACES
from dealer_assist.synth.truth import to_jsonable

NOTE_W_PX, NOTE_H_PX = NOTE_SIZE_PX
NOTE_W_MM, NOTE_H_MM = NOTE_SIZE_MM

def _photo(
    seed: int,
    preset: Preset,
    specs: list[NoteSpec],
    image_size: tuple[int, int],
    *,
    allow_occluders: bool = True,
    allow_stack: bool = True,
    framing: str = "width",
    jpeg_max_bytes: int | None = MAX_IMAGE_BYTES,
):
    s_layout, s_cam, s_surface, s_light, s_noise = derived_seeds(seed, 5)
    rng = np.random.default_rng(s_layout)
    base = note_angle(rng, preset, 0.0, flip_prob=0.4)
    placements: list[Placement] = []
    # the notes lie one above the other (in their own frame), with small gaps
    a = np.deg2rad(base)
    across = np.array([-np.sin(a), np.cos(a)])
    along = np.array([np.cos(a), np.sin(a)])
    gap = rng.uniform(4, 25)
    n = len(specs)
    for j, spec in enumerate(specs):
        c = across * (j - (n - 1) / 2) * (NOTE_H_MM + gap) + (along * rng.normal(0, 8) if n > 1 else 0.0)
        ang = base + (rng.uniform(-4, 4) if n > 1 else 0.0)
        placements.append(Placement(spec, (float(c[0]), float(c[1])), float(ang % 360), True, None, **paper_state(rng, preset)))
    group = placements
    stack: list[Placement] = []
    if allow_stack and rng.random() < preset.stack_prob:
        for _ in range(int(rng.integers(1, 3))):
            top = group[0]
            d = rng.normal(0, 5, 2)
            stack.append(
                Placement(
                    random_spec(rng, denomination=top.spec.denomination),
                    (top.centre_mm[0] + float(d[0]), top.centre_mm[1] + float(d[1])),
                    float((top.angle_deg + rng.uniform(-8, 8)) % 360),
                    False,
                    None,
                    shade_seed=int(rng.integers(2**31 - 1)),
                )
            )
    if framing == "fit" and len(specs) != 2:
        # the photographer turns the phone to match the notes: landscape when the
        # group's long side runs across the image, portrait otherwise
        long_axis = base if len(specs) == 1 else base + 90.0
        across_image = abs(np.cos(np.deg2rad(long_axis))) >= abs(np.sin(np.deg2rad(long_axis)))
        big, small = max(image_size), min(image_size)
        image_size = (big, small) if across_image else (small, big)
    # camera: a phone above the notes, tilted, the notes filling a share of the frame
    crng = np.random.default_rng(s_cam)
    w, h = image_size
    tilt = uniform_in(crng, preset.tilt_deg)
    azimuth = crng.uniform(0, 360)
    frac = uniform_in(crng, preset.note_width_frac)
    pts = np.concatenate([project(note_to_table(p.centre_mm, p.angle_deg), [[0, 0], [NOTE_W_PX, 0], [NOTE_W_PX, NOTE_H_PX], [0, NOTE_H_PX]]) for p in group])
    extent = float(max(np.ptp(pts[:, 0]), np.ptp(pts[:, 1]), NOTE_W_MM))
    fov = np.deg2rad(65)
    focal = (w / 2) / np.tan(fov / 2)
    dist = extent / (frac * 2 * np.tan(fov / 2))
    # rolling by the azimuth keeps the notes' orientation in the image what `base` says
    hom = look_at_homography((0.0, 0.0), tilt, azimuth, azimuth + crng.uniform(-3, 3), dist, focal, image_size)
    # framing "width": the group's widest extent spans `frac` of the image width;
    # "fit": its bounding box fills `frac` of the frame (a photo taken to be read)
    centre = (0.5 + crng.uniform(-1, 1) * (1 - frac) * 0.25, 0.5 + crng.uniform(-1, 1) * (1 - frac) * 0.2)
    hom = fit_to_image(hom, pts, image_size, frac, centre, by="width" if framing == "width" else "fit")
    q = project(hom, pts)
    over = max((q[:, 0].max() - q[:, 0].min()) / (0.96 * w), (q[:, 1].max() - q[:, 1].min()) / (0.96 * h), 1.0)
    if over > 1.0:
        hom = fit_to_image(hom, pts, image_size, 0.96, centre, by="fit")
    surface_kind = PHOTO_SURFACES[int(crng.integers(len(PHOTO_SURFACES)))]
    light = crng.uniform(0, 2 * np.pi)
    comp = Composer(image_size, hom, preset, surface_kind, s_surface, None, False, (float(np.cos(light)), float(np.sin(light))))
    occluders: list[Occluder] = []
    if allow_occluders and crng.random() < preset.occluder_prob:
        # fingers holding a note by one end, or a chip on it
        target = group[int(crng.integers(len(group)))]
        a = np.deg2rad(target.angle_deg)
        along = np.array([np.cos(a), np.sin(a)])
        across = np.array([-np.sin(a), np.cos(a)])
        end = 1 if crng.random() < 0.5 else -1
        if crng.random() < 0.7:
            c = np.array(target.centre_mm) + along * end * crng.uniform(70, 130) + across * crng.uniform(-30, 30)
            ang = target.angle_deg + (90 if end > 0 else -90) + crng.uniform(-30, 30)
            occluders.append(Occluder("hand", (float(c[0]), float(c[1])), float(ang % 360), float(crng.uniform(0.85, 1.1)), int(crng.integers(2**31 - 1))))
        else:
            c = np.array(target.centre_mm) + along * crng.uniform(-70, 70) + across * crng.uniform(-35, 35)
            occluders.append(Occluder("chip", (float(c[0]), float(c[1])), float(crng.uniform(0, 360)), 1.0, int(crng.integers(2**31 - 1))))
    glare_target = None
    if crng.random() < 0.5:
        gq = project(hom, pts)
        t = crng.random(2)
        glare_target = tuple(gq.min(0) + t * (gq.max(0) - gq.min(0)))
    img, data, truth = comp.render(stack + placements, occluders, s_light, s_noise, jpeg_max_bytes, glare_target)
    truth.update(seed=seed, camera={"tilt_deg": tilt, "azimuth_deg": azimuth})
    # the stacked notes under the top one are listed too (face down, no prints)
    return img, data, to_jsonable(truth)


def render_note_photo(
    seed: int,
    preset: str = "medium",
    *,
    image_size: tuple[int, int] = (1280, 720),
    spec: NoteSpec | None = None,
) -> tuple[np.ndarray, dict]:
    """A phone-like photo of one specimen note on a surface (benchmark unit).

    ``seed`` decides the note (unless ``spec`` is given), surface, camera,
    light and damage; ``preset`` as in :data:`.presets.PRESETS`.
    Returns (uint8 ``(h, w, 3)`` BGR image decoded from its JPEG, truth dict
    with ``notes`` as in the module doc; the photographed note is the one with
    ``face == "up"``; notes under it, if any, are face down).
    ``ValueError`` for an unknown preset.
    """
    p = get_preset(preset)
    if spec is None:
        spec = random_spec(np.random.default_rng([seed, 1]))
    img, _, truth = _photo(seed, p, [spec], image_size, jpeg_max_bytes=None)
    truth["kind"] = "note_photo"
    return img, truth


def render_hand_photo(
    seed: int,
    specs: list[NoteSpec],
    preset: str = "medium",
    *,
    image_size: tuple[int, int] = (1280, 960),
    readable: bool = True,
    min_digit_px: float = 12.0,
    max_attempts: int = 40,
) -> tuple[np.ndarray, bytes, dict]:
    """A phone photo of one to three notes (a player's pocket, or board notes).

    Several notes lie one above the other with small gaps. With ``readable``
    the photo is taken to be read: the notes fill most of the frame (turned
    to landscape or portrait to suit them), nothing lies on them, and the seed is advanced until both prints of every note are
    fully visible, free of glare and have digits at least ``min_digit_px``
    tall (deterministic; at most ``max_attempts`` tries, then ``RuntimeError``). Returns (decoded image,
    JPEG bytes of at most :data:`MAX_IMAGE_BYTES`, truth).
    ``ValueError`` for an unknown preset or when ``specs`` is not 1..3 notes.
    """
    if len(specs) not in (1, 2, 3):
        raise ValueError(f"a hand photo shows 1 to 3 notes, got {len(specs)}")
    p = get_preset(preset)
    if readable:
        # the light, lens and paper stay as in `preset`; the framing is the photographer's
        lo, hi = p.note_width_frac
        p = dataclasses.replace(p, note_width_frac=(max(lo, 0.7), max(hi, 0.9)))
    for attempt in range(max_attempts):
        s = seed * 1000 + attempt
        img, data, truth = _photo(s, p, specs, image_size, allow_stack=False, allow_occluders=not readable,
                                  framing="fit" if readable else "width")
        ups = [n for n in truth["notes"] if n["face"] == "up"]
        if not readable or all(_clearly_readable(n, min_digit_px) for n in ups):
            truth.update(kind="hand_photo", attempt=attempt)
            return img, data, truth
    raise RuntimeError(f"no readable hand photo for seed {seed} in {max_attempts} attempts")


def _clearly_readable(note: dict, min_digit_px: float) -> bool:
    return note["in_image"] and note["legible"] and all(
        pr["visible_fraction"] >= 0.999 and pr["glare_fraction"] < 0.05 and pr["digit_height_px"] >= min_digit_px
        for pr in note["prints"].values()
    )
