"""Scenes: specimen notes lying on a surface, photographed, with exact ground truth.

Coordinates: table millimetres (see :mod:`.table`); image pixels in OpenCV's
convention (the centre of pixel column i, row j is (i, j)); a note's own frame
is its upright rendering, (0, 0) at its top-left corner and (1150, 500) at its
bottom-right (see :data:`.layout.NOTE_SIZE_PX`).

Truth of one note (``truth["notes"][k]``):

* ``serial`` (7 digits), ``letters`` (2 upper-case Cyrillic), ``denomination``,
  ``face`` (``"up"`` | ``"down"``), ``zone`` (``"board"``, a seat name or None);
* ``quad``: 4 image points, clockwise starting at the note's own top-left
  corner (the upright note's top-left, wherever it lies in the image);
* ``quad_mm``: the same corners in table millimetres;
* ``visible_fraction``: share of the note's area not covered by anything;
* ``prints``: for a face-up note, per serial print (``top_right``, ``left``):
  its ``quad`` in the image, ``box`` on the note (normalised), ``colour``,
  ``text`` as printed, ``visible_fraction``, ``glare_fraction`` (share washed
  out by the glare spot) and ``digit_height_px`` in the image;
* ``legible``: a person could read the serial: at least one print is (almost)
  fully visible, not washed out, and its digits are tall enough for the blur
  of the photo (see :func:`legible`).
"""

from __future__ import annotations

from dataclasses import dataclass, field

import cv2
import numpy as np

from dealer_assist.synth.camera import fit_to_image, look_at_homography, project
from dealer_assist.synth.effects import blur, decode_jpeg, encode_jpeg, lighting, sensor_noise
from dealer_assist.synth.layout import NOTE_SIZE_MM, NOTE_SIZE_PX, PRINT_NAMES, layout_for
from dealer_assist.synth.note import NoteSpec, RenderedNote, random_spec, render_note, render_note_back
from dealer_assist.synth.noise import noise_field, soft_blur
from dealer_assist.synth.presets import Preset, get_preset
from dealer_assist.synth.sprites import Sprite, chip_sprite, hand_sprite, marker_sprite
from dealer_assist.synth.surfaces import TABLE_SURFACES, surface
from dealer_assist.synth.table import TableLayout, make_table
from dealer_assist.synth.truth import SCHEMA, to_jsonable

NOTE_W_PX, NOTE_H_PX = NOTE_SIZE_PX
NOTE_W_MM, NOTE_H_MM = NOTE_SIZE_MM

#: Files larger than this are re-encoded at a lower JPEG quality (bytes).
MAX_IMAGE_BYTES = 300_000

#: Label of uncovered surface in the label map; notes are 0..N-1, other objects from here up.
_BACKGROUND = -1
_OCCLUDER_BASE = 1000


@dataclass
class Placement:
    """A note lying on the table.

    ``centre_mm``: its centre; ``angle_deg``: rotation of its upright x axis
    from the table's x axis, clockwise as seen in the image (0 = upright, 180 =
    upside down); ``face_up``: False shows the back; ``zone``: the zone it was
    dealt to; ``curl_mm``: bow of its (long, short) edges; ``fold_u``: position
    of a fold across the note (0..1 of its width) or None; ``crumple``:
    amplitude of the paper's shading; ``shade_seed``: seed of that shading.
    """

    spec: NoteSpec
    centre_mm: tuple[float, float]
    angle_deg: float
    face_up: bool = True
    zone: str | None = None
    curl_mm: tuple[float, float] = (0.0, 0.0)
    fold_u: float | None = None
    crumple: float = 0.0
    shade_seed: int = 0


@dataclass
class Occluder:
    """A hand or a chip on or above the table: ``kind`` ``"hand"`` | ``"chip"``,
    ``centre_mm``, ``angle_deg`` (clockwise), ``scale`` (1 = natural size), ``seed``."""

    kind: str
    centre_mm: tuple[float, float]
    angle_deg: float = 0.0
    scale: float = 1.0
    seed: int = 0


