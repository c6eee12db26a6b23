"""Find every note's serial prints in a photo, read them, and trust only cross-checked reads.

The pipeline (all pure functions of the image and the engines passed in):

1. **Detect** text lines in the whole photo (:class:`~.ocr.TextDetector`).
2. Keep lines shaped like a serial print (long and thin, not tiny), **rectify**
   each to an upright crop; the orientation classifier turns upside-down ones.
3. **Read** each crop with the primary recognizer and keep those with a
   serial-like digit run (:func:`~.serials.parse_serial_text`).
4. **Group** prints into notes: two prints of one note carry (nearly) the same
   digits and lie within a note's width of each other.
5. **Cross-check** (see :func:`decide`): a serial is trusted only when two
   independent reads agree -- the note's two prints, or, when only one print
   is legible, two different engines -- and no comparable read disagrees.
   Two agreeing prints must also lie where a 1997-series note puts them
   (:func:`is_ruble_pair`), which keeps other currencies with the same
   two-letters-seven-digits format out.

Nothing here knows the game: a trusted serial is just 7 digits.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Sequence

import numpy as np

from dealer_assist.vision.geometry import (
    line_frame,
    note_quad_from_print,
    note_quad_from_prints,
    print_pair_offset,
    quad_size,
    rectify,
    refine_note_quad,
    rotate_quad_180,
    upright_line_quad,
)
from dealer_assist.vision.ocr import LineRead, RapidOcrEngine, TextRecognizer
from dealer_assist.vision.serials import SerialKind, SerialText, parse_serial_text

#: Aspect (long/short side) range of a detector box that may hold a serial print.
#: Serial boxes measured 2.98..7.54 on the real photos and synthetic presets;
#: the range drops a seventh of the other text lines before recognition.
PRINT_ASPECT = (2.7, 10.0)
#: Smallest print height in pixels worth reading (7-px digits are still legible).
MIN_PRINT_HEIGHT_PX = 6.0
#: A classifier score below which live reads try the other way up of a line that reads as nothing
#: (on a synthetic table view a serial print was classified upside down at 0.75). The general
#: reader does not: on the real photos 119 of 325 lines score lower, nearly all of them other text,
#: and the extra recognitions cost ~4% of its time for no note gained.
SURE_WAY_UP = 0.9
#: A print whose quad comes this close (px) to the photo's edge is taken as cut by it.
FRAME_MARGIN_PX = 3.0
#: A print line lower than this (px) is small: its serial needs a second engine
#: even when both prints agree (see :func:`decide`).
SMALL_PRINT_PX = 22.0
#: Two prints further apart than this many print heights are not one note.
MAX_PRINT_DISTANCE_H = 60.0
#: Offset window of the left print from the top-right one, in the top-right
#: print's text frame and in units of its length (du: along the text, dv:
#: downwards). Measured on the 40 two-print rubles of the real photos: du
#: -5.2..-3.0, dv 0.41..1.6; a Polish note's two prints sit at du -2.5, dv 0.36.
#: Within that window the left print must also be far enough left and down:
#: ``-du + 2 dv >= 3.5``. Real rubles score 4.2 and more, the specimen notes
#: of :mod:`dealer_assist.synth` (longer prints) 3.7, the Polish pair 3.2.
RUBLE_DU = (-6.5, -2.0)
RUBLE_DV = (0.25, 2.2)
RUBLE_MIN_SPREAD = 3.5


@dataclass
class Print:
    """One serial print found in the photo.

    Attributes:
        quad: ``(4, 2)`` ``float32`` upright quad in image pixels.
        crop: the rectified crop, ``uint8`` ``(h, w, 3)``.
        reads: every engine read of this crop, with what each parsed to.
        ambiguous: the crop reads as a serial both ways up (see :func:`find_prints`);
            its reads are kept for a person but never vote.
        cut: the print touches the photo's edge, so some of its digits are
            outside the frame: its full-length reads are not trusted (an
            engine invents the missing digits), its partial reads still count.
    """

    quad: np.ndarray
    crop: np.ndarray
    reads: list[tuple[LineRead, list[SerialText]]] = field(default_factory=list)
    ambiguous: bool = False
    cut: bool = False

    def serials(self, kind: SerialKind | None = None) -> list[tuple[LineRead, SerialText]]:
        return [(r, s) for r, ss in self.reads for s in ss if kind is None or s.kind == kind]

    @property
    def height(self) -> float:
        return quad_size(self.quad)[1]

    @property
    def center(self) -> np.ndarray:
        return np.asarray(self.quad, dtype=np.float64).mean(axis=0)


@dataclass
class NoteRead:
    """What the reader concludes about one note (FORMATS.md §3 plus a status).

    Attributes:
        serial: the trusted 7 digits, or ``None`` (never padded or guessed).
        letters: the two Cyrillic letters when two reads agree and one of them
            is a Cyrillic engine's (:data:`CYRILLIC_ENGINES`), else ``None``.
        confidence: 0..1; 0 when ``serial`` is ``None``.
        quad: ``(4, 2)`` note quad in image pixels, clockwise from the note's
            top-left: estimated from the prints' layout, then snapped to the
            note's edges when they are found (:func:`~.geometry.refine_note_quad`).
        status: ``"trusted"``, ``"unreadable"`` (reads disagree or too few), or
            ``"out_of_format"`` (a 9-digit 2017-series note, or another layout).
        reason: one plain sentence for a person when not trusted.
        prints: the serial prints that belong to this note.
    """

    serial: str | None
    letters: str | None
    confidence: float
    quad: np.ndarray
    status: str
    reason: str
    prints: list[Print]

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
            "status": self.status,
            "reason": self.reason,
            "reads": self.reads_json(),
        }


def is_ruble_pair(a: np.ndarray, b: np.ndarray) -> tuple[bool, np.ndarray | None, np.ndarray | None]:
    """Whether two upright print quads lie as a 1997-series note's two prints do.

    The left-field print lies left of and below the top-right print, in the
    same reading direction. Returns ``(ok, top_right_quad, left_quad)``.
    """
    for first, second in ((a, b), (b, a)):
        du, dv, cos = print_pair_offset(first, second)
        w, h = quad_size(first)
        du, dv = du * h / w, dv * h / w
        if (cos > 0.8 and RUBLE_DU[0] <= du <= RUBLE_DU[1] and RUBLE_DV[0] <= dv <= RUBLE_DV[1]
                and -du + 2 * dv >= RUBLE_MIN_SPREAD):
            return True, first, second
    return False, None, None


def _hamming(a: str, b: str) -> int:
    return sum(x != y for x, y in zip(a, b)) + abs(len(a) - len(b))


def _similar(a: str, b: str) -> bool:
    """Digit strings that could be two reads of one serial (one may be partial)."""
    if len(a) == len(b):
        return _hamming(a, b) <= 2
    short, long_ = (a, b) if len(a) < len(b) else (b, a)
    return any(_hamming(short, long_[i:i + len(short)]) <= 1 for i in range(len(long_) - len(short) + 1))


def _orientation_evidence(parsed: list[SerialText]) -> int:
    """2: a 7/9-digit run after two Cyrillic letters; 1: such a run alone; 0: none."""
    best = 0
    for st in parsed:
        if st.kind in (SerialKind.SERIAL7, SerialKind.SERIAL9):
            best = max(best, 2 if st.letters else 1)
    return best


def find_prints(image: np.ndarray, detector: RapidOcrEngine, recognizer: TextRecognizer,
                second: TextRecognizer | None = None, unsure_way_up: float = 0.0) -> list[Print]:
    """Stages 1-3: every text line shaped and read like a serial print.

    Each serial-like line is read both ways up, because the digits 0, 1, 6, 8
    and 9 still read as digits upside down (``0900099`` turned over reads
    ``6600060``). The way up is taken from the two letters before the digits;
    a print whose way up cannot be told is marked ``ambiguous`` and never
    votes for a serial.

    Args:
        image: ``uint8`` ``(H, W, 3)`` BGR.
        detector: finds line quads and classifies upside-down crops.
        recognizer: the primary recognizer.
        second: a second recognizer asked, both ways up, about prints whose
            way up the primary cannot tell (it may read the letters).
        unsure_way_up: a line the up/down classifier turned with a score below
            this, and that then reads as no serial, is read the other way up
            too (one recognition more per such line; worth it when the
            detector already keeps only serial-sized lines, as in live mode).

    Returns:
        Prints with at least one serial-like read (7 or 9 digits, or a 5-6 digit part).
    """
    prints: list[Print] = []
    lines: list[np.ndarray] = []  # every classified line, for the way-up vote
    for box in detector.detect(image):
        quad = upright_line_quad(box)
        w, h = quad_size(quad)
        if h < MIN_PRINT_HEIGHT_PX or not (PRINT_ASPECT[0] <= w / max(h, 1e-6) <= PRINT_ASPECT[1]):
            continue
        crop = rectify(image, quad)
        flipped, score = detector.is_upside_down(crop)
        if flipped:
            quad = rotate_quad_180(quad)
            crop = crop[::-1, ::-1].copy()
        lines.append(quad)
        read = recognizer.recognize(crop)
        parsed = parse_serial_text(read.text)
        if not parsed and score < unsure_way_up:
            # the classifier was unsure and its way up reads as nothing: try the other way first
            quad, crop = rotate_quad_180(quad), crop[::-1, ::-1].copy()
            read = recognizer.recognize(crop)
            parsed = parse_serial_text(read.text)
        if not parsed:
            continue
        # Read the other way up too and keep the way with the better evidence.
        crop2 = crop[::-1, ::-1].copy()
        read2 = recognizer.recognize(crop2)
        parsed2 = parse_serial_text(read2.text)
        e1, e2 = _orientation_evidence(parsed), _orientation_evidence(parsed2)
        if e2 > e1:
            quad, crop, read, parsed = rotate_quad_180(quad), crop2, read2, parsed2
        ambiguous = e1 == e2 and e1 > 0
        ih, iw = image.shape[:2]
        cut = bool((quad.min(axis=0) < FRAME_MARGIN_PX).any() or (quad[:, 0] > iw - 1 - FRAME_MARGIN_PX).any()
                   or (quad[:, 1] > ih - 1 - FRAME_MARGIN_PX).any())
        prints.append(Print(quad=quad, crop=crop, reads=[(read, parsed)], ambiguous=ambiguous, cut=cut))
    for p in prints:
        if p.ambiguous and second is not None:
            _settle_by_second(p, second)
        if p.ambiguous:
            _settle_way_up(p, lines, recognizer)
    return prints


def _settle_by_second(p: Print, second: TextRecognizer) -> None:
    """Ask the second engine both ways up; letters on exactly one side settle it."""
    r1 = second.recognize(p.crop)
    flipped = p.crop[::-1, ::-1].copy()
    r2 = second.recognize(flipped)
    e1 = _orientation_evidence(parse_serial_text(r1.text))
    e2 = _orientation_evidence(parse_serial_text(r2.text))
    if e1 == 2 and e2 < 2:
        p.reads.append((r1, parse_serial_text(r1.text)))
        p.ambiguous = False
    elif e2 == 2 and e1 < 2:
        # The primary's reads were of the other way up: only the second's read stands.
        p.quad = rotate_quad_180(p.quad)
        p.crop = flipped
        p.reads = [(r2, parse_serial_text(r2.text))]
        p.ambiguous = False


def _settle_way_up(p: Print, lines: Sequence[np.ndarray], recognizer: TextRecognizer) -> None:
    """Settle an ambiguous print's way up by the other text lines of its note.

    The orientation classifier's verdicts on the parallel lines nearby (the
    note's other printed words) vote; a clear majority (at least 3 lines and
    3 in 4 of them) decides, otherwise the print stays ambiguous.
    """
    c, u, _, h = line_frame(p.quad)
    same = opposite = 0
    for q in lines:
        cq, uq, _, _ = line_frame(q)
        if np.linalg.norm(cq - c) < 1e-6 or np.linalg.norm(cq - c) > 40 * h:
            continue
        cos = float(u @ uq)
        if cos > 0.9:
            same += 1
        elif cos < -0.9:
            opposite += 1
    n = same + opposite
    if n < 3 or max(same, opposite) < 0.75 * n:
        return
    if opposite > same:
        p.quad = rotate_quad_180(p.quad)
        p.crop = p.crop[::-1, ::-1].copy()
        r = recognizer.recognize(p.crop)
        p.reads = [(r, parse_serial_text(r.text))]
    p.ambiguous = False


def group_prints(prints: Sequence[Print]) -> list[list[Print]]:
    """Stage 4: prints that may belong to one note (similar digits, close together)."""
    parent = list(range(len(prints)))

    def root(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    for i, pi in enumerate(prints):
        for j in range(i + 1, len(prints)):
            pj = prints[j]
            dist = float(np.linalg.norm(pi.center - pj.center)) / max(min(pi.height, pj.height), 1.0)
            if dist > MAX_PRINT_DISTANCE_H:
                continue
            if any(_similar(a.digits, b.digits) for _, a in pi.serials() for _, b in pj.serials()):
                parent[root(j)] = root(i)
    groups: dict[int, list[Print]] = {}
    for i, p in enumerate(prints):
        groups.setdefault(root(i), []).append(p)
    return list(groups.values())


#: Engines trained on Cyrillic. The PP-OCR models read Latin and Chinese and
#: put a look-alike for Я, Л, Ж... ("ВЯ" comes back "BA"), so only letters that
#: a Cyrillic engine read count.
CYRILLIC_ENGINES = frozenset({"tesseract"})


def _letters(prints: Sequence[Print], serial: str) -> str | None:
    """The serial's letters, when a Cyrillic engine read them and another read agrees."""
    reads = [(r.engine, s.letters) for p in prints for r, s in p.serials(SerialKind.SERIAL7)
             if s.digits == serial and s.letters]
    votes = Counter(letters for _, letters in reads)
    if not votes:
        return None
    (best, n), *rest = votes.most_common()
    cyrillic = any(engine in CYRILLIC_ENGINES and letters == best for engine, letters in reads)
    # Letters are informative only: keep them when two reads agree and none disagrees.
    return best if n >= 2 and not rest and cyrillic else None


