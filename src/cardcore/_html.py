"""Static HTML: a replay viewer for one match and a report for an arena run.

Both are single self-contained files: no network, no build step, no script from
elsewhere. The replay viewer holds only what its point of view may see. Seen by one
seat, it carries that seat's observations and nothing else (other seats' hidden cards
never reach the file, so a player can be given the file of their own seat); seen by all
seats, allowed once the match is over, it merges what every seat knew at each step.
"""

from __future__ import annotations

import html
import json
import math
from collections.abc import Mapping, Sequence
from typing import Any, Final

from cardcore._cards import parse_card
from cardcore._game import Game
from cardcore._match_record import MatchRecord, initial_state_of, replay
from cardcore._table import SPECTATOR, TableView, Zone
from cardcore.cli._human_text import known_cards, move_text

__all__ = [
    "ALL_SEATS",
    "arena_report_html",
    "replay_data",
    "replay_html",
    "zone_entries",
    "zone_title",
]

ALL_SEATS: Final = -2
"""The point of view that sees every seat's cards (a finished match only)."""

_WORDS: Final = {
    "won": "tricks won",
    "turnup": "turn-up",
    "draw": "draw pile",
    "hole": "hole card",
    "row": "face-up row",
    "done": "played",
}
"""Zone words a player would say otherwise (a zone's name without its seat number)."""


def _split_number(name: str) -> tuple[str, int | None]:
    """``hand2`` -> ``("hand", 2)``; a name without a trailing number -> ``(name, None)``."""
    word = name.rstrip("0123456789")
    if not word or word == name:
        return name, None
    return word, int(name[len(word) :])


def zone_title(zone: Zone, viewer: int, teams: Sequence[Sequence[int]] | None = None) -> str:
    """A zone named as a player at ``viewer`` would: ``your hand``, ``seat 2's tricks won``.

    Args:
        zone: the zone.
        viewer: the seat looking, or :data:`cardcore.SPECTATOR` / :data:`ALL_SEATS`.
        teams: the game's partnerships, for numbered zones of no seat (``won0``).

    Returns:
        The zone's name in words, with whose zone it is.
    """
    word, number = _split_number(zone.name)
    word = _WORDS.get(word, word)
    if zone.owner is not None:
        if zone.owner == viewer:
            return f"your {word}"
        return f"seat {zone.owner}'s {word}"
    if number is None:
        return word
    if teams and 0 <= number < len(teams):
        members = tuple(teams[number])
        if viewer in members:
            return f"your side's {word}"
        return "seats " + "+".join(str(s) for s in members) + f"' {word}"
    return f"{word} {number}"


def zone_entries(
    views: Sequence[TableView], viewer: int, teams: Sequence[Sequence[int]] | None = None
) -> list[dict[str, Any]]:
    """The zones as drawn by the viewer and the web table, from one or more seats' views.

    Several views (every seat's, at a finished match) are merged: a card any of them
    knows is drawn face up. Each zone is ``name``, ``title`` (see :func:`zone_title`),
    ``owner``, ``ordered``, ``mine`` and ``cards`` (card texts, ``None`` face down).
    """
    layout = views[0].layout
    merged: list[dict[str, Any]] = []
    per_view = [v.to_json()["zones"] for v in views]
    for z in layout.zones:
        lists: list[list[str | None]] = [list(pv[z.name]) for pv in per_view]  # type: ignore[index]
        if z.ordered:
            cards = [
                next((c[i] for c in lists if c[i] is not None), None) for i in range(len(lists[0]))
            ]
        else:
            known: list[str] = []
            for c in lists:
                known.extend(x for x in c if x is not None and x not in known)
            cards = [*known, *([None] * (len(lists[0]) - len(known)))]
        merged.append(
            {
                "name": z.name,
                "title": zone_title(z, viewer, teams),
                "owner": z.owner,
                "ordered": z.ordered,
                "mine": z.owner is not None and z.owner == viewer,
                "cards": cards,
            }
        )
    return merged


def _zones(game: Game[Any, Any, Any], state: Any, seat: int, players: int) -> list[dict[str, Any]]:
    """The zones as ``seat`` knows them; for :data:`ALL_SEATS`, what any seat knew."""
    seats = range(players) if seat == ALL_SEATS else (seat,)
    views = [game.observe(state, s).table for s in seats]
    return zone_entries(views, seat, game.teams(players))


