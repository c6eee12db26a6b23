"""The fifth new-user trial (/work/notes/newuser_findings5.md): what a croupier met in English under ``--lang ru``
(or read wrongly), each through the CLI as typed, in both languages."""

from __future__ import annotations

from pathlib import Path

from dealer_assist.i18n import say

from test_newuser_trial3 import both, refused_alike
from test_russian_everywhere import english_runs, flat

ROOT = Path(__file__).resolve().parents[1]
HAND_01 = ROOT / "sample_images" / "hand_01"


def test_m1_a_single_photo_without_calibration_is_refused_in_russian():
    """M1: ``score sample_images/hand_01/alice-1.jpg --lang ru``: the refusal (with its hint naming the hand's
    folder) was English; the sentence without the hint was in the table, the hint made it unknown."""
    photo = HAND_01 / "alice-1.jpg"
    refused_alike([(["score", photo],
                     f"Error: {photo}: a photo given on its own is read as a whole-table photo, which needs "
                     f"--calibration NAME (the profile whose zones split it into board and seats); to score the hand "
                     f"it belongs to, give its folder {HAND_01}.",
                     f"Ошибка: {photo}: отдельный снимок читается как снимок всего стола, а для него нужен "
                     f"--calibration NAME (профиль, зоны которого делят его на борд и места); чтобы оценить раздачу, "
                     f"к которой он относится, укажите её папку {HAND_01}.")], stream="stderr")


def test_m1_a_loose_photo_not_in_a_hand_folder_has_no_hint(tmp_path):
    """M1: a photo whose folder is no hand is refused without the hint, in both languages."""
    photo = tmp_path / "table.jpg"
    photo.write_bytes((HAND_01 / "alice-1.jpg").read_bytes())
    refused_alike([(["score", photo],
                    f"Error: {photo}: a photo given on its own is read as a whole-table photo, which needs "
                    f"--calibration NAME (the profile whose zones split it into board and seats).",
                    f"Ошибка: {photo}: отдельный снимок читается как снимок всего стола, а для него нужен "
                    f"--calibration NAME (профиль, зоны которого делят его на борд и места).")], stream="stderr")


def test_m2_result_file_paths_are_refused_in_russian(tmp_path):
    """M2: ``score … --json sample_images`` / ``--csv /tmp`` / ``--json /nonexist/dir/x.json`` in Russian said
    "cannot write X: it is a folder." and "… the folder … does not exist."."""
    missing = tmp_path / "nonexist" / "x.json"
    same = tmp_path / "out.txt"
    refused_alike([(["score", HAND_01, "--json", tmp_path], f"Error: cannot write {tmp_path}: it is a folder.",
                    f"Ошибка: нельзя записать {tmp_path}: это папка."),
                   (["score", HAND_01, "--csv", tmp_path], f"Error: cannot write {tmp_path}: it is a folder.",
                    f"Ошибка: нельзя записать {tmp_path}: это папка."),
                   (["score", HAND_01, "--json", missing],
                    f"Error: cannot write {missing}: the folder {missing.parent} does not exist.",
                    f"Ошибка: нельзя записать {missing}: папки {missing.parent} нет."),
                   (["score", HAND_01, "--json", same, "--csv", same],
                    f"Error: --json and --csv both name {same}; give two different files.",
                    f"Ошибка: --json и --csv называют один и тот же файл {same}; укажите два разных файла.")],
                  stream="stderr")
    assert not same.exists() and list(tmp_path.iterdir()) == []  # nothing written on a refusal


def test_m2_read_of_an_empty_file_is_refused_in_russian(tmp_path):
    """M2: ``read EMPTY --lang ru`` said "…: the file is empty."."""
    empty = tmp_path / "empty.jpg"
    empty.write_bytes(b"")
    en, ru, ru_locale = both(["read", empty])
    assert en.exit_code == ru.exit_code == ru_locale.exit_code != 0
    assert flat(en.stderr) == f"Error: {empty}: the file is empty."
    for result in (ru, ru_locale):
        assert flat(result.stderr) == f"Ошибка: {empty}: файл пуст.", result.stderr


