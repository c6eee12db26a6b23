"""``score --json/--csv`` whose report cannot be printed (fifth new-user trial H1, M6): the result files are
still written, the exit code is 1, and a full disk says one sentence (a pipe its reader closed, as
``| head`` does, says nothing)."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import cv2
import numpy as np
import pytest

BLANK = np.full((80, 80, 3), 255, np.uint8)  # no note on it: every serial comes from hand.json


def _hand(tmp_path):
    hand = tmp_path / "hand"
    hand.mkdir()
    serials = {"board.png": ["1234567", "7654321", "5555555"], "alice.png": ["1111111", "2222222"]}
    for image in [*serials, "bob.png"]:  # bob has no typed serials: the hand needs review, a long report
        cv2.imwrite(str(hand / image), BLANK)
    (hand / "hand.json").write_text(json.dumps({"position": 4, "serials": serials}))
    return hand


def _score(hand, out, stdout, bare=False):
    return subprocess.Popen([sys.executable, "-m", "dealer_assist", "score", str(hand), "-j", "1", "--json",
                             str(out / "r.json"), "--csv", str(out / "r.csv")],
                            stdout=stdout, stderr=subprocess.PIPE, text=True, env={**({"PATH": os.environ.get("PATH", "")} if bare else os.environ), "COLUMNS": "80"})


@pytest.mark.slow  # two processes
def test_a_report_pipe_closed_by_its_reader_loses_no_result_file(tmp_path):
    hand, out = _hand(tmp_path), tmp_path / "out"
    out.mkdir()
    proc = _score(hand, out, subprocess.PIPE)
    proc.stdout.close()  # the reader is gone before the report is printed: every write is a broken pipe
    _, err = proc.communicate(timeout=120)
    assert proc.returncode == 1, err
    assert "Traceback" not in err and "cannot print" not in err, err
    assert json.loads((out / "r.json").read_text())[0]["status"] == "needs_review"
    assert (out / "r.csv").read_text().startswith("folder,status,")


@pytest.mark.slow  # a process
@pytest.mark.parametrize("bare", [False, True])  # bare: a near-empty environment (env -i), where rc was 120
def test_a_full_disk_under_the_report_is_one_sentence_and_exit_1_with_the_files_written(tmp_path, bare):
    hand, out = _hand(tmp_path), tmp_path / "out"
    out.mkdir()
    with open("/dev/full", "w") as full:
        proc = _score(hand, out, full, bare=bare)
        _, err = proc.communicate(timeout=120)
    assert proc.returncode == 1
    assert err.strip().splitlines()[-1] == "Error: cannot print the report: no space left on device.", err
    assert json.loads((out / "r.json").read_text())[0]["status"] == "needs_review"
