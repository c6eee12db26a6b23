"""The seeded renderer of specimen notes, table scenes and dealt-hand sequences.

Everything here is deterministic given a seed (``numpy.random.default_rng``)
and works on numpy images (uint8 BGR, OpenCV's convention). The notes are
clearly marked specimens ("ОБРАЗЕЦ / SPECIMEN", no emblem) modelled only in
the facts a serial reader uses: where and how the serial is printed twice.

Main entry points:

* :func:`render_note` -- an upright note, with its print boxes (:mod:`.note`);
* :func:`render_note_photo` -- a phone photo of one note (:mod:`.photos`);
* :func:`render_hand_photo` -- a photo of 1..3 notes, readable (:mod:`.photos`);
* :func:`render_scene` -- a whole table at one street (:mod:`.scene`);
* :func:`render_hand_sequence` / :func:`write_hand_sequence` -- a dealt hand, frame by frame;
* :data:`LAYOUTS`, :data:`SERIAL_SEARCH_BOXES` -- where the prints are (:mod:`.layout`);
* ``python -m dealer_assist.synth.regenerate`` -- rebuild ``sample_images/``.
"""

from dealer_assist.synth.compositor import legible
from dealer_assist.synth.layout import (
    DENOMINATIONS,
    LAYOUTS,
    NOTE_SIZE_MM,
    NOTE_SIZE_PX,
    PRINT_NAMES,
    SERIAL_SEARCH_BOXES,
    layout_for,
)
from dealer_assist.synth.note import NoteSpec, RenderedNote, random_spec, render_note, render_note_back
from dealer_assist.synth.photos import render_hand_photo, render_note_photo
from dealer_assist.synth.presets import PRESETS, get_preset
from dealer_assist.synth.scene import STAGES, render_scene
from dealer_assist.synth.sequence import render_hand_sequence, write_hand_sequence
from dealer_assist.synth.truth import load_truth, save_truth

__all__ = [
    "DENOMINATIONS",
    "LAYOUTS",
    "NOTE_SIZE_MM",
    "NOTE_SIZE_PX",
    "PRESETS",
    "PRINT_NAMES",
    "SERIAL_SEARCH_BOXES",
    "STAGES",
    "NoteSpec",
    "RenderedNote",
    "get_preset",
    "layout_for",
    "legible",
    "load_truth",
    "random_spec",
    "render_hand_photo",
    "render_hand_sequence",
    "render_note",
    "render_note_back",
    "render_note_photo",
    "render_scene",
    "save_truth",
    "write_hand_sequence",
]
