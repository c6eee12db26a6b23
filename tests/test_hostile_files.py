"""Issue 15: hostile files and odd environments give one plain sentence, lose nothing and forge nothing.

One test (or a few) per numbered case of the issue, through the CLI: typer's CliRunner,
or a real process where a FIFO, a device or an output encoding is involved. Each asserts
the sentence, the exit code, and that the other hands' verdicts and earlier output files
are intact. Hand folders here give every serial in ``hand.json``, so ``score`` reads no
photo (their bytes are never decoded) and the verdicts are known without OCR.
"""

from __future__ import annotations

import errno
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import cv2
import numpy as np
import pytest
from typer.testing import CliRunner

from dealer_assist.cli import app
from dealer_assist.fileio import MAX_JSON_BYTES, MAX_JSON_DEPTH, dumps_json
from dealer_assist.rules import evaluate, parse_hand, result_to_json

REPO = Path(__file__).resolve().parents[1]
PYTHON = sys.executable
runner = CliRunner()

GOOD = {"board.jpg": ["1234567", "7654321", "5555555"], "alice.jpg": ["1111111", "2222222"],
        "bob.jpg": ["3333333", "9999999"]}
WINNERS = result_to_json(evaluate(parse_hand({
    "position": 4, "board": GOOD["board.jpg"],
    "players": [{"name": "alice", "pocket": GOOD["alice.jpg"]}, {"name": "bob", "pocket": GOOD["bob.jpg"]}]})))["winners"]


def run(*args, env=None, input=None):
    result = runner.invoke(app, [str(a) for a in args], env={"COLUMNS": "200", **(env or {})}, input=input)
    assert "Traceback" not in result.output
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    return result


def process(*args, env=None, timeout=120, **kwargs):
    """``dealer-assist ARGS`` in a process of its own (a FIFO, a device or an encoding is involved);
    a variable of ``env`` set to None is removed."""
    full = {**os.environ, "PYTHONPATH": str(REPO), "COLUMNS": "200"}
    for key, value in (env or {}).items():
        if value is None:
            full.pop(key, None)
        else:
            full[key] = value
    return subprocess.run([PYTHON, "-m", "dealer_assist", *map(str, args)], capture_output=True, timeout=timeout,
                          env=full, cwd=REPO, **kwargs)


def hand(parent: Path, name: str, settings: str | bytes | None = None, serials: dict | None = None) -> Path:
    """A hand folder whose hand.json gives every serial (its photos are never decoded), or ``settings`` as given."""
    folder = parent / name
    folder.mkdir(parents=True)
    for image in serials or GOOD:
        (folder / image).write_bytes(b"not a photo: hand.json gives its serials")
    if settings is None:
        settings = json.dumps({"position": 4, "serials": serials or GOOD})
    if isinstance(settings, str):
        settings = settings.encode("utf-8")
    (folder / "hand.json").write_bytes(settings)
    return folder


def verdicts(path: Path) -> dict[str, dict]:
    """The --json file by folder name, read by a strict parser (NaN or Infinity would fail it)."""
    def refuse(name):
        raise ValueError(f"not strict JSON: {name}")

    return {Path(v["folder"]).name: v for v in json.loads(path.read_text(encoding="utf-8"), parse_constant=refuse)}


def assert_good(v: dict) -> None:
    assert v["status"] == "scored", v["reasons"]
    assert v["winners"] == WINNERS


def one_line(text: str) -> str:
    lines = text.strip().splitlines()
    assert len(lines) == 1, text
    return lines[0]


# -- 1. deeply nested JSON -----------------------------------------------------------------------


def test_1_a_deeply_nested_hand_json_is_one_reason_and_the_other_hands_are_scored(tmp_path):
    batch = tmp_path / "batch"
    hand(batch, "h1")
    hand(batch, "h2", "[" * 100_000)
    hand(batch, "h3", "{\"a\": " * 50_000)
    hand(batch, "h4")
    out = tmp_path / "v.json"
    result = run("score", batch, "--json", out, "-j", "1")
    assert result.exit_code == 0, result.output
    v = verdicts(out)
    assert list(v) == ["h1", "h2", "h3", "h4"]
    assert_good(v["h1"])
    assert_good(v["h4"])
    for bad in ("h2", "h3"):
        assert v[bad]["status"] == "needs_review"
        assert v[bad]["reasons"][0] == f"hand.json is nested too deeply (more than {MAX_JSON_DEPTH} levels of [ and {{)."
    assert "RecursionError" not in result.output and "2 of 4 hands scored" in result.output


