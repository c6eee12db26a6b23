"""Where profiles live (dealer_assist.calibration.store): the user's data folder by default, the
DEALER_ASSIST_CALIBRATION_DIR override, the samples usable by name, and no default on a fresh install."""

from __future__ import annotations

import pytest
from typer.testing import CliRunner

from dealer_assist.calibration import CalibrationError, load_profile, save_profile, set_default
from dealer_assist.calibration.store import ENV_DIR, calibration_dir, sample_names
from dealer_assist.cli import app

from conftest import REPO

runner = CliRunner()
SAMPLE = REPO / "calibration" / "sample_table_1.json"


@pytest.fixture
def fresh(tmp_path, monkeypatch):
    """A fresh install: no override, an empty data folder."""
    monkeypatch.delenv(ENV_DIR, raising=False)
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    return tmp_path / "data" / "dealer-assist" / "calibration"


def test_profiles_live_in_the_users_data_folder(fresh):
    assert calibration_dir() == fresh
    assert not str(calibration_dir()).startswith(str(REPO))


def test_the_override_still_names_the_folder(tmp_path, monkeypatch):
    monkeypatch.setenv(ENV_DIR, str(tmp_path / "mine"))
    assert calibration_dir() == tmp_path / "mine"


def test_a_fresh_install_has_no_default_and_says_what_to_do(fresh):
    with pytest.raises(CalibrationError, match="No calibration profile was given and no default is set; pass "
                                               "--calibration NAME"):
        load_profile()
    table = REPO / "sample_images" / "tables" / "table_1.jpg"
    result = runner.invoke(app, ["score", str(table), "--position", "4"])
    assert result.exit_code == 2 and "a photo given on its own is read as a whole-table photo, which needs " \
        "--calibration NAME" in result.output
    result = runner.invoke(app, ["score", str(table), "--position", "4", "--calibration", "default"])
    assert result.exit_code == 2 and "No calibration profile named 'default'" in result.output
    listed = runner.invoke(app, ["calibrate", "list"])
    assert listed.output.splitlines() == [f"no profiles in {fresh}",
                                          "  (samples usable by name: sample_table_1, sample_table_2)"]


def test_the_samples_are_usable_by_name_and_never_written(fresh):
    assert sample_names() == ["sample_table_1", "sample_table_2"]
    sample = load_profile("sample_table_1")
    assert sample.path == SAMPLE and sample.seats
    shown = runner.invoke(app, ["calibrate", "show", "-c", "sample_table_2"])
    assert shown.exit_code == 0 and "sample_table_2" in shown.output
    before = SAMPLE.read_bytes()
    saved = save_profile(sample, "sample_table_1")  # a profile of that name in the user's folder
    assert saved.path == fresh / "sample_table_1.json" and SAMPLE.read_bytes() == before
    assert load_profile("sample_table_1").path == fresh / "sample_table_1.json"


def test_a_sample_can_be_made_the_default_on_purpose(fresh):
    set_default("sample_table_1")
    assert load_profile().path == SAMPLE
    assert runner.invoke(app, ["calibrate", "list"]).output.splitlines() == [
        "* sample_table_1  (a sample)", "  (samples usable by name: sample_table_2)"]  # the others named too
