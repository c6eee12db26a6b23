"""The spectator screen's web application (Starlette): read-only, delayed, guarded.

Routes, every one GET (HEAD) only — nothing here can change the game:

* ``/`` — the page (:mod:`.page`);
* ``/events`` — server-sent events: the served snapshot as JSON, again whenever it changes;
* ``/state.json`` — the served snapshot once (for scripts and tests).

A :class:`Watcher` polls the hand log and the state file (:mod:`.follow`),
turns what it reads into the public payload (:mod:`.public`: no pocket serial
of a seat that has not revealed) and adds it to the :class:`~.timeline.Timeline`;
requests are answered with the newest snapshot older than the delay.

:class:`Guard` wraps the application: with a token (the server listens on
another address than loopback) every request must carry ``?token=…``
(compared in constant time); on loopback only a loopback ``Host`` is
answered (a page of another site cannot reach the screen by a DNS trick);
any method but GET and HEAD is refused; every response says not to cache,
frame or sniff it. Refusals are one plain sentence.
"""

from __future__ import annotations

import asyncio
import base64
import contextlib
import hashlib
import hmac
import ipaddress
import re
import sys
import time
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any, Callable
from urllib.parse import parse_qs

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, Response, StreamingResponse
from starlette.routing import Route

from dealer_assist.fileio import dumps_json
from dealer_assist.render import safe_text
from dealer_assist.spectator.follow import LogFollower, StateFollower
from dealer_assist.spectator.page import PAGE, page_headers
from dealer_assist.spectator.public import LogSummary, current_hand, has_content, public_from_record, public_from_state
from dealer_assist.spectator.timeline import Timeline

__all__ = ["SpectatorConfig", "Watcher", "Guard", "create_app", "TOKEN_REFUSAL", "HOST_REFUSAL"]

TOKEN_REFUSAL = ("This spectator screen needs the token dealer-assist serve printed when it started: "
                 "open the address it printed, ending in ?token=….\n")
HOST_REFUSAL = "This spectator screen answers only to a loopback address such as 127.0.0.1 or localhost.\n"
METHOD_REFUSAL = "This spectator screen is read-only: it answers GET requests only.\n"

#: Each refusal in Russian, for the page a browser gets (:func:`refusal_page`).
REFUSALS_RU = {
    TOKEN_REFUSAL: "Этому экрану для зрителей нужен токен, который напечатал dealer-assist serve при запуске: "
                   "откройте напечатанный адрес, с ?token=… в конце.",
    HOST_REFUSAL: "Этот экран для зрителей отвечает только на адрес этого компьютера (loopback), например "
                  "127.0.0.1 или localhost.",
    METHOD_REFUSAL: "Этот экран для зрителей только для чтения: он отвечает лишь на запросы GET.",
}

_REFUSAL_STYLE = (  # the spectator page's colours and type (dealer_assist.spectator.page.STYLE)
    "html{background:#10141a;color:#eef2f6;font:18px/1.5 'DejaVu Sans','Noto Sans','Liberation Sans',Arial,"
    "sans-serif}body{margin:0;min-height:100vh;display:flex;align-items:center;justify-content:center}"
    "main{max-width:36em;margin:1.2em;padding:1.2em 1.4em;background:#1b222c;border:1px solid #2f3a48;"
    "border-radius:12px}h1{font-size:1.4em;margin:0 0 .6em}p{margin:.6em 0;overflow-wrap:anywhere}"
    "p[lang=ru]{color:#c9d3dd}.code{color:#ffd54a}code{white-space:nowrap;color:#ffd54a}"
)
#: The refusal page's Content-Security-Policy: nothing but its own inline style (by hash), no script.
REFUSAL_CSP = ("default-src 'none'; style-src 'sha256-"
               + base64.b64encode(hashlib.sha256(_REFUSAL_STYLE.encode()).digest()).decode()
               + "'; frame-ancestors 'none'")


def _codes(escaped: str) -> str:
    """What is typed (``?token=…``, ``127.0.0.1``, ``localhost``, ``GET``) kept on one line, in the code colour."""
    return re.sub(r"(\?token=…|127\.0\.0\.1|localhost|\bGET\b)", r"<code>\1</code>", escaped)