def _move_seen(action: str, by: int, seat: int, observation: Any, text: str) -> str:
    """An action as ``seat`` may know it, from its observation just after the move.

    Every seat's view names the cards the seat then knows (``played 10♦``) and hides the
    others (``drew ?``); a seat's own actions, and every action seen by all seats, are
    named in full. A card the seat's own text names (``seat 0 plays 10♦`` in the turn's
    events) is known to it even when the table has since swept it out of sight.
    """
    if seat in (ALL_SEATS, by):
        return action
    return move_text(action, known_cards(observation.table) | _named_cards(text))


def _named_cards(text: str) -> int:
    """The mask of the cards a text names (a seat's rendering: what it was shown)."""
    from cardcore.cli._human_text import _CARD

    mask = 0
    for m in _CARD.findall(text):
        mask |= 1 << parse_card(m).id
    return mask


def asset(name: str) -> str:
    """The text of one of the drawing assets shared with the web table (``cards.js``)."""
    from importlib.resources import files

    return files("cardcore.web").joinpath("static", name).read_text(encoding="utf-8")


def replay_data(
    record: MatchRecord, game: Game[Any, Any, Any], seat: int = ALL_SEATS
) -> dict[str, Any]:
    """The frames of the viewer: the table before the first decision and after each one.

    Args:
        record: the match.
        game: its rules.
        seat: the point of view: a seat, :data:`cardcore.SPECTATOR` (public only) or
            :data:`ALL_SEATS` (every hand; only for a finished match).

    Raises:
        ValueError: an unfinished match seen by all seats, or a seat out of range.
    """
    n = record.num_players
    if seat == ALL_SEATS and record.outcome is None:
        raise ValueError("an unfinished match can be shown only from one seat's point of view")
    if seat not in (ALL_SEATS, SPECTATOR) and not 0 <= seat < n:
        raise ValueError(f"seat {seat} is not a seat of this match (0-{n - 1})")
    state = initial_state_of(record, game)

    def texts(state: Any) -> dict[str, Any]:
        # Seen by every seat, each seat's own text: the onlooker's would show as "?" the
        # hands drawn face up beside it.
        if seat == ALL_SEATS:
            return {"texts": [game.render(game.observe(state, s)) for s in range(n)]}
        return {"text": game.render(game.observe(state, seat))}

    frames: list[dict[str, Any]] = [
        {
            "step": 0,
            "by": None,
            "action": "",
            "to_move": game.current_player(state),
            "zones": _zones(game, state, seat, n),
            **texts(state),
        }
    ]
    for step in replay(record, game):
        # A seat's view names its own actions, and of the others' what it saw.
        shown = texts(step.after)
        seen = None if seat == ALL_SEATS else game.observe(step.after, seat)
        action = _move_seen(str(step.action), step.seat, seat, seen, shown.get("text", ""))
        frames.append(
            {
                "step": step.index + 1,
                "by": step.seat,
                "action": action,
                "to_move": game.current_player(step.after),
                "zones": _zones(game, step.after, seat, n),
                **shown,
            }
        )
    _add_transcripts(frames, record, seat)
    names = list(record.bots) if record.bots else [f"seat {s}" for s in range(n)]
    view = (
        "every seat"
        if seat == ALL_SEATS
        else "the table (public cards only)"
        if seat == SPECTATOR
        else f"seat {seat}"
    )
    return {
        "game": record.game,
        "players": n,
        # Only every seat's view (a finished match) names the seed: with it, a seat or an
        # onlooker could deal every hidden card again.
        "seed": record.seed if seat == ALL_SEATS else None,
        "bots": names,
        "view": view,
        "seat": seat,
        "outcome": None if record.outcome is None else record.outcome.to_json(),
        "frames": frames,
    }


