"""Issue 14: the croupier's dashboard, readable at a glance on an ordinary terminal and honest in every
state (RULES.md §5). One test (or more) per numbered case of the issue, named after it."""

from __future__ import annotations

import io
import re
from pathlib import Path

import numpy as np
import pytest
from rich.console import Console

from dealer_assist.app.hand_folders import parse_hand_folder
from dealer_assist.app.live_run import LiveConfig, prepare_live, run_live
from dealer_assist.app.photos import ImageReading
from dealer_assist.app.terminal import Croupier
from dealer_assist.app.verdicts import score_hand
from dealer_assist.cli.score_report import hand_report
from dealer_assist.i18n import KEYS_SHORT, knows, say
from dealer_assist.live.commands import COMMAND_NAMES, Command, advise, parse_command
from dealer_assist.live.dashboard import LiveStatus, render_dashboard
from dealer_assist.live.startup import StartupStep, render_startup, show_early, take_early
from dealer_assist.live.session import LiveOptions, LiveSession
from dealer_assist.live.table_state import NoteInfo, TableState
from dealer_assist.live.table_view import table_view
from dealer_assist.live.worker import InlineWorker
from dealer_assist.render import render_showdown
from dealer_assist.rules import Hand, Player, evaluate
from dealer_assist.vision.model import NoteRead

from live_helpers import plain_profile, pseudo_terminal, write_frames

SEATS = ("P1", "P2", "P3", "P4", "P5", "P6")
BOARD = ("1230567", "4445444", "9990999")
POCKETS = {"P1": ("0234561", "7023456"), "P2": ("1114111", "2226222"), "P3": ("5550555", "3337333"),
           "P4": ("8888888", "1010101"), "P5": ("6606666", "1000001"), "P6": ("2342342", "4564564")}


def deal(board=BOARD, pockets=None, statuses=None) -> list[NoteInfo]:
    """The notes the camera follows: trusted unless ``statuses`` says otherwise for a seat's note
    (``{("P2", 1): ("pending", candidates, reason)}``)."""
    pockets = POCKETS if pockets is None else pockets
    statuses = statuses or {}
    out, i = [], 0
    for s in board:
        i += 1
        out.append(NoteInfo(f"t{i}", i, "board", s, "trusted", 0.9, float(i)))
    for seat, pocket in pockets.items():
        for k, s in enumerate(pocket, 1):
            i += 1
            status, candidates, reason = statuses.get((seat, k), ("trusted", (), ""))
            serial = s if status == "trusted" else None
            out.append(NoteInfo(f"t{i}", i, seat, serial, status, 0.9 if serial else 0.0, float(i), candidates, reason))
    return out


def screen(view, status=LiveStatus("ok", 25.0, "idle"), lang="en", width=80, height=24) -> str:
    """The dashboard as a terminal of ``width`` x ``height`` shows it (no colours)."""
    console = Console(file=io.StringIO(), width=width, height=height, color_system=None, record=True)
    console.print(render_dashboard(view, status, lang, width, height))
    return console.export_text()


def showdown_view():
    state = TableState(SEATS, 4, dealer_index=2)
    return table_view(state, deal())


