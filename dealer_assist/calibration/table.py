"""The table plane and its zones: homography from corners or ArUco markers, zone layouts.

Pure functions over numpy arrays (no windows, no files). Table frame as in
:mod:`.profile`: origin at the playing surface's top-left corner as the camera
sees it, x right, y down towards the croupier, millimetres.

Markers (``--aruco``): four ArUco markers of ``DICT_4X4_50`` with ids 0, 1, 2,
3 lie at the table's corners clockwise from the top-left, upright in the
table frame (a marker's own top-left corner towards the table's top-left),
their centres ``inset_mm`` in from both edges of their corner and their black
squares ``size_mm`` wide. The defaults (56 mm squares, centres 45 mm in) are
those of the renderer, :class:`dealer_assist.synth.table.TableLayout`. The
four corners of every black square are used (16 points), so the homography
does not rest on four clicks.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Sequence

import cv2
import numpy as np

from dealer_assist.calibration.profile import CalibrationError, Zone, ZoneKind, apply_homography, is_seat_name
from dealer_assist.vision.geometry import NOTE_SIZE_MM

#: ArUco dictionary of the table markers.
ARUCO_DICTIONARY = cv2.aruco.DICT_4X4_50
#: Marker ids at the table corners, clockwise from the top-left.
CORNER_MARKER_IDS = (0, 1, 2, 3)

# Automatic zone layout (see auto_zones); the renderer's make_table uses the same numbers.
#: Gap between two board notes and the board zone's extra width/height, mm.
BOARD_NOTE_GAP_MM, BOARD_MARGIN_W_MM, BOARD_MARGIN_H_MM = 25.0, 40.0, 70.0
#: How far the ellipse the seats sit on lies inside the table edge (x, y), mm.
SEAT_INSET_MM = (125.0, 120.0)
#: A seat zone holds two pocket notes one above the other: extra width and height, mm.
SEAT_MARGIN_W_MM, SEAT_MARGIN_H_MM = 70.0, 60.0


@dataclass(frozen=True)
class MarkerLayout:
    """Where the corner markers lie on the table.

    Attributes:
        size_mm: side of each marker's black square, mm.
        inset_mm: distance of each marker's centre from both edges of its corner, mm.
        ids: marker ids at the top-left, top-right, bottom-right, bottom-left corners.
    """

    size_mm: float = 56.0
    inset_mm: float = 45.0
    ids: tuple[int, int, int, int] = CORNER_MARKER_IDS

    def corners_mm(self, table_size_mm: Sequence[float]) -> dict[int, np.ndarray]:
        """Each marker's black-square corners ``(4, 2)`` mm (its own TL, TR, BR, BL), by id."""
        w, h = float(table_size_mm[0]), float(table_size_mm[1])
        d, s = self.inset_mm, self.size_mm / 2
        centres = [(d, d), (w - d, d), (w - d, h - d), (d, h - d)]
        local = np.array([[-s, -s], [s, -s], [s, s], [-s, s]])
        return {mid: np.asarray(c) + local for mid, c in zip(self.ids, centres)}


@dataclass(frozen=True)
class PlaneFit:
    """A fitted table plane.

    Attributes:
        homography: float64 ``(3, 3)`` image px -> table mm.
        table_size_mm: (width, height) mm (given, or measured from the markers).
        rms_px: RMS distance between the detected and the re-projected points, px.
        points: how many point pairs went into the fit.
        measured_size_mm: the size the markers alone give (None for corner clicks).
    """

    homography: np.ndarray
    table_size_mm: tuple[float, float]
    rms_px: float
    points: int
    measured_size_mm: tuple[float, float] | None = None


def table_corners_mm(table_size_mm: Sequence[float]) -> np.ndarray:
    """(4, 2) corners of the playing surface, clockwise from the top-left, mm."""
    w, h = float(table_size_mm[0]), float(table_size_mm[1])
    return np.array([[0, 0], [w, 0], [w, h], [0, h]], np.float64)


def homography_from_corners(corners_px: np.ndarray, table_size_mm: Sequence[float]) -> PlaneFit:
    """The plane from the four table corners in the image.

    Args:
        corners_px: ``(4, 2)`` image px, clockwise from the table's top-left
            (undistorted already when a camera model exists).
        table_size_mm: (width, height) of the playing surface, mm.

    Raises:
        CalibrationError: the corners do not make a convex quad in clockwise order.
    """
    c = np.asarray(corners_px, np.float64).reshape(4, 2)
    _check_quad(c)
    h = cv2.getPerspectiveTransform(c.astype(np.float32), table_corners_mm(table_size_mm).astype(np.float32))
    h = h / h[2, 2]
    return PlaneFit(h, (float(table_size_mm[0]), float(table_size_mm[1])), 0.0, 4)