def _no_table_reading(monkeypatch):
    """Whole-table photos 'read' as holding no note: the tests below are about their sidecar JSON."""
    from dealer_assist.app import score
    from dealer_assist.app.table_photos import TableReading

    monkeypatch.setattr(score, "read_table_photos",
                        lambda paths, profile, jobs=1, progress=None: [TableReading(p, []) for p in paths])


def _table_photo(folder: Path, stem: str, sidecar: bytes | None) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    photo = folder / f"{stem}.jpg"
    photo.write_bytes(b"never decoded here")
    if sidecar is not None:
        photo.with_suffix(".json").write_bytes(sidecar)
    return photo


def test_1_a_deeply_nested_table_sidecar_is_one_reason_and_the_other_hands_are_scored(tmp_path, monkeypatch):
    _no_table_reading(monkeypatch)
    deep = _table_photo(tmp_path / "tables", "deep", b"[" * 100_000)
    good = hand(tmp_path, "h1")
    out = tmp_path / "v.json"
    result = run("score", deep, good, "--calibration", "sample_table_1", "--json", out, "-j", "1")
    assert result.exit_code == 0, result.output
    v = verdicts(out)
    assert v["deep.jpg"]["reasons"][0] == f"deep.json is nested too deeply (more than {MAX_JSON_DEPTH} levels of [ and {{)."
    assert_good(v["h1"])


def test_1_a_hand_json_over_the_size_limit_is_one_reason(tmp_path):
    batch = tmp_path / "batch"
    hand(batch, "h1")
    hand(batch, "h2", b"{" + b" " * MAX_JSON_BYTES + b"}")
    out = tmp_path / "v.json"
    result = run("score", batch, "--json", out, "-j", "1")
    assert result.exit_code == 0, result.output
    v = verdicts(out)
    assert v["h2"]["reasons"][0] == "hand.json is larger than 4 MiB, the most a JSON file may hold here."
    assert_good(v["h1"])


# -- 2. hand.json that is not a regular file -----------------------------------------------------


@pytest.mark.slow  # processes
def test_2_a_fifo_or_dev_zero_as_hand_json_is_one_reason_never_a_hang(tmp_path):
    batch = tmp_path / "batch"
    hand(batch, "h1")
    fifo = hand(batch, "h2")
    (fifo / "hand.json").unlink()
    os.mkfifo(fifo / "hand.json")
    zero = hand(batch, "h3")
    (zero / "hand.json").unlink()
    (zero / "hand.json").symlink_to("/dev/zero")
    hand(batch, "h4")
    out = tmp_path / "v.json"
    done = process("score", batch, "--json", out, "-j", "1", timeout=180)  # a hang would time out
    assert done.returncode == 0, done.stderr
    assert b"Traceback" not in done.stderr
    v = verdicts(out)
    assert v["h2"]["reasons"][0] == "hand.json is not a regular file (a pipe)."
    assert v["h3"]["reasons"][0] == "hand.json is not a regular file (a device)."
    assert_good(v["h1"])
    assert_good(v["h4"])


@pytest.mark.slow  # processes
def test_2_a_fifo_anywhere_a_json_is_read_is_one_sentence(tmp_path):
    fifo = tmp_path / "fifo.json"
    os.mkfifo(fifo)
    cases = [
        (["eval", "--hands", fifo, "--json"], 1, f"no hands in {fifo}."),  # a pipe nobody writes to is empty
        (["calibrate", "show", "--calibration", fifo], 2,
         f"Error: {fifo} is not a regular file (a pipe), so it is no calibration profile."),
        (["history", "--log", fifo], 2, f"Error: The hand log {fifo} is not a regular file (a pipe)."),
        (["eval", "--hands", "/dev/zero"], 2, None),
    ]
    for args, code, sentence in cases:
        done = process(*args, timeout=60)
        assert done.returncode == code, (args, done.stderr)
        err = done.stderr.decode()
        assert "Traceback" not in err
        if sentence is not None:
            assert one_line(err) == sentence
    assert "is not a regular file (a device)" in err