# ------------------------------------------------------------------ case 1: it fits 80x24


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_issue14_1_a_six_player_showdown_fits_80x24(lang):
    view = showdown_view()
    status = LiveStatus("ended", 4.0, "idle", "recording/*.jpg", "end of the recording", message="",
                        prompt="P1 1 02", frame="2560x1440 · 1.5 px/mm", profile="mytable", recording_ended=True)
    text = screen(view, status, lang)
    lines = text.rstrip("\n").split("\n")
    assert len(lines) <= 24, text
    assert all(len(line) <= 80 for line in lines)
    assert "..." not in text and "…" not in text  # nothing cut off
    assert view.complete and view.winners == ("P3",)
    assert ("Winner: P3" if lang == "en" else "Победитель: P3") in text
    assert "> P1 1 02█" in text  # the prompt
    assert KEYS_SHORT[lang] in text  # the one-line key help
    assert "123[0]567" in text  # the board, the digit at P in brackets
    for seat in view.seats:
        serials = [f"{s[:3]}[{s[3]}]{s[4:]}" for s in POCKETS[seat.name]]
        ranks = "-".join(map(str, seat.best.ranks))
        # each seat on one or two lines: its notes, best hand and result
        (at,) = [i for i, line in enumerate(lines) if line.startswith(seat.name + " ")]
        block = lines[at] + " " + (lines[at + 1] if at + 1 < len(lines) and lines[at + 1].startswith(" ") else "")
        assert all(s in block for s in serials), block
        assert ranks in block, block
        result = {"en": {"wins": "WINS", "loses": "loses"}, "ru": {"wins": "ВЫИГРЫВАЕТ", "loses": "проигрывает"}}
        assert result[lang][seat.result] in block


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_issue14_1_a_large_terminal_gets_every_reason(lang):
    view = showdown_view()
    text = screen(view, LiveStatus("ok", 25.0, "idle", profile="mytable"), lang, 120, 40)
    assert len(text.rstrip("\n").split("\n")) <= 40
    why = {"en": "d4=0 → right to d5=5, modified", "ru": "d4=0 → вправо до d5=5, модифицированная"}[lang]
    assert why in text  # the board's first note, with its reason
    assert ("d4=5, natural" if lang == "en" else "d4=5, натуральная") in text
    assert ("Winner: P3" if lang == "en" else "Победитель: P3") in text
    for seat in view.seats:
        assert "-".join(map(str, seat.best.ranks)) in text


def test_issue14_1_a_tiny_terminal_still_shows_the_essentials():
    text = screen(showdown_view(), LiveStatus("ok", 25.0, "idle", prompt=""), "en", 80, 10)
    assert len(text.rstrip("\n").split("\n")) <= 10
    assert "Winner: P3" in text and "> █" in text and KEYS_SHORT["en"] in text
    assert "more line(s): enlarge the terminal" in text


# ------------------------------------------------------------------ case 2: face-down notes are not failures


def test_issue14_2_face_down_notes_are_calm_and_states_are_plain():
    statuses = {("P1", 1): ("blank", (), "no serial seen: face down, or covered"),
                ("P1", 2): ("unreadable", (), "the note was not found in this frame"),
                ("P2", 1): ("pending", (("1114111", 1),), ""),
                ("P2", 2): ("unreadable", (), "the reads disagree (2226222, 2226228)")}
    view = table_view(TableState(SEATS[:2], 4), deal(board=(), pockets={s: POCKETS[s] for s in SEATS[:2]},
                                                     statuses=statuses))
    console = Console(file=io.StringIO(), width=80, height=24, color_system="truecolor", record=True)
    console.print(render_dashboard(view, LiveStatus("ok", 25.0, "reading"), "en", 80, 24))
    text = console.export_text(clear=False)
    html = console.export_html(inline_styles=True)
    p1 = next(line for line in text.splitlines() if line.startswith("P1 "))
    assert "face down" in p1 and "cannot be read" not in p1 and "not found" not in p1
    p2 = next(line for line in text.splitlines() if line.startswith("P2 "))
    assert "being read" in p2 and "cannot be read" in p2  # two states, two plain words
    assert not re.search(r'color: #808000[^"]*">face down', html)  # not yellow: calm
    # the full layout says why, and what to do
    wide = screen(view, LiveStatus("ok", 25.0, "reading"), "en", 140, 40)
    assert "1114111?  being read (reads: 1; the camera is reading it; it plays once read alike 2 times)" in wide
    assert "cannot be read: the reads disagree (2226222, 2226228); type it: e P2 2 NNNNNNN" in wide
    assert "face down or covered" in wide and "the note was not found" not in wide


# ------------------------------------------------------------------ case 3: the last thing typed is answered


