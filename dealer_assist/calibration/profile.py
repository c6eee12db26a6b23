"""Calibration profiles: one JSON file per table set-up, and the geometry they carry.

A profile is ``calibration/<name>.json`` in the repository (or the folder named
by ``DEALER_ASSIST_CALIBRATION_DIR``), or any path ending in ``.json``::

    {"schema": "dealer-assist/calibration", "version": 1,
     "camera": {                                  # optional (calibrate camera)
        "camera_matrix": [[fx, 0, cx], [0, fy, cy], [0, 0, 1]],   # pixels
        "dist_coeffs": [k1, k2, p1, p2, k3],      # OpenCV's order
        "image_size": [w, h], "rms": 0.31, "views_used": 14},
     "table": {                                   # optional (calibrate table)
        "image_size": [w, h],                     # the photos it was made on, px
        "homography": [[...], [...], [...]],      # image px -> table mm (3x3);
                                                  # on undistorted px when "camera" exists
        "table_size_mm": [1000, 700],
        "zones": [{"name": "board", "kind": "board", "polygon_mm": [[x, y], ...]},
                  {"name": "alice", "kind": "seat", "polygon_mm": [...]}, ...]},
                                                  # board first, then seats clockwise
     "notes": {...}}                              # optional (calibrate notes, see NoteLayout)

Table frame: origin at the top-left corner of the playing surface as the
camera sees it, x to the right, y down towards the croupier, millimetres
(the same frame as :mod:`dealer_assist.synth.table`).

``calibration/default.json`` is the default profile: a full profile, or a
pointer ``{"schema": "dealer-assist/calibration-pointer", "version": 1,
"profile": "NAME"}``. Files are written atomically; every failure to load is
one :class:`CalibrationError` with a plain sentence.
"""

from __future__ import annotations

import json
import os
import re
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Literal, Sequence

import cv2
import numpy as np
from pydantic import BaseModel, ConfigDict, Field, FiniteFloat, ValidationError, conlist, field_validator, model_validator

from dealer_assist.fileio import write_atomic
from dealer_assist.vision.geometry import quad_centre

SCHEMA = "dealer-assist/calibration"
POINTER_SCHEMA = "dealer-assist/calibration-pointer"
VERSION = 1
#: Environment variable naming the folder of named profiles (tests, other set-ups).
ENV_DIR = "DEALER_ASSIST_CALIBRATION_DIR"
DEFAULT_NAME = "default"
_NAME_RE = re.compile(r"^[A-Za-z0-9_][A-Za-z0-9_.-]*$")
#: Two image sizes with aspect ratios closer than this are taken as one camera frame, rescaled.
_ASPECT_TOLERANCE = 0.01
#: Iterations of OpenCV's point undistortion (its default of 5 leaves ~0.1 px at strong distortion).
_UNDISTORT_CRITERIA = (cv2.TERM_CRITERIA_COUNT | cv2.TERM_CRITERIA_EPS, 30, 1e-9)


class CalibrationError(ValueError):
    """A profile that is missing, unreadable, invalid or lacks a needed section; one plain sentence."""


# --------------------------------------------------------------------------- file schema (pydantic)

_Num = FiniteFloat
_Pair = conlist(_Num, min_length=2, max_length=2)
_Size = conlist(int, min_length=2, max_length=2)
_Matrix3 = conlist(conlist(_Num, min_length=3, max_length=3), min_length=3, max_length=3)


def _positive_size(v: list) -> list:
    if any(x <= 0 for x in v):
        raise ValueError("both values must be positive")
    return v


class _CameraFile(BaseModel):
    model_config = ConfigDict(extra="allow")
    camera_matrix: _Matrix3
    dist_coeffs: conlist(_Num, min_length=4, max_length=14)
    image_size: _Size
    rms: _Num | None = None
    views_used: int | None = None

    check_size = field_validator("image_size")(_positive_size)

    @field_validator("camera_matrix")
    @classmethod
    def _intrinsics(cls, m: list) -> list:
        if m[0][0] <= 0 or m[1][1] <= 0 or m[2] != [0, 0, 1] or m[1][0] != 0:
            raise ValueError("must be [[fx, s, cx], [0, fy, cy], [0, 0, 1]] with positive focal lengths")
        return m

    @field_validator("dist_coeffs")
    @classmethod
    def _dist_len(cls, d: list) -> list:
        if len(d) not in (4, 5, 8, 12, 14):
            raise ValueError("must hold 4, 5, 8, 12 or 14 coefficients (OpenCV's distortion models)")
        return d