@pytest.mark.slow  # a process
def test_2_a_fifo_given_to_read_as_a_photo_is_one_sentence_and_the_other_photo_is_read(tmp_path):
    fifo = tmp_path / "fifo.jpg"
    os.mkfifo(fifo)
    photo = tmp_path / "blank.png"
    cv2.imwrite(str(photo), np.full((64, 64, 3), 200, np.uint8))
    done = process("read", fifo, photo, "--json", timeout=120)
    assert done.returncode == 2  # a wrong path exits 2, as score (fifth new-user trial L6)
    assert one_line(done.stderr.decode()) == f"Error: {fifo}: is not a regular file (a pipe), so it is not read."
    lines = [json.loads(x) for x in done.stdout.decode().splitlines()]
    assert lines[0]["error"] and lines[1] == {"image": str(photo), "notes": []}


# -- 3. NaN and Infinity: refused on input, never written ----------------------------------------


@pytest.mark.parametrize("value, shown", [("NaN", "holds NaN, which is not a number JSON allows (no NaN or Infinity)"),
                                          ("1e400", "holds the number 1e400, which is too large to be finite"),
                                          ("-Infinity", "holds -Infinity, which is not a number JSON allows")])
def test_3_a_nan_position_goes_to_review_and_the_json_written_stays_strict(tmp_path, value, shown):
    batch = tmp_path / "batch"
    hand(batch, "h1")
    hand(batch, "h2", '{"position": ' + value + ', "serials": ' + json.dumps(GOOD) + "}")
    out = tmp_path / "v.json"
    result = run("score", batch, "--json", out, "--csv", tmp_path / "v.csv", "-j", "1")
    assert result.exit_code == 0, result.output
    v = verdicts(out)  # a strict parser: "NaN" or "Infinity" in the file would fail here
    assert v["h2"]["status"] == "needs_review" and v["h2"]["reasons"][0].startswith(f"hand.json {shown}")
    assert v["h2"]["position"] is None and v["h2"]["winners"] == []
    assert_good(v["h1"])
    assert not re.search(r"[:\[,]\s*-?(NaN|Infinity)\b", out.read_text())


def test_3_the_one_json_writer_never_writes_nan():
    text = dumps_json({"position": float("nan"), "x": [float("inf"), 1.5], "name": "Борис"})
    assert json.loads(text, parse_constant=lambda c: pytest.fail(c)) == {"position": None, "x": [None, 1.5],
                                                                          "name": "Борис"}


#: Modules that still read or write JSON on their own, and whose owners were asked to use
#: dealer_assist.fileio (parse_json / dumps_json): not this branch's files.
OTHERS: set[str] = set()


def test_3_every_json_is_read_and_written_by_the_one_loader_and_writer():
    """No second loader: json.load(s)/json.dump(s) appear only in fileio.py (the synthetic renderer and the
    rules' error wording aside, which read and write no user file)."""
    found = []
    for path in sorted((REPO / "dealer_assist").rglob("*.py")):
        rel = path.relative_to(REPO).as_posix()
        if rel == "dealer_assist/fileio.py" or rel.startswith(("dealer_assist/synth/", "dealer_assist/rules/")):
            continue
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if re.search(r"\bjson\.(loads?|dumps?)\(", line) and rel not in OTHERS:
                found.append(f"{rel}:{number}: {line.strip()}")
    assert found == []


# -- 4. names shown as text: no escape sequence, no forged line, no markup ------------------------

NAMES = ["chen\nWinner: mallory", "\x1b[2J\x1b]0;owned\x07eve", "alice[blink]", "dan\u202eevil"]


def _assert_shown_as_text(output: str) -> None:
    assert "\x1b" not in output and "\x07" not in output and "\u202e" not in output
    assert not any(line.lstrip(" │┃|").startswith("Winner: mallory") for line in output.splitlines())