def _trusted_value(votes: Counter, by_print: dict, by_engine: dict) -> str | None:
    """The value the votes trust, if any (the rule of :func:`decide`, without the layout check)."""
    if not votes:
        return None
    (value, n), *others = votes.most_common()
    runner_up = others[0][1] if others else 0
    independent = len(by_print[value]) >= 2 or len(by_engine[value]) >= 2
    return value if n >= 2 and independent and runner_up * 3 <= n else None


def decide(prints: list[Print], seconds: Sequence[TextRecognizer] = (),
           primary: str = RapidOcrEngine.name) -> NoteRead:
    """Stage 5: cross-check the reads of one note's prints and decide.

    Rules, in order:

    * any 9-digit read → ``out_of_format`` (2017 series; never cut to 7 digits);
    * every print is read by the primary engine; when that does not settle
      the note, each print is also read by the cross-check engines
      ``seconds``, one engine at a time, until it is settled;
    * a value V is **trusted** when at least two reads of V agree from two
      different prints or two different engines, every other 7-digit value has
      at most a third of V's reads, and two prints reading V lie in the
      1997-series layout (:func:`is_ruble_pair`); when the prints are small
      (:data:`SMALL_PRINT_PX`), a second engine must read V too;
    * otherwise ``unreadable``, with the reads kept for the person.

    Args:
        prints: the prints of one note (from :func:`group_prints`).
        seconds: the cross-check recognizers, in the order to ask them
            (empty: the primary alone).
        primary: the primary recognizer's name (its reads are the first of each print).
    """
    nine = [s for p in prints for _, s in p.serials(SerialKind.SERIAL9)]
    quad = _estimate_quad(prints)
    if nine:
        digits = Counter(s.digits for s in nine).most_common(1)[0][0]
        return NoteRead(None, None, 0.0, quad, "out_of_format",
                        f"a 9-digit serial ({digits}, 2017 series) is out of format for the game", prints)

    def tally() -> tuple[Counter, dict[str, set], dict[str, set]]:
        votes: Counter = Counter()
        by_print: dict[str, set] = {}
        by_engine: dict[str, set] = {}
        for i, p in enumerate(prints):
            if p.ambiguous or p.cut:
                continue
            for r, s in p.serials(SerialKind.SERIAL7):
                votes[s.digits] += 1
                by_print.setdefault(s.digits, set()).add(i)
                # A read whose letters were taken for digits (``derived``) backs
                # a value only together with another print.
                engines = by_engine.setdefault(s.digits, set())
                if not s.derived:
                    engines.add(r.engine)
        # A print cut by the frame supports a value when the digits it shows
        # (6 at least) stand in that value exactly.
        for i, p in enumerate(prints):
            if not p.cut or p.ambiguous:
                continue
            for value in list(votes):
                if any(len(s.digits) >= 6 and s.digits in value and i not in by_print[value]
                       for _, s in p.serials(SerialKind.PARTIAL)):
                    votes[value] += 1
                    by_print[value].add(i)
        return votes, by_print, by_engine

    votes, by_print, by_engine = tally()

    def settled() -> bool:
        return len(votes) == 1 and len(next(iter(by_print.values()))) >= 2

    # Small prints (a far camera, a whole-table view) fool one engine the same
    # way on both prints (0 read as 6 twice): they always get a second engine.
    small = min(p.height for p in prints) < SMALL_PRINT_PX

    # Ask the cross-check engines in turn, only while the note is not settled.
    for k, engine in enumerate(seconds):
        if (settled() or _trusted_value(votes, by_print, by_engine) is not None) and not (small and k == 0):
            break
        for p in prints:
            if not p.ambiguous and not any(r.engine == engine.name for r, _ in p.reads):
                r2 = engine.recognize(p.crop)
                p.reads.append((r2, parse_serial_text(r2.text)))
        votes, by_print, by_engine = tally()

    if not votes:
        why = ("its serial reads as digits both ways up and the letters do not tell which"
               if any(p.ambiguous for p in prints) else "no print of this note was read as 7 digits")
        return NoteRead(None, None, 0.0, quad, "unreadable", why, prints)
    (value, n), *others = votes.most_common()
    runner_up = others[0][1] if others else 0
    independent = len(by_print[value]) >= 2 or len(by_engine[value]) >= 2
    if n < 2 or not independent:
        why = (f"the reads disagree ({', '.join(sorted(votes))})" if len(votes) > 1
               else f"only one read ({value}) and nothing to cross-check it with")
        return NoteRead(None, None, 0.0, quad, "unreadable", why, prints)
    if runner_up * 3 > n:
        alts = ", ".join(sorted(votes))
        return NoteRead(None, None, 0.0, quad, "unreadable",
                        f"the reads disagree ({alts})", prints)
    if small and seconds and not (by_engine[value] - {primary}):
        return NoteRead(None, None, 0.0, quad, "unreadable",
                        f"the print is small and no second engine confirms {value}", prints)
    agreeing = [prints[i] for i in sorted(by_print[value])]
    if len(agreeing) >= 2:
        ok, top, left = is_ruble_pair(agreeing[0].quad, agreeing[1].quad)
        if not ok:
            return NoteRead(None, None, 0.0, quad, "out_of_format",
                            "two prints agree but do not lie where a 1997-series ruble note puts them", prints)
        quad = note_quad_from_prints(top, left)
    scores = [r.score for p in prints for r, s in p.serials(SerialKind.SERIAL7) if s.digits == value]
    total = sum(votes.values())
    confidence = float(np.clip(np.mean(scores), 0.0, 1.0)) * (n / total)
    if len(by_print[value]) < 2:
        confidence *= 0.9  # one print, two engines: a little less sure
    return NoteRead(value, _letters(prints, value), confidence, quad, "trusted", "", prints)


