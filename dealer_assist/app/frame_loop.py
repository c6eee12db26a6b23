"""The frame loop of ``dealer-assist live``: each turn reads a frame, answers the croupier, shows the screen.

:func:`~.live_run.run_live` opens everything and runs a :class:`FrameLoop`; the decisions are the live
session's (:class:`dealer_assist.live.session.LiveSession`), the screen is
:func:`dealer_assist.live.dashboard.render_dashboard`.
"""

from __future__ import annotations

import os
import sys
import time
from contextlib import nullcontext

from dealer_assist.app.live_run import LiveOutcome, LiveRun
from dealer_assist.app.terminal import Croupier, LineCommands, cbreak, read_keys
from dealer_assist.fileio import dumps_json
from dealer_assist.i18n import texts
from dealer_assist.live.dashboard_cells import ocr_words as ocr_in_words

__all__ = ["FrameLoop", "frame_label", "reads_due", "session_balances"]


def session_balances(records) -> tuple[tuple[str, object], ...]:
    """The running balances of the hands this run finished (:func:`dealer_assist.ledger.build_ledger`, no
    ante or rake): ``(player, net chips)``; empty while no chip changed hands."""
    from dealer_assist.ledger import build_ledger

    ledger = build_ledger(records)
    if not any(p.net for p in ledger.players):
        return ()
    return tuple((p.name, p.net) for p in ledger.players)


def frame_label(session, lang: str = "en") -> str:
    """``"1920x1080 · 2.3-3.3 px/mm"`` (ru: ``"2,3-3,3 пикс./мм"``): what the camera really gives and how it
    sees the table; one figure when both ends read alike (not ``1.5-1.5``)."""
    from dealer_assist.i18n import texts
    from dealer_assist.vision.readability import px_per_mm_figure

    if session.frame_size is None:
        return ""
    w, h = session.frame_size
    # 2.37 shows as "2.37", not the floor's "2.4" (vision.readability.shown_beside)
    lo, hi = (px_per_mm_figure(v, lang) for v in (session.scale_px_per_mm or (0.0, 0.0)))
    scale = lo if lo == hi else f"{lo}-{hi}"
    return f"{w}x{h} · {scale} {texts(lang)['px_per_mm']}"


def reads_due(session) -> bool:
    """Reads the current frame still calls for (queued, or with the OCR now)."""
    return session.reading


#: The frame rate shown is over the frames of the last this many seconds (a 1 fps recording shows 1.0: two
#: frames a second apart; fifth new-user trial L5 showed 2.0, the frames counted over the first's time).
FPS_WINDOW = 2.0