class _ZoneFile(BaseModel):
    model_config = ConfigDict(extra="allow")
    name: str = Field(min_length=1, max_length=40)
    kind: Literal["board", "seat"]
    polygon_mm: conlist(_Pair, min_length=3)

    @field_validator("polygon_mm")
    @classmethod
    def _area(cls, poly: list) -> list:
        if abs(cv2.contourArea(np.asarray(poly, np.float32))) < 1.0:
            raise ValueError("the polygon has no area")
        return poly


class _TableFile(BaseModel):
    model_config = ConfigDict(extra="allow")
    image_size: _Size
    homography: _Matrix3
    table_size_mm: _Pair
    zones: list[_ZoneFile] = Field(min_length=2)

    check_sizes = field_validator("image_size", "table_size_mm")(_positive_size)

    @field_validator("homography")
    @classmethod
    def _invertible(cls, m: list) -> list:
        if abs(np.linalg.det(np.asarray(m, np.float64))) < 1e-12:
            raise ValueError("the homography is not invertible")
        return m

    @model_validator(mode="after")
    def _zone_names(self) -> "_TableFile":
        names = [z.name for z in self.zones]
        boards = [z for z in self.zones if z.kind == "board"]
        if len(boards) != 1 or boards[0].name != "board":
            raise ValueError("zones must hold exactly one board zone, named 'board'")
        if len(set(names)) != len(names):
            raise ValueError("zone names must be unique")
        for z in self.zones:
            if z.kind == "seat" and not is_seat_name(z.name):
                raise ValueError(f"{z.name!r} is not a usable seat name (letters, digits, _ and -, not 'board')")
        return self


class _PrintFile(BaseModel):
    model_config = ConfigDict(extra="allow")
    name: str
    box: conlist(_Num, min_length=4, max_length=4)
    colour_bgr: conlist(_Num, min_length=3, max_length=3) | None = None
    colour: str | None = None

    @field_validator("box")
    @classmethod
    def _box(cls, b: list) -> list:
        if not (0 <= b[0] < b[2] <= 1 and 0 <= b[1] < b[3] <= 1):
            raise ValueError("must be [x0, y0, x1, y1] with 0 <= x0 < x1 <= 1 and 0 <= y0 < y1 <= 1")
        return b


class _NotesFile(BaseModel):
    model_config = ConfigDict(extra="allow")
    aspect: _Num = Field(gt=1.0, lt=4.0)
    prints: list[_PrintFile] = Field(min_length=1)
    samples: int = Field(ge=1)


class _ProfileFile(BaseModel):
    model_config = ConfigDict(extra="allow", populate_by_name=True)
    schema_: Literal["dealer-assist/calibration"] = Field(alias="schema")
    version: Literal[1]
    camera: _CameraFile | None = None
    table: _TableFile | None = None
    notes: _NotesFile | None = None


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
        kind: ``"board"`` or ``"seat"``.
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
        return [z.name for z in self.zones if z.kind == "seat"]

    @property
    def board(self) -> Zone:
        return next(z for z in self.zones if z.kind == "board")

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
                f"frames of another shape: calibrate this camera set-up again.")
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
        return _apply_h(table.homography, p)

    def to_image_px(self, points_mm: np.ndarray, image_size: Sequence[int] | None = None) -> np.ndarray:
        """Table points ``(N, 2)`` mm to image pixels ``(N, 2)`` of a photo of ``image_size``
        (distorted when the profile has a camera section). Inverse of :meth:`to_table_mm`."""
        table = self.require_table()
        sx, sy = self._frame_scale(image_size)
        p = _apply_h(np.linalg.inv(table.homography), np.asarray(points_mm, np.float64).reshape(-1, 2))
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


def _apply_h(h: np.ndarray, pts: np.ndarray) -> np.ndarray:
    if not len(pts):
        return np.zeros((0, 2))
    q = np.column_stack([pts, np.ones(len(pts))]) @ np.asarray(h, np.float64).T
    return q[:, :2] / q[:, 2:3]


# --------------------------------------------------------------------------- JSON <-> Profile


def _extra(model: BaseModel) -> dict[str, Any]:
    return dict(model.model_extra or {})


