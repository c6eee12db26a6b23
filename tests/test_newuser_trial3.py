"""The third new-user trial of issue 22 (/work/notes/newuser_findings3.md): what a croupier met in
Russian that was still English, each through the CLI as typed, in both languages."""

from __future__ import annotations

import json
from pathlib import Path

import cv2
import numpy as np
import pytest
from typer.testing import CliRunner

from dealer_assist.cli import app

from test_russian_everywhere import EN_ENV, RU_ENV, english_runs, flat

BLANK = np.full((80, 80, 3), 255, np.uint8)  # no note on it: every serial comes from hand.json


def invoke(args, env=EN_ENV, stdin=None):
    result = CliRunner().invoke(app, [str(a) for a in args], env=env, input=stdin)
    assert "Traceback" not in result.output, result.output
    return result


def both(args, stdin=None):
    """``args`` run in English, with ``--lang ru`` and under a Russian locale: (en, ru, ru by locale)."""
    return (invoke([*args, "--lang", "en"], stdin=stdin), invoke([*args, "--lang", "ru"], stdin=stdin),
            invoke(args, env=RU_ENV, stdin=stdin))


def refused_alike(cases, stream="output", no_english=True):
    """Each ``(args, english, russian)`` refused with exit code 2 in English, with ``--lang ru`` and under a
    Russian locale, the sentence in ``stream`` (``output`` or ``stderr``) in each language."""
    for args, english, russian in cases:
        en, ru, ru_locale = both(args)
        assert en.exit_code == ru.exit_code == ru_locale.exit_code == 2, (args, ru.output)
        assert english in flat(getattr(en, stream)), (args, en.output)
        for result in (ru, ru_locale):
            assert russian in flat(getattr(result, stream)), (args, result.output)
            if no_english:
                assert english_runs(getattr(result, stream)) == [], (args, result.output)


def test_m1_score_s_notes_under_the_summary_are_russian(tmp_path):
    """M1: ``score sample_images/ --lang ru`` ended with "Note: sample_images/tables holds photos but …"."""
    root = tmp_path / "night"
    hand = root / "hand_01"
    hand.mkdir(parents=True)
    serials = {"board.png": ["1234567", "7654321", "5555555"], "alice.png": ["1111111", "2222222"],
               "bob.png": ["3333333", "9999999"]}
    for image in serials:
        cv2.imwrite(str(hand / image), BLANK)
    (hand / "hand.json").write_text(json.dumps({"position": 4, "serials": serials}))
    (root / "tables").mkdir()
    cv2.imwrite(str(root / "tables" / "table_1.png"), BLANK)
    cv2.imwrite(str(root / "stray.png"), BLANK)
    en, ru, ru_locale = both(["score", root, "-j", "1"])
    assert en.exit_code == ru.exit_code == ru_locale.exit_code == 0, ru.output
    assert (f"Note: {root} holds 1 loose photo(s) beside its 1 hand folder(s), and they are not scored: "
            f"stray.png; move each into its hand's folder.") in flat(en.stderr)
    assert (f"Note: {root / 'tables'} holds photos but neither hand.json nor a board photo, so it is not scored "
            f"as a hand (whole-table photos: give that folder itself with --calibration NAME).") in flat(en.stderr)
    for result in (ru, ru_locale):
        text = flat(result.stderr)
        assert (f"Примечание: {root}: снимков вне папок раздач — 1 (папок раздач: 1), они не оцениваются: "
                f"stray.png; переложите каждый в папку его раздачи.") in text, text
        assert (f"Примечание: {root / 'tables'}: в папке есть снимки, но нет ни hand.json, ни снимка борда, так что "
                f"она не оценивается как раздача (снимки всего стола: укажите саму эту папку с --calibration NAME).") in text
        assert "Note:" not in text and english_runs(result.stderr) == [], text


@pytest.mark.parametrize("command", ["eval", "odds"])
def test_m2_bad_hand_lines_are_said_in_russian(command):
    """M2: ``echo '{}' | odds --hands - --lang ru`` said "line 1: position is missing." and "1 hand line(s)
    could not be evaluated."; eval said its lines in English too. ``--json`` keeps them English (for programs)."""
    lines = "{}\nx\n[1]\n" + json.dumps({"position": 9, "board": ["1234567"], "players": [
        {"name": "a", "pocket": ["7654321", "0102030"]}, {"name": "b", "pocket": ["9990999", "1234000"]}]}) + "\n"
    en, ru, ru_locale = both([command, "--hands", "-"], stdin=lines)
    assert en.exit_code == ru.exit_code == ru_locale.exit_code == 1
    said = flat(en.stderr)
    for sentence in ("line 1: position is missing.", "line 2: the line is not valid JSON (Expecting value: column 1).",
                     "line 3: a hand must be a JSON object, got a list.",
                     "line 4: position must be from 1 to 7, got 9.",
                     "4 hand line(s) could not be evaluated."):
        assert sentence in said, said
    for result in (ru, ru_locale):
        said = flat(result.stderr)
        for sentence in ("строка 1: нет поля position.",
                         "строка 2: строка — не JSON (ожидалось значение: столбец 1).",
                         "строка 3: раздача должна быть объектом JSON, а не список.",
                         "строка 4: position должно быть от 1 до 7, а не 9.",
                         "Не удалось оценить строк с раздачами: 4."):
            assert sentence in said, said
        assert english_runs(result.stderr) == [], said
    as_json = invoke([command, "--hands", "-", "--json", "--lang", "ru"], stdin="{}\n")
    assert json.loads(as_json.stdout.splitlines()[0]) == {"error": "line 1: position is missing."}
    empty = invoke([command, "--hands", "-", "--lang", "ru"], stdin="\n")
    assert empty.exit_code == 1 and "на стандартном вводе нет ни одной раздачи." in flat(empty.stderr)


