"""`dealer-assist eval` through typer's CliRunner: golden cases, human output,
the quick form, and every bad input (one sentence, line and field, no traceback)."""

from __future__ import annotations

import io
import json

import pytest
from rich.console import Console
from typer.testing import CliRunner

from dealer_assist.cli import app
from dealer_assist.i18n import default_lang
from dealer_assist.render import POSITION_STYLE, render_showdown, serial_text
from dealer_assist.rules import evaluate, parse_hand, rank_options
from rules_golden import GOLDEN, differences, golden_cases

runner = CliRunner()
CASES = golden_cases()

QUICK = [
    "eval", "--position", "4", "--board", "1115111", "--board", "1117111", "--board", "1118111",
    "--player", "alice=1290611,4444444", "--player", "bob=1116111,1113111",
]


def run(*args, stdin=None, env=None):
    env = {"COLUMNS": "200", **(env or {})}  # wide enough that rich does not wrap cells
    result = runner.invoke(app, list(args), input=stdin, env=env)
    assert "Traceback" not in result.output
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    return result


def plain(output):
    """Output without rich's box drawing, whitespace collapsed."""
    for ch in "│╭╮╰╯─":
        output = output.replace(ch, " ")
    return " ".join(output.split())


def json_lines(text):
    return [json.loads(line) for line in text.splitlines() if line.strip()]


# -- golden cases -----------------------------------------------------------

@pytest.mark.slow
def test_3_4_every_golden_case_through_the_cli_json():
    result = run("eval", "--hands", str(GOLDEN), "--json")
    assert result.exit_code == 0, result.output
    outputs = json_lines(result.stdout)
    assert len(outputs) == len(CASES)
    problems = [f"line {n}: {d}" for (n, obj), got in zip(CASES, outputs) for d in differences(got, obj["expect"])]
    assert problems == []


@pytest.mark.slow
def test_golden_cases_read_from_stdin_give_the_same_answers():
    text = GOLDEN.read_text(encoding="utf-8")
    from_file = run("eval", "--hands", str(GOLDEN), "--json").stdout
    from_stdin = run("eval", "--hands", "-", "--json", stdin=text)
    assert from_stdin.exit_code == 0
    assert from_stdin.stdout == from_file


# -- human output -----------------------------------------------------------

def test_5_human_output_shows_ranks_reasons_classes_and_winner_in_english():
    result = run(*QUICK, "--lang", "en")
    assert result.exit_code == 0
    out = result.stdout
    assert "d4=0 → left to d3=9, modified" in out
    assert "9-8-7 Straight (Стрит)" in out
    assert "8-7-6 Straight (Стрит)" in out
    assert "Winner: alice" in out


def test_5_human_output_in_russian():
    result = run(*QUICK, "--lang", "ru")
    assert result.exit_code == 0
    out = result.stdout
    assert "влево до d3=9" in out
    assert "Стрит (Straight)" in out
    assert "Победитель: alice" in out


def test_5_language_defaults_from_the_locale():
    assert "Победитель: alice" in run(*QUICK, env={"LANG": "ru_RU.UTF-8", "LC_ALL": ""}).stdout
    assert "Winner: alice" in run(*QUICK, env={"LANG": "ru_RU.UTF-8", "LC_ALL": "en_US.UTF-8"}).stdout
    assert default_lang({"LC_ALL": "ru_RU.UTF-8", "LANG": "en_GB"}) == "ru"
    assert default_lang({}) == "en"


def test_5_settlement_and_carry_are_shown_when_chips_are_given():
    result = run(
        "eval", "-p", "4", "-b", "1119111", "-b", "1118111", "-b", "1117111",
        "--player", "A=1111111,2222222", "--player", "B=3333333,4444444",
        "--chips", "A=25", "--chips", "B=25", "--tie-policy", "rollover", "--dealer", "B", "--lang", "en",
    )
    assert result.exit_code == 0
    assert "Tied (the pot rolls over): A, B" in result.stdout
    assert "Carried to the next hand: 50" in result.stdout


