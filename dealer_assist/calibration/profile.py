"""Calibration profiles in memory: the camera, the table plane and its zones, the deck's note layout.

A :class:`Profile` carries the geometry of one table set-up (image px <->
table mm, which zone a note lies in). Its file format is
:mod:`.schema`; where profiles live on disk, :mod:`.store`.

Table frame: origin at the top-left corner of the playing surface as the
camera sees it, x to the right, y down towards the croupier, millimetres
(the same frame as :mod:`dealer_assist.synth.table`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from enum import StrEnum, unique
from pathlib import Path
from typing import Any, Sequence

import cv2
import numpy as np

from dealer_assist.vision.geometry import quad_centre

__all__ = ["SCHEMA", "VERSION", "CalibrationError", "ZoneKind", "is_seat_name", "CameraModel", "Zone", "TablePlane",
           "PrintLayout", "NoteLayout", "Profile", "apply_homography"]

SCHEMA = "dealer-assist/calibration"
VERSION = 1
#: Two image sizes with aspect ratios closer than this are taken as one camera frame, rescaled.
_ASPECT_TOLERANCE = 0.01
#: Iterations of OpenCV's point undistortion (its default of 5 leaves ~0.1 px at strong distortion).
_UNDISTORT_CRITERIA = (cv2.TERM_CRITERIA_COUNT | cv2.TERM_CRITERIA_EPS, 30, 1e-9)


class CalibrationError(ValueError):
    """A profile that is missing, unreadable, invalid or lacks a needed section; one plain sentence."""


@unique
class ZoneKind(StrEnum):
    """What a zone of the table is: the board (exactly one, named ``board``) or a seat."""

    BOARD = "board"
    SEAT = "seat"


def is_seat_name(name: str) -> bool:
    """Whether ``name`` can name a seat: letters (any script), digits, ``_`` and ``-``;
    not ``board``; no ``-N`` suffix (FORMATS.md §4 reads ``alice-2`` as alice's second note)."""
    return (bool(re.fullmatch(r"[\w-]{1,40}", name)) and name.lower() != "board"
            and not re.search(r"-\d+$", name))


# --------------------------------------------------------------------------- the runtime profile


@dataclass(frozen=True)
class CameraModel:
    """Pinhole intrinsics and lens distortion (OpenCV's model).

    Attributes:
        camera_matrix: float64 ``(3, 3)`` K in pixels.
        dist_coeffs: float64 ``(N,)``, N in 4, 5, 8, 12, 14 (k1, k2, p1, p2[, k3, ...]).
        image_size: (width, height) in pixels of the frames it was made from.
        rms: RMS reprojection error of the calibration in pixels, if known.
        views_used: chessboard views that went into it, if known.
        extra: other fields kept from the file (pattern, square size, ...).
    """

    camera_matrix: np.ndarray
    dist_coeffs: np.ndarray
    image_size: tuple[int, int]
    rms: float | None = None
    views_used: int | None = None
    extra: dict[str, Any] = field(default_factory=dict)

    def undistort_points(self, points_px: np.ndarray) -> np.ndarray:
        """Distorted image points ``(N, 2)`` px to the ideal pinhole image of the same K, ``(N, 2)`` float64 px."""
        p = np.asarray(points_px, np.float64).reshape(-1, 1, 2)
        if not len(p):
            return np.zeros((0, 2))
        out = cv2.undistortPoints(p, self.camera_matrix, self.dist_coeffs, P=self.camera_matrix, criteria=_UNDISTORT_CRITERIA)
        return out.reshape(-1, 2)

    def distort_points(self, points_px: np.ndarray) -> np.ndarray:
        """Inverse of :meth:`undistort_points`: ideal pinhole px ``(N, 2)`` to distorted px ``(N, 2)``."""
        p = np.asarray(points_px, np.float64).reshape(-1, 2)
        if not len(p):
            return np.zeros((0, 2))
        k = self.camera_matrix
        y = (p[:, 1] - k[1, 2]) / k[1, 1]
        x = (p[:, 0] - k[0, 2] - k[0, 1] * y) / k[0, 0]
        obj = np.column_stack([x, y, np.ones(len(p))]).reshape(-1, 1, 3)
        out, _ = cv2.projectPoints(obj, np.zeros(3), np.zeros(3), k, self.dist_coeffs)
        return out.reshape(-1, 2)

    def to_json(self) -> dict[str, Any]:
        obj = {
            "camera_matrix": self.camera_matrix.tolist(),
            "dist_coeffs": self.dist_coeffs.ravel().tolist(),
            "image_size": list(self.image_size),
            "rms": self.rms,
            "views_used": self.views_used,
        }
        return {**self.extra, **obj}


@dataclass(frozen=True)
class Zone:
    """A named area of the table: the ``board`` or one seat.

    Attributes:
        name: ``"board"`` or the seat's name.
        kind: :class:`ZoneKind` (``"board"`` or ``"seat"``).
        polygon_mm: float64 ``(N, 2)`` vertices in table millimetres.
    """

    name: str
    kind: str
    polygon_mm: np.ndarray

    def contains(self, point_mm: Sequence[float]) -> bool:
        """Whether ``point_mm`` (x, y) in table mm lies inside the polygon or on its edge."""
        pt = (float(point_mm[0]), float(point_mm[1]))
        return cv2.pointPolygonTest(self.polygon_mm.astype(np.float32).reshape(-1, 1, 2), pt, False) >= 0

    @property
    def centre_mm(self) -> np.ndarray:
        """The polygon's centroid, float64 ``(2,)`` mm."""
        m = cv2.moments(self.polygon_mm.astype(np.float32))
        if abs(m["m00"]) < 1e-9:
            return self.polygon_mm.mean(axis=0)
        return np.array([m["m10"] / m["m00"], m["m01"] / m["m00"]])

    def to_json(self) -> dict[str, Any]:
        return {"name": self.name, "kind": self.kind,
                "polygon_mm": [[round(float(x), 3), round(float(y), 3)] for x, y in self.polygon_mm]}


@dataclass(frozen=True)
class TablePlane:
    """The table plane as seen by one camera, and its zones.

    Attributes:
        image_size: (width, height) px of the photos the homography was made on.
        homography: float64 ``(3, 3)``: undistorted image px -> table mm
            (plain image px when the profile has no camera section).
        table_size_mm: (width, height) of the playing surface in mm.
        zones: the board first, then the seats in clockwise order (as seen from above).
        extra: other fields kept from the file (how it was made, fit errors, ...).
    """

    image_size: tuple[int, int]
    homography: np.ndarray
    table_size_mm: tuple[float, float]
    zones: tuple[Zone, ...]
    extra: dict[str, Any] = field(default_factory=dict)

    @property
    def seats(self) -> list[str]:
        """Seat names in clockwise order."""
        return [z.name for z in self.zones if z.kind == ZoneKind.SEAT]

    @property
    def board(self) -> Zone | None:
        """The board zone; ``None`` for a table of Indian poker only (RULES.md §7: no board)."""
        return next((z for z in self.zones if z.kind == ZoneKind.BOARD), None)

    def zone(self, name: str) -> Zone:
        """The zone called ``name``; ``KeyError`` when there is none."""
        for z in self.zones:
            if z.name == name:
                return z
        raise KeyError(name)

    def zone_at_mm(self, point_mm: Sequence[float]) -> str | None:
        """Name of the zone holding ``point_mm`` (board first, then seats in order), or None."""
        for z in self.zones:
            if z.contains(point_mm):
                return z.name
        return None

    def to_json(self) -> dict[str, Any]:
        obj = {
            "image_size": list(self.image_size),
            "homography": self.homography.tolist(),
            "table_size_mm": [float(v) for v in self.table_size_mm],
            "zones": [z.to_json() for z in self.zones],
        }
        return {**self.extra, **obj}


@dataclass(frozen=True)
class PrintLayout:
    """Where one serial print lies on the upright, rectified note.

    Attributes:
        name: ``"top_right"`` or ``"left"`` (1997-series layout), or ``"print_N"``.
        box: (x0, y0, x1, y1) normalised 0..1 of the note's width and height.
        colour_bgr: dominant ink colour, BGR 0..255, if measured.
        colour: a plain name for it (``"red"``, ``"dark"``, ...), if measured.
    """

    name: str
    box: tuple[float, float, float, float]
    colour_bgr: tuple[float, float, float] | None = None
    colour: str | None = None


@dataclass(frozen=True)
class NoteLayout:
    """A deck's note layout, learned by ``dealer-assist calibrate notes``.

    Attributes:
        aspect: width / height of the note (a 1997-series note: 157 / 69 = 2.28).
        prints: the serial prints on the upright note.
        samples: how many photos of the sample note it was learned from.
        extra: other fields kept from the file (per-photo spreads, ...).
    """

    aspect: float
    prints: tuple[PrintLayout, ...]
    samples: int
    extra: dict[str, Any] = field(default_factory=dict)

    def print_rois(self, note_size_px: tuple[int, int], margin: float = 0.0,
                   upside_down: bool = False) -> list[tuple[str, tuple[int, int, int, int]]]:
        """The print ROIs on a rectified note image.

        Args:
            note_size_px: (width, height) of the rectified note image in pixels.
            margin: grow every box by this fraction of its own height on each
                side (0.5 leaves room for a quad that is a little off).
            upside_down: the note was rectified with its header at the bottom
                (turned 180°); the boxes are turned with it.

        Returns:
            ``[(name, (x0, y0, x1, y1))]``: integer pixel bounds, x1/y1
            exclusive, clipped to the image (so ``note[y0:y1, x0:x1]`` is the ROI).
        """
        w, h = note_size_px
        out = []
        for p in self.prints:
            x0, y0, x1, y1 = p.box
            if upside_down:
                x0, y0, x1, y1 = 1 - x1, 1 - y1, 1 - x0, 1 - y0
            m = margin * (y1 - y0)
            mx = m * h / w  # the margin in x, as a fraction of the width
            bx = (max(0, int(np.floor((x0 - mx) * w))), max(0, int(np.floor((y0 - m) * h))),
                  min(w, int(np.ceil((x1 + mx) * w))), min(h, int(np.ceil((y1 + m) * h))))
            out.append((p.name, bx))
        return out

    def to_json(self) -> dict[str, Any]:
        prints = []
        for p in self.prints:
            d: dict[str, Any] = {"name": p.name, "box": [round(float(v), 4) for v in p.box]}
            if p.colour_bgr is not None:
                d["colour_bgr"] = [round(float(v), 1) for v in p.colour_bgr]
            if p.colour is not None:
                d["colour"] = p.colour
            prints.append(d)
        return {**self.extra, "aspect": round(float(self.aspect), 4), "prints": prints, "samples": self.samples}


@dataclass(frozen=True)
class Profile:
    """One calibration profile: camera, table plane and zones, note layout.

    Every section is optional in the file; the methods that need the table
    raise :class:`CalibrationError` when it is missing. Methods take image
    points in the pixels of the photo at hand: pass ``image_size`` when that
    photo may differ in size from the calibration's (a downscaled copy of the
    same camera frame is rescaled; another aspect ratio is an error).

    Attributes:
        name: the file's stem (``"sample_table_1"``).
        path: where it was loaded from or saved to (None when built in memory).
        camera, table, notes: the sections, or None.
    """

    name: str
    path: Path | None = None
    camera: CameraModel | None = None
    table: TablePlane | None = None
    notes: NoteLayout | None = None

    # -- sections ------------------------------------------------------------
    def require_table(self) -> TablePlane:
        """The table section; :class:`CalibrationError` when the profile has none."""
        if self.table is None:
            raise CalibrationError(
                f"The calibration '{self.name}' has no table section: run `dealer-assist calibrate table` first.")
        return self.table

    @property
    def seats(self) -> list[str]:
        """Seat names in clockwise order (needs the table section)."""
        return self.require_table().seats

    @property
    def image_size(self) -> tuple[int, int] | None:
        """(width, height) px of the frames this profile was made on, if known."""
        if self.table is not None:
            return self.table.image_size
        if self.camera is not None:
            return self.camera.image_size
        return None

    # -- coordinates ---------------------------------------------------------
    def _frame_scale(self, image_size: Sequence[int] | None) -> tuple[float, float]:
        """Factors from the given photo's px to the calibration's px (1, 1 when equal)."""
        ref = self.image_size
        if image_size is None or ref is None or tuple(image_size) == tuple(ref):
            return 1.0, 1.0
        w, h = int(image_size[0]), int(image_size[1])
        if abs((w / h) / (ref[0] / ref[1]) - 1) > _ASPECT_TOLERANCE:
            raise CalibrationError(
                f"The photo is {w}x{h} px but the calibration '{self.name}' was made on {ref[0]}x{ref[1]} px "
                f"frames of another shape: ask the camera for that size (--camera-size {ref[0]}x{ref[1]}), or "
                f"calibrate this set-up again (dealer-assist calibrate table --camera N ... --output {self.name}).")
        return ref[0] / w, ref[1] / h

    def to_table_mm(self, points_px: np.ndarray, image_size: Sequence[int] | None = None) -> np.ndarray:
        """Image points to the table plane.

        Args:
            points_px: ``(N, 2)`` (or ``(2,)``) image pixels of the photo at hand.
            image_size: (width, height) of that photo; None means the calibration's size.

        Returns:
            float64 ``(N, 2)`` table millimetres (undistorted first when the profile has a camera section).

        Raises:
            CalibrationError: no table section, or a photo of another shape.
        """
        table = self.require_table()
        sx, sy = self._frame_scale(image_size)
        p = np.asarray(points_px, np.float64).reshape(-1, 2) * [sx, sy]
        if self.camera is not None:
            p = self.camera.undistort_points(p)
        return apply_homography(table.homography, p)

    def to_image_px(self, points_mm: np.ndarray, image_size: Sequence[int] | None = None) -> np.ndarray:
        """Table points ``(N, 2)`` mm to image pixels ``(N, 2)`` of a photo of ``image_size``
        (distorted when the profile has a camera section). Inverse of :meth:`to_table_mm`."""
        table = self.require_table()
        sx, sy = self._frame_scale(image_size)
        p = apply_homography(np.linalg.inv(table.homography), np.asarray(points_mm, np.float64).reshape(-1, 2))
        if self.camera is not None:
            p = self.camera.distort_points(p)
        return p / [sx, sy]

    # -- zones ---------------------------------------------------------------
    def zone_of(self, point_px: Sequence[float], image_size: Sequence[int] | None = None) -> str | None:
        """The zone an image point falls in.

        Args:
            point_px: (x, y) image pixels, e.g. a note quad's centre.
            image_size: (width, height) of the photo, when it may differ from the calibration's.

        Returns:
            ``"board"``, a seat name, or None when the point lies in no zone
            (board first when zones overlap, then the seats in clockwise order).

        Raises:
            CalibrationError: no table section, or a photo of another shape.
        """
        mm = self.to_table_mm(np.asarray(point_px, np.float64).reshape(1, 2), image_size)[0]
        return self.require_table().zone_at_mm(mm)

    def quad_centre_mm(self, quad_px: np.ndarray, image_size: Sequence[int] | None = None) -> np.ndarray:
        """Centre in table mm ``(2,)`` of a note given by its image quad ``(4, 2)`` px.

        The corners are mapped to the table first and the centre is where the
        diagonals cross there: the true centre of a flat rectangle, which the
        mean of the image corners is not under perspective.
        """
        q = self.to_table_mm(np.asarray(quad_px, np.float64).reshape(4, 2), image_size)
        return quad_centre(q)

    def assign_notes(self, quads: Sequence[np.ndarray], image_size: Sequence[int] | None = None) -> list[str | None]:
        """The zone of each note quad (``(4, 2)`` image px each), by its centre on the table.

        Returns one entry per quad: ``"board"``, a seat name, or None.
        Raises :class:`CalibrationError` as :meth:`zone_of`.
        """
        table = self.require_table()
        return [table.zone_at_mm(self.quad_centre_mm(q, image_size)) for q in quads]

    def to_json(self) -> dict[str, Any]:
        """The profile as stored (schema, version, sections present)."""
        obj: dict[str, Any] = {"schema": SCHEMA, "version": VERSION}
        if self.camera is not None:
            obj["camera"] = self.camera.to_json()
        if self.table is not None:
            obj["table"] = self.table.to_json()
        if self.notes is not None:
            obj["notes"] = self.notes.to_json()
        return obj


def apply_homography(h: np.ndarray, pts: np.ndarray) -> np.ndarray:
    """Points ``(N, 2)`` through the 3x3 homography ``h``, float64 ``(N, 2)``."""
    if not len(pts):
        return np.zeros((0, 2))
    q = np.column_stack([pts, np.ones(len(pts))]) @ np.asarray(h, np.float64).T
    return q[:, :2] / q[:, 2:3]