def test_m3_a_folder_given_for_a_file_is_russian(tmp_path):
    """M3: ``odds|eval --hands DIR``, ``history|ledger --log DIR``, ``serve --log DIR`` in Russian kept the
    sentence (serve even its "Error:") in English."""
    cases = [(["odds", "--hands", tmp_path], f"cannot read '{tmp_path}': it is a folder, not a file.",
              f"нельзя прочитать '{tmp_path}': это папка, а не файл."),
             (["eval", "--hands", tmp_path], f"cannot read '{tmp_path}': it is a folder, not a file.",
              f"нельзя прочитать '{tmp_path}': это папка, а не файл."),
             (["history", "--log", tmp_path], f"Error: The hand log {tmp_path} is a folder, not a file.",
              f"Ошибка: Журнал раздач {tmp_path} — папка, а не файл."),
             (["ledger", "--log", tmp_path], f"Error: The hand log {tmp_path} is a folder, not a file.",
              f"Ошибка: Журнал раздач {tmp_path} — папка, а не файл."),
             (["serve", "--log", tmp_path, "--port", "0"],
              f"Error: The hand log {tmp_path} is a folder; give the file (e.g. {tmp_path / 'hands.jsonl'}).",
              f"Ошибка: Журнал раздач {tmp_path} — папка; укажите файл (например, {tmp_path / 'hands.jsonl'}).")]
    refused_alike(cases, stream="stderr")


def test_m4_ledger_since_refused_in_russian():
    """M4: the general "must be …, not …" sentence came first and left "an ISO date or date-time such as"."""
    en, ru, ru_locale = both(["ledger", "--since", "yesterday"])
    assert ("must be an ISO date or date-time such as 2025-01-01 or 2025-01-01T20:00, not 'yesterday'."
            in flat(en.stderr))
    for result in (ru, ru_locale):
        assert result.exit_code == 2
        assert ("должно быть датой или датой и временем ISO, например 2025-01-01 или 2025-01-01T20:00, а не "
                "'yesterday'.") in flat(result.stderr), result.stderr
        assert english_runs(result.stderr) == [], result.stderr


def test_m5_live_s_refusals_are_in_its_language(tmp_path):
    """M5: ``live --camera /nonexist.mp4 … --lang ru``: "Error: There is no camera, video or image at …"."""
    missing = tmp_path / "nonexist.mp4"
    args = ["live", "--camera", missing, "--calibration", "sample_table_1", "--position", "4", "--no-window",
            "--no-log"]
    en, ru, ru_locale = both(args)
    assert f"Error: There is no camera, video or image at '{missing}'." in flat(en.stderr)
    for result in (ru, ru_locale):
        assert result.exit_code == 2
        assert f"Ошибка: Камеры, видео или изображения '{missing}' нет." in flat(result.stderr), result.stderr
    en, ru, _ = both(["live", "--camera", missing, "--calibration", "sample_table_1", "--position", "4", "--no-log",
                     "--log", "x"])
    assert "Error: --no-log and --log FILE contradict each other; give one of them." in flat(en.stderr)
    assert "Ошибка: --no-log и --log FILE противоречат друг другу; укажите что-то одно." in flat(ru.stderr)


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_m9_the_lan_address_stays_on_an_80x24_screen(tmp_path, monkeypatch, lang):
    """M9: the banner is taller than 24 lines; the address came before the QR code, so on an 80x24 terminal
    it was at the top edge, and off the screen with a second LAN address. Now the QR code comes first."""
    import io

    from rich.console import Console

    from dealer_assist.cli import serve_cmd
    from dealer_assist.spectator.server import Listener

    out = io.StringIO()
    monkeypatch.setattr("dealer_assist.cli.output.report_console",
                        lambda **kw: Console(file=out, width=80, color_system=None, **kw))
    monkeypatch.setattr("dealer_assist.spectator.server.lan_addresses",
                        lambda include_v6=False: ["192.168.1.20", "172.17.0.1"])
    token = "Xq3" + "t" * 40
    serve_cmd.print_banner(Listener(None, "0.0.0.0", 8765, False), token, 30.0,
                           tmp_path / "a-rather-long-folder-name-for-the-hand-log" / "hands.jsonl",
                           tmp_path / "hands.state.json", lang)
    lines = out.getvalue().splitlines()
    assert len(lines) > 24  # the whole banner does not fit: what matters is what the screen keeps
    screen = lines[-23:]  # an 80x24 terminal after the banner: 23 lines of it and the cursor's line
    url = f"http://192.168.1.20:8765/?token={token}"
    assert url in screen and f"  http://172.17.0.1:8765/?token={token}" in screen
    said = {"en": "Open this address (the QR code above is the same address):",
            "ru": "Откройте этот адрес (QR-код выше — тот же адрес):"}[lang]
    assert screen[screen.index(url) - 1] == said
    qr_rows = [i for i, line in enumerate(lines) if line.startswith("██")]
    assert len(qr_rows) >= 17 and max(qr_rows) < lines.index(url)  # the QR code above the address


ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "README.md"


def _block_after(marker: str) -> str:
    """The README's output block (the first ``` block without a language) after the line holding ``marker``."""
    text = README.read_text(encoding="utf-8")
    rest = text[text.index(marker):]
    start = rest.index("\n\n```\n") + len("\n\n```\n")  # a blank line, then the block's opening fence
    return rest[start:rest.index("\n```", start)]