def test_5_quick_form_json_equals_the_file_form():
    obj = {"position": 4, "board": ["1115111", "1117111", "1118111"],
           "players": [{"name": "alice", "pocket": ["1290611", "4444444"]},
                       {"name": "bob", "pocket": ["1116111", "1113111"]}]}
    quick = json_lines(run(*QUICK, "--json").stdout)
    filed = json_lines(run("eval", "--hands", "-", "--json", stdin=json.dumps(obj) + "\n").stdout)
    assert quick == filed
    assert quick[0]["winners"] == ["alice"]


def test_5_quick_form_with_every_flag():
    result = run(
        "eval", "--position", "1", "--board", "2555555", "--board", "3666666", "--board", "7888888",
        "--player", "A=7111111,7222222", "--player", "B=9123456,9234567", "--player", "C=1923456,4234567",
        "--chips", "A=60", "--chips", "B=60", "--chips", "C=60", "--not-revealed", "A", "--folded", "C",
        "--dealer", "A", "--zero-joker", "per-zero", "--tie-policy", "split", "--exact", "--json",
    )
    assert result.exit_code == 0
    (out,) = json_lines(result.stdout)
    assert out["winners"] == ["B"]
    assert out["settlement"]["payouts"] == {"A": 0, "B": 180, "C": 0}


def test_5_help_shows_both_forms_with_an_example():
    out = run("eval", "--help").stdout
    for flag in ("--hands", "--json", "--position", "--board", "--player", "--zero-joker",
                 "--tie-policy", "--dealer", "--chips", "--lang", "NAME=SERIAL,SERIAL"):
        assert flag in out
    assert "--player alice=7654321,0102030" in out


def test_5_render_highlights_the_digit_at_p_and_labels_sources():
    text = serial_text("1290611", 4, rank_options("1290611", 4, pocket=True)[0])
    styles = {(s.start, s.end): str(s.style) for s in text.spans}
    assert styles[(3, 4)] == POSITION_STYLE  # d4, the playing position
    assert (2, 3) in styles  # d3, where the zero shifted left to
    showdown = evaluate(parse_hand(json.loads(GOLDEN.read_text(encoding="utf-8").splitlines()[8])))
    console = Console(file=io.StringIO(), width=160, color_system=None)
    console.print(render_showdown(showdown, "en", labels={"1290611": "A-1.jpg"}, title="Hand 9"))
    out = console.file.getvalue()
    assert "Hand 9" in out and "A-1.jpg" in out
    assert "Winner: A" in out


def test_5_render_rejects_an_unknown_language():
    showdown = evaluate(parse_hand(CASES[0][1]))
    with pytest.raises(ValueError, match="lang"):
        render_showdown(showdown, "de")


# -- bad input in a hands file ------------------------------------------------

GOOD = {"position": 1, "board": ["2555555", "3666666", "7888888"],
        "players": [{"name": "A", "pocket": ["7111111", "7222222"]},
                    {"name": "B", "pocket": ["9123456", "9234567"]}]}


def variant(**changes):
    obj = json.loads(json.dumps(GOOD))
    obj.update(changes)
    return json.dumps(obj)


BAD_LINES = [
    (variant(board=["2555555", "36666", "7888888"]), ["board[1]", "exactly 7 digits"]),
    (variant(players=[{"name": "A", "pocket": ["7111111", "72222222"]}, GOOD["players"][1]]),
     ["players[0].pocket[1]", "exactly 7 digits"]),
    (variant(position=0), ["position", "1 to 7"]),
    (variant(position=8), ["position", "1 to 7"]),
    (variant(board=["1111111", "2111111", "3111111", "4111111"]), ["board", "at most 3"]),
    (variant(players=[{"name": "A", "pocket": ["7111111"]}, GOOD["players"][1]]),
     ["players[0].pocket", "exactly 2"]),
    (variant(players=[GOOD["players"][0]]), ["players", "at least 2"]),
    (variant(players=[GOOD["players"][0], {"name": "A", "pocket": ["1111111", "2222222"]}]),
     ["players[1].name", "'A'"]),
    (variant(zero_joker="always"), ["zero_joker", "always"]),
    (variant(tie_policy="chop"), ["tie_policy", "chop"]),
    (variant(position="1"), ["position", "integer"]),
    (variant(board="2555555"), ["board", "list"]),
    (variant(dealer="Z"), ["dealer", "'Z'"]),
    ('{"position": 1, "board": [', ["not valid JSON"]),
    ("[1, 2, 3]", ["JSON object"]),
]


