"""Live mode on webcam videos of *real* notes: dealt hands decided right, wrongly, or not at all.

    .venv/bin/python benchmarks/bench_live_real.py [--setups A B] [--hands 6] [--realtime | --cpu-clock] [--seed 1]
        [--cache /tmp/dealer-assist-livebench] [--json OUT] [--photos ../shared/real_photos]

What runs:

1. **Cut-outs** (:mod:`dealer_assist.synth.real_notes`): every legible 7-digit note of
   ``--photos`` (labels.json) is found by the reader, outlined by GrabCut, rectified and
   kept when clean (whole, the right way up, its serial read again on the flat note).
   Made at run time and cached under ``--cache``; never stored in the project (the
   photos carry no licence). ``contact_sheet.png`` in the cache shows them.
2. **Videos** (:mod:`dealer_assist.synth.real_scene`): per set-up (**A**: 1920x1080
   webcam over a 57x33 cm mat; **B**: 3840x2160 over a 115x65 cm table; both 2.2-3.3
   px/mm, far side lower; **C**: A's mat under B's webcam, 4.4-6.6 px/mm; **D**: 3840x2160
   over a 100x60 cm table at 3.0-4.0 px/mm, six seats, the end seats turned 90 degrees,
   ArUco corner markers, felt under a dim warm lamp), ``--hands`` hands of 3, 4, 5, 6, 3, 4
   ... players (D: 6 each) at 10 fps:
   empty table, the deal face down (each note slid in under a hand), flop, turn and
   river face up, every player turning both notes over, 2.5 s still. The frames are
   encoded (H.264 through ffmpeg when installed, else OpenCV's mp4v: said below) and
   the *decoded* video is played. Cached under ``--cache``.
3. **Play**: the calibration profile is built from the renderer's truth (homography
   image -> table mm, the board and seat zones), as ``bench_live_recorded.py`` does; on a
   set-up with markers (D) the plane is ``calibrate table --aruco``'s instead, fitted to the
   four markers of the hand's first decoded frame, the table's size measured from them;
   the session is ``dealer-assist live``'s :class:`~dealer_assist.live.session.LiveSession`
   with a :class:`~dealer_assist.live.worker.ProcessWorker`.
   *Frame by frame* (default): every read a frame calls for is done before the next
   frame (machine-independent; times are video seconds). ``--realtime``: the decoded
   frames (kept raw on disk while the hand plays) are served at 10 fps by a camera
   thread on the wall clock (a frame the loop is too slow for is never seen), after the
   empty table has been shown until the start-up scan is done; the display loop pumps as
   the live command does; the read in flight when the video (and ``settle_s`` of still
   table) ends is applied, no other; times are wall seconds from the video's start.
   ``--cpu-clock``: the camera's 10 fps on a clock of the reader's own CPU time, so that a
   machine shared with other work gives the figures of one where the reader has its core:
   each read is done in this process when the session asks for it, and its result is
   applied only at the first frame at least its CPU seconds later (video time); frames
   that come meanwhile are seen by the loop as they would be (change detection, queueing),
   the reader being busy. The empty table is shown until the start-up scan is done, the
   last frame for ``settle_s`` more (fresh noise), then the read in flight is applied.
   The display loop's own CPU is not counted (it has the other core).

Printed per set-up: hands decided right / decided wrongly / undecided; notes trusted
right / trusted WRONG / pending; seconds from a note's appearance (face up, both prints
uncovered, not moving) to its serial being trusted (median, 90th percentile); one line
per hand saying what went wrong. A hand is *decided wrongly* when live reports a
showdown whose winners or serials differ from the truth, or that left out a seat that
was dealt. ``--json OUT`` writes every hand's result, note by note.
"""

from __future__ import annotations

import argparse
import dataclasses
import hashlib
import io
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path

import cv2
import numpy as np

from dealer_assist.calibration.profile import Profile, TablePlane
from dealer_assist.calibration.table import zones_from_json
from dealer_assist.live.frame_source import CameraFeed, Frame
from dealer_assist.live.session import LiveOptions, LiveSession
from dealer_assist.live.table_state import TableState
from dealer_assist.live.worker import JobKind, ProcessWorker
from dealer_assist.rules import evaluate, parse_hand, result_to_json
from dealer_assist.synth.real_hand import SETUPS, NoteImage
from dealer_assist.synth.real_notes import contact_sheet, load_cutouts
from dealer_assist.synth.real_scene import FPS, write_real_hand
from dealer_assist.synth.video import decode_video, video_codec

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_live import NoiseBank  # noqa: E402  (the same simulated sensor noise)

REPO = Path(__file__).resolve().parents[1]
#: Bump when the videos change (the cache is keyed by it).
RENDER_VERSION = 2
#: Photos of ../shared/real_photos whose cut-outs pass the automatic checks but are not clean
#: to the eye (looked at on the contact sheet).
EXCLUDE_SHARED = {
    "real_030.jpg": "a strip of the patterned bedsheet along the note's top and left edges",
    "real_055.jpg": "fingertips over the note's bottom corners",
}


# --------------------------------------------------------------------------- preparing


