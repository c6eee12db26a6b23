"""Evidence about a note's serial that accumulates over video frames, print by print.

Live mode follows a note across frames. Once a read has found both of its serial prints
(their *windows*), each new frame is looked at by recognising those two windows alone with
the project's serial model (:class:`~.recognizer.SerialCtcEngine`: a few milliseconds, no
text detector). Each look gives, for every one of the 7 digits, the model's probabilities of
the ten digits (:func:`look_at_windows`); :class:`PrintEvidence` keeps their log-probabilities
per position, averaged over the frames of that print; :class:`NoteEvidence` keeps the two
prints' evidence, for both ways up while the note's way up is unknown, and decides
(:meth:`NoteEvidence.decide`):

* a serial is trusted only when **both prints**, each averaged over its own frames, give
  the same 7 digits, and on each print every digit leads the runner-up digit by at least
  :data:`MIN_MARGIN` (mean log-probability, nats), and the other way up gave no 7-digit read
  (the model reads nothing on a print turned over);
* frames of one print are never a second piece of evidence: a note with only one print
  read (the other hidden, a fanned pocket note) is never trusted here, however many frames
  agree -- it is left to the photo reader's one-print rule (:func:`~.trust.decide`); one
  print's misread repeats in every frame (issue 21: a per-digit vote over frames of
  untrusted reads gave 5 wrong serials);
* the average, not the sum: frames of a still note are not independent, so more frames
  smooth the noise of one frame but never make a doubtful digit sure.

Pure functions of crops, the engine and the evidence; no clocks, no game rules. The
margin is measured by ``benchmarks/bench_print_evidence.py --margins`` (see
:data:`MIN_MARGIN`).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Sequence

import numpy as np

from dealer_assist.vision.ocr import ctc_peaks
from dealer_assist.vision.geometry import rectify, rotate_quad_180
from dealer_assist.vision.serials import SerialKind, parse_serial_text

__all__ = ["MIN_MARGIN", "MIN_FRAMES", "DIGITS", "PrintLook", "PrintEvidence", "NoteEvidence", "Decision", "look_from_probs",
           "look_at_crops", "look_at_windows", "window_crops", "windows_turned", "WAYS"]

#: Digits of a 1997-series serial.
DIGITS = 7
#: Smallest lead (nats: mean log-probability over a print's frames) of every digit over the
#: runner-up digit at its position, on each of the two prints, for a serial to be trusted.
#: Measured by ``benchmarks/bench_print_evidence.py --grid 1.2 1.4 1.6 2.0 2.4 2.8 3.2 --frames 5
#: --margins 0 0.25 0.5 0.75 1 1.5 2 2.5 3 4 5`` (the 21 clean real cut-outs, both ways up, 193
#: notes whose two windows a first read found): two prints agreeing gave **no wrong serial at any
#: margin** (160 right at 0, 139 at 2.0, 127 at 2.5 after 5 frames), so the margin is set by one
#: print alone -- a single print's own mean was wrong with a lead of 2.0 once (1 frame, 2 of 278 prints
#: at 1.5), never at 2.5 or more (263-292 prints over 1, 3 and 5 frames). 2.5: each print is as sure as
#: no single print was wrongly, and the second print is the independent check.
MIN_MARGIN = 2.5
#: Frames each print's evidence needs before it can trust: a single frame's glitch (glare, a shadow, a hand
#: at the window's edge) is never enough alone, as live mode's k-of-N rule asked two frames of the reader.
#: The two prints stay the independent evidence; frames only steady each print's own read.
MIN_FRAMES = 2
#: Ways up of a note's windows, as the windows were given (``0``) and turned half round (``1``).
WAYS = (0, 1)
#: Floor of a digit's probability before the log (a digit the model gives no chance is not -inf).
_FLOOR = 1e-6


@dataclass(frozen=True)
class PrintLook:
    """The model's read of one print window in one frame, one way up.

    Attributes:
        text: the greedy CTC text (``"АК 1234567"``; empty when it reads nothing).
        digits: the 7 digits when the text holds exactly one 7-digit serial (letters then
            digits, not taken from a longer run); else ``None``.
        logp: ``float64`` ``(7, 10)``: per digit position, the log-probabilities of the digits
            0-9 at the CTC frame where that digit was read surest, renormalised over the ten
            digits; ``None`` with ``digits``.
    """

    text: str
    digits: str | None = None
    logp: np.ndarray | None = None


def look_from_probs(probs: np.ndarray, charset: Sequence[str]) -> PrintLook:
    """A :class:`PrintLook` from one crop's softmax outputs ``(T, C)`` (class 0 the CTC blank).

    Greedy CTC decoding as :func:`~.ocr.ctc_decode`; each character keeps the frame of its run
    where its class is likeliest, and a digit's distribution is that frame's over the ten digit
    classes.
    """
    probs = np.asarray(probs, np.float64)
    classes, peak = ctc_peaks(probs)
    text = "".join(charset[k] for k in classes)
    sevens = [s for s in parse_serial_text(text) if s.kind is SerialKind.SERIAL7]
    if len(sevens) != 1 or sevens[0].derived:
        return PrintLook(text)
    s = sevens[0]
    digit_classes = [list(charset).index(str(d)) for d in range(10)]
    rows = probs[[peak[s.start + i] for i in range(DIGITS)]][:, digit_classes]
    rows = rows / np.maximum(rows.sum(axis=1, keepdims=True), 1e-12)
    return PrintLook(text, s.digits, np.log(np.maximum(rows, _FLOOR)))


def _softmax(x: np.ndarray) -> np.ndarray:
    e = np.exp(x - x.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)


def look_at_crops(engine, crops: Sequence[np.ndarray]) -> list[PrintLook]:
    """The serial model's look at each crop (``uint8`` BGR, text horizontal, the way up to read), in one
    batch. ``engine``: a :class:`~.recognizer.SerialCtcEngine` (its ``scores`` and calibrated
    ``temperature``)."""
    from dealer_assist.vision.recognizer import CHARSET, preprocess

    if not crops:
        return []
    logits = engine.scores(np.stack([preprocess(c) for c in crops]))
    temperature = float(engine.temperature or 1.0)
    return [look_from_probs(_softmax(np.asarray(f, np.float64) / temperature), CHARSET) for f in logits]


def window_crops(image: np.ndarray, windows: Sequence[np.ndarray]) -> list[np.ndarray]:
    """Each window ``(4, 2)`` px (corners clockwise from its top-left as given) rectified from ``image``, as
    given and turned half round: ``[w0 way 0, w0 way 1, w1 way 0, w1 way 1, ...]``."""
    out = []
    for q in windows:
        crop = rectify(image, np.asarray(q, np.float32).reshape(4, 2))
        out.extend([crop, crop[::-1, ::-1].copy()])
    return out


def look_at_windows(engine, image: np.ndarray, windows: Sequence[np.ndarray]) -> dict[int, tuple[PrintLook, ...]]:
    """Looks at a note's print windows in one frame, both ways up: ``{way: (look of window 0, of window 1, ...)}``
    (see :data:`WAYS`). ``windows``: quads ``(4, 2)`` in ``image``'s pixels (their way up unsettled)."""
    looks = look_at_crops(engine, window_crops(image, windows))
    return {way: tuple(looks[2 * i + way] for i in range(len(windows))) for way in WAYS}


