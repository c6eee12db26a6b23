"""Stage 5 of the reader: cross-check the reads of one note's prints and decide what is trusted.

Pure functions of the prints, the cross-check engines and the thresholds
(:class:`~.params.ReaderParams`); no game rules: a trusted serial is just 7 digits.
"""

from __future__ import annotations

from collections import Counter
from typing import Sequence

import numpy as np

from dealer_assist.vision.geometry import note_quad_from_print, note_quad_from_prints
from dealer_assist.vision.grouping import disputed_values, is_ruble_pair, similar_digits
from dealer_assist.vision.model import Evidence, NoteRead, NoteStatus, Print
from dealer_assist.vision.ocr import LineRead, RapidOcrEngine, TextRecognizer, every_digit_sure
from dealer_assist.vision.params import DEFAULT_PARAMS, ReaderParams
from dealer_assist.vision.serials import SerialKind, SerialText, parse_serial_text

__all__ = ["CYRILLIC_ENGINES", "decide", "heard", "model_two_prints", "odd_length_note", "partial_note",
           "estimate_quad", "one_print_sure", "model_and_general_sure"]

#: Engines trained on Cyrillic. The PP-OCR models read Latin and Chinese and
#: put a look-alike for Я, Л, Ж... ("ВЯ" comes back "BA"), so only letters that
#: a Cyrillic engine read count.
CYRILLIC_ENGINES = frozenset({"tesseract"})


def heard(r: LineRead, params: ReaderParams = DEFAULT_PARAMS) -> bool:
    """Whether read ``r`` counts in the decision. Every engine's does, but the project's serial model's
    (``params.model_engines``) only when every digit of it has at least ``params.model_min_char_prob``:
    an unsure read of the model never disagrees, contradicts, votes nor backs (see
    :class:`~.params.ReaderParams`)."""
    if getattr(r, "engine", None) not in params.model_engines:
        return True
    digits = [pr for ch, pr in zip(r.text, r.char_probs or ()) if ch.isdigit()]
    return bool(digits) and len(digits) == sum(ch.isdigit() for ch in r.text) and \
        min(digits) >= params.model_min_char_prob


def _read(engine: TextRecognizer, crop: np.ndarray, params: ReaderParams) -> tuple[LineRead, list[SerialText]]:
    """``engine``'s read of ``crop`` with its serial-like runs, none when it is not :func:`heard`
    (the read itself is kept for the person)."""
    r = engine.recognize(crop)
    return r, (parse_serial_text(r.text) if heard(r, params) else [])


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


def estimate_quad(prints: Sequence[Print], params: ReaderParams = DEFAULT_PARAMS,
                  scale: float | None = None) -> np.ndarray:
    """The note's quad ``(4, 2)`` px estimated from its prints (the first two when they are a ruble pair)."""
    if len(prints) >= 2:
        ok, top, left = is_ruble_pair(prints[0].quad, prints[1].quad, params, scale)
        if ok:
            return note_quad_from_prints(top, left)
    return note_quad_from_print(prints[0].quad, px_per_mm=scale)


def _unreadable(quad: np.ndarray, why: str, prints: list[Print], params: ReaderParams) -> NoteRead:
    return NoteRead(None, None, 0.0, quad, NoteStatus.UNREADABLE, why, prints,
                    disputed=disputed_values(prints, params))


def one_print_sure(p: Print, value: str, params: ReaderParams = DEFAULT_PARAMS) -> int:
    """How many CTC engines read ``value`` on print ``p`` with every digit's probability at least
    ``params.one_print_min_char_prob`` (reads whose letters were taken for digits do not count)."""
    tau = params.one_print_min_char_prob
    sure = set()
    for r, s in p.serials(SerialKind.SERIAL7):
        if s.digits != value or s.derived:
            continue
        probs = r.probs_of(s.start, len(s.digits)) if hasattr(r, "probs_of") else None
        if probs is not None and tau is not None and min(probs) >= tau:
            sure.add(r.engine)
    return len(sure)


