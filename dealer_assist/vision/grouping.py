"""Stage 4 of the reader and the note's geometry: which prints are one note, and where that note lies.

* :func:`group_prints`: prints that may be one note's (similar digits, close together).
* :func:`is_ruble_pair`: two prints lying as a 1997-series note's two prints do.
* :func:`place_note`: the note's quad from its prints (snapped to the note's
  edges in a photo; at a known scale in a top view).
* :func:`join_split_notes`: one note, one decision -- prints read apart that
  lie as one note's prints are joined, and a print without a serial lying on
  a read note is that note's; when they name another serial the note is disputed.
* :func:`disputed_values`: the 7-digit values an unreadable note's reads named.

Pure functions of quads (px) and reads; no game rules.
"""

from __future__ import annotations

from typing import Sequence

import cv2
import numpy as np

from dealer_assist.vision.geometry import (
    NOTE_SIZE_MM,
    PRINT_LENGTH_MM,
    note_quad_from_print,
    note_quad_from_prints,
    print_pair_offset,
    quad_size,
    refine_note_quad,
    rotate_quad_180,
)
from dealer_assist.vision.model import NoteRead, NoteStatus, Print, ReadHints
from dealer_assist.vision.params import DEFAULT_PARAMS, ReaderParams
from dealer_assist.vision.serials import SerialKind

__all__ = ["ruble_offset", "is_ruble_pair", "ruble_pair", "similar_digits", "group_prints", "disputed_values", "place_note",
           "join_split_notes", "settle_notes"]


#: The middle of the left print's measured offset window (du, dv), for choosing among pairs.
_RUBLE_TYPICAL = (-4.1, 1.0)


def ruble_offset(a: np.ndarray, b: np.ndarray, params: ReaderParams = DEFAULT_PARAMS,
                 scale: float | None = None) -> tuple[np.ndarray, np.ndarray, float] | None:
    """``(top_right, left, misfit)`` when two upright print quads ``(4, 2)`` px lie as a 1997-series
    note's two prints do, else ``None``; ``misfit`` is the offset's distance (print lengths) from
    the middle of the measured window, for choosing among candidate pairs.

    Offsets are in units of a print's length: the detector box's own length in a photo, or, when
    the image's scale is known (``scale`` px/mm, a top view), a serial print's physical length
    (:data:`~.geometry.PRINT_LENGTH_MM`), which does not depend on how long a box the detector
    drew round the print (a box taking in a neighbouring mark made a real pair fail); there the window is
    a real note's (``ruble_du_known_scale``, ``ruble_dv_known_scale``), not a photo's."""
    for first, second in ((a, b), (b, a)):
        du, dv, cos = print_pair_offset(first, second)
        w, h = quad_size(first)
        if scale:
            w = PRINT_LENGTH_MM * scale
        du, dv = du * h / w, dv * h / w
        du_win, dv_win = ((params.ruble_du_known_scale, params.ruble_dv_known_scale) if scale
                          else (params.ruble_du, params.ruble_dv))
        if (cos > params.ruble_min_cos and du_win[0] <= du <= du_win[1]
                and dv_win[0] <= dv <= dv_win[1] and -du + 2 * dv >= params.ruble_min_spread):
            return first, second, float(np.hypot(du - _RUBLE_TYPICAL[0], dv - _RUBLE_TYPICAL[1]))
    return None


def is_ruble_pair(a: np.ndarray, b: np.ndarray, params: ReaderParams = DEFAULT_PARAMS,
                  scale: float | None = None) -> tuple[bool, np.ndarray | None, np.ndarray | None]:
    """Whether two upright print quads ``(4, 2)`` px lie as a 1997-series note's two prints do.

    The left-field print lies left of and below the top-right print, in the
    same reading direction (the window: :class:`~.params.ReaderParams`
    ``ruble_*``; ``scale``: see :func:`ruble_offset`). Returns ``(ok, top_right_quad, left_quad)``.
    """
    fit = ruble_offset(a, b, params, scale)
    return (True, fit[0], fit[1]) if fit is not None else (False, None, None)


def ruble_pair(quads: Sequence[np.ndarray], params: ReaderParams = DEFAULT_PARAMS,
               scale: float | None = None) -> tuple[np.ndarray, np.ndarray] | None:
    """``(top_right, left)`` when two of ``quads`` lie as a 1997-series note's prints do, else ``None``."""
    for i in range(len(quads)):
        for j in range(i + 1, len(quads)):
            ok, top, left = is_ruble_pair(quads[i], quads[j], params, scale)
            if ok:
                return top, left
    return None


def _hamming(a: str, b: str) -> int:
    return sum(x != y for x, y in zip(a, b)) + abs(len(a) - len(b))


def similar_digits(a: str, b: str, params: ReaderParams = DEFAULT_PARAMS) -> bool:
    """Digit strings that could be two reads of one serial (one may be partial)."""
    if len(a) == len(b):
        return _hamming(a, b) <= params.similar_hamming
    short, long_ = (a, b) if len(a) < len(b) else (b, a)
    return any(_hamming(short, long_[i:i + len(short)]) <= params.similar_partial_hamming
               for i in range(len(long_) - len(short) + 1))


