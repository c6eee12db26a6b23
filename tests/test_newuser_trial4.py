"""The fourth new-user trial (/work/notes/newuser_findings4.md): sentences a croupier met in English under
``--lang ru`` (or that told of the wrong game), each through the CLI as typed, in both languages."""

from __future__ import annotations

from pathlib import Path

from test_newuser_trial3 import both
from test_russian_everywhere import english_runs, flat

ROOT = Path(__file__).resolve().parents[1]


def test_m2_a_file_that_is_no_photo_is_refused_in_russian(tmp_path):
    """M2: ``score README.md --lang ru`` said "README.md: is a file but not a photo; ..."."""
    text = tmp_path / "README.md"
    text.write_text("# not a photo\n")
    en, ru, ru_locale = both(["score", text])
    assert en.exit_code == ru.exit_code == ru_locale.exit_code == 2
    assert flat(en.stderr) == (f"Error: {text}: is a file but not a photo; give hand folders (or whole-table photos "
                               f"with --calibration NAME).")
    for result in (ru, ru_locale):
        assert flat(result.stderr) == (f"Ошибка: {text}: это файл, а не снимок; укажите папки раздач (или снимки "
                                       f"всего стола с --calibration NAME)."), result.stderr
        assert english_runs(result.stderr) == []


def test_m2_a_folder_given_to_read_is_refused_in_russian():
    """M2: ``read sample_images/hand_01 --lang ru`` said "...: is a folder, not an image."."""
    folder = ROOT / "sample_images" / "hand_01"
    en, ru, ru_locale = both(["read", folder])
    assert en.exit_code != 0 and ru.exit_code == en.exit_code == ru_locale.exit_code
    assert flat(en.stderr) == f"Error: {folder}: is a folder, not an image."
    for result in (ru, ru_locale):
        assert flat(result.stderr) == f"Ошибка: {folder}: это папка, а не изображение.", result.stderr


def test_m6_indian_poker_refuses_board_photos_in_russian():
    """M6: ``score sample_images/hand_01 --game indian --lang ru`` gave every reason in English."""
    en, ru, ru_locale = both(["score", ROOT / "sample_images" / "hand_01", "--game", "indian", "-j", "1"])
    assert en.exit_code == ru.exit_code == ru_locale.exit_code
    for photo in ("board-1.jpg", "board-2.jpg", "board-3.jpg"):
        assert f"• {photo}: Indian poker has no board notes; remove the photo from the hand folder." in flat(en.stdout)
        for result in (ru, ru_locale):
            assert f"• {photo}: в индийском покере борда нет; уберите этот снимок из папки раздачи." in flat(result.stdout)
    for result in (ru, ru_locale):
        assert "Indian poker" not in result.output, result.output


INDIAN = ["eval", "--game", "indian", "--position", "4", "--player", "a=7654321", "--player", "b=1111111"]


def test_m6_indian_poker_refuses_a_board_in_russian_and_counts_one_note():
    """M6: ``eval --game indian ... --board 1234567 --lang ru`` said "board has 1 notes; Indian poker has ..."."""
    en, ru, ru_locale = both([*INDIAN, "--board", "1234567"])
    assert en.exit_code == ru.exit_code == ru_locale.exit_code == 2
    assert "Invalid value for '--board': board has 1 note; Indian poker has no board notes." in flat(en.output)
    for result in (ru, ru_locale):
        assert ("Неверное значение '--board': на борде купюр: 1; в индийском покере борда нет."
                in flat(result.output)), result.output
    two = both([*INDIAN, "--board", "1234567", "--board", "2345678"])[0]
    assert "board has 2 notes; Indian poker has no board notes." in flat(two.output)


def test_m6_indian_poker_refuses_too_many_chips_in_russian():
    """M6: ``eval --game indian ... --chips a=5 --lang ru`` said "a: contributed must be from 1 to 3 ..."."""
    en, ru, ru_locale = both([*INDIAN, "--chips", "a=5", "--chips", "b=5"])
    assert en.exit_code == ru.exit_code == ru_locale.exit_code == 2
    assert ("Invalid value for '--chips': a: contributed must be from 1 to 3 in Indian poker (the ante and at most 2 "
            "more, RULES.md §7.3), got 5.") in flat(en.output)
    for result in (ru, ru_locale):
        assert ("Неверное значение '--chips': a: в индийском покере вносят от 1 до 3 фишек (анте и не больше 2 "
                "сверх него, RULES.md §7.3), а не 5.") in flat(result.output), result.output
    en, ru, _ = both([*INDIAN, "--chips", "a=2", "--chips", "b=3"])
    assert "a: contributed is 2 but another player put in 3" in flat(en.output), en.output
    assert ("a: внесено 2, а другой игрок внёс 3; игрок, оставшийся в раздаче, уравнял ставку (RULES.md §7.3)."
            in flat(ru.output)), ru.output