def _add_transcripts(frames: list[dict[str, Any]], record: MatchRecord, seat: int) -> None:
    """Give each frame the transcripts of the decision it shows, as its view may see them.

    Every seat's view shows every seat's; a seat's, only its own (another seat's prompts
    hold that seat's hidden cards); the table's, none. A forfeited decision's goes with
    the last frame.
    """
    from cardcore.cli._transcripts import blocks, by_decision, summary

    seats = range(record.num_players) if seat == ALL_SEATS else () if seat == SPECTATOR else (seat,)
    for index, entries in by_decision(record.transcripts, seats).items():
        frame = frames[min(index + 1, len(frames) - 1)]
        frame.setdefault("transcripts", []).extend(
            {
                "seat": s,
                "forfeited": index >= len(record.actions),
                "summary": summary(entry),
                "blocks": blocks(entry),
            }
            for s, entry in entries
        )


_STYLE: Final = """
:root { --felt: #1f5e3b; --ink: #1d1d1f; }
* { box-sizing: border-box; }
body { margin: 0; font: 15px/1.4 system-ui, sans-serif; color: var(--ink); background: #f3f1ea; }
header { padding: 12px 20px; background: var(--felt); color: #fff; }
header h1 { margin: 0; font-size: 20px; }
header p { margin: 2px 0 0; opacity: .85; }
main { display: grid; grid-template-columns: minmax(0, 3fr) minmax(220px, 1fr); gap: 16px; padding: 16px 20px; }
.controls { display: flex; gap: 8px; align-items: center; margin-bottom: 12px; flex-wrap: wrap; }
button { font: inherit; padding: 6px 14px; border: 1px solid #777; border-radius: 6px; background: #fff; cursor: pointer; }
button:disabled { opacity: .4; cursor: default; }
#counter { font-variant-numeric: tabular-nums; min-width: 9em; }
#move { font-weight: 600; }
#text-seats { display: flex; gap: 6px; align-items: center; margin-top: 8px; flex-wrap: wrap; }
#text-seats[hidden] { display: none; }
#text-seats button[aria-pressed="true"] { background: #1f5e3b; color: #fff; }
pre { background: #fff; border: 1px solid #ccc; border-radius: 8px; padding: 10px; white-space: pre-wrap; font-size: 13px; }
ol#log { margin: 0; padding-left: 2.2em; max-height: 70vh; overflow: auto; font-size: 13px; }
ol#log li.current { background: #ffe9a8; }
ol#log li { cursor: pointer; }
.outcome { margin-top: 12px; padding: 10px; border-radius: 8px; background: #fff; border: 1px solid #ccc; }
#transcripts details { margin: 8px 0; background: #fff; border: 1px solid #ccc; border-radius: 8px; padding: 6px 10px; }
#transcripts summary { cursor: pointer; font-weight: 600; }
#transcripts h4 { margin: 8px 0 2px; font-size: 13px; }
#transcripts h4.refused { color: #a4161a; }
kbd { border: 1px solid #999; border-radius: 3px; padding: 0 4px; background: #fff; color: #111; font-size: 12px; }
"""

