"""`dealer-assist score` on ../shared/real_hands and on hand folders made here.

The real hands are checked against expected.json: no wrong verdict, and a
floor on how many are scored automatically (all 8 when this landed); a hand
that needs review names the image and the reason.
"""

import json
import os
import shutil

import pytest
from typer.testing import CliRunner

from dealer_assist.cli import app
from dealer_assist.rules import evaluate, parse_hand, result_to_json

from conftest import REAL_HANDS, REAL_PHOTOS

runner = CliRunner()


@pytest.fixture(scope="module")
def real_verdicts(tmp_path_factory):
    out = tmp_path_factory.mktemp("score") / "verdicts.json"
    csv_out = out.with_suffix(".csv")
    result = runner.invoke(app, ["score", str(REAL_HANDS), "--json", str(out), "--csv", str(csv_out),
                                 "--jobs", "2", "--lang", "en"])
    assert result.exit_code == 0, result.output
    return json.loads(out.read_text()), csv_out.read_text(), result.output


@pytest.mark.slow
def test_no_wrong_verdict_on_real_hands(real_verdicts):
    verdicts, _, _ = real_verdicts
    expected = json.loads((REAL_HANDS / "expected.json").read_text())
    assert len(verdicts) == 8
    scored = [v for v in verdicts if v["status"] == "scored"]
    assert len(scored) == 8  # every hand scored, none needs review
    for v in scored:
        exp = expected[v["folder"].rsplit("/", 1)[-1]]["expect"]
        assert v["winners"] == exp["winners"]
        assert {k: {f: p[f] for f in ("class", "ranks", "natural")} for k, p in v["players"].items()} == \
            {k: {"class": p["class"], "ranks": p["ranks"], "natural": p["natural"]} for k, p in exp["players"].items()}
        for p in v["players"].values():  # the 3 notes played, each with its rank and why
            assert len(p["notes"]) == 3 and all("rank" in n and "reason" in n for n in p["notes"])


@pytest.mark.slow
def test_report_and_summary_printed(real_verdicts):
    _, _, output = real_verdicts
    assert "Summary" in output and "8 of 8 hands scored" in output


@pytest.mark.slow
def test_out_of_format_notes_need_review_with_image_and_reason(tmp_path):
    folder = tmp_path / "h"
    folder.mkdir()
    shutil.copy(REAL_PHOTOS / "real_105.jpg", folder / "alice-1.jpg")  # 2017 series, 9 digits
    shutil.copy(REAL_PHOTOS / "real_195.jpg", folder / "alice-2.jpg")  # Polish note, same format
    shutil.copy(REAL_PHOTOS / "real_047.jpg", folder / "board-1.jpg")
    (folder / "hand.json").write_text(json.dumps({"position": 3}))
    out = tmp_path / "v.json"
    result = runner.invoke(app, ["score", str(folder), "--json", str(out), "-j", "1", "--lang", "en"])
    assert result.exit_code == 0
    (v,) = json.loads(out.read_text())
    assert v["status"] == "needs_review" and v["winners"] == [] and v["players"] == {}
    reasons = "\n".join(v["reasons"])
    assert "alice-1.jpg: the note is out of format: a 9-digit serial (394009037" in reasons
    assert "alice-2.jpg: the note is out of format: two prints agree but do not lie where" in reasons
    assert "needs review" in result.output


@pytest.mark.slow
def test_csv_has_a_row_per_seat(real_verdicts):
    _, csv_text, _ = real_verdicts
    lines = csv_text.strip().splitlines()
    assert lines[0].startswith("folder,status,position")
    assert ",board," in lines[1]  # the board row comes first in each hand
    assert ",true," in csv_text and "True" not in csv_text
    # hand_02 has the board and four players.
    assert sum(",hand_02," in f",{line}" or "/hand_02," in line for line in lines) == 5


def _hand(tmp_path, serials, position=4, photos=None):
    """A hand folder whose notes come from hand.json overrides (no OCR needed)."""
    folder = tmp_path / "hand"
    folder.mkdir()
    src = REAL_PHOTOS / "real_047.jpg"
    for name in serials:
        shutil.copy(src, folder / name)  # any image: the override wins
    (folder / "hand.json").write_text(json.dumps({"position": position, "serials": serials}))
    return folder


@pytest.mark.slow
def test_overrides_score_a_hand_exactly_as_the_rules_engine(tmp_path):
    serials = {"board.jpg": ["1234567", "7654321", "5555555"], "alice.jpg": ["1111111", "2222222"],
               "bob-1.jpg": ["3333333"], "bob-2.jpg": ["9999999"]}
    folder = _hand(tmp_path, serials)
    out = tmp_path / "v.json"
    result = runner.invoke(app, ["score", str(folder), "--json", str(out), "--jobs", "1"])
    assert result.exit_code == 0, result.output
    (v,) = json.loads(out.read_text())
    hand = parse_hand({"position": 4, "board": serials["board.jpg"],
                       "players": [{"name": "alice", "pocket": serials["alice.jpg"]},
                                   {"name": "bob", "pocket": ["3333333", "9999999"]}]})
    truth = result_to_json(evaluate(hand))
    assert v["status"] == "scored"
    assert v["winners"] == truth["winners"]
    assert {k: v["players"]["bob"][k] for k in ("class", "ranks", "natural")} == \
        {k: truth["players"]["bob"][k] for k in ("class", "ranks", "natural")}
    assert all(n["source"] == "manual" for n in v["notes"])