def _printed(result) -> str:
    return "\n".join(line.rstrip() for line in result.stdout.splitlines())


def test_m7_the_readme_s_indian_eval_is_what_eval_prints():
    """M7: the README showed a "Result" column that eval no longer prints (the result is under the name)."""
    result = invoke(["eval", "--game", "indian", "--position", "4", "--player", "anna=7654321", "--player",
                     "boris=9990999", "--player", "chen=1234000", "--dealer", "chen", "--chips", "anna=2",
                     "--chips", "boris=2", "--chips", "chen=2", "--lang", "en"])
    assert result.exit_code == 0, result.output
    assert _printed(result) == _block_after("--player chen=1234000 --dealer chen --chips anna=2")
    assert "Result" not in _printed(result)


def test_m8_the_readme_s_indian_odds_example_runs_as_printed():
    """M8: the README's echo broke its JSON over two lines inside the quotes: two lines, both refused."""
    import re
    import subprocess

    text = README.read_text(encoding="utf-8")
    start = text.index("echo '{\"game\": \"indian\", \"position\": 4")
    command = text[start:text.index("\n```", start)]
    echoed = subprocess.run(["bash", "-c", command.split(" | ")[0]], capture_output=True, text=True, check=True)
    assert len(echoed.stdout.splitlines()) == 1  # the shell makes one line of it
    assert re.search(r"\| dealer-assist odds --hands -$", command)
    result = invoke(["odds", "--hands", "-", "--lang", "en"], stdin=echoed.stdout)
    assert result.exit_code == 0, result.output
    assert _printed(result) == _block_after("(one line of JSON:")


@pytest.mark.slow
def test_m7_the_readme_s_indian_score_is_what_score_prints():
    root = Path(__file__).resolve().parents[1]
    result = invoke(["score", root / "sample_images" / "indian_01", "-j", "1", "--lang", "en"])
    assert result.exit_code == 0, result.output
    printed = _printed(result).replace(str(root / "sample_images") + "/", "")
    assert printed == _block_after("dealer-assist score sample_images/indian_01\n")


@pytest.mark.parametrize("path", [[], ["calibrate"], ["club"], ["calibrate", "list"], ["calibrate", "use"],
                                  ["calibrate", "pattern"], ["club", "init"], ["club", "sync"]], ids=" ".join)
def test_m6_every_command_and_group_takes_lang(path):
    """M6: ``dealer-assist --help --lang ru``, ``calibrate --help --lang ru``, ``calibrate list|use|pattern
    --lang ru`` and ``club … --lang ru`` were "Нет такого параметра: --lang." (exit 2)."""
    for args in ([*path, "--help", "--lang", "ru"], [*path, "--lang", "ru", "--help"]):
        result = invoke(args)
        assert result.exit_code == 0, result.output
        assert "Использование:" in result.output and "--lang" in result.output
        assert english_runs(result.output) == [], result.output
    english = invoke([*path, "--help", "--lang", "en"])
    assert english.exit_code == 0 and "Usage:" in english.output


def test_m6_calibrate_use_list_and_pattern_say_it_in_russian(tmp_path):
    env = {"DEALER_ASSIST_CALIBRATION_DIR": str(tmp_path / "cal")}
    made = invoke(["calibrate", "table", "--image", ROOT / "sample_images" / "tables" / "table_1.jpg", "--corners",
                   "0,0 1919,0 1919,1079 0,1079", "--table-mm", "1000,700", "--seats", "alice,boris",
                   "--output", "mytable", "--lang", "en"], env={**EN_ENV, **env})
    assert made.exit_code == 0, made.output
    cases = [(["calibrate", "use", "mytable"], f"{tmp_path / 'cal' / 'default.json'} now points to mytable",
              f"{tmp_path / 'cal' / 'default.json'} теперь указывает на mytable"),
             (["calibrate", "list"], "* mytable", "* mytable"),
             (["calibrate", "pattern", "--output", tmp_path / "board.png"],
              f"wrote {tmp_path / 'board.png'}: 10 x 7 squares, 9x6 inner corners. Printed at 100 % scale (300 dpi): "
              f"squares of 8.5 mm, the board 102 x 76 mm with its margin; measure a printed square for --square-mm.",
              f"записан {tmp_path / 'board.png'}: 10 x 7 клеток, внутренних углов 9x6. При печати в масштабе 100 % "
              f"(300 dpi) клетка — 8,5 мм, доска с полями — 102 x 76 мм; измерьте напечатанную клетку для "
              f"--square-mm."),
             (["calibrate", "pattern", "--output", tmp_path / "no" / "board.png"],
              f"Error: Cannot write {tmp_path / 'no' / 'board.png'}: the folder {tmp_path / 'no'} does not exist.",
              f"Ошибка: Нельзя записать {tmp_path / 'no' / 'board.png'}: папки {tmp_path / 'no'} нет.")]
    for args, english, russian in cases:
        en = invoke([*args, "--lang", "en"], env={**EN_ENV, **env})
        assert english in flat(en.output), (args, en.output)
        for result in (invoke([*args, "--lang", "ru"], env={**EN_ENV, **env}), invoke(args, env={**RU_ENV, **env}),
                       invoke([args[0], "--lang", "ru", *args[1:]], env={**EN_ENV, **env})):
            assert russian in flat(result.output), (args, result.output)
            assert english_runs(result.output) == [], (args, result.output)
    empty = invoke(["calibrate", "list", "--lang", "ru"], env={**EN_ENV, "DEALER_ASSIST_CALIBRATION_DIR":
                                                               str(tmp_path / "none")})
    assert f"в {tmp_path / 'none'} нет профилей" in empty.output
    assert "(образцы, доступные по имени: sample_table_1, sample_table_2)" in empty.output


