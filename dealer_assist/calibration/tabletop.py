"""Reading a whole-table photo through a calibration: top view, reader, zones.

A camera over a whole table sees each serial digit a few pixels tall, and the
reader's detector works on a downscaled photo. So the photo is first
**rectified** to a top view of the table at :data:`TOP_VIEW_PX_PER_MM` from
the full-resolution pixels (undistorted on the way when the profile has a
camera section), the reader runs on that view with its detector at full size,
and every note found is put in the zone that holds its serial prints.

Pure functions over numpy arrays; the reader is passed in.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Protocol, Sequence

import cv2
import numpy as np

from dealer_assist.calibration.profile import Profile, TablePlane
from dealer_assist.vision.geometry import quad_centre
from dealer_assist.vision.readability import digit_px, explain_small

#: Scale of the top view, px per table mm: 4-mm serial digits become ~14 px tall.
#: On four synthetic 3840x2160 tables (48 notes) the reader trusted 41, 35, 40
#: and 42 notes at 2.5, 3, 3.5 and 4 px/mm, with one wrong serial at 3 and at 4.
TOP_VIEW_PX_PER_MM = 3.5
#: Longest side of the top view in px; larger tables get a smaller scale.
TOP_VIEW_MAX_SIDE = 4096


class NoteReader(Protocol):
    """What :func:`read_table` needs of :class:`dealer_assist.vision.reader.SerialReader`."""

    def read(self, image: np.ndarray) -> list: ...


@dataclass(frozen=True)
class TopView:
    """A rectified top view of the table.

    Attributes:
        image: ``uint8`` ``(H, W, 3)`` BGR; pixel (i, j) shows table point
            ``((i + 0.5) / px_per_mm, (j + 0.5) / px_per_mm)`` mm.
        px_per_mm: the view's scale.
        image_size: (width, height) of the photo it was made from.
    """

    image: np.ndarray
    px_per_mm: float
    image_size: tuple[int, int]

    def to_table_mm(self, points_px: np.ndarray) -> np.ndarray:
        """Top-view px ``(N, 2)`` to table mm ``(N, 2)``."""
        return (np.asarray(points_px, np.float64).reshape(-1, 2) + 0.5) / self.px_per_mm

    def from_table_mm(self, points_mm: np.ndarray) -> np.ndarray:
        """Table mm ``(N, 2)`` to top-view px ``(N, 2)``."""
        return np.asarray(points_mm, np.float64).reshape(-1, 2) * self.px_per_mm - 0.5


def top_view_scale(table_size_mm: Sequence[float], px_per_mm: float = TOP_VIEW_PX_PER_MM,
                   max_side: int = TOP_VIEW_MAX_SIDE) -> tuple[float, tuple[int, int]]:
    """The scale (px/mm) and size (width, height) px of a table's top view."""
    w, h = float(table_size_mm[0]), float(table_size_mm[1])
    ppm = min(px_per_mm, max_side / max(w, h))
    return ppm, (max(1, int(round(w * ppm))), max(1, int(round(h * ppm))))