def cutouts(photos: Path, cache: Path, exclude: dict[str, str]) -> list[NoteImage]:
    cuts, rejected = load_cutouts(photos, cache / "cutouts", exclude=exclude, log=lambda s: print(s, flush=True))
    cv2.imwrite(str(cache / "contact_sheet.png"), contact_sheet(cuts, rejected))
    print(f"{len(cuts)} clean cut-outs of {len(cuts) + len(rejected)} labelled legible 7-digit notes "
          f"(contact sheet: {cache / 'contact_sheet.png'})", flush=True)
    for r in rejected:
        why = exclude.get(r.source, r.reason) if r.reason == "excluded by the caller" else r.reason
        print(f"  left out {r.key}: {why}")
    return [NoteImage.from_cutout(c) for c in cuts]


def hand_dir(cache: Path, setup: str, seed: int, k: int, players: int, notes: list[NoteImage], codec: str) -> Path:
    digest = hashlib.sha1(("|".join(sorted(n.key for n in notes)) + repr(SETUPS[setup])
                           + SETUPS[setup].variant_key()).encode()).hexdigest()[:8]
    return cache / "hands" / f"{setup}_s{seed}_h{k}_{players}p_{codec}_v{RENDER_VERSION}_{digest}"


def ensure_hand(out: Path, setup: str, seed: int, k: int, players: int, notes: list[NoteImage], codec: str) -> dict:
    if not (out / "sequence.json").exists():
        t0 = time.perf_counter()
        print(f"rendering set-up {setup} hand {k} ({players} players) into {out} ...", flush=True)
        write_real_hand(out, seed * 1000 + k, SETUPS[setup], notes, n_players=players, codec=codec)
        print(f"  rendered in {time.perf_counter() - t0:.0f} s", flush=True)
    return json.loads((out / "sequence.json").read_text(encoding="utf-8"))


# --------------------------------------------------------------------------- playing


def profile_from_truth(summary: dict) -> Profile:
    table = summary["table"]
    plane = TablePlane(tuple(summary["image_size"]), np.asarray(table["homography_table_mm_from_image"], np.float64),
                       tuple(table["size_mm"]), tuple(zones_from_json(table)))
    return Profile("bench-real", None, None, plane)


def profile_from_markers(seq: Path, summary: dict) -> tuple[Profile, dict]:
    """The profile ``calibrate table --aruco`` makes of the hand's first (decoded, empty-table) frame: the
    plane from the four corner markers, the table's size measured from them (no --table-mm), the zones
    (table mm) from the renderer's truth, as a zones file gives them. Also returns how far the markers'
    plane is from the truth (mm, at the zones' corners) and the measured size."""
    from dealer_assist.calibration.table import detect_markers, homography_from_markers

    frame0 = next(iter(decode_video(seq / summary["video"])))
    fit = homography_from_markers(detect_markers(frame0), None)
    table = summary["table"]
    zones = tuple(zones_from_json(table))
    plane = TablePlane(tuple(summary["image_size"]), fit.homography, fit.table_size_mm, zones)
    truth_img = np.asarray(table["homography_image_from_table_mm"], np.float64)
    pts = np.concatenate([np.asarray(z.polygon_mm, np.float64) for z in zones])
    img = np.column_stack([pts, np.ones(len(pts))]) @ truth_img.T
    back = img @ np.asarray(fit.homography, np.float64).T
    err = np.linalg.norm(back[:, :2] / back[:, 2:3] - pts, axis=1)
    info = {"measured_mm": [round(v, 1) for v in fit.table_size_mm], "rms_px": round(fit.rms_px, 2),
            "zone_error_mm_max": round(float(err.max()), 2)}
    return Profile("bench-real-aruco", None, None, plane), info


def raw_frames(seq: Path, summary: dict) -> np.memmap:
    """The decoded video as raw frames in a file beside it (``frames.raw``, made when missing), so that
    a camera can serve them at 10 fps without decoding: a 4K H.264 frame takes ~0.1 s to decode here,
    which would take the camera below 10 fps on a busy 2-core machine."""
    w, h = summary["image_size"]
    n = summary["frames"]
    path = seq / "frames.raw"
    if not (path.exists() and path.stat().st_size == n * h * w * 3):
        mm = np.memmap(path, dtype=np.uint8, mode="w+", shape=(n, h, w, 3))
        k = 0
        for k, image in enumerate(decode_video(seq / summary["video"]), 1):
            mm[k - 1] = image
        mm.flush()
        del mm
        if k != n:
            path.unlink()
            raise RuntimeError(f"{seq / summary['video']} decodes to {k} frames, not {n}")
    return np.memmap(path, dtype=np.uint8, mode="r", shape=(n, h, w, 3))


