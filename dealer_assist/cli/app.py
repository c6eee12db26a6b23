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