@pytest.mark.slow
def test_position_override_on_the_command_line(tmp_path):
    serials = {"board.jpg": ["1234567", "7654321", "5555555"], "alice.jpg": ["1111111", "2222222"],
               "bob.jpg": ["3333333", "9999999"]}
    folder = _hand(tmp_path, serials, position=4)
    out = tmp_path / "v.json"
    runner.invoke(app, ["score", str(folder), "--json", str(out), "--position", "1", "-j", "1"])
    assert json.loads(out.read_text())[0]["position"] == 1


@pytest.mark.slow
def test_same_serial_twice_needs_review(tmp_path):
    serials = {"board.jpg": ["1234567", "7654321", "5555555"], "alice.jpg": ["1234567", "2222222"],
               "bob.jpg": ["3333333", "9999999"]}
    out = tmp_path / "v.json"
    runner.invoke(app, ["score", str(_hand(tmp_path, serials)), "--json", str(out), "-j", "1"])
    (v,) = json.loads(out.read_text())
    assert v["status"] == "needs_review" and v["winners"] == []
    assert "serial 1234567 is read in alice.jpg and board.jpg: one note cannot lie in two places." in v["reasons"]


@pytest.mark.slow
def test_wrong_note_counts_and_missing_position_need_review(tmp_path):
    folder = tmp_path / "h"
    folder.mkdir()
    shutil.copy(REAL_PHOTOS / "real_047.jpg", folder / "alice.jpg")  # one note, two expected
    shutil.copy(REAL_PHOTOS / "real_130.jpg", folder / "board-1.jpg")  # a note's back: no serial
    out = tmp_path / "v.json"
    result = runner.invoke(app, ["score", str(folder), "--json", str(out), "-j", "1", "--strict"])
    assert result.exit_code == 1
    (v,) = json.loads(out.read_text())
    reasons = " ".join(v["reasons"])
    assert "alice.jpg: 2 notes expected, 1 found" in reasons
    assert "board-1.jpg: 1 note expected, 0 found" in reasons
    assert "no playing position" in reasons


@pytest.mark.parametrize("make, message", [
    (lambda t: t / "nowhere", "no such file or folder"),
    (lambda t: (t / "f.txt").write_text("x") and t / "f.txt", "is a file"),
    (lambda t: (t / "empty").mkdir() or t / "empty", "holds no hand folder"),
])
def test_bad_paths_give_one_sentence(tmp_path, make, message):
    result = runner.invoke(app, ["score", str(make(tmp_path))])
    assert result.exit_code == 2
    assert message in result.output and "Traceback" not in result.output


def test_unwritable_json_target_is_refused_before_reading(tmp_path):
    result = runner.invoke(app, ["score", str(REAL_HANDS), "--json", str(tmp_path / "no" / "v.json")])
    assert result.exit_code == 2 and "does not exist" in result.output


def test_bad_option_values(tmp_path):
    result = runner.invoke(app, ["score", str(REAL_HANDS), "--zero-joker", "twice"])
    assert result.exit_code == 2 and "must be off, per-zero or once" in " ".join(result.output.split())
    result = runner.invoke(app, ["score", str(REAL_HANDS), "--position", "9"])
    assert result.exit_code == 2


def test_earlier_results_survive_a_failed_run(tmp_path):
    out = tmp_path / "v.json"
    out.write_text("[\"earlier\"]")
    result = runner.invoke(app, ["score", str(tmp_path / "missing"), "--json", str(out)])
    assert result.exit_code == 2
    assert out.read_text() == "[\"earlier\"]"


@pytest.mark.slow
def test_result_files_get_the_usual_permissions(tmp_path):
    import os
    serials = {"board.jpg": ["1234567", "7654321", "5555555"], "alice.jpg": ["1111111", "2222222"],
               "bob.jpg": ["3333333", "9999999"]}
    out = tmp_path / "v.json"
    old = os.umask(0o022)
    try:
        runner.invoke(app, ["score", str(_hand(tmp_path, serials)), "--json", str(out), "-j", "1"])
    finally:
        os.umask(old)
    assert out.stat().st_mode & 0o777 == 0o644


def test_a_folder_that_refuses_new_files_is_refused_before_reading(tmp_path):
    # /proc passes a permission check for root yet takes no file: the probe file tells
    result = runner.invoke(app, ["score", str(REAL_HANDS), "--csv", "/proc/version"])
    assert result.exit_code == 2
    assert "cannot write /proc/version: the folder /proc does not take new files" in result.output
    assert "hand_" not in result.output  # nothing was read


def test_results_go_into_a_pipe_named_through_proc_fd(tmp_path):
    """`--json /dev/stdout` with stdout piped: the path leads to a pipe that has no name of its own."""
    from dealer_assist.app.result_files import check_output_path
    from dealer_assist.fileio import write_atomic

    r, w = os.pipe()
    try:
        target = f"/proc/self/fd/{w}"
        assert check_output_path(target) is None
        write_atomic(target, "[1, 2]\n")
        assert os.read(r, 100) == b"[1, 2]\n"
    finally:
        os.close(r)
        os.close(w)
    assert list(tmp_path.iterdir()) == []