def test_m3_live_s_refused_command_lines_are_said_in_russian():
    """M3: ``printf 'fold P9\\nchips P1 x\\n…' | live …`` under a Russian locale: "Refused: 'P9' is not a seat …"
    on stderr amid Russian answers. Now the dashboard's own sentence (the one translation), lower case after the
    colon."""
    live = ["live", "--camera", ROOT / "sample_images" / "tables" / "table_1.jpg", "--calibration", "sample_table_1",
            "--position", "4", "--no-ocr", "--no-window", "--no-log"]
    typed = "serial board 1 3173562\nfold P9\nchips P1 x\nshowdown\nquit\n"
    en, ru, ru_locale = both(live, stdin=typed)
    assert en.exit_code == ru.exit_code == ru_locale.exit_code == 0, en.output
    seat = "'P9' is not a seat (P1, P2, P3, P4)."
    chips = "Give the seat and a whole number of chips, e.g. 'chips P3 25'."
    assert en.stderr.splitlines()[:2] == [f"Refused: {seat}", "Refused: give the seat and a whole number of chips, "
                                                              "e.g. 'chips P3 25'."], en.stderr
    for result in (ru, ru_locale):
        lines = result.stderr.splitlines()
        assert lines[:2] == ["Отклонено: 'P9' — не место за столом (P1, P2, P3, P4).",
                             "Отклонено: укажите место и целое число фишек, например 'chips P3 25'."], result.stderr
        # the same words as the dashboard's (say() of the one sentence), not a second translation
        assert lines[0] == f"Отклонено: {say(seat, 'ru')}"
        assert lines[1] == "Отклонено: " + say(chips, "ru")[0].lower() + say(chips, "ru")[1:]
        assert english_runs(result.stderr) == [], result.stderr


def test_m4_eval_s_position_refusal_has_no_english_word():
    """M4: ``eval -p 9 … --lang ru`` said "position должно быть от 1 до 7, а не 9" (the field's English name,
    which the option's name already gives)."""
    args = ["eval", "-p", "9", "-b", "1234567", "--player", "a=1234567,2345678", "--player", "b=3456789,4567890"]
    refused_alike([(args, "Invalid value for '--position': must be from 1 to 7, got 9.",
                    "Неверное значение '--position': должно быть от 1 до 7, а не 9.")])
    for result in both(args)[1:]:
        assert "position должно" not in flat(result.output)


def _player_rows(output: str, names: tuple[str, ...]) -> dict[str, list[str]]:
    """The player column's lines of each player's section in ``eval``'s table, by name."""
    sections: dict[str, list[str]] = {}
    current = None
    for line in output.splitlines():
        if line.startswith(("Winner", "Победител")):
            break  # the pots' table follows
        if "│" not in line:
            continue
        cell = line.split("│")[0].strip()
        if cell in names:
            current = cell
            sections[current] = []
        if current is not None and cell:
            sections[current].append(cell)
    return sections


def test_m5_eval_s_chips_say_what_each_put_in_and_gets():
    """M5: ``eval … --chips dana=10 --chips egor=10 --chips gleb=25`` showed "Chips: 0 / 30 / 15" under the names
    (the payout, under the word of the option that gave what they put in); gleb "Chips: 15" read as "put in 15".
    Now each says what they put in and what they get, in both languages."""
    args = ["eval", "-p", "2", "--zero-joker", "per-zero", "-b", "5496959", "-b", "5690211", "-b", "5282206",
            "--player", "dana=5418135,7296136", "--player", "egor=9297290,2018666", "--player", "gleb=4689358,0328602",
            "--chips", "dana=10", "--chips", "egor=10", "--chips", "gleb=25"]
    en, ru, ru_locale = both(args)
    names = ("dana", "egor", "gleb")
    assert en.exit_code == ru.exit_code == ru_locale.exit_code == 0, en.output
    assert _player_rows(en.stdout, names) == {"dana": ["dana", "loses", "put in 10", "gets 0"],
                                              "egor": ["egor", "wins", "put in 10", "gets 30"],
                                              "gleb": ["gleb", "loses", "put in 25", "gets 15"]}, en.stdout
    for result in (ru, ru_locale):
        assert _player_rows(result.stdout, names) == {
            "dana": ["dana", "проигрывает", "внесено 10", "получает 0"],
            "egor": ["egor", "выигрывает", "внесено 10", "получает 30"],
            "gleb": ["gleb", "проигрывает", "внесено 25", "получает 15"]}, result.stdout
    for result in (en, ru, ru_locale):
        assert "Chips:" not in result.stdout and "Фишки:" not in result.stdout
        assert max(len(line) for line in result.stdout.splitlines()) <= 80
    # the pots still say where the chips go: main 30 to egor, side 1 15 back to gleb
    assert [line.split()[:4] for line in en.stdout.splitlines() if line.startswith((" main", " side"))] == [
        ["main", "│", "30", "│"], ["side", "1", "│", "15"]]


