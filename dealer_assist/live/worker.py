"""The serial reader run off the display loop: one job at a time, in its own process.

A :class:`ReadJob` carries a small top view of one region of the table (see
:func:`~.changes.warp_region`), never a whole frame: the reader's cost grows
with the number of text lines it sees, so the live loop sends only the place
where a note appeared, turned over, or still waits for a second read.

:func:`read_region` is what runs in the worker: the standard
:class:`~dealer_assist.vision.reader.SerialReader` (same trust rules as
``dealer-assist read``) with a :class:`RegionEngine` as its detector, which

* keeps only text lines of a serial print's physical size (the view's scale
  is known, so a header or the word ``ОБРАЗЕЦ`` is not recognised for nothing), and
* for a note already found, returns the note's known print quads instead of
  running text detection at all (a *confirm* read).

Workers: :class:`ProcessWorker` (the default: a separate process, so OCR
never holds the display loop's interpreter) and :class:`InlineWorker` (runs
the job in the caller, for tests and tools). Both give results through
:meth:`poll`; neither blocks in :meth:`submit`.
"""

from __future__ import annotations

import concurrent.futures as cf
import multiprocessing
import time
from dataclasses import dataclass, field
from typing import Callable, Sequence

import cv2
import numpy as np

from dealer_assist.live.tracker import Observation
from dealer_assist.vision.geometry import (
    LEFT_PRINT_MM,
    NOTE_SIZE_MM,
    TOP_RIGHT_PRINT_MM,
    line_frame,
    note_quad_from_prints,
    quad_size,
)

__all__ = ["ReadJob", "JobResult", "RegionEngine", "read_region", "ProcessWorker", "InlineWorker", "make_reader",
           "PRINT_LENGTH_MM", "PRINT_HEIGHT_MM", "note_box_around_print"]

#: Length range (mm) of a text-detector box that may hold a serial print.
#: Measured on the specimen notes' detector boxes (padded): 28-42 mm; a
#: 1997-series ruble's prints (letters and 7 digits, ~30-35 mm) lie well
#: inside; digits alone (the detector may split off the letters) ~22 mm.
PRINT_LENGTH_MM = (14.0, 62.0)
#: Height range (mm) of such a box (padded digits of 3-5 mm).
PRINT_HEIGHT_MM = (3.0, 17.0)
#: A note read from one print whose estimated outline reaches further out of the view than
#: this (mm) is left to a read that sees it whole (its other print may be outside the view).
OUTSIDE_SLACK_MM = 20.0


@dataclass(frozen=True)
class ReadJob:
    """One region of one frame to read.

    Attributes:
        job_id: unique per session.
        frame: the frame's index; time_s: its source time, s.
        kind: ``"discover"`` (a place changed: a note-shaped change or one at a known note),
            ``"discover-other"`` (another change: a hand, part of a note), ``"confirm"`` (re-read a known
            note), ``"retry"`` (a changed place where nothing was found, again from a later frame) or
            ``"scan"`` (a zone read at start-up).
        region_mm: (x0, y0, x1, y1) table mm the image shows.
        core_mm: (x0, y0, x1, y1) the part of it this job answers for: notes
            centred outside it are left to other jobs (they may be cut by the edge).
        px_per_mm: the image's scale.
        image: ``uint8`` ``(h, w, 3)`` BGR top view of ``region_mm``.
        hints_mm: for a confirm read, the known print quads ``(4, 2)`` in table mm.
        track_ids: the tracks this job was made for (confirm reads).
        still: nothing moved over the region when the frame was taken.
        blank_rects_mm: note-shaped changes (``(4, 2)`` mm) that became a
            ``blank`` observation when no note is read there.
    """

    job_id: int
    frame: int
    time_s: float
    kind: str
    region_mm: tuple[float, float, float, float]
    core_mm: tuple[float, float, float, float]
    px_per_mm: float
    image: np.ndarray
    hints_mm: tuple[np.ndarray, ...] = ()
    track_ids: tuple[int, ...] = ()
    still: bool = True
    blank_rects_mm: tuple[np.ndarray, ...] = ()


@dataclass(frozen=True)
class JobResult:
    """What a job found: observations in table mm, the time it took (s), or an error sentence."""

    job: ReadJob
    observations: tuple[Observation, ...] = ()
    elapsed_s: float = 0.0
    error: str | None = None
    finished_at: float = field(default_factory=time.monotonic)


