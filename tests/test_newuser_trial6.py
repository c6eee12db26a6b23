"""The sixth new-user trial (/work/notes/newuser_findings6.md): refusals a croupier met in English under
``--lang ru``, and live's fold, each through the CLI as typed, in both languages."""

from __future__ import annotations

from pathlib import Path

from test_newuser_trial3 import both, refused_alike
from test_russian_everywhere import english_runs, flat

ROOT = Path(__file__).resolve().parents[1]
PHOTO = ROOT / "sample_images" / "hand_01" / "alice-1.jpg"


def test_m1_read_debug_dir_refusals_say_why_in_russian(tmp_path):
    """M1: ``read … --debug-dir PHOTO`` said "…: file exists." (the OS's words) in both languages, and
    ``--debug-dir /proc/x`` "no such file or directory" inside Russian."""
    missing = Path("/proc/nonexist-p6/x")
    refused_alike([(["read", PHOTO, "--debug-dir", PHOTO],
                    f"Error: cannot create --debug-dir {PHOTO}: it is a file, not a folder.",
                    f"Ошибка: нельзя создать --debug-dir {PHOTO}: это файл, а не папка."),
                   (["read", PHOTO, "--debug-dir", missing],
                    f"Error: cannot create --debug-dir {missing}: no such file or directory.",
                    f"Ошибка: нельзя создать --debug-dir {missing}: нет такого файла или папки.")], stream="stderr")


def test_m2_eval_s_quick_form_refusals_are_russian():
    """M2: a bare ``eval``, a player name given twice and an unknown ``--dealer`` were English in Russian."""
    two = ["eval", "-p", "4", "--player", "a=1234567,2345678"]
    refused_alike([(["eval"], "Invalid value for '--hands' / '--position': give --hands FILE, or one hand with "
                              "--position, --board and --player (see --help).",
                    "Неверное значение '--hands' / '--position': укажите --hands FILE или одну раздачу через "
                    "--position, --board и --player (см. --help)."),
                   ([*two, "--player", "a=3456789,4567890"],
                    "Invalid value for '--player': a: name 'a' is used by another player.",
                    "Неверное значение '--player': a: имя 'a' уже занято другим игроком."),
                   ([*two, "--player", "b=3456789,4567890", "--dealer", "zz"],
                    "Invalid value for '--dealer': dealer 'zz' is not one of the players.",
                    "Неверное значение '--dealer': дилер 'zz' — не из игроков.")])


def test_m3_calibrate_s_folder_for_output_is_refused_in_russian(tmp_path, monkeypatch):
    """M3: ``calibrate notes|pattern --output FOLDER`` said "… is a folder, not a file, so it is no calibration
    profile. Refusing to overwrite it: …" and "Cannot write … (is a folder)." in Russian."""
    monkeypatch.setenv("DEALER_ASSIST_CALIBRATION_DIR", str(tmp_path / "cal"))
    folder = tmp_path / "out"
    folder.mkdir()
    en, ru, ru_locale = both(["calibrate", "notes", PHOTO, "--output", folder])
    assert en.exit_code == ru.exit_code == ru_locale.exit_code == 2, en.output
    assert flat(en.stderr) == (f"Error: {folder} is a folder, not a file, so it is no calibration profile. Refusing to "
                               f"overwrite it: fix or remove it, or choose another --output.")
    for result in (ru, ru_locale):
        assert flat(result.stderr) == (f"Ошибка: {folder}: это папка, а не файл, так что это не профиль калибровки. "
                                       f"Перезаписывать его не буду: исправьте или удалите его либо выберите другой "
                                       f"--output."), result.stderr
        assert english_runs(result.stderr) == []
    refused_alike([(["calibrate", "pattern", "--output", folder], f"Error: Cannot write {folder} (is a folder).",
                    f"Ошибка: Нельзя записать {folder} (это папка).")], stream="stderr")
    assert list(folder.iterdir()) == []