def test_m5_indian_eval_s_chips_under_the_result():
    """M5, Indian poker (one row a player): the chips line under the result, "put in 2 · gets 6"."""
    args = ["eval", "--game", "indian", "--position", "4", "--player", "anna=7654321", "--player", "boris=9990999",
            "--chips", "anna=2", "--chips", "boris=2"]
    en, ru, _ = both(args)
    assert _player_rows(en.stdout, ("anna", "boris")) == {"anna": ["anna", "loses", "put in 2 · gets 0"],
                                                          "boris": ["boris", "wins", "put in 2 · gets 4"]}, en.stdout
    assert _player_rows(ru.stdout, ("anna", "boris")) == {
        "anna": ["anna", "проигрывает", "внесено 2 · получает 0"],
        "boris": ["boris", "выигрывает", "внесено 2 · получает 4"]}, ru.stdout


def test_l2_usage_lines_name_their_arguments_in_capitals():
    """L2: ``calibrate check PHOTO`` (no --output) showed ``Usage: … [OPTIONS] {image}`` (the parameter's name),
    where read and score show ``{PHOTO}...``, ``{PATH}...`` (typer's braces: a required argument); so did
    ``calibrate notes`` ``{images}...`` and ``calibrate use`` ``{name}``."""
    for args, usage in ((["calibrate", "check", ROOT / "sample_images" / "tables" / "table_1.jpg"],
                         "calibrate check [{}] {{PHOTO}}"),
                        (["calibrate", "notes"], "calibrate notes [{}] {{PHOTO}}..."),
                        (["calibrate", "use"], "calibrate use [{}] {{NAME}}")):
        en, ru, _ = both(args)
        assert en.exit_code == ru.exit_code == 2
        assert usage.format("OPTIONS") in en.output, en.output
        assert usage.format("ПАРАМЕТРЫ") in ru.output, ru.output


def test_l6_read_s_wrong_paths_exit_2_as_score_s(tmp_path):
    """L6: ``read FOLDER`` / ``read MISSING`` exited 1; ``score`` and ``calibrate check`` exit 2 for a wrong path.
    A photo that cannot be decoded is still 1 (the others are read)."""
    broken = tmp_path / "broken.jpg"
    broken.write_bytes(b"not a jpeg")
    for path in (ROOT / "sample_images", tmp_path / "nofile.jpg"):
        en, ru, _ = both(["read", path])
        assert en.exit_code == ru.exit_code == 2, en.output
    assert both(["read", broken])[0].exit_code == 1


def test_l3_a_key_s_box_refuses_with_the_example_it_takes():
    """L3: the ``c`` box (opened with ``chips ``) refused ``P2 abc`` with "e.g. 'chips P3 25'", the stdin form,
    which the box does not take; ``p`` then ``9`` with "'position 5'". Now the box's own form, in both languages;
    the stdin form keeps its example."""
    from dealer_assist.live.commands import KeyInput

    for key, typed, english, russian in (
            ("c", "P2 abc", "Give the seat and a whole number of chips, e.g. 'P3 25'.",
             "Укажите место и целое число фишек, например 'P3 25'."),
            ("p", "9", "Give the playing position as one number from 1 to 7, e.g. '5'.",
             "Укажите игровое место одним числом от 1 до 7, например '5'."),
            ("f", "P1 P2", "Give the seat to fold, e.g. 'P3' or '3'.",
             "Укажите место, которое сбрасывает, например 'P3' или '3'."),
            ("e", "board", "Give the note and its 7 digits, e.g. 'board 2 1234567' or 'P3 1 7654321'.",
             "Укажите купюру и её 7 цифр, например 'board 2 1234567' или 'P3 1 7654321'.")):
        box = KeyInput()
        for k in key + typed + "\r":
            assert box.feed(k) is None
        assert box.error == english
        assert say(box.error, "ru") == russian
    assert (say("Give the seat and a whole number of chips, e.g. 'chips P3 25'.", "ru")
            == "Укажите место и целое число фишек, например 'chips P3 25'.")


