"""The typer application object shared by every command module."""

import typer

app = typer.Typer(
    name="dealer-assist",
    help=(
        "The croupier's assistant for Banknote Hold'em: read serials from photos, "
        "score photographed hands, evaluate hands typed at the table."
    ),
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)


@app.callback()
def _root() -> None:
    """Keep every command a sub-command (typer would otherwise run a lone command as the root)."""


#: ``dealer-assist calibrate ...``: its commands live in the ``calibrate_*_cmd`` modules.
calibrate_app = typer.Typer(
    name="calibrate",
    help=(
        "Calibrate a table set-up once: the camera's lens (chessboard), the table plane with the board "
        "and seat zones (corners or ArUco markers), the deck's note layout. Profiles are JSON files in "
        "your data folder (NAME; the samples sample_table_1 and sample_table_2 too) or anywhere (PATH.json)."
    ),
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)
app.add_typer(calibrate_app, name="calibrate")