def test_m6_a_group_s_lang_is_the_command_s():
    """``dealer-assist calibrate --lang ru show …``: the command under the group follows the group's --lang."""
    shown = invoke(["calibrate", "--lang", "ru", "show", "--calibration", "sample_table_1"])
    assert shown.exit_code == 0 and "места по часовой стрелке: P1, P2, P3, P4" in shown.output
    own = invoke(["calibrate", "--lang", "ru", "show", "--calibration", "sample_table_1", "--lang", "en"])
    assert "seats clockwise: P1, P2, P3, P4" in own.output  # the command's own --lang comes first
    ruled = invoke(["--lang", "ru", "rules"])
    assert ruled.exit_code == 0 and "Купюрный Hold'em коротко" in ruled.output


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_m10_chips_typed_after_the_decision_are_logged_as_they_stand(tmp_path, lang):
    """M10: four typed notes decided the Indian hand; then chips the rules refuse (P4 put in 1 while the others
    put in 2). The dashboard said the rules refuse it, the log had the earlier decision with "chips": {} -- the
    chips gone from the ledger without a word. Now the hand is logged as it stands; chips the rules take after
    the decision are logged with it."""
    from live_helpers import plain_profile, write_frames

    frames = write_frames(tmp_path / "frames", 3)
    profile = plain_profile((320, 180), ["P1", "P2", "P3", "P4"], tmp_path / "p.json")
    log = tmp_path / "hands.jsonl"
    base = ["live", "--camera", frames, "--calibration", profile.path, "--position", "4", "--no-ocr",
            "--no-window", "--log", log, "--game", "indian", "--new-session", "--lang", lang]
    serials = "serial P1 1 7654321\nserial P2 1 9990999\nserial P3 1 1234000\nserial P4 1 5555555\n"
    refused = invoke(base, stdin=serials + "chips P1 2\nchips P2 2\nchips P3 2\nchips P4 1\n")
    taken = invoke(base, stdin=serials + "chips P1 2\nchips P2 2\nchips P3 2\nchips P4 2\n")
    first, second = (json.loads(line) for line in log.read_text().splitlines())
    assert (first["status"], first["chips"], first["winners"]) == (
        "incomplete", {"P1": 2, "P2": 2, "P3": 2, "P4": 1}, [])
    assert any("P4 put in 1 but another player put in 2" in w or "contributed is 1" in w for w in first["waiting"])
    said = {"en": "Hand 1 was not decided: logged as abandoned (end of video).",
            "ru": "Раздача 1 не решена: записана в журнал как брошенная (конец записи)."}[lang]
    assert said in flat(refused.stderr), refused.stderr
    assert (second["status"], second["chips"], second["winners"]) == (
        "showdown", {"P1": 2, "P2": 2, "P3": 2, "P4": 2}, ["P2"])
    assert second["settlement"]["payouts"]["P2"] == 8, second["settlement"]
    assert taken.exit_code == 0


def test_l1_l2_the_live_header_s_scale_in_both_languages():
    """L2: the README recording's header said "2560x1440 · 1.5-1.5 px/mm" (ends 1.46 and 1.54); L1: Russian
    kept "1.2-1.3 px/mm"."""
    from types import SimpleNamespace

    from dealer_assist.app.frame_loop import frame_label

    session = SimpleNamespace(frame_size=(2560, 1440), scale_px_per_mm=(1.46, 1.54))
    assert frame_label(session) == "2560x1440 · 1.5 px/mm"
    assert frame_label(session, "ru") == "2560x1440 · 1,5 пикс./мм"
    session.scale_px_per_mm = (1.2, 1.3)
    assert frame_label(session) == "2560x1440 · 1.2-1.3 px/mm"
    assert frame_label(session, "ru") == "2560x1440 · 1,2-1,3 пикс./мм"


def test_l5_one_chip_is_one_chip():
    """L5: "P4 put in 1 chips."."""
    from dealer_assist.app.terminal import Croupier
    from dealer_assist.i18n import say
    from dealer_assist.live.session import LiveOptions, LiveSession
    from dealer_assist.live.table_state import TableState
    from dealer_assist.live.worker import InlineWorker
    from live_helpers import plain_profile

    session = LiveSession(plain_profile((320, 180), ["P1", "P2"]), TableState(("P1", "P2"), 4),
                          InlineWorker(read=lambda job: ()), LiveOptions(ocr=False))
    for lang, one, many in (("en", "P1 put in 1 chip.", "P2 put in 25 chips."),
                            ("ru", "P1 внёс фишек: 1.", "P2 внёс фишек: 25.")):
        croupier = Croupier(session, lang)
        croupier.line("chips P1 1")
        assert say(croupier.feedback.text, lang) == one  # the screen says the croupier's feedback in its language
        croupier.line("chips P2 25")
        assert say(croupier.feedback.text, lang) == many