def _check_quad(c: np.ndarray) -> None:
    cross = []
    for i in range(4):
        a, b, d = c[i], c[(i + 1) % 4], c[(i + 2) % 4]
        cross.append((b[0] - a[0]) * (d[1] - b[1]) - (b[1] - a[1]) * (d[0] - b[0]))
    cross = np.array(cross)
    if not (cross > 0).all():
        if (cross < 0).all():
            raise CalibrationError(
                "The four corners go anticlockwise: give them clockwise from the table's top-left corner.")
        raise CalibrationError("The four corners do not make a convex quadrilateral: check their order and values.")


#: A fitted plane is refused when less than this share of the table's surface lies in the photo.
MIN_SHARE_IN_PHOTO = 0.5


def share_in_photo(homography: np.ndarray, table_size_mm: Sequence[float], image_size: Sequence[int],
                   samples: int = 40) -> float:
    """The share, 0..1, of the playing surface that a fitted plane puts inside the photo.

    Args:
        homography: float64 ``(3, 3)`` image px -> table mm (as :class:`PlaneFit`).
        table_size_mm: (width, height) of the playing surface, mm.
        image_size: (width, height) of the photo, px.
        samples: the surface is sampled at the centres of ``samples x samples`` cells.

    Returns:
        The fraction of sample points whose image lies inside the photo; 0.0
        when the plane passes through the camera's horizon between the table's
        corners (part of the table would lie behind the camera: no real view).
        Undistorted px are compared with the photo's bounds, which is close
        enough to tell a table in view from one mostly out of it.
    """
    w, h = float(table_size_mm[0]), float(table_size_mm[1])
    g = np.linalg.inv(np.asarray(homography, np.float64))  # table mm -> image px
    corners = np.column_stack([table_corners_mm((w, h)), np.ones(4)]) @ g.T
    if not ((corners[:, 2] > 0).all() or (corners[:, 2] < 0).all()):
        return 0.0
    u = (np.arange(samples) + 0.5) / samples
    gx, gy = np.meshgrid(u * w, u * h)
    px = apply_homography(g, np.column_stack([gx.ravel(), gy.ravel()]))
    iw, ih = float(image_size[0]), float(image_size[1])
    inside = (px[:, 0] >= 0) & (px[:, 0] <= iw) & (px[:, 1] >= 0) & (px[:, 1] <= ih)
    return float(inside.mean())


def detect_markers(image: np.ndarray, dictionary: int = ARUCO_DICTIONARY) -> dict[int, np.ndarray]:
    """Every ArUco marker of ``dictionary`` in ``image``.

    Args:
        image: ``uint8`` ``(H, W, 3)`` BGR or ``(H, W)`` grey.

    Returns:
        ``{id: corners}``, corners float64 ``(4, 2)`` image px in the marker's
        own order (its top-left, top-right, bottom-right, bottom-left), refined
        to sub-pixel. An id seen twice keeps its larger copy.
    """
    gray = image if image.ndim == 2 else cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
    params = cv2.aruco.DetectorParameters()
    params.cornerRefinementMethod = cv2.aruco.CORNER_REFINE_SUBPIX
    detector = cv2.aruco.ArucoDetector(cv2.aruco.getPredefinedDictionary(dictionary), params)
    corners, ids, _ = detector.detectMarkers(gray)
    found: dict[int, np.ndarray] = {}
    if ids is None:
        return found
    for c, i in zip(corners, ids.ravel()):
        c = np.asarray(c, np.float64).reshape(4, 2)
        mid = int(i)
        if mid not in found or cv2.contourArea(c.astype(np.float32)) > cv2.contourArea(found[mid].astype(np.float32)):
            found[mid] = c
    return found


def _fit(pairs_mm: np.ndarray, pairs_px: np.ndarray) -> tuple[np.ndarray, float]:
    """Least-squares homography mm -> px (DLT + LM refinement); returns (H px->mm, rms px)."""
    g, _ = cv2.findHomography(pairs_mm.astype(np.float64), pairs_px.astype(np.float64), 0)
    if g is None:
        raise CalibrationError("The markers do not determine the table plane (they may lie on one line).")
    err = apply_homography(g, pairs_mm) - pairs_px
    h = np.linalg.inv(g)
    return h / h[2, 2], float(np.sqrt((err ** 2).sum(axis=1).mean()))


