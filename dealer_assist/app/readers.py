"""The one reader factory: a :class:`~dealer_assist.vision.reader.SerialReader` per set-up, cached per process.

Building a reader loads ONNX models (about a second); a process that reads
many photos asks :func:`get_reader` each time and gets the same reader back.
Readers with the same detector settings share one primary engine (detector,
orientation classifier and PP-OCRv6 recognizer). Worker processes of a pool
each build their own on first use.

``score``, ``read`` and ``calibrate`` use it; live mode can build its reader
with :func:`get_reader` too::

    get_reader(layout, params=replace(DEFAULT_PARAMS, unsure_way_up=SURE_WAY_UP),
               det_max_side=1536, use_second=use_second)
"""

from __future__ import annotations

from typing import Any

from dealer_assist.fileio import dumps_json
from dealer_assist.vision.ocr import DET_MAX_SIDE as _OCR_DET_MAX_SIDE
from dealer_assist.vision.params import DEFAULT_PARAMS, ReaderParams
from dealer_assist.vision.reader import SerialReader

__all__ = ["get_reader", "table_reader", "clear_readers", "serial_model_warning", "DET_MAX_SIDE"]

#: The detector's longest side for photos: :data:`dealer_assist.vision.ocr.DET_MAX_SIDE`, the one place it is set.
DET_MAX_SIDE = _OCR_DET_MAX_SIDE

_READERS: dict[tuple, SerialReader] = {}
_PRIMARIES: dict[tuple[int, int], Any] = {}


def _layout_key(layout) -> str | None:
    """Equal layouts (also after a trip to a worker process) give one key."""
    if layout is None:
        return None
    return dumps_json(layout.to_json(), sort_keys=True)


def get_reader(layout=None, *, params: ReaderParams = DEFAULT_PARAMS, det_max_side: int = DET_MAX_SIDE,
               threads: int = 1, use_second: bool = True) -> SerialReader:
    """This process's reader for a set-up, built on first use.

    Args:
        layout: the deck's note layout (a calibration profile's ``notes``), or
            None. With one, the reader tries the layout's fast path first.
        params: the reader's thresholds.
        det_max_side: longest side (px) the text detector sees an image at.
        threads: onnxruntime threads of the primary engine.
        use_second: False for the primary engine alone (no cross-check engines).

    Returns:
        The same :class:`SerialReader` for the same arguments in this process.
    """
    key = (_layout_key(layout), params, det_max_side, threads, use_second)
    reader = _READERS.get(key)
    if reader is None:
        from dealer_assist.vision.ocr import RapidOcrEngine

        primary = _PRIMARIES.get((threads, det_max_side))
        if primary is None:
            primary = _PRIMARIES[(threads, det_max_side)] = RapidOcrEngine(threads=threads, det_max_side=det_max_side)
        reader = _READERS[key] = SerialReader(primary=primary, use_second=use_second, layout=layout, params=params)
    return reader


def table_reader() -> SerialReader:
    """The reader of whole-table top views: its detector sees the whole view at full size."""
    from dealer_assist.calibration.tabletop import TOP_VIEW_MAX_SIDE

    return get_reader(det_max_side=TOP_VIEW_MAX_SIDE)


def clear_readers() -> None:
    """Forget every cached reader and engine of this process (tests)."""
    _READERS.clear()
    _PRIMARIES.clear()


def serial_model_warning() -> str | None:
    """The one warning ``read``, ``score`` and ``live`` give (before any photo or frame is read) when the
    project's serial model (``models/serial_ctc.onnx`` and its card) cannot be used, or None when it can.

    The reader then leaves the model out (:class:`~dealer_assist.vision.reader.SerialReader`): it reads as
    it did before the model was added, every serial still cross-checked by PP-OCRv4 and Tesseract, so no
    note is trusted on the damaged file's word; fewer notes may be trusted.
    """
    from dealer_assist.vision.recognizer import SerialCtcEngine

    problem = SerialCtcEngine().problem()
    if problem is None:
        return None
    return (f"warning: {problem} Until then the reader does without it (every serial is still cross-checked by "
            "the other engines; fewer notes may be trusted).")
