"""The club's spectator screen, its web side: one page listing every table, one page per table.

Routes, every one GET (HEAD) only, behind the single-table screen's
:class:`~dealer_assist.spectator.app.Guard` (the token off loopback, a loopback ``Host`` on
loopback, read-only, no caching or framing):

* ``/`` — the club's page (:data:`CLUB_PAGE`): each table's hand in play after the delay
  (street, board, decided or not), its last winner, a link to its page;
* ``/events`` / ``/state.json`` — the club's snapshot, as server-sent events / once;
* ``/table/T/`` — table T's page: the single-table screen's page
  (:data:`dealer_assist.spectator.page.PAGE`) fed by ``/table/T/events`` and
  ``/table/T/state.json``, the same payload as ``dealer-assist serve`` of one log.

The data come from a :class:`~.watch.ClubWatcher` (LISTEN/NOTIFY); the delay is the same
timeline as the single-table screen's.
"""

from __future__ import annotations

import asyncio
import base64
import contextlib
import hashlib
import sys
from dataclasses import dataclass, field
from datetime import datetime
from typing import Callable

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, PlainTextResponse, Response, StreamingResponse
from starlette.routing import Route

from dealer_assist.club.records import TABLE_NAME
from dealer_assist.club.watch import ClubWatcher
from dealer_assist.fileio import dumps_json
from dealer_assist.spectator.app import Guard
from dealer_assist.spectator.page import PAGE, page_headers

__all__ = ["ClubConfig", "create_club_app", "CLUB_PAGE", "club_page_headers", "STREAM_TICK"]

#: Seconds between two looks of an open event stream at the in-memory timeline (the delay needs a
#: clock; the database itself is never polled: the watcher is woken by NOTIFY).
STREAM_TICK = 0.1
NO_TABLE = "There is no such table in this club.\n"


@dataclass
class ClubConfig:
    """What the club's screen follows and how (see :class:`dealer_assist.spectator.app.SpectatorConfig`)."""

    url: str
    delay: float = 30.0
    token: str | None = None
    loopback_only: bool = False
    since: datetime | None = None
    keepalive: float = 15.0
    warn: Callable[[str], None] = field(default=lambda text: print(f"warning: {text}", file=sys.stderr, flush=True))
    stopping: Callable[[], bool] = lambda: False


STYLE = """
:root { color-scheme: dark; --bg: #10141a; --card: #1b222c; --line: #2f3a48; --text: #eef2f6; --dim: #9aa7b5;
  --p: #ffd54a; --win: #3ddc84; --lose: #ff6b6b; }
* { box-sizing: border-box; }
html { font-size: clamp(15px, 1.4vw, 40px); }
body { margin: 0; background: var(--bg); color: var(--text); line-height: 1.25;
  font-family: "DejaVu Sans", "Noto Sans", "Liberation Sans", Arial, sans-serif; }
header { display: flex; flex-wrap: wrap; gap: .4rem 1rem; align-items: center; justify-content: space-between;
  padding: .6rem 1rem; background: #0b0e13; border-bottom: 1px solid var(--line); }
header h1 { margin: 0; font-size: 1.3rem; }
header > div { display: flex; flex-wrap: wrap; gap: .3rem 0; }
.badge { padding: .15rem .6rem; border-radius: .4rem; background: var(--card); border: 1px solid var(--line);
  font-size: .95rem; white-space: nowrap; margin-left: .4rem; }
.badge.delay { background: #3a2c00; border-color: var(--p); color: var(--p); font-weight: 700; }
.badge.off { color: var(--lose); border-color: var(--lose); }
main { padding: .8rem 1rem; display: grid; grid-template-columns: repeat(auto-fill, minmax(19rem, 1fr)); gap: .9rem; }
.table { background: var(--card); border: 1px solid var(--line); border-radius: .6rem; padding: .7rem .9rem;
  color: var(--text); text-decoration: none; display: block; }
.table:hover { border-color: var(--p); }
.table .name { font-size: 1.5rem; font-weight: 700; }
.table .hand { font-size: 1.1rem; margin-top: .3rem; }
.table .board { font-family: "DejaVu Sans Mono", "Liberation Mono", monospace; font-size: 1.1rem; margin-top: .3rem; }
.table .winner { color: var(--win); font-weight: 700; margin-top: .3rem; }
.muted { color: var(--dim); }
.waiting { grid-column: 1 / -1; text-align: center; margin-top: 15vh; font-size: 2rem; }
footer { padding: .4rem 1rem; color: var(--dim); font-size: .8rem; border-top: 1px solid var(--line); }
"""