_SCRIPT: Final = r"""
const data = JSON.parse(document.getElementById("replay-data").textContent);
let at = 0;
const last = data.frames.length - 1;
const $ = (id) => document.getElementById(id);
function seatName(s) { return s === null ? "" : "seat " + s + " (" + data.bots[s] + ")"; }
let textSeat = null;
function show(i) {
  at = Math.max(0, Math.min(last, i));
  const f = data.frames[at];
  $("counter").textContent = "step " + at + " / " + last;
  $("move").textContent = at === 0 ? "before the first decision" : seatName(f.by) + ": " + f.action;
  $("next-up").textContent = f.to_move === null ? "the match is over" : "to move: " + seatName(f.to_move);
  CardDraw.zones($("zones"), f.zones, {});
  if (f.texts) {
    const who = textSeat !== null ? textSeat : (f.by !== null ? f.by : (f.to_move !== null ? f.to_move : 0));
    $("text").textContent = f.texts[who];
    for (const b of document.querySelectorAll("#text-seats button")) b.setAttribute("aria-pressed", String(Number(b.dataset.seat) === who));
  } else {
    $("text").textContent = f.text;
  }
  $("prev").disabled = $("first").disabled = at === 0;
  $("next").disabled = $("end").disabled = at === last;
  for (const li of document.querySelectorAll("#log li")) li.classList.toggle("current", Number(li.dataset.step) === at);
  const cur = document.querySelector("#log li.current"); if (cur) cur.scrollIntoView({block: "nearest"});
  $("outcome").hidden = !(at === last && data.outcome);
  showTranscripts(f.transcripts || []);
  history.replaceState(null, "", "#step=" + at);
}
function showTranscripts(list) {
  // One collapsible panel per decision's transcript; text only, never markup.
  const box = $("transcripts"); box.replaceChildren(); box.hidden = list.length === 0;
  for (const t of list) {
    const d = document.createElement("details"), s = document.createElement("summary");
    s.textContent = (t.forfeited ? "the forfeited decision of " : "") + seatName(t.seat) + ": " + t.summary;
    d.append(s);
    for (const [label, text] of t.blocks) {
      const h = document.createElement("h4"); h.textContent = label;
      if (label === "refused") h.className = "refused";
      const pre = document.createElement("pre"); pre.textContent = text; d.append(h, pre);
    }
    box.append(d);
  }
}
if (data.seat === -2) {
  // Every seat's view: each seat's own text, one at a time (it follows the moves until one is chosen).
  const bar = $("text-seats"); bar.hidden = false;
  const label = document.createElement("span"); label.textContent = "text as seen by:"; bar.append(label);
  for (let s = 0; s < data.players; s++) {
    const b = document.createElement("button"); b.type = "button"; b.dataset.seat = s; b.textContent = seatName(s);
    b.onclick = () => { textSeat = s; show(at); }; bar.append(b);
  }
}
const log = $("log");
data.frames.slice(1).forEach((f) => {
  const li = document.createElement("li"); li.dataset.step = f.step;
  li.textContent = "seat " + f.by + ": " + f.action; li.onclick = () => show(f.step); log.append(li);
});
if (data.outcome) {
  const o = data.outcome, rows = o.scores.map((s, i) => seatName(i) + ": score " + s + ", place " + o.placing[i]);
  $("outcome").textContent = (o.reason ? o.reason + ". " : "") + rows.join("; ");
}
$("first").onclick = () => show(0);
$("prev").onclick = () => show(at - 1);
$("next").onclick = () => show(at + 1);
$("end").onclick = () => show(last);
document.addEventListener("keydown", (e) => {
  if (e.key === "ArrowRight" || e.key === "n" || e.key === " ") { show(at + 1); e.preventDefault(); }
  else if (e.key === "ArrowLeft" || e.key === "p") { show(at - 1); e.preventDefault(); }
  else if (e.key === "Home") show(0);
  else if (e.key === "End") show(last);
});
const linked = /^#step=(\d+)$/.exec(location.hash);
show(linked ? Number(linked[1]) : 0);
"""


def _json_for_script(data: Any) -> str:
    """JSON that is safe inside a ``<script>`` element."""
    return (
        json.dumps(data, ensure_ascii=False, separators=(",", ":"))
        .replace("<", "\\u003c")
        .replace(">", "\\u003e")
        .replace("&", "\\u0026")
    )


def replay_html(record: MatchRecord, game: Game[Any, Any, Any], seat: int = ALL_SEATS) -> str:
    """A self-contained HTML page that steps through a match (see :func:`replay_data`)."""
    data = replay_data(record, game, seat)
    seeded = "" if data["seed"] is None else f", seed {data['seed']}"
    title = f"{record.game} replay{seeded}, seen by {data['view']}"
    return f"""<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{html.escape(title)}</title>
<style>{_STYLE}{asset("cards.css")}</style>
</head>
<body>
<header>
<h1>{html.escape(record.game)}: {record.num_players} players{seeded}</h1>
<p>Seen by {html.escape(data["view"])} · {html.escape(", ".join(data["bots"]))} ·
keys <kbd>&larr;</kbd> <kbd>&rarr;</kbd> <kbd>Home</kbd> <kbd>End</kbd> · link to a step: <code>#step=N</code></p>
</header>
<main>
<div>
<div class="controls">
<button id="first" type="button">« First</button>
<button id="prev" type="button">‹ Previous</button>
<button id="next" type="button">Next ›</button>
<button id="end" type="button">Last »</button>
<span id="counter"></span>
</div>
<p><span id="move"></span> · <span id="next-up"></span></p>
<div id="zones"></div>
<div id="text-seats" hidden></div>
<pre id="text"></pre>
<div id="transcripts" hidden></div>
<div id="outcome" class="outcome" hidden></div>
</div>
<aside>
<h2>Moves</h2>
<ol id="log" start="1"></ol>
</aside>
</main>
<script type="application/json" id="replay-data">{_json_for_script(data)}</script>
<script>{asset("cards.js")}</script>
<script>{_SCRIPT}</script>
</body>
</html>
"""