def model_and_general_sure(p: Print, value: str, params: ReaderParams = DEFAULT_PARAMS) -> bool:
    """Two engines of different families read ``value`` on print ``p``: the serial model sure of every digit
    (``params.model_first_min_char_prob``, its sureness for reading a print alone) and a PP-OCR engine (an
    engine neither in ``model_engines`` nor in ``dispute_ignores``) with every digit of ``value`` at
    ``params.one_print_model_general_min_char_prob`` or more (reads whose letters were taken for digits do
    not count). ``False`` when either threshold is ``None``."""
    tau_m, tau_g = params.model_first_min_char_prob, params.one_print_model_general_min_char_prob
    if tau_m is None or tau_g is None:
        return False
    model = general = False
    for r, s in p.serials(SerialKind.SERIAL7):
        if s.digits != value or s.derived:
            continue
        engine = getattr(r, "engine", None)
        if engine in params.model_engines:
            model |= every_digit_sure(r, len(value), tau_m)
        elif engine not in params.dispute_ignores:
            probs = r.probs_of(s.start, len(s.digits)) if hasattr(r, "probs_of") else None
            general |= probs is not None and len(probs) == len(value) and min(probs) >= tau_g
    return model and general


def _laid_out_as_ruble(p: Print, value: str, params: ReaderParams) -> bool:
    """A read of print ``p`` shows a ruble's layout -- letters, a gap, then the digits -- for ``value``:
    a read of exactly ``value`` by any engine, or a CTC engine's read of nearly ``value``
    (:func:`~.grouping.similar_digits`: the PP-OCR models, which often close the gap up, show it
    rarely and then reliably; Tesseract shows a gap even on a Polish note's glued letters when it
    misreads a digit there, so its read counts only with the digits right). The serial model's reads
    do not show a gap (``params.model_engines``: it writes one after any two letters it reads), but a
    heard read of it (:func:`heard`) of exactly ``value`` after two Cyrillic letters, each read with at
    least ``params.one_print_model_letters_min_prob``, counts: the model, trained on rubles' prints
    only, reads a print of that look as a ruble's; on the Polish note of the same format it read the
    digits alone."""
    for r, s in p.serials():
        if getattr(r, "engine", None) in params.model_engines:
            if _model_sees_ruble_letters(r, s, value, params):
                return True
            continue
        if s.spaced and (s.digits == value or (getattr(r, "char_probs", None) is not None
                                               and similar_digits(s.digits, value, params))):
            return True
    return False


def _model_sees_ruble_letters(r: LineRead, s: SerialText, value: str, params: ReaderParams) -> bool:
    """``r``, a read of the serial model parsed as ``s``, is ``value`` after exactly two Cyrillic letters
    (and a space), each letter at ``params.one_print_model_letters_min_prob`` or more, every digit
    heard (:func:`heard`)."""
    tau = params.one_print_model_letters_min_prob
    if tau is None or s.digits != value or s.derived or s.letters is None or not heard(r, params):
        return False
    prefix = r.text[:s.start]
    letters = [i for i, ch in enumerate(prefix) if not ch.isspace()]
    probs = r.char_probs or ()
    return (len(letters) == 2 and all(prefix[i].isalpha() for i in letters) and len(probs) == len(r.text)
            and min(probs[i] for i in letters) >= tau)


def _letters_taken_for_digits(prints: Sequence[Print]) -> None:
    """A 9-digit read whose last 7 digits another read of the note gives as a 1997-series serial is
    that serial with its two letters read as digits ("КО 9528710" read "509528710"): it becomes a
    ``derived`` 7-digit read (backing a value only with another print), not a 2017-series note.
    A note whose reads are 9 digits throughout stays out of format."""
    sevens = {s.digits for p in prints for _, s in p.serials(SerialKind.SERIAL7) if not s.derived}
    if not sevens:
        return
    for p in prints:
        for k, (r, ss) in enumerate(p.reads):
            if any(s.kind is SerialKind.SERIAL9 and s.digits[2:] in sevens for s in ss):
                p.reads[k] = (r, [SerialText(s.digits[2:], None, SerialKind.SERIAL7, True, s.start + 2, True)
                                  if s.kind is SerialKind.SERIAL9 and s.digits[2:] in sevens else s for s in ss])


def _digit_names(positions: Sequence[int]) -> str:
    names = {1: "st", 2: "nd", 3: "rd"}
    return ", ".join(f"{i + 1}{names.get(i + 1, 'th')}" for i in positions) + (" digit" if positions else "")


