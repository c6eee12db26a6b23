"""Careless and hostile inputs found by the breaker pass (see /work/notes/breaker_findings.md): each is
one plain sentence and never a wrong result. Bad files are made under tmp_path at test time."""

from __future__ import annotations

import json

import cv2
import numpy as np
from typer.testing import CliRunner

from dealer_assist.cli import app

runner = CliRunner()

SERIALS = {"board-1.jpg": ["1111112"], "board-2.jpg": ["2222223"], "board-3.jpg": ["3333334"],
           "alice.jpg": ["4444445", "5555556"], "bob.jpg": ["6666667", "7777778"]}


def _hand(tmp_path, settings: dict | str):
    hand = tmp_path / "hand_1"
    hand.mkdir()
    for name in SERIALS:  # every photo's serials are given, so none is read
        cv2.imwrite(str(hand / name), np.full((100, 100, 3), 200, np.uint8))
    (hand / "hand.json").write_text(settings if isinstance(settings, str) else json.dumps(settings))
    return hand


def test_serials_written_as_numbers_are_refused_with_how_to_write_them(tmp_path):
    # B7: `[4444445, 5555556]` without quotes was "the serial '4444445' ... is not exactly 7 digits"
    hand = _hand(tmp_path, {"position": 5, "serials": {**SERIALS, "alice.jpg": [4444445, 5555556]}})
    out = tmp_path / "v.json"
    for lang, words in (("en", 'hand.json: the serial 4444445 given for alice.jpg is a number; write each serial in '
                                'quotes ("4444445"): a number cannot keep a leading zero.'),
                        ("ru", 'hand.json: номер 4444445 для alice.jpg записан числом; пишите каждый номер в кавычках '
                                '("4444445")')):
        result = runner.invoke(app, ["score", str(hand), "--json", str(out), "--lang", lang])
        assert result.exit_code == 0, result.output
        (verdict,) = json.loads(out.read_text())
        assert verdict["status"] == "needs_review" and verdict["winners"] == []
        assert any(r.startswith('hand.json: the serial 4444445 given for alice.jpg is a number') for r in verdict["reasons"])
        assert words in " ".join(result.output.replace("│", " ").split()), result.output
    # the same serials in quotes are scored
    (tmp_path / "b").mkdir()
    hand2 = _hand(tmp_path / "b", {"position": 5, "serials": SERIALS})
    assert runner.invoke(app, ["score", str(hand2), "--json", str(out)]).exit_code == 0
    (verdict,) = json.loads(out.read_text())
    assert verdict["status"] == "scored" and verdict["winners"] == ["alice"], verdict


def test_a_result_file_in_a_hand_folder_is_refused_before_anything_is_read_or_written(tmp_path):
    # B8: `score hand_1 --json hand_1/hand.json` replaced the hand's settings with the verdicts
    hand = _hand(tmp_path, {"position": 5, "serials": SERIALS})
    before = {p.name: p.read_bytes() for p in hand.iterdir()}
    cases = [(["--json", str(hand / "hand.json")], "would overwrite the hand's file hand.json"),
             (["--csv", str(hand / "alice.jpg")], "would overwrite the hand's file alice.jpg"),
             (["--json", str(hand / "verdicts.json")], "would become a file of that hand")]
    for args, words in cases:
        result = runner.invoke(app, ["score", str(tmp_path), *args])
        assert result.exit_code == 2, result.output
        line = " ".join(result.output.split())
        assert f"Error: {args[0]} {args[1]} lies in the hand folder {hand} and {words}" in line, line
        assert f"(e.g. {args[0]} {tmp_path / ('verdicts.' + args[0][2:])})" in line
    assert {p.name: p.read_bytes() for p in hand.iterdir()} == before  # nothing written, nothing lost
    ru = runner.invoke(app, ["score", str(hand), "--json", str(hand / "hand.json"), "--lang", "ru"])
    assert "лежит в папке раздачи" in ru.output and "would" not in ru.output
    # beside the hand folders it is written
    out = tmp_path / "verdicts.json"
    assert runner.invoke(app, ["score", str(hand), "--json", str(out)]).exit_code == 0
    assert json.loads(out.read_text())[0]["status"] == "scored"


def test_a_result_file_naming_a_whole_table_photo_s_settings_is_refused(tmp_path):
    photo = tmp_path / "table_1.jpg"
    cv2.imwrite(str(photo), np.full((100, 100, 3), 200, np.uint8))
    settings = tmp_path / "table_1.json"
    settings.write_text('{"position": 6}')
    result = runner.invoke(app, ["score", str(photo), "--calibration", "sample_table_1", "--json", str(settings)])
    assert result.exit_code == 2
    assert f"--json {settings} would overwrite {settings}, which score reads" in " ".join(result.output.split())
    assert settings.read_text() == '{"position": 6}'
