"""Russian everywhere (issue 22, "one language switch for every command"): every command's ``--help``,
click's usage errors and the main outputs, with ``--lang ru`` and with ``LANG=ru_RU.UTF-8``, hold no
English sentence.

The check (:func:`english_runs`) is a heuristic: it finds runs of three or more English words in a row
once the things that stay as typed are taken out: command lines (``dealer-assist …``, the text between
backticks), options (``--json``), file names and paths, URLs, serials and numbers, metavars
(``FILE``, ``NAME|FILE.json``), JSON examples and quoted values.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
import typer
from typer.testing import CliRunner

from dealer_assist.cli import app
from cli_helpers import command_paths
from ledger_helpers import BOARD, POCKETS, logged_hand

ROOT = Path(__file__).resolve().parents[1]
GOLDEN = ROOT.parent / "shared" / "golden" / "hands.jsonl"
RU_ENV = {"COLUMNS": "80", "LINES": "24", "LANG": "ru_RU.UTF-8", "LC_ALL": "", "LC_MESSAGES": ""}
EN_ENV = {"COLUMNS": "80", "LINES": "24", "LANG": "C.UTF-8", "LC_ALL": "", "LC_MESSAGES": ""}

#: Words that are names in Russian text too (the game's, the tools', the keys' commands).
NAMES = {"hold'em", "banknote", "roll", "over", "aruco", "postgresql", "listen", "notify", "json", "lines", "ocr",
         "opencv", "usb", "ip", "libpq", "mjpg", "yuyv", "loopback", "localhost", "rms", "heic", "webp", "png",
         "jpeg", "tiff", "bmp", "csv", "dpi", "iso", "ctrl", "token", "nnnnnnn", "fx", "fy", "cx", "cy", "px",
         "dealer", "assist", "holdem", "indian", "off", "per", "zero", "once", "split", "rollover", "en", "ru",
         "lang", "lc", "all", "messages", "true", "false", "null", "error", "new", "position", "random",
         "showdown", "fold", "in", "out", "serial", "board", "chips", "undo", "quit", "win", "tie", "exact"}

_STRIP = [
    r"dealer-assist(?:\s+[\w./*'|=,@:+\\-]+)*",  # a command line (up to its first Cyrillic word)
    r"python -m [\w.]+(?:\s+[\w./*'|=,@:+\\-]+)*",
    r"`[^`]*`", r"«[^»]*»", r"'[^']*'", r"\"[^\"]*\"", r"\{[^}]*\}",  # commands, quoted values, JSON
    r"\S*[/\\]\S*", r"\S+\.[\w*]\S*",  # paths, file names, URLs, version numbers
    r"--?[\w-]+(?:[=/][\w-]+)*",  # options
    r"\b[A-Z][A-Z0-9_|x…]+\b",  # metavars (FILE, NAME, P, WIDTHxHEIGHT)
    r"\S*\d\S*",  # serials, numbers, seats (P3)
]


def flat(text: str) -> str:
    """``text`` on one line, without the boxes' borders."""
    return " ".join(re.sub(r"[│╭╮╰╯─━┃┏┓┗┛┡┩└┘┌┐├┤┼┬┴╇╈╋═║]", " ", text).split())


def english_runs(text: str, run: int = 3) -> list[str]:
    """The runs of ``run`` or more English words in ``text`` after the names above are taken out."""
    flat_text = flat(text)
    for pattern in _STRIP:
        flat_text = re.sub(pattern, " ¦ ", flat_text)
    found = []
    for chunk in re.split(r"[^A-Za-z' ]", flat_text):
        # consecutive words of the chunk that are not names
        streak: list[str] = []
        for w in chunk.split():
            if w.lower().strip("'") in NAMES or len(w.strip("'")) <= 1:
                if len(streak) >= run:
                    found.append(" ".join(streak))
                streak = []
            else:
                streak.append(w)
        if len(streak) >= run:
            found.append(" ".join(streak))
    return found


COMMANDS = command_paths()


def invoke(args, env=RU_ENV, stdin=None):
    result = CliRunner().invoke(app, [str(a) for a in args], env=env, input=stdin)
    assert "Traceback" not in result.output, result.output
    return result


