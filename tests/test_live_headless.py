"""`dealer-assist live` headless on a synthetic dealt hand: the showdown equals the rules engine on the truth.

The hand is rendered by :mod:`dealer_assist.synth.sequence` (an empty table,
the deal face down, flop, turn, river, each player turning both notes over),
the calibration is made from its first frame with the calibration module's
own functions (ArUco markers, the zones of the truth in table mm), and the
frames are played back as ``--camera 'frames/*.jpg'`` with the OCR worker in
its own process, exactly as a croupier would run a recording.
"""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from dealer_assist.cli import app
from dealer_assist.rules import evaluate, parse_hand, result_to_json
from dealer_assist.synth.regenerate import sequence_profile
from dealer_assist.synth.sequence import write_hand_sequence

#: 2560x1440 frames show the 1 m table at ~1.8 px/mm: serial digits ~6 px tall, the legible limit.
SIZE = (2560, 1440)


@pytest.fixture(scope="module")
def dealt_hand(tmp_path_factory):
    out = tmp_path_factory.mktemp("dealt_hand")
    summary = write_hand_sequence(out, seed=3, preset="clean", n_players=2, hold=3, video=False, image_size=SIZE)
    profile = sequence_profile(out, out / "table.json")
    return out, profile, summary


def test_headless_run_equals_the_truth(dealt_hand, monkeypatch):
    out, profile, summary = dealt_hand
    monkeypatch.setenv("DEALER_ASSIST_NO_DISPLAY", "1")
    hand = summary["hand"]
    log = out / "hands.jsonl"
    r = CliRunner().invoke(app, ["live", "--camera", str(out / "frames" / "*.jpg"), "--calibration", str(profile.path),
                                 "--position", str(hand["position"]), "--no-window", "--json", "--log", str(log),
                                 "--max-frames", str(summary["frames"])])
    assert r.exit_code == 0, r.output
    got = json.loads(r.output.strip().splitlines()[-1])
    want = result_to_json(evaluate(parse_hand({**hand, "dealer": hand["players"][0]["name"]})))
    assert got["status"] == "showdown"
    assert got["winners"] == want["winners"]
    assert got["serials"]["board"] == hand["board"]  # flop, turn, river in deal order
    for player in hand["players"]:
        name = player["name"]
        assert sorted(got["serials"]["players"][name]) == sorted(player["pocket"])
        for key in ("class", "ranks", "natural"):
            assert got["players"][name][key] == want["players"][name][key], (name, key)
    assert got["frames"] == summary["frames"]
    # the decided hand is in the log with every note read by the camera
    (record,) = [json.loads(line) for line in log.read_text(encoding="utf-8").splitlines()]
    assert record["winners"] == want["winners"] and record["end"] == "max frames"  # --max-frames ended it
    assert {n["source"] for n in record["notes"]} == {"ocr"}
    assert all(0 < n["confidence"] <= 1 for n in record["notes"])