def odd_length_note(prints: Sequence[Print]) -> NoteRead | None:
    """A note whose two prints agree on a serial that is not 7 or 9 digits long.

    Two prints in the 1997-series layout reading the same 5-6 or 8+ digits are
    a note with a serial out of format (a misprint, a fake, a foreign note with
    the same layout): it is reported, never padded or cut. Anything less is
    stray digits and gives ``None``.
    """
    for i, a in enumerate(prints):
        for b in prints[i + 1:]:
            common = {s.digits for _, s in a.serials() if not s.derived} & {s.digits for _, s in b.serials()
                                                                          if not s.derived}
            if not common:
                continue
            ok, top, left = is_ruble_pair(a.quad, b.quad)
            if ok and not a.cut and not b.cut:
                digits = max(common, key=len)
                return NoteRead(None, None, 0.0, note_quad_from_prints(top, left), "out_of_format",
                                f"both prints read a {len(digits)}-digit serial ({digits}); only 7 digits play",
                                list(prints))
    return None


def _estimate_quad(prints: Sequence[Print]) -> np.ndarray:
    if len(prints) >= 2:
        ok, top, left = is_ruble_pair(prints[0].quad, prints[1].quad)
        if ok:
            return note_quad_from_prints(top, left)
    return note_quad_from_print(prints[0].quad)