@dataclass
class PrintEvidence:
    """One print window's looks accumulated over frames (one way up).

    Attributes:
        frames: the frames counted (a frame counts once).
        sum_logp: ``(7, 10)`` sum of the counted looks' log-probabilities.
        unread: how many looks gave no 7 digits (not counted in the mean).
    """

    frames: set[int] = field(default_factory=set)
    sum_logp: np.ndarray = field(default_factory=lambda: np.zeros((DIGITS, 10)))
    unread: int = 0

    def add(self, frame: int, look: PrintLook) -> bool:
        """Count ``look`` of ``frame``; False when that frame was counted already or it gave no 7 digits."""
        if frame in self.frames:
            return False
        if look.logp is None:
            self.unread += 1
            return False
        self.frames.add(frame)
        self.sum_logp = self.sum_logp + look.logp
        return True

    @property
    def n(self) -> int:
        return len(self.frames)

    def mean_logp(self) -> np.ndarray | None:
        """``(7, 10)`` mean log-probabilities, or None before any 7-digit look."""
        return self.sum_logp / self.n if self.n else None

    def value(self) -> str | None:
        """The likeliest digit at each position, or None before any 7-digit look."""
        m = self.mean_logp()
        return None if m is None else "".join(str(int(d)) for d in m.argmax(axis=1))

    def margins(self) -> np.ndarray | None:
        """``(7,)`` each position's lead (nats) of the likeliest digit over the runner-up."""
        m = self.mean_logp()
        if m is None:
            return None
        top = np.sort(m, axis=1)
        return top[:, -1] - top[:, -2]