def test_every_bad_line_gets_one_sentence_and_the_others_are_still_evaluated():
    lines = []
    for bad, _ in BAD_LINES:
        lines += [json.dumps(GOOD), bad]
    result = run("eval", "--hands", "-", "--json", stdin="\n".join(lines) + "\n")
    assert result.exit_code == 1
    outputs = json_lines(result.stdout)
    assert len(outputs) == 2 * len(BAD_LINES)
    for i, (_, words) in enumerate(BAD_LINES):
        good, bad = outputs[2 * i], outputs[2 * i + 1]
        assert good["winners"] == ["A"]
        assert list(bad) == ["error"]
        message = bad["error"]
        assert message.startswith(f"line {2 * i + 2}: ")
        for word in words:
            assert word in message, message
        assert "\n" not in message and message.endswith(".")


def test_same_serial_twice_is_rejected_with_the_option_and_a_warning_without():
    obj = variant(board=["2555555", "7111111", "7888888"])
    rejected = run("eval", "--hands", "-", "--json", "--reject-duplicates", stdin=obj + "\n")
    assert rejected.exit_code == 1
    assert json_lines(rejected.stdout) == [
        {"error": "line 1: serial 7111111 appears in board[1] and players[0].pocket[0]; "
                  "one note cannot lie in two places."}
    ]
    warned = run("eval", "--hands", "-", "--json", stdin=obj + "\n")
    assert warned.exit_code == 0
    assert json_lines(warned.stdout)[0]["warnings"] == [
        "serial 7111111 appears in board[1] and players[0].pocket[0]."]


def test_invalid_utf8_line_is_reported_and_blank_lines_are_skipped(tmp_path):
    path = tmp_path / "hands.jsonl"
    path.write_bytes(json.dumps(GOOD).encode() + b"\n\n\xff\xfe{}\n" + json.dumps(GOOD).encode() + b"\n")
    result = run("eval", "--hands", str(path), "--json")
    assert result.exit_code == 1
    outputs = json_lines(result.stdout)
    assert outputs[1] == {"error": "line 3: the line is not UTF-8 text."}
    assert outputs[0]["winners"] == outputs[2]["winners"] == ["A"]


def test_human_mode_prints_errors_with_line_numbers_and_keeps_going():
    stdin = json.dumps(GOOD) + "\n" + variant(position=9) + "\n" + json.dumps(GOOD) + "\n"
    result = run("eval", "--hands", "-", "--lang", "en", stdin=stdin)
    assert result.exit_code == 1
    assert result.stdout.count("Winner: A") == 2
    assert "line 2: position must be from 1 to 7, got 9." in result.stderr
    assert "1 hand line(s) could not be evaluated." in result.stderr


def test_missing_hands_file_is_one_sentence():
    result = run("eval", "--hands", "no/such/file.jsonl")
    assert result.exit_code == 2
    assert "cannot read 'no/such/file.jsonl'" in plain(result.output)


# -- bad input in the quick form ----------------------------------------------

QUICK_TWO_BOARDS = QUICK[:-6] + QUICK[-4:]  # --board 1115111 --board 1117111 and the players

