// Cards and zones, drawn alike by the replay viewer and the web table.
// A zone is {name, title, owner, ordered, mine, cards} (and, from a game's layout hints,
// place and stacked); a card is its text ("10♥") or null for a card the viewer does not
// see (drawn as a back).
"use strict";
const CardDraw = (() => {
  const RED = "♥♦";
  function card(text, opts) {
    const el = document.createElement("span");
    if (text === null) {
      el.className = "card back";
      el.title = "a card not seen";
      return el;
    }
    const suit = text.slice(-1), rank = text.slice(0, -1);
    el.className = "card" + (RED.includes(suit) ? " red" : "");
    el.title = text;
    el.dataset.card = text;
    el.append(rank);
    const s = document.createElement("small");
    s.textContent = suit;
    el.append(s);
    const o = opts || {};
    if (o.playable && o.playable.has(text)) {
      el.classList.add("playable");
      el.setAttribute("role", "button");
      el.tabIndex = 0;
      if (o.onCard) {
        el.onclick = () => o.onCard(text);
        el.onkeydown = (e) => { if (e.key === "Enter" || e.key === " ") { o.onCard(text); e.preventDefault(); } };
      }
    }
    if (o.selected && o.selected.has(text)) el.classList.add("selected");
    if (o.hinted && o.hinted.has(text)) el.classList.add("hinted");
    return el;
  }
  function zone(z, opts) {
    const box = document.createElement("section");
    const hidden = z.cards.every((c) => c === null);
    box.className = "zone" + (z.cards.length ? "" : " empty") + (hidden && z.cards.length > 8 ? " pile" : "") + (z.mine ? " mine" : "")
      + (z.stacked ? " stack" : "") + (z.place === "centre" ? " centre" : "");
    box.dataset.zone = z.name;
    if (z.owner !== null && z.owner !== undefined) box.dataset.owner = z.owner;
    const h = document.createElement("h2");
    h.textContent = z.title + " (" + z.cards.length + ")";
    const row = document.createElement("div");
    row.className = "cards";
    for (const c of z.cards) row.append(card(c, opts));
    box.append(h, row);
    return box;
  }
  function zones(container, list, opts) {
    container.replaceChildren(...list.map((z) => zone(z, opts)));
  }
  return { card, zone, zones };
})();
