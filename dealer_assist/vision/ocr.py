"""OCR engines behind one small interface.

Two roles:

* :class:`TextDetector` finds text lines in a whole photo and returns their quads.
* :class:`TextRecognizer` reads one rectified, upright text-line crop.

Implementations:

* :class:`RapidOcrEngine` (RapidOCR 3.x over onnxruntime; its PP-OCRv6 models ship
  inside the wheel and run offline) is a detector, an up/down orientation
  classifier and a recognizer.
* :class:`PpOcrV4Engine` (the PP-OCRv4 recognizer shipped inside the
  ``rapidocr-onnxruntime`` 1.x wheel) is a second, differently trained
  recognizer: on the 83 serial crops of the real photos it read 77 exactly and
  no wrong 7-digit serial, so it is the first cross-check.
* :class:`TesseractEngine` (pytesseract over Debian's ``tesseract-ocr``) is a
  recognizer only: ``-l rus --oem 1 --psm 7`` on the best-contrast channel,
  scaled to ~48 px high and padded.

Engines are created lazily and are not thread-safe; create one per process.
"""

from __future__ import annotations

import logging
import os
import shutil
from dataclasses import dataclass
from typing import Protocol

import cv2
import numpy as np


def _quiet_rapidocr() -> None:
    """Both RapidOCR packages log to a logger named "RapidOCR" (one at DEBUG,
    with its own handlers); a photo without text is not worth a warning line
    on the croupier's terminal, so only errors get through."""
    logger = logging.getLogger("RapidOCR")
    logger.setLevel(logging.ERROR)
    for handler in logger.handlers:
        handler.setLevel(logging.ERROR)


class EngineError(RuntimeError):
    """An OCR engine is missing or broken; the message is one plain sentence."""


def _engine_class(module: str, name: str):
    """Import an engine class lazily; a missing package is one plain EngineError."""
    import importlib

    try:
        return getattr(importlib.import_module(module), name)
    except ImportError:  # pragma: no cover - depends on the install
        raise EngineError(
            f"the OCR package '{module}' is not installed: run `make setup`."
        ) from None


@dataclass(frozen=True)
class LineRead:
    """One engine's reading of one text-line crop.

    Attributes:
        text: the raw text as the engine returned it.
        score: the engine's own confidence in 0..1.
        engine: the engine's name (``"rapidocr"``, ``"ppocr-v4"`` or ``"tesseract"``).
        char_probs: for a CTC recognizer, each character of ``text``'s
            probability (0..1, the highest over the CTC frames it was read
            from), aligned with ``text``; ``None`` when the engine gives none.
    """

    text: str
    score: float
    engine: str
    char_probs: tuple[float, ...] | None = None

    def probs_of(self, start: int, length: int) -> tuple[float, ...] | None:
        """The probabilities of ``text[start:start + length]``, or ``None`` when not known."""
        if self.char_probs is None or start < 0 or start + length > len(self.char_probs):
            return None
        return self.char_probs[start:start + length]


def ctc_decode(probs: np.ndarray, charset: list[str]) -> tuple[str, tuple[float, ...]]:
    """Greedy CTC decoding with per-character probabilities.

    Args:
        probs: ``float32`` ``(T, C)`` softmax outputs of a CTC recognizer (class 0 is the blank).
        charset: the ``C`` class labels.

    Returns:
        ``(text, char_probs)``: the argmax path with repeats merged and blanks
        dropped (the text RapidOCR itself returns), and for each character the
        highest probability of its class over the frames of its run.
    """
    classes, peaks = ctc_peaks(probs)
    return "".join(charset[k] for k in classes), tuple(float(probs[t, k]) for k, t in zip(classes, peaks))


def every_digit_sure(read, n: int, tau: float) -> bool:
    """``read`` (a :class:`LineRead` with ``char_probs``) has exactly ``n`` digits, each read with
    probability ``tau`` or more: the serial model's "sure of every digit" (``ReaderParams``'
    ``model_first_min_char_prob``, ``model_way_up_min_char_prob``), one definition for every rule that asks it."""
    probs = [pr for ch, pr in zip(read.text, read.char_probs or ()) if ch.isdigit()]
    return n > 0 and len(probs) == sum(ch.isdigit() for ch in read.text) == n and min(probs) >= tau


