"""Notes followed across reads, and when a serial read from a video becomes trusted.

Pure: observations in, tracks out; no images, no clocks (times are passed in).

Every read of a region of the table yields :class:`Observation` objects (one
per note the reader found there, in table millimetres). The :class:`Tracker`
associates them with the notes it already follows (:class:`Track`) by the
distance between their centres and the overlap of their quads, keeps each
note's read history, and applies the :class:`TrustRule`: a serial is
**trusted** when the same 7 digits are read in ``k`` of the last ``n`` reads
of that note, each read from a different camera frame (a frame read twice
gives the same answer twice, which proves nothing). A note not yet trusted is
**pending** and shown as such; it never plays (RULES.md §6.6).

The reader itself already trusts a serial only when two independent reads of
one frame agree (its two prints, or two engines); the k-of-N rule adds
agreement across frames, which catches a hand or glare that made one frame
read wrong.

>>> import numpy as np
>>> quad = np.array([[0, 0], [157, 0], [157, 69], [0, 69]], float)
>>> t = Tracker(TrustRule(k=2, n=3))
>>> _ = t.apply([Observation(quad, "1234567", 0.9)], region_mm=(-10, -10, 170, 80), frame=1, time_s=0.1)
>>> t.tracks[1].status, t.tracks[1].serial
('pending', None)
>>> events = t.apply([Observation(quad + 1, "1234567", 0.9)], region_mm=(-10, -10, 170, 80), frame=2, time_s=0.2)
>>> t.tracks[1].status, t.tracks[1].serial, [e.kind for e in events]
('trusted', '1234567', ['trusted'])
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Iterable, Sequence

import cv2
import numpy as np

from dealer_assist.vision.geometry import quad_centre
from dealer_assist.vision.print_evidence import NoteEvidence

__all__ = ["Observation", "Read", "Track", "TrustRule", "TrackEvent", "Tracker", "quad_iou_mm"]

#: Statuses of an observation: the reader's (``trusted``, ``unreadable``,
#: ``out_of_format``) and ``blank``, a note-shaped object in which no serial
#: was found (a note lying face down, most often).
OBSERVATION_STATUSES = ("trusted", "unreadable", "out_of_format", "blank")


def quad_iou_mm(a: np.ndarray, b: np.ndarray) -> float:
    """Intersection over union of two convex quads ``(4, 2)`` (any unit, any winding); 0..1."""
    qa = cv2.convexHull(np.asarray(a, np.float32).reshape(-1, 2))
    qb = cv2.convexHull(np.asarray(b, np.float32).reshape(-1, 2))
    inter, _ = cv2.intersectConvexConvex(qa, qb)
    union = cv2.contourArea(qa) + cv2.contourArea(qb) - inter
    return float(inter / union) if union > 0 else 0.0


@dataclass(frozen=True)
class Observation:
    """One note seen by one read of one frame.

    Attributes:
        quad_mm: float64 ``(4, 2)`` note corners in table mm, clockwise from the note's top-left.
        serial: the 7 digits the reader trusted in this frame, or ``None``.
        confidence: the reader's confidence 0..1 (0 without a serial).
        status: one of :data:`OBSERVATION_STATUSES`.
        reason: one plain sentence when there is no serial.
        print_quads_mm: the serial prints' quads ``(4, 2)`` mm, upright (they
            let the next read of this note skip text detection).
        anchor_mm: float64 ``(2,)`` the point the note is placed by (its
            prints' mean centre); the quad's centre when not given.
        placed: a note is known to lie there (a note-shaped change): an
            observation without a serial starts a track only then.
        disputed: for a note read without a serial because its reads
            disagreed, the 7-digit values they gave (sorted): a print of a
            read note that names another serial makes that note disputed
            (see :func:`~.worker.read_region`).
        looks: for a note whose two prints were found, the serial model's looks at
            ``print_quads_mm[:2]`` in this frame (``{way: (look, look)}``,
            :func:`~dealer_assist.vision.print_evidence.look_at_windows`), or None.
    """

    quad_mm: np.ndarray
    serial: str | None = None
    confidence: float = 0.0
    status: str = "trusted"
    reason: str = ""
    print_quads_mm: tuple[np.ndarray, ...] = ()
    anchor_mm: np.ndarray | None = None
    placed: bool = False
    disputed: tuple[str, ...] = ()
    looks: dict | None = None

    @property
    def centre_mm(self) -> np.ndarray:
        return quad_centre(self.quad_mm)

    @property
    def anchor(self) -> np.ndarray:
        return quad_centre(self.quad_mm) if self.anchor_mm is None else np.asarray(self.anchor_mm, np.float64)


@dataclass(frozen=True)
class Read:
    """One entry of a note's read history: what one frame said about it."""

    frame: int
    time_s: float
    serial: str | None
    confidence: float
    status: str


@dataclass(frozen=True)
class TrustRule:
    """When a note's serial is trusted: the same 7 digits in ``k`` of the last ``n`` reads
    of it that gave 7 digits, and every other serial among those ``n`` outnumbered three to one.

    A read that found no serial (a hand over the note, glare) says nothing
    about the serial, so it neither counts nor pushes good reads out of the
    window. The rival condition is the reader's own rule applied across
    frames: a note read ``A, A, B`` is not settled; it is read again (the
    croupier sees it as pending) until the recent reads agree. A read whose
    engines disagreed gives no serial and does not count either way: near
    the camera's resolution limit such reads are common on notes read right
    (on 27 notes of three recorded hands, counting them as rivals left 4
    correct notes pending and caught no wrong one). A trusted serial that
    meets a rival becomes pending again; another value that meets the rule
    replaces it.

    Raises ``ValueError`` unless ``1 <= k <= n``.
    """

    k: int = 2
    n: int = 3

    def __post_init__(self) -> None:
        if not (isinstance(self.k, int) and isinstance(self.n, int) and 1 <= self.k <= self.n):
            raise ValueError(f"the trust rule needs 1 <= k <= n, got k={self.k}, n={self.n}.")

    def decide(self, reads: Sequence[Read], current: str | None = None) -> str | None:
        """The trusted serial given a note's reads (oldest first) and its trusted serial so far.

        >>> r = lambda s: Read(0, 0.0, s, 0.9, "trusted")
        >>> rule = TrustRule(2, 3)
        >>> rule.decide([r("1"), r(None), r(None), r("1")]), rule.decide([r("1"), r("2"), r(None)])
        ('1', None)
        >>> rule.decide([r("1"), r("1"), r("2")]), TrustRule(3, 5).decide([r("1"), r("1"), r("1"), r("2")])
        (None, '1')
        >>> rule.decide([r("2"), r(None)], current="1"), rule.decide([r("2"), r("2"), r(None)], current="1")
        (None, '2')
        >>> rule.decide([r(None), r(None), r(None)], current="1")
        '1'
        """
        window = [x.serial for x in reads if x.serial is not None][-self.n:]
        counts = Counter(window).most_common()
        if counts:
            value, count = counts[0]
            rival = counts[1][1] if len(counts) > 1 else 0
            if count >= self.k and count >= 3 * rival:
                return value
        if current is not None and set(window) <= {current}:
            return current
        return None


@dataclass
class Track:
    """One note followed across reads.

    Attributes:
        id: a number unique within a :class:`Tracker`.
        quad_mm: float64 ``(4, 2)`` where the note was last seen, table mm.
        anchor_mm: float64 ``(2,)`` its prints' centre (or quad centre), table mm.
        print_quads_mm: its serial prints' quads in table mm, when known.
        first_seen_s, first_frame: when it was first observed (source time, s; frame index).
        last_seen_s, last_frame: when it was last observed.
        reads: every read of it, one per frame, in frame order.
        serial: the trusted serial, or ``None`` while pending.
        trusted_s: when the serial became trusted (source time), else ``None``.
        misses: reads of its place that did not find it, in a row.
        attempts: reads since it was last changed or moved (the scheduler stops
            re-reading a pending note after ``n`` attempts until its place changes).
        last_status, last_reason: the latest read's status and reason.
        window_quads_mm: where a read that gave no serial found both its serial prints (table mm,
            ``(4, 2)`` each; their way up unsettled): while the note is not trusted, its next reads
            recognise these two windows only, both ways up (no text detection).
        evidence: the serial model's looks at the note's two print windows, accumulated over frames
            print by print (:class:`~dealer_assist.vision.print_evidence.NoteEvidence`), or None;
            evidence_windows_mm: those windows (table mm), from the last read that found both prints.
        looked_frame: the newest frame whose windows the model looked at (-1: none); looks: the looks asked
            for since the evidence started.
        decision: what the evidence said last (:class:`~dealer_assist.vision.print_evidence.Decision`).
    """

    id: int
    quad_mm: np.ndarray
    anchor_mm: np.ndarray
    first_seen_s: float
    first_frame: int
    last_seen_s: float
    last_frame: int
    print_quads_mm: tuple[np.ndarray, ...] = ()
    reads: list[Read] = field(default_factory=list)
    serial: str | None = None
    trusted_s: float | None = None
    misses: int = 0
    attempts: int = 0
    last_status: str = "blank"
    last_reason: str = ""
    window_quads_mm: tuple[np.ndarray, ...] = ()
    evidence: NoteEvidence | None = None
    evidence_windows_mm: tuple[np.ndarray, ...] = ()
    looked_frame: int = -1
    looks: int = 0
    decision: object | None = None

    @property
    def centre_mm(self) -> np.ndarray:
        return quad_centre(self.quad_mm)

    @property
    def status(self) -> str:
        """``trusted``; ``pending`` (a serial was read but is not trusted yet);
        ``unreadable`` or ``out_of_format`` (the reads gave no serial: the
        latest read's status); ``blank`` (no serial seen at all: face down?)."""
        if self.serial is not None:
            return "trusted"
        if any(r.serial is not None for r in self.reads):
            return "pending"
        return self.last_status if self.last_status in ("unreadable", "out_of_format") else "blank"

    @property
    def confidence(self) -> float:
        """Mean confidence of the reads that gave the trusted serial (0 when pending); for a serial trusted by
        its prints' evidence alone, the evidence's (its least sure digit's mean probability)."""
        values = [r.confidence for r in self.reads if self.serial is not None and r.serial == self.serial]
        if not values and self.serial is not None and self.decision is not None \
                and getattr(self.decision, "serial", None) == self.serial:
            return float(self.decision.confidence)
        return float(np.mean(values)) if values else 0.0

    def candidates(self, n: int) -> list[tuple[str, int]]:
        """The serials read in the last ``n`` reads with their counts, most read first."""
        return Counter(r.serial for r in self.reads[-n:] if r.serial is not None).most_common()


@dataclass(frozen=True)
class TrackEvent:
    """Something that happened to a track: ``new``, ``trusted`` (a serial became
    trusted or changed), ``moved``, ``removed``."""

    kind: str
    track_id: int
    time_s: float
    serial: str | None = None


class Tracker:
    """Associates read observations with followed notes and keeps their read histories.

    Args:
        rule: the k-of-N trust rule.
        match_mm: an observation belongs to a track when their centres are
            closer than this (table mm), or their quads overlap by ``match_iou``.
            Half a note's height (69 mm) by default: two pocket notes lie further apart.
        match_iou: see ``match_mm``.
        max_misses: a track is dropped after this many reads in a row of its
            place that did not find it (the caller counts only reads made
            because the place changed, with nothing moving over it).
    """

    def __init__(self, rule: TrustRule = TrustRule(), match_mm: float = 34.0, match_iou: float = 0.35,
                 max_misses: int = 1) -> None:
        self.rule = rule
        self.match_mm = float(match_mm)
        self.match_iou = float(match_iou)
        self.max_misses = int(max_misses)
        self.tracks: dict[int, Track] = {}
        #: tracks dropped this hand, kept so that a note found again where it was
        #: (a hand had rested on it) gets its read history back
        self.removed: dict[int, Track] = {}
        self._next_id = 1

    # ------------------------------------------------------------------ queries
    def __iter__(self):
        return iter(self.tracks.values())

    def __len__(self) -> int:
        return len(self.tracks)

    def in_region(self, region_mm: Sequence[float]) -> list[Track]:
        """Tracks whose quad centre lies in ``region_mm`` = (x0, y0, x1, y1) table mm."""
        return [t for t in self.tracks.values() if _inside(t.centre_mm, region_mm)]

    def clear(self) -> None:
        """Forget every track (a new hand); ids keep counting up."""
        self.tracks.clear()
        self.removed.clear()

    # ------------------------------------------------------------------ updates
    def _geometric(self, ob: Observation, t: Track) -> float | None:
        """How well an observation fits a track by place (lower is better), or None: another note.

        Serial prints are where text really is, so they decide when both sides
        have them: the same print seen again (centres within 12 mm), or the
        prints of one lying on the other's quad when that quad was placed by
        both prints. Without prints on one side (a blank track, a change's
        outline) the quads decide: centres within ``match_mm``, or overlapping
        by ``match_iou`` (0.15 when either has no serial) with centres within
        twice that. A note never joins a trusted track of another serial by
        quads alone unless they overlap by 0.6 (a note replaced in the same place).
        """
        d = float(np.linalg.norm(ob.centre_mm - t.centre_mm))
        if ob.print_quads_mm and t.print_quads_mm:
            gap = min(float(np.linalg.norm(np.mean(a, axis=0) - np.mean(b, axis=0)))
                      for a in ob.print_quads_mm for b in t.print_quads_mm)
            if gap <= 12.0:
                return gap
            reliable_ob, reliable_t = len(ob.print_quads_mm) >= 2, len(t.print_quads_mm) >= 2
            if (reliable_t and _on(ob.print_quads_mm, t.quad_mm)) or (reliable_ob and _on(t.print_quads_mm, ob.quad_mm)):
                return 12.0 + d
            return None
        if d > 2 * self.match_mm and not _prints_within(ob, t):
            return None
        iou = quad_iou_mm(ob.quad_mm, t.quad_mm)
        loose = (t.serial is None or ob.serial is None) and iou >= 0.15
        if d > self.match_mm and iou < self.match_iou and not loose and not _prints_within(ob, t):
            return None
        if t.serial is not None and ob.serial is not None and ob.serial != t.serial and iou < 0.6:
            return None
        return 12.0 + d

    def _match(self, observations: Sequence[Observation]) -> dict[int, int]:
        """Observation index -> track id.

        1. A serial read before by a track is that track's note (a serial
           identifies a note; the reader's quad of a partly covered note may
           be far off, so this comes first).
        2. Then by place, best pairs first (see :meth:`_geometric`).
        3. Then a dropped track found again where it was (see :attr:`removed`).
        """
        out: dict[int, int] = {}
        used: set[int] = set()
        for i, ob in enumerate(observations):
            if ob.serial is None:
                continue
            known = [t for t in self.tracks.values() if t.id not in used
                     and (t.serial == ob.serial or any(r.serial == ob.serial for r in t.reads))]
            if known:
                best = min(known, key=lambda t: float(np.linalg.norm(ob.centre_mm - t.centre_mm)))
                out[i] = best.id
                used.add(best.id)
        pairs = []
        for i, ob in enumerate(observations):
            if i in out:
                continue
            for t in self.tracks.values():
                if t.id in used:
                    continue
                score = self._geometric(ob, t)
                if score is not None:
                    pairs.append((score, i, t.id))
        pairs.sort()
        for _, i, tid in pairs:
            if i in out or tid in used:
                continue
            out[i] = tid
            used.add(tid)
        for i, ob in enumerate(observations):
            if i in out:
                continue
            c = ob.centre_mm
            near = [(float(np.linalg.norm(c - t.centre_mm)), t.id) for t in self.removed.values()
                    if (float(np.linalg.norm(c - t.centre_mm)) <= self.match_mm
                        or (ob.serial is not None and any(r.serial == ob.serial for r in t.reads)))
                    and (ob.serial is None or t.serial in (None, ob.serial))]
            if near:
                tid = min(near)[1]
                track = self.removed.pop(tid)
                track.misses = 0
                self.tracks[tid] = track
                out[i] = tid
                used.add(tid)
        return out

    def apply(self, observations: Iterable[Observation], region_mm: Sequence[float], frame: int, time_s: float,
              count_misses: bool = True, drop_blanks: bool = False) -> list[TrackEvent]:
        """Apply one read of a region of one frame.

        Args:
            observations: the notes found in the region (those whose centre lies in it).
            region_mm: (x0, y0, x1, y1) table mm that was read; tracks lying
                wholly in it that were not observed count a miss.
            frame: the frame's index (a frame a track was already read from
                does not count again; an older frame than its last read may).
            time_s: the frame's time (source clock, seconds).
            count_misses: False when something moved over the region (a hand):
                not finding a note then proves nothing.
            drop_blanks: count misses of ``blank`` tracks (no serial ever read)
                even then: a note turned over is found with its serial, and the
                outline of the change that made it a blank track is often rough.

        Returns:
            What happened, in order.
        """
        observations = list(observations)
        events: list[TrackEvent] = []
        matched = self._match(observations)
        seen: set[int] = set()
        for i, ob in enumerate(observations):
            tid = matched.get(i)
            if (tid is None and ob.serial is None and ob.status != "blank" and not ob.placed
                    and len(ob.print_quads_mm) < 2 and not ob.disputed):
                # a print that gave no 7-digit read, on no known note: part of a note (a hand over
                # it); a note-shaped change makes the note's track (``blank``), and this read then
                # joins it. A note seen by both its prints, or whose reads named serials (they
                # disagreed in this frame), is a note: its track is read again until it settles
                continue
            if tid is None:
                track = Track(self._next_id, np.asarray(ob.quad_mm, np.float64), ob.anchor, time_s, frame, time_s, frame,
                              tuple(ob.print_quads_mm) if ob.serial is not None else ())
                self._next_id += 1
                self.tracks[track.id] = track
                events.append(TrackEvent("new", track.id, time_s))
            else:
                track = self.tracks[tid]
                # a quad placed by both prints is better than one guessed from a single print, and
                # a print that gave no serial may belong to a neighbour: it does not move the note
                if len(ob.print_quads_mm) >= 2 or (len(track.print_quads_mm) < 2 and ob.serial is not None):
                    if float(np.linalg.norm(ob.centre_mm - track.centre_mm)) > self.match_mm:
                        events.append(TrackEvent("moved", track.id, time_s, track.serial))
                        track.attempts = 0
                    track.quad_mm = np.asarray(ob.quad_mm, np.float64)
                    track.anchor_mm = ob.anchor
                    # prints that gave no serial may be misplaced (a hand over the note): the
                    # prints kept for the next read (its hints) are those a serial was read from
                    if ob.print_quads_mm and ob.serial is not None:
                        track.print_quads_mm = tuple(ob.print_quads_mm)
            if ob.serial is None and len(ob.print_quads_mm) >= 2 and ob.status != "blank":
                track.window_quads_mm = tuple(ob.print_quads_mm[:2])
            seen.add(track.id)
            track.misses = 0
            track.last_seen_s = max(track.last_seen_s, time_s)
            if ob.looks is not None and len(ob.print_quads_mm) >= 2:
                self._count_looks(track, frame, tuple(ob.print_quads_mm[:2]), ob.looks, reset=True)
            events.extend(self._add_read(track, ob, frame, time_s))
        if count_misses or drop_blanks:
            for track in list(self.tracks.values()):
                if track.id in seen or track.last_frame >= frame or not all(
                        _inside(corner, region_mm) for corner in track.quad_mm):
                    continue
                if not count_misses and track.status != "blank":
                    continue
                track.misses += 1
                if track.misses >= self.max_misses:
                    del self.tracks[track.id]
                    self.removed[track.id] = track
                    events.append(TrackEvent("removed", track.id, time_s, track.serial))
        return events

    def _add_read(self, track: Track, ob: Observation, frame: int, time_s: float) -> list[TrackEvent]:
        if any(r.frame == frame for r in track.reads):
            return self._settle(track, time_s)  # this frame was read already: the same pixels say the same thing
        if ob.status == "blank" and track.reads and any(r.serial for r in track.reads):
            # a note-shaped change without a serial where a serial was read: no news about the serial
            track.last_frame = max(track.last_frame, frame)
            return self._settle(track, time_s)
        _insert(track.reads, Read(frame, time_s, ob.serial, float(ob.confidence), ob.status))
        track.last_frame = max(track.last_frame, frame)
        track.attempts += 1
        track.last_status, track.last_reason = ob.status, ob.reason
        return self._settle(track, time_s)

    def _settle(self, track: Track, time_s: float) -> list[TrackEvent]:
        """Decide the track's serial from its reads (:class:`TrustRule`) and its prints' evidence
        (:meth:`~dealer_assist.vision.print_evidence.NoteEvidence.decide`: both prints, each over its
        frames, agreeing with the measured margin). The evidence trusts a serial no recent read of the
        reader contradicts; a serial the rule trusts that the evidence contradicts stays pending (one
        note, one decision)."""
        before = track.serial
        value = self.rule.decide(track.reads, before)
        track.decision = track.evidence.decide() if track.evidence is not None else None
        by_prints = getattr(track.decision, "serial", None)
        if by_prints is not None:
            rivals = {r.serial for r in track.reads[-self.rule.n:] if r.serial is not None}
            if value is None and rivals <= {by_prints}:
                value = by_prints
            elif value is not None and value != by_prints:
                value = None
        track.serial = value
        if track.serial is not None and track.serial != before:
            track.trusted_s = time_s
            return [TrackEvent("trusted", track.id, time_s, track.serial)]
        if track.serial is None and before is not None:
            track.trusted_s = None
        return []

    def _count_looks(self, track: Track, frame: int, windows_mm: tuple[np.ndarray, ...], looks: dict,
                     reset: bool) -> bool:
        """Count the serial model's looks at ``windows_mm`` in ``frame`` into the track's evidence; with
        ``reset`` (the windows come from a read that found both prints) windows elsewhere than the
        evidence's start it afresh, else such looks are dropped (the note moved since they were asked for).
        Each window's looks go to the evidence of the window lying there (never to the other print's)."""
        order = _window_order(track.evidence_windows_mm, windows_mm) if track.evidence is not None else None
        if order is None:
            if not reset:
                return False
            track.evidence = NoteEvidence(len(windows_mm))
            track.evidence_windows_mm = tuple(np.asarray(q, np.float64) for q in windows_mm)
            track.looks = 0
            order = list(range(len(windows_mm)))
        mine = {way: tuple(per[order.index(i)] for i in range(len(order))) for way, per in looks.items()}
        track.evidence.add(frame, mine)
        track.looked_frame = max(track.looked_frame, frame)
        return True

    def add_looks(self, track_id: int, frame: int, time_s: float, windows_mm: Sequence[np.ndarray],
                  looks: dict) -> list[TrackEvent]:
        """A ``look`` job's result for one track: the serial model's looks at its windows in ``frame``
        (dropped when the track is gone or its windows moved since)."""
        track = self.tracks.get(track_id)
        if track is None or not self._count_looks(track, frame, tuple(windows_mm), looks, reset=False):
            return []
        track.last_seen_s = max(track.last_seen_s, time_s)
        return self._settle(track, time_s)

    def forget_evidence(self, track_ids: Iterable[int]) -> None:
        """The place of these tracks' print windows changed (a note put there, turned, moved): what the model
        saw there before is no evidence about what lies there now."""
        for tid in track_ids:
            t = self.tracks.get(tid)
            if t is not None:
                t.evidence, t.evidence_windows_mm, t.decision, t.looks = None, (), None, 0

    def add_failed_read(self, track_id: int, frame: int, time_s: float, reason: str) -> None:
        """A read of this track's place that found no note there (a confirm read): counts as a read without a serial."""
        track = self.tracks.get(track_id)
        if track is None or any(r.frame == frame for r in track.reads):
            return
        _insert(track.reads, Read(frame, time_s, None, 0.0, "unreadable"))
        track.last_frame = max(track.last_frame, frame)
        track.attempts += 1
        if track.serial is None and track.last_status != "blank":  # a face-down note stays face down
            track.last_status, track.last_reason = "unreadable", reason

    def reset_attempts(self, track_ids: Iterable[int]) -> None:
        """The places of these tracks changed: read them again (up to ``n`` more attempts)."""
        for tid in track_ids:
            if tid in self.tracks:
                self.tracks[tid].attempts = 0


#: A window found again lies within this distance (mm, centre to centre) of where it was.
WINDOW_MATCH_MM = 4.0


def _window_order(old: Sequence[np.ndarray], new: Sequence[np.ndarray]) -> list[int] | None:
    """For each of ``new``'s windows, the index of ``old``'s window lying there (centres within
    :data:`WINDOW_MATCH_MM`), or None when they are not the same windows."""
    if not old or len(old) != len(new):
        return None
    out = []
    for q in new:
        c = np.mean(np.asarray(q, np.float64).reshape(-1, 2), axis=0)
        d = [float(np.linalg.norm(c - np.mean(np.asarray(o, np.float64).reshape(-1, 2), axis=0))) for o in old]
        k = int(np.argmin(d))
        if d[k] > WINDOW_MATCH_MM or k in out:
            return None
        out.append(k)
    return out


def _on(quads, note) -> bool:
    """Every print quad's centre lies on the note quad (5 mm of slack)."""
    if not quads:
        return False
    poly = cv2.convexHull(np.asarray(note, np.float32).reshape(-1, 2))
    return all(cv2.pointPolygonTest(poly, tuple(float(v) for v in np.mean(q, axis=0)), True) >= -5.0 for q in quads)


def _prints_within(ob: Observation, track: Track) -> bool:
    """The observation's serial prints lie on the track's note, or the track's on the observation's."""
    return _on(ob.print_quads_mm, track.quad_mm) or _on(track.print_quads_mm, ob.quad_mm)


def _insert(reads: list[Read], read: Read) -> None:
    """Keep a track's reads in frame order (a read of the frame before the newest may come last)."""
    i = len(reads)
    while i > 0 and reads[i - 1].frame > read.frame:
        i -= 1
    reads.insert(i, read)


def _inside(point: np.ndarray, region: Sequence[float]) -> bool:
    x0, y0, x1, y1 = region
    return bool(x0 <= point[0] <= x1 and y0 <= point[1] <= y1)
