"""The one error type of the rules engine."""

from __future__ import annotations

__all__ = ["HandError"]


class HandError(ValueError):
    """A hand that cannot be evaluated (FORMATS.md §1, RULES.md §1-2).

    The message is one plain sentence that names the offending field, e.g.
    ``"players[1].pocket[0] must be exactly 7 digits, got '12a4567'."``, so a
    command can print it after a line number without a traceback.
    """