def homography_from_markers(markers_px: dict[int, np.ndarray], table_size_mm: Sequence[float] | None = None,
                            layout: MarkerLayout = MarkerLayout()) -> PlaneFit:
    """The plane from the corner markers' 16 corners.

    Args:
        markers_px: from :func:`detect_markers` (undistorted already when a
            camera model exists); other ids are ignored.
        table_size_mm: (width, height) mm. None: measured from the markers
            (their known size gives the scale); then all four are needed.
        layout: the markers' size and inset.

    Returns:
        The fit; ``measured_size_mm`` is set whenever all four markers were found,
        so a given size can be checked against it.

    Raises:
        CalibrationError: fewer markers than needed (naming the missing ids).
    """
    have = [i for i in layout.ids if i in markers_px]
    missing = [i for i in layout.ids if i not in markers_px]
    measured = None
    if len(have) == 4:
        measured = _measure_size(markers_px, layout)
    if table_size_mm is None:
        if measured is None:
            raise CalibrationError(
                f"ArUco marker(s) {', '.join(map(str, missing))} not found: all four corner markers (ids 0-3, "
                f"DICT_4X4_50) are needed to measure the table; give --table-mm W,H to use the others.")
        table_size_mm = measured
    elif len(have) < 3:
        raise CalibrationError(
            f"Only {len(have)} corner marker(s) found (ids 0-3, DICT_4X4_50; missing {', '.join(map(str, missing))}): "
            f"at least three are needed.")
    corners = layout.corners_mm(table_size_mm)
    mm = np.concatenate([corners[i] for i in have])
    px = np.concatenate([np.asarray(markers_px[i], np.float64).reshape(4, 2) for i in have])
    h, rms = _fit(mm, px)
    return PlaneFit(h, (float(table_size_mm[0]), float(table_size_mm[1])), rms, len(mm), measured)


def _measure_size(markers_px: dict[int, np.ndarray], layout: MarkerLayout) -> tuple[float, float]:
    """Table (width, height) mm that best explains the four markers' 16 corners.

    A first guess comes from the marker centres: in the projective frame where
    they form a unit square, each marker's width is ``size / (W - 2 inset)``.
    Then (W, H) are refined by Gauss-Newton on the re-projection error of the
    best homography for each (W, H).
    """
    centres = np.array([np.asarray(markers_px[i]).reshape(4, 2).mean(axis=0) for i in layout.ids], np.float32)
    unit = np.array([[0, 0], [1, 0], [1, 1], [0, 1]], np.float32)
    hc = cv2.getPerspectiveTransform(centres, unit)
    su, sv = [], []
    for i in layout.ids:
        q = apply_homography(hc, np.asarray(markers_px[i], np.float64).reshape(4, 2))
        su.append((np.linalg.norm(q[1] - q[0]) + np.linalg.norm(q[2] - q[3])) / 2)
        sv.append((np.linalg.norm(q[3] - q[0]) + np.linalg.norm(q[2] - q[1])) / 2)
    d, s = layout.inset_mm, layout.size_mm
    x = np.array([2 * d + s / max(float(np.mean(su)), 1e-9), 2 * d + s / max(float(np.mean(sv)), 1e-9)])
    px = np.concatenate([np.asarray(markers_px[i], np.float64).reshape(4, 2) for i in layout.ids])

    def residual(size: np.ndarray) -> np.ndarray:
        corners = layout.corners_mm(size)
        mm = np.concatenate([corners[i] for i in layout.ids])
        g, _ = cv2.findHomography(mm, px, 0)
        return (apply_homography(g, mm) - px).ravel()

    for _ in range(20):
        r = residual(x)
        jac = np.empty((len(r), 2))
        for k in range(2):
            step = np.zeros(2)
            step[k] = 1e-3 * x[k]
            jac[:, k] = (residual(x + step) - r) / step[k]
        delta, *_ = np.linalg.lstsq(jac, -r, rcond=None)
        x = x + delta
        if np.abs(delta).max() < 1e-3:
            break
    return float(x[0]), float(x[1])


# --------------------------------------------------------------------------- zones