class _TableCamera:
    """A live camera over the table, delivering a frame every 1/10 s: the first (empty) frame until
    :meth:`start`, then the video frame due at that moment (the video runs on the wall clock; a loop
    too slow for a frame never sees it), then the last frame. Frames shown again get fresh sensor
    noise (no two camera frames are identical)."""

    live = True
    label = "table camera"
    fps = FPS

    def __init__(self, frames: np.ndarray) -> None:
        self.frames = frames
        self.t0: float | None = None
        self.delivered: list[int] = []  # video frame of each delivered frame
        self._next_at = time.monotonic()
        self._noise: NoiseBank | None = None  # made at the first repeated frame (4K fields are 50 MB each)

    def start(self, t0: float) -> None:
        self.t0 = t0

    def read(self):
        now = time.monotonic()
        if now < self._next_at:
            time.sleep(self._next_at - now)
        self._next_at = max(self._next_at + 1 / self.fps, time.monotonic() - 0.1)
        i = -1 if self.t0 is None else int((time.monotonic() - self.t0) * self.fps)
        if 0 <= i < len(self.frames):
            self.delivered.append(i)
            return np.array(self.frames[i])
        base = self.frames[0] if i < 0 else self.frames[-1]
        if self._noise is None:
            self._noise = NoiseBank(self.frames.shape[1:], fields=4)
        return cv2.add(np.asarray(base), self._noise.next(), dtype=cv2.CV_8U)

    def release(self) -> None:
        pass


class RecordingWorker:
    """The OCR worker, passed through, keeping what every read found (for saying why a note failed)."""

    def __init__(self, worker) -> None:
        self.worker = worker
        self.reads: list[dict] = []

    def submit(self, job) -> bool:
        return self.worker.submit(job)

    @property
    def can_look(self) -> bool:
        return getattr(self.worker, "can_look", False)

    def poll(self, timeout: float = 0.0):
        results = self.worker.poll(timeout)
        for r in results:
            if r.job is None:
                continue
            self.reads.append({"kind": r.job.kind, "frame": r.job.frame, "s": round(r.elapsed_s, 2),
                               "region_mm": [round(float(v), 1) for v in r.job.region_mm],
                               "found": [{"anchor_mm": [round(float(v), 1) for v in o.anchor], "serial": o.serial,
                                          "status": o.status, "reason": o.reason[:120],
                                          "disputed": list(o.disputed)} for o in r.observations]})
        return results

    @property
    def busy(self) -> bool:
        return self.worker.busy

    def warm_up(self) -> None:
        self.worker.warm_up()

    def close(self) -> None:
        self.worker.close()


class CpuClockWorker:
    """A worker on a clock of its own CPU time (``--cpu-clock``): :meth:`submit` reads the job here and
    now, and :meth:`poll` gives the result once :attr:`now` (video seconds, set by the player) has
    passed the submit time plus the read's CPU seconds."""

    can_look = True

    def __init__(self, reader) -> None:
        self.reader = reader
        self.now = 0.0
        self._result = None
        self._done_at = 0.0

    @property
    def busy(self) -> bool:
        return self._result is not None

    def warm_up(self) -> None:
        pass

    def submit(self, job) -> bool:
        from dealer_assist.live.worker import JobResult, run_job

        if self._result is not None:
            return False
        t0 = time.process_time()
        try:
            (obs, looks), err = run_job(self.reader, job), None
        except Exception as exc:  # as the process worker does: the loop decides
            obs, looks, err = (), (), str(exc) or type(exc).__name__
        cpu = time.process_time() - t0
        self._result = JobResult(job, tuple(obs), cpu, err, looks=looks)
        self._done_at = self.now + cpu
        return True

    def poll(self, timeout: float = 0.0):
        if self._result is not None and (self.now >= self._done_at or timeout == float("inf")):
            r, self._result = self._result, None
            return [r]
        return []

    def close(self) -> None:
        pass

    def pump(self, session, event_time: list[float], until: float) -> None:
        """Apply ``session``'s read results due by video time ``until`` (the next frame), each at its own
        time, starting the next read as soon as the reader is free; ``event_time`` gets the video time of
        each new session event."""
        while True:
            session.pump()
            event_time.extend([self.now] * (len(session.events) - len(event_time)))
            if not (self._result is not None and self._done_at <= until):
                return
            self.now = self._done_at


def _play_cpu_clock(seq: Path, summary: dict, session: LiveSession, worker: "RecordingWorker", settle_s: float,
                    stats: dict) -> list[float]:
    """``--cpu-clock`` play (see the module doc); returns the video time each session event was applied at
    (-1 for those of the start-up scan)."""
    clock: CpuClockWorker = worker.worker
    event_time: list[float] = []

    def pump(until: float) -> None:
        clock.pump(session, event_time, until)

    noise = None
    n = 0
    last = None
    for i, image in enumerate(decode_video(seq / summary["video"])):
        clock.now = i / FPS
        session.on_frame(Frame(image, i, i / FPS))
        if i == 0:  # the empty table until the start-up scan is done (the croupier then deals)
            while session.reading:
                pump(float("inf"))
            event_time[:] = [-1.0] * len(event_time)
            clock.now = 0.0
        pump((i + 1) / FPS)
        n, last = i + 1, image
    for k in range(int(round(settle_s * FPS))):  # the camera keeps showing the still table
        clock.now = max(clock.now, (n + k) / FPS)
        if noise is None:
            noise = NoiseBank(last.shape, fields=2)
        session.on_frame(Frame(cv2.add(last, noise.next(), dtype=cv2.CV_8U), n + k, (n + k) / FPS))
        pump((n + k + 1) / FPS)
    session.options = dataclasses.replace(session.options, ocr=False)
    if clock.busy:  # the read in flight is applied, no other
        clock.now = max(clock.now, clock._done_at)
        session.pump()
    event_time.extend([clock.now] * (len(session.events) - len(event_time)))
    stats["frames_played"] = n
    return event_time