def test_l4_indian_poker_s_dashboard_says_betting_and_refuses_a_seat_without_the_board():
    """L4: ``live --game indian`` showed "Indian poker (preflop)" (no board, no flop) and refused ``P9 1 …`` with
    "is neither the board nor a seat" (there is no board in Indian poker)."""
    live = ["live", "--camera", ROOT / "sample_images" / "tables" / "table_1.jpg", "--calibration", "sample_table_1",
            "--position", "4", "--no-ocr", "--no-window", "--no-log", "--game", "indian"]
    en, ru, ru_locale = both(live, stdin="P9 1 1234567\nP1 1 7008302\n")
    assert en.exit_code == ru.exit_code == ru_locale.exit_code == 0, en.output
    assert "Indian poker (betting)" in en.stdout and "preflop" not in en.stdout, en.stdout
    assert "Refused: 'P9' is not a seat (P1, P2, P3, P4)." in en.stderr.splitlines()
    for result in (ru, ru_locale):
        assert "Индийский покер (торговля)" in result.stdout and "префлоп" not in result.stdout, result.stdout
        assert "Отклонено: 'P9' — не место за столом (P1, P2, P3, P4)." in result.stderr.splitlines()
    holdem = both(live[:-2], stdin="P9 1 1234567\n")[0]
    assert "Refused: 'P9' is neither the board nor a seat (P1, P2, P3, P4)." in holdem.stderr.splitlines()


def test_l5_a_one_frame_a_second_recording_is_shown_at_1_fps(monkeypatch):
    """L5: ``live --fps 1 --realtime`` showed "2.0 fps" (two frames a second apart counted over one second)."""
    import numpy as np

    from dealer_assist.live.frame_source import Frame
    from dealer_assist.live.session import LiveOptions, LiveSession
    from dealer_assist.live.table_state import TableState
    from dealer_assist.live.worker import InlineWorker
    from live_helpers import plain_profile
    from test_readability import _frame_loop

    session = LiveSession(plain_profile((320, 180), ["P1", "P2"]), TableState(("P1", "P2"), 4),
                          InlineWorker(read=lambda job: ()), LiveOptions(ocr=False))
    loop = _frame_loop(session, False, monkeypatch)
    image = np.zeros((180, 320, 3), np.uint8)
    for second in range(4):
        assert loop.take_frame(Frame(image, second, float(second)), 100.0 + second)
    assert loop.fps == 1.0
    for i in range(30):  # then 30 frames in a second
        loop.take_frame(Frame(image, 10 + i, 10 + i / 30), 200.0 + i / 30)
    assert abs(loop.fps - 30.0) < 0.01


def test_l5_l7_the_last_dashboard_without_a_terminal_has_no_keys_no_rate_and_no_repeated_answer():
    """L7: after ``quit`` on standard input: "Quitting." twice (the answer, then the dashboard's answer line), the
    key line and "· e types a serial" (no key does anything there); L5: "0.0 fps" in that last dashboard."""
    live = ["live", "--camera", ROOT / "sample_images" / "tables" / "table_1.jpg", "--calibration", "sample_table_1",
            "--position", "4", "--no-ocr", "--no-window", "--no-log"]
    en, ru, _ = both(live, stdin="P1 1 7008302\nquit\n")
    assert en.exit_code == ru.exit_code == 0, en.output
    assert en.stdout.count("Quitting.") == 1 and ru.stdout.count("Выход.") == 1, en.stdout
    for result, keys, key_hint, rate in ((en, "n:new-hand", "e types a serial", "fps"),
                                         (ru, "n:новая", "e — ввести номер", "кадр/с")):
        assert keys not in result.stdout and key_hint not in result.stdout and rate not in result.stdout, result.stdout
    assert "Waiting for: fewer than 2 seats have notes: waiting for the deal." in flat(en.stdout)


def test_low_a_review_table_s_confidences_line_up():
    """Trial 5 (low): a hand needing review listed confidences "0,98" above "0,927" (as rounded, then written):
    the column did not line up. Now two decimals each, as read's table, in the language's way."""
    import io

    from rich.console import Console

    from dealer_assist.app.verdicts import HandScore, Verdict
    from dealer_assist.cli.score_report import hand_report

    notes = [{"image": "board.jpg", "seat": "board", "serial": "1234567", "confidence": 0.98},
             {"image": "alice.jpg", "seat": "alice", "serial": "7654321", "confidence": 0.927},
             {"image": "alice.jpg", "seat": "alice", "serial": None, "confidence": 0.0}]
    for lang, shown in (("en", ["0.98", "0.93", "0.00"]), ("ru", ["0,98", "0,93", "0,00"])):
        sc = HandScore(folder="/h/hand_09", status=Verdict.NEEDS_REVIEW, settings={}, notes=notes,
                       reasons=["no board photo (board.jpg or board-1.jpg ...)."])
        console = Console(file=io.StringIO(), width=80, color_system=None)
        console.print(hand_report(sc, lang))
        rows = [line for line in console.file.getvalue().splitlines() if ".jpg" in line and line.count("│") == 5]
        # (the panel's border, then image │ seat │ serial │ confidence)
        assert [row.split("│")[4].strip() for row in rows] == shown, console.file.getvalue()
        ends = {len(row.split("│")[4].rstrip()) for row in rows}
        assert len(ends) == 1  # right-justified, same width: lined up


