"""The README's main job: `score sample_images/` gives the truth's verdict for every hand."""

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from dealer_assist.cli import app
from dealer_assist.rules import evaluate, parse_hand, result_to_json

SAMPLES = Path(__file__).resolve().parents[1] / "sample_images"

pytestmark = pytest.mark.slow  # every test reads the sample photos


@pytest.fixture(scope="module")
def verdicts(tmp_path_factory):
    out = tmp_path_factory.mktemp("samples") / "v.json"
    result = CliRunner().invoke(app, ["score", str(SAMPLES), "--json", str(out), "--jobs", "2"])
    assert result.exit_code == 0, result.output
    return json.loads(out.read_text())


def test_every_sample_hand_is_found_and_tables_are_not_taken_for_hands(verdicts):
    names = sorted(Path(v["folder"]).name for v in verdicts)
    assert names == sorted(p.name for p in SAMPLES.iterdir() if (p / "hand.json").is_file())
    assert len(names) >= 6


def test_sample_verdicts_equal_the_rules_engine_on_the_truth(verdicts):
    for v in verdicts:
        truth = json.loads((Path(v["folder"]) / "truth.json").read_text())["hand"]
        expected = result_to_json(evaluate(parse_hand(truth)))
        assert v["status"] == "scored", v["reasons"]
        assert v["winners"] == expected["winners"]
        for name, res in expected["players"].items():
            assert {k: v["players"][name][k] for k in ("class", "ranks", "natural")} == \
                {k: res[k] for k in ("class", "ranks", "natural")}
        read = sorted(n["serial"] for n in v["notes"])
        assert read == sorted(truth["board"] + [s for p in truth["players"] for s in p["pocket"]])