#: ``--no-looks``: LiveOptions.look_windows off (the reader's reads and the k-of-N rule alone, as before)
LOOK_WINDOWS = True


def play(seq: Path, summary: dict, worker, realtime: bool, settle_s: float = 3.0, lead_s: float = 2.0,
         keep_raw: bool = False) -> dict:
    """Play one hand through a live session; returns the session and when each trusted event came
    (video seconds)."""
    hand = summary["hand"]
    seats = tuple(summary["table"]["seats"])
    worker = RecordingWorker(worker)
    stats: dict = {}
    if SETUPS[summary["setup"]].markers:
        profile, stats["aruco"] = profile_from_markers(seq, summary)
    else:
        profile = profile_from_truth(summary)
    session = LiveSession(profile, TableState(seats, hand["position"]), worker,
                          LiveOptions(auto_new_hand=False, look_windows=LOOK_WINDOWS))
    event_time: list[float] = []  # video time at which each session event was applied
    t_start = time.perf_counter()
    if isinstance(worker.worker, CpuClockWorker):
        event_time = _play_cpu_clock(seq, summary, session, worker, settle_s, stats)
    elif not realtime:
        n = 0
        for i, image in enumerate(decode_video(seq / summary["video"])):
            session.on_frame(Frame(image, i, i / FPS))
            session.pump(wait=True)
            event_time.extend([i / FPS] * (len(session.events) - len(event_time)))
            n += 1
        session.hold()
        session.pump(wait=True)
        event_time.extend([(n - 1) / FPS] * (len(session.events) - len(event_time)))
        stats["frames_played"] = n
    else:
        from rich.console import Console

        from dealer_assist.live.dashboard import LiveStatus, render_dashboard

        cam = _TableCamera(raw_frames(seq, summary))
        feed = CameraFeed(lambda: cam, threaded=True)
        console = Console(file=io.StringIO(), width=140, color_system="truecolor")
        loops = frames = 0
        last_draw = 0.0
        busy = 0.0

        def step() -> Frame | None:
            nonlocal loops, frames, last_draw, busy
            frame = feed.poll()
            t_work = time.perf_counter()
            if frame is not None:
                session.on_frame(frame)
                frames += 1
            session.pump()
            now = time.monotonic()
            if now - last_draw >= 0.25:
                console.print(render_dashboard(session.view(), LiveStatus("ok", 0.0, session.ocr_state), "en", 140))
                console.file.truncate(0)
                console.file.seek(0)
                last_draw = now
            busy += time.perf_counter() - t_work
            loops += 1
            if frame is None:
                time.sleep(0.005)
            return frame

        # the empty table first, until the start-up scan of the zones is done: the croupier starts the
        # program, then deals (bench_live.py shows it for a fixed --lead-s instead)
        lead_start = time.monotonic()
        while True:
            step()
            waited = time.monotonic() - lead_start
            scanning = any(j.kind is JobKind.SCAN for j in session.queue) or session.ocr_state.startswith("reading")
            if (session.frames > 0 and not scanning and waited >= lead_s) or waited >= 120.0:
                break
        t0 = time.monotonic() + 0.05
        cam.start(t0)
        stats["lead_s"] = round(t0 - lead_start, 1)
        end = t0 + summary["frames"] / FPS + settle_s
        first_event = len(session.events)
        while time.monotonic() < end:
            step()
        feed.close()
        # the read in flight is applied, and no other is started
        session.options = dataclasses.replace(session.options, ocr=False)
        deadline = time.monotonic() + 20
        while worker.busy and time.monotonic() < deadline:
            session.pump()
            time.sleep(0.01)
        session.pump()
        event_time = [max(wall - t0, -1.0) if k >= first_event else -1.0
                      for k, (_, wall) in enumerate(session.events)]
        shown = sorted(set(cam.delivered))
        stats.update(frames_played=frames, video_frames=summary["frames"], video_frames_shown=len(shown),
                     loop_work_ms=round(1000 * busy / max(1, loops), 1))
        if not keep_raw:
            (seq / "frames.raw").unlink(missing_ok=True)
    # the product's own readability check of this calibration (what live says at start-up and in its header)
    stats["below_floor"] = session.warning or "none"
    stats["reads"] = session.jobs_done
    seconds = [s for _, _, s, _ in session.job_log]
    stats["read_s_median"] = round(statistics.median(seconds), 3) if seconds else None
    # where the reader's time went (the session's job log keeps its last 200 reads)
    by_kind: dict[str, list] = {}
    for kind, _frame, sec, _found in session.job_log:
        k = by_kind.setdefault(str(kind), [0, 0.0])
        k[0] += 1
        k[1] = round(k[1] + sec, 3)
    stats["reads_by_kind"] = by_kind
    stats["wall_s"] = round(time.perf_counter() - t_start, 1)
    return {"session": session, "event_time": event_time, "stats": stats, "reads": worker.reads}


# --------------------------------------------------------------------------- judging