def profile_from_json(obj: Any, name: str = "profile", path: Path | None = None) -> Profile:
    """Validate a parsed JSON object and build a :class:`Profile`.

    Raises:
        CalibrationError: not a profile (wrong schema or version, a section
            with a missing or bad field), naming the first bad field.
    """
    where = str(path) if path is not None else f"The calibration '{name}'"
    if not isinstance(obj, dict):
        raise CalibrationError(f"{where} is not a calibration profile (it holds no JSON object).")
    if obj.get("schema") != SCHEMA:
        raise CalibrationError(f"{where} is not a calibration profile (its \"schema\" is not {SCHEMA!r}).")
    if type(obj.get("version")) is not int or obj.get("version") != VERSION:  # true == 1 in Python
        raise CalibrationError(
            f"{where} has calibration version {obj.get('version')!r}; this program reads version {VERSION}.")
    try:
        f = _ProfileFile.model_validate(obj)
    except ValidationError as exc:
        raise CalibrationError(f"{where} is not a valid calibration profile: {_first_error(exc)}.") from None
    camera = table = notes = None
    if f.camera is not None:
        c = f.camera
        camera = CameraModel(np.asarray(c.camera_matrix, np.float64), np.asarray(c.dist_coeffs, np.float64),
                             (int(c.image_size[0]), int(c.image_size[1])), c.rms, c.views_used, _extra(c))
    if f.table is not None:
        t = f.table
        zones = [Zone(z.name, z.kind, np.asarray(z.polygon_mm, np.float64)) for z in t.zones]
        zones.sort(key=lambda z: z.kind != "board")  # board first, seats keep their order
        h = np.asarray(t.homography, np.float64)
        table = TablePlane((int(t.image_size[0]), int(t.image_size[1])), h / h[2, 2] if abs(h[2, 2]) > 1e-12 else h,
                           (float(t.table_size_mm[0]), float(t.table_size_mm[1])), tuple(zones), _extra(t))
    if f.notes is not None:
        n = f.notes
        prints = tuple(PrintLayout(p.name, tuple(p.box), tuple(p.colour_bgr) if p.colour_bgr else None, p.colour)
                       for p in n.prints)
        notes = NoteLayout(float(n.aspect), prints, int(n.samples), _extra(n))
    return Profile(name, path, camera, table, notes)


def _first_error(exc: ValidationError) -> str:
    err = exc.errors()[0]
    loc = ".".join(str(x) for x in err["loc"] if not str(x).startswith("function-"))
    msg = str(err["msg"]).rstrip(".")
    msg = msg.replace("Value error, ", "")
    return f"{loc or 'the file'}: {msg[0].lower() + msg[1:] if msg else 'invalid'}"


# --------------------------------------------------------------------------- files


def repo_root() -> Path:
    return Path(__file__).resolve().parents[2]


def calibration_dir() -> Path:
    """The folder of named profiles: ``$DEALER_ASSIST_CALIBRATION_DIR`` or the repository's ``calibration/``."""
    env = os.environ.get(ENV_DIR, "").strip()
    return Path(env) if env else repo_root() / "calibration"


def is_path_like(name_or_path: str | os.PathLike) -> bool:
    """A path (has a folder part or ends in ``.json``) rather than a profile name."""
    s = str(name_or_path)
    return isinstance(name_or_path, os.PathLike) or "/" in s or os.sep in s or s.lower().endswith(".json")


def profile_path(name_or_path: str | os.PathLike | None = None, follow_default: bool = True) -> Path:
    """Where the profile ``name_or_path`` lives.

    A name (``"sample_table_1"``) is ``<calibration dir>/<name>.json``; a
    path is taken as given; None or ``"default"`` is ``default.json``, and
    when that file is a pointer (and ``follow_default``) the profile it names.

    Raises:
        CalibrationError: a name with characters a file name cannot hold, or a broken pointer.
    """
    if name_or_path is None:
        name_or_path = DEFAULT_NAME
    if is_path_like(name_or_path):
        return Path(name_or_path)
    name = str(name_or_path)
    if not _NAME_RE.match(name):
        raise CalibrationError(
            f"{name!r} is not a profile name (use letters, digits, _ . -) nor a path ending in .json.")
    path = calibration_dir() / f"{name}.json"
    if name == DEFAULT_NAME and follow_default:
        target = _pointer_target(path)
        if target is not None:
            return profile_path(target, follow_default=False)
    return path


def _pointer_target(path: Path) -> str | None:
    """The profile name a ``default.json`` pointer names, or None when the file is not a pointer."""
    if not path.is_file():  # a pipe would block the read
        return None
    try:
        obj = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError, RecursionError):
        return None
    if not isinstance(obj, dict) or obj.get("schema") != POINTER_SCHEMA:
        return None
    target = obj.get("profile")
    if not isinstance(target, str) or not target or target == DEFAULT_NAME:
        raise CalibrationError(f"{path} points to no usable profile (\"profile\" must name another profile).")
    if is_path_like(target) or not _NAME_RE.match(target):
        # a pointer is never followed out of the calibration folder
        shown = target if len(target) <= 40 else target[:40] + "…"
        raise CalibrationError(f"{path} points to {shown!r}, which is not a profile name (letters, digits, _ . -) "
                               f"in the calibration folder; run `dealer-assist calibrate use NAME` to fix it.")
    return target


