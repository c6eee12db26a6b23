"""``dealer-assist score``: batch-score photographed hands (the main job).

Wiring only: the job is :mod:`dealer_assist.app.score`, the report :mod:`.score_report`.
"""

from __future__ import annotations

import errno
from pathlib import Path
from typing import List, Optional

import typer
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

from dealer_assist.app.hand_folders import InputError
from dealer_assist.app.result_files import check_outputs, check_outputs_apart, write_results
from dealer_assist.app.score import ScoreOptions, plan_score, run_score
from dealer_assist.app.verdicts import Verdict
from dealer_assist.cli.app import app
from dealer_assist.cli.options import (echo_err, error_text, warn_serial_model,
    default_jobs,
    fail,
    game_option,
    lang_option,
    resolve_lang,
    shown_default,
    tie_policy_option,
    zero_joker_option,
)
from dealer_assist.cli.output import report_console, silence_stdout
from dealer_assist.cli.score_report import hand_names, hand_report, summary
from dealer_assist.i18n import Lang, say, texts
from dealer_assist.render import safe_text
from dealer_assist.rules import Game, TiePolicy, ZeroJoker


def _check_position(value: Optional[int]) -> Optional[int]:
    """``--position`` is 1-7, said as live says it (the validator's "Input should be less than or equal to 7"
    was the seventh new-user trial's low)."""
    if value is not None and not 1 <= value <= 7:
        raise typer.BadParameter(f"must be 1-7, not {value}.")
    return value


@app.command("score")
def score_command(
    paths: List[Path] = typer.Argument(
        ..., help="Hand folders (see `dealer-assist formats`), or folders of hand folders, or whole-table photos.",
        show_default=False,
        metavar="PATH"),
    json_out: Optional[Path] = typer.Option(None, "--json", metavar="FILE",
                                            help="Write every verdict to this JSON file."),
    csv_out: Optional[Path] = typer.Option(None, "--csv", metavar="FILE",
                                           help="Write one row per seat per hand to this CSV file."),
    position: Optional[int] = typer.Option(None, "--position", "-p", metavar="P", callback=_check_position,
                                           help="Playing position P (1-7); overrides hand.json."),
    zero_joker: Optional[ZeroJoker] = zero_joker_option(None, help="Zero-joker option; overrides hand.json."),
    tie_policy: Optional[TiePolicy] = tie_policy_option(None, help="Tie policy; overrides hand.json."),
    game: Optional[Game] = game_option(None, help="The game: holdem, or indian (Indian poker: no board photo, one "
                                                  "photo of one note per player); overrides hand.json's \"game\".",
                                       shown="hand.json's, else holdem"),
    jobs: int = typer.Option(default_jobs(), "--jobs", "-j", min=1, metavar="N", show_default=False,
                             help="Photos read at once (processes); results equal --jobs 1. "
                                  + shown_default("one per core")),
    lang: Optional[Lang] = lang_option(help="Report language."),
    strict: bool = typer.Option(False, "--strict", help="Exit with code 1 when any hand needs review."),
    calibration: Optional[str] = typer.Option(
        None, "--calibration", metavar="NAME|FILE.json",
        help="Profile whose zones split whole-table photos into board and seats ('default': the default "
             "profile). " + shown_default("none: whole-table photos are refused without it")),
) -> None:
    """Score photographed hands: read every note, evaluate, name the winners.

    Each hand folder holds board.jpg (or board-1.jpg ... board-3.jpg) and one
    photo per player (alice.jpg with both pocket notes, or alice-1.jpg and
    alice-2.jpg), plus hand.json with the playing position. A hand with any
    note that is not read with certainty gets "needs review" with the exact
    reason and no winner; put the serial in hand.json's "serials" to resolve it.
    Every file of a hand folder counts: one that is not a photo of the board or
    a player (another file type, a sub-folder) is a reason for review.

    A whole-table photo (given directly, or a folder of them without
    hand.json when --calibration is given) is split into the board and the
    seats by the calibration's zones (see `dealer-assist calibrate table`);
    its settings go in a JSON file beside it (table_1.jpg: table_1.json with
    "position", and optionally "seats" in play and "serials" by seat).

    Examples:

    dealer-assist score sample_images/ --json verdicts.json

    dealer-assist score sample_images/tables/table_1.jpg --calibration sample_table_1 --position 6

    Indian poker (--game indian, or "game": "indian" in hand.json): no board photo, and one photo per player
    holding that player's one note (alice.jpg).
    """
    lang = resolve_lang(lang)
    options = ScoreOptions(position, zero_joker, tie_policy, jobs, calibration, game)
    err = report_console(stderr=True)
    try:
        check_outputs(json_out, csv_out)
        plan = plan_score(paths, options)
        check_outputs_apart(json_out, csv_out, list(plan.folders), plan.tables)
    except InputError as exc:
        fail(str(exc), lang=lang)
    if plan.photo_count:
        warn_serial_model(lang)
    try:
        if err.is_terminal:  # the bar is for a croupier watching; to a file or a pipe it left an empty line
            with Progress(TextColumn(texts(lang)["reading_photos"]), BarColumn(), MofNCompleteColumn(),
                          TimeElapsedColumn(), console=err, transient=True) as bar:
                task = bar.add_task("read", total=plan.photo_count)
                scores = run_score(plan, options, progress=lambda: bar.advance(task))
        else:
            scores = run_score(plan, options)
    except KeyboardInterrupt:  # Ctrl-C while reading: the bar was erased and nothing said (seventh trial)
        echo_err(say("Interrupted: no hand was scored and no file was written (files of an earlier run are kept).",
                     str(lang)))
        raise typer.Exit(130) from None

    console = report_console()
    report_lost = False
    try:
        names = hand_names([sc.folder for sc in scores])
        for sc in scores:
            console.print(hand_report(sc, lang, names[sc.folder]))
        console.print(summary(scores, lang))
    except OSError as exc:  # a full disk or a pipe closed on standard output (| head)
        report_lost = True
        silence_stdout()
        if exc.errno != errno.EPIPE:  # a reader who closed the pipe needs no sentence
            echo_err(error_text(f"cannot print the report: {(exc.strerror or str(exc)).lower()}.", str(lang)))
        # the result files below are still written
    for notice in plan.notices:  # photos found and not scored, said under the summary
        err.print(safe_text(say(f"Note: {notice}", str(lang))), markup=False, highlight=False)  # wrapped at words
    try:
        write_results(scores, json_out, csv_out)
    except InputError as exc:
        fail(str(exc), lang=lang)
    if report_lost or (strict and (plan.unscored or any(s.status != Verdict.SCORED for s in scores))):
        raise typer.Exit(1)