def _digits_kind(wrong: str, right: str) -> str:
    if len(wrong) == len(right) and (wrong[1:] == right[:-1] or wrong[:-1] == right[1:]):
        return "shifted by one digit (a letter read as a digit, or a digit lost)"
    diff = [(r, w) for r, w in zip(right, wrong) if r != w]
    if len(diff) <= 2:
        return "digit(s) misread " + ", ".join(f"{r}->{w}" for r, w in diff)
    if wrong == right[::-1]:
        return "read backwards"
    return f"{len(diff)} digits differ"


def _inside(point, quad) -> bool:
    return cv2.pointPolygonTest(np.asarray(quad, np.float32).reshape(-1, 1, 2),
                                (float(point[0]), float(point[1])), False) >= 0


def snapshot(played: dict) -> dict:
    """The session's end state as plain JSON: tracks, trusted events (video seconds), the hand view."""
    session: LiveSession = played["session"]
    zone_of = {n.track_id: n.zone for n in session.notes()}
    tracks = [{"id": t.id, "anchor_mm": [round(float(v), 1) for v in t.anchor_mm],
               "quad_mm": np.round(np.asarray(t.quad_mm, np.float64), 1).tolist(), "serial": t.serial,
               "status": t.status, "zone": zone_of.get(t.id), "reads": len(t.reads),
               "candidates": t.candidates(5), "prints": len(t.print_quads_mm),
               # what the prints' evidence over frames said (vision.print_evidence), when there was any
               "by_prints": getattr(t.decision, "serial", None), "looks": t.looks,
               "evidence_frames": list(getattr(t.decision, "frames", ()) or ())} for t in session.tracker]
    events = [{"kind": ev.kind, "track": ev.track_id, "serial": ev.serial, "time_s": round(t, 2)}
              for (ev, _wall), t in zip(session.events, played["event_time"])]
    view = session.view()
    seats = {s.name: {"serials": list(s.serials), "revealed": s.revealed, "folded": s.folded, "in_hand": s.in_hand}
             for s in view.seats}
    return {"tracks": tracks, "events": events, "reads": played.get("reads", []),
            "view": {"complete": view.complete, "winners": list(view.winners), "board": list(view.board_serials),
                     "seats": seats, "waiting": list(view.waiting), "problems": list(view.problems)}}


