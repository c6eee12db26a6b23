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


# Commands added after the package's list in cli/__init__.py; they register on import.
from dealer_assist.cli import odds_cmd  # noqa: E402,F401
from dealer_assist.cli import ledger_cmd  # noqa: E402,F401
from dealer_assist.cli import serve_cmd  # noqa: E402,F401