def _rect(cx: float, cy: float, w: float, h: float, angle_deg: float) -> np.ndarray:
    a = np.deg2rad(angle_deg)
    ca, sa = np.cos(a), np.sin(a)
    local = np.array([[-w / 2, -h / 2], [w / 2, -h / 2], [w / 2, h / 2], [-w / 2, h / 2]])
    return np.column_stack([cx + ca * local[:, 0] - sa * local[:, 1], cy + sa * local[:, 0] + ca * local[:, 1]])


def auto_zones(seats: Sequence[str], table_size_mm: Sequence[float],
               note_size_mm: Sequence[float] = NOTE_SIZE_MM) -> list[Zone]:
    """The automatic layout: the board in the centre, the seats evenly round the edge.

    * board: a rectangle at the table's centre holding three notes in a row
      (``3 w + 2·25 + 40`` by ``h + 70`` mm for notes of ``w x h`` mm);
    * seats: on an ellipse ``125 / 120`` mm inside the edge, evenly spaced,
      **clockwise as seen from above starting just left of the croupier's
      place at the middle of the bottom edge** (seat 1 at bottom-left, then up
      the left side, along the top and down the right side); each a rectangle
      ``w + 70`` by ``2 h + 60`` mm (two pocket notes) along the ellipse.

    Args:
        seats: 2..10 seat names in clockwise order.
        table_size_mm: (width, height) of the playing surface.

    Returns:
        Zones, board first.

    Raises:
        CalibrationError: bad or repeated names, a seat count out of range, or
            a table too small for this layout (give a zones file instead).
    """
    seats = list(seats)
    _check_seats(seats)
    if not 2 <= len(seats) <= 10:
        raise CalibrationError(f"The automatic layout takes 2 to 10 seats, not {len(seats)}.")
    w, h = float(table_size_mm[0]), float(table_size_mm[1])
    nw, nh = float(note_size_mm[0]), float(note_size_mm[1])
    board_w, board_h = 3 * nw + 2 * BOARD_NOTE_GAP_MM + BOARD_MARGIN_W_MM, nh + BOARD_MARGIN_H_MM
    seat_w, seat_h = nw + SEAT_MARGIN_W_MM, 2 * nh + SEAT_MARGIN_H_MM
    rx, ry = w / 2 - SEAT_INSET_MM[0], h / 2 - SEAT_INSET_MM[1]
    if board_w > w or board_h > h or rx < board_w / 2 or ry < board_h / 2:
        raise CalibrationError(
            f"A {w:g} x {h:g} mm table is too small for the automatic layout (board {board_w:g} x {board_h:g} mm "
            f"plus seats round it): give the zones in a JSON file with --zones.")
    cx, cy = w / 2, h / 2
    zones = [Zone("board", ZoneKind.BOARD, _rect(cx, cy, board_w, board_h, 0.0))]
    n = len(seats)
    for i, name in enumerate(seats):
        phi = np.deg2rad(90 + (i + 0.5) * 360 / n)
        sx, sy = cx + rx * np.cos(phi), cy + ry * np.sin(phi)
        tangent = np.rad2deg(np.arctan2(ry * np.cos(phi), -rx * np.sin(phi)))
        zones.append(Zone(name, ZoneKind.SEAT, _rect(sx, sy, seat_w, seat_h, tangent)))
    return zones


#: Seat zones overlapping by more than this (mm², about a fingertip) are refused: a note there would lie in two
#: seats.
MAX_ZONE_OVERLAP_MM2 = 100.0


def _overlap_mm2(a: np.ndarray, b: np.ndarray) -> float:
    """The area (mm²) two zone polygons share; exact for convex ones, rasterised at 2 px/mm otherwise."""
    pa, pb = a.astype(np.float32), b.astype(np.float32)
    if cv2.isContourConvex(pa) and cv2.isContourConvex(pb):
        return float(cv2.intersectConvexConvex(pa, pb)[0])
    lo, hi = np.maximum(pa.min(0), pb.min(0)), np.minimum(pa.max(0), pb.max(0))
    if (hi <= lo).any():
        return 0.0
    scale = min(2.0, 4000.0 / float(max(hi - lo)))
    w, h = (np.ceil((hi - lo) * scale) + 1).astype(int)
    masks = []
    for p in (pa, pb):
        mask = np.zeros((h, w), np.uint8)
        cv2.fillPoly(mask, [np.round((p - lo) * scale).astype(np.int32)], 1)
        masks.append(cv2.erode(mask, np.ones((3, 3), np.uint8)))  # a shared edge is no overlap
    return float(np.count_nonzero(masks[0] & masks[1])) / scale ** 2