def _to_px(quad_mm: np.ndarray, job: ReadJob) -> np.ndarray:
    x0, y0 = job.region_mm[0], job.region_mm[1]
    return ((np.asarray(quad_mm, np.float64) - [x0, y0]) * job.px_per_mm - 0.5).astype(np.float32)


def _to_mm(quad_px: np.ndarray, job: ReadJob) -> np.ndarray:
    x0, y0 = job.region_mm[0], job.region_mm[1]
    return (np.asarray(quad_px, np.float64) + 0.5) / job.px_per_mm + [x0, y0]


class RegionEngine:
    """The reader's detector, recognizer and orientation classifier, aware of the view's scale.

    Wraps a :class:`~dealer_assist.vision.ocr.RapidOcrEngine` (or anything
    with ``detect``, ``is_upside_down`` and ``recognize``). Before each read
    the caller sets :attr:`px_per_mm` and, for a confirm read, :attr:`hints`
    (print quads in the image's pixels).
    """

    def __init__(self, base, length_mm: Sequence[float] = PRINT_LENGTH_MM,
                 height_mm: Sequence[float] = PRINT_HEIGHT_MM) -> None:
        self.base = base
        self.name = base.name
        self.length_mm = tuple(length_mm)
        self.height_mm = tuple(height_mm)
        self.px_per_mm = 1.0
        self.hints: list[np.ndarray] | None = None

    def detect(self, image: np.ndarray) -> list[np.ndarray]:
        """Text-line quads ``(4, 2)`` float32 px of serial-print size (or the hints)."""
        if self.hints is not None:
            return [np.asarray(h, np.float32).reshape(4, 2) for h in self.hints]
        out = []
        for box in self.base.detect(image):
            w, h = quad_size(box)
            length, height = max(w, h) / self.px_per_mm, min(w, h) / self.px_per_mm
            if self.length_mm[0] <= length <= self.length_mm[1] and self.height_mm[0] <= height <= self.height_mm[1]:
                out.append(box)
        return out

    def is_upside_down(self, crop: np.ndarray) -> tuple[bool, float]:
        return self.base.is_upside_down(crop)

    def recognize(self, crop: np.ndarray):
        return self.base.recognize(crop)


def make_reader(use_second: bool = True, layout=None):
    """A :class:`~dealer_assist.vision.reader.SerialReader` whose detector is a :class:`RegionEngine`
    over RapidOCR (one onnxruntime thread; views up to 1536 px are detected at full size), with the
    reader's default cross-check engines, and the deck's note ``layout`` (a calibration profile's
    ``notes`` section, or None) for the reader's fast path."""
    from dealer_assist.vision.ocr import RapidOcrEngine
    from dealer_assist.vision.reader import SURE_WAY_UP, SerialReader

    engine = RegionEngine(RapidOcrEngine(threads=1, det_max_side=1536))
    return SerialReader(primary=engine, use_second=use_second, layout=layout, unsure_way_up=SURE_WAY_UP)


def _layout_prints(quad: np.ndarray, layout) -> list[np.ndarray]:
    """The print quads ``(4, 2)`` px of an upright note quad (TL, TR, BR, BL), from a deck's layout."""
    unit = np.array([[0, 0], [1, 0], [1, 1], [0, 1]], np.float32)
    m = cv2.getPerspectiveTransform(unit, np.asarray(quad, np.float32))
    out = []
    for p in layout.prints:
        x0, y0, x1, y1 = p.box
        box = np.array([[[x0, y0], [x1, y0], [x1, y1], [x0, y1]]], np.float32)
        out.append(cv2.perspectiveTransform(box, m).reshape(4, 2).astype(np.float64))
    return out


