"""Russian output in an 80-column terminal: no word is cut (issue 22 items 1 and 8).

A word cut by a table shows either as rich's ellipsis (``модифицирован…``) or folded over two lines
(``модифицирова`` / ``нная``); both leave a fragment that is no word of the program's own. So the
words of every Russian screen below must each be a word the program's sources hold (the translation
table, its sentences, the guides), and no ellipsis may appear.
"""

from __future__ import annotations

import io
import json
import re
from pathlib import Path

import pytest
from rich.console import Console
from rich.panel import Panel
from rich.text import Text
from typer.testing import CliRunner

from dealer_assist.cli import app
from dealer_assist.i18n import TEXT
from dealer_assist.render import render_showdown
from dealer_assist.rules.formats import parse_hand
from dealer_assist.rules.showdown import evaluate
from ledger_helpers import BOARD, POCKETS, TIE_BOARD, TIE_POCKETS, T0, logged_hand

ROOT = Path(__file__).resolve().parents[1]
GOLDEN = ROOT.parent / "shared" / "golden" / "hands.jsonl"
WIDTH = 80
WORD = re.compile(r"[А-Яа-яЁё]+")


def _vocabulary() -> set[str]:
    words: set[str] = set()
    for path in (ROOT / "dealer_assist").rglob("*.py"):
        words.update(w.lower() for w in WORD.findall(path.read_text(encoding="utf-8")))
    return words


VOCABULARY = _vocabulary()


def cut_words(text: str) -> list[str]:
    """The fragments of ``text`` that are no word of the program's, and any ellipsis line."""
    bad = [w for w in WORD.findall(text) if w.lower() not in VOCABULARY]
    bad += [line for line in text.splitlines() if "…" in line]
    return bad


def rendered(renderable) -> str:
    out = io.StringIO()
    Console(file=out, width=WIDTH, color_system=None, legacy_windows=False).print(renderable)
    return out.getvalue()


def run(*args, stdin=None) -> str:
    result = CliRunner().invoke(app, [str(a) for a in args], input=stdin,
                                env={"COLUMNS": str(WIDTH), "LINES": "24", "LANG": "ru_RU.UTF-8"})
    assert result.exit_code in (0, 1), result.output
    assert "Traceback" not in result.output
    return result.stdout


def test_the_check_finds_a_cut_word():
    table = rendered(Text("модифицированная " * 3))
    assert cut_words(table) == []
    from rich.table import Table

    narrow = Table(width=30)
    for column in ("Игрок", "Почему", "Лучшая рука"):
        narrow.add_column(column)
    narrow.add_row("alice", "d4=0 → вправо к d5=9, модифицированная", "9-8-7 Стрит")
    out = io.StringIO()
    Console(file=out, width=30, color_system=None).print(narrow)
    assert cut_words(out.getvalue())  # folded or cut with an ellipsis: found


def test_every_russian_word_of_the_table_fits_an_80_column_line():
    for key, value in TEXT["ru"].items():
        shown = rendered(Text(value))
        if "…" in value:  # the message's own ellipsis ("… ещё строк"), not a cut
            shown = shown.replace("…", "")
        assert cut_words(shown) == [], key


def test_every_golden_hand_in_russian_as_score_shows_it_cuts_no_word():
    """As score shows a hand: its showdown in a panel (four columns fewer), in Russian."""
    cut = {}
    for number, line in enumerate(GOLDEN.read_text(encoding="utf-8").splitlines(), 1):
        if not line.strip():
            continue
        try:
            showdown = evaluate(parse_hand(json.loads(line)))
        except Exception:  # noqa: BLE001 - the golden file also holds hands the rules refuse
            continue
        text = rendered(Panel(render_showdown(showdown, "ru"), title="hand_01"))
        if cut_words(text):
            cut[number] = cut_words(text)[:3]
    assert cut == {}


def test_eval_odds_rules_and_formats_in_russian_cut_no_word(tmp_path):
    lines = GOLDEN.read_text(encoding="utf-8").splitlines()[:40]
    assert cut_words(run("eval", "--hands", "-", stdin="\n".join(lines) + "\n")) == []
    odds = {"position": 4, "board": ["1234567"], "players": [{"name": "alice", "pocket": ["7654321", "0102030"]},
                                                              {"name": "boris", "pocket": ["9990999", "1234000"]}]}
    assert cut_words(run("odds", "--hands", "-", stdin=json.dumps(odds) + "\n")) == []
    assert cut_words(run("rules")) == []
    assert cut_words(run("formats")) == []