def session_for(seats=("P1", "P2")) -> LiveSession:
    profile = plain_profile((320, 180), list(seats))
    return LiveSession(profile, TableState(tuple(seats), 4), InlineWorker(read=lambda job: ()), LiveOptions(ocr=False))


def test_issue14_3_a_typing_mistake_replaces_the_previous_answer():
    session = session_for()
    croupier = Croupier(session)
    croupier.line("board 4 1234567")  # refused by the session
    assert croupier.feedback.text == "the board has notes 1 to 3, not 4."
    for k in "e" + "hello" + "\r":
        croupier.key(k)
    answer = croupier.feedback.text
    # the parser's sentence, its examples as the e box takes them (no 'serial ' before them: trial 5, L3)
    assert answer == str(pytest.raises(ValueError, parse_command, "serial hello").value).replace("'serial ", "'")
    text = screen(session.view(), LiveStatus("ok", 25.0, "idle", message=croupier.feedback.text), "en")
    assert "Give the note and its 7 digits" in text and "not 4" not in text
    ru = screen(session.view(), LiveStatus("ok", 25.0, "idle", message=croupier.feedback.text), "ru")
    assert "Укажите купюру и её 7 цифр" in ru


# ------------------------------------------------------------------ case 4: wording


def test_issue14_4_rank_alternatives_are_written_as_score_and_eval_write_them():
    # P1's 0235561 at P=4 plays 5 natural; 7020456 (d4=0: right 4, or left 2) is not in the best hand
    pockets = {"P1": ("0235561", "7020456"), "P2": POCKETS["P2"]}
    view = table_view(TableState(SEATS[:2], 4), deal(pockets=pockets))
    wide = screen(view, LiveStatus(), "en", 140, 40)
    assert "(+" not in wide
    assert "d4=0 → right to d5=4, modified (not played; also 2)" in wide
    showdown = evaluate(Hand(4, BOARD, tuple(Player(n, p) for n, p in pockets.items())))
    console = Console(file=io.StringIO(), width=160, color_system=None)
    console.print(render_showdown(showdown, "en"))
    assert "d4=0 → right to d5=4, modified (not played; also 2)" in console.file.getvalue()


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_issue14_5_a_winner_without_chips_and_missing_chips_are_said(lang):
    # chips for P1-P3 only, P3 folded; P4 has the best hand
    seats = ("P1", "P2", "P3", "P4")
    pockets = {"P1": ("1111111", "2222222"), "P2": ("3333333", "4444444"), "P3": ("5555555", "6666666"),
               "P4": ("9999999", "9990999")}
    board = ("1119111", "1118111", "1117111")
    state = TableState(seats, 4).with_chips("P1", 25).with_chips("P2", 25).with_chips("P3", 25).with_fold("P3")
    view = table_view(state, deal(board=board, pockets=pockets))
    assert view.winners == ("P4",)
    text = screen(view, LiveStatus(), lang, 80, 24)
    missing = {"en": "No chips entered for P4: counted as 0.", "ru": "Фишки не введены для P4: считаются как 0."}
    winner = {"en": "P4 wins but put in no chips", "ru": "P4 выигрывает, но не вносил фишек"}
    flat = " ".join(text.split())
    assert missing[lang] in flat and winner[lang] in flat
    # eval's human output says the same
    showdown = evaluate(Hand(4, board, tuple(Player(n, p, {"P4": None}.get(n, 25), folded=n == "P3")
                                              for n, p in pockets.items())))
    console = Console(file=io.StringIO(), width=160, color_system=None)
    console.print(render_showdown(showdown, lang))
    out = " ".join(console.file.getvalue().split())
    assert missing[lang] in out and winner[lang] in out