def read_region(reader, job: ReadJob) -> tuple[Observation, ...]:
    """Read the notes of one job's image; observations in table mm, only those centred in ``job.core_mm``.

    ``reader`` is a ``SerialReader`` whose ``primary`` is a :class:`RegionEngine`
    (see :func:`make_reader`); any object with ``read(image) -> list[NoteRead]``
    works too (the hints and the size filter are then not used).
    """
    engine = getattr(reader, "primary", None)
    if isinstance(engine, RegionEngine):
        engine.px_per_mm = job.px_per_mm
        engine.hints = [_to_px(h, job) for h in job.hints_mm] if job.hints_mm else None
    try:
        notes = reader.read(job.image)
    finally:
        if isinstance(engine, RegionEngine):
            engine.hints = None
    x0, y0, x1, y1 = job.core_mm
    h, w = job.image.shape[:2]
    out = []
    layout = getattr(reader, "layout", None)
    for n in notes:
        prints_px = [np.asarray(p.quad, np.float64) for p in getattr(n, "prints", [])]
        if n.serial is None and any(getattr(p, "cut", False) for p in getattr(n, "prints", [])):
            continue  # a note cut by the view's edge: the read of its own place sees it whole
        quad_px = np.asarray(n.quad, np.float64)
        outlined = bool(prints_px) and all(np.abs(p - quad_px).max() < 1.0 for p in prints_px)
        pair = None if outlined else _ruble_pair(prints_px)
        if outlined:
            # the reader's fast path (a calibrated deck): the note's outline was found, and its
            # prints lie where the layout puts them
            prints_px = _layout_prints(quad_px, layout) if layout is not None else []
        elif pair is not None:
            # both prints found: the note's place follows from them (the reader's snap to the
            # note's edges may catch a neighbour's edge or the view's border in a small view)
            quad_px = note_quad_from_prints(*pair).astype(np.float64)
        elif prints_px:
            # one print seen: it is the top-right or the left one; keep the reading of it whose note
            # lies in the view (else the other print may be outside it: a read that sees all the note decides)
            slack = OUTSIDE_SLACK_MM * job.px_per_mm
            # (the reader's own guess takes it for the top-right print, scaled by the print's length)
            fits = [q for q in (_note_from_print(prints_px[0], "top_right", job.px_per_mm),
                                _note_from_print(prints_px[0], "left", job.px_per_mm))
                    if (q >= -slack).all() and (q[:, 0] <= w + slack).all() and (q[:, 1] <= h + slack).all()]
            if not fits and job.hints_mm:
                # a confirm read of a known note: the print is that note's, wherever the view ends
                fits = [_note_from_print(prints_px[0], "top_right", job.px_per_mm),
                        _note_from_print(prints_px[0], "left", job.px_per_mm)]
            if not fits:
                continue
            # a read is centred on the place that changed, or on the note it re-reads
            centre = np.array([w / 2.0, h / 2.0])
            quad_px = min(fits, key=lambda q: float(np.linalg.norm(q.mean(axis=0) - centre)))
        quad = _to_mm(quad_px, job)
        anchor_px = np.mean([p.mean(axis=0) for p in prints_px], axis=0) if prints_px else quad_px.mean(axis=0)
        anchor = _to_mm(np.asarray(anchor_px).reshape(1, 2), job)[0]
        if not (x0 <= anchor[0] <= x1 and y0 <= anchor[1] <= y1):
            continue
        out.append(Observation(quad, n.serial, float(n.confidence), n.status, n.reason,
                               tuple(_to_mm(p, job) for p in prints_px), anchor, disputed=_disputed(n)))
    out = _merge_split_prints(out)
    # the reader may leave one print of a note it read as a note of its own (its digits too far
    # from the other print's to be grouped): a print without a serial lying on a read note is that note's
    # (and when that print's reads named another serial, the note is disputed, not trusted)
    read = [j for j, o in enumerate(out) if o.serial is not None]
    dropped = set()
    for i, o in enumerate(out):
        on = [j for j in read if o.serial is None and _on_note(o.anchor, out[j].quad_mm)]
        if not on:
            continue
        dropped.add(i)
        for j in on:
            r = out[j]
            named = set(r.disputed) | ({r.serial} if r.serial is not None else set())
            if set(o.disputed) - named:
                values = tuple(sorted(named | set(o.disputed)))
                out[j] = Observation(r.quad_mm, None, 0.0, "unreadable",
                                     f"the note's prints read differently ({', '.join(values)})",
                                     r.print_quads_mm, r.anchor_mm, disputed=values)
    return tuple(o for i, o in enumerate(out) if i not in dropped)


