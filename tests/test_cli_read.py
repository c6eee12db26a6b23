"""`dealer-assist read` through typer's CliRunner: output shape and every bad input."""

import json
import subprocess
import sys

import cv2
import numpy as np
import pytest
from typer.testing import CliRunner

from dealer_assist.cli import app

from conftest import REAL_PHOTOS

runner = CliRunner()


@pytest.mark.slow
def test_json_lines_one_object_per_image_in_order(tmp_path):
    bad = tmp_path / "broken.jpg"
    bad.write_bytes(b"not a jpeg")
    blank = tmp_path / "blank.png"
    cv2.imwrite(str(blank), np.full((300, 400, 3), 200, np.uint8))
    args = ["read", str(REAL_PHOTOS / "real_047.jpg"), str(bad), str(blank), "--json"]
    result = runner.invoke(app, args)
    assert result.exit_code == 1  # one file could not be read
    lines = [json.loads(x) for x in result.stdout.splitlines() if x.startswith("{")]
    assert [x["image"] for x in lines] == args[1:4]
    note = lines[0]["notes"][0]
    assert note["serial"] == "4270166" and note["letters"] in ("АК", None)
    assert 0 < note["confidence"] <= 1 and len(note["quad"]) == 4
    assert any("4270166" in r["text"] for r in note["reads"])
    assert "not an image" in lines[1]["error"]
    assert lines[2]["notes"] == []  # a photo with no note: nothing invented
    assert "Traceback" not in result.output


def test_table_output_and_missing_file(tmp_path):
    result = runner.invoke(app, ["read", str(tmp_path / "missing.jpg")])
    assert result.exit_code == 2  # a wrong path, as score's (fifth new-user trial L6)
    assert "no such file" in result.output
    assert "Traceback" not in result.output


@pytest.mark.slow
def test_debug_dir_gets_an_annotated_copy(tmp_path):
    out = tmp_path / "dbg"
    result = runner.invoke(app, ["read", str(REAL_PHOTOS / "real_057.jpg"), "--debug-dir", str(out)])
    assert result.exit_code == 0, result.output
    assert "9528710" in result.output and "6827644" in result.output
    (img,) = list(out.glob("*.jpg"))
    assert cv2.imread(str(img)).shape[:2] == cv2.imread(str(REAL_PHOTOS / "real_057.jpg")).shape[:2]


@pytest.mark.slow
def test_a_photo_without_text_prints_no_library_warning(tmp_path):
    # A real process: the OCR libraries' log handlers write to the process's stderr.
    blank = tmp_path / "blank.png"
    cv2.imwrite(str(blank), np.full((300, 400, 3), 90, np.uint8))
    proc = subprocess.run([sys.executable, "-m", "dealer_assist", "read", str(blank), "--json"],
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0
    assert proc.stdout.strip() == json.dumps({"image": str(blank), "notes": []})
    assert proc.stderr == ""