def ctc_peaks(probs: np.ndarray) -> tuple[list[int], list[int]]:
    """The greedy CTC path of ``probs`` (``(T, C)``, class 0 the blank): each character's class, and the
    frame of its run where that class is likeliest (the first such frame on a tie)."""
    idx = probs.argmax(axis=1)
    classes: list[int] = []
    peaks: list[int] = []
    prev = -1
    for t, k in enumerate(idx):
        if k != 0 and k != prev:
            classes.append(int(k))
            peaks.append(t)
        elif k != 0 and probs[t, k] > probs[peaks[-1], k]:
            peaks[-1] = t
        prev = k
    return classes, peaks


def _recognize_ctc(rec, crop: np.ndarray, name: str, first_output: bool) -> LineRead:
    """Run a RapidOCR ``TextRecognizer`` (``rec``) on one crop and decode it with per-character probabilities."""
    _, img_h, img_w = rec.rec_image_shape[:3]
    ratio = max(img_w / img_h, crop.shape[1] / max(crop.shape[0], 1))
    batch = rec.resize_norm_img(crop, ratio)[np.newaxis].astype(np.float32)
    preds = rec.session(batch)
    preds = np.asarray(preds[0] if first_output else preds)
    text, probs = ctc_decode(preds[0], rec.postprocess_op.character)
    if not text:
        return LineRead("", 0.0, name, ())
    return LineRead(text, float(np.mean(probs)), name, probs)


class TextDetector(Protocol):
    """Finds text lines in a photo."""

    name: str

    def detect(self, image: np.ndarray) -> list[np.ndarray]:
        """Return text-line quads.

        Args:
            image: ``uint8`` ``(H, W, 3)`` BGR.

        Returns:
            A list of ``float32`` arrays of shape ``(4, 2)``: image pixels,
            clockwise from the top-left corner *of the box in the image*.
        """
        ...


class TextRecognizer(Protocol):
    """Reads one upright text-line crop."""

    name: str

    def recognize(self, crop: np.ndarray) -> LineRead:
        """Read ``crop`` (``uint8`` ``(h, w, 3)`` BGR, text horizontal, upright)."""
        ...


#: The text detector's longest side for photos (px, a multiple of 32): RapidOCR resizes a photo so that
#: its longer side is at most this before finding text lines. 960 keeps 7-px digits of a 640-px photo and
#: halves the time of RapidOCR's default on 1280x720. 640 was measured and not taken: it saves a third of
#: ``read``'s CPU time but loses notes of turned photos (``benchmarks/bench_degrade.py --jobs 1 --seed 0
#: --limit 200 --det-max-side 640``: 123 right of 164 against 127 at 960, rotate 23 against 27, 0 wrong at
#: both; ``benchmarks/bench_reader.py --det-max-side 640``: 43 of 44 exact at both, 0 wrong, 0 invented,
#: median 271 against 440 ms CPU a photo).
DET_MAX_SIDE = 960


class RapidOcrEngine:
    """RapidOCR (PP-OCR ONNX models) as detector, orientation classifier and recognizer.

    Args:
        threads: onnxruntime intra-op threads (1 = one core, the benchmark setting).
        det_max_side: the detector resizes the photo so that its longer side is
            at most this many pixels (multiple of 32; default :data:`DET_MAX_SIDE`).

    Raises:
        EngineError: on first use, when ``rapidocr``/``onnxruntime`` are missing.
    """

    name = "rapidocr"

    def __init__(self, threads: int = 1, det_max_side: int = DET_MAX_SIDE) -> None:
        self.threads = threads
        self.det_max_side = det_max_side
        self._engine = None

    def _get(self):
        if self._engine is None:
            RapidOCR = _engine_class("rapidocr", "RapidOCR")
            self._engine = RapidOCR(params={
                "Global.log_level": "error",
                "EngineConfig.onnxruntime.intra_op_num_threads": self.threads,
                "EngineConfig.onnxruntime.inter_op_num_threads": 1,
                "Det.limit_side_len": self.det_max_side,
                "Det.limit_type": "max",
            })
            _quiet_rapidocr()
        return self._engine

    def detect(self, image: np.ndarray) -> list[np.ndarray]:
        out = self._get()(image, use_det=True, use_cls=False, use_rec=False)
        if out.boxes is None:
            return []
        return [np.asarray(b, dtype=np.float32).reshape(4, 2) for b in out.boxes]

    def is_upside_down(self, crop: np.ndarray) -> tuple[bool, float]:
        """Whether a horizontal text crop reads upside down, with the classifier's score."""
        out = self._get()(crop, use_det=False, use_cls=True, use_rec=False)
        label, score = out.cls_res[0]
        return label == "180", float(score)

    def recognize(self, crop: np.ndarray) -> LineRead:
        """Read ``crop`` (``uint8`` ``(h, w, 3)`` BGR, text horizontal, upright), with per-character probabilities."""
        return _recognize_ctc(self._get()._load_rec_model(), crop, self.name, first_output=False)