def check_zones_apart(zones: Sequence[Zone], source: str = "the zones") -> None:
    """Refuse seat zones that overlap (by more than :data:`MAX_ZONE_OVERLAP_MM2`): a note lying in both would
    be given to one player by the order of the zones, not by where it lies. ``calibrate table --zones``
    applies it; the board may overlap a seat's corner. (The automatic layout is not checked: with 7 or more
    seats on a 1000 x 700 mm table its seat zones overlap, and the synthetic scenes use it.)

    Raises:
        CalibrationError: one sentence naming the first two seat zones that overlap.
    """
    seats = [z for z in zones if z.kind == ZoneKind.SEAT]
    for i, a in enumerate(seats):
        for b in seats[i + 1:]:
            shared = _overlap_mm2(a.polygon_mm, b.polygon_mm)
            if shared > MAX_ZONE_OVERLAP_MM2:
                raise CalibrationError(
                    f"{source}: the zones {a.name} and {b.name} overlap ({shared:.0f} mm² in common), so a note "
                    f"lying there would belong to both; make them apart.")


def _check_seats(seats: Sequence[str]) -> None:
    for s in seats:
        if not is_seat_name(s):
            raise CalibrationError(
                f"{s!r} cannot name a seat: use letters, digits, _ and -, without a -N ending, and not 'board'.")
    dup = sorted({s for s in seats if list(seats).count(s) > 1})
    if dup:
        raise CalibrationError(f"Seat name(s) given twice: {', '.join(dup)}.")


def zones_from_json(obj: Any, source: str = "the zones file") -> list[Zone]:
    """Zones from a JSON value, in table mm.

    Accepted forms: a list of ``{"name", "kind": "board"|"seat", "polygon_mm":
    [[x, y], ...]}`` (board plus seats in clockwise order), or an object
    holding such a list under ``"zones"`` (a profile's table section, or a
    renderer's truth ``table``), or ``{"board": [[x, y], ...], "seats":
    [{"name": ..., "polygon_mm": ...}, ...]}``.

    Raises:
        CalibrationError: anything else, naming the first problem.
    """
    if isinstance(obj, dict) and "zones" in obj:
        obj = obj["zones"]
    elif isinstance(obj, dict) and "table" in obj and isinstance(obj["table"], dict):
        obj = obj["table"].get("zones")
    elif isinstance(obj, dict) and "board" in obj and "seats" in obj:
        seats = obj["seats"] if isinstance(obj["seats"], list) else []
        obj = [{"name": "board", "kind": "board", "polygon_mm": obj["board"]}] + [
            {**s, "kind": "seat"} for s in seats if isinstance(s, dict)]
    if not isinstance(obj, list) or not obj:
        raise CalibrationError(f"{source} holds no zone list (see `dealer-assist calibrate table --help`).")
    zones: list[Zone] = []
    for k, z in enumerate(obj, 1):
        if not isinstance(z, dict):
            raise CalibrationError(f"{source}: zone {k} is not a JSON object.")
        name, kind, poly = z.get("name"), z.get("kind"), z.get("polygon_mm")
        if kind not in tuple(ZoneKind) or not isinstance(name, str):
            raise CalibrationError(f"{source}: zone {k} needs a \"name\" and a \"kind\" of board or seat.")
        try:
            p = np.asarray(poly, np.float64)
        except (TypeError, ValueError):
            p = np.zeros((0,))
        if p.ndim != 2 or p.shape[1] != 2 or len(p) < 3 or not np.isfinite(p).all():
            raise CalibrationError(f"{source}: zone {name!r} needs \"polygon_mm\": at least three [x, y] points in mm.")
        if abs(cv2.contourArea(p.astype(np.float32))) < 1.0:
            raise CalibrationError(f"{source}: zone {name!r} has a polygon without area.")
        zones.append(Zone(name, ZoneKind(kind), p))
    boards = [z for z in zones if z.kind == ZoneKind.BOARD]
    if len(boards) > 1 or (boards and boards[0].name != "board"):
        raise CalibrationError(f"{source}: at most one zone may be the board (kind and name \"board\").")
    seats = [z for z in zones if z.kind == ZoneKind.SEAT]
    _check_seats([z.name for z in seats])
    if not seats:
        raise CalibrationError(f"{source}: there is no seat zone.")
    if not boards and len(seats) < 2:
        raise CalibrationError(f"{source}: there is no board zone and only 1 seat zone; a table needs a board zone "
                               f"(kind and name \"board\"), or 2 seats or more for Indian poker, which has no board.")
    return boards + seats
