"""Where things are printed on a specimen note: the layout as data.

The specimen notes follow the 1997-series ruble layout described in
``../shared/real_photos/README.md`` (measured by eye on those photos): the
serial is printed twice, both horizontal,

* ``top_right``: top right, just under the "БИЛЕТ БАНКА ..." header line, in a
  narrow serif font with even digit heights;
* ``left``: in the light field at the left edge, at about mid-height, in a font
  whose digits grow taller from left to right.

On the 2010-style denominations (500, 1000, 5000) the top-right print is red
and the left print dark; on 10, 50 and 100 the colours are swapped.

All boxes are normalised ``(x0, y0, x1, y1)`` in 0..1 of the note's width and
height, on the *upright* note (header at the top, the left field on the left).
The reader (:mod:`dealer_assist.vision`) may use the same facts to look for the
prints once a note is rectified.
"""

from __future__ import annotations

from dataclasses import dataclass

#: Rendered size of an upright note, (width, height) in pixels.
NOTE_SIZE_PX: tuple[int, int] = (1150, 500)
#: Physical size described for every specimen note, (width, height) in millimetres
#: (the 1997-series 500..5000 size; aspect 2.28).
NOTE_SIZE_MM: tuple[float, float] = (157.0, 69.0)

#: Denominations the renderer knows ("denomination" only names a colour scheme).
DENOMINATIONS: tuple[int, ...] = (10, 50, 100, 500, 1000, 5000)

#: Letters used in serials (upper case; Ё, Й, Ъ, Ы are not used on notes).
SERIAL_LETTERS: str = "АБВГДЕЖЗИКЛМНОПРСТУФХЦЧШЩЭЮЯЬ"

Box = tuple[float, float, float, float]


@dataclass(frozen=True)
class NoteLayout:
    """Layout of one denomination (all boxes normalised, upright note).

    ``top_right_box`` and ``left_box`` are the nominal areas of the two serial
    prints (the rendered ink lies inside them); ``top_right_colour`` and
    ``left_colour`` are ``"red"`` or ``"dark"``.
    """

    denomination: int
    top_right_box: Box
    left_box: Box
    top_right_colour: str
    left_colour: str
    header_box: Box
    numeral_box: Box
    words_box: Box
    left_field: Box
    specimen_box: Box
    #: paper tint and main ink of the artwork, BGR uint8 triples
    paper_bgr: tuple[int, int, int]
    ink_bgr: tuple[int, int, int]
    accent_bgr: tuple[int, int, int]


_PALETTE: dict[int, tuple[tuple[int, int, int], tuple[int, int, int], tuple[int, int, int]]] = {
    # paper (light), main ink, accent -- all BGR
    10: ((196, 222, 226), (40, 75, 95), (70, 120, 150)),
    50: ((222, 214, 204), (95, 75, 55), (140, 120, 100)),
    100: ((205, 210, 228), (70, 55, 110), (110, 105, 170)),
    500: ((226, 206, 214), (110, 55, 95), (160, 110, 150)),
    1000: ((214, 228, 208), (85, 105, 45), (140, 170, 90)),
    5000: ((196, 212, 238), (45, 85, 190), (90, 140, 230)),
}


def _layout(denomination: int) -> NoteLayout:
    paper, ink, accent = _PALETTE[denomination]
    swapped = denomination in (10, 50, 100)
    # the older small notes print the left serial a little higher than the 2010 ones
    left_y = (0.42, 0.53) if swapped else (0.58, 0.70)
    return NoteLayout(
        denomination=denomination,
        top_right_box=(0.755, 0.145, 0.965, 0.245),
        left_box=(0.020, left_y[0], 0.255, left_y[1]),
        top_right_colour="dark" if swapped else "red",
        left_colour="red" if swapped else "dark",
        header_box=(0.50, 0.045, 0.93, 0.125),
        numeral_box=(0.22, 0.05, 0.44, 0.22),
        words_box=(0.47, 0.76, 0.94, 0.90),
        left_field=(0.0, 0.0, 0.215, 1.0),
        specimen_box=(0.28, 0.30, 0.74, 0.74),
        paper_bgr=paper,
        ink_bgr=ink,
        accent_bgr=accent,
    )


#: Layout of every denomination.
LAYOUTS: dict[int, NoteLayout] = {d: _layout(d) for d in DENOMINATIONS}

#: Union of each print's nominal box over all denominations: where a reader of a
#: rectified, upright note should look for that print.
SERIAL_SEARCH_BOXES: dict[str, Box] = {
    key: (
        min(getattr(lay, f"{key}_box")[0] for lay in LAYOUTS.values()),
        min(getattr(lay, f"{key}_box")[1] for lay in LAYOUTS.values()),
        max(getattr(lay, f"{key}_box")[2] for lay in LAYOUTS.values()),
        max(getattr(lay, f"{key}_box")[3] for lay in LAYOUTS.values()),
    )
    for key in ("top_right", "left")
}

#: Names of the two serial prints, in the order truth files list them.
PRINT_NAMES: tuple[str, str] = ("top_right", "left")


def layout_for(denomination: int) -> NoteLayout:
    """Layout of ``denomination``; ``ValueError`` if it is not in :data:`DENOMINATIONS`."""
    try:
        return LAYOUTS[denomination]
    except KeyError:
        raise ValueError(f"unknown denomination {denomination}; known: {DENOMINATIONS}") from None


def box_to_px(box: Box, size_px: tuple[int, int] = NOTE_SIZE_PX) -> tuple[int, int, int, int]:
    """Normalised box -> integer pixel box ``(x0, y0, x1, y1)`` on a note of ``size_px`` (w, h)."""
    w, h = size_px
    return (round(box[0] * w), round(box[1] * h), round(box[2] * w), round(box[3] * h))