class FrameLoop:
    """One run of the frame loop: each turn reads a frame (or lets the reads a recorded frame calls for
    finish), answers keys and command lines, shows the preview, the dashboard and the spectator
    state; :meth:`run` then logs the hand and prints the result."""

    def __init__(self, run: LiveRun, feed, console, window, replay: bool, source_label: str) -> None:
        self.config, self.session = run.config, run.session
        self.feed, self.console, self.window, self.replay, self.source_label = feed, console, window, replay, source_label
        self.lang, self.as_json = self.config.lang, self.config.as_json
        self.interactive = console.is_terminal and not self.as_json
        self.keys_tty = sys.stdin.isatty() and self.interactive
        self.lines = None if sys.stdin.isatty() else LineCommands(sys.stdin)
        self.spectator = None
        self.club = None
        if self.config.spectator_state is not None:
            from dealer_assist.spectator.state import StateWriter

            self.club = run.club
            self.spectator = StateWriter(self.config.spectator_state, session=self.session.session_id,
                                         publish=run.club.offer_state if run.club is not None else None)
        self.croupier = Croupier(self.session, self.lang)
        self.feedback = self.croupier.feedback
        self.frames = 0
        self.fps = 0.0
        self.stamps: list[float] = []
        self.last_draw = 0.0
        self.last_frame = None
        self.run_screen = run.screen
        self.screen = run.screen  # the start-up screen, until the OCR has read the first frame
        # the session's running balances (the dashboard's Session line): see shown_balances
        self._balances_key: tuple | None = None  # what self._shown_balances was computed from
        self._shown_balances: tuple = ()
        self.finished_seen = 0
        self.ended = False
        self.stop_error: str | None = None
        # --json on a terminal shows no dashboard: a progress line on stderr says the run is alive
        self.progress_tty = self.as_json and sys.stderr.isatty()
        self.last_progress = 0.0

    # ------------------------------------------------------------------ what is shown

    def ocr_words(self) -> str:
        state = self.session.ocr_state
        if self.config.ocr and self.session.jobs_done == 0 and state.startswith("reading"):
            return "loading"
        return state

    def status(self):
        from dealer_assist.live.dashboard import LiveStatus

        session = self.session
        return LiveStatus(camera=self.feed.shown_state, fps=self.fps, ocr=self.ocr_words(), source=self.source_label,
                          camera_detail=self.feed.detail, message=self.feedback.text,
                          prompt=self.croupier.keys.prompt, warning=session.warning, frame=frame_label(session, self.lang),
                          profile=session.profile.name, recording_ended=session.recording_ended,
                          trust_k=self.config.trust[0], balances=self.shown_balances(),
                          club=self.club.status() if self.club is not None else None)

    def shown_balances(self) -> tuple:
        """The Session line's balances: the hands logged so far and, once decided, the hand on screen (its
        pot is shown above the line; the ledger will count it). Recomputed only when the decided hand or the
        logged hands change."""
        session = self.session
        view = session.view()
        # the objects themselves, compared by identity (they stay alive in the key: no id is reused)
        key = (len(session.finished), view, session._decided_view)
        old = self._balances_key
        if old is None or old[0] != key[0] or old[1] is not key[1] or old[2] is not key[2]:
            current = session.decided_record()
            records = session.earlier + session.finished + ([current] if current is not None else [])
            self._shown_balances = session_balances(records) if records else ()
            self._balances_key = key
        return self._shown_balances

    def started(self) -> bool:
        """Whether the start-up is over: the OCR has read once (its models are loaded), or there is
        no OCR and a frame came, or the recording ended."""
        if self.config.ocr:
            return self.session.jobs_done > 0 or self.feed.state == "ended"
        return self.frames > 0 or self.feed.state == "ended"

    def draw(self) -> None:
        """Show the screen: the start-up screen until the start-up is over, then the dashboard in a
        display of its own (the start-up screen erases itself first: nothing of it stays above)."""
        from rich.live import Live

        if self.screen is not None and self.started():
            self.screen.close()
            self.screen = None
            self.live = Live(self.screen_now(), console=self.console, auto_refresh=False, transient=False)
            self.live.start(refresh=True)
            return
        self.live.update(self.screen_now(), refresh=True)

    def screen_now(self):
        from dealer_assist.live.dashboard import render_dashboard

        if self.screen is not None:
            if not self.started():
                self.screen.message = self.feedback.text
                return self.screen.renderable()
            self.screen = None
        return render_dashboard(self.session.view(), self.status(), self.lang, self.console.width,
                                self.console.height)

    # ------------------------------------------------------------------ one turn

    def run_command(self, text: str) -> None:
        """A command line from standard input; a refused one is said on stderr (nobody sees a dashboard)."""
        from dealer_assist.i18n import after_colon, say, texts

        errors = len(self.session.log_errors)
        msg, refused = self.croupier.line(text)
        if refused or len(self.session.log_errors) > errors:
            from dealer_assist.cli.options import echo_err, error_text
            from dealer_assist.render import safe_text

            if refused:  # the dashboard's sentence for it, after the word (one translation of each)
                echo_err(safe_text(texts(self.lang)["refused"].format(say=after_colon(say(msg, self.lang)))))
            else:
                echo_err(error_text(msg, self.lang))
        elif not self.interactive and not self.as_json:
            self.console.print(say(msg, self.lang), markup=False, highlight=False)

    def take_frame(self, frame, now: float) -> bool:
        """Give ``frame`` to the session and count it; False when the run must stop (a frame of another shape)."""
        from dealer_assist.calibration import CalibrationError

        try:
            self.session.on_frame(frame)
        except CalibrationError as exc:  # a frame of another shape: stop, and still print the hand
            self.stop_error = str(exc)
            return False
        self.last_frame = frame
        self.frames += 1
        if self.frames == 1 and self.session.warning and self.session.options.ocr and not self.interactive:
            # before play: the zones the camera sees too coarsely to read; on a terminal the dashboard's
            # header says it (once: not also as the answer line), else it is said here on standard error
            from dealer_assist.cli.options import echo_err

            from dealer_assist.i18n import say

            echo_err(say(self.session.warning, self.lang))
        self.stamps = [s for s in self.stamps + [now] if now - s <= FPS_WINDOW]
        if len(self.stamps) > 1:  # frames over the time between the first and the last: 2 frames 1 s apart are 1 fps
            self.fps = (len(self.stamps) - 1) / max(1e-6, now - self.stamps[0])
        return True

    def take_input(self) -> None:
        """Keys (a terminal), command lines (a pipe), and keys pressed in the preview window."""
        if self.keys_tty:
            for k in read_keys(sys.stdin.fileno()):
                self.croupier.key(k)
        if self.lines is not None:
            for text in self.lines.lines():
                self.run_command(text)
        if self.window is not None and self.last_frame is not None:
            from dealer_assist.live.preview import draw_overlay

            s = self.session.state
            k = self.window.show(draw_overlay(self.last_frame.image, self.session.profile, list(self.session.tracker),
                                              s.position, (f"hand {s.hand_number}  P={s.position}  {self.fps:.0f} fps",)))
            if k is not None:
                self.croupier.key(k)

    def follow_finished(self) -> None:
        """Hands the session finished since the last turn: said (without a dashboard)."""
        session = self.session
        if len(session.finished) <= self.finished_seen:
            return
        for record in session.finished[self.finished_seen:]:
            if not self.interactive and not self.as_json:
                t = texts(self.lang)
                status = record["status"] if self.lang == "en" else t.get(record["status"], record["status"])
                winners = ", ".join(record["winners"])
                from dealer_assist.live.history import tie_rolled_over

                if tie_rolled_over(record):  # its pot went to the next hand: no winners (eighth new-user trial)
                    line = t["live_finished_tied"].format(n=record["hand"], status=status,
                                                          tied=t["rolled_pot"].format(winners=winners))
                else:
                    line = t["live_finished"].format(n=record["hand"], status=status,
                                                     winners=winners or t["live_no_winner"])
                self.console.print(line, markup=False, highlight=False)
        self.finished_seen = len(session.finished)

    def progress(self, now: float, done: bool = False) -> None:
        """With ``--json`` on a terminal: one line on stderr, rewritten every second (frames, notes trusted)."""
        if not self.progress_tty or (not done and now - self.last_progress < 1.0):
            return
        self.last_progress = now
        trusted = sum(1 for t in self.session.tracker if t.status == "trusted")
        t = texts(self.lang)
        ocr = self.ocr_words() if self.lang == "en" else ocr_in_words(self.ocr_words(), t, self.lang)
        line = t["live_progress"].format(frames=self.frames, trusted=trusted, ocr=ocr)
        sys.stderr.write("\r\033[K" + line + ("\n" if done else ""))
        sys.stderr.flush()

    def recording_over(self) -> bool:
        """After the recording's last frame: hold it as a still scene until its reads are done, then stay
        while someone can still type commands. True when the loop should end."""
        session = self.session
        if self.feed.state == "ended" and not self.ended and not reads_due(session):
            self.ended = True
            if self.last_frame is not None:
                session.hold()  # the last frame as a still scene: read in the next turns of the loop
        if self.ended and not reads_due(session):
            session.recording_ended = True  # no frame will read a note any more
            return not self.keys_tty and (self.lines is None or self.lines.closed)
        return False

    # ------------------------------------------------------------------ the run

    def run(self) -> LiveOutcome:
        from rich.live import Live

        session, config = self.session, self.config
        if not self.interactive:
            self.live = None
        elif self.run_screen is not None:
            self.live = self.run_screen.live
        else:
            self.live = Live(self.screen_now(), console=self.console, auto_refresh=False, transient=False)
        keys_cm = cbreak(sys.stdin.fileno()) if self.keys_tty else nullcontext()
        try:
            with keys_cm:
                if self.live is not None and not self.live.is_started:
                    self.live.start(refresh=True)
                while not session.quit_requested:
                    # a recording is read frame by frame: the next frame waits until every read the current
                    # one calls for is done (in slices, so that keys and the screen are answered meanwhile)
                    due = self.replay and reads_due(session)
                    frame = None if due else self.feed.poll()
                    now = time.monotonic()
                    if frame is not None and not self.take_frame(frame, now):
                        break
                    session.pump(wait=self.replay, timeout_s=0.2)
                    self.take_input()
                    self.follow_finished()
                    if self.spectator is not None:
                        note = self.spectator.update(session.view())
                        if note:
                            self.feedback.say(note)
                    self.progress(now)
                    if self.live is not None and (now - self.last_draw > 0.25 or frame is not None and self.replay):
                        self.draw()
                        self.last_draw = now
                    if config.max_frames is not None and self.frames >= config.max_frames:
                        break
                    if self.recording_over():
                        break
                    if frame is None and not due:
                        time.sleep(0.005)
                if (config.max_frames is not None and self.frames >= config.max_frames
                        and self.last_frame is not None and self.replay):
                    session.hold()
                    session.pump(wait=True)
                view = session.view()
                self.progress(time.monotonic(), done=True)
                if self.live is not None:
                    self.draw()
        finally:
            if self.live is not None:
                self.live.stop()
            if self.spectator is not None:
                self.spectator.close()
            self.feed.close()
        return self.result(view)

    def result(self, view) -> LiveOutcome:
        """Log the hand, then print it (``--json``, or the last dashboard without a terminal)."""
        from dealer_assist.live.dashboard import render_dashboard

        session = self.session
        code = 0 if view.complete or not self.as_json else 1  # --json: a script learns the hand was not decided
        # the decided hand goes to the log before anything is printed: an output that cannot be
        # written (a closed pipe, a full disk) must not lose it
        limit = self.config.max_frames is not None and self.frames >= self.config.max_frames
        session.close("quit" if session.quit_requested else "end of video" if self.ended else
                      "max frames" if limit else "stopped")
        outcome = LiveOutcome(2 if self.stop_error else code)
        if self.stop_error:
            outcome.errors.append(self.stop_error)
        if self.stop_error is not None and self.frames == 0:
            return outcome  # the first frame was refused: nothing to show
        try:
            if self.as_json:
                out = view.result_json()
                out["hand_number"] = view.state.hand_number
                out["frames"] = self.frames
                if session.warning and session.options.ocr:
                    # the dashboard's warning (zones too coarse to read) has no dashboard here; it was
                    # said on stderr at the first frame
                    out["warning"] = session.warning
                sys.stdout.write(dumps_json(out) + "\n")
                sys.stdout.flush()
            elif not self.interactive:  # the hand as it ended: each answer was printed already, no key works here
                import dataclasses

                final = dataclasses.replace(self.status(), message="", prompt=None, watched=False)
                self.console.print(render_dashboard(view, final, self.lang, self.console.width))
        except OSError as exc:
            try:
                sys.stdout = open(os.devnull, "w")  # noqa: SIM115 - nothing more may go to the broken output
            except OSError:
                pass
            outcome.code = 2
            outcome.errors.append(f"the result cannot be written to standard output ({exc.strerror or exc}).")
        return outcome
