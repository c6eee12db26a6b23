"""Shared fixtures: where ../shared lives, and one reader for the session."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
SHARED = REPO.parent / "shared"
REAL_PHOTOS = SHARED / "real_photos"
REAL_HANDS = SHARED / "real_hands"


def pytest_configure(config):
    # The suite reads the rules cases and the real photos from ../shared (they
    # carry no licence and are never copied in). Say so plainly when it is missing.
    if not (SHARED / "real_photos" / "labels.json").is_file():
        raise pytest.UsageError(
            f"the shared reference folder is missing: {SHARED} must sit beside the repository "
            "(it holds golden/, real_photos/ and real_hands/; see README.md)."
        )


@pytest.fixture(scope="session")
def real_labels() -> list[dict]:
    return json.loads((REAL_PHOTOS / "labels.json").read_text(encoding="utf-8"))


@pytest.fixture(scope="session")
def serial_reader():
    from dealer_assist.vision.reader import SerialReader

    return SerialReader()