def test_issue14_4_recording_ended_states_and_the_profile():
    statuses = {("P1", 1): ("pending", (("0235561", 1),), "")}
    view = table_view(TableState(SEATS[:4], 4), deal(pockets={s: POCKETS[s] for s in SEATS[:4]}, statuses=statuses))
    assert "P1 1: the camera is still reading this note." in view.waiting
    ended = LiveStatus("ended", 4.0, "idle", camera_detail="end of the recording", profile="mytable",
                       recording_ended=True)
    for width, height in ((80, 24), (140, 40)):
        text = " ".join(screen(view, ended, "en", width, height).split())
        assert "camera: recording ended" in text and "end of the recording)" not in text
        assert "profile: mytable" in text
        assert "still reading" not in text and "being read" not in text
        assert "not read" in text and "e P1 1 NNNNNNN" in text
    ru = " ".join(screen(view, ended, "ru", 140, 40).split())
    assert "камера: запись закончилась" in ru and "профиль: mytable" in ru
    assert "не прочитана до конца записи; введите номер (e P1 1 NNNNNNN)" in ru
    # while the recording plays, the same note is being read
    playing = " ".join(screen(view, LiveStatus("ok", 4.0, "reading"), "en", 140, 40).split())
    assert "being read" in playing and "P1 1: the camera is still reading this note." in playing


# ------------------------------------------------------------------ case 6: a start-up screen at once


def test_issue14_6_the_startup_screen_says_what_is_loading():
    console = Console(file=io.StringIO(), width=80, color_system=None, record=True)
    console.print(render_startup([StartupStep("step_profile", "done"), StartupStep("step_camera", "done"),
                                  StartupStep("step_log", "skip"), StartupStep("step_ocr", "busy")], "ru"))
    text = console.export_text()
    assert "dealer-assist live запускается" in text
    assert "профиль калибровки  готово" in text and "модели OCR (около 15 с)  загружается…" in text


def test_issue14_6_live_shows_the_startup_screen_before_the_dashboard(tmp_path, monkeypatch):
    frames = write_frames(tmp_path / "frames", 2)
    profile = plain_profile((320, 180), ["P1", "P2"], tmp_path / "table.json")
    monkeypatch.setattr("sys.stdin", io.StringIO("board 1 1234567\n"))
    out = io.StringIO()
    console = Console(file=out, width=80, height=24, force_terminal=True, color_system=None)
    config = LiveConfig(camera=frames, calibration=str(profile.path), position=4, window=False, ocr=False)
    run = prepare_live(config, console)
    assert run.screen is not None
    first = out.getvalue()
    assert "dealer-assist live is starting" in first and "calibration profile" in first and "Hand 1" not in first
    outcome = run_live(run)
    assert outcome.code == 0
    text = out.getvalue()
    assert text.index("is starting") < text.rindex("Hand 1")
    assert "board 1: serial 1234567 typed." in text


# ------------------------------------------------------------------ case 7: complete Russian


ALLOWED = {"exit", "Straight", "Pair", "High", "Set", "OCR", "px", "mm", "NNNNNNN", "mytable", "jpg", "json", "dealer",
           "assist", "calibrate", "check", *COMMAND_NAMES}


def english_words(text: str) -> set[str]:
    """Latin words of 3 letters and more, leaving out quoted command examples and the allowed ones."""
    text = re.sub(r"'[^']*'", "", text)
    return {w for w in re.findall(r"[A-Za-z]{3,}", text) if w not in ALLOWED}


