"""How small a serial print may be for the reader: the readability floor and the verdicts built on it.

The one place that says where the reader stops resolving digits. Everything
that warns about resolution (``calibrate table/show/check``, ``live``'s
start-up and header, ``read``'s and ``score``'s reasons) asks this module.

Pure functions of scales and quads; no images, no engines.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from decimal import ROUND_FLOOR, Decimal
from enum import StrEnum
from typing import Sequence

import numpy as np

from dealer_assist.vision.geometry import PRINT_LENGTH_MM, quad_size

__all__ = ["SERIAL_DIGIT_HEIGHT_MM", "READABLE_PX_PER_MM", "MIN_DIGIT_PX", "Readability", "ScaleVerdict",
           "digit_px", "shown_beside", "px_per_mm_figure", "scale_verdict", "too_small_reason", "print_digit_px", "explain_small"]

#: Height of a serial print's digits on a 1997-series ruble note, mm (the
#: digits of the 24-mm print of two letters and seven digits are ~3 mm tall).
SERIAL_DIGIT_HEIGHT_MM = 3.0

#: The readability floor: the camera's scale over the table (px per table mm,
#: along the worse of the table's two axes) below which the live reader stops
#: trusting serials. Measured by ``benchmarks/bench_readability.py`` (run
#: ``.venv/bin/python benchmarks/bench_readability.py``): the clean real notes
#: of ``../shared/real_photos`` rendered flat on felt at 1.6-5.0 px/mm (blur
#: 0.6 px, sensor noise, JPEG 80), upright and upside down, read by live
#: mode's reader on the top view live mode makes of them. At 2.4 px/mm and
#: above at least ~80 % of the notes are trusted either way up; at 2.0 about
#: a third; at 1.6 almost none (never a wrong serial at any scale).
READABLE_PX_PER_MM = 2.4


def digit_px(px_per_mm: float) -> float:
    """Height in camera pixels of a serial digit seen at ``px_per_mm``."""
    return float(px_per_mm) * SERIAL_DIGIT_HEIGHT_MM


#: Digit height (px) at the floor: the reader needs digits at least this tall (~7 px).
MIN_DIGIT_PX = digit_px(READABLE_PX_PER_MM)


def shown_beside(value: float, limit: float, decimals: int = 1) -> tuple[float, int]:
    """``value`` as it is to be printed beside a verdict against ``limit``, and the decimals to print it with.

    A figure printed never contradicts its verdict: a value below the limit whose
    rounded figure would read as the limit or above it (2.37 px/mm at one decimal is
    "2.4", the floor, yet too small) gets one more decimal, rounded down ("2.37"),
    until it reads below the limit's figure at those decimals. Any other value is
    returned as it is with ``decimals``. Format with ``f"{v:.{d}f}"`` or
    :func:`dealer_assist.i18n.number`; print the limit beside it with the same
    decimals when both are shown.

    >>> shown_beside(2.37, 2.4), shown_beside(2.43, 2.4), shown_beside(1.46, 2.4)
    ((2.37, 2), (2.43, 1), (1.46, 1))
    >>> shown_beside(7.11, 7.2, 0), shown_beside(6.2, 7.2, 0)
    ((7.1, 1), (6.2, 0))
    """
    v, lim = float(value), float(limit)
    shown, d = v, int(decimals)
    while v < lim and d < 6 and float(f"{shown:.{d}f}") >= float(f"{lim:.{d}f}"):
        d += 1
        shown = float(Decimal(v).quantize(Decimal(1).scaleb(-d), rounding=ROUND_FLOOR))
    return shown, d


def px_per_mm_figure(value: float, lang: str = "en") -> str:
    """A scale (px/mm) as printed beside the floor's verdict: one decimal, more when one would contradict the
    verdict (:func:`shown_beside`; 2.37 is "2.37", ru "2,37"), in ``lang``'s number format."""
    from dealer_assist.i18n import number

    shown, d = shown_beside(value, READABLE_PX_PER_MM)
    return number(shown, lang, d)


def _factor_text(factor: float) -> str:
    """A factor above 1 at one decimal, or more when one would read "1.0" (2.4 / 2.37: "1.01")."""
    d = 1
    while d < 4 and float(f"{factor:.{d}f}") <= 1.0:
        d += 1
    return f"{factor:.{d}f}"


