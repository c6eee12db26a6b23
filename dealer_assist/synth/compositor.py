"""The compositor: notes, hands and chips drawn on a surface through a camera, photographed, with
exact ground truth (:class:`Composer`; the scenes are :mod:`.scene`'s, :mod:`.photos`', :mod:`.sequence`'s
and :mod:`.real_scene`'s).

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

from dealer_assist.synth.pose import project
from dealer_assist.synth.effects import blur, decode_jpeg, encode_jpeg, lighting, sensor_noise
from dealer_assist.synth.layout import NOTE_SIZE_MM, NOTE_SIZE_PX, PRINT_NAMES, layout_for
from dealer_assist.synth.note import NoteSpec, RenderedNote, render_note, render_note_back
from dealer_assist.synth.noise import noise_field, soft_blur
from dealer_assist.synth.placement import Occluder, Placement, note_to_table
from dealer_assist.synth.presets import Preset
from dealer_assist.synth.sprites import Sprite, chip_sprite, hand_sprite, marker_sprite
from dealer_assist.synth.surfaces import surface
from dealer_assist.synth.table import TableLayout
from dealer_assist.synth.truth import SCHEMA

NOTE_W_PX, NOTE_H_PX = NOTE_SIZE_PX
NOTE_W_MM, NOTE_H_MM = NOTE_SIZE_MM

#: Files larger than this are re-encoded at a lower JPEG quality (bytes).
MAX_IMAGE_BYTES = 300_000

#: Label of uncovered surface in the label map; notes are 0..N-1, other objects from here up.
BACKGROUND = -1
OCCLUDER_BASE = 1000


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
class Composer:
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

    def rendered_note(self, spec: NoteSpec) -> RenderedNote:
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
        labels = np.full((H, W), BACKGROUND, np.int16)
        rendered = [self.rendered_note(pl.spec) if pl.face_up and self.flat_colour is None else None for pl in placements]
        drawn = [self.draw_note(canvas, labels, i, pl, rn) for i, (pl, rn) in enumerate(zip(placements, rendered))]
        occ_truth = []
        for k, occ in enumerate(occluders):
            quad = self.draw_occluder(canvas, labels, OCCLUDER_BASE + k, occ)
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
            self.note_truth(i, pl, rn, hom, fp, labels, glare)
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

    def note_truth(self, i, pl: Placement, rn: RenderedNote | None, hom, fp, labels, glare) -> dict:
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
