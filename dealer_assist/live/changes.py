"""Where the table changed, and whether anything is moving there: the cheap per-frame step.

Pure functions and a small stateful detector over numpy images; no OCR.

Reading serials is slow (hundreds of milliseconds per note), so the live loop
reads only where something changed. Every frame is warped to a
low-resolution **top view** of the table (:class:`TopView`, 0.5 px/mm by
default: a note is ~78 x 35 px) and compared with

* the previous frame: pixels that differ are **moving** (a hand);
* a **reference** view, updated wherever a region is handed to the reader:
  pixels that differ from it are **changed** (a note placed, turned over or
  taken away since that place was last read).

Connected changed pixels form a :class:`Blob`; a blob over which nothing
moved in this frame is **still**, and ready to be read. The threshold
adapts to the camera's noise (a robust estimate from the frame-to-frame
difference), and a change over most of the table (the light or the camera
moved) resets the reference instead of reporting one huge blob.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

import cv2
import numpy as np

from dealer_assist.vision.geometry import NOTE_SIZE_MM

__all__ = ["TopView", "Blob", "ChangeReport", "ChangeDetector", "source_px_per_mm", "warp_region", "exposure_gain",
           "exposed_for_reading"]

Region = tuple[float, float, float, float]


def source_px_per_mm(profile, image_size: Sequence[int], point_mm: Sequence[float] | None = None) -> float:
    """How many camera pixels one table millimetre spans at ``point_mm`` (default: the table's centre).

    The square root of the area scale of the table -> image mapping there
    (a 1 x 1 mm square), so it is the geometric mean of the two directions.

    Args:
        profile: a :class:`~dealer_assist.calibration.profile.Profile` with a table section.
        image_size: (width, height) px of the camera frames.
    """
    table = profile.require_table()
    c = np.asarray(point_mm if point_mm is not None else np.asarray(table.table_size_mm) / 2, np.float64)
    sq = np.array([c, c + [1, 0], c + [1, 1], c + [0, 1]])
    px = profile.to_image_px(sq, image_size).astype(np.float32)
    return float(np.sqrt(abs(cv2.contourArea(px))))


def warp_region(image: np.ndarray, profile, region_mm: Region, px_per_mm: float) -> np.ndarray:
    """A top view of one rectangle of the table, rectified from a camera frame.

    Args:
        image: ``uint8`` ``(H, W, 3)`` BGR camera frame (the calibration's
            aspect ratio; any size).
        profile: a calibration profile with a table section (and a camera
            section, used to undistort, when present).
        region_mm: (x0, y0, x1, y1) table millimetres.
        px_per_mm: scale of the result.

    Returns:
        ``uint8`` ``(h, w, 3)``: pixel (i, j) shows table point
        ``(x0 + (j + 0.5) / px_per_mm, y0 + (i + 0.5) / px_per_mm)``; points
        outside the frame are black.

    Raises:
        CalibrationError: no table section, or a frame of another shape.
    """
    x0, y0, x1, y1 = (float(v) for v in region_mm)
    w = max(1, int(round((x1 - x0) * px_per_mm)))
    h = max(1, int(round((y1 - y0) * px_per_mm)))
    size = (image.shape[1], image.shape[0])
    if profile.camera is None:
        # a pure homography: four pixel centres fix it exactly
        view_px = np.array([[0, 0], [w - 1, 0], [w - 1, h - 1], [0, h - 1]], np.float64)
        mm = np.column_stack([x0 + (view_px[:, 0] + 0.5) / px_per_mm, y0 + (view_px[:, 1] + 0.5) / px_per_mm])
        img_px = profile.to_image_px(mm, size)
        if w < 2 or h < 2:
            return np.zeros((h, w, 3), np.uint8)
        m = cv2.getPerspectiveTransform(view_px.astype(np.float32), img_px.astype(np.float32))
        return cv2.warpPerspective(image, m, (w, h), flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP,
                                   borderMode=cv2.BORDER_CONSTANT)
    xs = x0 + (np.arange(w) + 0.5) / px_per_mm
    ys = y0 + (np.arange(h) + 0.5) / px_per_mm
    gx, gy = np.meshgrid(xs, ys)
    p = profile.to_image_px(np.column_stack([gx.ravel(), gy.ravel()]), size).astype(np.float32)
    return cv2.remap(image, p[:, 0].reshape(h, w), p[:, 1].reshape(h, w), cv2.INTER_LINEAR,
                     borderMode=cv2.BORDER_CONSTANT)


#: :func:`exposed_for_reading`: a view whose brightest pixels (this percentile of its grey levels: the paper
#: of a note that covers at least 0.5% of it) lie below :data:`VIEW_PAPER_LEVEL` is brightened until they reach
#: it, by at most :data:`MAX_VIEW_GAIN`. Measured on set-up D of ``bench_live_real.py`` (a dim warm lamp: paper
#: at grey 90-170): of 15 notes lying still, one read of each note's own place found 11 as the views came
#: and 14 brightened (the text detector, at the camera's 2.4 px/mm, found no serial-sized line on 3 of the
#: dark views: the notes were never found in live play).
#: Views that would need less than :data:`MIN_VIEW_GAIN` are left as they are: the room-lit views of set-ups A-C
#: need 1.05-1.46 (``bench_live.py``'s 0.93-0.98: never brightened), D's dark views that failed 1.8-2.7; what
#: brightening does to room-lit views was not measured apart, so only dark views are changed.
VIEW_PAPER_PERCENTILE = 99.5
VIEW_PAPER_LEVEL = 235.0
MIN_VIEW_GAIN = 1.5
MAX_VIEW_GAIN = 3.0


def exposed_for_reading(view: np.ndarray) -> np.ndarray:
    """``view`` (``uint8`` BGR) as the reader should see it: itself when its paper is bright enough (it would
    need less than :data:`MIN_VIEW_GAIN`), else brightened by one gain over all its pixels and channels (a dim room, a webcam's exposure set low; the
    text detector misses lines of low contrast). Never darkened, never clipped beyond what one gain does."""
    if view.size == 0:
        return view
    grey = cv2.cvtColor(view, cv2.COLOR_BGR2GRAY) if view.ndim == 3 else view
    top = float(np.percentile(grey[::2, ::2], VIEW_PAPER_PERCENTILE))
    gain = min(MAX_VIEW_GAIN, VIEW_PAPER_LEVEL / max(top, 1.0))
    if gain < MIN_VIEW_GAIN:
        return view
    return cv2.convertScaleAbs(view, alpha=gain)


def _channel_max(diff: np.ndarray) -> np.ndarray:
    """Per-pixel maximum over the 3 channels of a ``uint8`` ``(h, w, 3)`` image (numpy's axis
    reduction over a length-3 axis is ten times slower than this)."""
    return cv2.max(cv2.max(diff[:, :, 0], diff[:, :, 1]), diff[:, :, 2])


#: The largest exposure change (as a gain per channel) :func:`_matched` compensates; a larger one is a
#: change of the light (a lamp switched on), left to the global-change reset.
MAX_GAIN_STEP = 1.25


def exposure_gain(base: np.ndarray, cur: np.ndarray, visible: np.ndarray | None = None) -> np.ndarray:
    """Per-channel gain ``float64`` ``(3,)`` that makes ``base`` as bright as ``cur`` (both ``uint8``
    ``(h, w, 3)`` views of the same table): the median over the table of the pixels' ratios (a note placed
    or a hand over less than half the table does not move it), within 1/MAX_GAIN_STEP..MAX_GAIN_STEP."""
    b = base[::3, ::3].reshape(-1, 3).astype(np.float32)
    c = cur[::3, ::3].reshape(-1, 3).astype(np.float32)
    keep = b.min(axis=1) >= 16.0
    if visible is not None:
        keep &= visible[::3, ::3].reshape(-1)
    if keep.sum() < 50:
        return np.ones(3)
    g = np.median(c[keep] / b[keep], axis=0).astype(np.float64)
    return np.clip(g, 1 / MAX_GAIN_STEP, MAX_GAIN_STEP)


def _matched(base: np.ndarray, cur: np.ndarray, visible: np.ndarray | None) -> np.ndarray:
    """``base`` scaled per channel to ``cur``'s exposure (:func:`exposure_gain`); itself when within 0.5 %."""
    g = exposure_gain(base, cur, visible)
    if np.all(np.abs(g - 1.0) < 0.005):
        return base
    return cv2.multiply(base, (float(g[0]), float(g[1]), float(g[2]), 0.0))


