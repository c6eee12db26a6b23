"""``dealer-assist calibrate show``, ``list`` and ``use``: the profiles there are, and the default.

Wiring only: the profiles are :mod:`dealer_assist.calibration.store`, the
listing :func:`dealer_assist.app.profiles.listing`.
"""

from __future__ import annotations

from typing import Optional

import typer

from dealer_assist.app.profiles import Listing, listing
from dealer_assist.calibration.profile import CalibrationError, Profile
from dealer_assist.calibration.store import DEFAULT_NAME, load_profile, set_default
from dealer_assist.cli.app import calibrate_app
from dealer_assist.cli.calibration_report import profile_view
from dealer_assist.cli.options import errors_as_fail, lang_option, resolve_lang
from dealer_assist.cli.output import json_line, output_errors, report_console
from dealer_assist.i18n import Lang, say
from dealer_assist.render import safe_text


@calibrate_app.command("show")
def show_command(
    calibration: Optional[str] = typer.Option(None, "--calibration", "-c", metavar="NAME|FILE.json",
                                              help="Profile to show (default: the default profile)."),
    as_json: bool = typer.Option(False, "--json", help="Print the profile's JSON."),
    lang: Optional[Lang] = lang_option(),
) -> None:
    """Print a calibration profile: camera, table and zones, note layout."""
    with errors_as_fail(CalibrationError):
        profile = load_profile(calibration)
    with output_errors():
        _show(profile, as_json, resolve_lang(lang).value)


def _show(profile: Profile, as_json: bool, lang: str = "en") -> None:
    if as_json:
        print(json_line(profile.to_json(), indent=1), end="", flush=True)
        return
    console = report_console()
    for part in profile_view(profile, lang):
        console.print(part)


@calibrate_app.command("list")
def list_command(lang: Optional[Lang] = lang_option()) -> None:
    """List the profiles in the calibration folder; * marks the default, "(unusable: why)" one that does not load."""
    found = listing()
    with output_errors():
        _print_listing(found, resolve_lang(lang).value)


def _print_listing(found: Listing, lang: str = "en") -> None:
    def echo(line: str) -> None:  # names of files in the calibration folder: shown as text
        typer.echo(safe_text(say(line, lang)))

    if found.default_damaged is not None:  # the default's pointer, not a profile called "default"
        echo(found.default_damaged)
    if not found.entries and found.pointer_problem is None and found.default_sample is None:
        echo(f"no profiles in {found.folder}")
        if found.samples:
            echo(f"  (samples usable by name: {', '.join(found.samples)})")
        return
    for entry in found.entries:
        note = f"  (unusable: {entry.problem})" if entry.problem is not None else ""
        echo(f"{'*' if entry.is_default else ' '} {entry.name}{note}")
    if found.pointer_problem is not None:
        echo(f"  {DEFAULT_NAME}  (unusable: {found.pointer_problem})")
    elif found.default_missing is not None:
        echo(f"  {DEFAULT_NAME}  (unusable: it points to '{found.default_missing}', which does not exist)")
    elif found.default_sample is not None:
        echo(f"* {found.default_sample}  (a sample)")
    others = [s for s in found.samples if s != found.default_sample and s not in {e.name for e in found.entries}]
    if others:  # always named: the "no profile given" refusal sends the croupier here (sixth new-user trial L2)
        echo(f"  (samples usable by name: {', '.join(others)})")


@calibrate_app.command("use")
def use_command(name: str = typer.Argument(..., metavar="NAME",
                                           help="Profile name in the calibration folder, or a sample's."),
                lang: Optional[Lang] = lang_option()) -> None:
    """Make NAME the default profile (default.json in the calibration folder points to it)."""
    with errors_as_fail(CalibrationError):
        path = set_default(name)
    typer.echo(safe_text(say(f"{path} now points to {name}", resolve_lang(lang).value)))
