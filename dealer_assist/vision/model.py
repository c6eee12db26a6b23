"""What the reader finds and concludes: serial prints, notes, their status, and a caller's hints.

Plain values shared by every stage of :mod:`dealer_assist.vision` (the
general reader, the calibrated deck's fast path, the note grouping) and by
its callers (batch scoring, live mode, calibration), so that no stage
imports another to know a note's shape. No game rules, no I/O.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum, unique

import numpy as np

from dealer_assist.vision.geometry import quad_size
from dealer_assist.vision.ocr import LineRead
from dealer_assist.vision.serials import SerialKind, SerialText

__all__ = ["NoteStatus", "Evidence", "Print", "NoteRead", "ReadHints"]


@unique
class NoteStatus(StrEnum):
    """What the reader concluded about one note (FORMATS.md §3 plus a status).

    ``TRUSTED``: independent reads agree on 7 digits. ``UNREADABLE``: reads
    disagree, are too few, or cannot be told from upside-down text.
    ``OUT_OF_FORMAT``: a serial that is not 7 digits (a 9-digit 2017-series
    note, a misprint) or prints that do not lie as a 1997-series note's do.
    """

    TRUSTED = "trusted"
    UNREADABLE = "unreadable"
    OUT_OF_FORMAT = "out_of_format"


@unique
class Evidence(StrEnum):
    """Why a serial is trusted: the independent evidence behind it.

    ``TWO_PRINTS``: the note's two serial prints (different places, different
    fonts) read the same 7 digits and lie where a 1997-series note puts them.
    ``ONE_PRINT``: one print only, read alike by engines that were each sure of
    every digit (per-character CTC probabilities, see
    :class:`~.params.ReaderParams`). ``LAYOUT``: the calibrated deck's fast
    path: the note's outline found and both prints read at the layout's ROIs.
    """

    TWO_PRINTS = "two_prints"
    ONE_PRINT = "one_print"
    LAYOUT = "layout"


@dataclass
class Print:
    """One serial print found in the photo.

    Attributes:
        quad: ``(4, 2)`` ``float32`` upright quad in image pixels.
        crop: the rectified crop, ``uint8`` ``(h, w, 3)``.
        reads: every engine read of this crop, with what each parsed to.
        ambiguous: the crop reads as a serial both ways up (see
            :func:`~.prints.find_prints`); its reads are kept for a person but never vote.
        cut: the print touches the photo's edge, so some of its digits are
            outside the frame: its full-length reads are not trusted (an
            engine invents the missing digits), its partial reads still count.
        other_way: for an ambiguous print, the reads of its crop turned over
            (the print may read either way); empty otherwise.
        model_box: for a print read by the project's serial model alone (sure of
            every digit one way up, nothing the other way:
            :func:`~.prints.model_read`), the detector's box it was cut from, so
            that the general engines can read it again from there
            (:func:`~.prints.reread_by_engines`) when its note is not settled by
            :func:`~.trust.model_two_prints`; ``None`` for every other print.
    """

    quad: np.ndarray
    crop: np.ndarray
    reads: list[tuple[LineRead, list[SerialText]]] = field(default_factory=list)
    ambiguous: bool = False
    cut: bool = False
    other_way: list[tuple[LineRead, list[SerialText]]] = field(default_factory=list)
    model_box: np.ndarray | None = None

    def values(self, ignore: frozenset[str] = frozenset(), both_ways: bool = False) -> set[str]:
        """The 7-digit values this print's reads named (not by the engines in ``ignore``; with
        ``both_ways`` the reads of the crop turned over too)."""
        reads = self.reads + (self.other_way if both_ways else [])
        return {s.digits for r, ss in reads for s in ss
                if s.kind == SerialKind.SERIAL7 and getattr(r, "engine", None) not in ignore}

    @property
    def letter_block(self) -> bool:
        """Some read shows two letters before the digits: the line is laid out as a serial print."""
        return any(s.letter_block for _, ss in self.reads + self.other_way for s in ss)

    def serials(self, kind: SerialKind | None = None) -> list[tuple[LineRead, SerialText]]:
        """Every parsed serial-like run of every read, with the read it came from (``kind``: only those)."""
        return [(r, s) for r, ss in self.reads for s in ss if kind is None or s.kind == kind]

    @property
    def height(self) -> float:
        """Mean height of :attr:`quad`, px."""
        return quad_size(self.quad)[1]

    @property
    def center(self) -> np.ndarray:
        """``float64`` ``(2,)`` mean of the quad's corners, px."""
        return np.asarray(self.quad, dtype=np.float64).mean(axis=0)


