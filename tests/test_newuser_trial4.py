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
