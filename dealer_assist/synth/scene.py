"""Table scenes: one hand dealt on a table (:func:`deal_table`) and photographed at a street
(:func:`render_scene`). The drawing, the photo effects and the truth of each note are the
compositor's (:mod:`.compositor`, whose doc says the coordinates and the note truth).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from dealer_assist.synth.pose import fit_to_image, look_at_homography, project
from dealer_assist.synth.compositor import Composer
from dealer_assist.synth.layout import NOTE_SIZE_MM
from dealer_assist.synth.placement import Occluder, Placement, replace_placement
from dealer_assist.synth.presets import Preset, get_preset
from dealer_assist.synth.random_choices import derived_seeds, note_angle, paper_state, random_hand_serials, uniform_in
from dealer_assist.synth.surfaces import TABLE_SURFACES
from dealer_assist.synth.table import TableLayout, make_table
from dealer_assist.synth.truth import to_jsonable

NOTE_W_MM, NOTE_H_MM = NOTE_SIZE_MM


#: Streets of a hand, in order (RULES.md §1): what is on the table at each.
STAGES: tuple[str, ...] = ("empty", "preflop", "flop", "turn", "river", "showdown")


@dataclass
class TableDeal:
    """Where every note of one hand lies, independent of the street."""

    table: TableLayout
    position: int
    board: list[Placement]
    pockets: dict[str, list[Placement]]
    game: str = "holdem"

    def placements(self, stage: str) -> list[Placement]:
        """Notes on the table at ``stage`` (one of :data:`STAGES`), pockets face down
        before the showdown. ``ValueError`` for an unknown stage."""
        if stage not in STAGES:
            raise ValueError(f"unknown stage {stage!r}; known: {', '.join(STAGES)}")
        k = STAGES.index(stage)
        if k == 0:
            return []
        out: list[Placement] = []
        for seat in self.table.seats:
            for pl in self.pockets[seat]:
                out.append(replace_placement(pl, face_up=(stage == "showdown")))
        n_board = {1: 0, 2: 1, 3: 2, 4: 3, 5: 3}[k]
        out.extend(self.board[:n_board])
        return out


def deal_table(
    rng: np.random.Generator,
    preset: Preset,
    n_players: int,
    position: int,
    table_size_mm: tuple[float, float] = (1000.0, 700.0),
    zero_prob: float = 0.2,
) -> TableDeal:
    """Lay out one hand on a new table: board notes in a row in the board zone,
    two pocket notes per seat one above the other in the seat zone (sometimes
    overlapping a little), each at a random angle drawn from ``preset``."""
    table = make_table(n_players, table_size_mm)
    board_specs, pocket_specs = random_hand_serials(rng, n_players, position, zero_prob)
    bz = table.zones["board"]
    gap = rng.uniform(8, 30)
    board = []
    for k, spec in enumerate(board_specs):
        cx = bz.centre_mm[0] + (k - 1) * (NOTE_W_MM + gap) + rng.normal(0, 4)
        cy = bz.centre_mm[1] + rng.normal(0, 6)
        ang = note_angle(rng, preset, 0.0, flip_prob=0.2)
        if preset.free_rotation_prob < 0.5 and abs(((ang + 90) % 180) - 90) > 30:
            ang = float(rng.uniform(-1, 1) * preset.angle_jitter_deg) % 360  # keep the row from colliding
        board.append(Placement(spec, (float(cx), float(cy)), ang, True, "board", **paper_state(rng, preset)))
    pockets: dict[str, list[Placement]] = {}
    for seat, specs in zip(table.seats, pocket_specs):
        z = table.zones[seat]
        base = z.note_angle_deg
        a = np.deg2rad(base)
        along = np.array([np.cos(a), np.sin(a)])  # the player's left-to-right
        across = np.array([-np.sin(a), np.cos(a)])
        overlap = rng.random() < preset.overlap_prob
        step = NOTE_H_MM + (rng.uniform(-15, -4) if overlap else rng.uniform(3, 18))
        shift = rng.normal(0, 12)
        pls = []
        for j, spec in enumerate(specs):
            c = np.array(z.centre_mm) + across * (j - 0.5) * step + along * (j - 0.5) * shift
            jitter = rng.uniform(-1, 1) * min(preset.angle_jitter_deg, 12.0)
            ang = base + jitter
            if rng.random() < 0.3:
                ang += 180.0  # the player put it down the other way round
            if rng.random() < preset.free_rotation_prob * 0.3:
                ang = rng.uniform(0, 360)
            pls.append(Placement(spec, (float(c[0]), float(c[1])), float(ang % 360), False, seat, **paper_state(rng, preset)))
        pockets[seat] = pls
    return TableDeal(table, position, board, pockets)


def table_camera(rng: np.random.Generator, preset: Preset, table: TableLayout, image_size) -> tuple[np.ndarray, dict]:
    """A camera over the whole table (tilt, azimuth and roll drawn from ``preset``): the homography
    table mm -> image px, the table and its rim filling the image, and the angles."""
    tilt = uniform_in(rng, (min(preset.tilt_deg[0], 20.0), min(preset.tilt_deg[1], 35.0)))
    azimuth = rng.uniform(-10, 10) if preset.name != "clean" else 0.0
    roll = rng.uniform(-3, 3) if preset.name != "clean" else 0.0
    w, h = image_size
    focal = 0.8 * w
    dist = 1800.0
    tw, th = table.size_mm
    hom = look_at_homography((tw / 2, th / 2), tilt, azimuth, roll, dist, focal, image_size)
    rim = 35.0
    outline = np.array([[-rim, -rim], [tw + rim, -rim], [tw + rim, th + rim], [-rim, th + rim]])
    hom = fit_to_image(hom, outline, image_size, 0.97)
    return hom, {"tilt_deg": tilt, "azimuth_deg": azimuth, "roll_deg": roll}


def table_truth(comp: Composer, deal: TableDeal, cam: dict) -> dict:
    """The ``table`` part of a scene's truth: corners, homographies, camera, markers, zones, seats."""
    table = deal.table
    hom = comp.hom / comp.hom[2, 2]
    zones = []
    for z in table.zones.values():
        zones.append(
            {
                "name": z.name,
                "kind": z.kind,
                "polygon_mm": z.polygon_mm,
                "polygon_image": project(hom, z.polygon_mm),
                "note_angle_deg": z.note_angle_deg,
            }
        )
    return {
        "size_mm": table.size_mm,
        "corners_mm": table.corners_mm,
        "corners_image": project(hom, table.corners_mm),
        "homography_image_from_table_mm": hom,
        "homography_table_mm_from_image": np.linalg.inv(hom) / np.linalg.inv(hom)[2, 2],
        "camera": cam,
        "markers": comp.marker_truth() if comp.markers else [],
        "aruco_dictionary": "DICT_4X4_50",
        "zones": zones,
        "seats": table.seats,
    }


