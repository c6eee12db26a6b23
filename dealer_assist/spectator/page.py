"""The spectator page: one HTML document, its CSS and script inline, nothing fetched from elsewhere.

The script opens ``events`` (server-sent events, the token passed on when the
address has one) and redraws the page from each message; every text it shows
is set with ``textContent`` (names come from files: never parsed as HTML).
The Content-Security-Policy of :func:`page_headers` allows exactly this
script and this style (by their SHA-256), connections to the same origin, and
nothing else: no form, no frame, no image, no other script.
"""

from __future__ import annotations

import base64
import hashlib

__all__ = ["PAGE", "page_headers"]

STYLE = """
:root { color-scheme: dark; --bg: #10141a; --card: #1b222c; --line: #2f3a48; --text: #eef2f6; --dim: #9aa7b5;
  --p: #ffd54a; --win: #3ddc84; --lose: #ff6b6b; --warn: #ffb74d; }
* { box-sizing: border-box; }
html { font-size: clamp(15px, 1.55vw, 44px); }
body { margin: 0; background: var(--bg); color: var(--text); line-height: 1.25;
  font-family: "DejaVu Sans", "Noto Sans", "Liberation Sans", Arial, sans-serif; }
header { display: flex; flex-wrap: wrap; gap: .4rem 1rem; align-items: center; justify-content: space-between;
  padding: .6rem 1rem; background: #0b0e13; border-bottom: 1px solid var(--line); }
header h1 { margin: 0; font-size: 1.3rem; font-weight: 700; }
.badges { display: flex; gap: .6rem; align-items: center; flex-wrap: wrap; }
.badge { padding: .15rem .6rem; border-radius: .4rem; background: var(--card); border: 1px solid var(--line);
  font-size: .95rem; white-space: nowrap; }
.badge.delay { background: #3a2c00; border-color: var(--p); color: var(--p); font-weight: 700; }
.badge.off { color: var(--lose); border-color: var(--lose); }
main { padding: .8rem 1rem 1.2rem; }
.waiting { text-align: center; margin: 18vh auto 0; }
.waiting .big { font-size: 2.6rem; font-weight: 700; }
.waiting .small { color: var(--dim); font-size: 1.1rem; margin-top: .8rem; }
.info { display: flex; flex-wrap: wrap; gap: .3rem 1.2rem; align-items: baseline; margin-bottom: .7rem; }
.info .hand { font-size: 1.8rem; font-weight: 700; }
.info .state { font-size: 1.1rem; padding: .1rem .5rem; border-radius: .3rem; background: var(--card); }
.info .state.live { color: var(--win); } .info .state.log { color: var(--dim); }
.pbadge { background: var(--p); color: #000; font-weight: 700; padding: .05rem .45rem; border-radius: .3rem; }
.muted { color: var(--dim); }
.carried { color: var(--win); font-weight: 600; margin: .3rem 0; }
h2 { font-size: 1.05rem; color: var(--dim); font-weight: 400; margin: .9rem 0 .35rem; text-transform: uppercase;
  letter-spacing: .05em; }
.board { display: flex; gap: .8rem; flex-wrap: wrap; }
.note { background: var(--card); border: 1px solid var(--line); border-radius: .5rem; padding: .5rem .8rem;
  min-width: 11rem; }
.note .rank { font-size: 2.2rem; font-weight: 700; }
.note .why { color: var(--dim); font-size: .85rem; }
.serial { font-family: "DejaVu Sans Mono", "Liberation Mono", monospace; font-size: 1.5rem; letter-spacing: .06em; }
.serial .at { background: var(--p); color: #000; border-radius: .15rem; font-weight: 700; }
.empty { color: var(--dim); font-size: 1.3rem; }
.seats { display: grid; grid-template-columns: repeat(auto-fill, minmax(17rem, 1fr)); gap: .8rem; }
.seat { background: var(--card); border: 2px solid var(--line); border-radius: .6rem; padding: .6rem .8rem; }
.seat.winner { border-color: var(--win); box-shadow: 0 0 1rem rgba(61, 220, 132, .35); }
.seat.folded { opacity: .55; }
.seat .name { font-size: 1.35rem; font-weight: 700; overflow-wrap: anywhere; }
.seat .tag { font-size: .8rem; margin-left: .4rem; padding: .05rem .35rem; border-radius: .25rem;
  background: var(--line); color: var(--text); vertical-align: middle; }
.seat .pocket { margin: .35rem 0; display: flex; gap: .6rem; flex-wrap: wrap; }
.seat .pnote { flex: 1 1 7.5rem; background: var(--bg); border: 1px solid var(--line); border-radius: .4rem;
  padding: .25rem .5rem; }
.seat .pnote .rank { font-size: 1.3rem; font-weight: 700; }
.why { color: var(--dim); font-size: .85rem; overflow-wrap: break-word; }
.why .ru { display: block; }
.legend { margin-top: .5rem; color: var(--dim); font-size: .9rem; display: flex; gap: .3rem 1rem; flex-wrap: wrap;
  align-items: center; }
.legend .sw { display: inline-block; width: 1.4rem; height: .45rem; border-radius: .2rem; vertical-align: middle;
  margin-right: .3rem; }
.sw.win, .bar > .win { background: var(--win); } .sw.tie, .bar > .tie { background: #b8f5d2; }
.badge:empty { display: none; }
.seat .hidden { color: var(--dim); font-style: italic; margin: .35rem 0; }
.seat .best { font-size: 1.2rem; font-weight: 700; }
.seat .odds { margin-top: .3rem; }
.bar { height: .45rem; background: var(--line); border-radius: .25rem; overflow: hidden; margin-top: .15rem; }
.bar { display: flex; }
.bar > div { height: 100%; width: 0; }
.result { margin-top: .3rem; font-weight: 700; font-size: 1.15rem; }
.result.wins, .result.splits { color: var(--win); } .result.loses { color: var(--lose); }
.result.folded, .result.notrevealed { color: var(--warn); }
.banner { margin-top: .9rem; font-size: 1.7rem; font-weight: 700; color: var(--win); }
.previous { margin-top: .5rem; color: var(--dim); }
table.balances { border-collapse: collapse; font-size: 1.05rem; }
table.balances th, table.balances td { padding: .2rem .9rem .2rem 0; text-align: right; }
table.balances th:first-child, table.balances td:first-child { text-align: left; }
table.balances td:first-child { overflow-wrap: anywhere; word-break: break-word; }
table.balances { max-width: 100%; }
.transfers, .previous, .banner { overflow-wrap: anywhere; }
table.balances th { color: var(--dim); font-weight: 400; }
h2 .count { text-transform: none; letter-spacing: 0; }
.pos { color: var(--win); } .neg { color: var(--lose); }
.transfers { margin-top: .35rem; color: var(--dim); }
footer { padding: .4rem 1rem; color: var(--dim); font-size: .8rem; border-top: 1px solid var(--line); }
"""

