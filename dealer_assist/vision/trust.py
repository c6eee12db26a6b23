"""Stage 5 of the reader: cross-check the reads of one note's prints and decide what is trusted.

Pure functions of the prints, the cross-check engines and the thresholds
(:class:`~.params.ReaderParams`); no game rules: a trusted serial is just 7 digits.
"""

from __future__ import annotations

from collections import Counter
from typing import Sequence

import numpy as np

from dealer_assist.vision.geometry import note_quad_from_print, note_quad_from_prints
from dealer_assist.vision.grouping import disputed_values, is_ruble_pair
from dealer_assist.vision.model import NoteRead, NoteStatus, Print
from dealer_assist.vision.ocr import RapidOcrEngine, TextRecognizer
from dealer_assist.vision.params import DEFAULT_PARAMS, ReaderParams
from dealer_assist.vision.serials import SerialKind, parse_serial_text

__all__ = ["CYRILLIC_ENGINES", "decide", "odd_length_note", "estimate_quad"]

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


def _trusted_value(votes: Counter, by_print: dict, by_engine: dict, params: ReaderParams) -> str | None:
    """The value the votes trust, if any (the rule of :func:`decide`, without the layout check)."""
    if not votes:
        return None
    (value, n), *others = votes.most_common()
    runner_up = others[0][1] if others else 0
    independent = len(by_print[value]) >= 2 or len(by_engine[value]) >= 2
    return value if n >= params.min_agreeing_reads and independent and runner_up * params.rival_ratio <= n else None


def estimate_quad(prints: Sequence[Print], params: ReaderParams = DEFAULT_PARAMS) -> np.ndarray:
    """The note's quad ``(4, 2)`` px estimated from its prints (the first two when they are a ruble pair)."""
    if len(prints) >= 2:
        ok, top, left = is_ruble_pair(prints[0].quad, prints[1].quad, params)
        if ok:
            return note_quad_from_prints(top, left)
    return note_quad_from_print(prints[0].quad)


def _unreadable(quad: np.ndarray, why: str, prints: list[Print], params: ReaderParams) -> NoteRead:
    return NoteRead(None, None, 0.0, quad, NoteStatus.UNREADABLE, why, prints,
                    disputed=disputed_values(prints, params))


def decide(prints: list[Print], seconds: Sequence[TextRecognizer] = (),
           primary: str = RapidOcrEngine.name, params: ReaderParams = DEFAULT_PARAMS) -> NoteRead:
    """Cross-check the reads of one note's prints and decide.

    Rules, in order:

    * any 9-digit read → ``out_of_format`` (2017 series; never cut to 7 digits);
    * every print is read by the primary engine; when that does not settle
      the note, each print is also read by the cross-check engines
      ``seconds``, one engine at a time, until it is settled;
    * a value V is **trusted** when at least ``min_agreeing_reads`` reads of V
      agree from two different prints or two different engines, every other
      7-digit value has at most ``1/rival_ratio`` of V's reads, and two prints
      reading V lie in the 1997-series layout (:func:`~.grouping.is_ruble_pair`);
      when the prints are small (``small_print_px``), a second engine must read V too;
    * otherwise ``unreadable``, with the reads kept for the person.

    Args:
        prints: the prints of one note (from :func:`~.grouping.group_prints`).
        seconds: the cross-check recognizers, in the order to ask them
            (empty: the primary alone).
        primary: the primary recognizer's name (its reads are the first of each print).
        params: the thresholds.
    """
    nine = [s for p in prints for _, s in p.serials(SerialKind.SERIAL9)]
    quad = estimate_quad(prints, params)
    if nine:
        digits = Counter(s.digits for s in nine).most_common(1)[0][0]
        return NoteRead(None, None, 0.0, quad, NoteStatus.OUT_OF_FORMAT,
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
    small = min(p.height for p in prints) < params.small_print_px

    # Ask the cross-check engines in turn, only while the note is not settled.
    for k, engine in enumerate(seconds):
        if (settled() or _trusted_value(votes, by_print, by_engine, params) is not None) and not (small and k == 0):
            break
        for p in prints:
            if not p.ambiguous and not any(r.engine == engine.name for r, _ in p.reads):
                r2 = engine.recognize(p.crop)
                p.reads.append((r2, parse_serial_text(r2.text)))
        votes, by_print, by_engine = tally()

    if not votes:
        why = ("its serial reads as digits both ways up and the letters do not tell which"
               if any(p.ambiguous for p in prints) else "no print of this note was read as 7 digits")
        return _unreadable(quad, why, prints, params)
    (value, n), *others = votes.most_common()
    runner_up = others[0][1] if others else 0
    independent = len(by_print[value]) >= 2 or len(by_engine[value]) >= 2
    if n < params.min_agreeing_reads or not independent:
        why = (f"the reads disagree ({', '.join(sorted(votes))})" if len(votes) > 1
               else f"only one read ({value}) and nothing to cross-check it with")
        return _unreadable(quad, why, prints, params)
    if runner_up * params.rival_ratio > n:
        return _unreadable(quad, f"the reads disagree ({', '.join(sorted(votes))})", prints, params)
    if small and seconds and not (by_engine[value] - {primary}):
        return _unreadable(quad, f"the print is small and no second engine confirms {value}", prints, params)
    agreeing = [prints[i] for i in sorted(by_print[value])]
    if len(agreeing) >= 2:
        ok, top, left = is_ruble_pair(agreeing[0].quad, agreeing[1].quad, params)
        if not ok:
            return NoteRead(None, None, 0.0, quad, NoteStatus.OUT_OF_FORMAT,
                            "two prints agree but do not lie where a 1997-series ruble note puts them", prints)
        quad = note_quad_from_prints(top, left)
    scores = [r.score for p in prints for r, s in p.serials(SerialKind.SERIAL7) if s.digits == value]
    total = sum(votes.values())
    confidence = float(np.clip(np.mean(scores), 0.0, 1.0)) * (n / total)
    if len(by_print[value]) < 2:
        confidence *= params.one_print_confidence  # one print, two engines: a little less sure
    return NoteRead(value, _letters(prints, value), confidence, quad, NoteStatus.TRUSTED, "", prints)


def odd_length_note(prints: Sequence[Print], params: ReaderParams = DEFAULT_PARAMS) -> NoteRead | None:
    """A note whose two prints agree on a serial that is not 7 or 9 digits long.

    Two prints in the 1997-series layout reading the same 5-6 or 8+ digits are
    a note with a serial out of format (a misprint, a fake, a foreign note with
    the same layout): it is reported, never padded or cut. Anything less is
    stray digits and gives ``None``.
    """
    for i, a in enumerate(prints):
        for b in prints[i + 1:]:
            common = ({s.digits for _, s in a.serials() if not s.derived}
                      & {s.digits for _, s in b.serials() if not s.derived})
            if not common:
                continue
            ok, top, left = is_ruble_pair(a.quad, b.quad, params)
            if ok and not a.cut and not b.cut:
                digits = max(common, key=len)
                return NoteRead(None, None, 0.0, note_quad_from_prints(top, left), NoteStatus.OUT_OF_FORMAT,
                                f"both prints read a {len(digits)}-digit serial ({digits}); only 7 digits play",
                                list(prints))
    return None