def test_issue14_7_the_dashboard_in_russian_has_no_english_fragment():
    statuses = {("P1", 1): ("blank", (), "no serial seen: face down, or covered"),
                ("P1", 2): ("unreadable", (), "the note was not found in this frame"),
                ("P2", 1): ("pending", (("1114111", 1),), ""),
                ("P2", 2): ("unreadable", (), "the reads disagree (2226222, 2226228)"),
                ("P3", 1): ("out_of_format", (), "a 9-digit serial (123456789, 2017 series) is out of format for the game")}
    pockets = {s: POCKETS[s] for s in SEATS[:4]}
    stray = [NoteInfo("t90", 90, None, "4444444", "trusted", 0.9, 90.0)]
    state = TableState(SEATS, 4).with_chips("P1", 10)
    views = [table_view(state, deal(board=BOARD[:2], pockets=pockets, statuses=statuses) + stray),
             table_view(TableState(SEATS, 4), []),
             table_view(state, deal(pockets={**pockets, "P4": ("1230567", "7777777")}))]  # one serial in two places
    statuses_ = [LiveStatus("ok", 25.0, "reading, 3 queued", "camera 0", message="the board has notes 1 to 3, not 4.",
                            warning="Serial digits are too small to read in 2 zone(s) (px/mm: P1 2.1, P2 1.9); digits ~6 "
                                    "px, the reader needs 7 px (2.4 px/mm): it needs 1.3x the pixels per mm: use a "
                                    "higher camera resolution, bring the camera closer or zoom in, or use a smaller "
                                    "mat."),
                 LiveStatus("lost", 0.0, "error: the OCR process stopped (exit 1); it was restarted.",
                            camera_detail="the camera stopped delivering frames (no frame); retrying in 4 s"),
                 LiveStatus("ended", 4.0, "loading", camera_detail="end of the recording", recording_ended=True),
                 LiveStatus("starting", 0.0, "off (type the serials)")]
    for view in views:
        for status in statuses_:
            for width, height in ((80, 24), (140, 50)):
                text = screen(view, status, "ru", width, height)
                assert english_words(text) == set(), (english_words(text), text)
                if width == 80:
                    assert "модифицирова…" not in text


def test_issue14_7_every_sentence_of_the_live_commands_has_its_russian():
    session = session_for(("P1", "P2", "P3"))
    lines = ["position 5", "random", "showdown", "showdown", "fold P1", "fold 1", "in P2", "out P2", "chips P3 25",
             "board 1 1234567", "board 1 -", "P2 1 7654321", "undo", "fold NOBODY", "board 9 1234567",
             "serial dana 1 1234567", "serial board 1 12a4567", "serial", "nothing", "p 9", "chips P1 x", "new", "undo"]
    said = []
    for line in lines:
        try:
            said.append(session.command(parse_command(line)))
        except ValueError as exc:
            said.append(str(exc))
    t = Croupier(session_for(), "ru")
    said.append(t.line("s")[0])  # refused on an empty hand, said in Russian already
    unknown = [s for s in said if not knows(s) and english_words(s)]
    assert unknown == []
    for s in said:
        assert english_words(say(s, "ru")) == set(), (s, say(s, "ru"))


def test_issue14_7_score_review_reasons_in_russian(tmp_path):
    hand = tmp_path / "hand_01"
    hand.mkdir()
    for name in ("board.jpg", "alice.jpg", "boris-1.jpg", "boris-2.jpg", "notes.txt", ".hidden.jpg",
                 "alice copy.jpg"):
        (hand / name).write_bytes(b"x")
    (hand / "sub").mkdir()
    (hand / "hand.json").write_text('{"serials": {"nobody.jpg": ["1234567"]}}', encoding="utf-8")
    folder = parse_hand_folder(hand)
    quad = np.zeros((4, 2), np.float32)
    readings = {str(hand / "board.jpg"): ImageReading(str(hand / "board.jpg"), [
        NoteRead(None, None, 0.0, quad, "unreadable", "the reads disagree (1234567, 1234568)", []),
        NoteRead(None, None, 0.0, quad, "out_of_format", "a 9-digit serial (123456789, 2017 series) is out of "
                                                         "format for the game", [])]),
        str(hand / "alice.jpg"): ImageReading(str(hand / "alice.jpg"), error="alice.jpg: the reader failed on this "
                                                                            "photo (—).")}
    sc = score_hand(folder, readings)
    assert len(sc.reasons) >= 8
    for reason in sc.reasons:
        assert knows(reason), reason
        shown = re.sub(r"alice copy\.jpg|\S*\.\w+|sub/", "", say(reason, "ru"))
        assert english_words(shown) == set(), shown
    console = Console(file=io.StringIO(), width=200, color_system=None)
    console.print(hand_report(sc, "ru"))
    out = console.file.getvalue()
    assert "требует проверки" in out and "прочтения расходятся (1234567, 1234568)" in out
    assert "по-английски" not in out