def rectify_table(image: np.ndarray, profile: Profile, px_per_mm: float = TOP_VIEW_PX_PER_MM) -> TopView:
    """A top view of the table in ``image``.

    Args:
        image: ``uint8`` ``(H, W, 3)`` BGR photo at full resolution (any size
            with the calibration's aspect ratio).
        profile: a profile with a table section (and a camera section, used to undistort).
        px_per_mm: wanted scale (capped so the longer side stays within :data:`TOP_VIEW_MAX_SIDE`).

    Returns:
        The top view; table points outside the photo are black.

    Raises:
        CalibrationError: no table section, or a photo of another shape.
    """
    table = profile.require_table()
    size = (image.shape[1], image.shape[0])
    ppm, (tw, th) = top_view_scale(table.table_size_mm, px_per_mm)
    if profile.camera is None:
        sx, sy = profile._frame_scale(size)
        to_cal = np.diag([sx, sy, 1.0])
        # photo px -> calibration px -> table mm -> top-view px (pixel centres at (i + 0.5) / ppm mm)
        m = np.array([[ppm, 0, -0.5], [0, ppm, -0.5], [0, 0, 1.0]]) @ table.homography @ to_cal
        top = cv2.warpPerspective(image, m, (tw, th), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_CONSTANT)
        return TopView(top, ppm, size)
    # with lens distortion: map every top-view pixel back into the photo
    map_x = np.empty((th, tw), np.float32)
    map_y = np.empty((th, tw), np.float32)
    xs = (np.arange(tw) + 0.5) / ppm
    rows = max(1, 400_000 // tw)
    for y0 in range(0, th, rows):
        ys = (np.arange(y0, min(th, y0 + rows)) + 0.5) / ppm
        gx, gy = np.meshgrid(xs, ys)
        p = profile.to_image_px(np.column_stack([gx.ravel(), gy.ravel()]), size)
        map_x[y0:y0 + len(ys)] = p[:, 0].reshape(len(ys), tw)
        map_y[y0:y0 + len(ys)] = p[:, 1].reshape(len(ys), tw)
    top = cv2.remap(image, map_x, map_y, cv2.INTER_LINEAR, borderMode=cv2.BORDER_CONSTANT)
    return TopView(top, ppm, size)


@dataclass(frozen=True)
class TableNote:
    """One note found on a whole-table photo.

    Attributes:
        note: the reader's :class:`~dealer_assist.vision.reader.NoteRead`,
            its quad and its prints' quads in the photo's pixels.
        zone: ``"board"``, a seat name, or None (outside every zone), by :func:`note_zone`.
        anchor_mm: float64 ``(2,)``: the mean centre of its serial prints, table mm.
    """

    note: object
    zone: str | None
    anchor_mm: np.ndarray


def note_anchor(note) -> np.ndarray:
    """The point a read note is assigned by, float64 ``(2,)`` in the note's own pixel frame.

    The mean centre of its serial prints: they lie on the note, whereas the
    reader's note quad is extrapolated from them and can overshoot when only
    one print was found. Falls back to the quad's diagonal centre without prints.
    """
    prints = getattr(note, "prints", None) or []
    if prints:
        return np.mean([quad_centre(p.quad) for p in prints], axis=0)
    return quad_centre(note.quad)


#: A note whose prints lie in no zone still goes to the zone holding at least this share of its quad.
MAJORITY_SHARE = 0.5


def quad_zone_shares(table: TablePlane, quad_mm: np.ndarray, samples: int = 8) -> dict[str, float]:
    """Share of a note's area (quad ``(4, 2)`` in table mm) inside each zone, by a ``samples`` x ``samples`` grid."""
    q = np.asarray(quad_mm, np.float64).reshape(4, 2)
    t = (np.arange(samples) + 0.5) / samples
    u, v = np.meshgrid(t, t)
    u, v = u.ravel()[:, None], v.ravel()[:, None]
    pts = (1 - u) * (1 - v) * q[0] + u * (1 - v) * q[1] + u * v * q[2] + (1 - u) * v * q[3]
    shares: dict[str, float] = {}
    for z in table.zones:
        inside = sum(z.contains(p) for p in pts)
        if inside:
            shares[z.name] = inside / len(pts)
    return shares


def note_zone(table: TablePlane, anchor_mm: np.ndarray, quad_mm: np.ndarray) -> str | None:
    """The zone of one read note, in table mm.

    The zone holding the note's serial prints (``anchor_mm``, see
    :func:`note_anchor`); when they lie in no zone (a print near the note's
    edge, the note half off its seat), the zone holding at least
    :data:`MAJORITY_SHARE` of the note's quad; else None. On synthetic 4K
    tables (47 notes) the prints alone put 46 right, the quad's overlap alone
    46 (a one-print quad can overshoot into the next zone), both together 47.
    """
    z = table.zone_at_mm(np.asarray(anchor_mm, np.float64).ravel())
    if z is not None:
        return z
    shares = quad_zone_shares(table, quad_mm)
    if shares:
        name, share = max(shares.items(), key=lambda kv: kv[1])
        if share >= MAJORITY_SHARE:
            return name
    return None


def assign_reads(profile: Profile, notes: Sequence, image_size: Sequence[int] | None = None) -> list[str | None]:
    """The zone of each :class:`NoteRead` found directly in a photo (quads in its px), by :func:`note_zone`."""
    table = profile.require_table()
    return [note_zone(table, profile.to_table_mm(note_anchor(n), image_size)[0],
                      profile.to_table_mm(n.quad, image_size)) for n in notes]


def snap_to_outlines(image: np.ndarray, notes: Sequence, px_per_mm: float, aspect: float | None = None) -> list:
    """The notes with each quad replaced by the paper outline that holds its serial prints, where one does.

    A note the reader saw by one print (or by prints it could not read) is
    placed by a guess from that print, which lands well off the paper when the
    guess of the way up or of the print's size is wrong; the paper's own
    outline (:func:`~dealer_assist.vision.fastpath.find_note_quads`, paper
    against the table) is where the note is. The outline's corners are
    ordered to start nearest the guess's first corner (its top-left), so the
    way up the reader settled is kept. Notes outlined already, and notes with
    no single outline round their prints, keep their quad.

    Args:
        image: ``uint8`` ``(H, W, 3)`` BGR top view; px_per_mm: its scale.
        notes: :class:`~dealer_assist.vision.model.NoteRead` items in ``image`` px.
        aspect: the deck's width/height (default: the 1997-series note's).
    """
    from dealer_assist.vision.fastpath import find_note_quads
    from dealer_assist.vision.geometry import NOTE_SIZE_MM

    aspect = aspect or NOTE_SIZE_MM[0] / NOTE_SIZE_MM[1]
    note_px = NOTE_SIZE_MM[0] * NOTE_SIZE_MM[1] * px_per_mm ** 2
    outlines = find_note_quads(image, aspect, min_area_fraction=0.5 * note_px / (image.shape[0] * image.shape[1]))
    outlines = [q for q in outlines if cv2.contourArea(q) < 1.6 * note_px]
    gray = cv2.GaussianBlur(cv2.cvtColor(image, cv2.COLOR_BGR2GRAY), (5, 5), 0)
    _, paper = cv2.threshold(gray, 0, 1, cv2.THRESH_BINARY + cv2.THRESH_OTSU)
    out = []
    for n in notes:
        anchor = note_anchor(n)
        holding = [q for q in outlines
                   if cv2.pointPolygonTest(q.reshape(-1, 1, 2), (float(anchor[0]), float(anchor[1])), False) >= 0]
        if getattr(n, "outlined", False):
            out.append(n)
            continue
        if len(holding) != 1:
            out.append(_likeliest_placement(n, paper, px_per_mm))
            continue
        q = holding[0]
        guess = np.asarray(n.quad, np.float32)
        turns = [np.roll(q, -k, axis=0) for k in (0, 2)]  # the outline starts at a long side; keep that
        best = min(turns, key=lambda t: float(np.linalg.norm(t[0] - guess[0]) + np.linalg.norm(t[2] - guess[2])))
        out.append(dataclasses.replace(n, quad=best.astype(np.float32)))
    return out


def _likeliest_placement(note, paper: np.ndarray, px_per_mm: float):
    """A note seen by one print, placed where paper lies: of the four notes that print may belong to
    (it the top-right or the left print, either way up), the one over the most paper (``paper``: 1 where
    the view is lighter than the table, Otsu). Other notes are returned as they are."""
    from dealer_assist.vision.geometry import note_quad_from_print

    prints = getattr(note, "prints", None) or []
    if len(prints) != 1:
        return note
    line = np.asarray(prints[0].quad, np.float64)
    centre = line.mean(axis=0)
    candidates = []
    for which in ("top_right", "left"):
        q = note_quad_from_print(line, which, px_per_mm, dtype=np.float64)
        candidates.extend([q, (2 * centre - q)[[2, 3, 0, 1]]])

    def fill(q: np.ndarray) -> float:
        mask = np.zeros(paper.shape, np.uint8)
        cv2.fillConvexPoly(mask, np.round(q).astype(np.int32), 1)
        area = int(mask.sum())
        return float((paper & mask).sum()) / area if area else 0.0

    return dataclasses.replace(note, quad=max(candidates, key=fill).astype(np.float32))


def _to_photo(profile: Profile, view: TopView, quad: np.ndarray) -> np.ndarray:
    return profile.to_image_px(view.to_table_mm(quad), view.image_size).astype(np.float32)


def read_table(image: np.ndarray, profile: Profile, reader: NoteReader,
               px_per_mm: float = TOP_VIEW_PX_PER_MM) -> list[TableNote]:
    """Read every note on a whole-table photo and put each in its zone.

    Args:
        image: ``uint8`` ``(H, W, 3)`` BGR, full resolution.
        profile: with a table section.
        reader: e.g. ``SerialReader(RapidOcrEngine(det_max_side=TOP_VIEW_MAX_SIDE))``
            (its detector must not shrink the top view).
        px_per_mm: scale of the top view the reader sees.

    Returns:
        The notes in the reader's order, quads mapped back to ``image`` pixels.

    Raises:
        CalibrationError: no table section, or a photo of another shape.
    """
    from dealer_assist.calibration.resolution import axis_scales

    view = rectify_table(image, profile, px_per_mm)
    table = profile.require_table()
    out = []
    layout = profile.notes
    for n in snap_to_outlines(view.image, reader.read(view.image), view.px_per_mm,
                              layout.aspect if layout is not None else None):
        anchor = view.to_table_mm(note_anchor(n))[0]
        # the camera's own scale there (the view is upsampled): an unread note whose digits are below
        # the reader's floor says so
        n = explain_small(n, digit_px(float(axis_scales(profile, anchor, view.image_size).min())))
        zone = note_zone(table, anchor, view.to_table_mm(n.quad))
        prints = [dataclasses.replace(p, quad=_to_photo(profile, view, p.quad)) for p in n.prints]
        mapped = dataclasses.replace(n, quad=_to_photo(profile, view, n.quad), prints=prints)
        out.append(TableNote(mapped, zone, anchor))
    return out
