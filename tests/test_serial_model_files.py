"""A missing, damaged or foreign serial model (models/serial_ctc.onnx) or card (serial_ctc.json).

Each is one plain sentence saying how to restore them (never onnxruntime's own exception text, never a
traceback), and the reader then does without the model (the cross-check engines it had before the model
was added), so no note is trusted on a damaged file's word. The bad files are made under tmp_path.
"""

from __future__ import annotations

import json
import shutil

import numpy as np
import pytest
from typer.testing import CliRunner

from dealer_assist.app.readers import clear_readers, serial_model_warning
from dealer_assist.cli import app
from dealer_assist.i18n import say
from dealer_assist.vision import recognizer
from dealer_assist.vision.reader import SerialReader
from dealer_assist.vision.recognizer import CARD_PATH, MODEL_PATH, RESTORE_HINT, SerialCtcEngine

from conftest import REAL_PHOTOS


def _copy(tmp_path):
    model = tmp_path / "serial_ctc.onnx"
    shutil.copyfile(MODEL_PATH, model)
    shutil.copyfile(CARD_PATH, model.with_suffix(".json"))
    return model


def _foreign_onnx(path):
    import onnxruntime.datasets

    shutil.copyfile(onnxruntime.datasets.get_example("sigmoid.onnx"), path)  # a valid ONNX model, not ours


MODEL_DAMAGE = {
    "missing": (lambda m: m.unlink(), "is missing"),
    "empty": (lambda m: m.write_bytes(b""), "is empty"),
    "truncated": (lambda m: m.write_bytes(MODEL_PATH.read_bytes()[:300_000]), "is damaged"),
    "garbage": (lambda m: m.write_bytes(np.random.default_rng(1).bytes(50_000)), "is damaged"),
    "another model": (_foreign_onnx, "is another model"),
}

CARD_DAMAGE = {
    "missing": (None, "has no card (serial_ctc.json"),
    "not JSON": ("{", "has a card that cannot be used"),
    "not an object": ("[1.25]", "whose temperature is not a number from 0.25 to 4.0"),
    "no temperature": ('{"seed": 3}', "whose temperature is not a number"),
    "a string": ('{"temperature": "1.25"}', "whose temperature is not a number"),
    "true": ('{"temperature": true}', "whose temperature is not a number"),
    "zero": ('{"temperature": 0}', "(0)"),
    "negative": ('{"temperature": -1.25}', "(-1.25)"),
    "tiny": ('{"temperature": 1e-300}', "whose temperature is not a number"),
    "NaN": ('{"temperature": NaN}', "has a card that cannot be used"),
    "not UTF-8": (b'{"temperature": 1.25, "x": "\xff"}', "has a card that cannot be used"),
}


def test_the_committed_model_and_card_have_no_problem():
    engine = SerialCtcEngine()
    assert engine.problem() is None and engine.temperature == json.loads(CARD_PATH.read_text())["temperature"]
    assert serial_model_warning() is None


@pytest.mark.parametrize("kind", MODEL_DAMAGE)
def test_a_bad_model_file_is_one_sentence_saying_how_to_restore_it(tmp_path, kind):
    model = _copy(tmp_path)
    damage, words = MODEL_DAMAGE[kind]
    damage(model)
    problem = SerialCtcEngine(model).problem()
    assert problem == f"the serial recognizer's model {model} {problem.split(str(model) + ' ')[1]}"
    assert words in problem and problem.endswith(RESTORE_HINT + ".")
    assert "ONNXRuntimeError" not in problem and "\n" not in problem
    with pytest.raises(recognizer.EngineError):
        SerialCtcEngine(model).recognize(np.full((32, 160, 3), 200, np.uint8))


@pytest.mark.parametrize("kind", CARD_DAMAGE)
def test_a_bad_card_is_one_sentence_and_the_model_is_not_used(tmp_path, kind):
    model = _copy(tmp_path)
    text, words = CARD_DAMAGE[kind]
    card = model.with_suffix(".json")
    if text is None:
        card.unlink()
    else:
        card.write_bytes(text if isinstance(text, bytes) else text.encode())
    problem = SerialCtcEngine(model).problem()
    assert problem is not None and words in problem, problem
    assert problem.endswith(RESTORE_HINT + ".") and "Traceback" not in problem


def test_the_reader_leaves_a_bad_model_out_and_keeps_the_other_engines(tmp_path, monkeypatch):
    good = [e.name for e in SerialReader(primary=object()).seconds]
    assert recognizer.SERIAL_CTC in good
    model = _copy(tmp_path)
    model.write_bytes(b"\0" * 1000)
    monkeypatch.setattr(recognizer, "MODEL_PATH", model)
    assert [e.name for e in SerialReader(primary=object()).seconds] == [n for n in good if n != recognizer.SERIAL_CTC]
    warning = serial_model_warning()
    assert warning.startswith(f"warning: the serial recognizer's model {model} is damaged")
    assert "does without it" in warning


def test_the_warning_is_all_russian_in_russian(tmp_path, monkeypatch):
    model = _copy(tmp_path)
    for damage in ("missing", "card"):
        if damage == "missing":
            model.unlink()
        else:
            shutil.copyfile(MODEL_PATH, model)
            model.with_suffix(".json").write_text('{"temperature": 0.01}')
        monkeypatch.setattr(recognizer, "MODEL_PATH", model)
        ru = say(serial_model_warning(), "ru")
        assert ru.startswith(f"предупреждение: модель распознавания номеров {model} ")
        assert "Until" not in ru and "restore" not in ru and "is missing" not in ru and "card" not in ru
    assert "от 0,25 до 4,0 (0.01)" in ru


@pytest.mark.slow  # reads a real photo with the OCR engines (a few seconds)
@pytest.mark.parametrize("lang, words", [("en", "warning: the serial recognizer's model"),
                                         ("ru", "предупреждение: модель распознавания номеров")])
def test_read_without_the_model_warns_once_and_still_reads_by_the_other_engines(tmp_path, monkeypatch, lang, words):
    model = _copy(tmp_path)
    model.write_bytes(MODEL_PATH.read_bytes()[:200_000])  # truncated, as by a broken copy
    monkeypatch.setattr(recognizer, "MODEL_PATH", model)
    clear_readers()
    try:
        result = CliRunner().invoke(app, ["read", str(REAL_PHOTOS / "real_049.jpg"), "--json", "--lang", lang])
    finally:
        clear_readers()
    assert result.exit_code == 0, result.output
    assert result.output.count(words) == 1 and "Traceback" not in result.output
    assert "git checkout -- models/serial_ctc.onnx models/serial_ctc.json" in result.output
    line = json.loads(next(x for x in result.output.splitlines() if x.startswith("{")))
    # both notes of this photo (its label: 2535876 and 8047229) trusted without the model, as before it
    assert sorted(n["serial"] for n in line["notes"]) == ["2535876", "8047229"]