def refusal_page(status: int, text: str) -> str:
    """A refusal as a small HTML page for a browser: both languages, readable on a phone (a viewport, large
    type, words wrapped), styled like the screen; the sentences escaped. A script gets ``text`` alone."""
    import html

    ru = REFUSALS_RU.get(text, "")
    return ("<!doctype html><html lang=\"en\"><head><meta charset=\"utf-8\">"
            "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">"
            f"<title>{status} · dealer-assist</title><style>{_REFUSAL_STYLE}</style></head><body><main>"
            f"<h1><span class=\"code\">{status}</span> · Spectator screen · Экран для зрителей</h1>"
            f"<p lang=\"en\">{_codes(html.escape(text.strip()))}</p>"
            + (f"<p lang=\"ru\">{_codes(html.escape(ru))}</p>" if ru else "")
            + "</main></body></html>\n")


@dataclass
class SpectatorConfig:
    """What the server follows and how.

    Attributes:
        log: the hand log (may not exist yet).
        state: the table-state file live writes, or ``None``.
        delay: seconds the screen runs behind the table.
        token: required in every request's ``?token=`` when set.
        loopback_only: answer only requests whose ``Host`` is a loopback name or address.
        since: balances over the hands finished since then (default: the last record's session).
        poll: seconds between two looks at the files.
        keepalive: seconds between two keep-alive comments on an idle event stream.
        clock: the wall clock (seconds since the epoch, as file times are).
        warn: where the server's warnings go (a sentence each, once per distinct warning; by default stderr,
            the names in it shown as text: :func:`~dealer_assist.render.safe_text`).
        stopping: true once the server is shutting down: open event streams end (set by :func:`.server.run`).
    """

    log: Path
    state: Path | None = None
    delay: float = 30.0
    token: str | None = None
    loopback_only: bool = False
    since: datetime | None = None
    poll: float = 0.25
    keepalive: float = 15.0
    clock: Callable[[], float] = time.time
    warn: Callable[[str], None] = field(default=lambda text: print(f"warning: {safe_text(text)}", file=sys.stderr,
                                                                   flush=True))
    stopping: Callable[[], bool] = lambda: False


class Watcher:
    """Follows the files and keeps the timeline of public payloads (see the module doc)."""

    def __init__(self, config: SpectatorConfig) -> None:
        self.config = config
        self.timeline = Timeline(config.delay)
        self.summary = LogSummary(config.since)
        self.log = LogFollower(config.log, self.summary)
        self.state = StateFollower(config.state) if config.state is not None else None
        self._log_time: float | None = None
        self._state_time: float | None = None
        self._warned: set[str] = set()
        self._started = False
        self._started_at: float | None = None
        self._last_payload: Any = object()
        self._rebuilds = 0

    def _warn(self, text: str | None) -> None:
        if text and text not in self._warned:
            self._warned.add(text)
            self.config.warn(text)

    def poll(self) -> bool:
        """Look at the files once; ``True`` when a new snapshot was added."""
        now = self.config.clock()
        log_changed, log_mtime = self.log.poll()
        self._warn(self.log.problem)
        if self.log.rebuilds and self.log.rebuilds != self._rebuilds:
            self._rebuilds = self.log.rebuilds
            self.config.warn(f"The hand log {self.log.path} was {self.log.rewrite}; it was read again from its start.")
        for text in self.log.warnings:
            self.config.warn(text)
        if self.log.new_skipped > len(self.log.warnings):
            self.config.warn(f"and {self.log.new_skipped - len(self.log.warnings)} more line(s) of "
                             f"{self.log.path} that are not hand records; skipped.")
        state_changed = False
        if self.state is not None:
            state_changed, state_mtime = self.state.poll()
            self._warn(self.state.problem)
        # a file counts from its modification time (never later than now); a file gone counts from now,
        # one missing from the start does not count (nothing of it was ever shown)
        first = not self._started
        self._started = True
        if first:
            self._started_at = now
        if log_changed or first:
            self._log_time = min(now, log_mtime) if log_mtime is not None else (None if first else now)
        if self.state is not None and (state_changed or first):
            self._state_time = min(now, state_mtime) if state_mtime is not None else (None if first else now)
        if not (first or log_changed or state_changed):
            return False
        payload = self.payload()
        if payload == self._last_payload:
            return False
        self._last_payload = payload
        when = max((t for t in (self._log_time, self._state_time) if t is not None), default=now)
        return self.timeline.add(when, payload)

    def payload(self) -> dict[str, Any]:
        """What the screen shows for the files as they are now (before the delay)."""
        last = public_from_record(self.summary.last) if self.summary.last is not None else None
        live = None
        if self.state is not None and self.state.obj is not None:
            live = public_from_state(self.state.obj)
            if live is None:
                self._warn(f"The state file {self.state.path} is not a dealer-assist table state of version 1; "
                           f"the hand in play is not shown.")
        hand = current_hand(live, last)
        previous = None
        if hand is not None and hand is not last and last is not None:
            previous = {"hand": last["hand"], "winners": last["winners"], "tie_policy": last.get("tie_policy")}
        shown = self.summary.balances()
        for text in self.summary.name_warnings:
            self._warn(text)
        return {"hand": hand, "previous": previous, "balances": shown}

    def served(self) -> dict[str, Any]:
        """The snapshot to show now: the newest one older than the delay, with its number and time.

        Until a hand shows, ``visible_from`` says when the first picture comes at the latest: the
        server's start plus the delay, while nothing is served yet, else ``None``. It is decided from
        the start alone, never from a snapshot not yet served: the time of a change at the table
        must not reach the screen before the delay has passed.
        """
        now = self.config.clock()
        snap = self.timeline.current(now)
        out: dict[str, Any] = {"snapshot": 0, "as_of": None, "delay": _seconds(self.config.delay),
                               "hand": None, "previous": None, "balances": None}
        if snap is not None:
            out.update(snap.payload)
            out["snapshot"], out["as_of"] = snap.number, round(snap.time, 3)
        if snap is None or not has_content(out["hand"]):
            first = self._started_at + self.config.delay if snap is None and self._started_at is not None else None
            out["visible_from"] = round(first, 3) if first is not None else None
        return out