def _weak_digits(prints: Sequence[Print], value: str, params: ReaderParams) -> tuple[list[int], dict[int, list[int]]]:
    """The digits of ``value`` not read surely: ``(unsure, unbacked)``. ``unsure``: positions no CTC read
    of ``prints`` read with ``two_print_min_char_prob``; ``unbacked``: per print (its index in
    ``prints``), positions its CTC reads of ``value`` all read below ``two_print_each_min_char_prob``,
    unless two engines read all of ``value`` on that print. Both empty when no engine gives
    per-character probabilities."""
    tau, tau_each = params.two_print_min_char_prob, params.two_print_each_min_char_prob
    per_print: list[list[float]] = []
    unbacked: dict[int, list[int]] = {}
    for k, p in enumerate(prints):
        best: list[float] | None = None
        engines = {r.engine for r, s in p.serials(SerialKind.SERIAL7) if s.digits == value and not s.derived}
        for r, s in p.serials(SerialKind.SERIAL7):
            probs = r.probs_of(s.start, len(s.digits)) if s.digits == value and hasattr(r, "probs_of") else None
            if probs is not None and len(probs) == len(value):
                best = list(probs) if best is None else [max(a, b) for a, b in zip(best, probs)]
        if best is None:
            continue
        per_print.append(best)
        if tau_each is not None and len(engines) < 2:
            if low := [i for i, pr in enumerate(best) if pr < tau_each]:
                unbacked[k] = low
    unsure = [i for i in range(len(value))
              if tau is not None and per_print and max(pp[i] for pp in per_print) < tau]
    return unsure, unbacked


def _contradicted(p: Print, value: str, positions: Sequence[int], params: ReaderParams) -> list[int]:
    """Of ``positions``, those where a read of print ``p`` shows another digit than ``value``: any 7
    digits in a row of a read (letters dropped) that match ``value`` in all but at most
    ``similar_hamming`` places and differ at that position (an engine reading ``"62744194"`` where
    ``value`` is 2744199 contradicts its 7th digit)."""
    out: set[int] = set()
    for r, _ in p.reads:
        if not heard(r, params):
            continue
        digits = "".join(ch for ch in r.text if ch.isascii() and ch.isdigit())
        for a in range(len(digits) - len(value) + 1):
            window = digits[a:a + len(value)]
            diff = [i for i in range(len(value)) if window[i] != value[i]]
            if 0 < len(diff) <= params.similar_hamming:
                out.update(i for i in diff if i in positions)
    return sorted(out)


def _rivals(prints: Sequence[Print], value: str, params: ReaderParams) -> set[str]:
    """The other values the note's serial prints named: 7-digit reads of whole prints by engines not in
    ``dispute_ignores``; an ambiguous print's when neither of its ways reads ``value``; 6-digit reads of a
    print cut by the image's edge that do not stand in ``value``."""
    out: set[str] = set()
    for p in prints:
        if p.cut:
            out.update(s.digits for r, s in p.serials(SerialKind.PARTIAL)
                       if len(s.digits) >= 6 and s.digits not in value
                       and getattr(r, "engine", None) not in params.dispute_ignores)
            continue
        values = p.values(params.dispute_ignores, both_ways=p.ambiguous)
        if p.ambiguous:
            if values and value not in values:
                out.update(values)
        else:
            out.update(values - {value})
    return out


def _ask(prints: Sequence[Print], engines: Sequence[TextRecognizer], params: ReaderParams) -> None:
    """Have every engine of ``engines`` read each of ``prints`` it has not read yet (the reads are kept)."""
    for p in prints:
        for engine in engines:
            if not any(r.engine == engine.name for r, _ in p.reads):
                p.reads.append(_read(engine, p.crop, params))