SCRIPT = r"""
(function () {
  "use strict";
  var params = new URLSearchParams(window.location.search);
  var token = params.get("token");
  var query = token ? "?token=" + encodeURIComponent(token) : "";
  var STREET = { preflop: ["Preflop", "Префлоп"], flop: ["Flop", "Флоп"], turn: ["Turn", "Тёрн"],
                 river: ["River", "Ривер"], showdown: ["Showdown", "Вскрытие"] };
  var RESULT = { wins: ["WINS", "выигрывает"], splits: ["SPLITS", "делит банк"], loses: ["loses", "проигрывает"],
                 folded: ["folded", "сбросил"], "not revealed": ["did not reveal", "не вскрылся"] };
  // each option's value in both languages, the dashboard's words (eighth new-user trial: English beside Russian)
  var JOKER = { off: "off · выкл.", "per-zero": "per zero · за каждый ноль", once: "once · один раз" };
  var TIES = { split: "split · делёж", rollover: "roll over · перенос банка" };

  function el(tag, cls, text) {
    var e = document.createElement(tag);
    if (cls) { e.className = cls; }
    if (text !== undefined && text !== null) { e.textContent = String(text); }
    return e;
  }
  function add(parent, child) { parent.appendChild(child); return child; }
  function pct(p) {
    if (p === 0) { return "0%"; }
    if (p === 1) { return "100%"; }
    if (p < 0.00005) { return "<0.01%"; }
    if (p > 0.99995) { return ">99.99%"; }
    return (100 * p).toFixed(2) + "%";
  }
  function clock(seconds) {
    var d = new Date(seconds * 1000);
    return d.toLocaleTimeString([], { hour: "2-digit", minute: "2-digit", second: "2-digit", hour12: false });
  }
  function serialEl(serial, position) {
    var s = el("span", "serial");
    for (var i = 0; i < serial.length; i++) {
      add(s, el("span", i === position - 1 ? "at" : "", serial.charAt(i)));
    }
    return s;
  }
  // plural forms: English one/other; Russian one (1, 21…), few (2-4, 22-24…), many (the rest)
  function plural(n, en, ru) {
    var m10 = n % 10, m100 = n % 100;
    var r = m10 === 1 && m100 !== 11 ? ru[0] : (m10 >= 2 && m10 <= 4 && (m100 < 12 || m100 > 14) ? ru[1] : ru[2]);
    return [n + " " + (n === 1 ? en[0] : en[1]), n + " " + r];
  }
  function whyEl(note) {
    var why = el("div", "why", note.reason);
    if (note.reason_ru && note.reason_ru !== note.reason) { add(why, el("span", "ru", note.reason_ru)); }
    return why;
  }
  function signed(chips) {
    var text = String(chips);
    return text === "0" || text.charAt(0) === "-" ? text : "+" + text;
  }

  function renderWaiting(main, data) {
    var box = add(main, el("div", "waiting"));
    add(box, el("div", "big", "Waiting for the first hand"));
    add(box, el("div", "small", "Ожидание первой раздачи"));
    if (data.visible_from) {
      add(box, el("div", "small", "The screen runs " + data.delay + " s behind the table; the first picture comes by " +
        clock(data.visible_from) + "."));
    }
  }

  function renderBoard(main, hand) {
    if (hand.game === "indian") {
      add(main, el("h2", "", "Indian poker · Индийский покер"));
      add(main, el("div", "muted", "one note per seat, no board · по одной купюре, борда нет"));
      return;
    }
    add(main, el("h2", "", "Board · Борд"));
    var board = add(main, el("div", "board"));
    board.id = "board";
    for (var i = 0; i < 3; i++) {
      var note = hand.board[i];
      var box = add(board, el("div", "note"));
      if (!note) {
        add(box, el("div", "empty", "—"));
        add(box, el("div", "why", "not dealt yet · ещё не роздана"));
      } else if (!note.serial) {
        add(box, el("div", "empty", "face down · рубашкой вверх"));
        add(box, el("div", "why", "not read yet · ещё не прочитана"));
      } else {
        add(box, serialEl(note.serial, hand.position));
        add(box, el("div", "rank", note.rank === null ? "—" : note.rank));
        if (note.reason) { add(box, whyEl(note)); }
      }
    }
  }

  // a tie under the rollover policy: its pot goes to the next hand, nobody wins or splits it (RULES.md §4;
  // eighth new-user trial: the page said "SPLITS" and "Winners: P1, P2" for a pot carried on)
  function rollsOver(hand) {
    return hand.tie_policy === "rollover" && hand.winners && hand.winners.length > 1;
  }

  function renderSeat(seats, seat, hand) {
    var card = add(seats, el("div", "seat"));
    card.setAttribute("data-seat", seat.name);
    if (hand.winners.indexOf(seat.name) >= 0 && !rollsOver(hand)) { card.classList.add("winner"); }
    if (seat.folded) { card.classList.add("folded"); }
    var name = add(card, el("div", "name", seat.name));
    if (seat.dealer) { add(name, el("span", "tag", "dealer · дилер")); }
    if (seat.folded) { add(name, el("span", "tag", "folded · сбросил")); }
    if (seat.revealed && seat.pocket) {
      var pocket = add(card, el("div", "pocket"));
      for (var i = 0; i < seat.pocket.length; i++) {
        var note = seat.notes && seat.notes[i];
        var box = add(pocket, el("div", "pnote"));
        add(box, serialEl(seat.pocket[i], hand.position));
        if (note && hand.game !== "indian") {  // an Indian note's rank and why are its best line below
          add(box, el("span", "rank", note.rank === null ? " —" : " " + note.rank));
          if (note.reason) { add(box, whyEl(note)); }
        }
      }
    } else {
      add(card, el("div", "hidden", "pocket notes hidden until revealed · скрыты до вскрытия"));
    }
    if (seat.best && hand.game === "indian") {
      add(card, el("div", "best", (seat.best.ranks.length ? "rank · ранг " + seat.best.ranks[0] + " · " +
        (seat.best.natural ? "natural · натуральная" : "modified · модифицированная") : "no rank · без ранга")));
      add(card, el("div", "why", seat.best.reason));
    } else if (seat.best) {
      add(card, el("div", "best", seat.best.ranks.join("-") + " " + seat.best.en + " (" + seat.best.ru + ")" +
        " · " + (seat.best.natural ? "natural · натуральная" : "modified · модифицированная")));
    }
    if (seat.odds) {
      var odds = add(card, el("div", "odds", "Win · выигрыш " + pct(seat.odds.win) + " · Tie · ничья " +
        pct(seat.odds.tie)));
      var bar = add(odds, el("div", "bar"));
      add(bar, el("div", "win")).style.width = (100 * seat.odds.win).toFixed(1) + "%";
      add(bar, el("div", "tie")).style.width = (100 * seat.odds.tie).toFixed(1) + "%";
    }
    if (seat.result) {
      var words = seat.result === "splits" && rollsOver(hand) ? ["ties: the pot rolls over", "ничья: банк переходит"]
        : RESULT[seat.result] || [seat.result, ""];
      var text = words[0] + " · " + words[1];
      // what the seat is paid, in the dashboard's words: "+40" read as the gain (seventh new-user trial)
      if (seat.payout !== null && String(seat.payout) !== "0") {
        text += " · gets " + seat.payout + " · получает " + seat.payout;
      }
      add(card, el("div", "result " + seat.result.replace(" ", ""), text));
    } else if (seat.chips !== null) {
      add(card, el("div", "muted", "chips in · внесено: " + seat.chips));
    }
  }

  function renderHand(main, data) {
    var hand = data.hand;
    var info = add(main, el("div", "info"));
    var number = hand.hand === null ? "?" : hand.hand;
    add(info, el("span", "hand", "Hand " + number + " · Раздача " + number));
    add(info, el("span", "state " + hand.source, hand.source === "live"
      ? (hand.decided ? "decided · решена" : "in play · идёт")
      : "finished · завершена"));
    if (hand.position !== null) {
      var p = add(info, el("span", ""));
      add(p, el("span", "pbadge", "P=" + hand.position));
      if (hand.position_random) { add(p, el("span", "muted", " random · случайное")); }
    }
    var street = STREET[hand.street] || [hand.street, ""];
    add(info, el("span", "", street[0] + " · " + street[1]));
    if (hand.dealer) { add(info, el("span", "muted", "dealer · дилер: " + hand.dealer)); }
    if (hand.zero_joker) { add(info, el("span", "muted", "zero-joker · ноль-джокер: " + (JOKER[hand.zero_joker] || hand.zero_joker))); }
    if (hand.tie_policy) { add(info, el("span", "muted", "ties · при равенстве: " + (TIES[hand.tie_policy] || hand.tie_policy))); }
    var carried = hand.carried_in;
    if (carried && !(hand.decided && carried.total !== null)) {
      var c = add(main, el("div", "carried", "Pot carried in: " + carried.carried + " (joins the main pot) · " +
        "Перенесённый банк: " + carried.carried + " (входит в основной)"));
      c.id = "carried";
    }

    renderBoard(main, hand);
    add(main, el("h2", "", "Players · Игроки"));
    var seats = add(main, el("div", "seats"));
    seats.id = "seats";
    if (!hand.seats.length) { add(seats, el("div", "muted", "nobody dealt in yet · ещё никому не роздано")); }
    for (var i = 0; i < hand.seats.length; i++) { renderSeat(seats, hand.seats[i], hand); }
    if (hasOdds(hand)) {
      var legend = add(main, el("div", "legend"));
      legend.id = "legend";
      var w = add(legend, el("span", ""));
      add(w, el("span", "sw win"));
      add(w, document.createTextNode("Win: the pot alone · выигрыш: весь банк"));
      var t = add(legend, el("span", ""));
      add(t, el("span", "sw tie"));
      add(t, document.createTextNode("Tie: a share of it · ничья: доля банка"));
      if (hand.board_unknown) {
        var n = plural(hand.board_unknown, ["board note", "board notes"], ["купюра борда", "купюры борда",
                                                                          "купюр борда"]);
        add(legend, el("span", "", "exact, over every serial the " + n[0] + " to come can have · точно, по всем " +
          "номерам, которые могут выпасть (ещё " + n[1] + ")"));
      }
    }
    if (hand.decided) {
      var banner = add(main, el("div", "banner"));
      banner.id = "winner";
      if (rollsOver(hand)) {
        banner.textContent = "Tied · Ничья: " + hand.winners.join(", ") + " → the next hand · следующая раздача";
      } else if (hand.winners.length) {
        banner.textContent = (hand.winners.length > 1 ? "Winners · Победители: " : "Winner · Победитель: ") +
          hand.winners.join(", ");
      } else {
        banner.textContent = "Nobody wins this hand · Никто не выиграл";
      }
      if (carried && carried.total !== null) {
        // the rules' main pot: its own chips, the chips carried in, the whole, who takes it (paid once)
        var to = carried.to.length ? carried.to.join(", ") : null;
        var m = add(main, el("div", "carried", "Main pot " + carried.main + " + carried " + carried.carried + " = " +
          carried.total + " → " + (to || "the next hand") + " · Основной банк " + carried.main + " + перенос " +
          carried.carried + " = " + carried.total + " → " + (to || "следующая раздача")));
        m.id = "carried";
      }
      if (hand.carry) {
        add(main, el("div", "muted", "Carried to the next hand · Переходит в следующую раздачу: " + hand.carry));
      }
    }
    if (data.previous) {
      var prev = data.previous;
      var number = prev.hand === null ? "" : prev.hand;
      if (rollsOver(prev)) {
        add(main, el("div", "previous", "Previous hand " + number + ": tie " + prev.winners.join(", ") +
          " → the next hand · Предыдущая раздача " + number + ": ничья " + prev.winners.join(", ") +
          " → следующая раздача"));
      } else {
        add(main, el("div", "previous", "Previous hand " + number + ": " +
          (prev.winners.length ? (prev.winners.length > 1 ? "winners " : "winner ") + prev.winners.join(", ") : "no winner") +
          " · Предыдущая раздача " + number + ": " + (prev.winners.length ?
          (prev.winners.length > 1 ? "победители " : "победитель ") + prev.winners.join(", ") : "без победителя")));
      }
    }
  }

  function hasOdds(hand) {
    return hand.seats.some(function (s) { return !!s.odds; });
  }

  function renderBalances(main, balances) {
    if (!balances || !balances.players.length) { return; }
    var count = plural(balances.hands, ["hand", "hands"], ["раздача", "раздачи", "раздач"]);
    var title = add(main, el("h2", "", "Session balances · Баланс сессии "));
    add(title, el("span", "count", "(" + count[0] + " · " + count[1] + ")"));
    var table = add(main, el("table", "balances"));
    table.id = "balances";
    var head = add(table, el("tr"));
    ["Player · Игрок", "Hands · Раздачи", "Won · Выиграно", "Net · Итог"].forEach(function (t) { add(head, el("th", "", t)); });
    balances.players.forEach(function (p) {
      var row = add(table, el("tr"));
      add(row, el("td", "", p.name));
      add(row, el("td", "", p.hands));
      add(row, el("td", "", p.won));
      var net = String(p.net);
      add(row, el("td", net === "0" ? "" : (net.charAt(0) === "-" ? "neg" : "pos"), signed(p.net)));
    });
    if (balances.players_not_shown) {
      var more = add(table, el("tr"));
      add(more, el("td", "", "… and " + balances.players_not_shown + " more players (dealer-assist ledger lists them all) · " +
        "… и ещё игроков: " + balances.players_not_shown + " (dealer-assist ledger покажет всех)"));
    }
    if (balances.transfers.length) {
      add(main, el("div", "transfers", "To settle · Расчёт: " + balances.transfers.map(function (t) {
        return party(t.from, t.from_kind) + " → " + party(t.to, t.to_kind) + " " + t.amount;
      }).join(" · ") + (balances.transfers_not_shown ? " · … and " + balances.transfers_not_shown +
        " more transfers (dealer-assist ledger lists them all) · … и ещё переводов: " +
        balances.transfers_not_shown + " (dealer-assist ledger покажет все)" : "")));
    }
  }

  // the house and the carried pot are kinds, not names: a seat called "organiser" reads as itself
  function party(name, kind) {
    if (kind === "house") { return "organiser (rake) · организатор (рейк)"; }
    if (kind === "carried pot") { return "carried pot · переходящий банк"; }
    return name;
  }

  function render(data) {
    var main = document.getElementById("main");
    main.textContent = "";
    document.getElementById("delay").textContent = "Delayed by " + data.delay + " s · задержка " + data.delay + " с";
    document.getElementById("asof").textContent = data.as_of ? "as of · на " + clock(data.as_of) : "";
    document.body.setAttribute("data-snapshot", String(data.snapshot));
    document.body.setAttribute("data-hand", data.hand && data.hand.hand !== null ? String(data.hand.hand) : "");
    document.body.setAttribute("data-source", data.hand ? data.hand.source : "");
    if (!data.hand) { renderWaiting(main, data); } else { renderHand(main, data); }
    renderBalances(main, data.balances);
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
    try { render(JSON.parse(event.data)); } catch (error) { connection("bad message: " + error, true); }
  };
})();
"""