def note_to_table(centre_mm: tuple[float, float], angle_deg: float, size_px=NOTE_SIZE_PX, size_mm=NOTE_SIZE_MM) -> np.ndarray:
    """Affine (3, 3) matrix from a texture's pixel frame (0..w, 0..h) to table millimetres."""
    a = np.deg2rad(angle_deg)
    ca, sa = np.cos(a), np.sin(a)
    sx, sy = size_mm[0] / size_px[0], size_mm[1] / size_px[1]
    t0 = np.array([[1, 0, -size_px[0] / 2], [0, 1, -size_px[1] / 2], [0, 0, 1.0]])
    sc = np.diag([sx, sy, 1.0])
    rot = np.array([[ca, -sa, 0], [sa, ca, 0], [0, 0, 1.0]])
    t1 = np.array([[1, 0, centre_mm[0]], [0, 1, centre_mm[1]], [0, 0, 1.0]])
    return t1 @ rot @ sc @ t0


def _bow(u: np.ndarray, v: np.ndarray, bow_px: tuple[float, float], size_px=NOTE_SIZE_PX):
    """Displacement (du, dv) in note pixels of a note bowed by ``bow_px`` (zero at the corners)."""
    w, h = size_px
    return bow_px[1] * np.sin(np.pi * v / h), bow_px[0] * np.sin(np.pi * u / w)


# --------------------------------------------------------------------------- warping