class TopView:
    """The whole table at a low resolution, with the warp precomputed for one frame size.

    Args:
        profile: calibration profile with a table section.
        image_size: (width, height) of the camera frames.
        px_per_mm: scale of the view (0.5: 2 mm per pixel).
    """

    def __init__(self, profile, image_size: Sequence[int], px_per_mm: float = 0.5) -> None:
        table = profile.require_table()
        self.px_per_mm = float(px_per_mm)
        self.image_size = (int(image_size[0]), int(image_size[1]))
        w_mm, h_mm = table.table_size_mm
        self.region: Region = (0.0, 0.0, float(w_mm), float(h_mm))
        self.size = (max(1, int(round(w_mm * px_per_mm))), max(1, int(round(h_mm * px_per_mm))))
        w, h = self.size
        xs = (np.arange(w) + 0.5) / px_per_mm
        ys = (np.arange(h) + 0.5) / px_per_mm
        gx, gy = np.meshgrid(xs, ys)
        p = profile.to_image_px(np.column_stack([gx.ravel(), gy.ravel()]), self.image_size).astype(np.float32)
        self._map_x = p[:, 0].reshape(h, w)
        self._map_y = p[:, 1].reshape(h, w)
        # parts of the table the camera does not see are left out of every comparison
        self.visible = ((self._map_x >= 0) & (self._map_x <= self.image_size[0] - 1)
                        & (self._map_y >= 0) & (self._map_y <= self.image_size[1] - 1))

    def __call__(self, image: np.ndarray) -> np.ndarray:
        """The top view ``uint8`` ``(h, w, 3)`` of a frame of :attr:`image_size`."""
        if (image.shape[1], image.shape[0]) != self.image_size:
            raise ValueError(f"frame is {image.shape[1]}x{image.shape[0]} px, the view was built for "
                             f"{self.image_size[0]}x{self.image_size[1]} px.")
        return cv2.remap(image, self._map_x, self._map_y, cv2.INTER_LINEAR, borderMode=cv2.BORDER_CONSTANT)

    def to_px(self, region_mm: Region) -> tuple[int, int, int, int]:
        """A table-mm rectangle as view pixel bounds (x0, y0, x1, y1), clipped, x1/y1 exclusive."""
        s = self.px_per_mm
        w, h = self.size
        x0 = int(np.clip(np.floor(region_mm[0] * s), 0, w))
        y0 = int(np.clip(np.floor(region_mm[1] * s), 0, h))
        x1 = int(np.clip(np.ceil(region_mm[2] * s), 0, w))
        y1 = int(np.clip(np.ceil(region_mm[3] * s), 0, h))
        return x0, y0, x1, y1