def test_m4_fold_and_showdown_given_twice_are_refused_not_reversed():
    """M4: ``fold P3`` twice put P3 back in (and P3 won the pot); ``showdown`` twice took the call back. Now the
    second is refused with a sentence saying how to take it back, in both languages; ``in P3`` takes a fold back."""
    live = ["live", "--camera", ROOT / "sample_images" / "tables" / "table_1.jpg", "--calibration", "sample_table_1",
            "--position", "4", "--no-ocr", "--no-window", "--no-log"]
    typed = ("board 1 2572845\nboard 2 4596100\nboard 3 5464922\nchips P1 20\nchips P3 20\nP1 1 7008302\n"
             "P1 2 5546980\nP2 1 4448050\nP2 2 7040820\nP3 1 3989341\nP3 2 6875538\nP4 1 7466061\nP4 2 3709219\n"
             "fold P3\nfold P3\nfold P3\nshowdown\nshowdown\n")
    # every note is typed, so the hand is decided before the fold: the first fold asks (seventh trial), the
    # second folds, the third is refused
    en, ru, ru_locale = both(live, stdin=typed)
    assert en.exit_code == ru.exit_code == ru_locale.exit_code == 0, en.output
    assert [line for line in en.stderr.splitlines() if line.startswith("Refused")] == [
        "Refused: the hand is decided (winner P3): folding P3 would decide it anew. Fold P3 again to fold; anything "
        "else keeps the hand as it is.",
        "Refused: P3 has already folded; 'in P3' takes the fold back.",
        "Refused: the showdown is already called; u takes the call back."]
    assert "P3 folded." in en.stdout and "back in" not in en.stdout and "taken back" not in en.stdout
    p3 = [line for line in en.stdout.splitlines() if line.startswith("P3 ")]
    assert p3 and p3[-1].split()[-1] == "folded" and "WINS" not in p3[-1], p3
    for result in (ru, ru_locale):
        assert [line for line in result.stderr.splitlines() if line.startswith("Отклонено")] == [
            "Отклонено: раздача решена (победитель P3): сброс P3 решит её заново. Сбросьте P3 ещё раз, чтобы сбросить; "
            "любая другая команда оставит раздачу как есть.",
            "Отклонено: P3 уже сбросил; 'in P3' отменяет сброс.",
            "Отклонено: вскрытие уже объявлено; u отменяет объявление."]
    back = both(live, stdin="P3 1 3989341\nfold P3\nin P3\n")[0]
    assert "P3 folded.\nP3 is back in.\n" in back.stdout, back.stdout


def test_m8_the_russian_board_word_and_cyrillic_look_alike_seats_are_taken():
    """M8: ``борд 1 2572845`` (the Russian screen's word) was refused as "'борд' — ни борд, ни место", and ``Р1 1 …``
    typed on a Russian layout (Cyrillic Р) refused beside "P1"; the e box's Russian hint said "board 1"."""
    live = ["live", "--camera", ROOT / "sample_images" / "tables" / "table_1.jpg", "--calibration", "sample_table_1",
            "--position", "4", "--no-ocr", "--no-window", "--no-log"]
    en, ru, ru_locale = both(live, stdin="борд 1 2572845\nР1 1 7008302\nfold Р2\nб2 4596100\nBOARD 3 5464922\n")
    assert en.exit_code == ru.exit_code == ru_locale.exit_code == 0, en.output
    assert "Refused" not in en.stderr and "Отклонено" not in ru.stderr, (en.stderr, ru.stderr)
    assert en.stdout.splitlines()[:5] == ["board 1: serial 2572845 typed.", "P1 1: serial 7008302 typed.",
                                          "P2 folded.", "board 2: serial 4596100 typed.",
                                          "board 3: serial 5464922 typed."], en.stdout
    for result in (ru, ru_locale):
        assert result.stdout.splitlines()[:3] == ["борд 1: номер 2572845 введён.", "P1 1: номер 7008302 введён.",
                                                  "P2: сброс."], result.stdout
    from dealer_assist.live.table_state import latin_look_alikes

    assert latin_look_alikes("Аня") == "Aня"  # only the look-alikes: a Cyrillic name is not turned into Latin


def test_m11_a_second_chips_figure_says_it_replaced_the_first():
    """M11: ``chips P1 20`` then ``chips P1 5`` was answered "P1 put in 5 chips." (as if added to the 20); the
    figure is the seat's total for the hand, and the answer now says so, with what it was; the box's hint too."""
    live = ["live", "--camera", ROOT / "sample_images" / "tables" / "table_1.jpg", "--calibration", "sample_table_1",
            "--position", "4", "--no-ocr", "--no-window", "--no-log"]
    en, ru, _ = both(live, stdin="chips P1 20\nchips P1 5\nchips P1 5\n")
    assert en.stdout.splitlines()[:3] == ["P1 put in 20 chips.", "P1: 5 chips in this hand in all (was 20).",
                                          "P1 put in 5 chips."], en.stdout
    assert ru.stdout.splitlines()[:2] == ["P1 внёс фишек: 20.", "P1: всего фишек в этой раздаче: 5 (было 20)."]
    from dealer_assist.i18n import texts

    assert "in this hand in all" in texts("en")["prompt_chips"] and "в этой раздаче" in texts("ru")["prompt_chips"]