def test_the_check_finds_english_and_passes_names():
    assert english_runs("Ошибка: There is no hand log yet.") == ["There is no hand log yet"]
    assert english_runs("Пример: dealer-assist score sample_images/ --json verdicts.json") == []
    assert english_runs("Купюрный Hold'em · P=4 · ноль-джокер: off, per-zero или once") == []
    assert english_runs("Usage: dealer-assist score [OPTIONS] PATH") == []  # two words only: said by the next test
    assert english_runs("Try 'dealer-assist score --help' for help.") == []  # ditto
    assert english_runs("Show this message and exit.") == ["Show this message and exit"]


@pytest.mark.parametrize("how", ["--lang", "locale"])
@pytest.mark.parametrize("path", COMMANDS, ids=lambda p: " ".join(p) or "dealer-assist")
def test_every_help_is_russian(path, how):
    if how == "--lang" and path and "lang" in [p.name for p in _params(path)]:
        result = invoke([*path, "--lang", "ru", "--help"], env=EN_ENV)
    else:
        result = invoke([*path, "--help"])
    assert result.exit_code == 0, result.output
    text = result.output
    assert "Usage:" not in text and "Options" not in text and "Show this message" not in text
    assert "Использование:" in text
    assert english_runs(text) == [], text


def _params(path):
    cmd = typer.main.get_command(app)
    for name in path:
        cmd = cmd.commands[name]
    return cmd.params


def test_help_in_english_keeps_its_paragraphs_whole():
    """F1: a line break inside a docstring's paragraph is no break on the screen."""
    text = invoke(["score", "--help"], env={**EN_ENV, "COLUMNS": "80"}).output
    assert "no board photo, and one photo per player holding" in " ".join(text.split())
    lines = [ln.strip() for ln in text.splitlines()]
    i = next(n for n, ln in enumerate(lines) if ln.startswith("Indian poker (--game indian"))
    assert len(lines[i]) > 60  # the paragraph's first line runs to the width, not broken at "player"


USAGE_ERRORS = [
    ["score", "--bogus"], ["score"], ["eval", "--hands"], ["eval", "--hands", "nosuch.jsonl"],
    ["score", "x", "--zero-joker", "maybe"], ["eval", "--position", "9"], ["ledger", "--since", "yesterday"],
    ["ledger", "--ante", "many"], ["calibrate", "nosuch"], ["eval", "--position", "4"],
    ["score", "x", "--position", "9"], ["score", "x", "--position", "x"], ["eval", "--board", "1", "2"],
]


@pytest.mark.parametrize("value, sentence", [
    ("9", "должно быть 1-7, а не 9."), ("0", "должно быть 1-7, а не 0."),  # as live says it (seventh trial)
    ("x", "нужно целое число"),
])
def test_a_position_out_of_range_is_refused_in_russian(value, sentence):
    """The second new-user trial: `score --position 9 --lang ru` said typer's English range sentence."""
    result = invoke(["score", "x", "--position", value, "--lang", "ru"], env=EN_ENV)
    assert result.exit_code == 2
    assert f"Неверное значение '--position' / '-p': {sentence}" in flat(result.output), result.output


@pytest.mark.parametrize("args", USAGE_ERRORS, ids=" ".join)
def test_usage_errors_are_russian(args):
    for result in (invoke([*args, "--lang", "ru"], env=EN_ENV) if args[0] != "calibrate" else None,
                   invoke(args)):
        if result is None:
            continue
        assert result.exit_code == 2, result.output
        text = result.output
        assert "Usage:" not in text and "for help" not in text and "Invalid value" not in text, text
        assert "Ошибка" in text, text
        assert english_runs(text) == [], text


def test_a_wrong_value_names_the_values_once():
    """F15: "must be off, per-zero or once, not 'maybe'." and no second list of the same values."""
    text = flat(invoke(["score", "x", "--zero-joker", "maybe"], env=EN_ENV).output)
    assert "must be off, per-zero or once, not 'maybe'." in text
    assert "Values:" not in text
    ru = flat(invoke(["score", "x", "--zero-joker", "maybe"]).output)
    assert "должно быть off, per-zero или once, а не 'maybe'." in ru


def _log(tmp_path) -> Path:
    log = tmp_path / "hands.jsonl"
    log.write_text(json.dumps(logged_hand(("A", "B", "C"), BOARD, POCKETS, chips={"A": 10, "B": 10, "C": 10},
                                          hand=1)) + "\n", encoding="utf-8")
    return log