SCRIPT = r"""
(function () {
  "use strict";
  var params = new URLSearchParams(window.location.search);
  var token = params.get("token");
  var query = token ? "?token=" + encodeURIComponent(token) : "";
  // every label English · Russian, as on each table's page
  var STREET = { preflop: ["Preflop", "Префлоп"], flop: ["Flop", "Флоп"], turn: ["Turn", "Тёрн"],
                 river: ["River", "Ривер"], showdown: ["Showdown", "Вскрытие"] };
  var STATE = { decided: ["decided", "решена"], "in play": ["in play", "идёт"], finished: ["finished", "завершена"] };
  // plural forms: English one/other; Russian one (1, 21…), few (2-4, 22-24…), many (the rest)
  function plural(n, en, ru) {
    var m10 = n % 10, m100 = n % 100;
    var r = m10 === 1 && m100 !== 11 ? ru[0] : (m10 >= 2 && m10 <= 4 && (m100 < 12 || m100 > 14) ? ru[1] : ru[2]);
    return n + " " + (n === 1 ? en[0] : en[1]) + " · " + n + " " + r;
  }
  function el(tag, cls, text) {
    var e = document.createElement(tag);
    if (cls) { e.className = cls; }
    if (text !== undefined && text !== null) { e.textContent = String(text); }
    return e;
  }
  function add(parent, child) { parent.appendChild(child); return child; }
  function clock(seconds) {
    var d = new Date(seconds * 1000);
    return d.toLocaleTimeString([], { hour: "2-digit", minute: "2-digit", second: "2-digit", hour12: false });
  }
  function render(data) {
    var main = document.getElementById("main");
    main.textContent = "";
    document.getElementById("delay").textContent = "Delayed by " + data.delay + " s · задержка " + data.delay + " с";
    document.getElementById("asof").textContent = data.as_of ? "as of · на " + clock(data.as_of) : "";
    var club = document.getElementById("club");
    club.textContent = data.club_online ? "club database connected · база клуба подключена"
      : "club database unreachable · база клуба недоступна";
    club.className = data.club_online ? "badge" : "badge off";
    document.body.setAttribute("data-snapshot", String(data.snapshot));
    if (!data.tables.length) {
      add(main, el("div", "waiting", "Waiting for the first table · Ожидание первого стола"));
      return;
    }
    data.tables.forEach(function (t) {
      var card = add(main, el("a", "table"));
      card.href = "table/" + encodeURIComponent(t.name) + "/" + query;
      card.setAttribute("data-table", t.name);
      add(card, el("div", "name", t.name));
      var h = t.hand;
      if (h) {
        card.setAttribute("data-hand", h.hand === null ? "" : String(h.hand));
        var state = STATE[h.source === "live" ? (h.decided ? "decided" : "in play") : "finished"];
        var street = STREET[h.street] || [h.street, h.street];
        var number = h.hand === null ? "?" : h.hand;
        add(card, el("div", "hand", "Hand " + number + " · Раздача " + number + " · " + state[0] + " · " + state[1] + " · " +
          street[0] + " · " + street[1] + " · " + plural(h.seats, ["seat", "seats"], ["место", "места", "мест"])));
        add(card, el("div", "board", h.board.length ? h.board.map(function (s) { return s || "·······"; }).join("  ")
          : "no board note yet · купюр борда ещё нет"));
        if (h.decided && h.tie_policy === "rollover" && h.winners.length > 1) {
          // a tie whose pot goes to the next hand has no winners (RULES.md §4; eighth new-user trial)
          add(card, el("div", "winner", "Tied · Ничья: " + h.winners.join(", ") + " → the next hand · следующая раздача"));
        } else if (h.decided) {
          add(card, el("div", "winner", h.winners.length ? (h.winners.length > 1 ? "Winners · Победители: "
            : "Winner · Победитель: ") + h.winners.join(", ") : "No winner · Победителя нет"));
        }
      } else {
        add(card, el("div", "hand muted", "no hand yet · раздач ещё нет"));
      }
      if (t.last) {
        card.setAttribute("data-last", (t.last.session || "") + "#" + t.last.hand);
        add(card, el("div", "muted", "Last finished hand " + t.last.hand + " · Последняя завершённая раздача " +
          t.last.hand + ": " +
          (t.last.winners.length ? t.last.winners.join(", ") : "no winner · победителя нет")));
      }
    });
  }
  function connection(text, bad) {
    var c = document.getElementById("connection");
    c.textContent = text;
    c.className = bad ? "badge off" : "badge";
  }
  var source = new EventSource("events" + query);
  source.onopen = function () { connection("connected · подключено", false); };
  source.onerror = function () { connection("reconnecting… · переподключение…", true); };
  source.onmessage = function (event) {
    try { render(JSON.parse(event.data)); } catch (error) {
      connection("bad message · неверное сообщение: " + error, true);
    }
  };
})();
"""

