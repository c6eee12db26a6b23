"""Indian poker (RULES.md §7) through the commands: `eval --game indian`, an Indian line of `eval --hands`
and `odds --hands` (both views), `rules --game indian` in both languages; bad input is one sentence."""

from __future__ import annotations

import json
from fractions import Fraction

import pytest
from typer.testing import CliRunner

from dealer_assist.cli import app
from dealer_assist.rules.indian_odds import note_class_sizes

runner = CliRunner()

# P=4. alice: d4=4 natural; bob: d4=0, left d3=9 and right d5=9: a modified 9; chen: natural 4.
QUICK = ["eval", "--game", "indian", "--position", "4", "--player", "alice=7654321", "--player", "bob=9990999",
         "--player", "chen=1234000", "--dealer", "chen"]
LINE = {"game": "indian", "position": 4, "dealer": "chen", "players": [
    {"name": "alice", "pocket": ["7654321"], "contributed": 3}, {"name": "bob", "pocket": ["9990999"], "contributed": 3},
    {"name": "chen", "pocket": ["1234000"], "contributed": 1, "folded": True}]}


def run(*args, stdin=None):
    result = runner.invoke(app, [str(a) for a in args], input=stdin, env={"COLUMNS": "200"})
    assert "Traceback" not in result.output
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    return result


def test_eval_game_indian_quick_form_shows_each_note_its_rank_why_and_the_winner():
    result = run(*QUICK, "--chips", "alice=2", "--chips", "bob=2", "--chips", "chen=2")
    assert result.exit_code == 0, result.output
    out = result.output
    assert "Indian poker · Playing position P=4 · dealer: chen" in out
    assert "d4=0 → left or right to d3=9, modified" in out or "d4=0 → right to d5=9, modified" in out
    assert "Winner: bob" in out and "put in 2 · gets 6" in out and "Board" not in out


def test_eval_json_of_an_indian_line_follows_formats_and_records_without_game_stay_holdem(tmp_path):
    holdem = {"position": 1, "board": [], "players": [{"name": "A", "pocket": ["1111111", "2222222"]},
                                                      {"name": "B", "pocket": ["3333333", "4444444"]}]}
    path = tmp_path / "hands.jsonl"
    path.write_text(json.dumps(LINE) + "\n" + json.dumps(holdem) + "\n", encoding="utf-8")
    result = run("eval", "--hands", path, "--json")
    assert result.exit_code == 0, result.output
    indian, plain = (json.loads(line) for line in result.output.splitlines())
    assert indian["game"] == "indian" and indian["winners"] == ["bob"]
    assert indian["players"]["bob"]["ranks"] == [9] and indian["players"]["bob"]["natural"] is False
    assert indian["settlement"]["payouts"] == {"alice": 0, "bob": 7, "chen": 0}
    assert "game" not in plain and plain["players"]["A"]["class"] is None  # Hold'em: 2 notes are no hand


@pytest.mark.parametrize("args, words", [
    (["--player", "alice=7654321,1111111"], "alice: pocket note"),  # two notes
    (["--zero-joker", "once"], "zero_joker must be off in Indian poker"),
    (["--board", "1234567"], "Indian poker has no board notes"),
])
def test_eval_game_indian_refuses_what_the_game_does_not_have_in_one_sentence(args, words):
    result = run("eval", "--game", "indian", "--position", "4", "--player", "bob=9990999", *args,
                 *([] if args[0] == "--player" else ["--player", "alice=7654321"]))
    assert result.exit_code == 2
    flat = " ".join(result.output.replace("│", " ").split())
    assert words in flat or "exactly 1 is needed in Indian poker" in flat, flat


def test_eval_game_with_a_hands_file_is_refused_each_line_says_its_game(tmp_path):
    path = tmp_path / "hands.jsonl"
    path.write_text(json.dumps(LINE) + "\n", encoding="utf-8")
    result = run("eval", "--hands", path, "--game", "indian")
    assert result.exit_code == 2 and "drop --game" in result.output


def test_odds_of_an_indian_line_give_the_players_view_and_the_spectators(tmp_path):
    line = dict(LINE, players=[dict(p, pocket=p["pocket"] if not p.get("folded") else None) for p in LINE["players"]])
    path = tmp_path / "hands.jsonl"
    path.write_text(json.dumps(line) + "\n", encoding="utf-8")
    result = run("odds", "--hands", path, "--json", "--exact")
    assert result.exit_code == 0, result.output
    out = json.loads(result.output)
    sizes = note_class_sizes()
    # alice sees bob's modified 9 only (chen's note is unknown): a natural 9 wins, a modified 9 ties
    assert out["players"]["alice"]["win_exact"] == str(Fraction(10**6, 10**7 - 1))
    assert out["players"]["alice"]["tie_exact"] == str(Fraction(sizes[16] - 1, 10**7 - 1))
    assert out["spectator"]["bob"]["win"] == 1.0 and out["spectator"]["alice"]["win"] == 0.0
    assert out["players"]["chen"]["status"] == "folded"
    human = run("odds", "--hands", path)
    assert "Own view: win" in human.output and "Spectator: win" in human.output and "???????" in human.output


def test_odds_of_an_indian_line_need_the_note_of_every_player_still_in(tmp_path):
    line = dict(LINE, players=[{"name": "alice", "pocket": [None]}, {"name": "bob", "pocket": ["9990999"]}])
    result = run("odds", "--hands", "-", stdin=json.dumps(line) + "\n")
    assert result.exit_code == 1
    assert "players[0].pocket[0] is not known; the odds need the note of every player still in" in result.output