# ---- arena report ------------------------------------------------------------------


def _interval(e: Mapping[str, Any]) -> tuple[float, float | None, float | None]:
    lo, hi = e.get("low"), e.get("high")
    return float(e["mean"]), None if lo is None else float(lo), None if hi is None else float(hi)


def _bars_svg(
    title: str, rows: Sequence[tuple[str, float, float | None, float | None]], *, top: float
) -> str:
    """A horizontal bar chart with interval whiskers, as inline SVG."""
    w, label_w, bar_h, gap = 560, 150, 22, 10
    h = 34 + len(rows) * (bar_h + gap)
    span = w - label_w - 60
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" role="img" '
        f'aria-label="{html.escape(title)}">',
        f'<text x="0" y="16" font-size="14" font-weight="600">{html.escape(title)}</text>',
    ]
    for i, (label, mean, lo, hi) in enumerate(rows):
        y = 30 + i * (bar_h + gap)

        def x(v: float) -> float:
            return label_w + span * max(0.0, min(v, top)) / top

        parts.append(
            f'<text x="{label_w - 8}" y="{y + 16}" font-size="13" text-anchor="end">'
            f"{html.escape(label)}</text>"
        )
        parts.append(
            f'<rect x="{label_w}" y="{y}" width="{x(mean) - label_w:.1f}" height="{bar_h}" '
            f'fill="#2f7d55"><title>{html.escape(label)}: {mean:.3f}</title></rect>'
        )
        if lo is not None and hi is not None:
            cy = y + bar_h / 2
            parts.append(
                f'<line x1="{x(lo):.1f}" x2="{x(hi):.1f}" y1="{cy}" y2="{cy}" stroke="#111" '
                'stroke-width="2"/>'
            )
            for v in (lo, hi):
                parts.append(
                    f'<line x1="{x(v):.1f}" x2="{x(v):.1f}" y1="{y + 4}" y2="{y + bar_h - 4}" '
                    'stroke="#111" stroke-width="2"/>'
                )
        parts.append(
            f'<text x="{x(hi if hi is not None else mean) + 6:.1f}" y="{y + 16}" '
            f'font-size="12">{mean:.3f}</text>'
        )
    parts.append("</svg>")
    return "".join(parts)


_USAGE_HEADS: Final = (
    '<th title="share of answers refused: unreadable, or not a legal action">illegal</th>'
    '<th title="share of decisions that needed another answer">retries</th>'
    "<th>tokens in/out</th><th>cost</th>"
)


def _usage_cells(u: Mapping[str, Any] | None) -> str:
    """The report's cells of what an entrant's bots logged (``-``: nothing)."""
    if not u:
        return "<td>-</td>" * 4
    cost = "-" if u.get("cost") is None else f"{float(u['cost']):.4g}"
    return (
        f"<td>{float(u['illegal_rate']):.1%}</td><td>{float(u['retry_rate']):.1%}</td>"
        f"<td>{int(u['input_tokens']):,}/{int(u['output_tokens']):,}</td><td>{cost}</td>"
    )