def _check_two_prints(agreeing: list[Print], value: str, seconds: Sequence[TextRecognizer], params: ReaderParams,
                      scale: float | None, quad: np.ndarray, prints: list[Print]
                      ) -> tuple[NoteRead | None, np.ndarray]:
    """``TWO_PRINTS`` evidence for ``value``: the two prints in the 1997-series layout, each digit sure on
    one and backed by each (a print unsure of a digit is read by the cross-check engines too).
    Returns (the refusal, or None when the evidence holds; the note's quad from its two prints)."""
    ok, top, left = is_ruble_pair(agreeing[0].quad, agreeing[1].quad, params, scale)
    if not ok:
        return NoteRead(None, None, 0.0, quad, NoteStatus.OUT_OF_FORMAT,
                        "two prints agree but do not lie where a 1997-series ruble note puts them", prints), quad
    quad = note_quad_from_prints(top, left)
    unsure, unbacked = _weak_digits(agreeing, value, params)
    if (unsure or unbacked) and seconds:  # the cross-check engines read the prints too
        _ask(agreeing, seconds, params)
        if params.strict_rivals and (rivals := _rivals(agreeing, value, params)):
            return _unreadable(quad, f"the reads disagree ({', '.join(sorted(rivals | {value}))})", prints,
                               params), quad
        unsure, unbacked = _weak_digits(agreeing, value, params)
    if unsure:
        return _unreadable(quad, f"both prints read {value} but not surely ({_digit_names(unsure)}); it is read "
                                 f"again", prints, params), quad
    # a digit one print is unsure of stands when no engine reads another digit there on that print
    for k, positions in unbacked.items():
        if against := _contradicted(agreeing[k], value, positions, params):
            return _unreadable(quad, f"both prints read {value}, but one is unsure of the {_digit_names(against)} "
                                     f"and another read of it differs there; it is read again", prints, params), quad
        if not seconds:
            return _unreadable(quad, f"both prints read {value} but one is unsure of the {_digit_names(positions)} "
                                     f"and no second engine reads it; it is read again", prints, params), quad
    return None, quad


def _check_one_print(lone: Print, value: str, serial_prints: list[Print], seconds: Sequence[TextRecognizer],
                     params: ReaderParams, quad: np.ndarray, prints: list[Print]) -> NoteRead | None:
    """``ONE_PRINT`` evidence for ``value`` read on ``lone`` alone: every engine reads it (a Cyrillic engine
    often shows the gap after the letters), no rival, ``one_print_engines`` CTC engines sure of every
    digit, and a read laid out as a ruble's. Returns the refusal, or None when the evidence holds."""
    if params.one_print_min_char_prob is None:
        return _unreadable(quad, f"only one print shows the serial ({value}); check it by eye", prints, params)
    _ask([lone], seconds, params)
    if params.strict_rivals and (rivals := _rivals(serial_prints, value, params)):
        return _unreadable(quad, f"the reads disagree ({', '.join(sorted(rivals | {value}))})", prints, params)
    if one_print_sure(lone, value, params) < params.one_print_engines and not model_and_general_sure(lone, value, params):
        return _unreadable(quad, f"only one print shows the serial ({value}) and the engines are not sure of "
                                 "every digit; check it by eye", prints, params)
    if params.one_print_spaced and not _laid_out_as_ruble(lone, value, params):
        return _unreadable(quad, f"only one print shows the serial ({value}) and no read shows it laid out as a "
                                 "ruble's (letters, a gap, 7 digits); check it by eye", prints, params)
    return None


def model_two_prints(prints: Sequence[Print], params: ReaderParams = DEFAULT_PARAMS,
                     scale: float | None = None) -> NoteRead | None:
    """The note trusted on the serial model's reads of its two prints alone, or ``None`` (then the
    general path decides, :func:`decide`, after the general engines read the prints again).

    Trusted (``TWO_PRINTS``) only when the group is exactly two prints, each read by the model alone
    (:attr:`~.model.Print.model_box`: sure of every digit at ``model_first_min_char_prob`` one way up,
    nothing the other way), neither cut, ambiguous nor small (``small_print_px``), both reading the
    same 7 digits after a letter block, and lying where a 1997-series note puts them
    (:func:`~.grouping.is_ruble_pair`). Two prints are two pieces of evidence: different places on the
    note, each read on its own. Anything else -- one print, a third print, the prints disagreeing --
    is not decided here."""
    if len(prints) != 2 or params.model_first_min_char_prob is None:
        return None
    values = []
    for p in prints:
        if p.model_box is None or p.cut or p.ambiguous or p.height < params.small_print_px or len(p.reads) != 1:
            return None
        runs = [s for _, s in p.serials() if s.kind is SerialKind.SERIAL7 and s.letter_block and not s.derived]
        if len(runs) != 1 or len(p.serials()) != 1:
            return None
        values.append(runs[0].digits)
    if values[0] != values[1]:
        return None
    ok, top, left = is_ruble_pair(prints[0].quad, prints[1].quad, params, scale)
    if not ok:
        return None
    value = values[0]
    confidence = float(np.clip(np.mean([r.score for p in prints for r, _ in p.reads]), 0.0, 1.0))
    return NoteRead(value, _letters(prints, value), confidence, note_quad_from_prints(top, left),
                    NoteStatus.TRUSTED, "", list(prints), evidence=Evidence.TWO_PRINTS)


