"""Stages 1-3 of the reader: find the text lines shaped like a serial print, turn them upright, read them.

Pure functions of the image, the engines and the thresholds
(:class:`~.params.ReaderParams`); no game rules.
"""

from __future__ import annotations

from typing import Sequence

import cv2
import numpy as np

from dealer_assist.vision.geometry import line_frame, quad_size, rectify, rotate_quad_180, upright_line_quad
from dealer_assist.vision.model import Print, ReadHints
from dealer_assist.vision.ocr import LineRead, TextRecognizer, every_digit_sure
from dealer_assist.vision.params import DEFAULT_PARAMS, ReaderParams
from dealer_assist.vision.serials import SerialKind, SerialText, parse_serial_text

__all__ = ["detect_lines", "find_prints", "model_read", "reread_by_engines"]


def detect_lines(image: np.ndarray, detector, hints: ReadHints | None = None,
                 params: ReaderParams = DEFAULT_PARAMS) -> list[np.ndarray]:
    """Text-line quads ``(4, 2)`` ``float32`` px that may hold a serial print.

    With ``hints.print_quads`` those quads are returned as they are (no text
    detection: a confirm read of a known note). Otherwise ``detector.detect``
    runs (on the image shrunk to ``hints.detect_px_per_mm`` when that is lower
    than ``hints.px_per_mm``); with ``hints.px_per_mm`` only boxes of a serial print's physical size
    are kept (:attr:`~.params.ReaderParams.print_length_mm`,
    :attr:`~.params.ReaderParams.print_height_mm`), so a header or a
    watermark word is not recognised for nothing.
    """
    if hints is not None and hints.print_quads is not None:
        return [np.asarray(q, np.float32).reshape(4, 2) for q in hints.print_quads]
    if hints is None or not hints.px_per_mm:
        return list(detector.detect(image))
    ppm = float(hints.px_per_mm)
    f = float(hints.detect_px_per_mm) / ppm if hints.detect_px_per_mm else 1.0
    if f < 0.95:  # detect in the image shrunk to the detection scale; the quads come back at the image's
        small = cv2.resize(image, (max(1, round(image.shape[1] * f)), max(1, round(image.shape[0] * f))),
                           interpolation=cv2.INTER_AREA)
        fx, fy = small.shape[1] / image.shape[1], small.shape[0] / image.shape[0]
        boxes = [((np.asarray(b, np.float32) + 0.5) / [fx, fy] - 0.5).astype(np.float32) for b in detector.detect(small)]
    else:
        boxes = detector.detect(image)
    out = []
    for box in boxes:
        w, h = quad_size(box)
        length, height = max(w, h) / ppm, min(w, h) / ppm
        if (params.print_length_mm[0] <= length <= params.print_length_mm[1]
                and params.print_height_mm[0] <= height <= params.print_height_mm[1]):
            out.append(box)
    return out


def orientation_evidence(parsed: Sequence[SerialText]) -> int:
    """2: a 7/9-digit run after two Cyrillic letters; 1: such a run alone; 0: none."""
    best = 0
    for st in parsed:
        if st.kind in (SerialKind.SERIAL7, SerialKind.SERIAL9):
            best = max(best, 2 if st.letters else 1)
    return best


def find_prints(image: np.ndarray, detector, recognizer: TextRecognizer,
                second: TextRecognizer | None = None, params: ReaderParams = DEFAULT_PARAMS,
                hints: ReadHints | None = None, model: TextRecognizer | None = None,
                lines: list[np.ndarray] | None = None) -> list[Print]:
    """Every text line shaped and read like a serial print.

    Each serial-like line is read both ways up, because the digits 0, 1, 6, 8
    and 9 still read as digits upside down (``0900099`` turned over reads
    ``6600060``). The way up is taken from the two letters before the digits;
    a print whose way up cannot be told is marked ``ambiguous`` and never
    votes for a serial.

    Args:
        image: ``uint8`` ``(H, W, 3)`` BGR.
        detector: finds line quads and classifies upside-down crops
            (``detect(image)``, ``is_upside_down(crop) -> (bool, score)``).
        recognizer: the primary recognizer.
        second: a second recognizer asked, both ways up, about prints whose
            way up the primary cannot tell (it may read the letters).
        params: thresholds (``print_aspect``, ``min_print_height_px``,
            ``unsure_way_up``, ``frame_margin_px``, the way-up vote,
            ``model_first_min_char_prob``).
        hints: see :func:`detect_lines`.
        model: the project's serial model (:class:`~.recognizer.SerialCtcEngine`), asked first about
            every line, both ways up (:func:`model_read`): a line it reads as a serial print one way,
            sure of every digit, and as nothing the other way is a print read by the model alone
            (:attr:`~.model.Print.model_box` set; ``recognizer`` is not asked). Every other line is
            read as without it. ``None``: no model.
        lines: when given, every classified line's quad is appended to it (for
            :func:`reread_by_engines`).

    Returns:
        Prints with at least one serial-like read (7 or 9 digits, or a 5-6 digit part).
    """
    prints: list[Print] = []
    lines = [] if lines is None else lines  # every classified line, for the way-up vote
    known_way = hints is not None and hints.print_quads is not None and hints.prints_upright
    for box in detect_lines(image, detector, hints, params):
        p = _line_print(image, box, detector, recognizer, params, known_way, lines, model)
        if p is not None:
            prints.append(p)
    _settle_ambiguous(prints, lines, recognizer, second, params, model)
    return prints