def test_m12_n_with_a_hand_open_asks_first_as_q_does():
    """M12: ``n`` in the middle of a hand ended it at once (logged incomplete, the button moved, no undo). Now the
    key asks first, as ``q`` does; pressed again it starts the next hand; the stdin ``new`` of a script goes ahead."""
    from dealer_assist.app.terminal import Croupier
    from dealer_assist.i18n import say
    from test_live_night import session_for

    logged: list[dict] = []
    session = session_for(logged=logged)
    croupier = Croupier(session, "en")
    croupier.line("board 1 1234567")
    croupier.key("n")
    assert session.state.hand_number == 1 and logged == []
    assert croupier.feedback.text == ("Hand 1 is not decided: press n again to log it as abandoned and start hand 2; "
                                      "any other key goes on with it.")
    assert say(croupier.feedback.text, "ru") == croupier.feedback.text  # a TEXT entry, already in its language
    croupier.key("x")
    croupier.key("n")
    assert session.state.hand_number == 1
    croupier.key("n")
    assert session.state.hand_number == 2 and logged[0]["status"] == "incomplete"
    ru = Croupier(session_for(), "ru")
    ru.line("board 1 1234567")
    ru.key("n")
    assert ru.feedback.text.startswith("Раздача 1 не решена: нажмите n ещё раз")
    scripted = session_for()
    Croupier(scripted, "en").line("board 1 1234567")
    Croupier(scripted, "en").line("new")
    assert scripted.state.hand_number == 2


def test_m6_indian_chips_are_refused_when_typed_and_the_rules_name_the_seat():
    """M6: ``live --game indian``: ``chips P4 5`` was taken without a word, and "Waiting for" said "The rules refuse
    the hand as it stands: players[3].contributed must be …" (the rules' index, English in Russian)."""
    live = ["live", "--camera", ROOT / "sample_images" / "tables" / "table_1.jpg", "--calibration", "sample_table_1",
            "--position", "4", "--no-ocr", "--no-window", "--no-log", "--game", "indian"]
    typed = ("serial P1 1 7654321\nP2 1 9990999\nserial P3 1 1234000\nchips P1 2\nchips P2 3\nchips P3 2\n"
             "chips P4 5\nshowdown\n")
    en, ru, ru_locale = both(live, stdin=typed)
    assert ("Refused: P4: contributed must be from 1 to 3 in Indian poker (the ante and at most 2 more, RULES.md "
            "§7.3), got 5.") in en.stderr.splitlines(), en.stderr
    assert "Waiting for: the rules refuse the hand as it stands: P1: contributed is 2 but another player put in 3" \
        in flat(en.stdout), en.stdout
    assert "players[" not in en.stdout
    for result in (ru, ru_locale):
        assert ("Отклонено: P4: в индийском покере вносят от 1 до 3 фишек (анте и не больше 2 сверх него, RULES.md "
                "§7.3), а не 5.") in result.stderr.splitlines(), result.stderr
        assert ("Ждём: правила не принимают раздачу в таком виде: P1: внесено 2, а другой игрок внёс 3"
                in flat(result.stdout)), result.stdout
        assert "players[" not in result.stdout and "The rules" not in result.stdout


def test_m9_hand_json_s_bad_settings_are_russian_in_score_s_review(tmp_path):
    """M9: a hand.json of ``[4]``, a bad game, tie policy or zero-joker, or cut off, gave English review reasons in
    the Russian report."""
    import shutil

    cases = {"h1": ("[4]", "hand.json не содержит объекта JSON, поэтому его настройки не используются."),
             "h2": ('{"position": 4, "game": "poker"}', "hand.json: 'game' должно быть holdem или indian, а не 'poker'."),
             "h3": ('{"position": 4, "tie_policy": "coin"}', "tie_policy должно быть split или rollover, а не 'coin'."),
             "h5": ('{"position": 4,', "hand.json — не JSON (ожидалось имя поля в двойных кавычках: столбец 16).")}
    for name, (text, _) in cases.items():
        shutil.copytree(ROOT / "sample_images" / "hand_01", tmp_path / name)
        (tmp_path / name / "hand.json").write_text(text)
    from test_newuser_trial3 import invoke

    result = invoke(["score", *(tmp_path / n for n in cases), "-j", "1", "--lang", "ru"])
    for name, (_, said) in cases.items():
        assert said in flat(result.stdout), (name, result.stdout)
    assert "must be" not in result.stdout and "holds no JSON" not in result.stdout and "not valid JSON" not in result.stdout


