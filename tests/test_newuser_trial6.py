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