@dataclass(frozen=True)
class Blob:
    """One connected area that differs from the reference view.

    Attributes:
        bbox_mm: (x0, y0, x1, y1) table mm.
        area_mm2: its area, mm².
        rect_mm: float64 ``(4, 2)`` its minimum-area rectangle, table mm.
        still: (almost) nothing moved over it in the latest frame (under 2% of its pixels).
        moving_share: the share of its pixels that moved in the latest frame, 0..1.
        changed_since_s: since when it differs (source time, s; the median over its pixels, so
            a fresh change next to an old one is not taken as old).
        note_shaped: the rectangle has a note's sides (within 30%) and the
            blob fills most of it: a note placed, turned or taken away.
    """

    bbox_mm: Region
    area_mm2: float
    rect_mm: np.ndarray
    still: bool
    changed_since_s: float
    note_shaped: bool
    moving_share: float = 0.0


@dataclass(frozen=True)
class ChangeReport:
    """What one frame changed: the blobs (largest first), the moving share of the table, and
    ``global_change`` when most of the view changed at once (then the reference was reset)."""

    blobs: tuple[Blob, ...]
    moving_fraction: float
    threshold: float
    global_change: bool = False


class ChangeDetector:
    """Change and motion on successive top views of the table.

    Args:
        px_per_mm: the views' scale.
        min_threshold: smallest colour difference (0..255, on a lightly
            blurred view) counted as a change; raised to 6 robust noise
            sigmas on a noisy camera.
        min_area_mm2: smaller blobs are ignored (a tenth of a note by default).
        global_fraction: a change over more than this share of the table
            resets the reference.
        visible: bool ``(h, w)`` mask of the view pixels the camera sees.
    """

    def __init__(self, px_per_mm: float = 0.5, min_threshold: float = 18.0, min_area_mm2: float | None = None,
                 global_fraction: float = 0.6, visible: np.ndarray | None = None) -> None:
        self.px_per_mm = float(px_per_mm)
        self.min_threshold = float(min_threshold)
        note_area = NOTE_SIZE_MM[0] * NOTE_SIZE_MM[1]
        self.min_area_mm2 = 0.1 * note_area if min_area_mm2 is None else float(min_area_mm2)
        self.global_fraction = float(global_fraction)
        self.visible = visible
        self._ref: np.ndarray | None = None
        self._prev: np.ndarray | None = None
        self._cur: np.ndarray | None = None
        self._since: np.ndarray | None = None
        self._moving: np.ndarray | None = None
        self._noise: float | None = None
        self._kernel = np.ones((3, 3), np.uint8)

    @property
    def started(self) -> bool:
        return self._ref is not None

    def _prepare(self, view: np.ndarray) -> np.ndarray:
        out = cv2.GaussianBlur(view, (0, 0), 1.0)
        if self.visible is not None:
            out[~self.visible] = 0
        return out

    def update(self, view: np.ndarray, time_s: float) -> ChangeReport:
        """Take the next top view ``uint8`` ``(h, w, 3)`` at source time ``time_s`` and report the blobs."""
        cur = self._prepare(view)
        if self._ref is None or self._ref.shape != cur.shape:
            self._ref = cur.copy()
            self._prev = cur
            self._cur = cur
            self._since = np.full(cur.shape[:2], np.nan, np.float64)
            self._moving = np.zeros(cur.shape[:2], bool)
            return ChangeReport((), 0.0, self.min_threshold)
        # a webcam's exposure and white balance drift and flicker (auto exposure, mains-lit rooms): each
        # comparison is made after matching the other view's brightness to this one, channel by channel
        # (a robust gain over the whole table); otherwise a flicker of a few per cent counts as noise on
        # a light table, raises the threshold above a light note's difference from it, and notes lying
        # plainly in view are never found
        d_prev = _channel_max(cv2.absdiff(cur, _matched(self._prev, cur, self.visible)))
        d_ref = _channel_max(cv2.absdiff(cur, _matched(self._ref, cur, self.visible)))
        # the camera's noise: a running median of the frame-to-frame difference, not fed by
        # frames where much changed at once (the light, a hand over half the table)
        m = float(np.median(d_prev[::3, ::3]))
        if self._noise is None:
            self._noise = 1.0  # a clean camera to start with; a noisier one raises it frame by frame
        if m <= 3.0 * self._noise + 2.0:
            self._noise = 0.9 * self._noise + 0.1 * m
        thr = max(self.min_threshold, 6.0 * 1.4826 * self._noise)
        moving = cv2.morphologyEx((d_prev > thr).astype(np.uint8), cv2.MORPH_OPEN, self._kernel)
        changed = cv2.morphologyEx((d_ref > thr).astype(np.uint8), cv2.MORPH_OPEN, self._kernel)
        changed = cv2.morphologyEx(changed, cv2.MORPH_CLOSE, np.ones((5, 5), np.uint8))
        self._prev, self._cur = cur, cur
        self._moving = moving.astype(bool)
        n_px = changed.size if self.visible is None else max(1, int(self.visible.sum()))
        moving_fraction = float(self._moving.sum()) / n_px
        if changed.sum() > self.global_fraction * n_px:
            self._ref = cur.copy()
            self._since[:] = np.nan
            return ChangeReport((), moving_fraction, thr, global_change=True)
        ch = changed.astype(bool)
        self._since[~ch] = np.nan
        self._since[ch & np.isnan(self._since)] = time_s
        n, labels, stats, _ = cv2.connectedComponentsWithStats(changed, connectivity=8)
        s = self.px_per_mm
        min_px = self.min_area_mm2 * s * s
        blobs = []
        for i in range(1, n):
            x, y, w, h, area = (int(v) for v in stats[i])
            if area < min_px:
                continue
            mask = labels[y:y + h, x:x + w] == i
            moving_here = float(self._moving[y:y + h, x:x + w][mask].mean())
            since = float(np.nanmedian(self._since[y:y + h, x:x + w][mask]))
            ys, xs = np.nonzero(mask)
            pts = np.column_stack([xs + x, ys + y]).astype(np.float32)
            rect = cv2.minAreaRect(pts)
            corners = (cv2.boxPoints(rect).astype(np.float64) + 0.5) / s
            long_mm, short_mm = max(rect[1]) / s, min(rect[1]) / s
            fill = area / max(rect[1][0] * rect[1][1], 1.0)
            shaped = (abs(long_mm / NOTE_SIZE_MM[0] - 1) < 0.3 and abs(short_mm / NOTE_SIZE_MM[1] - 1) < 0.3
                      and fill > 0.7)
            blobs.append(Blob((x / s, y / s, (x + w) / s, (y + h) / s), area / (s * s), corners,
                              moving_here < 0.02, since, shaped, moving_here))
        blobs.sort(key=lambda b: -b.area_mm2)
        return ChangeReport(tuple(blobs), moving_fraction, thr)

    def _px(self, region_mm: Region) -> tuple[int, int, int, int]:
        s = self.px_per_mm
        h, w = self._ref.shape[:2]
        x0 = int(np.clip(np.floor(region_mm[0] * s), 0, w))
        y0 = int(np.clip(np.floor(region_mm[1] * s), 0, h))
        x1 = int(np.clip(np.ceil(region_mm[2] * s), 0, w))
        y1 = int(np.clip(np.ceil(region_mm[3] * s), 0, h))
        return x0, y0, x1, y1

    def accept(self, region_mm: Region) -> None:
        """The region (x0, y0, x1, y1) mm is being read from the latest frame: make it the reference there."""
        if self._ref is None:
            return
        x0, y0, x1, y1 = self._px(region_mm)
        self._ref[y0:y1, x0:x1] = self._cur[y0:y1, x0:x1]
        self._since[y0:y1, x0:x1] = np.nan

    def moving_in(self, region_mm: Region) -> float:
        """Share of the region's pixels that moved in the latest frame (0..1)."""
        if self._moving is None:
            return 0.0
        x0, y0, x1, y1 = self._px(region_mm)
        part = self._moving[y0:y1, x0:x1]
        return float(part.mean()) if part.size else 0.0