def test_m10_a_tie_under_rollover_says_the_pot_rolls_over_not_split():
    """M10: ``live --tie-policy rollover``, a three-way tie: every tied seat "SPLITS" and "Pots: main 11 → P2, P3,
    P1" beside "the pot rolls over": the seat column and the pots told the croupier to split 11 chips three ways."""
    live = ["live", "--camera", ROOT / "sample_images" / "tables" / "table_1.jpg", "--calibration", "sample_table_1",
            "--position", "4", "--no-ocr", "--no-window", "--no-log", "--tie-policy", "rollover"]
    typed = ("board 1 1111111\nboard 2 2222222\nboard 3 3333333\nP1 1 1119111\nP1 2 1116111\nP2 1 2229222\n"
             "P2 2 2226222\nP3 1 3339333\nP3 2 3336333\nchips P1 3\nchips P2 3\nchips P3 3\nchips P4 2\nfold P4\n"
             "showdown\n")
    en, ru, _ = both(live, stdin=typed)
    assert en.exit_code == ru.exit_code == 0, en.output
    seats = [line for line in en.stdout.splitlines() if line.startswith(("P1 ", "P2 ", "P3 "))][-3:]
    assert all(line.endswith("ties: the pot rolls over") for line in seats), seats
    assert "SPLITS" not in en.stdout and "Pots: main 11 → the next hand · Carried to the next hand: 11" in en.stdout
    assert "ДЕЛИТ" not in ru.stdout and "Банки: основной 11 → следующая раздача" in ru.stdout, ru.stdout
    assert ru.stdout.count("ничья: банк переходит") == 3
    split = both([*live[:-2]], stdin=typed)[0]  # the same hand under the split policy still splits
    assert "SPLITS" in split.stdout and "→ the next hand" not in split.stdout


def test_l8_indian_poker_s_second_note_is_refused_as_one_note_a_seat():
    """L8: ``P4 2 1111111`` in Indian poker: "P4 has notes 1 to 1, not 2."."""
    live = ["live", "--camera", ROOT / "sample_images" / "tables" / "table_1.jpg", "--calibration", "sample_table_1",
            "--position", "4", "--no-ocr", "--no-window", "--no-log", "--game", "indian"]
    en, ru, _ = both(live, stdin="P4 2 1111111\n")
    assert "Refused: P4 holds one note in Indian poker (P4 1), not 2." in en.stderr.splitlines(), en.stderr
    assert "Отклонено: у P4 в индийском покере одна купюра (P4 1), а не 2." in ru.stderr.splitlines(), ru.stderr


def test_l1_score_to_a_file_leaves_standard_error_empty(tmp_path):
    """L1: ``score … 2>err | head -1`` (or any stderr that is no terminal) left one empty line in it (the progress
    bar, which is for a croupier watching a terminal)."""
    import os
    import subprocess
    import sys

    err = tmp_path / "err"
    with err.open("wb") as fh:
        done = subprocess.run([sys.executable, "-m", "dealer_assist", "score", str(ROOT / "sample_images" / "hand_01"),
                               "-j", "1", "--json", str(tmp_path / "out.json")], stdout=subprocess.DEVNULL, stderr=fh,
                              env={**os.environ, "PYTHONPATH": str(ROOT), "LANG": "C.UTF-8"}, timeout=300)
    assert done.returncode == 0 and (tmp_path / "out.json").exists()
    assert err.read_bytes() == b""


def test_l7_a_written_profile_is_a_name_or_a_path_ending_in_json(tmp_path, monkeypatch):
    """L7: ``calibrate table … --output ../evil`` wrote a file ``../evil`` (no .json) that no command lists; a
    profile written is a NAME in the data folder or a PATH.json (README)."""
    monkeypatch.setenv("DEALER_ASSIST_CALIBRATION_DIR", str(tmp_path / "cal"))
    out = tmp_path / "sub" / ".." / "evil"
    args = ["calibrate", "table", "--image", ROOT / "sample_images" / "tables" / "table_1.jpg", "--aruco", "--table-mm",
            "1000,700", "--seats", "a,b", "--output", out]
    refused_alike([(args, f"Error: '{out}' is not a profile name (use letters, digits, _ . -) nor a path ending in "
                          f".json.",
                    f"Ошибка: '{out}' — не имя профиля (буквы, цифры, _ . -) и не путь, оканчивающийся на .json.")],
                  stream="stderr")
    assert not (tmp_path / "evil").exists()