def test_ledger_and_history_in_russian_cut_no_word(tmp_path):
    log = tmp_path / "hands.jsonl"
    records = [logged_hand(("A", "B", "C"), BOARD, POCKETS, chips={"A": 10, "B": 10, "C": 10}, hand=1),
               logged_hand(("A", "B", "C"), TIE_BOARD, TIE_POCKETS, chips={"A": 5, "B": 5, "C": 5}, hand=2,
                           tie_policy="rollover", finished=T0.replace(minute=10))]
    log.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    ledger = run("ledger", "--log", log, "--since", "2025-01-01", "--ante", "1", "--rake", "1")
    assert "Переносится" in ledger or "фиш" in ledger
    assert cut_words(ledger) == []
    assert cut_words(run("history", "--log", log)) == []


@pytest.mark.parametrize("host", ["127.0.0.1", "0.0.0.0"])
def test_the_serve_banner_in_russian_cuts_no_word_and_keeps_the_address_whole(tmp_path, monkeypatch, host):
    from dealer_assist.cli import serve_cmd
    from dealer_assist.spectator.server import Listener

    out = io.StringIO()
    monkeypatch.setattr("dealer_assist.cli.output.report_console",
                        lambda **kw: Console(file=out, width=WIDTH, color_system=None, **kw))
    monkeypatch.setattr("dealer_assist.spectator.server.lan_addresses", lambda include_v6=False: ["192.168.1.20"])
    token = None if host == "127.0.0.1" else "t" * 43
    listener = Listener(None, host, 8765, host == "127.0.0.1")
    serve_cmd.print_banner(listener, token, 30.0, tmp_path / "a-rather-long-folder-name-for-the-hand-log" / "hands.jsonl",
                           tmp_path / "hands.state.json", "ru")
    text = out.getvalue()
    assert cut_words(text) == []
    url = "http://192.168.1.20:8765/?token=" + "t" * 43 if token else "http://127.0.0.1:8765/"
    assert url in text.splitlines()  # one line of its own, never wrapped


def run_in(env_extra: dict, *args) -> str:
    result = CliRunner().invoke(app, [str(a) for a in args],
                                env={"COLUMNS": str(WIDTH), "LINES": "24", "LANG": "ru_RU.UTF-8", **env_extra})
    assert result.exit_code == 0, result.output
    assert "Traceback" not in result.output
    return result.output


def test_calibrate_table_and_show_in_russian_by_the_locale_cut_no_word(tmp_path):
    """`calibrate` follows the one switch too (the locale here, no --lang): its titles are lines of their own
    (as a table's title a long path was cut into the table's width) and its words are Russian."""
    table_1 = ROOT / "sample_images" / "tables" / "table_1.jpg"
    env = {"DEALER_ASSIST_CALIBRATION_DIR": str(tmp_path / "calibration-folder-with-a-rather-long-name")}
    made = run_in(env, "calibrate", "table", "--image", table_1, "--corners", "0,0 1919,0 1919,1079 0,1079",
                  "--table-mm", "1000,700", "--seats", "alice,boris,chen", "--output", "mytable")
    assert "калибровка стола →" in made and "зона" in made
    assert "zone" not in made and "kind" not in made
    assert cut_words(made) == []
    shown = run_in(env, "calibrate", "show", "--calibration", "mytable")
    assert "места по часовой стрелке: alice, boris, chen" in shown and "углы на фото:" in shown
    assert cut_words(shown) == []
    english = run_in(env, "calibrate", "show", "--calibration", "mytable", "--lang", "en")
    assert "seats clockwise: alice, boris, chen" in english


def test_the_ledgers_house_carried_pot_and_indian_meeting_are_said_in_russian():
    from fractions import Fraction

    from dealer_assist.cli.ledger_cmd import _party, meeting_line
    from dealer_assist.ledger import CARRIED_POT, ORGANISER, Meeting

    assert (_party(ORGANISER, "ru").plain, _party(CARRIED_POT, "ru").plain) == ("организатор (рейк)",
                                                                                 "переходящий банк")
    assert _party(ORGANISER).plain == "organiser (rake)"
    done = Meeting("s1", 3, ("ann", "bob", "cid"), ("ann", "bob", "cid"),
                   {"ann": Fraction(6), "bob": Fraction(-3), "cid": Fraction(-3)})
    assert meeting_line(done, "ru").plain == ("Встреча в индийский покер (раздач: 3, сессия s1): каждый игрок сдал "
                                              "по разу; встречу выигрывает ann (+6).")
    going = Meeting("s1", 1, ("ann", "bob"), ("ann",), {"ann": Fraction(2), "bob": Fraction(-2)})
    assert meeting_line(going, "ru").plain.endswith("не окончена, ещё сдают: bob; пока впереди: ann (+2).")