def _merge_split_prints(obs: list[Observation]) -> list[Observation]:
    """Join two one-print observations that lie as one note's two prints (the reader grouped them
    apart because their reads differ); the joined note keeps the serial if one of them has it."""
    out = list(obs)
    merged = True
    while merged:
        merged = False
        for i in range(len(out)):
            for j in range(i + 1, len(out)):
                a, b = out[i], out[j]
                if len(a.print_quads_mm) != 1 or len(b.print_quads_mm) != 1:
                    continue
                if a.serial is not None and b.serial is not None:
                    continue  # two serials: two notes (or a disagreement the tracker weighs)
                pair = _ruble_pair([a.print_quads_mm[0], b.print_quads_mm[0]])
                if pair is None:
                    continue
                keep, other = (a, b) if a.serial is not None or b.serial is None else (b, a)
                quad = note_quad_from_prints(*pair).astype(np.float64)
                prints = (a.print_quads_mm[0], b.print_quads_mm[0])
                anchor = np.mean([p.mean(axis=0) for p in prints], axis=0)
                values = set(a.disputed) | set(b.disputed) | ({keep.serial} if keep.serial else set())
                if keep.serial is not None and values <= {keep.serial}:
                    joined = Observation(quad, keep.serial, keep.confidence, keep.status, keep.reason, prints, anchor)
                elif keep.serial is not None:
                    # the other print read another serial: the note's two prints disagree
                    joined = Observation(quad, None, 0.0, "unreadable",
                                         f"the two prints read differently ({', '.join(sorted(values))})",
                                         prints, anchor, disputed=tuple(sorted(values)))
                else:
                    joined = Observation(quad, None, 0.0, keep.status, keep.reason, prints, anchor,
                                         disputed=tuple(sorted(values)))
                out = [o for k, o in enumerate(out) if k not in (i, j)] + [joined]
                merged = True
                break
            if merged:
                break
    return out


def _disputed(note) -> tuple[str, ...]:
    """The 7-digit values read on a note the reader left ``unreadable`` (sorted; empty otherwise).

    Only prints whose way up is known count (an ambiguous print's digits may
    be upside down), and only the PP-OCR engines' reads: Tesseract, the last
    cross-check, misreads too often (16 wrong 7-digit reads of 83 real
    prints) for its values to hold a note back."""
    from dealer_assist.vision.ocr import TesseractEngine
    from dealer_assist.vision.serials import SerialKind

    if getattr(note, "status", "") != "unreadable":
        return ()
    values = set()
    for p in getattr(note, "prints", []):
        if getattr(p, "ambiguous", False) or not hasattr(p, "serials"):
            continue
        values.update(s.digits for r, s in p.serials(SerialKind.SERIAL7)
                      if getattr(r, "engine", None) != TesseractEngine.name)
    return tuple(sorted(values))


def _on_note(point: np.ndarray, quad: np.ndarray, slack_mm: float = 10.0) -> bool:
    poly = np.asarray(quad, np.float32).reshape(-1, 1, 2)
    return cv2.pointPolygonTest(poly, (float(point[0]), float(point[1])), True) >= -slack_mm


def _note_from_print(print_quad: np.ndarray, which: str, px_per_mm: float) -> np.ndarray:
    """The note's quad ``(4, 2)`` px in a top view of known scale, taking one upright print to be
    its ``"top_right"`` or ``"left"`` print (1997-series layout, :mod:`dealer_assist.vision.geometry`)."""
    c, u, v, _ = line_frame(print_quad)
    cx, cy = TOP_RIGHT_PRINT_MM if which == "top_right" else LEFT_PRINT_MM
    nw, nh = NOTE_SIZE_MM
    origin = c - (u * cx + v * cy) * px_per_mm
    return np.array([origin, origin + u * nw * px_per_mm, origin + (u * nw + v * nh) * px_per_mm,
                     origin + v * nh * px_per_mm], np.float64)


def note_box_around_print(print_quad_mm: np.ndarray) -> tuple[float, float, float, float]:
    """Where the note of one serial print may lie: the bounding box (x0, y0, x1, y1), table mm, of
    every note that print may belong to (it taken as the top-right or the left print, either way
    up), for a print ``(4, 2)`` in table mm whose digits were not read (so its way up is unknown).

    An axis-aligned print gives a box of about 270 x 120 mm around it.
    """
    quad = np.asarray(print_quad_mm, np.float64).reshape(4, 2)
    centre = quad.mean(axis=0)
    corners = []
    for which in ("top_right", "left"):
        q = _note_from_print(quad, which, 1.0)
        corners.extend([q, 2 * centre - q])
    pts = np.concatenate(corners)
    return (float(pts[:, 0].min()), float(pts[:, 1].min()), float(pts[:, 0].max()), float(pts[:, 1].max()))


def _ruble_pair(prints: Sequence[np.ndarray]) -> tuple[np.ndarray, np.ndarray] | None:
    """(top-right, left) print quads when two of ``prints`` lie as a 1997-series note's do."""
    from dealer_assist.vision.reader import is_ruble_pair

    for i in range(len(prints)):
        for j in range(i + 1, len(prints)):
            ok, top, left = is_ruble_pair(prints[i], prints[j])
            if ok:
                return top, left
    return None


# --------------------------------------------------------------------------- workers

_READER = None


def _init_process(use_second: bool, layout) -> None:
    global _READER
    _READER = make_reader(use_second, layout)