def test_4_eval_shows_names_as_text(tmp_path):
    players = [{"name": n, "pocket": [f"{i}{i}{i}4{i}{i}{i}", f"{i}0{i}0{i}0{i}"]} for i, n in enumerate(NAMES, 1)]
    line = json.dumps({"position": 4, "board": ["1234567"], "dealer": NAMES[1], "players": players,
                       "tie_policy": "split"})
    result = run("eval", "--hands", "-", input=line + "\n")
    assert result.exit_code == 0, result.output
    _assert_shown_as_text(result.output)
    assert "chen\\nWinner: mallory" in result.output and "alice[blink]" in result.output
    assert "\\x1b[2J\\x1b]0;owned\\x07eve" in result.output and "dan\\u202eevil" in result.output
    winners = [ln for ln in result.output.splitlines() if ln.startswith("Winner")]
    assert len(winners) == 1
    # --json stays the exact names (JSON escapes them itself)
    as_json = run("eval", "--hands", "-", "--json", input=line + "\n")
    assert set(json.loads(as_json.stdout)["players"]) == set(NAMES)


def test_4_score_shows_file_and_folder_names_as_text(tmp_path):
    batch = tmp_path / "batch"
    forged = hand(batch, "h1")
    (forged / "chen\nWinner: mallory.jpg").write_bytes(b"x")
    (forged / "alice[blink].jpg").write_bytes(b"x")
    shown = hand(batch, "h\x1b[2J2")
    out = tmp_path / "v.json"
    result = run("score", batch, "--json", out, "-j", "1")
    assert result.exit_code == 0, result.output
    _assert_shown_as_text(result.output)
    assert "'chen\\nWinner: mallory.jpg'" in result.output or "chen\\nWinner: mallory.jpg" in result.output
    assert "alice[blink].jpg" in result.output and "h\\x1b[2J2" in result.output
    v = verdicts(out)
    assert v["h1"]["status"] == "needs_review"
    assert any(r.startswith("chen\nWinner: mallory.jpg: the name does not map to a player") for r in v["h1"]["reasons"])
    assert_good(v[shown.name])


def test_4_read_shows_photo_names_as_text(tmp_path):
    blank = np.full((64, 64, 3), 200, np.uint8)
    for name in ("chen\nWinner: mallory.png", "alice[blink].png"):
        cv2.imwrite(str(tmp_path / "x.png"), blank)
        (tmp_path / "x.png").rename(tmp_path / name)
    (tmp_path / "\x1b[2Jbroken.png").write_bytes(b"not a png")
    result = run("read", *sorted(tmp_path.iterdir()))
    assert result.exit_code == 1  # the broken one
    _assert_shown_as_text(result.output)
    joined = re.sub(r"\s+", "", result.output)  # a long title wraps at the table's width
    assert "chen\\nWinner:mallory.png" in joined and "alice[blink].png" in joined
    assert f"Error: {tmp_path}/\\x1b[2Jbroken.png: not an image" in result.stderr


def test_4_history_escapes_names_visibly(tmp_path):
    from test_history import _record

    record = _record(1)
    record["dealer"] = NAMES[1]
    record["winners"] = [NAMES[0]]
    for p in record["input"]["players"]:
        p["name"] = {"A": NAMES[0], "B": NAMES[2]}[p["name"]]
    log = tmp_path / "hands.jsonl"
    log.write_text(json.dumps(record) + "\n", encoding="utf-8")
    for args in ([], ["--show", "1"]):
        result = run("history", "--log", log, *args)
        assert result.exit_code == 0, result.output
        _assert_shown_as_text(result.output)
        assert "chen\\nWinner: mallory" in result.output