@pytest.mark.parametrize("lang, words", [
    ("en", ["Banknote Indian poker in short", "everyone sees", "One raise for the whole table",
            "natural note beats a modified one", "B takes 5 (3 up)"]),
    ("ru", ["Купюрный индийский покер коротко", "все видят все", "Одно повышение на весь стол",
            "натуральная", "B получает 5 (плюс 3)"]),
])
def test_rules_game_indian_in_both_languages(lang, words):
    result = run("rules", "--game", "indian", "--lang", lang)
    assert result.exit_code == 0
    for word in words:
        assert word in result.output
    assert all(len(line) <= 80 for line in result.output.splitlines())
    assert run("rules", "--lang", lang).output != result.output  # the Hold'em rules stay the default


def test_rules_game_refuses_an_unknown_game_in_one_sentence():
    result = run("rules", "--game", "omaha")
    assert result.exit_code == 2 and "must be holdem or indian, not 'omaha'" in result.output


# ----------------------------------------------------------------------------- score: a photographed Indian hand

def _folder(tmp_path, settings: dict, photos=("anna.jpg", "boris.jpg")):
    hand = tmp_path / "hand"
    hand.mkdir()
    for name in photos:
        (hand / name).write_bytes(b"never read: hand.json gives its serial")
    (hand / "hand.json").write_text(json.dumps(settings), encoding="utf-8")
    return hand


SERIALS = {"anna.jpg": ["0658952"], "boris.jpg": ["5301725"]}


def test_score_game_indian_scores_one_note_per_player_and_no_board(tmp_path):
    hand = _folder(tmp_path, {"position": 3, "serials": SERIALS})
    out = tmp_path / "v.json"
    result = run("score", hand, "--game", "indian", "--json", out)
    assert result.exit_code == 0, result.output
    verdict = json.loads(out.read_text(encoding="utf-8"))[0]
    assert verdict["status"] == "scored", verdict["reasons"]
    assert verdict["game"] == "indian" and verdict["winners"] == ["anna"]
    assert verdict["players"]["boris"] == {"class": "high", "ranks": [3], "natural": False, "notes": [
        {"serial": "5301725", "from": "pocket", "rank": 3, "natural": False,
         "reason": "d3=0 → left to d2=3, modified"}]}
    assert "Indian poker · Playing position P=3" in result.output


def test_score_reads_the_game_from_hand_json_and_without_it_the_hand_is_holdem(tmp_path):
    indian = _folder(tmp_path, {"game": "indian", "position": 3, "serials": SERIALS})
    out = tmp_path / "v.json"
    assert run("score", indian, "--json", out).exit_code == 0
    assert json.loads(out.read_text(encoding="utf-8"))[0]["status"] == "scored"
    (indian / "hand.json").write_text(json.dumps({"position": 3, "serials": SERIALS}), encoding="utf-8")
    run("score", indian, "--json", out)
    verdict = json.loads(out.read_text(encoding="utf-8"))[0]
    assert verdict["status"] == "needs_review" and verdict["game"] == "holdem"
    assert "no board photo (board.jpg or board-1.jpg ...)." in verdict["reasons"]


def test_score_an_indian_hand_with_a_board_photo_or_a_bad_game_needs_review(tmp_path):
    hand = _folder(tmp_path, {"game": "indian", "position": 3, "serials": SERIALS},
                   photos=("anna.jpg", "boris.jpg", "board.jpg"))
    out = tmp_path / "v.json"
    run("score", hand, "--json", out)
    verdict = json.loads(out.read_text(encoding="utf-8"))[0]
    assert verdict["status"] == "needs_review"
    assert "board.jpg: Indian poker has no board notes; remove the photo from the hand folder." in verdict["reasons"]
    (hand / "board.jpg").unlink()
    (hand / "hand.json").write_text(json.dumps({"game": "omaha", "position": 3}), encoding="utf-8")
    run("score", hand, "--json", out)
    assert "hand.json: game must be holdem or indian, not 'omaha'." in \
        json.loads(out.read_text(encoding="utf-8"))[0]["reasons"]


def test_score_a_whole_table_photo_of_indian_poker_one_note_per_seat_and_the_board_zone_unused(tmp_path):
    import numpy as np

    from dealer_assist.app.table_photos import TableReading, table_hand
    from dealer_assist.app.verdicts import score_hand
    from dealer_assist.calibration.tabletop import TableNote
    from dealer_assist.vision.model import NoteRead, NoteStatus

    class Table:  # the two things table_hand asks of a profile
        name, seats = "t", ["anna", "boris"]

    photo = tmp_path / "table_1.jpg"
    (tmp_path / "table_1.json").write_text(json.dumps({"game": "indian", "position": 3}), encoding="utf-8")

    def read(serial, zone):
        quad = np.array([[0, 0], [10, 0], [10, 5], [0, 5]], np.float64)
        return TableNote(NoteRead(serial, None, 0.9, quad, NoteStatus.TRUSTED, "", []), zone, np.zeros(2))

    reading = TableReading(str(photo), [read("0658952", "anna"), read("5301725", "boris"), read("9999999", "board")])
    folder, readings = table_hand(photo, Table(), reading)
    assert [(s.seat, s.expected) for s in folder.slots] == [("anna", 1), ("boris", 1)]
    assert folder.problems == ["table_1.jpg: a note (9999999) lies in the board zone; Indian poker has no board notes."]
    reading.notes.pop()
    folder, readings = table_hand(photo, Table(), reading)
    verdict = score_hand(folder, readings)
    assert verdict.status == "scored" and verdict.result["winners"] == ["anna"]