def _seconds(delay: float) -> int | float:
    return int(delay) if float(delay).is_integer() else delay


#: A ``Host`` header as RFC 9110 allows it here: a bracketed IPv6 address or a name (an IPv4 address), then
#: an optional ``:port``, and nothing else (``[::1]evil.example`` or ``[::1]:80@evil.example`` is refused).
_HOST = re.compile(r"(?:\[(?P<ipv6>[0-9A-Fa-f:.]+)\]|(?P<name>[A-Za-z0-9.-]+))(?::(?P<port>[0-9]{1,5}))?")


def _is_loopback_host(host: str) -> bool:
    """Whether a ``Host`` header names this machine's loopback (``localhost``, ``127.0.0.1:8765``, ``[::1]``),
    parsed strictly (:data:`_HOST`): anything more after the address or the port is not loopback."""
    m = _HOST.fullmatch(host.strip())
    if m is None or (m["port"] is not None and int(m["port"]) > 65535):
        return False
    if m["ipv6"] is not None:
        try:
            return ipaddress.IPv6Address(m["ipv6"]).is_loopback
        except ValueError:
            return False
    name = m["name"].lower()
    if name in ("localhost", "localhost."):
        return True
    try:
        return ipaddress.IPv4Address(name).is_loopback
    except ValueError:
        return False