def decide(prints: list[Print], seconds: Sequence[TextRecognizer] = (),
           primary: str = RapidOcrEngine.name, params: ReaderParams = DEFAULT_PARAMS,
           scale: float | None = None) -> NoteRead:
    """Cross-check the reads of one note's prints and decide.

    Rules, in order:

    * any 9-digit read → ``out_of_format`` (2017 series; never cut to 7 digits);
    * only serial prints vote (``require_letter_block``): lines read as two
      letters then the digits, or lying with another as a note's two prints
      do; other numbers on a note never make a serial;
    * every print is read by the primary engine; when that does not settle
      the note, each print is also read by the cross-check engines
      ``seconds``, one engine at a time, until it is settled;
    * the value V with the most reads is **trusted** only on independent evidence
      (:class:`~.model.Evidence`):

      - ``TWO_PRINTS``: two prints read V and lie in the 1997-series layout
        (:func:`~.grouping.is_ruble_pair`); every digit sure on some print
        (``two_print_min_char_prob``) and backed by each print
        (``two_print_each_min_char_prob``, a cross-check engine asked when the
        primary is unsure there); small prints (``small_print_px``) need a
        second engine's read of V too;
      - ``ONE_PRINT``: one print only, read as V by ``one_print_engines`` CTC
        engines each sure of every digit (``one_print_min_char_prob``). Two
        models of one family agreeing is not enough: they make the same mistakes;

    * the project's serial model (``model_engines``) is heard only when sure of
      every digit (:func:`heard`), and V must also be read by a PP-OCR engine;

    * and no read of the note disagrees (``strict_rivals``): any other value
      read on a print of the note, an ambiguous print's included, makes it
      ``unreadable`` -- one note, one decision;
    * otherwise ``unreadable``, with the reads kept for the person.

    Args:
        prints: the prints of one note (from :func:`~.grouping.group_prints`).
        seconds: the cross-check recognizers, in the order to ask them
            (empty: the primary alone).
        primary: the primary recognizer's name (its reads are the first of each print).
        params: the thresholds.
        scale: the image's px/mm when known (a top view; see :func:`~.grouping.ruble_offset`).
    """
    _letters_taken_for_digits(prints)
    nine = [s for p in prints for _, s in p.serials(SerialKind.SERIAL9)]
    quad = estimate_quad(prints, params, scale)
    if nine:
        digits = Counter(s.digits for s in nine).most_common(1)[0][0]
        return NoteRead(None, None, 0.0, quad, NoteStatus.OUT_OF_FORMAT,
                        f"a 9-digit serial ({digits}, 2017 series) is out of format for the game", prints)

    # a print lying with another as a 1997-series note's two prints is a serial print by its place
    placed = {i for i, p in enumerate(prints) for j, q in enumerate(prints)
              if i != j and is_ruble_pair(p.quad, q.quad, params, scale)[0]}

    def voting() -> list[int]:
        return [i for i, p in enumerate(prints) if p.letter_block or i in placed or not params.require_letter_block]

    def tally() -> tuple[Counter, dict[str, set], dict[str, set]]:
        votes: Counter = Counter()
        by_print: dict[str, set] = {}
        by_engine: dict[str, set] = {}
        serial_prints = voting()
        for i in serial_prints:
            p = prints[i]
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
        for i in serial_prints:
            p = prints[i]
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
                p.reads.append(_read(engine, p.crop, params))
        votes, by_print, by_engine = tally()

    serial_prints = [prints[i] for i in voting()]
    if not votes:
        if not serial_prints:
            why = "no line of it reads as a serial print (two letters, then 7 digits)"
        elif any(p.ambiguous for p in serial_prints):
            why = "its serial reads as digits both ways up and the letters do not tell which"
        else:
            why = "no print of this note was read as 7 digits"
        return _unreadable(quad, why, prints, params)
    (value, n), *others = votes.most_common()
    runner_up = others[0][1] if others else 0
    if params.strict_rivals:
        rivals = _rivals(serial_prints, value, params)
        if rivals:
            return _unreadable(quad, f"the reads disagree ({', '.join(sorted(rivals | {value}))})", prints, params)
    independent = len(by_print[value]) >= 2 or len(by_engine[value]) >= 2
    if n < params.min_agreeing_reads or not independent:
        why = (f"the reads disagree ({', '.join(sorted(votes))})" if len(votes) > 1
               else f"only one read ({value}) and nothing to cross-check it with")
        return _unreadable(quad, why, prints, params)
    if runner_up * params.rival_ratio > n:
        return _unreadable(quad, f"the reads disagree ({', '.join(sorted(votes))})", prints, params)
    readers = {r.engine for q in prints for r, s in q.serials(SerialKind.SERIAL7) if s.digits == value}
    if readers & params.model_engines and not (readers - params.model_engines - params.dispute_ignores):
        return _unreadable(quad, f"only the serial model reads {value} surely; a general engine must read it "
                                 "too", prints, params)
    if small and seconds and not (by_engine[value] - {primary}):
        return _unreadable(quad, f"the print is small and no second engine confirms {value}", prints, params)
    agreeing = [prints[i] for i in sorted(by_print[value])]
    if len(agreeing) >= 2:
        evidence = Evidence.TWO_PRINTS
        refused, quad = _check_two_prints(agreeing, value, seconds, params, scale, quad, prints)
    else:
        evidence = Evidence.ONE_PRINT
        refused = _check_one_print(agreeing[0], value, serial_prints, seconds, params, quad, prints)
    if refused is not None:
        return refused
    scores = [r.score for p in prints for r, s in p.serials(SerialKind.SERIAL7) if s.digits == value]
    total = sum(votes.values())
    confidence = float(np.clip(np.mean(scores), 0.0, 1.0)) * (n / total)
    if evidence is Evidence.ONE_PRINT:
        confidence *= params.one_print_confidence  # one print, two engines: a little less sure
    return NoteRead(value, _letters(prints, value), confidence, quad, NoteStatus.TRUSTED, "", prints,
                    evidence=evidence)