def _run_in_process(job: ReadJob) -> JobResult:
    t0 = time.perf_counter()
    try:
        obs = read_region(_READER, job)
    except Exception as exc:  # the worker reports, the display loop decides
        return JobResult(job, (), time.perf_counter() - t0, _sentence(exc))
    return JobResult(job, obs, time.perf_counter() - t0)


def _sentence(exc: BaseException) -> str:
    text = str(exc).strip() or type(exc).__name__
    return text if text.endswith(".") else text + "."


class ProcessWorker:
    """Runs read jobs one at a time in a separate process (``spawn``: a clean interpreter).

    ``layout``: the deck's note layout (a calibration profile's ``notes``
    section) for the reader's fast path, or None.

    :meth:`submit` returns at once (False when a job is still running); the
    loop calls :meth:`poll` each frame. The process loads the OCR models on
    its first job (about a second) unless :meth:`warm_up` is called first.
    A crashed process is restarted on the next :meth:`submit`.
    """

    def __init__(self, use_second: bool = True, layout=None) -> None:
        self.use_second = use_second
        self.layout = layout
        self._pool: cf.ProcessPoolExecutor | None = None
        self._future: cf.Future | None = None
        self._job: ReadJob | None = None
        self.crashes = 0

    def _ensure(self) -> cf.ProcessPoolExecutor:
        if self._pool is None:
            self._pool = cf.ProcessPoolExecutor(1, mp_context=multiprocessing.get_context("spawn"),
                                                initializer=_init_process, initargs=(self.use_second, self.layout))
        return self._pool

    def warm_up(self) -> None:
        """Start the process and load the models now (blocks until done)."""
        self._ensure().submit(_warm).result()

    @property
    def busy(self) -> bool:
        return self._future is not None

    def submit(self, job: ReadJob) -> bool:
        if self._future is not None:
            return False
        try:
            self._future = self._ensure().submit(_run_in_process, job)
        except Exception:  # a broken pool: start a new one
            self._restart()
            self._future = self._ensure().submit(_run_in_process, job)
        self._job = job
        return True

    def poll(self, timeout: float = 0.0) -> list[JobResult]:
        """Finished results (at most one); waits up to ``timeout`` seconds for it."""
        if self._future is None:
            return []
        try:
            result = self._future.result(timeout=timeout) if timeout else (
                self._future.result() if self._future.done() else None)
        except cf.TimeoutError:
            return []
        except Exception as exc:  # the process died (BrokenProcessPool) or the job could not be sent
            job = self._job
            self._future, self._job = None, None
            self.crashes += 1
            self._restart()
            return [JobResult(job, (), 0.0, f"the OCR process stopped ({_sentence(exc)[:-1]}); it was restarted.")]
        if result is None:
            return []
        self._future, self._job = None, None
        return [result]

    def _restart(self) -> None:
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)
        self._pool = None

    def close(self) -> None:
        """Stop the process (after the read in progress, if any: at most a second or two)."""
        if self._pool is not None:
            self._pool.shutdown(wait=True, cancel_futures=True)
            self._pool = None
        self._future = None


def _warm() -> bool:
    import numpy as _np

    _READER.read(_np.full((64, 256, 3), 255, _np.uint8))
    return True


class InlineWorker:
    """Runs each job in the caller at :meth:`submit` (blocking); results come out of :meth:`poll`.

    Args:
        reader: anything with ``read(image) -> list[NoteRead]``; default :func:`make_reader`.
        read: instead of a reader, a function ``job -> observations`` (tests).
    """

    def __init__(self, reader=None, read: Callable[[ReadJob], Sequence[Observation]] | None = None) -> None:
        self._reader = reader
        self._read = read
        self._done: list[JobResult] = []

    busy = False

    def warm_up(self) -> None:
        if self._read is None and self._reader is None:
            self._reader = make_reader()

    def submit(self, job: ReadJob) -> bool:
        t0 = time.perf_counter()
        try:
            if self._read is not None:
                obs = tuple(self._read(job))
            else:
                if self._reader is None:
                    self._reader = make_reader()
                obs = read_region(self._reader, job)
            self._done.append(JobResult(job, obs, time.perf_counter() - t0))
        except Exception as exc:
            self._done.append(JobResult(job, (), time.perf_counter() - t0, _sentence(exc)))
        return True

    def poll(self, timeout: float = 0.0) -> list[JobResult]:
        done, self._done = self._done, []
        return done

    def close(self) -> None:
        pass
