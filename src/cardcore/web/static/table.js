// The web table: one seat's page, or the screen the people of a hot-seat table share.
// It draws what the server sends (built from one seat's observation only) and proposes
// actions; the server decides. Between two people at a shared screen the server sends a
// privacy step instead: the page then drops every card it drew before asking.
"use strict";
(() => {
  const $ = (id) => document.getElementById(id);
  const hot = location.pathname === "/screen";
  const where = hot ? "screen" : location.pathname.split("/").pop();
  let seat = hot ? null : Number(where);
  const token = new URLSearchParams(location.search).get("t") || "";
  let view = null, ws = null, stopped = false, retry = 500;
  let selected = new Set();

  function send(msg) {
    if (ws && ws.readyState === WebSocket.OPEN) ws.send(JSON.stringify(msg));
    else $("error").textContent = "not connected: reconnecting…";
  }
  function play(text) {
    selected = new Set();
    $("error").textContent = "";
    send({ type: "play", action: text, version: view.version });
  }
  function seatLabel(s) {
    return s === seat ? "you" : "seat " + s + " (" + view.names[s] + ")";
  }
  function candidates() {
    if (!view || !view.legal.length) return [];
    if (!selected.size) return view.legal;
    return view.legal.filter((a) => [...selected].every((c) => a.cards.includes(c)));
  }
  function onCard(text) {
    if (selected.has(text)) selected.delete(text); else selected.add(text);
    let fits = candidates();
    if (!fits.length) { selected = new Set([text]); fits = candidates(); }
    const exact = fits.filter((a) => a.cards.length === selected.size);
    if (fits.length === 1 && exact.length === 1) { play(exact[0].text); return; }
    draw();
  }
  function drawActions() {
    const box = $("actions");
    box.replaceChildren();
    if (!view.your_turn) return;
    for (const a of candidates()) {
      const b = document.createElement("button");
      b.type = "button";
      b.className = "action";
      b.dataset.action = a.text;
      b.textContent = a.text;
      if (view.hint === a.text) b.classList.add("hinted");
      b.onclick = () => play(a.text);
      box.append(b);
    }
    if (selected.size) {
      const c = document.createElement("button");
      c.type = "button"; c.id = "clear"; c.textContent = "clear selection";
      c.onclick = () => { selected = new Set(); draw(); };
      box.append(c);
    }
  }
  function draw() {
    const v = view;
    const playable = new Set(v.your_turn ? v.legal.flatMap((a) => a.cards) : []);
    const hintAction = v.legal.find((a) => a.text === v.hint);
    const opts = { playable, selected, onCard, hinted: new Set(hintAction ? hintAction.cards : []) };
    const others = $("others");
    others.replaceChildren();
    const centre = v.zones.filter((z) => z.place === "centre");
    const placed = v.zones.filter((z) => z.place !== "centre");
    for (let s = 0; s < v.players; s++) {
      if (s === seat) continue;
      const zs = placed.filter((z) => z.owner === s);
      const box = document.createElement("div");
      box.className = "seat" + (v.to_move === s ? " to-move" : "");
      box.dataset.seat = s;
      const h = document.createElement("h3");
      h.textContent = seatLabel(s) + (v.thinking === s ? " is thinking" : "");
      box.append(h, ...zs.map((z) => CardDraw.zone(z, opts)));
      others.append(box);
    }
    CardDraw.zones($("centre"), centre, opts);
    CardDraw.zones($("middle"), placed.filter((z) => z.owner === null), opts);
    CardDraw.zones($("mine"), placed.filter((z) => z.owner === seat), opts);
    drawActions();
    $("title").textContent = v.game + " — seat " + seat + (v.seed === null ? "" : " · seed " + v.seed);
    document.title = v.game + ": seat " + seat;
    const st = $("status");
    st.classList.toggle("thinking", v.thinking !== null);
    st.textContent = v.over ? "the deal is over"
      : v.your_turn ? "your turn"
      : v.thinking !== null ? seatLabel(v.thinking) + " is thinking"
      : "waiting for " + seatLabel(v.to_move);
    $("text").textContent = v.text;
    const log = $("log");
    log.replaceChildren(...v.log.map((m) => {
      const li = document.createElement("li");
      li.textContent = (m.seat === seat ? "you" : "seat " + m.seat) + ": " + m.text + (m.forced ? " (forced)" : "");
      return li;
    }));
    log.scrollTop = log.scrollHeight;
    $("undo").disabled = !v.can_undo;
    $("hint").disabled = !v.your_turn;
    $("autoplay").checked = v.autoplay;
    $("tally").textContent = v.deals ? "wins after " + v.deals + " deal" + (v.deals > 1 ? "s" : "") + ": "
      + v.tally.map((t, s) => seatLabel(s) + " " + t).join(", ") : "";
    $("result").hidden = !v.over;
    if (v.over) {
      $("result-text").textContent = v.result;
      CardDraw.zones($("reveal"), v.reveal.filter((z) => z.owner !== null), {});
    }
  }
  function blank(msg) {
    // Nothing of the previous seat's view stays in the page: not a card, not a line.
    view = null;
    selected = new Set();
    for (const id of ["others", "centre", "middle", "mine", "actions", "log", "reveal"]) $(id).replaceChildren();
    for (const id of ["text", "result-text", "notice", "error", "tally"]) $(id).textContent = "";
    $("result").hidden = true;
    $("title").textContent = msg.game + " — one screen";
    document.title = msg.game + ": pass the screen";
    $("status").textContent = "pass the screen to seat " + msg.seat;
    $("privacy-text").textContent = msg.message;
    $("privacy").dataset.seat = msg.seat;
    $("privacy").hidden = false;
    $("reveal-seat").focus();
  }
  function connect() {
    const proto = location.protocol === "https:" ? "wss:" : "ws:";
    ws = new WebSocket(proto + "//" + location.host + "/ws/" + where + "?t=" + encodeURIComponent(token));
    ws.onopen = () => { retry = 500; $("error").textContent = ""; };
    ws.onmessage = (e) => {
      const msg = JSON.parse(e.data);
      if (msg.type === "privacy") {
        blank(msg);
      } else if (msg.type === "view") {
        const changed = !view || view.version !== msg.version || view.deals !== msg.deals
          || view.seat !== msg.seat;
        $("privacy").hidden = true;
        seat = msg.seat;
        view = msg;
        if (changed) selected = new Set();
        if (msg.notice) $("notice").textContent = msg.notice;
        draw();
      } else if (msg.type === "error") {
        $("error").textContent = msg.message;
        if (msg.fatal) { stopped = true; $("status").textContent = msg.message; }
      } else if (msg.type === "replaced") {
        stopped = true;
        $("status").textContent = msg.message;
        $("error").textContent = msg.message;
        $("actions").replaceChildren();
      }
    };
    ws.onclose = () => {
      if (stopped) return;
      $("status").textContent = "connection lost: reconnecting…";
      setTimeout(connect, retry);
      retry = Math.min(retry * 2, 8000);
    };
  }
  $("hint").onclick = () => send({ type: "hint" });
  $("undo").onclick = () => send({ type: "undo" });
  $("save").onclick = () => send({ type: "save" });
  $("again").onclick = () => send({ type: "again" });
  $("autoplay").onchange = (e) => send({ type: "autoplay", on: e.target.checked });
  $("reveal-seat").onclick = () => send({ type: "reveal", seat: Number($("privacy").dataset.seat) });
  $("rules-link").onclick = async () => {
    const r = await fetch("/rules/" + where + "?t=" + encodeURIComponent(token));
    $("rules-text").textContent = await r.text();
    $("rules").showModal();
  };
  connect();
})();
