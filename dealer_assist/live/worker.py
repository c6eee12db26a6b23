"""The serial reader run off the display loop: one job at a time, in its own process.

A :class:`ReadJob` carries a small top view of one region of the table (see
:func:`~.changes.warp_region`), never a whole frame: the reader's cost grows
with the number of text lines it sees, so the live loop sends only the place
where a note appeared, turned over, or still waits for a second read.

:func:`read_region` is what runs in the worker: the standard
:class:`~dealer_assist.vision.reader.SerialReader` (same trust rules as
``dealer-assist read``), told what the view is (:func:`job_hints`): its
scale, so only text lines of a serial print's physical size are read (a
header or the word ``ОБРАЗЕЦ`` is not recognised for nothing) and notes are
placed and joined in millimetres; and, for a note already found, its known
print quads, read without text detection at all (a *confirm* read). The
reader decides; this module converts pixels and millimetres.

Workers: :class:`ProcessWorker` (the default: a separate process, so OCR
never holds the display loop's interpreter) and :class:`InlineWorker` (runs
the job in the caller, for tests and tools). Both give results through
:meth:`poll`; neither blocks in :meth:`submit`.
"""

from __future__ import annotations

import concurrent.futures as cf
import dataclasses
import multiprocessing
import time
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Callable, Sequence

import numpy as np

from dealer_assist.live.tracker import Observation
from dealer_assist.vision.geometry import note_quad_from_print
from dealer_assist.vision.model import ReadHints

__all__ = ["ReadJob", "JobResult", "read_region", "ProcessWorker", "InlineWorker", "make_reader",
           "note_box_around_print"]


class JobKind(StrEnum):
    """Why a region is read (the scheduler's order: :meth:`~.read_planning.ReadPlanning._next_job`)."""

    SCAN = "scan"                      # the zones searched for text lines at start-up (nothing read)
    DISCOVER = "discover"              # a place changed: a note-shaped change or one at a known note
    DISCOVER_OTHER = "discover-other"  # another change: a hand, part of a note
    CONFIRM = "confirm"                # re-read a known note at its prints
    RETRY = "retry"                    # a changed place where nothing was found, again from a later frame

    @property
    def discovers(self) -> bool:
        """A read of a changed place (notes found there replace what was tracked there)."""
        return self in (JobKind.DISCOVER, JobKind.DISCOVER_OTHER)


@dataclass(frozen=True)
class ReadJob:
    """One region of one frame to read.

    Attributes:
        job_id: unique per session.
        frame: the frame's index; time_s: its source time, s.
        kind: why the region is read (:class:`JobKind`).
        region_mm: (x0, y0, x1, y1) table mm the image shows.
        core_mm: (x0, y0, x1, y1) the part of it this job answers for: notes
            centred outside it are left to other jobs (they may be cut by the edge).
        px_per_mm: the image's scale.
        image: ``uint8`` ``(h, w, 3)`` BGR top view of ``region_mm``.
        hints_mm: for a confirm read, the known print quads ``(4, 2)`` in table mm.
        hints_upright: those quads are upright as a read that gave the serial left them (read that
            way first); False: their way up is unsettled (each is read both ways up).
        detect_px_per_mm: the scale the text detector looks for lines at (the view shrunk to it;
            :class:`~dealer_assist.vision.model.ReadHints`); None: the view's own.
        track_ids: the tracks this job was made for (confirm reads).
        still: nothing moved over the region when the frame was taken.
        blank_rects_mm: note-shaped changes (``(4, 2)`` mm) that became a
            ``blank`` observation when no note is read there.
    """

    job_id: int
    frame: int
    time_s: float
    kind: JobKind
    region_mm: tuple[float, float, float, float]
    core_mm: tuple[float, float, float, float]
    px_per_mm: float
    image: np.ndarray
    hints_mm: tuple[np.ndarray, ...] = ()
    track_ids: tuple[int, ...] = ()
    still: bool = True
    blank_rects_mm: tuple[np.ndarray, ...] = ()
    hints_upright: bool = True
    detect_px_per_mm: float | None = None

    def __post_init__(self) -> None:
        object.__setattr__(self, "kind", JobKind(self.kind))  # "confirm" is taken as JobKind.CONFIRM


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