def arena_report_html(result: Mapping[str, Any], replays: Sequence[tuple[str, str]] = ()) -> str:
    """A self-contained HTML report of an arena run.

    Args:
        result: the run as :meth:`cardcore.arena.ArenaResult.to_json` gives it.
        replays: ``(label, link)`` pairs of replay pages to link to.
    """
    cfg = result["config"]
    bots = result["bots"]
    head = (
        f"{cfg['game']} (preset {cfg['preset']}, {cfg['players']} players): "
        f"{result['deals']} deals, {result['games']} games counted, seed {cfg['seed']}"
    )
    rows_html = []
    logged = any(b.get("usage") for b in bots)
    for b in bots:
        ws = _interval(b["win_share"])
        sc = _interval(b["score"])
        pl = _interval(b["placing"]) if b.get("placing") else None
        rating = b.get("rating")
        rating_text = "-" if not rating else f"{rating['mu']:.1f} ± {rating['sigma']:.1f}"
        reasons = "; ".join(b.get("forfeit_reasons", []))

        def rng(e: tuple[float, float | None, float | None], digits: int) -> str:
            mean, lo, hi = e
            if lo is None or hi is None:
                return f"{mean:.{digits}f}"
            return f"{mean:.{digits}f} [{lo:.{digits}f}, {hi:.{digits}f}]"

        rows_html.append(
            "<tr>"
            f"<td>{html.escape(b['bot'])}</td><td>{b['games']}</td>"
            f"<td>{rng(ws, 3)}</td><td>{rng(sc, 2)}</td>"
            f"<td>{'-' if pl is None or math.isnan(pl[0]) else rng(pl, 2)}</td><td>{rating_text}</td>"
            f"<td>{b['forfeits']}</td>{_usage_cells(b.get('usage')) if logged else ''}"
            f"<td>{html.escape(reasons)}</td>"
            "</tr>"
        )
    win_rows = [(b["bot"], *_interval(b["win_share"])) for b in bots]
    charts = [_bars_svg("Win share (95% interval)", win_rows, top=1.0)]
    rated = [b for b in bots if b.get("rating")]
    if rated:
        top = max(float(b["rating"]["mu"]) + 2 * float(b["rating"]["sigma"]) for b in rated)
        charts.append(
            _bars_svg(
                "Rating (mu, ± 2 sigma)",
                [
                    (
                        b["bot"],
                        float(b["rating"]["mu"]),
                        float(b["rating"]["mu"]) - 2 * float(b["rating"]["sigma"]),
                        float(b["rating"]["mu"]) + 2 * float(b["rating"]["sigma"]),
                    )
                    for b in rated
                ],
                top=max(top, 1.0),
            )
        )
    links = "".join(
        f'<li><a href="{html.escape(href, quote=True)}">{html.escape(label)}</a></li>'
        for label, href in replays
    )
    notes = [result.get("ci_method", ""), result.get("ratings_note", "")]
    # The same warnings as under the terminal's table ("cannot tell X from Y", ...).
    notes += list(result.get("warnings", []))
    notes += [f"error: {e}" for e in result.get("errors", [])[:5]]
    notes += [f"rejected: {r}" for r in result.get("rejected", [])[:5]]
    notes_html = "".join(f"<li>{html.escape(n)}</li>" for n in notes if n)
    return f"""<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Arena: {html.escape(head)}</title>
<style>
body {{ margin: 0; font: 15px/1.45 system-ui, sans-serif; background: #f3f1ea; color: #1d1d1f; }}
header {{ padding: 12px 20px; background: #1f5e3b; color: #fff; }}
header h1 {{ margin: 0; font-size: 20px; }}
main {{ padding: 16px 20px; }}
table {{ border-collapse: collapse; background: #fff; }}
th, td {{ border: 1px solid #ccc; padding: 5px 10px; text-align: right; }}
th:first-child, td:first-child, td:last-child {{ text-align: left; }}
svg {{ display: block; margin: 16px 0; background: #fff; border: 1px solid #ccc; border-radius: 8px; padding: 8px; }}
</style>
</head>
<body>
<header><h1>Arena: {html.escape(cfg["game"])}</h1><p>{html.escape(head)}</p></header>
<main>
<table id="results">
<thead><tr><th>bot</th><th>games</th><th>win share [95%]</th><th>score [95%]</th>
<th>placing [95%]</th><th>rating</th><th>forfeits</th>{_USAGE_HEADS if logged else ""}<th>forfeit reasons</th></tr></thead>
<tbody>{"".join(rows_html)}</tbody>
</table>
{"".join(charts)}
<h2>Notes</h2>
<ul>{notes_html}</ul>
<h2>Replays</h2>
<ul id="replays">{links or "<li>none kept</li>"}</ul>
</main>
</body>
</html>
"""
