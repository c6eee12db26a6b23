"""Errors and warnings on a terminal are wrapped at word boundaries (issue 22, items 8 and 10: a new user at
80 columns saw ``--calibration NAM / E`` cut in two); to a file or a pipe each stays one line (grep)."""

from __future__ import annotations

import io
import os
import select
import subprocess
import sys
import time
from pathlib import Path

from dealer_assist.cli.options import echo_err
from live_helpers import pseudo_terminal

ROOT = Path(__file__).resolve().parents[1]
LONG = ("the folder sample_images/tables holds photos but no hand folder; name the board's photo board.jpg "
        "(or board-1.jpg ...), or, for whole-table photos, give --calibration NAME.")


class _Tty(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_on_a_terminal_the_line_breaks_between_words(monkeypatch):
    monkeypatch.setenv("COLUMNS", "80")
    out = _Tty()
    echo_err(f"Error: {LONG}", stream=out)
    lines = out.getvalue().rstrip("\n").split("\n")
    assert len(lines) == 3
    assert all(len(line) <= 79 for line in lines)
    assert all(line.startswith("  ") for line in lines[1:])
    assert " ".join(line.strip() for line in lines) == f"Error: {LONG}"  # every word whole, none lost
    assert "--calibration NAME." in lines[-1]


def test_to_a_file_the_message_stays_one_line(monkeypatch):
    monkeypatch.setenv("COLUMNS", "80")
    out = io.StringIO()
    echo_err(f"Error: {LONG}", stream=out)
    assert out.getvalue() == f"Error: {LONG}\n"


def _run_in_terminal(args: list[str], columns: int = 80) -> tuple[int, str]:
    master, slave, env = pseudo_terminal(columns, 24, NO_COLOR="1")
    proc = subprocess.Popen([sys.executable, "-m", "dealer_assist", *args], cwd=ROOT, stdin=slave, stdout=slave,
                            stderr=slave, env=env, close_fds=True)
    os.close(slave)
    seen = b""
    t0 = time.monotonic()
    try:
        while time.monotonic() - t0 < 120:
            if select.select([master], [], [], 0.1)[0]:
                try:
                    chunk = os.read(master, 65536)
                except OSError:
                    break
                if not chunk:
                    break
                seen += chunk
            elif proc.poll() is not None:
                break
        proc.wait(timeout=30)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        os.close(master)
    return proc.returncode, seen.decode("utf-8", "replace").replace("\r\n", "\n")


def test_score_refusal_in_an_80_column_terminal_cuts_no_word():
    """The new user's repro: ``score sample_images/tables`` (whole-table photos without --calibration)."""
    code, text = _run_in_terminal(["score", "sample_images/tables"])
    assert code == 2, text
    lines = [line for line in text.split("\n") if line.strip()]
    error = [line for line in lines if line.startswith("Error:")]
    assert error, text
    start = lines.index(error[0])
    message = lines[start:]
    assert all(len(line) <= 80 for line in message), message
    joined = " ".join(line.strip() for line in message)
    assert "--calibration NAME" in joined, joined
    assert "board.jpg" in joined


def _stderr(result) -> str:
    return getattr(result, "stderr", None) or result.output


def test_errors_follow_lang_and_the_locale(tmp_path, monkeypatch):
    """The new user's F8/F14: ``ledger``/``history`` without a log, ``read`` of a missing or broken file,
    ``score`` of a missing folder said their error in English under ``--lang ru``."""
    from typer.testing import CliRunner

    from dealer_assist.cli import app

    runner = CliRunner()
    log = tmp_path / "hands.jsonl"
    broken = tmp_path / "broken.jpg"
    broken.write_bytes(b"not a picture")
    cases = [
        (["ledger", "--log", str(log)], 2, f"Ошибка: Журнала раздач {log} ещё нет"),
        (["history", "--log", str(log)], 2, f"Ошибка: Журнала раздач {log} ещё нет"),
        (["read", str(tmp_path / "nosuch.jpg")], 2, "такого файла нет."),  # a wrong path: 2, as score's
        (["read", str(broken)], 1, "это не изображение, которое можно прочитать"),
        (["score", str(tmp_path / "nosuch")], 2, f"Ошибка: {tmp_path / 'nosuch'}: такого файла или папки нет."),
    ]
    for args, code, expected in cases:
        result = runner.invoke(app, [*args, "--lang", "ru"])
        assert result.exit_code == code, (args, result.output)
        assert expected in _stderr(result), (args, _stderr(result))
        assert "Traceback" not in result.output
    monkeypatch.setenv("LANG", "ru_RU.UTF-8")
    monkeypatch.delenv("LC_ALL", raising=False)
    monkeypatch.delenv("LC_MESSAGES", raising=False)
    monkeypatch.delenv("LANGUAGE", raising=False)
    result = runner.invoke(app, ["ledger", "--log", str(log)])
    assert "Журнала раздач" in _stderr(result), _stderr(result)
    result = runner.invoke(app, ["ledger", "--log", str(log), "--lang", "en"])
    assert f"Error: There is no hand log at {log} yet" in _stderr(result), _stderr(result)