@dataclass(frozen=True)
class Decision:
    """What a note's accumulated evidence says.

    Attributes:
        serial: the trusted 7 digits, or None.
        reason: one plain sentence when not trusted ("" when trusted).
        value: the likeliest value when both prints agree on it (trusted or not), else None.
        margin: the smallest lead (nats) over both prints of that value (0 when none).
        way: the way up the evidence is for (:data:`WAYS`), or None.
        frames: frames counted per print of that way.
        confidence: the least sure digit's mean probability over both prints (0..1; 0 when none agree).
    """

    serial: str | None
    reason: str
    value: str | None = None
    margin: float = 0.0
    way: int | None = None
    frames: tuple[int, ...] = ()
    confidence: float = 0.0


@dataclass
class NoteEvidence:
    """A followed note's two print windows, accumulated over frames for both ways up.

    ``prints[way][i]`` is window ``i``'s :class:`PrintEvidence` read way up ``way``. The
    windows must be the note's two serial prints (found together by a read that grouped
    them as one note's pair); a caller whose windows move starts a new :class:`NoteEvidence`.
    """

    windows: int = 2
    prints: dict[int, list[PrintEvidence]] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if not self.prints:
            self.prints = {way: [PrintEvidence() for _ in range(self.windows)] for way in WAYS}

    def add(self, frame: int, looks: dict[int, Sequence[PrintLook]]) -> int:
        """Count one frame's looks (:func:`look_at_windows`); returns how many 7-digit looks were counted."""
        counted = 0
        for way, per_window in looks.items():
            for ev, look in zip(self.prints[way], per_window):
                counted += ev.add(frame, look)
        return counted

    @property
    def frames(self) -> int:
        """Frames with a 7-digit look on some window."""
        return len(set().union(*(ev.frames for evs in self.prints.values() for ev in evs)))

    def decide(self, min_margin: float = MIN_MARGIN, min_frames: int = MIN_FRAMES) -> Decision:
        """Trusted when both prints, each averaged over its frames (``min_frames`` at least), read the same 7
        digits one way up with every digit ``min_margin`` nats ahead of its runner-up on each print, and the
        other way up read no 7 digits."""
        read = {way: [ev for ev in evs if ev.n] for way, evs in self.prints.items()}
        ways = [way for way in WAYS if read[way]]
        if not ways:
            return Decision(None, "no frame read 7 digits on its prints")
        if len(ways) > 1:
            return Decision(None, "its prints read as 7 digits both ways up")
        way = ways[0]
        evs = read[way]
        frames = tuple(ev.n for ev in self.prints[way])
        if len(evs) < 2:
            return Decision(None, f"only one print read ({evs[0].value()}) over {evs[0].n} frame(s): frames of "
                                  "one print are no second reading", way=way, frames=frames)
        values = {ev.value() for ev in evs}
        if len(values) > 1:
            return Decision(None, f"its two prints read differently ({', '.join(sorted(values))})", way=way,
                            frames=frames)
        value = values.pop()
        margin = float(min(ev.margins().min() for ev in evs))
        sure = float(min(np.exp(ev.mean_logp().max(axis=1)).min() for ev in evs))
        if margin < min_margin:
            return Decision(None, f"both prints read {value}, not yet surely (margin {margin:.1f} of "
                                  f"{min_margin:.1f})", value, margin, way, frames, sure)
        if min(frames) < min_frames:
            return Decision(None, f"both prints read {value}; {min_frames} frames of each are needed",
                            value, margin, way, frames, sure)
        return Decision(value, "", value, margin, way, frames, sure)


def windows_turned(windows: Sequence[np.ndarray], way: int) -> list[np.ndarray]:
    """The windows as read way up ``way`` (turned half round for 1)."""
    return [np.asarray(q) if way == 0 else rotate_quad_180(np.asarray(q)) for q in windows]
