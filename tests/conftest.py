"""Shared fixtures: where ../shared lives, and one reader for the session."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
SHARED = REPO.parent / "shared"
REAL_PHOTOS = SHARED / "real_photos"
REAL_HANDS = SHARED / "real_hands"


@pytest.fixture(scope="session")
def real_labels() -> list[dict]:
    return json.loads((REAL_PHOTOS / "labels.json").read_text(encoding="utf-8"))


@pytest.fixture(scope="session")
def serial_reader():
    from dealer_assist.vision.reader import SerialReader

    return SerialReader()
