"""Command-line interface. Each command lives in its own module and registers
itself on :data:`dealer_assist.cli.app.app`; this package only imports them.

``dealer-assist live`` on a terminal gets its start-up screen before the
command modules are imported (about a second; see :mod:`dealer_assist.live.startup`).
"""

from dealer_assist.live.startup import drop_early, show_early

show_early()

from dealer_assist.cli.app import app  # noqa: E402

# Command modules register themselves on import.
from dealer_assist.cli import calibrate_camera_cmd  # noqa: F401,E402
from dealer_assist.cli import calibrate_table_cmd  # noqa: F401,E402
from dealer_assist.cli import calibrate_notes_cmd  # noqa: F401,E402
from dealer_assist.cli import calibrate_profiles_cmd  # noqa: F401,E402
from dealer_assist.cli import eval_cmd  # noqa: F401,E402
from dealer_assist.cli import history_cmd  # noqa: F401,E402
from dealer_assist.cli import live_cmd  # noqa: F401,E402
from dealer_assist.cli import read_cmd  # noqa: F401,E402
from dealer_assist.cli import score_cmd  # noqa: F401,E402
from dealer_assist.cli import odds_cmd  # noqa: F401,E402
from dealer_assist.cli import ledger_cmd  # noqa: F401,E402
from dealer_assist.cli import guide_cmd  # noqa: F401,E402
from dealer_assist.cli import serve_cmd  # noqa: F401,E402
from dealer_assist.cli import club_cmd  # noqa: F401,E402


def main() -> None:
    """Entry point of the ``dealer-assist`` console script.

    A full disk or a closed pipe on standard output, in any command, is one
    sentence and exit code 1; so is a standard output that was closed before
    the start (``>&-``, :func:`~dealer_assist.cli.output.refuse_closed_stdout`).
    An output encoding that cannot show a character degrades to ASCII (see
    :mod:`dealer_assist.cli.output`).
    """
    from dealer_assist.cli.output import degrade_unshowable, output_errors, refuse_closed_stdout

    refuse_closed_stdout()
    degrade_unshowable()
    try:
        with output_errors():
            app()
    finally:
        drop_early()  # a start-up screen that live never took over (a refused command line)
