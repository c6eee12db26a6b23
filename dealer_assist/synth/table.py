"""The table in millimetres: its size, the board zone, the seat zones and the markers.

Table frame: origin at the top-left corner of the playing surface as the
croupier's camera sees it, x to the right, y towards the croupier (down in the
image), millimetres. Seats are named ``P1``, ``P2``, ... clockwise (as seen from
above), starting left of the croupier's place at the bottom edge.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import cv2
import numpy as np

from dealer_assist.names import numbered_seat
from dealer_assist.synth.layout import NOTE_SIZE_MM


@dataclass(frozen=True)
class Zone:
    """A named area of the table: ``kind`` is ``"board"`` or ``"seat"``;
    ``polygon_mm``: (N, 2) float vertices in table millimetres, clockwise;
    ``note_angle_deg``: how a note lies upright for the one who sits there
    (0 = header towards the top of the table frame)."""

    name: str
    kind: str
    polygon_mm: np.ndarray
    centre_mm: tuple[float, float]
    note_angle_deg: float


@dataclass(frozen=True)
class TableLayout:
    """``size_mm``: (width, height) of the playing surface; ``zones`` by name
    (``"board"`` first, then the seats in clockwise order); ``marker_size_mm``:
    the black square of each ArUco marker; markers sit ``marker_inset_mm``
    from each corner (to the marker's centre)."""

    size_mm: tuple[float, float]
    zones: dict[str, Zone] = field(default_factory=dict)
    marker_size_mm: float = 56.0
    marker_inset_mm: float = 45.0

    @property
    def seats(self) -> list[str]:
        """Seat names in clockwise order."""
        return [z.name for z in self.zones.values() if z.kind == "seat"]

    @property
    def corners_mm(self) -> np.ndarray:
        """(4, 2) corners of the playing surface, clockwise from the top-left."""
        w, h = self.size_mm
        return np.array([[0, 0], [w, 0], [w, h], [0, h]], np.float64)

    def marker_centres_mm(self) -> np.ndarray:
        """(4, 2) centres of the markers with ids 0..3 (clockwise from the top-left)."""
        d = self.marker_inset_mm
        w, h = self.size_mm
        return np.array([[d, d], [w - d, d], [w - d, h - d], [d, h - d]], np.float64)

    def zone_of(self, point_mm: tuple[float, float]) -> str | None:
        """Name of the zone containing ``point_mm`` (board first), or None."""
        for z in self.zones.values():
            if cv2.pointPolygonTest(z.polygon_mm.astype(np.float32), tuple(map(float, point_mm)), False) >= 0:
                return z.name
        return None


def _rect(cx: float, cy: float, w: float, h: float, angle_deg: float) -> np.ndarray:
    a = np.deg2rad(angle_deg)
    ca, sa = np.cos(a), np.sin(a)
    local = np.array([[-w / 2, -h / 2], [w / 2, -h / 2], [w / 2, h / 2], [-w / 2, h / 2]])
    return np.column_stack([cx + ca * local[:, 0] - sa * local[:, 1], cy + sa * local[:, 0] + ca * local[:, 1]])


def make_table(
    n_seats: int,
    size_mm: tuple[float, float] = (1000.0, 700.0),
    names: list[str] | None = None,
) -> TableLayout:
    """A table with a board zone in the middle and ``n_seats`` seat zones around it.

    Seats sit on an ellipse inside the edge, evenly spaced, leaving the middle
    of the bottom edge to the croupier. ``names`` default to ``P1..Pn``.
    ``ValueError`` when ``n_seats`` is not in 2..8 or ``names`` has the wrong length.
    """
    if not 2 <= n_seats <= 8:
        raise ValueError(f"a table has 2..8 seats, got {n_seats}")
    names = names or [numbered_seat(i + 1) for i in range(n_seats)]
    if len(names) != n_seats:
        raise ValueError(f"{len(names)} names for {n_seats} seats")
    w, h = size_mm
    cx, cy = w / 2, h / 2
    nw, nh = NOTE_SIZE_MM
    zones: dict[str, Zone] = {}
    board_w, board_h = 3 * nw + 2 * 25 + 40, nh + 70
    zones["board"] = Zone("board", "board", _rect(cx, cy, board_w, board_h, 0.0), (cx, cy), 0.0)
    rx, ry = w / 2 - 125, h / 2 - 120
    # a seat holds its two pocket notes one above the other
    seat_w, seat_h = nw + 70, 2 * nh + 60
    for i, name in enumerate(names):
        phi = np.deg2rad(90 + (i + 0.5) * 360 / n_seats)
        sx, sy = cx + rx * np.cos(phi), cy + ry * np.sin(phi)
        # tangent direction of the ellipse gives the zone's long axis
        tangent = np.rad2deg(np.arctan2(ry * np.cos(phi), -rx * np.sin(phi)))
        # the player sits outside the ellipse; "up" on their notes points to the centre
        note_angle = float(np.rad2deg(np.arctan2(cx - sx, -(cy - sy))) % 360.0)
        zones[name] = Zone(name, "seat", _rect(sx, sy, seat_w, seat_h, tangent), (float(sx), float(sy)), float(note_angle))
    return TableLayout((float(w), float(h)), zones)
