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

from dealer_assist.live.changes import exposed_for_reading
from dealer_assist.live.tracker import Observation
from dealer_assist.vision.geometry import note_quad_from_print
from dealer_assist.vision.model import ReadHints

#: The status of an observation of a note the view saw only in part (not a tracker status: the session reads
#: the note's own place, :meth:`~.session.LiveSession._apply`).
CUT = "cut"

__all__ = ["CUT", "ReadJob", "JobResult", "WindowView", "WindowLooks", "read_region", "look_windows", "run_job",
           "serial_model", "ProcessWorker", "InlineWorker", "make_reader", "note_box_around_print"]


class JobKind(StrEnum):
    """Why a region is read (the scheduler's order: :meth:`~.read_planning.ReadPlanning._next_job`)."""

    SCAN = "scan"                      # the zones searched for text lines at start-up (nothing read)
    DISCOVER = "discover"              # a place changed: a note-shaped change or one at a known note
    DISCOVER_OTHER = "discover-other"  # another change: a hand, part of a note
    CONFIRM = "confirm"                # re-read a known note at its prints
    LOOK = "look"                      # the serial model alone on known notes' two print windows
    RETRY = "retry"                    # a changed place where nothing was found, again from a later frame

    @property
    def discovers(self) -> bool:
        """A read of a changed place (notes found there replace what was tracked there)."""
        return self in (JobKind.DISCOVER, JobKind.DISCOVER_OTHER)


@dataclass(frozen=True)
class WindowView:
    """A known note's two serial-print windows in one frame, for a ``look`` job.

    Attributes:
        track_id: the note's track.
        windows_mm: the windows ``(4, 2)`` in table mm, as the track keeps them.
        images: per window, a small top view around it (``uint8`` BGR).
        quads_px: per window, its quad ``(4, 2)`` in that view's pixels.
    """

    track_id: int
    windows_mm: tuple[np.ndarray, ...]
    images: tuple[np.ndarray, ...]
    quads_px: tuple[np.ndarray, ...]


@dataclass(frozen=True)
class WindowLooks:
    """What the serial model saw in one note's windows in one frame: ``looks[way][i]`` for window ``i``
    (:func:`~dealer_assist.vision.print_evidence.look_at_windows`), the windows as sent."""

    track_id: int
    windows_mm: tuple[np.ndarray, ...]
    looks: dict


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
        windows: for a ``look`` job, the notes' print windows (:class:`WindowView`); ``image`` is then empty.
        look: the serial model looks at the two prints of each note this read finds both prints of
            (:attr:`Observation.looks <.tracker.Observation>`); False when the session does not use looks.
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
    windows: tuple[WindowView, ...] = ()
    look: bool = True

    def __post_init__(self) -> None:
        object.__setattr__(self, "kind", JobKind(self.kind))  # "confirm" is taken as JobKind.CONFIRM


@dataclass(frozen=True)
class JobResult:
    """What a job found: observations in table mm, the serial model's looks at print windows (a ``look``
    job's; None when the model cannot be used), the time it took (s), or an error sentence."""

    job: ReadJob
    observations: tuple[Observation, ...] = ()
    elapsed_s: float = 0.0
    error: str | None = None
    finished_at: float = field(default_factory=time.monotonic)
    looks: tuple[WindowLooks, ...] | None = ()


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


def serial_model(reader):
    """The serial model (:class:`~dealer_assist.vision.recognizer.SerialCtcEngine`) of ``reader`` (one of its
    cross-check engines), or a new one; None when its file or card cannot be used."""
    from dealer_assist.vision.recognizer import SERIAL_CTC, SerialCtcEngine

    cached = getattr(reader, "_live_serial_model", False)
    if cached is not False:
        return cached
    model = next((e for e in getattr(reader, "seconds", ()) if getattr(e, "name", None) == SERIAL_CTC), None)
    if model is None:
        model = SerialCtcEngine()
        model = None if model.problem() else model
    try:
        reader._live_serial_model = model
    except AttributeError:  # a reader that takes no attributes: looked up again next time
        pass
    return model


def look_windows(model, job: ReadJob) -> tuple[WindowLooks, ...]:
    """A ``look`` job: the serial model alone on each note's two print windows, both ways up, in one batch
    (:mod:`dealer_assist.vision.print_evidence`; no text detector: ~10 ms a note)."""
    from dealer_assist.vision.print_evidence import WAYS, look_at_crops, window_crops

    crops, spans = [], []
    for v in job.windows:
        start = len(crops)
        for image, quad in zip(v.images, v.quads_px):
            crops.extend(window_crops(image, [quad]))
        spans.append((start, len(v.quads_px)))
    looks = look_at_crops(model, crops)
    out = []
    for v, (start, n) in zip(job.windows, spans):
        mine = looks[start:start + 2 * n]
        out.append(WindowLooks(v.track_id, v.windows_mm,
                               {way: tuple(mine[2 * i + way] for i in range(n)) for way in WAYS}))
    return tuple(out)


