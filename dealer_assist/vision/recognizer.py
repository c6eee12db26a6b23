"""The project's own serial-print recognizer: a small CTC model over onnxruntime.

A serial print crop (rectified, upright, ``uint8`` BGR) is turned into one
``32 x 128`` grey image (:func:`preprocess`), the model gives ``T = 32``
frames of class scores over :data:`CHARSET` (class 0 is the CTC blank), and
greedy CTC decoding gives the text with one probability per character
(:func:`~.ocr.ctc_decode`), after dividing the scores by the temperature the
model card measured on the validation crops (so that a reported 0.99 is right
about 99 % of the time on held-out real prints; see ``models/README.md``).

The model is trained (``python -m training.train``, the ``[train]`` extra) on
serial prints rendered by :mod:`dealer_assist.synth` and on crops of the real
photos cut at run time; it reads ``"АК 1234567"`` (two Cyrillic capitals, a
space, the digits) and nothing (an empty text) on a print turned upside down
or mirrored and on other text.

The reader reads every print line with it first, both ways up (:func:`~.prints.model_read`): a note
whose two prints it reads alone, sure of every digit (``ReaderParams.model_first_min_char_prob``) and
alike, is trusted without the general engines (:func:`~.trust.model_two_prints`). Otherwise it is a
cross-check engine, after PP-OCRv4 (:class:`~.reader.SerialReader`), heard only when it is sure of
every digit (:func:`~.trust.heard`, ``ReaderParams.model_min_char_prob``); a value it reads there
needs a PP-OCR engine's read too. :mod:`benchmarks.bench_recognizer` measures it on held-out prints,
:mod:`benchmarks.bench_model_pairs` its pair rule on the degradation benchmark's images.
"""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np

from dealer_assist.fileio import dumps_json, load_json
from dealer_assist.vision.ocr import EngineError, LineRead, best_contrast_gray, ctc_decode

__all__ = ["CHARSET", "INPUT_H", "INPUT_W", "MODEL_PATH", "CARD_PATH", "SERIAL_CTC", "TEMPERATURE_RANGE",
           "RESTORE_HINT", "preprocess", "SerialCtcEngine"]

#: Class labels; index 0 is the CTC blank (``""``). Digits, the space, the serial letters.
CHARSET: tuple[str, ...] = ("",) + tuple("0123456789 ") + tuple("АБВГДЕЖЗИКЛМНОПРСТУФХЦЧШЩЭЮЯЬ")
#: Model input, px.
INPUT_H, INPUT_W = 32, 128
#: The committed model and its card's machine-readable figures (temperature, split, results).
MODEL_PATH = Path(__file__).resolve().parents[2] / "models" / "serial_ctc.onnx"
CARD_PATH = MODEL_PATH.with_suffix(".json")
#: This engine's name in reads.
SERIAL_CTC = "serial-ctc"
#: The temperatures a card may give (a sanity bound, not a measurement: the committed card measured 1.25 on
#: the validation crops). Outside it the card is not this model's: a temperature near 0 makes every digit
#: "sure" (the model would be heard on every read), a negative one turns its probabilities upside down.
TEMPERATURE_RANGE = (0.25, 4.0)
#: How to get the committed model and card back, said with every refusal of them.
RESTORE_HINT = ("restore the model and its card with `git checkout -- models/serial_ctc.onnx models/serial_ctc.json` "
                "(or retrain: `python -m training.train`, see models/README.md)")


def preprocess(crop: np.ndarray) -> np.ndarray:
    """``float32`` ``(1, INPUT_H, INPUT_W)`` model input from a crop (``uint8`` ``(h, w[, 3])``).

    The best-contrast channel (:func:`~.ocr.best_contrast_gray`: a red print
    vanishes in red), scaled to ``INPUT_H`` rows keeping the aspect ratio
    (squeezed to ``INPUT_W`` when longer, padded on the right with the crop's
    median grey when shorter), stretched so that its 2nd..98th percentiles
    span 0..1, minus 0.5.
    """
    grey = best_contrast_gray(crop) if crop.ndim == 3 else crop
    h, w = grey.shape[:2]
    tw = int(min(INPUT_W, max(8, round(w * INPUT_H / max(h, 1)))))
    small = cv2.resize(grey, (tw, INPUT_H), interpolation=cv2.INTER_AREA if h > INPUT_H else cv2.INTER_LINEAR)
    small = small.astype(np.float32)
    lo, hi = np.percentile(small, (2, 98))
    small = (small - lo) / max(float(hi - lo), 8.0)
    out = np.full((INPUT_H, INPUT_W), float(np.median(small)), np.float32)
    out[:, :tw] = small
    return (np.clip(out, -0.5, 1.5) - 0.5)[None]


def _softmax(x: np.ndarray) -> np.ndarray:
    e = np.exp(x - x.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)