class Readability(StrEnum):
    """A place's verdict against the floor."""

    READABLE = "readable"
    TOO_SMALL = "too small"


@dataclass(frozen=True)
class ScaleVerdict:
    """How a camera sees one place of the table.

    Attributes:
        across_px_per_mm: px per mm along the table's width (x) at the worst point.
        deep_px_per_mm: px per mm along the table's depth (y) at the worst point.
        verdict: :class:`Readability` against :data:`READABLE_PX_PER_MM`.
        advice: one sentence saying what to change ("" when readable).
    """

    across_px_per_mm: float
    deep_px_per_mm: float
    verdict: Readability
    advice: str

    @property
    def px_per_mm(self) -> float:
        """The worse of the two axes."""
        return min(self.across_px_per_mm, self.deep_px_per_mm)

    @property
    def readable(self) -> bool:
        return self.verdict is Readability.READABLE


#: A place whose two axes differ by more than this ratio is seen at a slant (a tilted camera squashes depth).
SLANT_RATIO = 0.75


def scale_verdict(across_px_per_mm: float, deep_px_per_mm: float) -> ScaleVerdict:
    """The verdict for a place seen at these scales (px per table mm along x and y; the worst point's).

    Below the floor the advice names the fix: a tilted camera (depth, y, seen
    much coarser than width, x, which alone is fine) is put more overhead; otherwise more pixels per mm are needed, by
    a factor it says (a higher camera mode, the camera lower/closer, or a
    smaller mat).
    """
    a, d = float(across_px_per_mm), float(deep_px_per_mm)
    worst = min(a, d)
    if worst >= READABLE_PX_PER_MM:
        return ScaleVerdict(a, d, Readability.READABLE, "")
    factor = READABLE_PX_PER_MM / max(worst, 1e-6)
    slant = d < a and d / max(a, 1e-6) < SLANT_RATIO
    if slant and a >= READABLE_PX_PER_MM:
        fix = ("the camera looks at it at a slant (the table's depth is squashed): put the camera more "
               "overhead, or higher above the far side")
    else:
        fix = (f"it needs {_factor_text(factor)}x the pixels per mm: use a higher camera resolution, "
               f"bring the camera closer or zoom in, or use a smaller mat")
    digits, n = shown_beside(digit_px(worst), MIN_DIGIT_PX, 0)
    return ScaleVerdict(a, d, Readability.TOO_SMALL,
                        f"digits ~{digits:.{n}f} px, the reader needs {MIN_DIGIT_PX:.{n}f} px "
                        f"({READABLE_PX_PER_MM:g} px/mm): {fix}.")


def too_small_reason(digit_height_px: float) -> str | None:
    """The reason for an unread note whose digits are below the floor, or None when they are not."""
    if digit_height_px >= MIN_DIGIT_PX:
        return None
    digits, n = shown_beside(digit_height_px, MIN_DIGIT_PX, 0)
    return f"digits too small ({digits:.{n}f} px; the reader needs {MIN_DIGIT_PX:.{n}f})"


def print_digit_px(print_quads: Sequence[np.ndarray]) -> float | None:
    """Estimated digit height (px) of a note in a photo of unknown scale, from its serial prints'
    quads (``(4, 2)`` px): the longest print's length over :data:`~.geometry.PRINT_LENGTH_MM` gives
    the photo's scale at the note. None without prints."""
    lengths = [quad_size(np.asarray(q, np.float64))[0] for q in print_quads]
    if not lengths:
        return None
    return digit_px(max(lengths) / PRINT_LENGTH_MM)


def explain_small(note, digit_height_px: float | None):
    """``note`` (a :class:`~.model.NoteRead`), with the reason "digits too small (N px; the reader needs M)"
    when it is unreadable and its digits (``digit_height_px``, as the camera saw them) are below the floor;
    otherwise the note as it is."""
    from dealer_assist.vision.model import NoteStatus

    if note.status != NoteStatus.UNREADABLE or digit_height_px is None:
        return note
    reason = too_small_reason(digit_height_px)
    return note if reason is None else dataclasses.replace(note, reason=reason)