QUICK_BAD = [
    (["--player", "carol=1290611,444444"], "--player", "carol: pocket note 2 must be exactly 7 digits"),
    (["--player", "carol=1290611"], "--player", "carol: pocket has 1 note(s); exactly 2"),
    (["--player", "carol"], "--player", "NAME=SERIAL,SERIAL"),
    (["--board", "12345678"], "--board", "board note 3 must be exactly 7 digits, got '12345678'"),
    (["--board", "1234567", "--board", "7654321"], "--board", "board has 4 notes; at most 3"),
    (["--position", "0"], "--position", "from 1 to 7"),
    (["--player", "bob=5555555,6666666"], "--player", "'bob' is used by another player"),
    (["--chips", "alice=lots"], "--chips", "NAME=CHIPS"),
    (["--chips", "carol=5"], "--chips", "'carol' is not one of the players"),
    (["--folded", "carol"], "--folded", "'carol' is not one of the players"),
    (["--dealer", "carol"], "--dealer", "dealer 'carol' is not one of the players"),
    (["--zero-joker", "always"], "--zero-joker", "always"),
    (["--tie-policy", "chop"], "--tie-policy", "chop"),
    (["--lang", "de"], "--lang", "must be en or ru"),
]


@pytest.mark.parametrize("extra,flag,words", QUICK_BAD, ids=[" ".join(e) for e, _, _ in QUICK_BAD])
def test_quick_form_bad_input_is_a_usage_error_naming_the_flag(extra, flag, words):
    result = run(*QUICK_TWO_BOARDS, *extra)
    assert result.exit_code == 2
    text = plain(result.output)
    assert flag in text
    assert words in text


def test_quick_form_needs_two_players_and_a_position():
    one = run("eval", "--position", "1", "--player", "a=1111111,2222222")
    assert one.exit_code == 2 and "at least 2" in plain(one.output)
    no_p = run("eval", "--player", "a=1111111,2222222", "--player", "b=3333333,4444444")
    assert no_p.exit_code == 2 and "playing position" in plain(no_p.output)


def test_hands_file_and_quick_form_do_not_mix_and_one_is_needed():
    both = run("eval", "--hands", str(GOLDEN), "--position", "3")
    assert both.exit_code == 2 and "drop --position" in plain(both.output)
    neither = run("eval")
    assert neither.exit_code == 2 and "--hands FILE" in plain(neither.output)


def test_a_rolled_over_tie_is_not_shown_as_a_split():
    result = CliRunner().invoke(app, [
        "eval", "--position", "1", "--board", "1234567", "--board", "2345678", "--board", "3456789",
        "--player", "a=9111111,9222222", "--player", "b=9333333,9444444", "--tie-policy", "rollover",
        "--lang", "en"])
    assert result.exit_code == 0
    assert "Tied (the pot rolls over): a, b" in result.output
    assert "splits" not in result.output


# -- bad input found by a tester --------------------------------------------------------

REPO = __import__("pathlib").Path(__file__).resolve().parents[1]


def _process(*args, stdout=None, **kwargs):
    import subprocess
    import sys

    return subprocess.Popen([sys.executable, "-m", "dealer_assist", *args], cwd=REPO, stdout=stdout,
                            stderr=subprocess.PIPE, text=True, **kwargs)


def test_the_same_player_s_chips_twice_are_refused():
    result = run(*QUICK_TWO_BOARDS, "--chips", "alice=5", "--chips", "alice=7")
    assert result.exit_code == 2
    assert "the chips of 'alice' are given twice (5 and 7); give each player's chips once." in plain(result.output)


@pytest.mark.parametrize("content", ["", "\n  \n\n"], ids=["empty", "blank"])
def test_a_hands_file_without_hands_says_so(tmp_path, content):
    path = tmp_path / "empty.jsonl"
    path.write_text(content)
    for args, stdin, name in (([str(path)], None, str(path)), (["-"], content, "standard input")):
        result = run("eval", "--hands", *args, "--json", stdin=stdin)
        assert result.exit_code == 1
        assert result.stdout == "" and result.stderr == f"no hands in {name}.\n"