def group_prints(prints: Sequence[Print], params: ReaderParams = DEFAULT_PARAMS,
                 scale: float | None = None) -> list[list[Print]]:
    """Stage 4: the prints of each note. One note, one decision.

    1. **Geometry first**: two prints lying as one 1997-series note's two
       prints do (:func:`ruble_offset`) are that note's, whatever they read
       (when they disagree the note is unreadable, never two notes). Each print
       has at most one partner: pairs whose digits are similar are taken
       first, then the best fitting.
       An ambiguous print (its digits read both ways up) is settled by its
       partner: only one way up lies as a note's print does.
    2. The other prints join a note, or each other, when their digits are
       similar (:func:`similar_digits`) and they lie within
       ``max_print_distance_h`` print heights (prints whose geometry was not
       recognised: perspective, a crumpled note).

    Two notes with consecutive serials, each seen by both prints, stay two notes.
    """
    def similar(pi: Print, pj: Print) -> bool:
        return any(similar_digits(a.digits, b.digits, params) for _, a in pi.serials() for _, b in pj.serials())

    def ways(p: Print) -> list[tuple[np.ndarray, bool]]:
        return [(p.quad, False)] + ([(rotate_quad_180(p.quad), True)] if p.ambiguous else [])

    candidates = []
    for i in range(len(prints)):
        for j in range(i + 1, len(prints)):
            fits = [(fi, fj, fit) for qi, fi in ways(prints[i]) for qj, fj in ways(prints[j])
                    if (fit := ruble_offset(qi, qj, params, scale)) is not None]
            if len(fits) > 1:  # two ambiguous prints: the layout fits either way; keep them as they are
                fits = [f for f in fits if not f[0] and not f[1]]
                settles = False
            else:
                settles = True
            if fits:
                fi, fj, fit = fits[0]
                candidates.append((not similar(prints[i], prints[j]), fit[2], i, j, fi, fj, settles))
    parent = list(range(len(prints)))
    outline: dict[int, np.ndarray] = {}  # a paired print's note outline, px
    for _, _, i, j, fi, fj, settles in sorted(candidates, key=lambda c: c[:4]):
        if i not in outline and j not in outline:
            for k, flip in ((i, fi), (j, fj)):
                if settles and prints[k].ambiguous:
                    _settle_by_layout(prints[k], flip)
            top, left, _ = ruble_offset(prints[i].quad, prints[j].quad, params, scale)
            outline[i] = outline[j] = note_quad_from_prints(top, left)
            parent[j] = i

    def root(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    for i, pi in enumerate(prints):
        for j in range(i + 1, len(prints)):
            if i in outline and j in outline:
                continue  # two notes each seen by both prints
            pj = prints[j]
            if i in outline or j in outline:
                # a third print joins a note only when it lies on the note (a second box round one print)
                k, other = (i, pj) if i in outline else (j, pi)
                if not _on_note(other.center, outline[k], params.on_note_slack_mm / NOTE_SIZE_MM[1]
                                * quad_size(outline[k])[1]):
                    continue
            dist = float(np.linalg.norm(pi.center - pj.center)) / max(min(pi.height, pj.height), 1.0)
            if dist <= params.max_print_distance_h and similar(pi, pj):
                parent[root(j)] = root(i)
    groups: dict[int, list[Print]] = {}
    for i, p in enumerate(prints):
        groups.setdefault(root(i), []).append(p)
    return list(groups.values())


def _settle_by_layout(p: Print, turn: bool) -> None:
    """An ambiguous print's way up, settled by where it lies from its note's other print: ``turn``
    when only its crop turned over lies as a 1997-series note's print does."""
    if turn:
        p.quad = rotate_quad_180(p.quad)
        p.crop = p.crop[::-1, ::-1].copy()
        p.reads, p.other_way = p.other_way, p.reads
    p.ambiguous, p.other_way = False, []


def disputed_values(prints: Sequence[Print], params: ReaderParams = DEFAULT_PARAMS) -> tuple[str, ...]:
    """The 7-digit values the reads of ``prints`` named (sorted), for a note left unreadable.

    Only prints whose way up is known count (an ambiguous print's digits may
    be upside down), and not the engines of ``params.dispute_ignores``.
    """
    values = set()
    for p in prints:
        if p.ambiguous:
            continue
        values.update(s.digits for r, s in p.serials(SerialKind.SERIAL7)
                      if getattr(r, "engine", None) not in params.dispute_ignores)
    return tuple(sorted(values))


def place_note(note: NoteRead, image: np.ndarray, hints: ReadHints | None = None,
               params: ReaderParams = DEFAULT_PARAMS) -> NoteRead:
    """Set ``note.quad`` (and ``note.outside``) from its prints; returns the note.

    * a note outlined by the fast path keeps its outline;
    * in a photo (``hints.refine_quad``, the default) the estimate from the
      prints is snapped to the note's edges (:func:`~.geometry.refine_note_quad`);
    * otherwise two prints in the 1997-series layout place the note; one print
      at a known scale (``hints.px_per_mm``) is taken as the top-right or the
      left print, whichever puts the note within the image (``outside_slack_mm``),
      nearest the image's centre. When neither does, the note is marked
      ``outside`` -- unless the hints name its prints (a confirm read of a
      known note: the print is that note's, wherever the image ends).

    Args:
        note: a decided note; image: ``uint8`` ``(H, W, 3)`` BGR.
    """
    if note.outlined or not note.prints:
        return note
    if hints is None or hints.refine_quad:
        quad, _ = refine_note_quad(image, note.quad, search=0.25)
        note.quad, _ = refine_note_quad(image, quad, search=0.06)
        return note
    quads = [np.asarray(p.quad, np.float64) for p in note.prints]
    pair = ruble_pair(quads, params, hints.px_per_mm)
    if pair is not None:
        note.quad = note_quad_from_prints(*pair)
        return note
    if not hints.px_per_mm:
        return note
    ppm = float(hints.px_per_mm)
    h, w = image.shape[:2]
    slack = params.outside_slack_mm * ppm
    both = [note_quad_from_print(quads[0], which, ppm, dtype=np.float64) for which in ("top_right", "left")]
    fits = [q for q in both if (q >= -slack).all() and (q[:, 0] <= w + slack).all() and (q[:, 1] <= h + slack).all()]
    if not fits and hints.print_quads is not None:
        fits = both
    if not fits:
        note.quad, note.outside = both[0].astype(np.float32), True
        return note
    centre = np.array([w / 2.0, h / 2.0])
    note.quad = min(fits, key=lambda q: float(np.linalg.norm(q.mean(axis=0) - centre))).astype(np.float32)
    return note


def _on_note(point: np.ndarray, quad: np.ndarray, slack_px: float) -> bool:
    poly = np.asarray(quad, np.float32).reshape(-1, 1, 2)
    return cv2.pointPolygonTest(poly, (float(point[0]), float(point[1])), True) >= -slack_px


def _named(note: NoteRead) -> set[str]:
    return set(note.disputed) | ({note.serial} if note.serial is not None else set())


def _join_pair(a: NoteRead, b: NoteRead, pair: tuple[np.ndarray, np.ndarray]) -> NoteRead:
    """One note of two one-print notes lying as one note's two prints."""
    keep, other = (a, b) if a.serial is not None or b.serial is None else (b, a)
    quad = note_quad_from_prints(*pair)
    prints = [a.prints[0], b.prints[0]]
    values = _named(a) | _named(b)
    if keep.serial is not None and values <= {keep.serial}:
        return NoteRead(keep.serial, keep.letters, keep.confidence, quad, keep.status, keep.reason, prints)
    if keep.serial is not None:  # the other print read another serial: the note's two prints disagree
        return NoteRead(None, None, 0.0, quad, NoteStatus.UNREADABLE,
                        f"the two prints read differently ({', '.join(sorted(values))})", prints,
                        disputed=tuple(sorted(values)))
    return NoteRead(None, None, 0.0, quad, keep.status, keep.reason, prints, disputed=tuple(sorted(values)))


def join_split_notes(notes: Sequence[NoteRead], px_per_mm: float,
                     params: ReaderParams = DEFAULT_PARAMS) -> list[NoteRead]:
    """One note, one decision, in a view of known scale (``px_per_mm``).

    Two one-print notes whose prints lie as one note's two prints (the reader
    grouped them apart) are one note: it keeps the serial when only one of
    them has it and the other named no other value; when they name different
    values it is unreadable and ``disputed`` by them. (Two notes that both
    have a serial stay two: a disagreement the caller weighs across frames.)

    A print that merely lies on another note's outline is not joined to it:
    notes fanned over each other show one note's print on top of the other
    note (joining them made two read notes one disputed note).

    Notes left ``outside``, and unread notes with a print cut by the image's
    edge, take no part (the caller leaves them to a read that sees them whole).
    """
    fixed = [n for n in notes if n.outside or (n.serial is None and n.cut)]
    out = [n for n in notes if not any(n is f for f in fixed)]
    merged = True
    while merged:
        merged = False
        for i in range(len(out)):
            for j in range(i + 1, len(out)):
                a, b = out[i], out[j]
                if len(a.prints) != 1 or len(b.prints) != 1 or (a.serial is not None and b.serial is not None):
                    continue
                pair = ruble_pair([a.prints[0].quad, b.prints[0].quad], params, px_per_mm)
                if pair is None:
                    continue
                out = [o for k, o in enumerate(out) if k not in (i, j)] + [_join_pair(a, b, pair)]
                merged = True
                break
            if merged:
                break
    return out + fixed


def settle_notes(notes: Sequence[NoteRead], image: np.ndarray, hints: ReadHints | None = None,
                 params: ReaderParams = DEFAULT_PARAMS) -> list[NoteRead]:
    """The reader's last stage over its decided notes: :func:`place_note` each, then, in a view of known
    scale (``hints.px_per_mm``), :func:`join_split_notes`."""
    placed = [place_note(n, image, hints, params) for n in notes]
    if hints is not None and hints.px_per_mm:
        placed = join_split_notes(placed, hints.px_per_mm, params)
    return placed