@dataclass
class NoteRead:
    """What the reader concludes about one note (FORMATS.md §3 plus a status).

    Attributes:
        serial: the trusted 7 digits, or ``None`` (never padded or guessed).
        letters: the two Cyrillic letters when two reads agree and one of them
            is a Cyrillic engine's, else ``None``.
        confidence: 0..1; 0 when ``serial`` is ``None``.
        quad: ``(4, 2)`` note quad in image pixels, clockwise from the note's
            top-left: estimated from the prints' layout, then (unless the
            caller's :class:`ReadHints` say not to) snapped to the note's edges.
        status: a :class:`NoteStatus`.
        reason: one plain sentence for a person when not trusted.
        prints: the serial prints that belong to this note.
        disputed: for an unreadable note, the 7-digit values its reads named
            (sorted; see :func:`~.grouping.disputed_values`); empty otherwise.
        outlined: ``quad`` is the note's own outline found in the image (the
            calibrated deck's fast path), not an estimate from its prints.
        evidence: for a trusted serial, why it is trusted (:class:`Evidence`).
        outside: the note, placed from a single print at a known scale, reaches
            beyond the image (its other print may lie outside it).
    """

    serial: str | None
    letters: str | None
    confidence: float
    quad: np.ndarray
    status: NoteStatus
    reason: str
    prints: list[Print]
    disputed: tuple[str, ...] = ()
    outlined: bool = False
    outside: bool = False
    evidence: Evidence | None = None

    def __post_init__(self) -> None:
        self.status = NoteStatus(self.status)

    @property
    def cut(self) -> bool:
        """A print of this note touches the image's edge."""
        return any(p.cut for p in self.prints)

    @property
    def anchor(self) -> np.ndarray:
        """``float64`` ``(2,)`` px: the prints' mean centre (the quad's centre without prints)."""
        if self.prints:
            return np.mean([np.asarray(p.quad, np.float64).mean(axis=0) for p in self.prints], axis=0)
        return np.asarray(self.quad, np.float64).mean(axis=0)

    def reads_json(self) -> list[dict]:
        """Every OCR read that was considered, for FORMATS.md §3 ``reads``."""
        out = []
        for i, p in enumerate(self.prints):
            for r, ss in p.reads:
                out.append({
                    "print": i, "engine": r.engine, "text": r.text, "score": round(r.score, 3),
                    "digits": [s.digits for s in ss],
                })
        return out

    def to_json(self) -> dict:
        """The FORMATS.md §3 note object (plus ``status`` and ``reason``)."""
        return {
            "serial": self.serial,
            "letters": self.letters,
            "confidence": round(self.confidence, 3),
            "quad": [[round(float(x), 1), round(float(y), 1)] for x, y in self.quad],
            "status": self.status.value,
            "reason": self.reason,
            "evidence": self.evidence.value if self.evidence is not None else None,
            "reads": self.reads_json(),
        }


@dataclass(frozen=True)
class ReadHints:
    """What a caller knows about an image before it is read (all optional).

    Attributes:
        px_per_mm: the image's scale when it is a top view of known scale
            (live mode's region views): text lines not of a serial print's
            physical size are skipped, a note seen by one print is placed at
            that scale, and prints read apart are joined by the note's
            geometry in millimetres.
        print_quads: ``(4, 2)`` px quads of a known note's serial prints: they
            are read where they are, without text detection (a *confirm* read).
        refine_quad: snap note quads to the note's edges in the image (a
            photo); ``False`` keeps the quad the prints give (a small view,
            where an edge may be a neighbour's or the view's own border).
        prints_upright: ``print_quads`` are upright as given (clockwise from
            the text's own top-left: a previous read settled their way up), so
            each is recognised that way only, without the up/down classifier
            (the other way up too only when that way reads as no serial). Live
            mode's confirm reads of a note read before: half the recognitions.
        detect_px_per_mm: with ``px_per_mm``, the text detector looks for lines in the image
            shrunk to this scale (lines found there are read in the image itself): the detector's
            cost grows with the pixels, and it finds a print's line at the camera's own scale as
            well as in a view upsampled for recognition (live mode; see
            :data:`dealer_assist.live.read_planning.DETECT_PX_PER_MM`). None: at the image's scale.
    """

    px_per_mm: float | None = None
    print_quads: tuple[np.ndarray, ...] | None = None
    refine_quad: bool = True
    prints_upright: bool = False
    detect_px_per_mm: float | None = None