def test_l1_russian_decimals_in_read_and_calibrate(tmp_path):
    """L1: ``read … --lang ru`` showed the confidence as ``0.99`` and ``calibrate show|table`` "RMS 0.232 пикс."."""
    import io
    from types import SimpleNamespace

    from rich.console import Console

    from dealer_assist.cli.read_cmd import _table
    from dealer_assist.vision.model import NoteRead

    note = NoteRead(serial="5418135", letters=None, confidence=0.9871, quad=np.zeros((4, 2)), status="trusted",
                    reason="", prints=[])
    for lang, shown in (("en", "0.99"), ("ru", "0,99")):
        out = Console(file=io.StringIO(), width=80, color_system=None)
        out.print(_table(SimpleNamespace(notes=[note]), lang))
        row = next(line for line in out.file.getvalue().splitlines() if "5418135" in line)
        assert row.split("│")[3].strip() == shown, row
    shown = invoke(["calibrate", "show", "--calibration", "sample_table_1", "--lang", "ru"])
    assert "RMS 0,232 пикс." in flat(shown.output) and "0.232" not in shown.output
    shown = invoke(["calibrate", "show", "--calibration", "sample_table_1", "--lang", "en"])
    assert "RMS 0.232 px" in flat(shown.output)


@pytest.mark.parametrize("lang, said", [("en", "check it:"), ("ru", "проверьте:")])
def test_l4_calibrate_table_s_check_command_is_a_line_of_its_own(tmp_path, lang, said):
    """L4: "check it: dealer-assist calibrate check PHOTO --calibration mytable --output" / "check.jpg": the
    command to copy was wrapped on 80 columns."""
    env = {**EN_ENV, "DEALER_ASSIST_CALIBRATION_DIR": str(tmp_path / "cal")}
    made = invoke(["calibrate", "table", "--image", ROOT / "sample_images" / "tables" / "table_1.jpg", "--aruco",
                   "--table-mm", "1000,700", "--seats", "alice,boris,chen,dana", "--output", "mytable",
                   "--lang", lang], env=env)
    assert made.exit_code == 0, made.output
    lines = made.stderr.splitlines()
    command = "  dealer-assist calibrate check PHOTO --calibration mytable --output check.jpg"
    assert lines[lines.index(said) + 1] == command


def test_l8_score_s_help_says_examples_once():
    """L8: ``score --help`` said "Example:" before each of its two examples."""
    en = invoke(["score", "--help", "--lang", "en"]).output
    assert en.count("Examples:") == 1 and "Example:" not in en
    assert "   dealer-assist score sample_images/ --json verdicts.json" in en
    ru = invoke(["score", "--help", "--lang", "ru"]).output
    assert ru.count("Примеры:") == 1 and "Пример:" not in ru


@pytest.mark.parametrize("lang, shown", [("en", "> serial P1 1 02█"), ("ru", "> номер: P1 1 02█")])
def test_l3_the_serial_prompt_in_the_dashboard_s_language(lang, shown):
    """L3: with --lang ru, key e showed "> serial █" (the command word in English)."""
    import io

    from rich.console import Console

    from dealer_assist.app.terminal import Croupier
    from dealer_assist.live.dashboard import LiveStatus, render_dashboard
    from dealer_assist.live.session import LiveOptions, LiveSession
    from dealer_assist.live.table_state import TableState
    from dealer_assist.live.worker import InlineWorker
    from live_helpers import plain_profile

    session = LiveSession(plain_profile((320, 180), ["P1", "P2"]), TableState(("P1", "P2"), 4),
                          InlineWorker(read=lambda job: ()), LiveOptions(ocr=False))
    croupier = Croupier(session, lang)
    for key in "eP1 1 02":
        croupier.key(key)
    console = Console(file=io.StringIO(), width=80, height=24, color_system=None)
    status = LiveStatus("ok", 25.0, "idle", message=croupier.feedback.text, prompt=croupier.keys.prompt)
    console.print(render_dashboard(session.view(), status, lang, 80, 24))
    assert shown in console.file.getvalue().splitlines(), console.file.getvalue()
    for key in "35561\r":  # what is sent is the command as typed, in either language
        croupier.key(key)
    assert dict(session.state.manual) == {"P1#1": "0235561"}, session.message


@pytest.mark.parametrize("lang, first", [("en", "Hand 1 · dealer: P1 · P=4 · Indian poker"),
                                         ("ru", "Раздача 1 · дилер: P1 · P=4 · Индийский покер")])
def test_l7_the_indian_header_names_the_game_not_hold_em_s_options(lang, first):
    """L7: ``live --game indian``'s header said "zero-joker: off · ties: split" (Indian poker has neither)."""
    import io

    from rich.console import Console

    from dealer_assist.live.dashboard import LiveStatus, render_dashboard
    from dealer_assist.live.session import LiveOptions, LiveSession
    from dealer_assist.live.table_state import TableState
    from dealer_assist.live.worker import InlineWorker
    from dealer_assist.rules import Game
    from live_helpers import plain_profile

    for game, expected in ((Game.INDIAN, first), (Game.HOLDEM, None)):
        session = LiveSession(plain_profile((320, 180), ["P1", "P2"]), TableState(("P1", "P2"), 4, game=game),
                              InlineWorker(read=lambda job: ()), LiveOptions(ocr=False))
        console = Console(file=io.StringIO(), width=80, height=24, color_system=None)
        console.print(render_dashboard(session.view(), LiveStatus("ok", 25.0, "idle"), lang, 80, 24))
        head = console.file.getvalue().splitlines()[0].rstrip()
        if expected is not None:
            assert head.startswith(expected) and "joker" not in head and "джокер" not in head, head
        else:
            assert ("zero-joker: off · ties: split" if lang == "en" else "ноль-джокер: выкл.") in head, head