def judge(summary: dict, truth: list[dict], snap: dict) -> dict:
    """Compare the session's end state (:func:`snapshot`) with the truth, note by note and for the hand."""
    hand = summary["hand"]
    seats = list(summary["table"]["seats"])
    want = result_to_json(evaluate(parse_hand(hand)))
    hom = np.asarray(summary["table"]["homography_image_from_table_mm"], np.float64)
    to_mm = np.linalg.inv(hom)
    th = summary["table"]["size_mm"][1]
    last = truth[-1]
    kinds = summary.get("layout", {}).get("seat_kinds", {})
    # when each note first lies face up, both prints uncovered, still
    appear: dict[str, float] = {}
    for t in truth:
        for n in t["notes"]:
            prints = [p["visible_fraction"] for p in n["prints"].values()]
            if n["face"] == "up" and not n["moving"] and len(prints) == 2 and min(prints) >= 0.98:
                appear.setdefault(n["serial"], t["time_s"])
    trusted_at: dict[str, float] = {}
    wrong_events = []
    on_table = {n["serial"] for n in last["notes"]}
    for ev in snap["events"]:
        if ev["kind"] == "trusted" and ev["serial"]:
            trusted_at.setdefault(ev["serial"], ev["time_s"])
            if ev["serial"] not in on_table:
                wrong_events.append(ev)
    tracks = snap["tracks"]

    def print_mid_mm(n: dict) -> np.ndarray:
        pts = np.concatenate([np.asarray(p["quad"], np.float64) for p in n["prints"].values()])
        q = np.column_stack([pts, np.ones(len(pts))]) @ to_mm.T
        return (q[:, :2] / q[:, 2:3]).mean(axis=0)

    # each track belongs to the note under its anchor (its prints' centre): where two notes overlap,
    # the one with the track's serial, else the one whose prints' centre is nearest
    owner: dict[int, str] = {}
    for t in tracks:
        under = [n for n in last["notes"] if _inside(t["anchor_mm"], n["quad_mm"])]
        if not under:
            continue
        same = [n for n in under if n["serial"] == t["serial"]]
        best = same[0] if same else min(under, key=lambda n: float(np.linalg.norm(print_mid_mm(n) - t["anchor_mm"])))
        owner[t["id"]] = best["serial"]
    # what the reads found on each note (an observation belongs to the note under its anchor, as a track)
    seen: dict[str, list[dict]] = {}
    for rd in snap.get("reads", []):
        for o in rd["found"]:
            under = [n for n in last["notes"] if _inside(o["anchor_mm"], n["quad_mm"])]
            if under:
                same = [n for n in under if n["serial"] == o["serial"]]
                best = same[0] if same else min(
                    under, key=lambda n: float(np.linalg.norm(print_mid_mm(n) - o["anchor_mm"])))
                seen.setdefault(best["serial"], []).append({**o, "kind": rd["kind"], "frame": rd["frame"]})
    notes_out = []
    for n in last["notes"]:
        mine = [t for t in tracks if owner.get(t["id"]) == n["serial"]]
        c = np.asarray(n["centre_mm"], np.float64)
        p = hom @ np.array([c[0], c[1], 1.0])
        q = hom @ np.array([c[0] + 5, c[1], 1.0])
        r = hom @ np.array([c[0], c[1] + 5, 1.0])
        px_mm = (np.linalg.norm(q[:2] / q[2] - p[:2] / p[2]) + np.linalg.norm(r[:2] / r[2] - p[:2] / p[2])) / 10
        a = n["image_angle_deg"] % 360
        turn = min(abs(((a - base + 180) % 360) - 180) for base in (0, 90, 180, 270))
        nearest = min((0, 90, 180, 270), key=lambda b: abs(((a - b + 180) % 360) - 180))
        orient = {0: "upright", 180: "upside down", 90: "turned 90", 270: "turned 90"}[nearest]
        notes_out.append({
            "serial": n["serial"], "zone": n["zone"], "key": n["key"],
            "seat_kind": "board" if n["zone"] == "board" else kinds.get(n["zone"], "?"),
            "orientation": orient, "off_axis_deg": round(turn, 1),
            "side": "far" if c[1] < th / 3 else "near" if c[1] > 2 * th / 3 else "middle",
            "px_per_mm": round(float(px_mm), 2),
            "digit_px": round(min(pp["digit_height_px"] for pp in n["prints"].values()), 1) if n["prints"] else None,
            "glare": round(max(pp["glare_fraction"] for pp in n["prints"].values()), 2) if n["prints"] else None,
            "visible_fraction": round(n["visible_fraction"], 2),
            "tracks": [{k: t[k] for k in ("id", "serial", "status", "zone", "reads", "candidates")} for t in mine],
            "appear_s": appear.get(n["serial"]),
            "trusted_s": trusted_at.get(n["serial"]),
            "observations": seen.get(n["serial"], []),
        })
    for rec in notes_out:
        good = [t for t in rec["tracks"] if t["serial"] == rec["serial"] and t["zone"] == rec["zone"]]
        bad = [t for t in rec["tracks"] if t["serial"] is not None and (t["serial"] != rec["serial"]
                                                                         or t["zone"] != rec["zone"])]
        if bad:
            rec["result"] = "wrong"
            rec["problem"] = "; ".join(
                (f"trusted {t['serial']} ({_digits_kind(t['serial'], rec['serial'])})" if t["serial"] != rec["serial"]
                 else f"trusted in zone {t['zone']}") for t in bad)
        elif good:
            rec["result"] = "right"
            if len(rec["tracks"]) > 1:
                rec["problem"] = f"{len(rec['tracks'])} tracks on this note"
        else:
            rec["result"] = "pending"
            if not rec["tracks"]:
                obs = rec["observations"]
                if not obs:
                    rec["problem"] = "never found"
                else:
                    reasons: dict[str, int] = {}
                    for o in obs:
                        why = o["serial"] or o["reason"]
                        reasons[why] = reasons.get(why, 0) + 1
                    top = sorted(reasons.items(), key=lambda kv: -kv[1])[:3]
                    rec["problem"] = (f"no track: {len(obs)} observation(s) here, none kept: "
                                      + "; ".join(f"{k} x{v}" for k, v in top))
            else:
                t = rec["tracks"][0]
                cands = ", ".join(f"{s} x{k}" for s, k in t["candidates"]) or "no 7-digit read"
                rec["problem"] = f"{t['status']} after {t['reads']} reads ({cands})"
        if rec["appear_s"] is not None and rec["trusted_s"] is not None and rec["result"] == "right":
            rec["latency_s"] = round(rec["trusted_s"] - rec["appear_s"], 2)
    # tracks on no truth note with a trusted serial: wrong too
    orphans = [{"serial": t["serial"], "zone": t["zone"], "status": t["status"], "anchor_mm": t["anchor_mm"]}
               for t in tracks if t["id"] not in owner]
    view = snap["view"]
    got_winners = list(view["winners"])
    got = {"board": sorted(view["board"]), **{s: sorted(view["seats"][s]["serials"]) for s in seats}}
    right = {"board": sorted(hand["board"]), **{p["name"]: sorted(p["pocket"]) for p in hand["players"]}}
    problems = []
    if view["complete"]:
        absent = [s for s in seats if not view["seats"][s]["revealed"] and not view["seats"][s]["folded"]]
        differs = [k for k in right if got[k] != right[k]]
        if absent:
            problems.append(f"showdown without dealt seat(s) {', '.join(absent)}")
        if differs:
            problems.append("serials differ at " + ", ".join(differs))
        if got_winners != want["winners"]:
            problems.append(f"winners {got_winners}, truth {want['winners']}")
        verdict = "wrong" if problems else "right"
    else:
        verdict = "undecided"
    counts = {k: sum(1 for r in notes_out if r["result"] == k) for k in ("right", "wrong", "pending")}
    counts["wrong"] += sum(1 for o in orphans if o["serial"])
    return {"verdict": verdict, "problems": problems, "winners": got_winners, "truth_winners": want["winners"],
            "waiting": view["waiting"], "counts": counts, "notes": notes_out, "orphan_tracks": orphans,
            "wrong_trusted_events": wrong_events, "view_problems": view["problems"]}