class SerialReader:
    """The whole reader with its engines, ready to call on images.

    Args:
        primary: detector + orientation classifier + primary recognizer
            (default :class:`~.ocr.RapidOcrEngine`, PP-OCRv6).
        seconds: cross-check recognizers asked in turn when the prints alone
            do not settle a note (default: :class:`~.ocr.PpOcrV4Engine`, then
            :class:`~.ocr.TesseractEngine`).
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
        unsure_way_up: see :func:`find_prints` (0: never read a line the other way up
            after the classifier turned it; live mode uses :data:`SURE_WAY_UP`).
    """

    def __init__(self, primary: RapidOcrEngine | None = None,
                 seconds: Sequence[TextRecognizer] | None = None,
                 letters: TextRecognizer | None = None, use_second: bool = True,
                 layout=None, unsure_way_up: float = 0.0) -> None:
        from dealer_assist.vision.ocr import PpOcrV4Engine, TesseractEngine

        self.primary = primary or RapidOcrEngine()
        tesseract = TesseractEngine()
        if seconds is None:
            seconds = (PpOcrV4Engine(), tesseract) if use_second else ()
        self.seconds = tuple(seconds)
        self.letters = letters if letters is not None else (tesseract if use_second else None)
        self.layout = layout
        self.unsure_way_up = unsure_way_up

    def read(self, image: np.ndarray) -> list[NoteRead]:
        """Read every note in ``image`` (``uint8`` ``(H, W, 3)`` BGR).

        Returns the notes in reading order (top to bottom, then left to right
        by the quad's centre). Partial digit runs that never reach 7 digits on
        any print are not reported as notes.
        """
        if self.layout is not None:
            from dealer_assist.vision.fastpath import notes_from_layout, read_by_layout

            fast = read_by_layout(image, self.layout, self.primary, self.seconds[0] if self.seconds else None)
            if fast:
                return _reading_order(notes_from_layout(fast))
        prints = find_prints(image, self.primary, self.primary, self.letters, self.unsure_way_up)
        notes = []
        for group in group_prints(prints):
            if not any(s.kind in (SerialKind.SERIAL7, SerialKind.SERIAL9) for p in group for _, s in p.serials()):
                note = odd_length_note(group)
                if note is None:
                    continue  # stray digits (a date, a code): not a note
            else:
                note = decide(group, self.seconds, self.primary.name)
            # Snap the layout-based estimate to the note's edges (perspective).
            quad, _ = refine_note_quad(image, note.quad, search=0.25)
            note.quad, _ = refine_note_quad(image, quad, search=0.06)
            notes.append(note)
        return _reading_order(notes)


def _reading_order(notes: list[NoteRead]) -> list[NoteRead]:
    """Top to bottom (in 50-px bands), then left to right, by each quad's centre."""
    return sorted(notes, key=lambda n: (round(float(n.quad[:, 1].mean()) / 50), float(n.quad[:, 0].mean())))