def _table_occluders(rng: np.random.Generator, preset: Preset, deal: TableDeal, placements: list[Placement]) -> list[Occluder]:
    occ: list[Occluder] = []
    # chip stacks in front of some players (not on the notes)
    for seat in deal.table.seats:
        if rng.random() < 0.6:
            z = deal.table.zones[seat]
            c = np.array(z.centre_mm)
            toward = np.array(deal.table.size_mm) / 2 - c
            toward /= np.linalg.norm(toward)
            p = c + toward * rng.uniform(110, 140) + rng.normal(0, 10, 2)
            occ.append(Occluder("chip", (float(p[0]), float(p[1])), float(rng.uniform(0, 360)), 1.0, int(rng.integers(2**31 - 1))))
    if placements and rng.random() < preset.occluder_prob:
        target = placements[int(rng.integers(len(placements)))]
        off = rng.normal(0, 40, 2)
        if rng.random() < 0.5:
            occ.append(Occluder("chip", (target.centre_mm[0] + off[0], target.centre_mm[1] + off[1]), float(rng.uniform(0, 360)), 1.0, int(rng.integers(2**31 - 1))))
        else:
            occ.append(
                Occluder(
                    "hand",
                    (target.centre_mm[0] + off[0] * 2, target.centre_mm[1] + off[1] * 2),
                    float(rng.uniform(0, 360)),
                    float(rng.uniform(0.9, 1.1)),
                    int(rng.integers(2**31 - 1)),
                )
            )
    return occ


