"""Figures of merit for the reader against labelled photos (shared by tests and benchmarks).

The labels follow ``real_photos/labels.json``: per photo a list of notes with
``serial_digits`` and ``n_digits`` (7, or 9 for the out-of-format 2017 series).
"""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass
class ReaderFigures:
    """Counts over a labelled set.

    Attributes:
        legible: 7-digit notes a person can read (the denominator).
        exact: of those, read exactly and trusted.
        wrong: trusted serials that are not the truth of any note in the photo.
        invented: trusted serials on photos with no readable ruble serial.
        nine_digit_trusted: 2017-series notes wrongly given a 7-digit serial.
        misses: ``(photo, truth)`` pairs not read.
    """

    legible: int = 0
    exact: int = 0
    wrong: int = 0
    invented: int = 0
    nine_digit_trusted: int = 0
    misses: list[tuple[str, str]] = field(default_factory=list)
    wrongs: list[tuple[str, str]] = field(default_factory=list)

    @property
    def exact_rate(self) -> float:
        return self.exact / self.legible if self.legible else 0.0


def score_photo(figures: ReaderFigures, photo: str, label_notes: list[dict], trusted: list[str]) -> None:
    """Add one photo's outcome to ``figures``.

    Args:
        photo: the photo's name, for the miss lists.
        label_notes: the label's ``notes``.
        trusted: the 7-digit serials the reader trusted in this photo.
    """
    truths7 = [n["serial_digits"] for n in label_notes if n["n_digits"] == 7]
    guesses = {n.get("best_guess_digits") for n in label_notes} - {None}
    for t in truths7:
        figures.legible += 1
        if t in trusted:
            figures.exact += 1
        else:
            figures.misses.append((photo, t))
    for s in trusted:
        if s not in truths7 and s not in guesses:
            figures.wrong += 1
            figures.wrongs.append((photo, s))
            if not label_notes:
                figures.invented += 1
            if any(n["n_digits"] == 9 for n in label_notes):
                figures.nine_digit_trusted += 1