def test_l9_russian_usage_lines_say_click_s_placeholders_in_russian():
    """L9: "Использование: dealer-assist odds [OPTIONS]", "… club [OPTIONS] COMMAND [ARGS]..."."""
    refused = invoke(["odds", "--lang", "ru"])
    assert refused.exit_code == 2 and "Использование: dealer-assist odds [ПАРАМЕТРЫ]" in refused.output
    helped = invoke(["club", "--help", "--lang", "ru"])
    assert "Использование: dealer-assist club [ПАРАМЕТРЫ] КОМАНДА [АРГУМЕНТЫ]..." in helped.output
    english = invoke(["club", "--help", "--lang", "en"])
    assert "Usage: dealer-assist club [OPTIONS] COMMAND [ARGS]..." in english.output


def test_n1_eval_s_quick_form_refusals_are_russian():
    """The re-trial (N1): the quick form's refusals were English in Russian ("alice: pocket has 1 note(s);
    exactly 2 are needed.", a 3-digit serial, a chips typo, a player who is not at the table)."""
    base = ["eval", "--position", "4", "--board", "1234567"]
    two = ["--player", "alice=1234567,7654321", "--player", "bob=7654322,1111111"]
    cases = [([*base, "--player", "alice=1234567", "--player", "bob=7654321,1111111"],
              "alice: pocket has 1 note(s); exactly 2 are needed.", "alice: pocket: купюр 1, а нужно ровно 2."),
             ([*base, "--player", "alice=123,1234567", "--player", "bob=7654321,1111111"],
              "alice: pocket note 1 must be exactly 7 digits, got '123'.",
              "alice: карманная купюра 1 должна состоять ровно из 7 цифр, а не '123'."),
             ([*base, "--player", "alice", "--player", "bob=7654321,1111111"],
              "'alice' must look like NAME=SERIAL,SERIAL, e.g. alice=7654321,0102030.",
              "'alice' должно иметь вид NAME=SERIAL,SERIAL, например alice=7654321,0102030."),
             ([*base, *two, "--chips", "zed=3"], "'zed' is not one of the players (alice, bob).",
              "'zed' — не из игроков (alice, bob)."),
             ([*base, *two, "--chips", "alice=x"], "'alice=x' must look like NAME=CHIPS with a whole number of chips, "
              "e.g. alice=25.", "'alice=x' должно иметь вид NAME=CHIPS с целым числом фишек, например alice=25."),
             (["eval", "--position", "4", "--board", "12", *two], "board note 1 must be exactly 7 digits, got '12'.",
              "купюра борда 1 должна состоять ровно из 7 цифр, а не '12'."),
             (["eval", *two], "the playing position P (1-7) is needed.", "нужно игровое место P (1-7).")]
    refused_alike(cases)


def test_n2_n3_calibrate_camera_and_notes_refusals_are_russian(tmp_path):
    """N2, N3: ``calibrate camera --images GLOB`` matching nothing, ``calibrate notes`` of a missing photo."""
    glob = str(tmp_path / "none" / "*.jpg")
    cases = [(["calibrate", "camera", "--images", glob, "--pattern", "9x6", "--square-mm", "25", "--output",
               tmp_path / "x.json"], f"Error: --images '{glob}' matches no file.",
              f"Ошибка: --images '{glob}': ни одного такого файла нет."),
             (["calibrate", "notes", tmp_path / "no.jpg", "--output", tmp_path / "x.json"],
              f"Error: No photo gave a usable note: {tmp_path / 'no.jpg'}: no such file.",
              f"Ошибка: Ни один снимок не дал пригодной купюры: {tmp_path / 'no.jpg'}: такого файла нет.")]
    refused_alike(cases, no_english=False)


@pytest.mark.parametrize("lang, shown", [("en", "camera: ok · 11.6 fps"), ("ru", "камера: работает · 11,6 кадр/с")])
def test_n4_the_dashboard_s_frame_rate_as_the_language_writes_it(lang, shown):
    """N4 (re-trial): ``live --lang ru`` said "11.6 кадр/с"."""
    import io

    from rich.console import Console

    from dealer_assist.live.dashboard import LiveStatus, render_dashboard
    from dealer_assist.live.session import LiveOptions, LiveSession
    from dealer_assist.live.table_state import TableState
    from dealer_assist.live.worker import InlineWorker
    from live_helpers import plain_profile

    session = LiveSession(plain_profile((320, 180), ["P1", "P2"]), TableState(("P1", "P2"), 4),
                          InlineWorker(read=lambda job: ()), LiveOptions(ocr=False))
    console = Console(file=io.StringIO(), width=80, height=24, color_system=None)
    console.print(render_dashboard(session.view(), LiveStatus("ok", 11.62, "idle"), lang, 80, 24))
    assert shown in console.file.getvalue(), console.file.getvalue()


@pytest.mark.slow  # reads a photo with the OCR engines
def test_n5_a_hand_needing_review_shows_confidences_as_the_language_writes_them(tmp_path):
    """N5 (re-trial): ``score table_1.jpg --calibration sample_table_1 --lang ru`` listed confidences "0.0"."""
    hand = tmp_path / "hand"
    hand.mkdir()
    serials = {"board.png": ["1234567", "7654321", "5555555"], "alice.png": ["1111111", "2222222"]}
    for image in [*serials, "bob.png"]:
        cv2.imwrite(str(hand / image), BLANK)
    (hand / "hand.json").write_text(json.dumps({"position": 4, "serials": serials}))
    en, ru, _ = both(["score", hand, "-j", "1"])
    rows = {lang: [line for line in result.stdout.splitlines() if "alice.png" in line]
            for lang, result in (("en", en), ("ru", ru))}
    assert rows["en"] and all("1.0" in row for row in rows["en"]), en.stdout
    assert rows["ru"] and all("1,0" in row and "1.0" not in row for row in rows["ru"]), ru.stdout


