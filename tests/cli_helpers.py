"""Shared pieces of the CLI tests: every command path of the app."""

from __future__ import annotations

import typer

from dealer_assist.cli import app


def command_paths() -> list[list[str]]:
    """Every command path (``[]``, ``["score"]``, ``["calibrate", "table"]``, ...)."""
    root = typer.main.get_command(app)
    out: list[list[str]] = [[]]

    def walk(group, path: list[str]) -> None:
        for name, cmd in group.commands.items():
            out.append(path + [name])
            if hasattr(cmd, "commands"):
                walk(cmd, path + [name])

    walk(root, [])
    return out