def test_l2_calibrate_list_names_the_samples_beside_the_profiles(tmp_path, monkeypatch):
    """L2: once the folder held a profile, ``calibrate list`` named the samples no more (the "no profile given"
    refusal sends the croupier there for them)."""
    cal = tmp_path / "cal"
    cal.mkdir()
    from dealer_assist.calibration.store import samples_dir

    (cal / "mytable.json").write_text((samples_dir() / "sample_table_1.json").read_text())
    monkeypatch.setenv("DEALER_ASSIST_CALIBRATION_DIR", str(cal))
    en, ru, _ = both(["calibrate", "list"])
    assert en.exit_code == ru.exit_code == 0, en.output
    assert en.stdout.splitlines() == ["  mytable", "  (samples usable by name: sample_table_1, sample_table_2)"] or \
        en.stdout.splitlines() == ["* mytable", "  (samples usable by name: sample_table_1, sample_table_2)"], en.stdout
    assert "  (образцы, доступные по имени: sample_table_1, sample_table_2)" in ru.stdout.splitlines(), ru.stdout


def test_l4_a_whole_table_photo_s_board_zone_in_the_report_s_language():
    """L4: ``score table_1.jpg --calibration … --lang ru`` labelled the board zone ``table_1.jpg[board]`` beside
    ``борд``; and a stray read's remark was English in the Russian report."""
    import io

    from rich.console import Console

    from dealer_assist.app.verdicts import HandScore, Verdict
    from dealer_assist.cli.score_report import hand_report

    sc = HandScore(folder="/t/table_1.jpg", status=Verdict.NEEDS_REVIEW, settings={},
                   notes=[{"image": "table_1.jpg[board]", "seat": "board", "serial": None, "confidence": 0.0}],
                   reasons=["table_1.jpg[board]: 3 notes expected, 1 found."],
                   remarks=["table_1.jpg[P1]: a stray read (only one read (8000098)) is not counted as a note: one "
                            "print, at most one 7-digit read."])
    console = Console(file=io.StringIO(), width=100, color_system=None)
    console.print(hand_report(sc, "ru"))
    out = flat(console.file.getvalue())
    assert "[board]" not in out and "table_1.jpg[борд]: ожидается купюр: 3, найдено: 1." in out, out
    assert "table_1.jpg[борд] борд ? 0,00" in out, out
    assert ("table_1.jpg[P1]: случайное чтение (только одно прочтение (8000098)) не считается купюрой: один отпечаток "
            "и не больше одного чтения из 7 цифр.") in out, out
    console = Console(file=io.StringIO(), width=100, color_system=None)
    console.print(hand_report(sc, "en"))
    assert "table_1.jpg[board]: 3 notes expected, 1 found." in flat(console.file.getvalue())


def test_l5_two_hand_folders_of_one_name_are_told_apart(tmp_path):
    """L5: ``score table1/hand_01 table2/hand_01``: two panels "hand_01" and two summary rows "hand_01"."""
    import json

    import cv2
    import numpy as np

    from test_newuser_trial3 import invoke

    blank = np.full((80, 80, 3), 255, np.uint8)  # no note on it: every serial comes from hand.json
    serials = {"board.png": ["1234567", "7654321", "5555555"], "alice.png": ["1111111", "2222222"],
               "bob.png": ["3333333", "4444444"]}
    for table in ("table1", "table2"):
        hand = tmp_path / table / "hand_01"
        hand.mkdir(parents=True)
        for image in serials:
            cv2.imwrite(str(hand / image), blank)
        (hand / "hand.json").write_text(json.dumps({"position": 4, "serials": serials}))
    result = invoke(["score", tmp_path / "table1" / "hand_01", tmp_path / "table2" / "hand_01", "-j", "1",
                     "--lang", "en"])
    assert result.exit_code == 0, result.output
    out = result.stdout
    assert "╭─ table1/hand_01 ─" in out and "╭─ table2/hand_01 ─" in out, out
    rows = [line.split("│")[1].strip() for line in out.splitlines() if "│ scored" in line]  # the summary
    assert rows == ["table1/hand_01", "table2/hand_01"], out
    one = invoke(["score", tmp_path / "table1" / "hand_01", "-j", "1", "--lang", "en"])
    assert "╭─ hand_01 ─" in one.stdout  # a name alone when nothing shares it