def test_main_outputs_are_russian(tmp_path):
    """The commands that need no camera and no OCR, each run as the README shows them."""
    log = _log(tmp_path)
    odds = {"position": 4, "board": ["1234567"], "players": [{"name": "alice", "pocket": ["7654321", "0102030"]},
                                                              {"name": "boris", "pocket": ["9990999", "1234000"]}]}
    runs = {
        "eval": (["eval", "--position", "4", "--board", "1234567", "--board", "0000123", "--board", "5550555",
                  "--player", "alice=7654321,0102030", "--player", "bob=9990999,1234000", "--chips", "alice=25",
                  "--chips", "bob=25"], None),
        "odds": (["odds", "--hands", "-"], json.dumps(odds) + "\n"),
        "history": (["history", "--log", log], None),
        "history --show": (["history", "--log", log, "--show", "1"], None),
        "ledger": (["ledger", "--log", log], None),
        "rules": (["rules"], None), "rules indian": (["rules", "--game", "indian"], None),
        "formats": (["formats"], None),
        "calibrate show": (["calibrate", "show", "--calibration", "sample_table_1"], None),
    }
    found = {}
    for name, (args, stdin) in runs.items():
        for result in (invoke([*args, "--lang", "ru"], env=EN_ENV, stdin=stdin), invoke(args, stdin=stdin)):
            assert result.exit_code == 0, (name, result.output)
            if english_runs(result.output):
                found[name] = english_runs(result.output)
    assert found == {}


def test_duplicate_serial_warnings_are_russian():
    """F3: eval's and odds' warnings about one serial in two places of a hand."""
    lines = GOLDEN.read_text(encoding="utf-8")
    result = invoke(["eval", "--hands", "-", "--lang", "ru"], env=EN_ENV, stdin=lines)
    assert "warning:" not in result.stderr
    assert "предупреждение:" in result.stderr
    assert english_runs(result.stderr) == [], result.stderr
    assert "номер 1111117 встречается 3 раза: в board[0], players[0].pocket[0] и players[1].pocket[0]" in result.stderr
    assert re.search(r"и ещё \d+ номер(а|ов)? встречаю?тся в двух местах одной раздачи", result.stderr), result.stderr
    odds = {"position": 4, "board": ["1234567", "1234567"],
            "players": [{"name": "alice", "pocket": ["7654321", "0102030"]},
                        {"name": "boris", "pocket": ["9990999", "1234000"]}]}
    result = invoke(["odds", "--hands", "-"], stdin=json.dumps(odds) + "\n")
    assert "предупреждение:" in result.stderr, result.stderr
    assert english_runs(result.stderr) == [], result.stderr


@pytest.mark.parametrize("env", [EN_ENV, RU_ENV], ids=["en", "ru"])
def test_f2_examples_are_never_wrapped_by_the_terminal(env):
    """F2: an example command longer than the screen is continued with `` \\``, its comment on a line above."""
    for path in COMMANDS:
        lines = [ln.rstrip() for ln in invoke([*path, "--help"], env=env).output.splitlines()]
        for before, line in zip(lines, lines[1:]):
            if "dealer-assist" in before and line.strip().startswith("--") and "│" not in line:
                assert before.endswith("\\"), (path, before, line)
            assert not re.search(r"\S\s{3,}# ", line), (path, line)  # no comment trailing a command


def test_f14_command_errors_are_russian(tmp_path):
    """The refusals a new user meets first: score's folder and table photo, a missing profile, eval's count."""
    bad = tmp_path / "bad.jsonl"
    bad.write_text("not json\n", encoding="utf-8")
    cases = [(["score", ROOT / "sample_images" / "tables"], "Ошибка:"),
             (["score", ROOT / "sample_images" / "tables" / "table_1.jpg"], "Ошибка:"),
             (["calibrate", "show", "--calibration", "nosuch"], "Ошибка: Профиля калибровки 'nosuch' нет"),
             (["eval", "--hands", bad], "Не удалось оценить строк с раздачами: 1.")]
    for args, said in cases:
        for result in (invoke([*args, "--lang", "ru"], env=EN_ENV), invoke(args)):
            assert result.exit_code in (1, 2), result.output
            assert said in flat(result.stderr), result.stderr
            assert not [run for run in english_runs(result.stderr) if "line" not in run], result.stderr