def test_long_values_are_cut_in_errors():
    lines = [variant(board=["1" * 3_000_000]), variant(position=10 ** 400), '{"position": ' + "7" * 5000 + "}"]
    result = run("eval", "--hands", "-", "--json", stdin="\n".join(lines) + "\n")
    assert result.exit_code == 1
    assert [o["error"] for o in json_lines(result.stdout)] == [
        "line 1: board[0] must be exactly 7 digits, got '11111111111111111111…'.",
        "line 2: position must be from 1 to 7, got 10000000000000000000….",
        "line 3: the line holds a number of over 4300 digits.",
    ]
    quick = run(*QUICK_TWO_BOARDS, "--player", "x" * 100_000)
    assert quick.exit_code == 2 and "'xxxxxxxxxxxxxxxxxxxx…' must look like NAME=SERIAL,SERIAL" in plain(quick.output)
    assert len(quick.output) < 1000


@pytest.mark.parametrize("flag, value, words", [
    ("--zero-joker", "on", "must be off, per-zero or once, not 'on'."),
    ("--tie-policy", "chop", "must be split or rollover, not 'chop'."),
])
def test_quick_form_options_are_refused_in_plain_words(flag, value, words):
    result = run(*QUICK_TWO_BOARDS, flag, value)
    assert result.exit_code == 2
    text = plain(result.output)
    assert words in text and "Value error" not in text and "ZeroJoker" not in text


def test_quick_form_options_take_any_case():
    result = run(*QUICK_TWO_BOARDS, "--zero-joker", "PER-ZERO", "--tie-policy", "Rollover", "--json")
    assert result.exit_code == 0, result.output
    both = run(*QUICK_TWO_BOARDS, "--zero-joker", "per-zero", "--tie-policy", "rollover", "--json")
    assert json_lines(result.stdout) == json_lines(both.stdout)


def test_a_serial_in_two_places_is_a_sentence_on_stderr_and_stays_in_the_json():
    obj = variant(players=[{"name": "A", "pocket": ["7111111", "7111111"]}, GOOD["players"][1]])
    human = run("eval", "--hands", "-", "--lang", "en", stdin=obj + "\n")
    assert human.exit_code == 0
    assert "7111111 —" not in human.stdout and "Warning" not in human.stdout
    assert human.stderr == ("warning: line 1: serial 7111111 appears twice: in players[0].pocket[0] and "
                            "players[0].pocket[1]; one note cannot lie in two places.\n")
    as_json = run("eval", "--hands", "-", "--json", stdin=obj + "\n")
    assert json_lines(as_json.stdout)[0]["warnings"] == [
        "serial 7111111 appears in players[0].pocket[0] and players[0].pocket[1]."]
    assert as_json.stderr == human.stderr


def test_many_serials_in_two_places_say_the_first_ten_and_count_the_rest():
    obj = variant(players=[{"name": "A", "pocket": ["7111111", "7111111"]}, GOOD["players"][1]])
    result = run("eval", "--hands", "-", "--json", stdin=(obj + "\n") * 14)
    assert result.exit_code == 0 and len(json_lines(result.stdout)) == 14
    lines = result.stderr.splitlines()
    assert len(lines) == 11 and lines[9].startswith("warning: line 10: serial 7111111 appears twice")
    assert lines[10] == ("warning: and 4 more serial(s) seen in two places of one hand (--reject-duplicates "
                         "refuses such hands).")


@pytest.mark.slow
def test_a_full_disk_is_one_sentence():
    with open("/dev/full", "w") as full:
        proc = _process("eval", "--hands", str(GOLDEN), "--json", stdout=full)
        _, err = proc.communicate(timeout=120)
    assert proc.returncode == 1
    assert err == "cannot write output: no space left on device.\n"


@pytest.mark.slow
def test_a_closed_pipe_ends_quietly(tmp_path):
    path = tmp_path / "many.jsonl"
    path.write_text((json.dumps(GOOD) + "\n") * 3000)  # ~2 MB of results: far more than a pipe holds
    import subprocess

    proc = _process("eval", "--hands", str(path), "--json", stdout=subprocess.PIPE)
    first = proc.stdout.readline()
    proc.stdout.close()
    err = proc.stderr.read()
    proc.wait(timeout=120)
    assert json.loads(first)["winners"] == ["A"]
    assert proc.returncode == 1 and err == ""
