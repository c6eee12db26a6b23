"""`dealer-assist odds` through typer's CliRunner: JSON and human output, exact values,
and every bad line answered with one sentence naming the line while the others go on."""

from __future__ import annotations

import json
from fractions import Fraction

from typer.testing import CliRunner

from dealer_assist.cli import app
from dealer_assist.rules.odds import SERIALS

runner = CliRunner()

# P=1, ranks 1 and 2 on the board; A: natural straight 3-2-1, B: modified straight 3-2-1.
# A modified 4 or a natural 3 to come ties them (111,111 + 999,999 serials), else A wins.
COUNTED = {"position": 1, "board": ["1222222", "2333333"], "players": [
    {"name": "A", "pocket": ["3444444", "8555555"]}, {"name": "B", "pocket": ["0300000", "6666666"]}]}
TIES = Fraction(111_111 + 999_999, SERIALS - 6)
DECIDED = {"position": 1, "board": ["9111111", "1222222", "5777777"], "players": [
    {"name": "A", "pocket": ["9333333", "9444444"]}, {"name": "B", "pocket": ["5555555", "5666666"]}]}
PREFLOP = {"position": 4, "zero_joker": "per-zero", "board": [], "players": [
    {"name": "alice", "pocket": ["7654321", "0102030"]}, {"name": "bob", "pocket": ["9990999", "1234000"]},
    {"name": "carol", "pocket": None, "folded": True}]}


def run(*args, stdin=None):
    result = runner.invoke(app, [str(a) for a in args], input=stdin, env={"COLUMNS": "200"})
    assert "Traceback" not in result.output
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    return result


def write(tmp_path, *lines):
    path = tmp_path / "hands.jsonl"
    path.write_text("".join((line if isinstance(line, str) else json.dumps(line)) + "\n" for line in lines),
                    encoding="utf-8")
    return path


def json_lines(text):
    return [json.loads(line) for line in text.splitlines() if line.strip()]


def test_json_gives_win_and_tie_per_player_and_the_board_notes_to_come(tmp_path):
    result = run("odds", "--hands", write(tmp_path, COUNTED, DECIDED, PREFLOP), "--json")
    assert result.exit_code == 0, result.output
    counted, decided, preflop = json_lines(result.stdout)
    assert counted == {"players": {"A": {"win": round(float(1 - TIES), 4), "tie": round(float(TIES), 4)},
                                   "B": {"win": 0.0, "tie": round(float(TIES), 4)}}, "board_unknown": 1}
    assert counted["players"]["A"] == {"win": 0.8889, "tie": 0.1111}
    assert decided == {"players": {"A": {"win": 1.0, "tie": 0.0}, "B": {"win": 0.0, "tie": 0.0}}, "board_unknown": 0}
    assert preflop["board_unknown"] == 3
    assert preflop["players"]["carol"] == {"win": 0.0, "tie": 0.0, "status": "folded"}
    alice, bob = preflop["players"]["alice"], preflop["players"]["bob"]
    assert alice["tie"] == bob["tie"] and abs(alice["win"] + bob["win"] + alice["tie"] - 1) < 2e-4


def test_exact_adds_the_fractions(tmp_path):
    result = run("odds", "--hands", write(tmp_path, COUNTED), "--json", "--exact")
    out = json_lines(result.stdout)[0]
    assert Fraction(out["players"]["A"]["tie_exact"]) == TIES
    assert Fraction(out["players"]["A"]["win_exact"]) == 1 - TIES
    assert out["players"]["B"]["win_exact"] == "0"
    assert out["deals"] == SERIALS - 6 and Fraction(out["split_exact"]) == TIES


def test_hands_from_standard_input():
    result = run("odds", "--hands", "-", "--json", stdin=json.dumps(COUNTED) + "\n\n" + json.dumps(DECIDED) + "\n")
    assert result.exit_code == 0
    assert [o["board_unknown"] for o in json_lines(result.stdout)] == [1, 0]