def run_job(reader, job: ReadJob) -> tuple[tuple[Observation, ...], tuple[WindowLooks, ...] | None]:
    """What a worker does with a job: ``(observations, looks)`` (:func:`look_windows` for a ``look`` job,
    looks None when the serial model cannot be used; :func:`read_region` for any other)."""
    if job.kind is JobKind.LOOK:
        model = serial_model(reader)
        return (), (None if model is None else look_windows(model, job))
    return read_region(reader, job), ()


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
    from one print that reaches out of the view (``NoteRead.outside``), each
    an observation of status :data:`CUT` (no serial) for the session to read
    its place.
    """
    x0, y0, x1, y1 = job.core_mm
    image = exposed_for_reading(job.image)  # a dim view brightened: low-contrast lines escape the text detector
    if job.kind is JobKind.SCAN:
        return tuple(_line_observation(q, job) for q in reader.find_lines(image, job_hints(job))
                     if x0 <= (c := _to_mm(q, job).mean(axis=0))[0] <= x1 and y0 <= c[1] <= y1)
    notes = reader.read(image, job_hints(job))
    out = []
    model = False
    for n in notes:
        anchor = _to_mm(np.asarray(n.anchor).reshape(1, 2), job)[0]
        if n.outside or (n.serial is None and n.cut):
            # seen only in part (cut by the view's edge): left to a read of its own place, which the session
            # queues from this CUT observation (a note revealed beside a changed place is read so)
            if x0 <= anchor[0] <= x1 and y0 <= anchor[1] <= y1:
                out.append(Observation(_to_mm(n.quad, job), None, 0.0, CUT, "cut by the read's edge",
                                       tuple(_to_mm(p.quad, job) for p in n.prints), anchor))
            continue
        if not (x0 <= anchor[0] <= x1 and y0 <= anchor[1] <= y1):
            continue
        looks = None
        if job.look and len(n.prints) >= 2 and not any(p.cut for p in n.prints[:2]):
            # both prints found: the serial model's look at them in this frame starts their evidence
            # (dealer_assist.vision.print_evidence; ~10 ms), the windows the print quads as found
            if model is False:
                model = serial_model(reader)
            if model is not None:
                from dealer_assist.vision.print_evidence import look_at_windows

                looks = look_at_windows(model, image, [np.asarray(p.quad, np.float32) for p in n.prints[:2]])
        out.append(Observation(_to_mm(n.quad, job), n.serial, float(n.confidence), str(n.status), n.reason,
                               tuple(_to_mm(p.quad, job) for p in n.prints), anchor, disputed=tuple(n.disputed),
                               looks=looks))
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
        obs, looks = run_job(_READER, job)
    except Exception as exc:  # the worker reports, the display loop decides
        return JobResult(job, (), time.perf_counter() - t0, _sentence(exc))
    return JobResult(job, obs, time.perf_counter() - t0, looks=looks)


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

    #: it runs ``look`` jobs (the serial model on known print windows)
    can_look = True

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
        look: with ``read``, a function ``job -> looks`` (:class:`WindowLooks`) for ``look`` jobs (tests);
            without it such a worker is given no ``look`` job.
    """

    def __init__(self, reader=None, read: Callable[[ReadJob], Sequence[Observation]] | None = None,
                 look: Callable[[ReadJob], Sequence[WindowLooks]] | None = None) -> None:
        self._reader = reader
        self._read = read
        self._look = look
        self._done: list[JobResult] = []

    @property
    def can_look(self) -> bool:
        return self._read is None or self._look is not None

    busy = False

    def warm_up(self) -> None:
        if self._read is None and self._reader is None:
            self._reader = make_reader()

    def submit(self, job: ReadJob) -> bool:
        t0 = time.perf_counter()
        try:
            looks: tuple | None = ()
            if self._read is not None and job.kind is JobKind.LOOK:
                obs, looks = (), tuple(self._look(job)) if self._look is not None else None
            elif self._read is not None:
                obs = tuple(self._read(job))
            else:
                if self._reader is None:
                    self._reader = make_reader()
                obs, looks = run_job(self._reader, job)
            self._done.append(JobResult(job, obs, time.perf_counter() - t0, looks=looks))
        except Exception as exc:
            self._done.append(JobResult(job, (), time.perf_counter() - t0, _sentence(exc)))
        return True

    def poll(self, timeout: float = 0.0) -> list[JobResult]:
        done, self._done = self._done, []
        return done

    def close(self) -> None:
        pass