def test_issue14_7_history_in_russian(tmp_path):
    from typer.testing import CliRunner

    from dealer_assist.cli import app

    from datetime import datetime, timezone

    from dealer_assist.live.history import HandLog, hand_record

    log = tmp_path / "hands.jsonl"
    view = table_view(TableState(("P1", "P2"), 4).with_serial("board#1", "1234567"), [])
    now = datetime(2025, 1, 1, 20, 0, tzinfo=timezone.utc)
    HandLog(log).append(hand_record(view, session="s", started=now, finished=now, end="quit"))
    r = CliRunner().invoke(app, ["history", "--log", str(log), "--lang", "ru"], env={"COLUMNS": "200"})
    assert r.exit_code == 0, r.output
    assert "раздач: 1" in " ".join(r.output.split()) and "не решена" in r.output and "победители" in r.output
    r = CliRunner().invoke(app, ["history", "--log", str(log), "--lang", "ru", "--show", "1"], env={"COLUMNS": "200"})
    assert r.exit_code == 0, r.output
    assert "Вскрытие неполное" in r.output and "выход" in r.output and "Победители в журнале: нет" in r.output


# ------------------------------------------------------------------ case 8: the smaller ones


def test_issue14_8_showdown_on_an_empty_hand_is_refused_with_a_sentence():
    session = session_for()
    croupier = Croupier(session)
    msg, refused = croupier.line("s")
    assert refused and msg.startswith("Nothing to show down") and not session.state.showdown_called
    # with notes out, it is called and says what it means
    croupier.line("board 1 1234567")
    croupier.line("P1 1 7654321")
    msg, refused = croupier.line("showdown")
    assert not refused and session.state.showdown_called and "did not reveal" in msg


def test_issue14_8_a_new_position_after_the_showdown_asks_first():
    session = session_for()
    croupier = Croupier(session)
    for line in ("board 1 1119111", "board 2 1118111", "board 3 1117111", "P1 1 1111111", "P1 2 2222222",
                 "P2 1 3330333", "P2 2 5555555"):
        croupier.line(line)
    assert session.view().complete
    msg, refused = croupier.line("p 5")
    assert refused and session.state.position == 4 and "P=5 would score it anew" in msg and "again" in msg
    croupier.line("fold P1")  # anything else in between: the next p 5 asks again
    croupier.line("fold P1")
    assert croupier.line("p 5")[1] and session.state.position == 4
    msg, refused = croupier.line("p 5")  # the same command again: done
    assert not refused and session.state.position == 5
    assert msg == "P CHANGED AFTER THE DEAL: P=5, was P=4; every note's rank is read at P=5 now."
    assert advise(Command("position", ("5",)), session.view()).run  # the same P changes nothing: no question


def test_issue14_8_pending_notes_after_the_recording_ended_do_not_say_the_camera_reads_them():
    statuses = {("P2", 2): ("pending", (("2226222", 1),), "")}
    view = table_view(TableState(SEATS[:2], 4), deal(pockets={s: POCKETS[s] for s in SEATS[:2]}, statuses=statuses))
    for width, height in ((80, 24), (140, 40)):
        text = screen(view, LiveStatus("ended", 4.0, "idle", recording_ended=True), "en", width, height)
        assert "camera is still reading" not in text and "being read" not in text and "not read" in text