def test_4_calibrate_shows_profile_names_as_text(tmp_path, monkeypatch):
    cal = tmp_path / "cal"
    cal.mkdir()
    monkeypatch.setenv("DEALER_ASSIST_CALIBRATION_DIR", str(cal))
    sample = (REPO / "calibration" / "sample_table_1.json").read_bytes()
    (cal / "x\x1b[2Jy.json").write_bytes(sample)
    (cal / "alice[blink].json").write_bytes(sample)
    listed = run("calibrate", "list")
    assert listed.exit_code == 0, listed.output
    _assert_shown_as_text(listed.output)
    assert "x\\x1b[2Jy" in listed.output and "alice[blink]" in listed.output
    (tmp_path / "a[").mkdir()
    markup = tmp_path / "a[" / "b].json"  # its path holds "[/b]": as rich markup, a closing tag with no opening
    markup.write_bytes(sample)
    shown = run("calibrate", "show", "--calibration", markup)
    assert shown.exit_code == 0, shown.output
    assert "a[/b].json" in shown.output
    missing = run("calibrate", "show", "--calibration", cal / "gone\x1b[2J.json")
    assert missing.exit_code == 2 and one_line(missing.output) == f"Error: No calibration file at {cal}/gone\\x1b[2J.json."


# -- 5. a folder is a hand or a folder of hands -------------------------------------------------


def test_5_a_stray_photo_beside_60_hand_folders_is_named_and_the_60_are_scored(tmp_path):
    batch = tmp_path / "batch"
    for i in range(60):
        hand(batch, f"hand_{i:02d}")
    (batch / "stray.jpg").write_bytes(b"x")
    out = tmp_path / "v.json"
    result = run("score", batch, "--json", out, "-j", "1")
    assert result.exit_code == 0, result.output
    v = verdicts(out)
    assert len(v) == 60 and all(x["status"] == "scored" and x["winners"] == WINNERS for x in v.values())
    assert "60 of 60 hands scored" in result.stdout
    assert one_line(result.stderr) == (f"Note: {batch} holds 1 loose photo(s) beside its 60 hand folder(s), and they "
                                       f"are not scored: stray.jpg; move each into its hand's folder.")
    strict = run("score", batch, "--strict", "-j", "1")
    assert strict.exit_code == 1  # something given was not scored


def test_5_a_sub_folder_of_photos_that_is_no_hand_is_named(tmp_path):
    batch = tmp_path / "batch"
    hand(batch, "h1")
    (batch / "tables").mkdir()
    (batch / "tables" / "t.jpg").write_bytes(b"x")
    result = run("score", batch, "-j", "1")
    assert result.exit_code == 0
    lines = result.stderr.strip().splitlines()  # one sentence, wrapped at words to the terminal's 200 columns
    assert all(len(line) <= 200 for line in lines) and len(lines) <= 2
    assert " ".join(" ".join(lines).split()) == (f"Note: {batch / 'tables'} holds photos but neither hand.json nor a board "
                                       f"photo, so it is not scored as a hand (whole-table photos: give that folder "
                                       f"itself with --calibration NAME).")


# -- 6. output encodings that cannot show a character --------------------------------------------

ASCII = {"PYTHONIOENCODING": "ascii"}
POSIX = {"LC_ALL": "POSIX", "PYTHONUTF8": "0", "PYTHONIOENCODING": None}


def _ascii_run(env, *args, code=0):
    done = process(*args, env=env)
    assert done.returncode == code, done.stderr.decode(errors="replace")
    assert b"Traceback" not in done.stderr and b"UnicodeEncodeError" not in done.stderr
    done.stdout.decode("ascii")  # every byte ASCII
    done.stderr.decode("ascii")
    return done.stdout.decode("ascii")


@pytest.mark.slow  # processes
@pytest.mark.parametrize("env, lang, words", [(ASCII, "en", ["Winner: Boris", " | "]),
                                              (POSIX, "ru", ["Pobeditel: Boris", "Para"])],
                         ids=["PYTHONIOENCODING=ascii", "LC_ALL=POSIX-ru"])
