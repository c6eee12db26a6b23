"""The renderer's random choices: values in a range, a note's orientation and paper, seeds derived from
one seed, the serials of a hand (everything from a ``numpy.random.Generator``, so a seed gives one result)."""

from __future__ import annotations

import numpy as np

from dealer_assist.synth.note import NoteSpec, random_spec
from dealer_assist.synth.presets import Preset


def uniform_in(rng: np.random.Generator, r: tuple[float, float]) -> float:
    """A value drawn uniformly from the range ``r`` = (low, high), or ``low`` when the range is empty."""
    return float(rng.uniform(r[0], r[1])) if r[1] > r[0] else float(r[0])


def note_angle(rng: np.random.Generator, preset: Preset, base: float, flip_prob: float = 0.35) -> float:
    """Orientation of a note: ``base`` or base+180 (sometimes ±90), jittered, or anything."""
    if rng.random() < preset.free_rotation_prob:
        return float(rng.uniform(0, 360))
    turn = 0.0
    r = rng.random()
    if r < flip_prob:
        turn = 180.0
    elif preset.name != "easy" and r < flip_prob + 0.15:
        turn = 90.0 if rng.random() < 0.5 else 270.0
    return float((base + turn + rng.uniform(-1, 1) * preset.angle_jitter_deg) % 360)


def paper_state(rng: np.random.Generator, preset: Preset) -> dict:
    """A note's curl, fold, crumple and shading seed drawn from ``preset`` (:class:`.placement.Placement` fields)."""
    sign = lambda: 1.0 if rng.random() < 0.5 else -1.0  # noqa: E731
    return {
        "curl_mm": (sign() * uniform_in(rng, preset.curl_mm), sign() * uniform_in(rng, preset.curl_mm) * 0.4),
        "fold_u": float(rng.uniform(0.3, 0.7)) if rng.random() < preset.fold_prob else None,
        "crumple": uniform_in(rng, preset.crumple),
        "shade_seed": int(rng.integers(2**31 - 1)),
    }


def derived_seeds(seed: int, n: int) -> list[int]:
    """``n`` independent integer seeds derived from ``seed`` (stable across numpy versions)."""
    return [int(s.generate_state(1)[0]) for s in np.random.SeedSequence(seed).spawn(n)]


def random_hand_serials(
    rng: np.random.Generator, n_players: int, position: int, zero_prob: float = 0.2, n_board: int = 3
) -> tuple[list[NoteSpec], list[list[NoteSpec]]]:
    """Random notes for one hand: ``n_board`` board notes and two pocket notes per player.

    Each note has a zero at playing position ``position`` (1..7) with
    probability ``zero_prob``; all notes have distinct serials and one
    denomination. Returns (board specs, pocket specs per player).
    """
    denom = int(rng.choice([100, 500, 1000, 5000]))
    seen: set[str] = set()

    def one() -> NoteSpec:
        while True:
            spec = random_spec(rng, denomination=denom)
            digits = list(spec.digits)
            if rng.random() < zero_prob:
                digits[position - 1] = "0"
            elif digits[position - 1] == "0":
                digits[position - 1] = str(int(rng.integers(1, 10)))
            serial = "".join(digits)
            if serial not in seen:
                seen.add(serial)
                return NoteSpec(spec.letters, serial, denom, spec.style_seed)

    board = [one() for _ in range(n_board)]
    pockets = [[one(), one()] for _ in range(n_players)]
    return board, pockets