@pytest.mark.parametrize("lang, said", [("en", "hand 1 finished: incomplete, winners none"),
                                        ("ru", "раздача 1 закончена: не решена, победители: нет")])
def test_n6_live_s_hand_finished_line_in_its_language(tmp_path, lang, said):
    """N6 (fresh trial): without a terminal, live said each finished hand in English."""
    from live_helpers import plain_profile, write_frames

    frames = write_frames(tmp_path / "frames", 3)
    profile = plain_profile((320, 180), ["P1", "P2"], tmp_path / "p.json")
    result = invoke(["live", "--camera", frames, "--calibration", profile.path, "--position", "4", "--no-ocr",
                     "--no-window", "--no-log", "--lang", lang], stdin="board 1 2572845\nP1 1 7008302\nn\n")
    assert said in result.output.splitlines(), result.output


@pytest.mark.slow  # a live process on a pseudo-terminal
@pytest.mark.parametrize("lang, said", [
    ("en", "live: 3 frame(s) read, 0 note(s) trusted, OCR off (type the serials)"),
    ("ru", "live: кадров: 3, надёжно прочитано: 0, OCR: выкл. (номера вводит крупье)")])
def test_n6_live_json_s_progress_line_in_its_language_fits_80_columns(tmp_path, lang, said):
    """N6 (fresh trial): ``live … --json --lang ru`` on a terminal rewrote an English progress line; in Russian
    it must stay under 80 columns too (it is rewritten in place with a carriage return)."""
    import os
    import select
    import subprocess
    import sys
    import time

    from live_helpers import plain_profile, pseudo_terminal, write_frames

    frames = write_frames(tmp_path / "frames", 3)
    profile = plain_profile((320, 180), ["P1", "P2"], tmp_path / "p.json")
    master, slave, env = pseudo_terminal(80, 24, NO_COLOR="1")
    proc = subprocess.Popen([sys.executable, "-m", "dealer_assist", "live", "--camera", frames, "--calibration",
                             str(profile.path), "--position", "4", "--no-ocr", "--no-window", "--no-log", "--json",
                             "--lang", lang], stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=slave, env=env,
                            cwd=ROOT, close_fds=True)
    os.close(slave)
    seen, end = b"", time.monotonic() + 120
    while time.monotonic() < end and proc.poll() is None:
        if select.select([master], [], [], 0.1)[0]:
            try:
                seen += os.read(master, 65536)
            except OSError:
                break
    proc.communicate(timeout=60)
    os.close(master)
    lines = [part.replace("\x1b[K", "").strip() for part in seen.decode("utf-8").replace("\n", "\r").split("\r")]
    assert said in lines, lines
    assert all(len(line) < 80 for line in lines if line.startswith("live:")), lines


def test_n7_every_fail_speaks_the_command_s_language():
    """N7 (fresh trial): ``history --since 2026-12-04 --lang ru`` (a club's option without --club) said
    "Error: --table, --since, --until and --serial search a club; …": fail() without a language was English."""
    cases = [(["history", "--since", "2026-12-04"],
              "Error: --table, --since, --until and --serial search a club; give --club URL too.",
              "Ошибка: --table, --since, --until и --serial ищут в клубе; укажите и --club URL."),
             (["ledger", "--table", "T1"], "Error: --table chooses a table of the club; give --club URL too.",
              "Ошибка: --table выбирает стол клуба; укажите и --club URL."),
             (["ledger", "--club", "postgresql:///x", "--log", "y"],
              "Error: --club and --log name two sources; give one of them.",
              "Ошибка: --club и --log — два источника; укажите один.")]
    refused_alike(cases, no_english=False)


def test_n8_serve_s_refusals_of_host_port_and_delay_are_russian():
    """N8 (fresh trial): ``serve --host 10.9.9.9``, a port in use, ``--delay -1`` with --lang ru."""
    import socket

    busy = socket.socket()
    busy.bind(("127.0.0.1", 0))
    busy.listen(1)
    port = busy.getsockname()[1]
    try:
        cases = [(["serve", "--host", "a b"], "Error: --host 'a b' is not an address or a host name; give e.g. "
                  "127.0.0.1 or 0.0.0.0.", "Ошибка: --host 'a b' — не адрес и не имя компьютера; укажите, например, "
                  "127.0.0.1 или 0.0.0.0."),
                 (["serve", "--port", str(port)], f"Error: Port {port} on 127.0.0.1 is in use (another dealer-assist "
                  "serve?); give another --port, or --port 0 for any free one.", f"Ошибка: Порт {port} на 127.0.0.1 "
                  "занят (другим dealer-assist serve?); укажите другой --port или --port 0 — любой свободный."),
                 (["serve", "--delay", "-1"], "must be a number of seconds from 0 up, not -1.0.",
                  "Неверное значение '--delay': должно быть числом секунд от 0, а не -1.0.")]
        refused_alike(cases)
    finally:
        busy.close()


@pytest.mark.parametrize("lang, row, caption", [
    ("en", ["top_right", "0.790 0.160 0.960 0.230", "red"], "aspect 2.275, 2 photo(s)"),
    ("ru", ["справа вверху", "0,790 0,160 0,960 0,230", "красная"], "соотношение сторон 2,275, фото: 2")])