def _warp(
    tex: np.ndarray,
    alpha_tex: np.ndarray | None,
    hom: np.ndarray,
    image_size: tuple[int, int],
    bow_px: tuple[float, float] = (0.0, 0.0),
):
    """Warp a texture into the image through ``hom`` (texture pixel frame -> image).

    Returns ``(x0, y0, colour, alpha)`` for the image window starting at
    (x0, y0), or None when the texture falls outside the image.
    """
    th, tw = tex.shape[:2]
    W, H = image_size
    corners = np.array([[0, 0], [tw, 0], [tw, th], [0, th]], np.float64)
    q = project(hom, corners)
    edges = np.linalg.norm(q - np.roll(q, -1, axis=0), axis=1)
    scale = max(edges[0] / tw, edges[2] / tw, edges[1] / th, edges[3] / th)
    pad = 3 + (abs(bow_px[0]) + abs(bow_px[1])) * scale
    x0 = int(max(0, np.floor(q[:, 0].min() - pad)))
    y0 = int(max(0, np.floor(q[:, 1].min() - pad)))
    x1 = int(min(W, np.ceil(q[:, 0].max() + pad)))
    y1 = int(min(H, np.ceil(q[:, 1].max() + pad)))
    if x1 <= x0 or y1 <= y0:
        return None
    xs, ys = np.meshgrid(np.arange(x0, x1, dtype=np.float64), np.arange(y0, y1, dtype=np.float64))
    inv = np.linalg.inv(hom)
    den = inv[2, 0] * xs + inv[2, 1] * ys + inv[2, 2]
    u = (inv[0, 0] * xs + inv[0, 1] * ys + inv[0, 2]) / den
    v = (inv[1, 0] * xs + inv[1, 1] * ys + inv[1, 2]) / den
    if bow_px != (0.0, 0.0):
        du, dv = _bow(u, v, bow_px, (tw, th))
        u, v = u - du, v - dv
    # sample a pre-shrunk texture when it is much bigger than its image
    if scale < 0.7:
        f = min(1.0, scale * 1.5)
        small = cv2.resize(tex, (max(2, round(tw * f)), max(2, round(th * f))), interpolation=cv2.INTER_AREA)
        small_a = (
            cv2.resize(alpha_tex, (small.shape[1], small.shape[0]), interpolation=cv2.INTER_AREA)
            if alpha_tex is not None
            else None
        )
    else:
        small, small_a = tex, alpha_tex
    fx, fy = small.shape[1] / tw, small.shape[0] / th
    mx = (u * fx - 0.5).astype(np.float32)
    my = (v * fy - 0.5).astype(np.float32)
    colour = cv2.remap(small, mx, my, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    inside_u = np.clip(np.minimum(u, tw - u) * scale + 0.5, 0, 1)
    inside_v = np.clip(np.minimum(v, th - v) * scale + 0.5, 0, 1)
    alpha = (inside_u * inside_v).astype(np.float32)
    if small_a is not None:
        alpha *= cv2.remap(small_a, mx, my, cv2.INTER_LINEAR, borderMode=cv2.BORDER_CONSTANT, borderValue=0)
    return x0, y0, colour, alpha


def _cast_shadow(canvas: np.ndarray, x0: int, y0: int, alpha: np.ndarray, offset: tuple[float, float], sigma: float, strength: float) -> None:
    """Darken ``canvas`` under a blurred, shifted copy of ``alpha`` (in place)."""
    if strength <= 0:
        return
    H, W = canvas.shape[:2]
    p = int(np.ceil(abs(offset[0]) + abs(offset[1]) + 3 * sigma)) + 1
    h, w = alpha.shape
    m = np.zeros((h + 2 * p, w + 2 * p), np.float32)
    dx, dy = int(round(offset[0])), int(round(offset[1]))
    m[p + dy : p + dy + h, p + dx : p + dx + w] = alpha
    m = soft_blur(m, sigma)
    gx0, gy0 = x0 - p, y0 - p
    cx0, cy0 = max(0, gx0), max(0, gy0)
    cx1, cy1 = min(W, gx0 + w + 2 * p), min(H, gy0 + h + 2 * p)
    if cx1 <= cx0 or cy1 <= cy0:
        return
    sub = m[cy0 - gy0 : cy1 - gy0, cx0 - gx0 : cx1 - gx0]
    canvas[cy0:cy1, cx0:cx1] *= (1 - strength * sub)[..., None]


def _composite(canvas: np.ndarray, labels: np.ndarray | None, label: int, x0: int, y0: int, colour: np.ndarray, alpha: np.ndarray) -> None:
    h, w = alpha.shape
    region = canvas[y0 : y0 + h, x0 : x0 + w]
    a = alpha[..., None]
    region *= 1 - a
    region += colour * a
    if labels is not None:
        labels[y0 : y0 + h, x0 : x0 + w][alpha > 0.5] = label


# --------------------------------------------------------------------------- the composer


def _note_texture(pl: Placement, rendered: RenderedNote | None, flat_colour) -> np.ndarray:
    if flat_colour is not None:
        tex = np.empty((NOTE_H_PX, NOTE_W_PX, 3), np.float32)
        tex[:] = flat_colour
        return tex
    if pl.face_up:
        assert rendered is not None
        tex = rendered.image.astype(np.float32)
    else:
        tex = render_note_back(pl.spec.denomination).astype(np.float32)
    if pl.crumple > 0 or pl.fold_u is not None:
        rng = np.random.default_rng(pl.shade_seed)
        shade = np.ones((NOTE_H_PX, NOTE_W_PX), np.float32)
        if pl.crumple > 0:
            shade += pl.crumple * noise_field(rng, (NOTE_H_PX, NOTE_W_PX), 90, 3)
        if pl.fold_u is not None:
            xs = np.arange(NOTE_W_PX, dtype=np.float32)
            fx = pl.fold_u * NOTE_W_PX
            side = np.where(xs < fx, 1.0, 1.0 - rng.uniform(0.04, 0.12)).astype(np.float32)
            crease = 1.0 - 0.18 * np.exp(-0.5 * ((xs - fx) / 2.5) ** 2)
            shade *= (side * crease)[None, :]
        tex *= shade[..., None]
    return tex


@dataclass
class _Composer:
    """Builds one image: background, markers, notes, occluders, then the photo effects."""

    image_size: tuple[int, int]
    hom: np.ndarray  # table mm -> image px
    preset: Preset
    surface_kind: str
    surface_seed: int
    table: TableLayout | None = None  # None: the surface is endless (single-note photos)
    markers: bool = False
    light_dir: tuple[float, float] = (0.6, 0.8)
    flat_colour: tuple[float, float, float] | None = None
    _background: np.ndarray | None = field(default=None, repr=False)
    _note_cache: dict = field(default_factory=dict, repr=False)
    _px_per_mm: float = 1.0

    def __post_init__(self) -> None:
        c = (
            np.array(self.table.size_mm) / 2
            if self.table is not None
            else np.linalg.inv(self.hom) @ np.array([self.image_size[0] / 2, self.image_size[1] / 2, 1.0])
        )
        if self.table is None:
            c = c[:2] / c[2]
        p = project(self.hom, [c, c + np.array([10.0, 0]), c + np.array([0, 10.0])])
        self._px_per_mm = float((np.linalg.norm(p[1] - p[0]) + np.linalg.norm(p[2] - p[0])) / 20.0)

    # background -----------------------------------------------------------
    def background(self) -> np.ndarray:
        if self._background is None:
            W, H = self.image_size
            xs, ys = np.meshgrid(np.arange(W, dtype=np.float64), np.arange(H, dtype=np.float64))
            inv = np.linalg.inv(self.hom)
            den = inv[2, 0] * xs + inv[2, 1] * ys + inv[2, 2]
            den = np.where(np.abs(den) < 1e-12, 1e-12, den)
            xm = ((inv[0, 0] * xs + inv[0, 1] * ys + inv[0, 2]) / den).astype(np.float32)
            ym = ((inv[1, 0] * xs + inv[1, 1] * ys + inv[1, 2]) / den).astype(np.float32)
            rng = np.random.default_rng(self.surface_seed)
            img = surface(self.surface_kind, rng, xm, ym)
            if self.table is not None:
                tw, th = self.table.size_mm
                rim = 35.0
                inside = (xm >= 0) & (xm <= tw) & (ym >= 0) & (ym <= th)
                on_rim = (xm >= -rim) & (xm <= tw + rim) & (ym >= -rim) & (ym <= th + rim) & ~inside
                floor = surface("concrete", rng, xm, ym) * 0.55
                rim_col = np.array([25, 35, 50], np.float32) * (1 + 0.2 * rng.random())
                img = np.where(inside[..., None], img, floor)
                img[on_rim] = rim_col
                # a soft inner edge where the rim meets the cloth
                edge = cv2.GaussianBlur(inside.astype(np.float32), (0, 0), max(1.0, 3 * self._px_per_mm))
                img *= (0.75 + 0.25 * np.where(inside, edge, 1.0))[..., None]
                if self.markers:
                    self._draw_markers(img)
            self._background = img.astype(np.float32)
        return self._background.copy()

    def _draw_markers(self, img: np.ndarray) -> None:
        assert self.table is not None
        for mid, c in enumerate(self.table.marker_centres_mm()):
            sprite, total = marker_sprite(mid, self.table.marker_size_mm)
            n = sprite.texture.shape[0]
            a = note_to_table(tuple(c), 0.0, (n, n), (total, total))
            out = _warp(sprite.texture, None, self.hom @ a, self.image_size)
            if out is not None:
                _composite(img, None, 0, *out)

    def marker_truth(self) -> list[dict]:
        assert self.table is not None
        s = self.table.marker_size_mm / 2
        res = []
        for mid, c in enumerate(self.table.marker_centres_mm()):
            corners = np.array([[c[0] - s, c[1] - s], [c[0] + s, c[1] - s], [c[0] + s, c[1] + s], [c[0] - s, c[1] + s]])
            res.append(
                {
                    "id": mid,
                    "corners_mm": corners,
                    "corners_image": project(self.hom, corners),
                    "centre_mm": c,
                    "size_mm": self.table.marker_size_mm,
                }
            )
        return res

    def _rendered(self, spec: NoteSpec) -> RenderedNote:
        if spec not in self._note_cache:
            self._note_cache[spec] = render_note(spec)
        return self._note_cache[spec]

    # objects ----------------------------------------------------------------
    def _shadow_params(self, height_mm: float) -> tuple[tuple[float, float], float]:
        d = self._px_per_mm * height_mm
        return (self.light_dir[0] * d, self.light_dir[1] * d), max(0.5, 0.8 * d)

    def draw_note(self, canvas, labels, label, pl: Placement, rendered: RenderedNote | None):
        """Draw one note; returns its note->image homography (3, 3) and its
        footprint ``(x0, y0, bool mask)`` (None when outside the image)."""
        hom = self.hom @ note_to_table(pl.centre_mm, pl.angle_deg)
        tex = _note_texture(pl, rendered, self.flat_colour)
        bow = (pl.curl_mm[0] * NOTE_H_PX / NOTE_H_MM, pl.curl_mm[1] * NOTE_W_PX / NOTE_W_MM)
        out = _warp(tex, None, hom, self.image_size, bow)
        if out is None:
            return hom, None
        x0, y0, colour, alpha = out
        if self.flat_colour is None:
            offset, sigma = self._shadow_params(1.5 + max(abs(pl.curl_mm[0]), abs(pl.curl_mm[1])))
            _cast_shadow(canvas, x0, y0, alpha, offset, sigma, 0.35)
        _composite(canvas, labels, label, x0, y0, colour, alpha)
        return hom, (x0, y0, alpha > 0.5)

    def draw_occluder(self, canvas, labels, label, occ: Occluder) -> list[list[float]]:
        rng = np.random.default_rng(occ.seed)
        sprite: Sprite = hand_sprite(rng) if occ.kind == "hand" else chip_sprite(rng)
        th, tw = sprite.alpha.shape
        size = (sprite.size_mm[0] * occ.scale, sprite.size_mm[1] * occ.scale)
        hom = self.hom @ note_to_table(occ.centre_mm, occ.angle_deg, (tw, th), size)
        out = _warp(sprite.texture, sprite.alpha, hom, self.image_size)
        if out is not None:
            x0, y0, colour, alpha = out
            height = (60.0 if self.table is not None else 15.0) if occ.kind == "hand" else 4.0
            offset, sigma = self._shadow_params(height)
            _cast_shadow(canvas, x0, y0, alpha, offset, sigma, 0.45 if occ.kind == "hand" else 0.35)
            _composite(canvas, labels, label, x0, y0, colour, alpha)
        return project(hom, [[0, 0], [tw, 0], [tw, th], [0, th]]).tolist()

    # the whole image ------------------------------------------------------------
    def render(
        self,
        placements: list[Placement],
        occluders: list[Occluder],
        light_seed: int,
        noise_seed: int,
        jpeg_max_bytes: int | None = MAX_IMAGE_BYTES,
        glare_target: tuple[float, float] | None = None,
    ) -> tuple[np.ndarray, bytes, dict]:
        """Compose and photograph. Returns (decoded uint8 BGR image, JPEG bytes, truth)."""
        W, H = self.image_size
        canvas = self.background()
        labels = np.full((H, W), _BACKGROUND, np.int16)
        rendered = [self._rendered(pl.spec) if pl.face_up and self.flat_colour is None else None for pl in placements]
        drawn = [self.draw_note(canvas, labels, i, pl, rn) for i, (pl, rn) in enumerate(zip(placements, rendered))]
        occ_truth = []
        for k, occ in enumerate(occluders):
            quad = self.draw_occluder(canvas, labels, _OCCLUDER_BASE + k, occ)
            occ_truth.append({"kind": occ.kind, "centre_mm": occ.centre_mm, "angle_deg": occ.angle_deg, "quad": quad})

        light_rng = np.random.default_rng(light_seed)
        lit, glare, light_info = lighting(canvas, light_rng, self.preset, glare_target)
        noise_rng = np.random.default_rng(noise_seed)
        img, blur_info = blur(lit, noise_rng, self.preset)
        img, noise_info = sensor_noise(img, noise_rng, self.preset)
        img8 = np.clip(np.round(img), 0, 255).astype(np.uint8)
        quality = int(round(noise_rng.uniform(*self.preset.jpeg_quality))) if self.preset.jpeg_quality[1] > self.preset.jpeg_quality[0] else int(self.preset.jpeg_quality[0])
        data, quality = encode_jpeg(img8, quality, jpeg_max_bytes)
        decoded = decode_jpeg(data)

        notes = [
            self._note_truth(i, pl, rn, hom, fp, labels, glare)
            for i, (pl, rn, (hom, fp)) in enumerate(zip(placements, rendered, drawn))
        ]
        blur_px = blur_info["blur_sigma"] + blur_info.get("motion_blur", {}).get("length_px", 0.0) / 4
        for n in notes:
            n["legible"] = legible(n, blur_px)
        truth = {
            "schema": SCHEMA,
            "width": W,
            "height": H,
            "preset": self.preset.name,
            "surface": self.surface_kind,
            "notes": notes,
            "occluders": occ_truth,
            "conditions": {**light_info, **blur_info, **noise_info, "jpeg_quality": quality},
            "px_per_mm": self._px_per_mm,
            "homography_image_from_table_mm": self.hom / self.hom[2, 2],
        }
        return decoded, data, truth

    def _note_truth(self, i, pl: Placement, rn: RenderedNote | None, hom, fp, labels, glare) -> dict:
        W, H = self.image_size
        corners = np.array([[0, 0], [NOTE_W_PX, 0], [NOTE_W_PX, NOTE_H_PX], [0, NOTE_H_PX]], np.float64)
        quad = project(hom, corners)
        quad_mm = project(note_to_table(pl.centre_mm, pl.angle_deg), corners)
        if fp is not None:
            fx0, fy0, own = fp
            fh, fw = own.shape
            mine = labels[fy0 : fy0 + fh, fx0 : fx0 + fw] == i
            area = int(own.sum())
            visible = float((mine & own).sum()) / area if area else 0.0
        else:
            fx0 = fy0 = 0
            own = mine = np.zeros((1, 1), bool)
            visible = 0.0
        edge = quad[1] - quad[0]
        t = {
            "index": i,
            "serial": pl.spec.digits,
            "letters": pl.spec.letters,
            "denomination": pl.spec.denomination,
            "face": "up" if pl.face_up else "down",
            "zone": pl.zone,
            "quad": quad,
            "quad_mm": quad_mm,
            "centre_mm": pl.centre_mm,
            "angle_deg": pl.angle_deg % 360.0,
            "image_angle_deg": float(np.rad2deg(np.arctan2(edge[1], edge[0])) % 360.0),
            "in_image": bool(np.all((quad >= 0) & (quad <= [W - 1, H - 1]))),
            "visible_fraction": visible,
            "curl_mm": list(pl.curl_mm),
            "fold_u": pl.fold_u,
            "prints": {},
            "legible": False,
        }
        if not pl.face_up:
            return t
        bow = (pl.curl_mm[0] * NOTE_H_PX / NOTE_H_MM, pl.curl_mm[1] * NOTE_W_PX / NOTE_W_MM)
        for name in PRINT_NAMES:
            if rn is not None:
                info = rn.prints[name]
                box, colour, text, heights = info.box, info.colour, info.text, info.digit_heights
            else:  # flat notes: report the nominal boxes
                lay = layout_for(pl.spec.denomination)
                box = lay.top_right_box if name == "top_right" else lay.left_box
                colour = lay.top_right_colour if name == "top_right" else lay.left_colour
                text, heights = pl.spec.serial, (int((box[3] - box[1]) * NOTE_H_PX),)
            bx = np.array(
                [[box[0], box[1]], [box[2], box[1]], [box[2], box[3]], [box[0], box[3]]], np.float64
            ) * [NOTE_W_PX, NOTE_H_PX]
            du, dv = _bow(bx[:, 0], bx[:, 1], bow)
            pq = project(hom, np.column_stack([bx[:, 0] + du, bx[:, 1] + dv]))
            # the print as it lies on the paper: its polygon within the note's footprint
            m = np.zeros(own.shape, np.uint8)
            cv2.fillPoly(m, [np.round((pq - [fx0, fy0]) * 16).astype(np.int32)], 1, cv2.LINE_8, shift=4)
            area_p = (m > 0) & own
            n = int(area_p.sum())
            vis = float((area_p & mine).sum()) / n if n else 0.0
            g = glare[fy0 : fy0 + own.shape[0], fx0 : fx0 + own.shape[1]] if own.size > 1 else np.zeros((1, 1))
            gl = float((g[area_p] > 0.35).mean()) if n else 0.0
            box_h = (box[3] - box[1]) * NOTE_H_PX
            side = (np.linalg.norm(pq[3] - pq[0]) + np.linalg.norm(pq[2] - pq[1])) / 2
            digit_h = side * (float(np.mean(heights)) / box_h) if box_h > 0 else 0.0
            t["prints"][name] = {
                "quad": pq,
                "box": box,
                "colour": colour,
                "text": text,
                "visible_fraction": vis,
                "glare_fraction": gl,
                "digit_height_px": digit_h,
            }
        return t


def legible(note: dict, blur_px: float = 0.0) -> bool:
    """Whether a person could read the serial of ``note`` (a note truth dict).

    True when the note is face up and one of its prints is at least 98%
    visible, less than 20% washed out by glare, and has digits at least
    ``6 + 3 * blur_px`` pixels tall (``blur_px``: the photo's Gaussian sigma
    plus a quarter of its motion-blur length).
    """
    if note["face"] != "up":
        return False
    need = 6.0 + 3.0 * blur_px
    return any(
        p["visible_fraction"] >= 0.98 and p["glare_fraction"] < 0.2 and p["digit_height_px"] >= need
        for p in note["prints"].values()
    )


# --------------------------------------------------------------------------- random choices


def _u(rng: np.random.Generator, r: tuple[float, float]) -> float:
    return float(rng.uniform(r[0], r[1])) if r[1] > r[0] else float(r[0])


def _note_angle(rng: np.random.Generator, preset: Preset, base: float, flip_prob: float = 0.35) -> float:
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


def _paper_state(rng: np.random.Generator, preset: Preset) -> dict:
    sign = lambda: 1.0 if rng.random() < 0.5 else -1.0  # noqa: E731
    return {
        "curl_mm": (sign() * _u(rng, preset.curl_mm), sign() * _u(rng, preset.curl_mm) * 0.4),
        "fold_u": float(rng.uniform(0.3, 0.7)) if rng.random() < preset.fold_prob else None,
        "crumple": _u(rng, preset.crumple),
        "shade_seed": int(rng.integers(2**31 - 1)),
    }


def _seeds(seed: int, n: int) -> list[int]:
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


# --------------------------------------------------------------------------- table scenes

#: Streets of a hand, in order (RULES.md §1): what is on the table at each.
STAGES: tuple[str, ...] = ("empty", "preflop", "flop", "turn", "river", "showdown")


@dataclass
class TableDeal:
    """Where every note of one hand lies, independent of the street."""

    table: TableLayout
    position: int
    board: list[Placement]
    pockets: dict[str, list[Placement]]

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
                out.append(_replace(pl, face_up=(stage == "showdown")))
        n_board = {1: 0, 2: 1, 3: 2, 4: 3, 5: 3}[k]
        out.extend(self.board[:n_board])
        return out


def _replace(pl: Placement, **kw) -> Placement:
    d = dict(pl.__dict__)
    d.update(kw)
    return Placement(**d)


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
        ang = _note_angle(rng, preset, 0.0, flip_prob=0.2)
        if preset.free_rotation_prob < 0.5 and abs(((ang + 90) % 180) - 90) > 30:
            ang = float(rng.uniform(-1, 1) * preset.angle_jitter_deg) % 360  # keep the row from colliding
        board.append(Placement(spec, (float(cx), float(cy)), ang, True, "board", **_paper_state(rng, preset)))
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
            pls.append(Placement(spec, (float(c[0]), float(c[1])), float(ang % 360), False, seat, **_paper_state(rng, preset)))
        pockets[seat] = pls
    return TableDeal(table, position, board, pockets)


def _table_camera(rng: np.random.Generator, preset: Preset, table: TableLayout, image_size) -> tuple[np.ndarray, dict]:
    tilt = _u(rng, (min(preset.tilt_deg[0], 20.0), min(preset.tilt_deg[1], 35.0)))
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


def _table_truth(comp: _Composer, deal: TableDeal, cam: dict) -> dict:
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
    JPEG) and the truth dict: ``notes`` (see module doc), ``table`` (corners
    and markers in image pixels, homographies image<->table mm, zone polygons
    in mm and pixels), ``hand`` (FORMATS.md §1 fields: position, board,
    players with pockets) and the photographic ``conditions``.
    Raises ``ValueError`` for an unknown preset or stage, or bad counts.
    """
    img, _, truth = _render_scene(seed, preset, n_players=n_players, position=position, stage=stage,
                                  image_size=image_size, markers=markers, surface_kind=surface_kind,
                                  flat_colour=flat_colour, jpeg_max_bytes=jpeg_max_bytes)
    return img, truth


def _render_scene(seed, preset, *, n_players, position, stage, image_size, markers, surface_kind, flat_colour, jpeg_max_bytes):
    p = get_preset(preset)
    s_layout, s_cam, s_surface, s_light, s_noise, s_occ = _seeds(seed, 6)
    rng = np.random.default_rng(s_layout)
    n_players = int(rng.integers(3, 7)) if n_players is None else int(n_players)
    position = int(rng.integers(1, 8)) if position is None else int(position)
    if not 1 <= position <= 7:
        raise ValueError(f"playing position must be 1..7, got {position}")
    deal = deal_table(rng, p, n_players, position)
    placements = deal.placements(stage)
    if surface_kind is None:
        surface_kind = TABLE_SURFACES[int(rng.integers(len(TABLE_SURFACES)))]
    hom, cam = _table_camera(np.random.default_rng(s_cam), p, deal.table, image_size)
    light = np.random.default_rng(s_light).uniform(0, 2 * np.pi)
    comp = _Composer(image_size, hom, p, surface_kind, s_surface, deal.table, markers,
                     (float(np.cos(light)), float(np.sin(light))), flat_colour)
    occ = _table_occluders(np.random.default_rng(s_occ), p, deal, placements) if flat_colour is None else []
    img, data, truth = comp.render(placements, occ, s_light, s_noise, jpeg_max_bytes)
    truth.update(seed=seed, kind="table", stage=stage, table=_table_truth(comp, deal, cam), hand=_hand_truth(deal))
    return img, data, to_jsonable(truth)


def _hand_truth(deal: TableDeal) -> dict:
    """The hand in FORMATS.md §1 form (players in clockwise seat order)."""
    return {
        "position": deal.position,
        "zero_joker": "off",
        "tie_policy": "split",
        "board": [pl.spec.digits for pl in deal.board],
        "players": [{"name": s, "pocket": [pl.spec.digits for pl in deal.pockets[s]]} for s in deal.table.seats],
    }