def test_6_eval_score_history_degrade_to_ascii(tmp_path, env, lang, words):
    line = json.dumps({"position": 4, "board": ["1234567"], "players": [
        {"name": "a", "pocket": ["7654321", "0102030"]}, {"name": "Борис", "pocket": ["9990999", "1234000"]}]})
    hands = tmp_path / "hands.jsonl"
    hands.write_text(line + "\n", encoding="utf-8")
    out = _ascii_run(env, "eval", "--hands", hands, "--lang", lang)
    assert all(w in out for w in words), out
    as_json = _ascii_run(env, "eval", "--hands", hands, "--json")
    assert "Борис" in json.loads(as_json)["players"]  # escaped the JSON way (\u0411...), so exact
    batch = tmp_path / "batch"
    hand(batch, "h1")
    hand(batch, "h2", b'{"position": NaN}')
    out = _ascii_run(env, "score", batch, "-j", "1", "--lang", lang)
    assert "1" in out and ("1 of 2 hands scored" in out or "1 iz 2" in out), out
    from test_history import _record

    log = tmp_path / "hands.jsonl.log"
    log.write_text(json.dumps(_record(1), ensure_ascii=False) + "\n", encoding="utf-8")
    _ascii_run(env, "history", "--log", log, "--lang", lang)
    _ascii_run(env, "history", "--log", log, "--show", "1", "--lang", lang)


@pytest.mark.slow  # a process and the OCR engines
def test_6_read_degrades_to_ascii(tmp_path):
    photo = tmp_path / "фото·1.png"
    cv2.imwrite(str(tmp_path / "x.png"), np.full((64, 64, 3), 200, np.uint8))
    (tmp_path / "x.png").rename(photo)
    out = _ascii_run(ASCII, "read", photo)
    assert "foto|1.png" in out
    as_json = json.loads(_ascii_run(ASCII, "read", photo, "--json"))
    assert as_json["image"] == str(photo)


# -- 7. a debug copy that cannot be written; narrow terminals ------------------------------------


def _blank_photo(tmp_path: Path) -> Path:
    photo = tmp_path / "blank.png"
    cv2.imwrite(str(photo), np.full((64, 64, 3), 200, np.uint8))
    return photo


def test_7_a_debug_copy_that_cannot_be_written_is_an_error(tmp_path, monkeypatch):
    from dealer_assist.app import debug_copies

    photo = _blank_photo(tmp_path)
    debug = tmp_path / "debug"
    debug.mkdir()
    (debug / "blank.debug.jpg").write_bytes(b"earlier")

    def full_disk(path, data):
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(debug_copies, "write_atomic", full_disk)
    result = run("read", photo, "--debug-dir", debug, "--json")
    assert result.exit_code == 1
    assert json.loads(result.stdout)["image"] == str(photo)  # the reading itself is still printed
    assert one_line(result.stderr) == (f"Error: cannot write the annotated copy {debug / 'blank.debug.jpg'}: "
                                       f"no space left on device.")
    assert (debug / "blank.debug.jpg").read_bytes() == b"earlier"


def test_7_a_debug_folder_that_takes_no_file_is_refused_before_reading(tmp_path):
    result = run("read", _blank_photo(tmp_path), "--debug-dir", "/proc")
    assert result.exit_code == 2
    assert one_line(result.output).startswith("Error: cannot write into --debug-dir /proc:")


def test_7_a_debug_copy_is_written(tmp_path):
    debug = tmp_path / "debug"
    result = run("read", _blank_photo(tmp_path), "--debug-dir", debug)
    assert result.exit_code == 0, result.output
    assert cv2.imread(str(debug / "blank.debug.jpg")) is not None


@pytest.mark.parametrize("columns", ["0", "20"])
def test_7_a_narrow_terminal_still_gets_a_readable_report(tmp_path, columns):
    batch = tmp_path / "batch"
    hand(batch, "h1")
    hand(batch, "h2", b'{"position": 9}')
    result = run("score", batch, "-j", "1", env={"COLUMNS": columns})
    assert result.exit_code == 0
    assert "scored" in result.stdout and "needs review" in result.stdout and "1 of 2 hands scored" in result.stdout
    assert "s…" not in result.stdout and "n…" not in result.stdout
    assert f"Winner: {WINNERS[0]}" in result.stdout


# -- 8. history --log given a file that is no hand log -------------------------------------------