def test_human_output_is_a_table_per_hand(tmp_path):
    result = run("odds", "--hands", write(tmp_path, COUNTED, PREFLOP))
    assert result.exit_code == 0, result.output
    out = result.stdout
    assert "Hand, line 1" in out and "Hand, line 2" in out
    assert "+ 1 to come" in out and "3 notes to come" in out
    a_row = next(line for line in out.splitlines() if "3444444" in line)
    assert "88.89%" in a_row and "11.11%" in a_row
    carol = next(line for line in out.splitlines() if "carol" in line)
    assert "folded" in carol and "???????" in carol
    assert f"over {SERIALS - 6:,} equally likely ordered deals" in out


def test_bad_lines_are_one_sentence_each_and_the_others_are_still_evaluated(tmp_path):
    still_in_unknown = {"position": 1, "board": [], "players": [
        {"name": "A", "pocket": ["1111111", "2222222"]}, {"name": "B", "pocket": ["3333333", None]}]}
    path = write(tmp_path, COUNTED, "not json", still_in_unknown, {**COUNTED, "position": 9}, DECIDED)
    result = run("odds", "--hands", path, "--json")
    assert result.exit_code == 1
    lines = json_lines(result.stdout)
    assert len(lines) == 5
    assert lines[0]["board_unknown"] == 1 and lines[4]["board_unknown"] == 0
    assert lines[1] == {"error": "line 2: the line is not valid JSON (Expecting value: column 1)."}
    assert lines[2] == {"error": "line 3: players[1].pocket[1] is not known; the odds need both pocket notes of "
                                 "every player still in ('B' has neither folded nor declined to reveal)."}
    assert lines[3] == {"error": "line 4: position must be from 1 to 7, got 9."}
    assert result.stderr.strip() == "3 hand line(s) could not be evaluated."

    human = run("odds", "--hands", path)
    assert human.exit_code == 1
    errors = human.stderr.splitlines()
    assert errors[0] == "line 2: the line is not valid JSON (Expecting value: column 1)."
    assert errors[1].startswith("line 3: players[1].pocket[1] is not known;")
    assert errors[-1] == "3 hand line(s) could not be evaluated."
    assert "Hand, line 1" in human.stdout and "Hand, line 5" in human.stdout


def test_an_unrevealed_or_folded_player_may_have_unknown_pocket_notes(tmp_path):
    hand = {"position": 2, "board": ["1111111"], "players": [
        {"name": "A", "pocket": ["1911111", "1811111"]}, {"name": "B", "revealed": False},
        {"name": "C", "pocket": [], "folded": True}]}
    result = run("odds", "--hands", write(tmp_path, hand), "--json")
    assert result.exit_code == 0, result.output
    assert json_lines(result.stdout)[0]["players"] == {
        "A": {"win": 1.0, "tie": 0.0}, "B": {"win": 0.0, "tie": 0.0, "status": "not revealed"},
        "C": {"win": 0.0, "tie": 0.0, "status": "folded"}}


def test_a_serial_in_two_places_is_a_warning(tmp_path):
    hand = {**DECIDED, "board": ["9111111", "1222222", "5555555"]}
    result = run("odds", "--hands", write(tmp_path, hand), "--json")
    assert result.exit_code == 0
    assert result.stderr.strip() == ("warning: line 1: serial 5555555 appears in board[2] and players[1].pocket[0]; "
                                     "one note cannot lie in two places (it is taken out of the deck once).")


def test_no_hands_and_a_missing_file(tmp_path):
    empty = tmp_path / "empty.jsonl"
    empty.write_text("\n\n", encoding="utf-8")
    result = run("odds", "--hands", empty)
    assert result.exit_code == 1 and result.stderr.strip() == f"no hands in {empty}."
    missing = run("odds", "--hands", tmp_path / "nope.jsonl")
    assert missing.exit_code == 2 and "cannot read" in missing.stderr
    assert run("odds").exit_code == 2  # --hands is required