class SerialCtcEngine:
    """The serial-print recognizer (:class:`~.ocr.TextRecognizer`) over onnxruntime.

    Args:
        model: the ONNX file (default :data:`MODEL_PATH`).
        temperature: divides the scores before the softmax; default: the
            card's ``temperature`` (``models/serial_ctc.json``), measured on
            the validation crops.
        threads: onnxruntime intra-op threads.

    Raises:
        EngineError: on first use, one sentence saying how to restore them, when the model file is
            missing, empty, no ONNX model, or one whose input is not ``(N, 1, INPUT_H, INPUT_W)`` and output
            not ``(N, T, len(CHARSET))``; or when its card is missing, no JSON object, or its
            ``temperature`` no number in :data:`TEMPERATURE_RANGE` (the card calibrates the model's
            confidence, which decides when it is heard: without it the model is not used).
    """

    name = SERIAL_CTC

    def __init__(self, model: Path | str | None = None, temperature: float | None = None, threads: int = 1) -> None:
        self.model = Path(model) if model is not None else MODEL_PATH
        self.temperature = temperature
        self.threads = threads
        self._session = None

    def _get(self):
        if self._session is None:
            self._session, self.temperature = _load(self.model, self.temperature, self.threads)
        return self._session

    def problem(self) -> str | None:
        """One sentence saying why the model or its card cannot be used (missing, damaged, another
        model's), or None when it loads and its input and output are this engine's. Loads it (once)."""
        try:
            self._get()
        except EngineError as exc:
            return str(exc)
        return None

    def scores(self, batch: np.ndarray) -> np.ndarray:
        """Raw class scores ``(N, T, len(CHARSET))`` of preprocessed inputs ``(N, 1, INPUT_H, INPUT_W)``."""
        session = self._get()
        return session.run(None, {session.get_inputs()[0].name: batch.astype(np.float32)})[0]

    def recognize(self, crop: np.ndarray) -> LineRead:
        """Read ``crop`` (``uint8`` ``(h, w, 3)`` BGR, text horizontal, upright), with calibrated
        per-character probabilities."""
        return self.recognize_many([crop])[0]

    def recognize_many(self, crops: list[np.ndarray]) -> list[LineRead]:
        """:meth:`recognize` of several crops in one batch."""
        if not crops:
            return []
        logits = self.scores(np.stack([preprocess(c) for c in crops]))
        out = []
        for frame_scores in logits:
            text, probs = ctc_decode(_softmax(frame_scores / self.temperature), list(CHARSET))
            out.append(LineRead(text, float(np.mean(probs)), self.name, probs) if text
                       else LineRead("", 0.0, self.name, ()))
        return out


def _load(model: Path, temperature: float | None, threads: int):
    """``(session, temperature)`` of ``model`` and its card, checked; every failure is one EngineError."""
    import onnxruntime as ort

    def refuse(why: str) -> EngineError:
        return EngineError(f"the serial recognizer's model {model} {why}: {RESTORE_HINT}.")

    if not model.is_file():
        raise refuse("is missing")
    if model.stat().st_size == 0:
        raise refuse("is empty")
    if temperature is None:
        card = model.with_suffix(".json")
        if not card.is_file():
            raise refuse(f"has no card ({card.name}, which holds its measured temperature)")
        try:
            data = load_json(card)  # the one loader: NaN, huge numbers, bad UTF-8 are its sentences
        except ValueError as exc:
            raise refuse(f"has a card that cannot be used ({str(exc).rstrip('.')})") from None
        value = data.get("temperature") if isinstance(data, dict) else None
        lo, hi = TEMPERATURE_RANGE
        if isinstance(value, bool) or not isinstance(value, (int, float)) or not lo <= value <= hi:
            shown = "none" if value is None else dumps_json(value)[:40]
            raise refuse(f"has a card ({card.name}) whose temperature is not a number from {lo} to {hi} ({shown})")
        temperature = float(value)
    opts = ort.SessionOptions()
    opts.intra_op_num_threads = threads
    opts.inter_op_num_threads = 1
    opts.log_severity_level = 4  # onnxruntime's own log lines would say the same in its words
    try:
        session = ort.InferenceSession(str(model), opts, providers=["CPUExecutionProvider"])
    except Exception:  # noqa: BLE001 - onnxruntime raises its own exception types for a bad file
        raise refuse("is damaged (no ONNX model onnxruntime can load)") from None
    inputs, outputs = session.get_inputs(), session.get_outputs()
    shape = list(inputs[0].shape) if len(inputs) == 1 else []
    if len(shape) != 4 or shape[1:] != [1, INPUT_H, INPUT_W] or not outputs \
            or len(outputs[0].shape) != 3 or outputs[0].shape[-1] != len(CHARSET):
        raise refuse(f"is another model (its input is not [N, 1, {INPUT_H}, {INPUT_W}] or its output not "
                     f"[N, T, {len(CHARSET)}])")
    return session, temperature