CLUB_PAGE = (
    "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
    "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
    "<meta name=\"referrer\" content=\"no-referrer\">\n"
    "<title>Banknote Hold'em · the club's tables</title>\n"
    f"<style>{STYLE}</style>\n</head>\n<body>\n"
    "<header><h1>Banknote Hold'em · the club's tables · столы клуба</h1><div>"
    "<span id=\"delay\" class=\"badge delay\">Delayed · задержка</span><span id=\"asof\" class=\"badge\"></span>"
    "<span id=\"club\" class=\"badge\"></span><span id=\"connection\" class=\"badge\">connecting… · подключение…"
    "</span></div></header>\n<main id=\"main\"><div class=\"waiting\">Waiting for the first table · Ожидание "
    "первого стола</div></main>\n"
    "<footer>Read-only spectator screen of dealer-assist: every table of the club, shown late on purpose; "
    "open a table for its board, revealed hands and balances. · Экран только для просмотра: все столы клуба, "
    "нарочно с задержкой; откройте стол, чтобы увидеть его борд, вскрытые руки и баланс.</footer>\n"
    f"<script>{SCRIPT}</script>\n</body>\n</html>\n"
)


def _sha256(text: str) -> str:
    return "'sha256-" + base64.b64encode(hashlib.sha256(text.encode("utf-8")).digest()).decode("ascii") + "'"


def club_page_headers() -> dict[str, str]:
    """The club page's Content-Security-Policy: its own inline script and style, same-origin events, nothing else."""
    policy = (f"default-src 'none'; script-src {_sha256(SCRIPT)}; style-src {_sha256(STYLE)}; "
              "connect-src 'self'; img-src 'none'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'")
    return {"Content-Security-Policy": policy}


def create_club_app(config: ClubConfig, watcher: ClubWatcher | None = None) -> Guard:
    """The guarded ASGI application; its lifespan starts the watcher (use it with uvicorn or TestClient)."""
    watcher = watcher or ClubWatcher(config.url, delay=config.delay, since=config.since, warn=config.warn)
    club_policy, table_policy = club_page_headers(), page_headers()
    no_store = {"Cache-Control": "no-store"}

    def table_name(request: Request) -> str | None:
        name = request.path_params["name"]
        return name if TABLE_NAME.fullmatch(name) else None

    async def club_page(request: Request) -> Response:
        return HTMLResponse(CLUB_PAGE, headers={**club_policy, **no_store})

    async def club_state(request: Request) -> Response:
        return JSONResponse(watcher.served_overview(), headers=no_store)

    async def table_page(request: Request) -> Response:
        if table_name(request) is None:
            return PlainTextResponse(NO_TABLE, status_code=404, headers=no_store)
        return HTMLResponse(PAGE, headers={**table_policy, **no_store})

    async def table_state(request: Request) -> Response:
        name = table_name(request)
        if name is None:
            return PlainTextResponse(NO_TABLE, status_code=404, headers=no_store)
        return JSONResponse(watcher.served_table(name), headers=no_store)

    def stream(served: Callable[[], dict | None]) -> StreamingResponse:
        async def events():
            yield "retry: 2000\n\n"
            sent = None
            quiet = 0.0
            while not config.stopping():
                now = served()
                if now is None:
                    break
                key = (now["snapshot"], now.get("visible_from"))
                if key != sent:
                    sent = key
                    quiet = 0.0
                    yield f"id: {now['snapshot']}\ndata: {dumps_json(now)}\n\n"
                elif quiet >= config.keepalive:
                    quiet = 0.0
                    yield ": keep-alive\n\n"
                await asyncio.sleep(STREAM_TICK)
                quiet += STREAM_TICK

        return StreamingResponse(events(), media_type="text/event-stream",
                                 headers={**no_store, "X-Accel-Buffering": "no"})

    async def club_events(request: Request) -> Response:
        return stream(watcher.served_overview)

    async def table_events(request: Request) -> Response:
        name = table_name(request)
        if name is None:
            return PlainTextResponse(NO_TABLE, status_code=404, headers=no_store)
        return stream(lambda: watcher.served_table(name))

    @contextlib.asynccontextmanager
    async def lifespan(app):
        watcher.start()
        try:
            yield
        finally:
            await asyncio.get_running_loop().run_in_executor(None, watcher.stop)

    routes = [Route("/", club_page, methods=["GET"]), Route("/events", club_events, methods=["GET"]),
              Route("/state.json", club_state, methods=["GET"]),
              Route("/table/{name}/", table_page, methods=["GET"]),
              Route("/table/{name}/events", table_events, methods=["GET"]),
              Route("/table/{name}/state.json", table_state, methods=["GET"])]
    app = Starlette(routes=routes, lifespan=lifespan)
    guarded = Guard(app, token=config.token, loopback_only=config.loopback_only)
    guarded.watcher = watcher
    guarded.config = config
    return guarded
