"""The calibration file format: a pydantic schema of the JSON, and its conversion to a :class:`~.profile.Profile`.

::

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

Every refusal is one :class:`~.profile.CalibrationError` naming the first bad field.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Literal

import cv2
import numpy as np
from pydantic import BaseModel, ConfigDict, Field, FiniteFloat, ValidationError, conlist, field_validator, model_validator

from dealer_assist.calibration.profile import (
    SCHEMA,
    VERSION,
    CalibrationError,
    CameraModel,
    NoteLayout,
    PrintLayout,
    Profile,
    TablePlane,
    Zone,
    ZoneKind,
    is_seat_name,
)

__all__ = ["profile_from_json"]

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
        boards = [z for z in self.zones if z.kind == ZoneKind.BOARD]
        if len(boards) > 1 or (boards and boards[0].name != "board"):
            raise ValueError("zones must hold exactly one board zone, named 'board', or none "
                             "(a table of Indian poker only)")
        if len(set(names)) != len(names):
            raise ValueError("zone names must be unique")
        for z in self.zones:
            if z.kind == ZoneKind.SEAT and not is_seat_name(z.name):
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
        zones = [Zone(z.name, ZoneKind(z.kind), np.asarray(z.polygon_mm, np.float64)) for z in t.zones]
        zones.sort(key=lambda z: z.kind != ZoneKind.BOARD)  # board first, seats keep their order
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