def load_profile(name_or_path: str | os.PathLike | None = None) -> Profile:
    """Load a profile by name (``calibration/<name>.json``), by path, or the default (None).

    Raises:
        CalibrationError: the file is missing, unreadable, not JSON, or not a
            valid profile; the message is one sentence naming the file.
    """
    path = profile_path(name_or_path)
    label = str(name_or_path) if name_or_path is not None else DEFAULT_NAME
    if not path.exists():
        if is_path_like(label):
            raise CalibrationError(f"No calibration file at {path}.")
        if name_or_path is None and path.stem != DEFAULT_NAME:
            raise CalibrationError(
                f"The default profile is '{path.stem}' (set by `dealer-assist calibrate use`), but {path} does not "
                f"exist; make it with `dealer-assist calibrate table` or choose another with `calibrate use NAME`.")
        raise CalibrationError(
            f"No calibration profile named '{label}' ({path} does not exist); "
            f"make one with `dealer-assist calibrate table`.")
    if path.is_dir():
        raise CalibrationError(f"{path} is a folder, not a calibration file.")
    if not path.is_file():
        raise CalibrationError(f"{path} is not a regular file (a pipe or a device), so it is no calibration profile.")
    try:
        text = path.read_text(encoding="utf-8-sig")  # a BOM from a Windows editor is no error
    except UnicodeDecodeError:
        raise CalibrationError(f"{path} is not UTF-8 text, so it is no calibration profile.") from None
    except OSError as exc:
        raise CalibrationError(f"{path} cannot be read ({exc.strerror or exc}).") from None
    try:
        obj = json.loads(text)
    except json.JSONDecodeError as exc:
        raise CalibrationError(f"{path} is not valid JSON ({exc.msg}: line {exc.lineno}, column {exc.colno}).") from None
    except RecursionError:
        raise CalibrationError(f"{path} is not a calibration profile (its JSON is nested too deeply).") from None
    except ValueError:  # int() refuses a number of more than 4300 digits
        raise CalibrationError(f"{path} is not a calibration profile (it holds a number of over 4300 digits).") from None
    return profile_from_json(obj, path.stem, path)


def save_profile(profile: Profile, name_or_path: str | os.PathLike | None = None) -> Profile:
    """Write ``profile`` atomically (temporary file in the same folder, then ``os.replace``).

    Args:
        profile: what to write.
        name_or_path: a profile name, a path, or None for ``profile.path``
            (or its name when it has no path).

    Returns:
        The profile with its ``name`` and ``path`` set to where it was written.

    Raises:
        CalibrationError: the folder of an explicit path does not exist or
            nothing can be written there; the previous file is left intact.
    """
    if name_or_path is None:
        name_or_path = profile.path if profile.path is not None else profile.name
    path = profile_path(name_or_path, follow_default=False)  # "default" replaces a pointer, never its target
    if not is_path_like(name_or_path):
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise CalibrationError(f"Cannot create the calibration folder {path.parent} ({exc.strerror}).") from None
    elif not path.parent.is_dir():
        raise CalibrationError(f"Cannot write {path}: the folder {path.parent} does not exist.")
    text = json.dumps(profile.to_json(), indent=1, ensure_ascii=False) + "\n"
    # the file must load back: never write something load_profile would refuse
    profile_from_json(json.loads(text), path.stem, path)
    try:
        write_atomic(path, text)
    except OSError as exc:
        raise CalibrationError(f"Cannot write {path} ({exc.strerror or exc}).") from None
    return replace(profile, name=path.stem, path=path)


def set_default(name: str) -> Path:
    """Make ``calibration/default.json`` a pointer to the profile ``name`` (which must load).

    Returns the pointer's path. Raises :class:`CalibrationError` when ``name``
    does not load or is ``default`` itself.
    """
    if is_path_like(name) or name == DEFAULT_NAME:
        raise CalibrationError("The default must be a profile name in the calibration folder, not a path or 'default'.")
    load_profile(name)
    path = calibration_dir() / f"{DEFAULT_NAME}.json"
    text = json.dumps({"schema": POINTER_SCHEMA, "version": VERSION, "profile": name}, indent=1) + "\n"
    try:
        write_atomic(path, text)
    except OSError as exc:
        raise CalibrationError(f"Cannot write {path} ({exc.strerror or exc}).") from None
    return path


def list_profiles() -> list[str]:
    """Names of the profiles in the calibration folder (``default`` included when it is a full profile)."""
    d = calibration_dir()
    if not d.is_dir():
        return []
    names = []
    for p in sorted(d.glob("*.json")):
        if p.stem == DEFAULT_NAME and _safe_pointer(p):
            continue
        names.append(p.stem)
    return names


def _safe_pointer(p: Path) -> bool:
    try:
        return _pointer_target(p) is not None
    except CalibrationError:
        return True