PAGE = (
    "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
    "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
    "<meta name=\"referrer\" content=\"no-referrer\">\n"
    "<title>Banknote Hold'em · spectator screen</title>\n"
    f"<style>{STYLE}</style>\n</head>\n<body>\n"
    "<header><h1>Banknote Hold'em · Купюрный Hold'em</h1>\n"
    "<div class=\"badges\"><span id=\"delay\" class=\"badge delay\">Delayed · задержка</span>"
    "<span id=\"asof\" class=\"badge\"></span><span id=\"connection\" class=\"badge\">connecting… · подключение…</span></div>"
    "</header>\n"
    # until the first snapshot comes (a second or so): not "waiting for the first hand", which a log of hands is
    # not (seventh new-user trial L)
    "<main id=\"main\"><div class=\"waiting\"><div class=\"big\">Loading the table…</div>"
    "<div class=\"small\">Загрузка стола…</div></div></main>\n"
    "<footer>Read-only spectator screen of dealer-assist: pocket notes appear only once revealed at the table, "
    "and everything is shown late on purpose. · Экран зрителя dealer-assist, только для просмотра: карманные "
    "купюры видны, только когда вскрыты за столом, и всё показывается с задержкой намеренно.</footer>\n"
    f"<script>{SCRIPT}</script>\n</body>\n</html>\n"
)


def _sha256(text: str) -> str:
    return "'sha256-" + base64.b64encode(hashlib.sha256(text.encode("utf-8")).digest()).decode("ascii") + "'"


def page_headers() -> dict[str, str]:
    """The page's Content-Security-Policy: its own inline script and style, same-origin events, nothing else."""
    policy = (f"default-src 'none'; script-src {_sha256(SCRIPT)}; style-src {_sha256(STYLE)}; "
              "connect-src 'self'; img-src 'none'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'")
    return {"Content-Security-Policy": policy}
