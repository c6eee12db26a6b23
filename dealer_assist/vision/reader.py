"""Find every note's serial prints in a photo, read them, and trust only cross-checked reads.

The pipeline (pure functions of the image, the engines and the thresholds
of :class:`~.params.ReaderParams`):

1. **Detect** text lines in the whole photo (:func:`~.prints.detect_lines`),
   or take the print quads a caller already knows (:class:`~.model.ReadHints`).
2. Keep lines shaped like a serial print (long and thin, not tiny), **rectify**
   each to an upright crop; the orientation classifier turns upside-down ones.
3. **Read** each crop with the project's serial model first, both ways up; a
   crop it reads surely one way and as nothing the other way is read by it
   alone; every other crop is read with the primary recognizer; keep those
   with a serial-like digit run (:func:`~.prints.find_prints`).
4. **Group** prints into notes (:func:`~.grouping.group_prints`): two prints
   of one note carry (nearly) the same digits and lie within a note's width
   of each other.
5. A note whose two prints the model read alone, both sure and alike, in a
   1997-series layout, is **trusted** (:func:`~.trust.model_two_prints`); the
   model-read prints of every other note are read again by the primary
   recognizer (:func:`~.prints.reread_by_engines`), and it is decided as below.
   **Cross-check** (:func:`~.trust.decide`): a serial is trusted only when two
   independent reads agree -- the note's two prints, or, when only one print
   is legible, two different engines -- and no comparable read disagrees.
   Two agreeing prints must also lie where a 1997-series note puts them
   (:func:`~.grouping.is_ruble_pair`), which keeps other currencies with the
   same two-letters-seven-digits format out.
6. **Place** each note and, in a view of known scale, join prints read apart
   into one note (:func:`~.grouping.settle_notes`).

Nothing here knows the game: a trusted serial is just 7 digits.
"""

from __future__ import annotations

import dataclasses
from typing import Sequence

import numpy as np

from dealer_assist.vision.fastpath import notes_from_layout, read_by_layout
from dealer_assist.vision.grouping import group_prints, settle_notes
from dealer_assist.vision.model import NoteRead, NoteStatus, Print, ReadHints
from dealer_assist.vision.ocr import RapidOcrEngine, TextRecognizer
from dealer_assist.vision.params import DEFAULT_PARAMS, SURE_WAY_UP, ReaderParams
from dealer_assist.vision.prints import detect_lines, find_prints, reread_by_engines
from dealer_assist.vision.serials import SerialKind
from dealer_assist.vision.trust import decide, model_two_prints, odd_length_note, partial_note

__all__ = ["SerialReader", "NoteRead", "NoteStatus", "Print", "ReadHints", "ReaderParams", "DEFAULT_PARAMS",
           "SURE_WAY_UP", "SMALL_PRINT_PX"]

#: A print line lower than this (px) is small (see :class:`~.params.ReaderParams`).
SMALL_PRINT_PX = DEFAULT_PARAMS.small_print_px