def hand_line(k: int, summary: dict, res: dict) -> str:
    issues = []
    for r in res["notes"]:
        if r["result"] != "right" or "problem" in r:
            where = (f"{r['zone']} {r['serial']} [{r['seat_kind']}, {r['side']}, {r['orientation']}, "
                     f"{r['px_per_mm']} px/mm]")
            issues.append(f"{where}: {r['result']}: {r.get('problem', '')}")
    for o in res["orphan_tracks"]:
        if o["serial"]:
            issues.append(f"a track on no note trusted {o['serial']} in {o['zone']}")
    issues.extend(res["problems"])
    n = len(summary["hand"]["players"])
    head = (f"  hand {k} ({n} players, P={summary['hand']['position']}): {res['verdict']}, "
            f"{res['counts']['right']} right / {res['counts']['wrong']} wrong / {res['counts']['pending']} pending")
    return head + ("" if not issues else "\n      " + "\n      ".join(issues))


def _cause(rec: dict) -> str:
    problem = rec.get("problem", "")
    if rec["result"] == "wrong":
        return "wrong serial trusted"
    if problem == "never found":
        return "never found (no read saw it)"
    if problem.startswith("no track"):
        return "seen, but its reads were never kept (no track)"
    if "no 7-digit read" in problem:
        return "found, never read as 7 digits"
    return "read, not trusted (too few agreeing reads)"


def summarise(rows: list[dict]) -> dict:
    """Totals of one set-up, and where the failures are (by cause, side of the table, orientation)."""
    lat = [r["latency_s"] for row in rows for r in row["notes"] if "latency_s" in r]
    tot = {k: sum(row["counts"][k] for row in rows) for k in ("right", "wrong", "pending")}
    verdicts = {v: sum(1 for row in rows if row["verdict"] == v) for v in ("right", "wrong", "undecided")}
    notes = [r for row in rows for r in row["notes"]]
    failed = [r for r in notes if r["result"] != "right"]
    by: dict = {}
    for attr in ("side", "orientation", "seat_kind"):
        by[attr] = {}
        for value in sorted({r[attr] for r in notes}):
            group = [r for r in notes if r[attr] == value]
            by[attr][value] = f"{sum(1 for r in group if r['result'] != 'right')}/{len(group)}"
    causes: dict[str, int] = {}
    for r in failed:
        causes[_cause(r)] = causes.get(_cause(r), 0) + 1
    return {"hands": verdicts, "notes": tot,
            "latency_median_s": round(statistics.median(lat), 2) if lat else None,
            "latency_p90_s": round(float(np.percentile(lat, 90)), 2) if lat else None,
            "latency_n": len(lat), "not_right_by": by, "causes": causes,
            "reads_by_kind": _reads_by_kind(rows),
            "duplicate_tracks": sum(1 for r in notes if len(r["tracks"]) > 1),
            "seat_missing_hands": sum(1 for row in rows
                                      if any(p.startswith("showdown without") for p in row["problems"]))}


def _reads_by_kind(rows: list[dict]) -> dict[str, list]:
    """The hands' reads by kind: ``{kind: [reads, worker seconds]}`` (hands judged before it was kept: none)."""
    out: dict[str, list] = {}
    for row in rows:
        for kind, (n, sec) in row.get("stats", {}).get("reads_by_kind", {}).items():
            k = out.setdefault(kind, [0, 0.0])
            k[0] += n
            k[1] = round(k[1] + sec, 1)
    return out