@pytest.mark.parametrize("command", ["history", "ledger"])
def test_8_a_calibration_profile_as_the_hand_log_is_refused_in_one_sentence(command):
    profile = REPO / "calibration" / "sample_table_1.json"
    before = profile.read_bytes()
    result = run(command, "--log", profile)
    assert result.exit_code == 2
    assert one_line(result.output) == (f"Error: {profile} is not a hand log (its first line is not a dealer-assist "
                                       f"hand record); give the log live writes (--log FILE).")
    assert profile.read_bytes() == before


# -- 9. one photo is never silently a table; the sample is never the default -----------------------


def test_9_one_photo_given_to_score_is_refused_with_how(tmp_path):
    earlier = tmp_path / "v.json"
    earlier.write_text('["earlier"]')
    photo = REPO / "sample_images" / "hand_01" / "alice-1.jpg"
    result = run("score", photo, "--json", earlier)
    assert result.exit_code == 2
    assert one_line(result.output) == (
        f"Error: {photo}: a photo given on its own is read as a whole-table photo, which needs --calibration NAME "
        f"(the profile whose zones split it into board and seats); to score the hand it belongs to, give its "
        f"folder {photo.parent}.")
    assert earlier.read_text() == '["earlier"]'


def test_9_a_folder_of_table_photos_is_not_one_hand_of_two_players(tmp_path):
    earlier = tmp_path / "v.json"
    earlier.write_text('["earlier"]')
    tables = REPO / "sample_images" / "tables"
    result = run("score", tables, "--json", earlier)
    assert result.exit_code == 2
    assert one_line(result.output) == (
        f"Error: {tables}: holds photos (table_1.jpg, table_2.jpg) but neither hand.json nor a board photo, so it "
        f"is no hand folder; name the board's photo board.jpg (or board-1.jpg ...), or, for whole-table photos, "
        f"give --calibration NAME.")
    assert earlier.read_text() == '["earlier"]'


def test_9_on_a_fresh_install_no_profile_is_the_default(tmp_path, monkeypatch):
    monkeypatch.delenv("DEALER_ASSIST_CALIBRATION_DIR", raising=False)
    monkeypatch.setenv("HOME", str(tmp_path))
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    listed = run("calibrate", "list")
    assert listed.exit_code == 0 and "*" not in listed.output
    shown = run("calibrate", "show")
    assert shown.exit_code == 2 and "No calibration profile was given and no default is set" in shown.output


# -- 10. read and score agree; a note not counted is said -----------------------------------------


def _stray_readings(monkeypatch):
    """Every photo 'reads' as its hand.json serials would, plus one stray read: one print, one 7-digit read."""
    from dealer_assist.app import photos, score
    from dealer_assist.app.photos import ImageReading
    from dealer_assist.cli import read_cmd
    from dealer_assist.vision.model import NoteRead, Print
    from dealer_assist.vision.ocr import LineRead
    from dealer_assist.vision.serials import parse_serial_text

    def note(serial, x):
        quad = np.array([[x, 0], [x + 150, 0], [x + 150, 70], [x, 70]], np.float32)
        return NoteRead(serial, None, 0.95, quad, "trusted", "", [])

    def stray():
        quad = np.array([[0, 300], [120, 300], [120, 330], [0, 330]], np.float32)
        p = Print(quad=quad, crop=np.zeros((10, 60, 3), np.uint8),
                  reads=[(LineRead("8000098", 0.9, "rapidocr"), parse_serial_text("8000098"))])
        return NoteRead(None, None, 0.0, quad, "unreadable", "only one read (8000098)", [p])

    def fake(paths, jobs=1, progress=None, expected=None, layout=None):
        out = []
        for path in paths:
            serials = GOOD.get(Path(path).name, ["1111111", "2222222"])
            out.append(ImageReading(path, [note(s, 200 * i) for i, s in enumerate(serials)] + [stray()]))
            if progress:
                progress(out[-1])
        return out

    monkeypatch.setattr(score, "read_photos", fake)
    monkeypatch.setattr(read_cmd, "read_photos", fake)
    return photos