@pytest.mark.slow
def test_issue14_6_the_first_screen_comes_within_seconds_in_a_real_terminal(tmp_path):
    """``live`` in a pseudo-terminal of 80x24: the start-up screen is there long before the OCR models
    could load (about 1 s on an idle 2-core machine; the bound leaves room for a busy one), then the
    dashboard; q quits."""
    import os
    import subprocess
    import sys
    import time

    frames = write_frames(tmp_path / "frames", 3)
    profile = plain_profile((320, 180), ["P1", "P2"], tmp_path / "table.json")
    master, slave, env = pseudo_terminal(80, 24, DEALER_ASSIST_NO_DISPLAY="1")
    t0 = time.monotonic()
    proc = subprocess.Popen([sys.executable, "-m", "dealer_assist", "live", "--camera", frames, "--calibration",
                             str(profile.path), "--position", "4", "--no-log", "--no-window"],
                            stdin=slave, stdout=slave, stderr=slave, env=env, close_fds=True)
    os.close(slave)
    seen, first, dashboard = b"", None, None
    try:
        while time.monotonic() - t0 < 60 and dashboard is None:
            if not __import__("select").select([master], [], [], 0.05)[0]:
                continue
            seen += os.read(master, 65536)
            if first is None and b"is starting" in seen:
                first = time.monotonic() - t0
            if b"Hand 1" in seen:
                dashboard = time.monotonic() - t0
        os.write(master, b"q")
        proc.wait(timeout=30)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        os.close(master)
    print(f"first screen {first:.2f} s, dashboard {dashboard:.2f} s")
    assert first is not None and first < 5.0, seen[-2000:]
    assert dashboard is not None and dashboard >= first
    assert proc.returncode == 0


def test_issue14_6_the_early_screen_is_only_for_live_on_a_terminal(monkeypatch):
    monkeypatch.setattr("sys.stdout.isatty", lambda: False, raising=False)
    assert show_early(["/x/bin/dealer-assist", "live", "--camera", "0"], {}) is None  # not a terminal
    monkeypatch.setattr("sys.stdout.isatty", lambda: True, raising=False)
    for argv in (["/x/bin/dealer-assist", "score", "a"], ["/x/bin/dealer-assist", "live", "--help"],
                 ["/x/bin/dealer-assist", "live", "--json"], ["/usr/bin/pytest", "live"]):
        assert show_early(argv, {}) is None, argv
    assert take_early() is None


def test_the_ocr_worker_process_never_draws_a_start_up_screen(monkeypatch):
    # the spawned OCR worker gets the parent's argv and re-imports the CLI: a screen it drew was left
    # above the dashboard (a stray panel and a border piece, seen in an 80x24 terminal)
    import multiprocessing

    from dealer_assist.live import startup

    argv = ["/x/bin/dealer-assist", "live", "--camera", "0", "--calibration", "t", "--position", "4"]
    monkeypatch.setattr(startup, "_is_live_on_a_terminal", lambda argv: True)
    monkeypatch.setattr(multiprocessing.current_process(), "name", "SpawnProcess-1")
    assert show_early(argv, {}) is None and take_early() is None


def test_issue14_8_what_to_type_keeps_the_command_words_in_russian():
    statuses = {("P1", 1): ("pending", (("0234561", 1),), "")}
    pockets = {s: POCKETS[s] for s in SEATS[:2]}
    view = table_view(TableState(SEATS[:2], 4), deal(board=BOARD[:2], pockets=pockets, statuses=statuses)
                      + [NoteInfo("t50", 50, "board", None, "pending", 0.0, 50.0, (("9990999", 1),))])
    ended = LiveStatus("ended", 4.0, "idle", recording_ended=True)
    wide = " ".join(screen(view, ended, "ru", 140, 40).split())
    assert "борд 3: не прочитана до конца записи; введите номер (e board 3 NNNNNNN)." in wide
    narrow = " ".join(screen(view, ended, "ru", 80, 24).split())
    assert "борд 3 не прочитана (введите: e board 3 NNNNNNN)" in narrow
    croupier = Croupier(session_for(), "ru")
    assert croupier.line("e board 3 9990999") == ("board 3: serial 9990999 typed.", False)  # the words it says to type