def print_summary(name: str, mode: str, sm: dict) -> None:
    v, t = sm["hands"], sm["notes"]
    print(f"set-up {name} ({mode}): hands decided right {v['right']} / decided WRONGLY {v['wrong']} / undecided "
          f"{v['undecided']}; notes trusted right {t['right']} / trusted WRONG {t['wrong']} / pending {t['pending']}; "
          f"appearance -> trusted: median {sm['latency_median_s']} s, 90th percentile {sm['latency_p90_s']} s over "
          f"{sm['latency_n']} notes")
    print(f"  not right, by cause: {sm['causes']}; duplicate tracks on {sm['duplicate_tracks']} notes; "
          f"showdowns without a dealt seat: {sm['seat_missing_hands']}")
    for attr, groups in sm["not_right_by"].items():
        print(f"  not right / all, by {attr}: " + ", ".join(f"{k} {v}" for k, v in groups.items()))
    if sm.get("reads_by_kind"):
        print("  reads by kind (reads / worker seconds; on the CPU clock, CPU seconds): " + ", ".join(
            f"{k} {n} / {sec:.1f}" for k, (n, sec) in sorted(sm["reads_by_kind"].items(), key=lambda kv: -kv[1][1])))


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--setups", nargs="+", default=["A", "B"], choices=sorted(SETUPS))
    ap.add_argument("--hands", type=int, default=6)
    ap.add_argument("--realtime", action="store_true", help="serve the frames at 10 fps as a camera would")
    ap.add_argument("--cpu-clock", action="store_true",
                    help="10 fps on a clock of the reader's CPU time (a reader with its own core)")
    ap.add_argument("--lead-s", type=float, default=2.0,
                    help="--realtime: seconds of empty table at least, and until the start-up scan is done")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--cache", type=Path, default=Path(tempfile.gettempdir()) / "dealer-assist-livebench")
    ap.add_argument("--photos", type=Path, default=REPO.parent / "shared" / "real_photos")
    ap.add_argument("--json", type=Path, default=None, help="write per-hand results here")
    ap.add_argument("--render-only", action="store_true", help="make the cut-outs and videos, play nothing")
    ap.add_argument("--no-looks", action="store_true",
                    help="LiveOptions.look_windows off: no looks of the serial model at known print windows")
    ap.add_argument("--rejudge", type=Path, default=None,
                    help="judge the session snapshots of an earlier --json file again (no playing)")
    args = ap.parse_args()
    global LOOK_WINDOWS
    LOOK_WINDOWS = not args.no_looks
    if args.rejudge is not None:
        return rejudge(args.rejudge, args.json)
    args.cache.mkdir(parents=True, exist_ok=True)
    t_all = time.perf_counter()
    exclude = EXCLUDE_SHARED if args.photos.resolve() == (REPO.parent / "shared" / "real_photos").resolve() else {}
    notes = cutouts(args.photos, args.cache, exclude)
    codec = video_codec()
    print("video: " + ("H.264 (ffmpeg, libx264)" if codec == "h264"
                       else "mp4v (OpenCV), NOT H.264: ffmpeg with libx264 is missing here"))
    plan = [(s, k, SETUPS[s].players_of_hand(k)) for s in args.setups for k in range(args.hands)]
    seqs = {}
    for s, k, players in plan:
        d = hand_dir(args.cache, s, args.seed, k, players, notes, codec)
        seqs[(s, k)] = (d, ensure_hand(d, s, args.seed, k, players, notes, codec))
    if args.render_only:
        return 0
    if args.cpu_clock:
        from dealer_assist.live.worker import make_reader

        reader = make_reader()
        reader.read(np.full((64, 256, 3), 255, np.uint8))
        worker = CpuClockWorker(reader)
    else:
        worker = ProcessWorker()
        worker.warm_up()
    mode = ("10 fps on the reader's CPU clock" if args.cpu_clock else
            "realtime (10 fps camera)" if args.realtime else "frame by frame") + (", no looks" if args.no_looks else "")
    out = {"mode": mode, "codec": codec, "seed": args.seed, "setups": {}}
    try:
        for s in args.setups:
            rows = []
            print(f"\nset-up {s}: {SETUPS[s].image_size[0]}x{SETUPS[s].image_size[1]} over "
                  f"{SETUPS[s].table_mm[0] / 10:.0f}x{SETUPS[s].table_mm[1] / 10:.0f} cm, {mode}", flush=True)
            for k in range(args.hands):
                d, summary = seqs[(s, k)]
                truth = [json.loads(line) for line in (d / "truth.jsonl").read_text(encoding="utf-8").splitlines()]
                played = play(d, summary, worker, args.realtime, lead_s=args.lead_s)
                snap = snapshot(played)
                res = judge(summary, truth, snap)
                res.update(hand=k, players=len(summary["hand"]["players"]), position=summary["hand"]["position"],
                           camera=summary["table"]["camera"], stats=played["stats"], dir=str(d),
                           angle_jitter_deg=summary.get("layout", {}).get("angle_jitter_deg"), snapshot=snap)
                rows.append(res)
                print(hand_line(k, summary, res) + f"\n      ({played['stats']})", flush=True)
            sm = summarise(rows)
            out["setups"][s] = {"summary": sm, "hands": rows}
            print_summary(s, mode, sm)
    finally:
        worker.close()
    out["wall_s"] = round(time.perf_counter() - t_all, 1)
    print(f"\ntotal {out['wall_s']:.0f} s")
    if args.json:
        args.json.write_text(json.dumps(out, ensure_ascii=False, indent=1, default=str), encoding="utf-8")
        print(f"per-hand results: {args.json}")
    return 0


def rejudge(path: Path, json_out: Path | None) -> int:
    """Judge the snapshots of an earlier run again (the judging changed, the play did not)."""
    old = json.loads(path.read_text(encoding="utf-8"))
    for s, block in old["setups"].items():
        rows = []
        print(f"\nset-up {s}, {old['mode']} (re-judged from {path})")
        for row in block["hands"]:
            d = Path(row["dir"])
            summary = json.loads((d / "sequence.json").read_text(encoding="utf-8"))
            truth = [json.loads(line) for line in (d / "truth.jsonl").read_text(encoding="utf-8").splitlines()]
            res = judge(summary, truth, row["snapshot"])
            res.update({k: row[k] for k in ("hand", "players", "position", "camera", "stats", "dir",
                                             "angle_jitter_deg", "snapshot")})
            rows.append(res)
            print(hand_line(row["hand"], summary, res) + f"\n      ({row['stats']})")
        sm = summarise(rows)
        block.update(summary=sm, hands=rows)
        print_summary(s, old["mode"], sm)
    if json_out:
        json_out.write_text(json.dumps(old, ensure_ascii=False, indent=1, default=str), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