def odd_length_note(prints: Sequence[Print], params: ReaderParams = DEFAULT_PARAMS,
                    scale: float | None = None) -> NoteRead | None:
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
            ok, top, left = is_ruble_pair(a.quad, b.quad, params, scale)
            if ok and not a.cut and not b.cut:
                digits = max(common, key=len)
                return NoteRead(None, None, 0.0, note_quad_from_prints(top, left), NoteStatus.OUT_OF_FORMAT,
                                f"both prints read a serial of {len(digits)} digits ({digits}); only 7 digits play",
                                list(prints))
    return None


def partial_note(prints: Sequence[Print], params: ReaderParams = DEFAULT_PARAMS,
                 scale: float | None = None) -> NoteRead | None:
    """A note of which only part of a serial is visible: 5-6 digits after a serial's letter block
    (the rest covered), or on a print cut by the image's edge. It is a note -- a photo that shows it
    has one more note than its readable ones -- but an unreadable one. ``None`` for other short
    digit runs (an amount, a code), which are not serial prints."""
    parts = [(p, s) for p in prints for _, s in p.serials(SerialKind.PARTIAL) if s.letter_block or p.cut]
    if not parts:
        return None
    digits = max((s.digits for _, s in parts), key=len)
    where = "cut by the photo's edge" if any(p.cut for p, _ in parts) else "partly covered"
    return NoteRead(None, None, 0.0, estimate_quad([p for p, _ in parts], params, scale), NoteStatus.UNREADABLE,
                    f"only part of its serial is visible ({digits}…): the note is {where}", list(prints))