def test_low_the_ledger_s_title_says_the_buy_in_is_the_ante_and_the_rake(tmp_path):
    """Trial 5 (low): ``ledger --ante 1 --rake 1`` titled "ante 1, rake 1 per player and hand" over a "Buy-ins"
    column of 2 a hand: nothing said that the buy-in is the ante and the rake (the house rule)."""
    from test_newuser_trial3 import invoke

    log = tmp_path / "hands.jsonl"
    typed = ("board 1 2572845\nboard 2 4596100\nboard 3 5464922\nchips P1 20\nchips P2 20\nP1 1 7008302\n"
             "P1 2 5546980\nP2 1 4448050\nP2 2 7040820\nshowdown\nnew\n")
    made = invoke(["live", "--camera", ROOT / "sample_images" / "tables" / "table_1.jpg", "--calibration",
                   "sample_table_1", "--position", "4", "--no-ocr", "--no-window", "--log", log], stdin=typed)
    assert made.exit_code == 0, made.output
    en, ru, _ = both(["ledger", "--log", log, "--ante", "1", "--rake", "1"])
    assert en.exit_code == ru.exit_code == 0, en.output
    assert "Buy-in 2 per player and hand (ante 1 + rake 1)" in flat(en.stdout) and "Buy-ins" in en.stdout
    assert "Бай-ин 2 с игрока за раздачу (анте 1 + рейк 1)" in flat(ru.stdout) and "Бай-ины" in ru.stdout
    assert max(len(line) for line in (en.stdout + ru.stdout).splitlines()) <= 80


def test_low_the_serial_prompt_s_hint_never_breaks_a_note_s_name():
    """Trial 5 (low): the ``e`` box's hint on 80 columns broke "board" / "1" over two lines (ru: "ещё без номера:
    board" then "1, board 2, …"). Now it wraps between the notes, never inside one, in both languages."""
    import io
    import re

    from rich.console import Console

    from dealer_assist.live.dashboard import LiveStatus, render_dashboard
    from dealer_assist.live.session import LiveOptions, LiveSession
    from dealer_assist.live.table_state import TableState
    from dealer_assist.live.worker import InlineWorker
    from live_helpers import plain_profile

    seats = ("P1", "P2", "P3", "P4")
    state = TableState(seats, 4).with_in_play("P1").with_in_play("P2").with_in_play("P3")
    session = LiveSession(plain_profile((320, 180), list(seats)), state, InlineWorker(read=lambda job: ()),
                          LiveOptions(ocr=False))
    for lang in ("en", "ru"):
        console = Console(file=io.StringIO(), width=80, height=24, color_system=None)
        console.print(render_dashboard(session.view(), LiveStatus("ok", 1.0, "idle", prompt="serial "), lang, 80, 24))
        lines = console.file.getvalue().splitlines()
        start = next(i for i, line in enumerate(lines) if "0235561" in line)
        hint = lines[start:start + 3]
        assert all(len(line) <= 80 for line in hint)
        assert not any(re.search(r"\b(board|борд|P\d)$", line.rstrip()) for line in hint), hint  # no name cut
        assert not any(re.match(r"\d\b", line) for line in hint), hint
        board = "board" if lang == "en" else "борд"  # the screen's word (sixth trial M8)
        assert f"{board} 1, {board} 2, {board} 3, P1 1" in " ".join(hint), hint


def test_low_no_capital_letter_after_the_dashboard_s_colons():
    """Trial 5 (low): "Ждём: Купюры есть меньше…", "Waiting for: Fewer than 2 seats…", "Отклонено: Укажите…": a
    sentence after a colon starts in lower case (names and abbreviations kept: P3, OCR)."""
    from dealer_assist.i18n import after_colon

    live = ["live", "--camera", ROOT / "sample_images" / "tables" / "table_1.jpg", "--calibration", "sample_table_1",
            "--position", "4", "--no-ocr", "--no-window", "--no-log"]
    en, ru, _ = both(live, stdin="P1 1 7008302\n")
    assert "Waiting for: fewer than 2 seats have notes" in flat(en.stdout), en.stdout
    assert "Ждём: купюры есть меньше чем у 2 мест" in flat(ru.stdout), ru.stdout
    assert [after_colon(s) for s in ("The board", "P3 folded.", "OCR: idle", "'P9' is", "")] == [
        "the board", "P3 folded.", "OCR: idle", "'P9' is", ""]
