"""Difficulty presets: the ranges every random choice of a scene is drawn from.

``easy`` is a well-lit, nearly top-down photo; ``medium`` a typical phone
photo; ``hard`` is meant to be at least as hard as the real photos in
``../shared/real_photos/`` (small digits, oblique views, dim or coloured light,
glare, blur, noise, low JPEG quality, fingers and chips over the notes).
``clean`` has no photographic effects at all, for geometry tests.
"""

from __future__ import annotations

from dataclasses import dataclass

Range = tuple[float, float]


@dataclass(frozen=True)
class Preset:
    """Ranges (lo, hi) and probabilities for one difficulty level.

    Angles in degrees; ``note_width_frac`` is the note's width over the image
    width in single-note photos; blur and noise in image pixels / grey levels
    (0..255); ``jpeg_quality`` 1..100; ``curl_mm`` the bow of a note's edges.
    """

    name: str
    tilt_deg: Range  # camera tilt from straight down
    note_width_frac: Range  # single-note photos
    angle_jitter_deg: float  # deviation of a note from a multiple of 90 degrees
    free_rotation_prob: float  # probability of an arbitrary note angle instead
    gain: Range  # exposure multiplier
    light_gradient: float  # max relative brightness change across the frame
    vignette: float
    colour_cast: float  # std of the per-channel gain
    glare_prob: float
    glare_strength: Range
    glare_radius_frac: Range  # of the image diagonal
    shadow_prob: float
    shadow_strength: Range
    blur_sigma: Range
    motion_blur_prob: float
    motion_blur_px: Range
    noise_sigma: Range
    jpeg_quality: Range
    occluder_prob: float  # a hand or a chip over part of a note
    curl_mm: Range
    fold_prob: float
    crumple: Range  # amplitude of the paper's shading noise
    overlap_prob: float  # pocket notes overlapping a little in table scenes
    stack_prob: float  # single-note photos: other notes (backs) peeking out from under the note


PRESETS: dict[str, Preset] = {
    "clean": Preset(
        name="clean",
        tilt_deg=(0.0, 0.0),
        note_width_frac=(0.7, 0.7),
        angle_jitter_deg=0.0,
        free_rotation_prob=0.0,
        gain=(1.0, 1.0),
        light_gradient=0.0,
        vignette=0.0,
        colour_cast=0.0,
        glare_prob=0.0,
        glare_strength=(0.0, 0.0),
        glare_radius_frac=(0.1, 0.1),
        shadow_prob=0.0,
        shadow_strength=(0.0, 0.0),
        blur_sigma=(0.0, 0.0),
        motion_blur_prob=0.0,
        motion_blur_px=(0.0, 0.0),
        noise_sigma=(0.0, 0.0),
        jpeg_quality=(95, 95),
        occluder_prob=0.0,
        curl_mm=(0.0, 0.0),
        fold_prob=0.0,
        crumple=(0.0, 0.0),
        overlap_prob=0.0,
        stack_prob=0.0,
    ),
    "easy": Preset(
        name="easy",
        tilt_deg=(0.0, 10.0),
        note_width_frac=(0.60, 0.85),
        angle_jitter_deg=5.0,
        free_rotation_prob=0.0,
        gain=(0.95, 1.08),
        light_gradient=0.10,
        vignette=0.10,
        colour_cast=0.02,
        glare_prob=0.10,
        glare_strength=(0.15, 0.35),
        glare_radius_frac=(0.05, 0.10),
        shadow_prob=0.10,
        shadow_strength=(0.10, 0.20),
        blur_sigma=(0.0, 0.6),
        motion_blur_prob=0.0,
        motion_blur_px=(0.0, 0.0),
        noise_sigma=(1.0, 3.0),
        jpeg_quality=(85, 95),
        occluder_prob=0.0,
        curl_mm=(0.0, 1.0),
        fold_prob=0.10,
        crumple=(0.0, 0.03),
        overlap_prob=0.0,
        stack_prob=0.0,
    ),
    "medium": Preset(
        name="medium",
        tilt_deg=(5.0, 30.0),
        note_width_frac=(0.40, 0.80),
        angle_jitter_deg=15.0,
        free_rotation_prob=0.15,
        gain=(0.70, 1.12),
        light_gradient=0.30,
        vignette=0.25,
        colour_cast=0.06,
        glare_prob=0.35,
        glare_strength=(0.25, 0.6),
        glare_radius_frac=(0.04, 0.10),
        shadow_prob=0.30,
        shadow_strength=(0.15, 0.35),
        blur_sigma=(0.3, 1.1),
        motion_blur_prob=0.15,
        motion_blur_px=(3.0, 6.0),
        noise_sigma=(2.0, 5.0),
        jpeg_quality=(65, 85),
        occluder_prob=0.25,
        curl_mm=(0.0, 3.0),
        fold_prob=0.30,
        crumple=(0.0, 0.08),
        overlap_prob=0.3,
        stack_prob=0.15,
    ),
    "hard": Preset(
        name="hard",
        tilt_deg=(15.0, 50.0),
        note_width_frac=(0.25, 0.62),
        angle_jitter_deg=25.0,
        free_rotation_prob=0.5,
        gain=(0.42, 1.30),
        light_gradient=0.55,
        vignette=0.40,
        colour_cast=0.12,
        glare_prob=0.60,
        glare_strength=(0.45, 1.0),
        glare_radius_frac=(0.04, 0.14),
        shadow_prob=0.50,
        shadow_strength=(0.25, 0.55),
        blur_sigma=(0.5, 1.6),
        motion_blur_prob=0.3,
        motion_blur_px=(4.0, 9.0),
        noise_sigma=(3.0, 9.0),
        jpeg_quality=(40, 75),
        occluder_prob=0.5,
        curl_mm=(1.0, 6.0),
        fold_prob=0.5,
        crumple=(0.05, 0.15),
        overlap_prob=0.6,
        stack_prob=0.35,
    ),
}


def get_preset(name: str) -> Preset:
    """The preset called ``name``; ``ValueError`` naming the known presets otherwise."""
    try:
        return PRESETS[name]
    except KeyError:
        raise ValueError(f"unknown preset {name!r}; known: {', '.join(PRESETS)}") from None