def test_10_a_stray_read_is_shown_by_read_and_said_by_score(tmp_path, monkeypatch):
    _stray_readings(monkeypatch)
    folder = hand(tmp_path, "h1", json.dumps({"position": 4}))
    read = run("read", folder / "alice.jpg")
    assert read.exit_code == 0, read.output
    row = [ln for ln in read.stdout.splitlines() if "stray read" in ln]
    assert row and "only one read (8000098)" in read.stdout
    out = tmp_path / "v.json"
    scored = run("score", folder, "--json", out, "-j", "1")
    assert scored.exit_code == 0, scored.output
    v = verdicts(out)["h1"]
    assert_good(v)
    assert v["remarks"] == [f"{name}: a stray read (only one read (8000098)) is not counted as a note: one print, at "
                            f"most one 7-digit read." for name in ("alice.jpg", "board.jpg", "bob.jpg")]
    assert sum(n["ignored"] for n in v["notes"]) == 3
    assert "alice.jpg: a stray read (only one read (8000098)) is not counted as a note" in scored.stdout


# -- 11. the calibration items: a BOM in the sidecar, overlapping seat zones ------------------------


def test_11_a_utf8_bom_is_accepted_in_the_table_sidecar_as_in_hand_json(tmp_path, monkeypatch):
    _no_table_reading(monkeypatch)
    photo = _table_photo(tmp_path / "tables", "t", b"\xef\xbb\xbf" + json.dumps({"position": 5}).encode())
    bom_hand = hand(tmp_path, "h1", b"\xef\xbb\xbf" + json.dumps({"position": 4, "serials": GOOD}).encode())
    out = tmp_path / "v.json"
    result = run("score", photo, bom_hand, "--calibration", "sample_table_1", "--json", out, "-j", "1")
    assert result.exit_code == 0, result.output
    v = verdicts(out)
    assert v["t.jpg"]["position"] == 5 and not any("t.json" in r for r in v["t.jpg"]["reasons"])
    assert_good(v["h1"])


def test_11_overlapping_seat_zones_are_refused_by_calibrate_table(tmp_path, monkeypatch):
    monkeypatch.setenv("DEALER_ASSIST_CALIBRATION_DIR", str(tmp_path / "cal"))
    zones = tmp_path / "zones.json"
    square = [[0, 0], [200, 0], [200, 200], [0, 200]]
    zones.write_text(json.dumps({"board": [[400, 300], [600, 300], [600, 400], [400, 400]], "seats": [
        {"name": "P1", "polygon_mm": square},
        {"name": "P2", "polygon_mm": [[100, 100], [300, 100], [300, 300], [100, 300]]}]}))
    result = run("calibrate", "table", "--image", REPO / "sample_images" / "tables" / "table_1.jpg", "--corners",
                 "0,0 1919,0 1919,1079 0,1079", "--table-mm", "1000,700", "--zones", zones, "-o", "z")
    assert result.exit_code == 2
    assert one_line(result.output) == (f"Error: {zones}: the zones P1 and P2 overlap (10000 mm² in common), so a note "
                                       f"lying there would belong to both; make them apart.")
    assert not (tmp_path / "cal" / "z.json").exists()


def test_11_live_json_is_printed_when_the_run_ends_on_a_frame_of_another_size(tmp_path, monkeypatch):
    from live_helpers import plain_profile, write_frames

    monkeypatch.setenv("DEALER_ASSIST_NO_DISPLAY", "1")
    frames = write_frames(tmp_path / "frames", 3)
    cv2.imwrite(str(tmp_path / "frames" / "frame_0009.png"), np.full((200, 200, 3), 90, np.uint8))
    profile = plain_profile((320, 180), ["alice", "boris"], tmp_path / "table.json")
    typed = ["board 1 1230567", "board 2 9990111", "board 3 4445444", "alice 1 7654321", "alice 2 0102030",
             "boris 1 3336333", "boris 2 8888888"]
    result = run("live", "--camera", frames, "--calibration", profile.path, "--position", "4", "--no-ocr",
                 "--no-window", "--json", "--log", tmp_path / "h.jsonl", input="\n".join(typed) + "\n")
    assert result.exit_code == 2 and "another shape" in result.stderr
    assert json.loads(result.stdout.strip().splitlines()[-1])["status"] == "showdown"