def test_n9_calibrate_notes_table_in_the_language(lang, row, caption):
    """N9 (fresh trial): ``calibrate notes … --lang ru`` showed "top_right", "red", "0.772" and "2.283"."""
    import io

    from rich.console import Console

    from dealer_assist.calibration.profile import NoteLayout, PrintLayout
    from dealer_assist.cli.calibration_report import notes_table

    layout = NoteLayout(2.275, (PrintLayout("top_right", (0.79, 0.16, 0.96, 0.23), (110.0, 100.0, 180.0), "red"),
                                PrintLayout("left", (0.03, 0.6, 0.25, 0.68), (40.0, 40.0, 40.0), "dark")), samples=2)
    console = Console(file=io.StringIO(), width=80, color_system=None)
    console.print(notes_table(layout, "mynotes", lang))
    text = console.file.getvalue()
    cells = [[cell.strip() for cell in line.split("│")[1:-1]] for line in text.splitlines() if line.startswith("│")]
    assert cells[0] == row, text
    assert caption in text, text


def test_trial4_the_rollover_tie_policy_is_said_in_russian():
    """Trial 4 (M1): the Russian header said "при равенстве: Roll Over", an English term mid-sentence."""
    hand = ["eval", "--position", "4", "--board", "1234567", "--board", "2345678", "--board", "3456789",
            "--player", "alice=7654321,0102030", "--player", "bob=9876543,1112131", "--tie-policy", "rollover",
            "--zero-joker", "per-zero"]
    en, ru = (CliRunner().invoke(app, [*hand, "--lang", lang], env={"COLUMNS": "80"}) for lang in ("en", "ru"))
    assert ru.exit_code == en.exit_code == 0, ru.output
    assert ru.stdout.splitlines()[0] == "Игровое место P=4 · ноль-джокер: за каждый ноль · при равенстве: перенос банка"
    assert "ties: roll over" in en.stdout.splitlines()[0]


@pytest.mark.parametrize("key, typed, name, args", [
    ("c", "chips P3 25", "chips", ("P3", "25")),      # the form the refusal's example writes
    ("c", "P3 25", "chips", ("P3", "25")),            # the form the box's hint writes
    ("e", "serial P1 1 7008302", "serial", ("P1 1", "7008302")),
    ("e", "P1 1 7008302", "serial", ("P1 1", "7008302")),
])
def test_trial4_the_dashboard_boxes_take_the_command_as_the_refusals_write_it(key, typed, name, args):
    """Trial 4 (M10): the c box opens with 'chips ' filled in, so 'chips P3 25' -- the example of its own
    refusal -- became 'chips chips P3 25' and was refused again, in a loop."""
    from dealer_assist.live.commands import Command, CommandName, KeyInput

    box = KeyInput()
    assert box.feed(key) is None and box.prompt in ("chips ", "serial ")
    for ch in typed:
        box.feed(ch)
    assert box.feed("\r") == Command(CommandName(name), args) and box.error == ""


def test_trial4_a_repeated_word_other_than_the_command_is_still_refused():
    from dealer_assist.live.commands import KeyInput

    box = KeyInput()
    box.feed("c")
    for ch in "serial P3 25":
        box.feed(ch)
    assert box.feed("\r") is None and box.error == "Give the seat and a whole number of chips, e.g. 'P3 25'."  # the box's form


_ALICE_SHORT = ('{"position": 4, "board": [], "players": [{"name": "alice", "pocket": ["7654321"]}, '
                '{"name": "bob", "pocket": ["9876543", "1112131"]}]}\n')
_TWICE_ON_BOARD = ('{"position": 4, "board": ["1234567", "1234567", "3456789"], "players": [{"name": "a", '
                   '"pocket": ["7654321", "1111111"]}, {"name": "b", "pocket": ["9876543", "1112131"]}]}\n')
_ONE_NAME_TWICE = ('{"position": 4, "board": ["1234567", "2234567", "3456789"], "players": [{"name": "a", '
                   '"pocket": ["7654321", "1111111"]}, {"name": "a", "pocket": ["9876543", "1112131"]}]}\n')


@pytest.mark.parametrize("args, line, en_said, ru_said", [
    (["odds", "--hands", "-"], _ALICE_SHORT,
     "line 1: players[0].pocket[1] is not known; the odds need both pocket notes of every player still in "
     "('alice' has neither folded nor declined to reveal).",
     "строка 1: players[0].pocket[1] неизвестна; для шансов нужны обе карманные купюры каждого игрока, "
     "оставшегося в игре ('alice' не сбросил карты и не отказался вскрываться)."),
    (["eval", "--hands", "-", "--reject-duplicates"], _TWICE_ON_BOARD,
     "line 1: serial 1234567 appears in board[0] and board[1]; one note cannot lie in two places.",
     "строка 1: номер 1234567 встречается в board[0] и board[1]; одна купюра не может лежать в двух местах."),
    (["eval", "--hands", "-"], _ONE_NAME_TWICE,
     "line 1: players[1].name 'a' is used by another player.",
     "строка 1: players[1].name 'a' уже занято другим игроком."),
])
def test_trial4_hand_line_refusals_of_odds_and_eval_in_russian(args, line, en_said, ru_said):
    """Trial 4 (M8): these hand-line refusals stayed English under --lang ru."""
    en, ru, by_locale = both(args, stdin=line)
    assert en.exit_code == ru.exit_code == by_locale.exit_code == 1, ru.output
    assert en_said in flat(en.output)
    assert ru_said in flat(ru.output) and ru_said in flat(by_locale.output)