class PpOcrV4Engine:
    """The PP-OCRv4 text recognizer of ``rapidocr-onnxruntime`` 1.x (recognizer only).

    Args:
        threads: onnxruntime intra-op threads.

    Raises:
        EngineError: on first use, when ``rapidocr-onnxruntime`` is missing.
    """

    name = "ppocr-v4"

    def __init__(self, threads: int = 1) -> None:
        self.threads = threads
        self._engine = None

    def _get(self):
        if self._engine is None:
            RapidOCRv1 = _engine_class("rapidocr_onnxruntime", "RapidOCR")
            self._engine = RapidOCRv1(intra_op_num_threads=self.threads, inter_op_num_threads=1)
            _quiet_rapidocr()
        return self._engine

    def recognize(self, crop: np.ndarray) -> LineRead:
        """Read ``crop`` (``uint8`` ``(h, w, 3)`` BGR, text horizontal, upright), with per-character probabilities."""
        return _recognize_ctc(self._get().text_rec, crop, self.name, first_output=True)


def best_contrast_gray(crop: np.ndarray) -> np.ndarray:
    """The colour channel (B, G, R or luminance) with the widest 5-95 percentile spread.

    Red serial prints vanish in the red channel and stand out in green/blue;
    dark prints are best in luminance. Returns ``uint8`` ``(h, w)``.
    """
    if crop.ndim == 2:
        return crop
    candidates = [crop[:, :, i] for i in range(3)] + [cv2.cvtColor(crop, cv2.COLOR_BGR2GRAY)]
    spreads = [float(np.percentile(c, 95) - np.percentile(c, 5)) for c in candidates]
    return candidates[int(np.argmax(spreads))]


class TesseractEngine:
    """Tesseract LSTM over one serial line (``-l rus --oem 1 --psm 7``).

    Raises:
        EngineError: on first use, when the ``tesseract`` binary or its
            Russian model is missing (``apt-get install tesseract-ocr tesseract-ocr-rus``).
    """

    name = "tesseract"
    target_height = 48

    def __init__(self, lang: str = "rus") -> None:
        self.lang = lang
        self._checked = False

    def _check(self) -> None:
        if self._checked:
            return
        if shutil.which("tesseract") is None:
            raise EngineError(
                "Tesseract is not installed: run `make setup` (apt-get install tesseract-ocr tesseract-ocr-rus)."
            )
        import pytesseract

        if self.lang not in pytesseract.get_languages(config=""):
            raise EngineError(
                f"Tesseract has no '{self.lang}' model: apt-get install tesseract-ocr-{self.lang}."
            )
        os.environ.setdefault("OMP_THREAD_LIMIT", "1")
        self._checked = True

    def recognize(self, crop: np.ndarray) -> LineRead:
        self._check()
        import pytesseract

        gray = best_contrast_gray(crop)
        h, w = gray.shape[:2]
        scale = self.target_height / max(h, 1)
        gray = cv2.resize(gray, (max(1, round(w * scale)), self.target_height), interpolation=cv2.INTER_CUBIC)
        # Dark text on light paper is what tesseract expects.
        if np.median(gray) < 110:
            gray = 255 - gray
        pad = self.target_height // 3
        gray = cv2.copyMakeBorder(gray, pad, pad, pad, pad, cv2.BORDER_REPLICATE)
        data = pytesseract.image_to_data(
            gray, lang=self.lang, config="--oem 1 --psm 7", output_type=pytesseract.Output.DICT
        )
        words = [(t, float(c)) for t, c in zip(data["text"], data["conf"]) if t.strip()]
        if not words:
            return LineRead("", 0.0, self.name)
        text = " ".join(t for t, _ in words)
        conf = min(max(c, 0.0) for _, c in words) / 100.0
        return LineRead(text, conf, self.name)