def render_scene(
    seed: int,
    preset: str = "medium",
    *,
    n_players: int | None = None,
    position: int | None = None,
    stage: str = "showdown",
    image_size: tuple[int, int] = (1920, 1080),
    markers: bool = False,
    surface_kind: str | None = None,
    flat_colour: tuple[int, int, int] | None = None,
    jpeg_max_bytes: int | None = None,
) -> tuple[np.ndarray, dict]:
    """A whole table photographed at one street of a hand.

    ``seed``: everything random derives from it (same seed, same image).
    ``preset``: ``clean`` | ``easy`` | ``medium`` | ``hard``. ``n_players``
    (2..8, default random 3..6) and ``position`` (playing position P 1..7,
    default random). ``stage``: one of :data:`STAGES`. ``image_size``: (width,
    height) pixels. ``markers``: ArUco markers (DICT_4X4_50, ids 0..3
    clockwise from the top-left) at the table corners. ``flat_colour``: draw
    every note as a plain BGR colour (geometry tests). ``jpeg_max_bytes``: lower
    the JPEG quality until the file fits.

    Returns the image (uint8 ``(height, width, 3)`` BGR, as decoded from its
    JPEG) and the truth dict: ``notes`` (see :mod:`.compositor`), ``table`` (corners
    and markers in image pixels, homographies image<->table mm, zone polygons
    in mm and pixels), ``hand`` (FORMATS.md §1 fields: position, board,
    players with pockets) and the photographic ``conditions``.
    Raises ``ValueError`` for an unknown preset or stage, or bad counts.
    """
    img, _, truth = render_scene_jpeg(seed, preset, n_players=n_players, position=position, stage=stage,
                                      image_size=image_size, markers=markers, surface_kind=surface_kind,
                                      flat_colour=flat_colour, jpeg_max_bytes=jpeg_max_bytes)
    return img, truth


def render_scene_jpeg(seed, preset, *, n_players, position, stage, image_size, markers, surface_kind, flat_colour, jpeg_max_bytes):
    """:func:`render_scene` with every argument given; returns (image, its JPEG bytes, truth)."""
    p = get_preset(preset)
    s_layout, s_cam, s_surface, s_light, s_noise, s_occ = derived_seeds(seed, 6)
    rng = np.random.default_rng(s_layout)
    n_players = int(rng.integers(3, 7)) if n_players is None else int(n_players)
    position = int(rng.integers(1, 8)) if position is None else int(position)
    if not 1 <= position <= 7:
        raise ValueError(f"playing position must be 1..7, got {position}")
    deal = deal_table(rng, p, n_players, position)
    placements = deal.placements(stage)
    if surface_kind is None:
        surface_kind = TABLE_SURFACES[int(rng.integers(len(TABLE_SURFACES)))]
    hom, cam = table_camera(np.random.default_rng(s_cam), p, deal.table, image_size)
    light = np.random.default_rng(s_light).uniform(0, 2 * np.pi)
    comp = Composer(image_size, hom, p, surface_kind, s_surface, deal.table, markers,
                    (float(np.cos(light)), float(np.sin(light))), flat_colour)
    occ = _table_occluders(np.random.default_rng(s_occ), p, deal, placements) if flat_colour is None else []
    img, data, truth = comp.render(placements, occ, s_light, s_noise, jpeg_max_bytes)
    truth.update(seed=seed, kind="table", stage=stage, table=table_truth(comp, deal, cam), hand=hand_truth(deal))
    return img, data, to_jsonable(truth)


def indian_deal(deal: TableDeal) -> TableDeal:
    """The same table dealt for Indian poker (RULES.md §7.1): no board, one note per seat, laid in the middle
    of its zone (where the player puts it down face up at the showdown)."""
    pockets = {seat: [replace_placement(pls[0], centre_mm=tuple(float(v) for v in deal.table.zones[seat].centre_mm))]
               for seat, pls in deal.pockets.items()}
    return TableDeal(deal.table, deal.position, [], pockets, game="indian")


def hand_truth(deal: TableDeal) -> dict:
    """The hand in FORMATS.md §1 form (players in clockwise seat order)."""
    return {
        **({"game": deal.game} if deal.game != "holdem" else {}),
        "position": deal.position,
        "zero_joker": "off",
        "tie_policy": "split",
        "board": [pl.spec.digits for pl in deal.board],
        "players": [{"name": s, "pocket": [pl.spec.digits for pl in deal.pockets[s]]} for s in deal.table.seats],
    }