def make_reader(use_second: bool = True, layout=None):
    """The reader live mode uses (from the one reader factory, :func:`dealer_assist.app.readers.get_reader`):
    views up to 1536 px are detected at full size, with the reader's default cross-check engines, the
    deck's note ``layout`` (a calibration profile's ``notes`` section, or None) for the fast path, and
    lines the up/down classifier turned unsure read the other way up too
    (:data:`~dealer_assist.vision.params.SURE_WAY_UP`)."""
    from dealer_assist.app.readers import get_reader
    from dealer_assist.vision.reader import DEFAULT_PARAMS, SURE_WAY_UP

    return get_reader(layout, params=dataclasses.replace(DEFAULT_PARAMS, unsure_way_up=SURE_WAY_UP),
                      det_max_side=1536, use_second=use_second)


def job_hints(job: ReadJob) -> ReadHints:
    """What the reader is told about a job's view: its scale, the known prints of a confirm read (upright,
    as the read that found them left them, unless ``job.hints_upright`` is False), and that its quads stay as the prints give them (a small
    view's edges may be a neighbour's)."""
    quads = tuple(_to_px(h, job) for h in job.hints_mm) if job.hints_mm else None
    # a known note's prints come from a read that settled their way up (the tracker keeps the prints a
    # serial was read from): each is recognised that way up first
    return ReadHints(px_per_mm=job.px_per_mm, print_quads=quads, refine_quad=False,
                     prints_upright=quads is not None and job.hints_upright, detect_px_per_mm=job.detect_px_per_mm)


def read_region(reader, job: ReadJob) -> tuple[Observation, ...]:
    """Read the notes of one job's view; observations in table mm, only those centred in ``job.core_mm``.

    A scan (``JobKind.SCAN``) reads nothing: it finds the serial-sized text lines of its view
    (``reader.find_lines``), each one observation without a serial whose quad and only print are
    the line, for the session to read the place around it.

    ``reader``: anything with ``read(image, hints) -> list[NoteRead]`` (see
    :func:`make_reader`). The reader decides every note (grouping, trust,
    disputes, placement); here its pixels become table millimetres, and notes
    that this view does not see whole are left to the read of their own place:
    an unread note with a print cut by the view's edge, and a note placed
    from one print that reaches out of the view (``NoteRead.outside``).
    """
    x0, y0, x1, y1 = job.core_mm
    if job.kind is JobKind.SCAN:
        return tuple(_line_observation(q, job) for q in reader.find_lines(job.image, job_hints(job))
                     if x0 <= (c := _to_mm(q, job).mean(axis=0))[0] <= x1 and y0 <= c[1] <= y1)
    notes = reader.read(job.image, job_hints(job))
    out = []
    for n in notes:
        if n.outside or (n.serial is None and n.cut):
            continue
        anchor = _to_mm(np.asarray(n.anchor).reshape(1, 2), job)[0]
        if not (x0 <= anchor[0] <= x1 and y0 <= anchor[1] <= y1):
            continue
        out.append(Observation(_to_mm(n.quad, job), n.serial, float(n.confidence), str(n.status), n.reason,
                               tuple(_to_mm(p.quad, job) for p in n.prints), anchor, disputed=tuple(n.disputed)))
    return tuple(out)


def _line_observation(quad_px: np.ndarray, job: ReadJob) -> Observation:
    """A serial-sized text line a scan found, not read: where a note's print may be (its quad in
    table mm, no serial; the session reads the place around it)."""
    quad = _to_mm(np.asarray(quad_px, np.float64).reshape(4, 2), job)
    return Observation(quad, None, 0.0, "unreadable", "a text line of a serial print's size, not read yet",
                       (quad,), quad.mean(axis=0))


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
        q = note_quad_from_print(quad, which, 1.0, dtype=np.float64)
        corners.extend([q, 2 * centre - q])
    pts = np.concatenate(corners)
    return (float(pts[:, 0].min()), float(pts[:, 1].min()), float(pts[:, 0].max()), float(pts[:, 1].max()))


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