def reread_by_engines(image: np.ndarray, prints: Sequence[Print], detector, recognizer: TextRecognizer,
                      second: TextRecognizer | None, params: ReaderParams, hints: ReadHints | None,
                      lines: Sequence[np.ndarray], model: TextRecognizer | None = None) -> list[Print]:
    """The prints of :func:`find_prints` as it finds them without the model: those the model read alone
    (:attr:`~.model.Print.model_box`) are read again from their detector boxes by ``recognizer`` (the
    general path, the model's read dropped); the others are returned as they are. ``lines``: the
    classified lines :func:`find_prints` gave (the way-up vote); ``model``: the serial model, which may
    settle an ambiguous print's way up (:func:`_settle_by_model`)."""
    known_way = hints is not None and hints.print_quads is not None and hints.prints_upright
    out, again = [], []
    for p in prints:
        if p.model_box is None:
            out.append(p)
        elif (q := _line_print(image, p.model_box, detector, recognizer, params, known_way, None, None)) is not None:
            again.append(q)
    _settle_ambiguous(again, lines, recognizer, second, params, model)
    return out + again


def model_read(model: TextRecognizer, crop: np.ndarray, params: ReaderParams = DEFAULT_PARAMS
               ) -> tuple[bool, LineRead, list[SerialText]] | None:
    """The serial model's verdict on a line crop, both ways up: ``(turned, read, parsed)`` when it reads
    one way up (``turned``: the crop turned over) two letters then 7 digits, every digit with probability
    at least ``params.model_first_min_char_prob``, and the other way up no serial-like run at all; else
    ``None`` (unsure, nothing, or digits both ways: the general engines read the line)."""
    tau = params.model_first_min_char_prob
    if tau is None:
        return None
    flipped = crop[::-1, ::-1].copy()
    reads = model.recognize_many([crop, flipped]) if hasattr(model, "recognize_many") else \
        [model.recognize(crop), model.recognize(flipped)]
    parsed = [parse_serial_text(r.text) for r in reads]
    sure = [_sure_serial(r, ss, tau) for r, ss in zip(reads, parsed)]
    for way in (0, 1):
        if sure[way] and not parsed[1 - way]:
            return bool(way), reads[way], parsed[way]
    return None


def _sure_serial(read, parsed: Sequence[SerialText], tau: float) -> bool:
    """``read`` is one 7-digit run after two letters and every digit of the read is at least ``tau``."""
    runs = [s for s in parsed if s.kind is SerialKind.SERIAL7 and s.letter_block and not s.derived]
    if len(parsed) != 1 or len(runs) != 1:
        return False
    return every_digit_sure(read, 7, tau)


def _line_print(image: np.ndarray, box: np.ndarray, detector, recognizer: TextRecognizer, params: ReaderParams,
                known_way: bool, lines: list[np.ndarray] | None, model: TextRecognizer | None) -> Print | None:
    """One detector line read as :func:`find_prints` does (``lines``: the classified quad is appended)."""
    upright = known_way
    quad = np.asarray(box, np.float32).reshape(4, 2) if upright else upright_line_quad(box)
    w, h = quad_size(quad)
    if h < params.min_print_height_px or not (params.print_aspect[0] <= w / max(h, 1e-6) <= params.print_aspect[1]):
        return None
    crop = rectify(image, quad)
    if upright:  # a known print's way up, settled by an earlier read: no classifier
        flipped, score = False, 1.0
    else:
        flipped, score = detector.is_upside_down(crop)
    if flipped:
        quad = rotate_quad_180(quad)
        crop = crop[::-1, ::-1].copy()
    if lines is not None:
        lines.append(quad)
    ih, iw = image.shape[:2]
    m = params.frame_margin_px

    def is_cut(q: np.ndarray) -> bool:
        return bool((q.min(axis=0) < m).any() or (q[:, 0] > iw - 1 - m).any() or (q[:, 1] > ih - 1 - m).any())

    if model is not None and (verdict := model_read(model, crop, params)) is not None:
        turned, model_line, model_parsed = verdict
        model_quad = rotate_quad_180(quad) if turned else quad
        if not is_cut(model_quad):  # a print cut by the frame takes the general path (its partial reads count)
            return Print(quad=model_quad, crop=crop[::-1, ::-1].copy() if turned else crop,
                         reads=[(model_line, model_parsed)],
                         model_box=np.asarray(box, np.float32).reshape(4, 2).copy())
    read = recognizer.recognize(crop)
    parsed = parse_serial_text(read.text)
    if not parsed and (score < params.unsure_way_up or upright):
        # the classifier was unsure (or the known way up reads as nothing: the note was turned)
        # and its way up reads as nothing: try the other way first
        quad, crop = rotate_quad_180(quad), crop[::-1, ::-1].copy()
        read = recognizer.recognize(crop)
        parsed = parse_serial_text(read.text)
        upright = False  # that way up is no longer known: read both ways below
    if not parsed:
        return None
    if upright and orientation_evidence(parsed) == 2:
        # the known way up reads two letters then the digits: the other way is not read
        read2, parsed2, e1, e2 = read, [], 2, 0
    else:
        # Read the other way up too and keep the way with the better evidence.
        crop2 = crop[::-1, ::-1].copy()
        read2 = recognizer.recognize(crop2)
        parsed2 = parse_serial_text(read2.text)
        e1, e2 = orientation_evidence(parsed), orientation_evidence(parsed2)
        if e2 > e1:
            quad, crop, read, parsed = rotate_quad_180(quad), crop2, read2, parsed2
    ambiguous = e1 == e2 and e1 > 0
    other = [(read2, parsed2)] if ambiguous else []
    return Print(quad=quad, crop=crop, reads=[(read, parsed)], ambiguous=ambiguous, cut=is_cut(quad),
                 other_way=other)