class Guard:
    """ASGI middleware: token, loopback ``Host``, GET/HEAD only, safe headers (see the module doc)."""

    def __init__(self, app, *, token: str | None, loopback_only: bool) -> None:
        self.app = app
        self.token = token.encode("utf-8") if token else None
        self.loopback_only = loopback_only

    async def __call__(self, scope, receive, send) -> None:
        if scope["type"] == "lifespan":
            await self.app(scope, receive, send)
            return
        if scope["type"] != "http":  # no websockets here
            if scope["type"] == "websocket":
                await send({"type": "websocket.close", "code": 1008})
            return
        headers = {k.decode("latin-1").lower(): v.decode("latin-1") for k, v in scope.get("headers", [])}
        page = "text/html" in headers.get("accept", "")  # a browser: the refusal as a page
        if self.loopback_only and not _is_loopback_host(headers.get("host", "")):
            await _refuse(send, 403, HOST_REFUSAL, page=page)
            return
        if self.token is not None:
            query = parse_qs(scope.get("query_string", b"").decode("latin-1"))
            given = (query.get("token") or [""])[0].encode("utf-8", "replace")
            if not hmac.compare_digest(given, self.token):
                await _refuse(send, 403, TOKEN_REFUSAL, page=page)
                return
        if scope["method"] not in ("GET", "HEAD"):
            await _refuse(send, 405, METHOD_REFUSAL, [(b"allow", b"GET, HEAD")], page=page)
            return

        async def guarded_send(message) -> None:
            if message["type"] == "http.response.start":
                names = {k.lower() for k, _ in message.get("headers", [])}
                extra = [(k, v) for k, v in _SAFE_HEADERS if k not in names]
                message = {**message, "headers": list(message.get("headers", [])) + extra}
            await send(message)

        await self.app(scope, receive, guarded_send)


_SAFE_HEADERS = [
    (b"content-security-policy", b"default-src 'none'; frame-ancestors 'none'"),
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"no-referrer"),
    (b"x-frame-options", b"DENY"),
    (b"cache-control", b"no-store"),
]


async def _refuse(send, status: int, text: str, headers: list[tuple[bytes, bytes]] | None = None,
                  page: bool = False) -> None:
    """The refusal: ``text`` as plain text, or with ``page`` (the request accepts HTML) :func:`refusal_page`."""
    safe = _SAFE_HEADERS
    if page:
        body, kind = refusal_page(status, text).encode("utf-8"), b"text/html; charset=utf-8"
        safe = [(k, REFUSAL_CSP.encode() if k == b"content-security-policy" else v) for k, v in _SAFE_HEADERS]
    else:
        body, kind = text.encode("utf-8"), b"text/plain; charset=utf-8"
    await send({"type": "http.response.start", "status": status,
                "headers": [(b"content-type", kind),
                            (b"content-length", str(len(body)).encode()), *(headers or []), *safe]})
    await send({"type": "http.response.body", "body": body})


def create_app(config: SpectatorConfig) -> Guard:
    """The guarded ASGI application; its lifespan starts the watcher (use it with uvicorn or TestClient)."""
    watcher = Watcher(config)
    page_policy = page_headers()

    async def page(request: Request) -> Response:
        return HTMLResponse(PAGE, headers={**page_policy, "Cache-Control": "no-store"})

    async def state_json(request: Request) -> Response:
        return JSONResponse(watcher.served(), headers={"Cache-Control": "no-store"})

    async def events(request: Request) -> Response:
        async def stream():
            yield "retry: 2000\n\n"
            sent = None
            quiet = 0.0
            while not config.stopping():
                served = watcher.served()
                key = (served["snapshot"], served.get("visible_from"))
                if key != sent:
                    sent = key
                    quiet = 0.0
                    yield f"id: {served['snapshot']}\ndata: {dumps_json(served)}\n\n"
                elif quiet >= config.keepalive:
                    quiet = 0.0
                    yield ": keep-alive\n\n"
                await asyncio.sleep(config.poll)
                quiet += config.poll

        return StreamingResponse(stream(), media_type="text/event-stream",
                                 headers={"Cache-Control": "no-store", "X-Accel-Buffering": "no"})

    @contextlib.asynccontextmanager
    async def lifespan(app):
        async def watch():
            while True:
                try:  # in a thread: reading a rewritten 200 MB log again does not stop the answers
                    await asyncio.to_thread(watcher.poll)
                except Exception as exc:  # a bad file must not stop the screen; say it once
                    watcher._warn(f"reading the files failed ({type(exc).__name__}: {exc}); trying again.")
                await asyncio.sleep(config.poll)

        watcher.poll()
        task = asyncio.create_task(watch())
        try:
            yield
        finally:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task

    app = Starlette(routes=[Route("/", page, methods=["GET"]), Route("/events", events, methods=["GET"]),
                            Route("/state.json", state_json, methods=["GET"])], lifespan=lifespan)
    app.state.watcher = watcher
    guarded = Guard(app, token=config.token, loopback_only=config.loopback_only)
    guarded.watcher = watcher
    guarded.config = config
    return guarded
