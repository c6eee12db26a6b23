"""``dealer-assist score``: batch-score photographed hands (the main job)."""

from __future__ import annotations

import csv
import io
import json
import os
from pathlib import Path
from typing import List, Optional

import typer
from rich.console import Console, Group
from rich.panel import Panel
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table
from rich.markup import escape
from rich.text import Text

from dealer_assist.batch import (
    CSV_COLUMNS,
    BatchError,
    HandScore,
    check_output_path,
    configure_reader,
    csv_rows,
    discover_inputs,
    parse_hand_folder,
    read_image_files,
    read_table_files,
    score_hand,
    table_hand,
)
from dealer_assist.cli.app import app
from dealer_assist.cli.eval_cmd import default_lang
from dealer_assist.cli.read_cmd import default_jobs
from dealer_assist.fileio import write_atomic
from dealer_assist.render import render_showdown

ZERO_JOKER = ("off", "per-zero", "once")
TIE_POLICY = ("split", "rollover")


@app.command("score")
def score_command(
    paths: List[Path] = typer.Argument(
        ..., help="Hand folders (FORMATS.md §4), or folders of hand folders.", show_default=False,
        metavar="PATH"),
    json_out: Optional[Path] = typer.Option(None, "--json", help="Write every verdict to this JSON file."),
    csv_out: Optional[Path] = typer.Option(None, "--csv", help="Write one row per seat per hand to this CSV file."),
    position: Optional[int] = typer.Option(None, "--position", "-p", min=1, max=7,
                                           help="Playing position P (1-7); overrides hand.json."),
    zero_joker: Optional[str] = typer.Option(None, "--zero-joker", metavar="off|per-zero|once",
                                             help="Zero-joker option; overrides hand.json."),
    tie_policy: Optional[str] = typer.Option(None, "--tie-policy", metavar="split|rollover",
                                             help="Tie policy; overrides hand.json."),
    jobs: int = typer.Option(default_jobs(), "--jobs", "-j", min=1,
                             help="Photos read at once (processes); results equal --jobs 1."),
    lang: Optional[str] = typer.Option(None, "--lang", metavar="en|ru", help="Report language (default: locale)."),
    strict: bool = typer.Option(False, "--strict", help="Exit with code 1 when any hand needs review."),
    calibration: Optional[str] = typer.Option(
        None, "--calibration", metavar="NAME|FILE.json",
        help="Profile whose zones split whole-table photos into board and seats (default: the default profile)."),
) -> None:
    """Score photographed hands: read every note, evaluate, name the winners.

    Each hand folder holds board.jpg (or board-1.jpg ... board-3.jpg) and one
    photo per player (alice.jpg with both pocket notes, or alice-1.jpg and
    alice-2.jpg), plus hand.json with the playing position. A hand with any
    note that is not read with certainty gets "needs review" with the exact
    reason and no winner; put the serial in hand.json's "serials" to resolve it.

    A whole-table photo (given directly, or a folder of them without
    hand.json when --calibration is given) is split into the board and the
    seats by the calibration's zones (see `dealer-assist calibrate table`);
    its settings go in a JSON file beside it (table_1.jpg: table_1.json with
    "position", and optionally "seats" in play and "serials" by seat).

    Example: dealer-assist score sample_images/ --json verdicts.json

    Example: dealer-assist score sample_images/tables/table_1.jpg --calibration sample_table_1 --position 6
    """
    err = Console(stderr=True)
    if zero_joker is not None and zero_joker not in ZERO_JOKER:
        raise typer.BadParameter(f"must be one of off, per-zero, once, not {zero_joker!r}.",
                                 param_hint="'--zero-joker'")
    if tie_policy is not None and tie_policy not in TIE_POLICY:
        raise typer.BadParameter(f"must be split or rollover, not {tie_policy!r}.", param_hint="'--tie-policy'")
    lang = lang or default_lang()
    if lang not in ("en", "ru"):
        raise typer.BadParameter(f"must be en or ru, not {lang!r}.", param_hint="'--lang'")
    outs = [o for o in (json_out, csv_out) if o is not None]
    if len(outs) == 2 and os.path.realpath(outs[0]) == os.path.realpath(outs[1]):
        typer.echo(f"Error: --json and --csv both name {outs[0]}; give two different files.", err=True)
        raise typer.Exit(2)
    for out in outs:
        problem = check_output_path(out)
        if problem:
            typer.echo(f"Error: {problem}", err=True)
            raise typer.Exit(2)
    try:
        items = discover_inputs(paths, calibrated=calibration is not None)
    except BatchError as exc:
        typer.echo(f"Error: {exc}", err=True)
        raise typer.Exit(2)
    folders = {p: parse_hand_folder(p) for kind, p in items if kind == "hand"}
    tables = [p for kind, p in items if kind == "table"]
    profile = None
    if tables or calibration is not None:
        from dealer_assist.calibration import CalibrationError, load_profile

        try:
            profile = load_profile(calibration)
            if tables:
                profile.require_table()
        except CalibrationError as exc:
            hint = "" if calibration else f" ({tables[0]} is a whole-table photo: give --calibration NAME)"
            typer.echo(f"Error: {exc}{hint}", err=True)
            raise typer.Exit(2)
        if calibration is None:
            err.print(f"using the default calibration '{profile.name}' for the whole-table photo(s)")
    # A deck's note layout (calibrate notes) gives the reader its fast path.
    configure_reader(profile.notes if profile is not None else None)

    images = [str(s.path) for f in folders.values() for s in f.slots]
    expected = [s.expected for f in folders.values() for s in f.slots]
    with Progress(TextColumn("reading photos"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
                  console=err, transient=True) as bar:
        task = bar.add_task("read", total=len(images) + len(tables))
        readings = read_image_files(images, jobs=jobs, progress=lambda _: bar.advance(task), expected=expected)
        table_readings = read_table_files([str(p) for p in tables], profile, jobs=jobs,
                                          progress=lambda _: bar.advance(task)) if tables else []
    by_path = {r.image: r for r in readings}
    for p, tr in zip(tables, table_readings):
        folders[p], zone_readings = table_hand(p, profile, tr)
        by_path.update(zone_readings)
    overrides = {"position": position, "zero_joker": zero_joker, "tie_policy": tie_policy}
    scores = [score_hand(folders[p], by_path, overrides) for _, p in items]

    console = Console()
    try:
        for sc in scores:
            console.print(_report(sc, lang))
        console.print(_summary(scores, lang))
    except OSError as exc:  # a full disk or a closed pipe on standard output
        typer.echo(f"Error: cannot print the report: {(exc.strerror or str(exc)).lower()}.", err=True)
        # the result files below are still written

    texts = []
    if json_out is not None:
        texts.append((json_out, json.dumps([s.to_json() for s in scores], ensure_ascii=False, indent=1) + "\n"))
    if csv_out is not None:
        buf = io.StringIO()
        w = csv.DictWriter(buf, fieldnames=CSV_COLUMNS)
        w.writeheader()
        w.writerows(csv_rows(scores))
        texts.append((csv_out, buf.getvalue()))
    for out, text in texts:
        try:
            write_atomic(out, text)
        except OSError as exc:
            typer.echo(f"Error: cannot write {out}: {(exc.strerror or str(exc)).lower()}.", err=True)
            raise typer.Exit(2)
    if strict and any(s.status != "scored" for s in scores):
        raise typer.Exit(1)


def _report(sc: HandScore, lang: str):
    title = escape(Path(sc.folder).name)
    if sc.status == "scored":
        labels = {n["serial"]: n["image"] for n in sc.notes if n["serial"]}
        return Panel(render_showdown(sc.showdown, lang, labels=labels), title=title, title_align="left",
                     border_style="green")
    ru = lang == "ru"
    head = "требует проверки (причины по-английски)" if ru else "needs review"
    body = Text("\n".join(f"• {r}" for r in sc.reasons))
    read = Table(show_edge=False)
    read.add_column("снимок" if ru else "image")
    read.add_column("место" if ru else "seat")
    read.add_column("номер" if ru else "serial")
    read.add_column("уверенность" if ru else "confidence", justify="right")
    for n in sc.notes:
        read.add_row(Text(n["image"]), Text(n["seat"]), n["serial"] or "?", str(n["confidence"]))
    return Panel(Group(Text(head, style="bold yellow"), body, read), title=title, title_align="left",
                 border_style="yellow")


def _summary(scores: list[HandScore], lang: str) -> Table:
    ru = lang == "ru"
    t = Table(title="Итог" if ru else "Summary", title_justify="left")
    t.add_column("раздача" if ru else "hand")
    t.add_column("статус" if ru else "status")
    t.add_column("P", justify="right")
    t.add_column("победители" if ru else "winners")
    for sc in scores:
        status = {"scored": "оценена", "needs_review": "требует проверки"}.get(sc.status, sc.status) if ru \
            else sc.status.replace("_", " ")
        style = "green" if sc.status == "scored" else "yellow"
        winners = ", ".join(sc.result["winners"]) if sc.result else "—"
        t.add_row(Text(Path(sc.folder).name), Text(status, style=style), str(sc.settings.get("position", "?")), winners)
    n_ok = sum(s.status == "scored" for s in scores)
    t.caption = (f"{n_ok} из {len(scores)} раздач оценено" if ru else f"{n_ok} of {len(scores)} hands scored")
    return t