def _settle_ambiguous(prints: Sequence[Print], lines: Sequence[np.ndarray], recognizer: TextRecognizer,
                      second: TextRecognizer | None, params: ReaderParams,
                      model: TextRecognizer | None = None) -> None:
    """Settle the way up of the ambiguous ones of ``prints``: the second engine's letters, else the serial
    model's verdict (:func:`_settle_by_model`), else the lines' vote."""
    for p in prints:
        if p.ambiguous and second is not None:
            _settle_by_second(p, second)
        if p.ambiguous and model is not None:
            _settle_by_model(p, model, params)
        if p.ambiguous:
            _settle_way_up(p, lines, recognizer, params)


def _settle_by_model(p: Print, model: TextRecognizer, params: ReaderParams) -> None:
    """Settle an ambiguous print's way up by the serial model, which reads nothing on a print turned over:
    one way read as two letters then 7 digits, every digit at ``params.model_way_up_min_char_prob``, and
    the other way as no serial-like run at all. Only the way up is taken; the model's read does not vote
    (it is asked as a cross-check engine later, like any print's)."""
    tau = params.model_way_up_min_char_prob
    if tau is None:
        return
    flipped = p.crop[::-1, ::-1].copy()
    reads = model.recognize_many([p.crop, flipped]) if hasattr(model, "recognize_many") else \
        [model.recognize(p.crop), model.recognize(flipped)]
    parsed = [parse_serial_text(r.text) for r in reads]
    if _sure_serial(reads[0], parsed[0], tau) and not parsed[1]:
        p.ambiguous, p.other_way = False, []
    elif _sure_serial(reads[1], parsed[1], tau) and not parsed[0]:
        p.quad = rotate_quad_180(p.quad)
        p.crop = flipped
        p.reads = p.other_way
        p.ambiguous, p.other_way = False, []


def _settle_by_second(p: Print, second: TextRecognizer) -> None:
    """Ask the second engine both ways up; letters on exactly one side settle it."""
    r1 = second.recognize(p.crop)
    flipped = p.crop[::-1, ::-1].copy()
    r2 = second.recognize(flipped)
    e1 = orientation_evidence(parse_serial_text(r1.text))
    e2 = orientation_evidence(parse_serial_text(r2.text))
    if e1 == 2 and e2 < 2:
        p.reads.append((r1, parse_serial_text(r1.text)))
        p.ambiguous, p.other_way = False, []
    elif e2 == 2 and e1 < 2:
        # The primary's reads were of the other way up: only the second's read stands.
        p.quad = rotate_quad_180(p.quad)
        p.crop = flipped
        p.reads = [(r2, parse_serial_text(r2.text))]
        p.ambiguous, p.other_way = False, []
    else:  # still ambiguous: keep what the second engine read, both ways
        p.reads.append((r1, parse_serial_text(r1.text)))
        p.other_way.append((r2, parse_serial_text(r2.text)))


def _settle_way_up(p: Print, lines: Sequence[np.ndarray], recognizer: TextRecognizer, params: ReaderParams) -> None:
    """Settle an ambiguous print's way up by the other text lines of its note.

    The orientation classifier's verdicts on the parallel lines nearby (the
    note's other printed words) vote; a clear majority decides, otherwise the
    print stays ambiguous.
    """
    c, u, _, h = line_frame(p.quad)
    same = opposite = 0
    for q in lines:
        cq, uq, _, _ = line_frame(q)
        if np.linalg.norm(cq - c) < 1e-6 or np.linalg.norm(cq - c) > params.way_up_radius_h * h:
            continue
        cos = float(u @ uq)
        if cos > params.way_up_cos:
            same += 1
        elif cos < -params.way_up_cos:
            opposite += 1
    n = same + opposite
    if n < params.way_up_min_lines or max(same, opposite) < params.way_up_majority * n:
        return
    if opposite > same:
        p.quad = rotate_quad_180(p.quad)
        p.crop = p.crop[::-1, ::-1].copy()
        p.reads = p.other_way or [(r, parse_serial_text(r.text)) for r in (recognizer.recognize(p.crop),)]
    p.ambiguous, p.other_way = False, []