def test_m6_a_calibration_profile_given_as_the_hand_log_is_refused_in_russian():
    """M6: ``history --log calibration/sample_table_1.json --lang ru`` said "... is not a hand log (...)"."""
    profile = ROOT / "calibration" / "sample_table_1.json"
    en, ru, ru_locale = both(["history", "--log", profile])
    assert en.exit_code == ru.exit_code == ru_locale.exit_code == 2
    assert flat(en.stderr) == (f"Error: {profile} is not a hand log (its first line is not a dealer-assist hand "
                               f"record); give the log live writes (--log FILE).")
    for result in (ru, ru_locale):
        assert flat(result.stderr) == (f"Ошибка: {profile} — не журнал раздач (его первая строка — не запись раздачи "
                                       f"этой программы); укажите журнал, который пишет 'live' (--log FILE)."), result.stderr


def test_m3_indian_poker_s_showdown_call_says_no_board_and_one_note():
    """M3: ``live --game indian``, ``showdown``: the answer spoke of "the board" and "both notes" (Hold'em's)."""
    live = ["live", "--camera", ROOT / "sample_images" / "tables" / "table_1.jpg", "--calibration", "sample_table_1",
            "--position", "4", "--no-ocr", "--no-window", "--no-log"]
    typed = "P1 1 7008302\nP2 1 4448050\nshowdown\n"
    en, ru, ru_locale = both([*live, "--game", "indian"], stdin=typed)
    assert en.exit_code == ru.exit_code == ru_locale.exit_code == 0, en.output
    assert ("Showdown called: once no note is being read, a seat still in whose note is not known did not reveal and "
            "takes no part in the pot.") in flat(en.output)
    for result in (ru, ru_locale):
        assert ("Вскрытие объявлено: когда ни одна купюра не читается, место в игре, чья купюра неизвестна, "
                "считается не вскрывшимся и в банке не участвует.") in flat(result.output), result.output
    for result in (en, ru, ru_locale):
        assert "both notes" not in result.output and "борд известен" not in result.output
    holdem = both(live, stdin="P1 1 7008302\nP1 2 4448050\nshowdown\n")[0]
    assert "Showdown called: once the board is known and no note is being read" in flat(holdem.output), holdem.output


def test_m7_without_calibration_the_error_asks_for_calibration_name(tmp_path, monkeypatch):
    """M7: with no --calibration and no default, the error named a profile 'default' the user never gave."""
    monkeypatch.setenv("DEALER_ASSIST_CALIBRATION_DIR", str(tmp_path / "fresh"))
    for args in (["calibrate", "show"], ["live", "--camera", "0", "--position", "4", "--no-window", "--no-log"]):
        en, ru, ru_locale = both(args)
        assert en.exit_code == ru.exit_code == ru_locale.exit_code == 2, en.output
        assert flat(en.output) == ("Error: No calibration profile was given and no default is set; pass --calibration "
                                   "NAME (`dealer-assist calibrate list` names the profiles and samples), or make one "
                                   "with `dealer-assist calibrate table`."), en.output
        for result in (ru, ru_locale):
            assert flat(result.output) == ("Ошибка: Профиль калибровки не указан, а профиля по умолчанию нет; укажите "
                                           "--calibration NAME (профили и образцы называет `dealer-assist calibrate "
                                           "list`) или создайте профиль командой `dealer-assist calibrate table`."), \
                result.output
    named = both(["calibrate", "show", "--calibration", "default"])[0]
    assert "No calibration profile named 'default'" in flat(named.output)


def test_m5_calibrate_check_counts_the_board_by_its_russian_word(tmp_path):
    """M5: ``calibrate check ... --lang ru`` counted "board: 1, P1: 1, ..." with the zone id in Russian prose."""
    photo = ROOT / "sample_images" / "tables" / "table_2.jpg"
    en, ru, ru_locale = both(["calibrate", "check", photo, "--calibration", "sample_table_2",
                              "--output", tmp_path / "check.jpg"])
    assert en.exit_code == ru.exit_code == ru_locale.exit_code == 0, en.output
    assert "board: 1, P1: 1, P2: 1, P3: 1, P4: 0, P5: 1, P6: 0" in flat(en.output), en.output
    for result in (ru, ru_locale):
        assert "борд: 1, P1: 1, P2: 1, P3: 1, P4: 0, P5: 1, P6: 0" in flat(result.output), result.output
        assert "board:" not in result.output
        # M4: the board's 1 of 3 is said, as the seats' 1 of 2
        assert ("борд: найдено купюр 1 из 3 (купюру со скрытыми номерами не видно; в индийском покере борда нет)."
                in flat(result.output)), result.output
    assert ("the board: 1 of 3 notes found (a note whose serial prints are hidden is not seen; Indian poker has no "
            "board).") in flat(en.output), en.output