class SerialReader:
    """The whole reader with its engines, ready to call on images.

    Args:
        primary: detector + orientation classifier + primary recognizer
            (default :class:`~.ocr.RapidOcrEngine`, PP-OCRv6).
        seconds: cross-check recognizers asked in turn when the prints alone
            do not settle a note (default: :class:`~.ocr.PpOcrV4Engine`, then
            the project's serial model :class:`~.recognizer.SerialCtcEngine`
            -- heard only when sure of every digit, see
            :func:`~.trust.heard`; left out when its file or card cannot be used,
            :meth:`~.recognizer.SerialCtcEngine.problem` -- then :class:`~.ocr.TesseractEngine`; the
            layout fast path and small prints use the first). The serial model among them is also
            read first on every print line (``params.model_first_min_char_prob``, :attr:`model`).
        letters: the recognizer asked, both ways up, to read the letters of a
            print whose way up the primary cannot tell (default: Tesseract,
            the one engine here trained on Cyrillic).
        use_second: ``False`` to use the primary engine alone (no cross-check
            engines; only two agreeing prints are then trusted).
        layout: the deck's note layout from a calibration profile
            (:class:`dealer_assist.calibration.profile.NoteLayout`), or ``None``.
            With it, :meth:`read` first tries the fast path of
            :mod:`~.fastpath` (note outlines, prints read where the layout
            puts them) and falls back to the general reader when any outlined
            note is not settled there.
        params: the thresholds (:data:`~.params.DEFAULT_PARAMS`; live mode
            sets ``unsure_way_up`` to :data:`~.params.SURE_WAY_UP`).
    """

    def __init__(self, primary: RapidOcrEngine | None = None,
                 seconds: Sequence[TextRecognizer] | None = None,
                 letters: TextRecognizer | None = None, use_second: bool = True,
                 layout=None, params: ReaderParams = DEFAULT_PARAMS) -> None:
        from dealer_assist.vision.ocr import PpOcrV4Engine, TesseractEngine
        from dealer_assist.vision.recognizer import SerialCtcEngine

        self.primary = primary or RapidOcrEngine()
        tesseract = TesseractEngine()
        if seconds is None:
            model = SerialCtcEngine()  # a missing or damaged model is left out (the reader before it had none)
            seconds = (PpOcrV4Engine(), *(() if model.problem() else (model,)), tesseract) if use_second else ()
        self.seconds = tuple(seconds)
        # the model read first (model_first_min_char_prob): the one among the engines, when it can be used
        self.model = next((e for e in self.seconds if e.name in params.model_engines), None)
        self.letters = letters if letters is not None else (tesseract if use_second else None)
        self.layout = layout
        self.params = params

    def with_params(self, **changes) -> "SerialReader":
        """A reader sharing these engines whose thresholds differ by ``changes`` (field names of
        :class:`~.params.ReaderParams`)."""
        other = object.__new__(SerialReader)
        other.__dict__.update(self.__dict__)
        other.params = dataclasses.replace(self.params, **changes)
        return other

    def read(self, image: np.ndarray, hints: ReadHints | None = None) -> list[NoteRead]:
        """Read every note in ``image`` (``uint8`` ``(H, W, 3)`` BGR).

        Args:
            image: the photo or view.
            hints: what the caller knows (:class:`~.model.ReadHints`): the
                view's scale, a known note's print quads, whether to snap
                quads to the note's edges. ``None``: a photo, nothing known.

        Returns the notes in reading order (top to bottom, then left to right
        by the quad's centre). A note of which only part of the serial is
        visible (cut by the image's edge, or covered) is an unreadable note;
        other short digit runs are not notes.
        """
        p = self.params
        if self.layout is not None:
            fast = read_by_layout(image, self.layout, self.primary, self.seconds[0] if self.seconds else None, p)
            if fast:
                return _reading_order(notes_from_layout(fast, self.layout))
        lines: list[np.ndarray] = []
        prints = find_prints(image, self.primary, self.primary, self.letters, p, hints, self.model, lines)
        scale = hints.px_per_mm if hints is not None else None
        notes = []
        if any(q.model_box is not None for q in prints):
            # notes whose two prints the model read alone, sure and alike, are settled; the other
            # model-read prints are read again by the general engines and decided as without the model,
            # with one thing kept: this first grouping settles an ambiguous print (digits both ways up)
            # lying with a model-read one by the layout (group_prints, as for any print whose way up is
            # known), and the model-read print, ambiguous again when PP-OCRv6 reads it, by that partner
            rest = []
            for group in group_prints(prints, p, scale):
                if (note := model_two_prints(group, p, scale)) is not None:
                    notes.append(note)
                else:
                    rest.extend(group)
            prints = reread_by_engines(image, rest, self.primary, self.primary, self.letters, p, hints, lines,
                                       self.model)
        for group in group_prints(prints, p, scale):
            if not any(s.kind in (SerialKind.SERIAL7, SerialKind.SERIAL9) for q in group for _, s in q.serials()):
                note = odd_length_note(group, p, scale) or partial_note(group, p, scale)
                if note is None:
                    continue  # stray digits (a date, a code): not a note
            else:
                note = decide(group, self.seconds, self.primary.name, p, scale)
            notes.append(note)
        return _reading_order(settle_notes(notes, image, hints, p))

    def find_lines(self, image: np.ndarray, hints: ReadHints | None = None) -> list[np.ndarray]:
        """Where serial prints may be in ``image`` (``uint8`` ``(H, W, 3)`` BGR), without reading them:
        the text detector's line quads ``(4, 2)`` ``float32`` px, only those of a serial print's physical
        size when ``hints.px_per_mm`` is given (:func:`~.prints.detect_lines`). A tenth of a
        :meth:`read`'s work on a view with notes, all of it on an empty table: live mode's start-up
        scan looks for notes so and reads only where lines are found."""
        return detect_lines(image, self.primary, hints, self.params)


def _reading_order(notes: list[NoteRead]) -> list[NoteRead]:
    """Top to bottom (in 50-px bands), then left to right, by each quad's centre."""
    return sorted(notes, key=lambda n: (round(float(n.quad[:, 1].mean()) / 50), float(n.quad[:, 0].mean())))
