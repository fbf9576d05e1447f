// Lictor Table: the five games in a browser, against AI seats, over the Connect protocol.
//
// Everything here is generic: the page names no game. It reads the games from ListGames, their
// components from GetContent, a seat's view of a match from GetMatch/WatchMatch (with the seat's
// secret), pictures from Render, readable views from Describe, moves from GetLegalActions, hints
// from Hint and live analysis from the Analyze stream. A seat's page only ever asks for that
// seat's view: it shows nothing the seat's view hides.

import { Client, RpcError } from "./connect.js";

// ------------------------------------------------------------------------------------------ basics
const $ = (sel, root = document) => root.querySelector(sel);

/** An element with attributes (on* names become listeners) and children (strings become text). */
function h(tag, attrs = {}, ...children) {
  const node = tag === "svg" || attrs.svg ? document.createElementNS(SVGNS, tag) : document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (value === undefined || value === null || value === false || key === "svg") continue;
    if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
    else if (key === "class") node.setAttribute("class", value);
    else node.setAttribute(key, value === true ? "" : String(value));
  }
  for (const child of children.flat()) {
    if (child === undefined || child === null || child === false) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}
const SVGNS = "http://www.w3.org/2000/svg";
const s = (tag, attrs = {}, ...children) => h(tag, { ...attrs, svg: true }, ...children);

const store = {
  get token() {
    return localStorage.getItem("lictor.token") || "";
  },
  set token(value) {
    localStorage.setItem("lictor.token", value);
  },
  get hintSeconds() {
    return Number(localStorage.getItem("lictor.hintSeconds") || "1");
  },
  set hintSeconds(value) {
    localStorage.setItem("lictor.hintSeconds", String(value));
  },
  matches() {
    try {
      return JSON.parse(localStorage.getItem("lictor.matches") || "[]");
    } catch {
      return [];
    }
  },
  save(entry) {
    const all = this.matches().filter((m) => !(m.id === entry.id && m.seat === entry.seat));
    all.unshift(entry);
    localStorage.setItem("lictor.matches", JSON.stringify(all.slice(0, 50)));
  },
  find(id, seat) {
    return this.matches().find((m) => m.id === id && (seat === undefined || m.seat === seat));
  },
  forget(id) {
    localStorage.setItem("lictor.matches", JSON.stringify(this.matches().filter((m) => m.id !== id)));
  },
};

const api = new Client("", () => store.token);
let games = [];
const contentCache = new Map();

function announce(text) {
  const node = $("#announce");
  node.textContent = "";
  window.setTimeout(() => (node.textContent = text), 30);
}

function showError(err) {
  const box = $("#alert");
  if (!err) {
    box.hidden = true;
    box.textContent = "";
    return;
  }
  const code = err instanceof RpcError ? `${err.code.replace(/_/g, " ")}: ` : "";
  box.textContent = `${code}${err.message}`;
  box.hidden = false;
  if (!(err instanceof RpcError)) console.error(err);
}

function gameInfo(name) {
  return games.find((g) => g.name === name) || { name, title: name, variants: [], engines: [] };
}

function seatLabel(match, seat, mine) {
  const spec = (match.seats || [])[seat] || {};
  const who = spec.name ? ` ${spec.name}` : "";
  if (seat === mine) return `Seat ${seat}${who} (you)`;
  if (spec.kind === "SEAT_KIND_AI") return `Seat ${seat}${who} (AI ${spec.engine || `level ${spec.level || 5}`})`;
  return `Seat ${seat}${who}`;
}

function decodeBase64Utf8(b64) {
  const bin = atob(b64 || "");
  const bytes = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i++) bytes[i] = bin.charCodeAt(i);
  return new TextDecoder().decode(bytes);
}

/** A small die, drawn (emoji fonts are not everywhere); the event's text says what was rolled. */
function dieIcon() {
  return s(
    "svg",
    { class: "die", viewBox: "0 0 16 16", width: 16, height: 16, "aria-hidden": "true" },
    s("rect", { x: 1, y: 1, width: 14, height: 14, rx: 3 }),
    s("circle", { cx: 5, cy: 5, r: 1.5 }),
    s("circle", { cx: 8, cy: 8, r: 1.5 }),
    s("circle", { cx: 11, cy: 11, r: 1.5 }),
  );
}

function percent(x) {
  return `${Math.round(Math.max(0, Math.min(1, x)) * 100)}%`;
}

// ------------------------------------------------------------------------------------------ content
/** The game's components, and a way to find their names and ids in any text. */
async function contentOf(game) {
  if (contentCache.has(game)) return contentCache.get(game);
  const reply = await api.call("GameService", "GetContent", { game });
  const byKey = new Map();
  for (const item of reply.items || []) {
    if (item.name && item.name.length >= 3) byKey.set(item.name.toLowerCase(), item);
    if (/[a-z]/i.test(item.id) && item.id.length >= 2) byKey.set(item.id.toLowerCase(), item);
    else if (/^\d+$/.test(item.id) && item.kind) {
      const word = item.kind.split(/\s+/).pop();
      byKey.set(`${word} ${item.id}`.toLowerCase(), item);
    }
  }
  const keys = [...byKey.keys()].sort((a, b) => b.length - a.length);
  const escaped = keys.map((k) => k.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"));
  const regex = escaped.length ? new RegExp(`(?<![\\w-])(${escaped.join("|")})(?![\\w-])`, "gi") : null;
  const index = { byKey, regex, items: reply.items || [] };
  contentCache.set(game, index);
  return index;
}

/** Items named in ``text`` (by id or name). */
function termsIn(index, text) {
  if (!index || !index.regex || !text) return [];
  const found = new Map();
  for (const m of text.matchAll(index.regex)) {
    const item = index.byKey.get(m[1].toLowerCase());
    if (item) found.set(item.id, item);
  }
  return [...found.values()];
}

/** ``text`` as nodes, each component's name or id a focusable term with its rules on hover. */
function linkify(index, text) {
  const frag = document.createDocumentFragment();
  if (!index || !index.regex || !text) {
    frag.append(text || "");
    return frag;
  }
  let at = 0;
  for (const m of text.matchAll(index.regex)) {
    const item = index.byKey.get(m[1].toLowerCase());
    if (!item) continue;
    frag.append(text.slice(at, m.index));
    frag.append(h("span", { class: "term", tabindex: 0, "data-terms": item.id }, m[0]));
    at = m.index + m[0].length;
  }
  frag.append(text.slice(at));
  return frag;
}

let tooltipIndex = null;

function showTooltip(target) {
  const ids = (target.getAttribute("data-terms") || "").split("|").filter(Boolean);
  const items = ids.map((id) => tooltipIndex && tooltipIndex.items.find((i) => i.id === id)).filter(Boolean);
  const tip = $("#tooltip");
  if (!items.length) {
    tip.hidden = true;
    return;
  }
  tip.replaceChildren(
    ...items.map((item) =>
      h(
        "div",
        { class: "tip-item" },
        h("strong", {}, item.name || item.id),
        h("span", { class: "tip-kind" }, ` ${item.kind}${item.id !== item.name ? ` · ${item.id}` : ""}`),
        item.text ? h("p", {}, item.text) : null,
        item.authored ? h("p", { class: "tip-note" }, "authored for Lictor's reference pack") : null,
      ),
    ),
  );
  tip.hidden = false;
  const box = target.getBoundingClientRect();
  const width = Math.min(320, window.innerWidth - 16);
  tip.style.maxWidth = `${width}px`;
  const left = Math.max(8, Math.min(window.innerWidth - width - 8, box.left + window.scrollX));
  tip.style.left = `${left}px`;
  tip.style.top = `${box.bottom + window.scrollY + 6}px`;
  target.setAttribute("aria-describedby", "tooltip");
}

function hideTooltip() {
  $("#tooltip").hidden = true;
}

document.addEventListener("mouseover", (e) => {
  const t = e.target.closest && e.target.closest("[data-terms]");
  if (t) showTooltip(t);
});
document.addEventListener("mouseout", (e) => {
  const t = e.target.closest && e.target.closest("[data-terms]");
  if (t && !t.contains(e.relatedTarget)) hideTooltip();
});
document.addEventListener("focusin", (e) => {
  const t = e.target.closest && e.target.closest("[data-terms]");
  if (t) showTooltip(t);
  else hideTooltip();
});
document.addEventListener("keydown", (e) => {
  if (e.key === "Escape") hideTooltip();
});

// ------------------------------------------------------------------------------------------ routing
let current = null; // the controller of the view shown (it is stopped when another is shown)

function route() {
  if (current && current.stop) current.stop();
  current = null;
  showError(null);
  hideTooltip();
  const [path, query] = (location.hash.slice(1) || "/").split("?");
  const params = new URLSearchParams(query || "");
  const parts = path.split("/").filter(Boolean);
  const main = $("#main");
  main.replaceChildren();
  if (parts[0] === "match" && parts[1]) {
    const id = decodeURIComponent(parts[1]);
    let seat = params.has("seat") ? Number(params.get("seat")) : null;
    if (params.has("secret") && seat !== null) {
      // A join link: keep the secret on this device, and take it out of the address bar.
      const known = store.find(id, seat) || { id, seat, game: params.get("game") || "" };
      store.save({ ...known, secret: params.get("secret") });
      history.replaceState(null, "", `#/match/${encodeURIComponent(id)}?seat=${seat}`);
    }
    if (seat !== null && !Number.isInteger(seat)) seat = null;
    current = new Table(main, id, seat);
  } else if (parts[0] === "review" && parts[1]) {
    current = new Review(main, decodeURIComponent(parts[1]), params.has("seat") ? Number(params.get("seat")) : null);
  } else if (parts[0] === "settings") {
    settings(main);
  } else {
    lobby(main);
  }
  main.focus({ preventScroll: true });
}

window.addEventListener("hashchange", route);

async function boot() {
  try {
    games = (await api.call("GameService", "ListGames")).games || [];
  } catch (err) {
    $("#loading").textContent = "The server did not answer ListGames.";
    showError(err);
    if (err.code === "unauthenticated") {
      location.hash = "#/settings";
      route();
    }
    return;
  }
  route();
}

// ------------------------------------------------------------------------------------------ settings
function settings(main) {
  const token = h("input", { id: "token", type: "password", autocomplete: "off", value: store.token });
  const secs = h("input", { id: "hint-seconds", type: "number", min: "0.2", max: "20", step: "0.1", value: store.hintSeconds });
  main.append(
    h(
      "section",
      { class: "panel", "aria-labelledby": "settings-h" },
      h("h2", { id: "settings-h" }, "Settings"),
      h("p", {}, h("label", { for: "token" }, "Bearer token (when the server was started with --auth-token-file)"), token),
      h("p", {}, h("label", { for: "hint-seconds" }, "Seconds the AI thinks for a hint"), secs),
      h(
        "button",
        {
          type: "button",
          onclick: () => {
            store.token = token.value.trim();
            store.hintSeconds = Math.max(0.2, Math.min(20, Number(secs.value) || 1));
            location.hash = "#/";
            boot();
          },
        },
        "Save",
      ),
    ),
  );
}

// ------------------------------------------------------------------------------------------ lobby
function optionFromInput(variant, input) {
  const def = variant.defaultValue || {};
  if ("flag" in def || input.type === "checkbox") return { flag: input.checked };
  if ("integer" in def) return { integer: String(Math.trunc(Number(input.value) || 0)) };
  if ("real" in def) return { real: Number(input.value) || 0 };
  return { text: input.value };
}

function optionText(v) {
  if (!v) return "";
  if ("text" in v) return v.text;
  if ("integer" in v) return String(v.integer);
  if ("real" in v) return String(v.real);
  if ("flag" in v) return v.flag ? "on" : "off";
  return "";
}

function lobby(main) {
  const gameSelect = h(
    "select",
    { id: "game", name: "game" },
    games.map((g) => h("option", { value: g.name }, `${g.title} (${g.minPlayers}–${g.maxPlayers} players)`)),
  );
  const players = h("input", { id: "players", type: "number", min: 1, max: 6, value: 2 });
  const seatsBox = h("fieldset", { class: "seats" });
  const variantsBox = h("div", { class: "variants" });
  const form = h(
    "form",
    { id: "new-match", class: "panel", "aria-labelledby": "new-h" },
    h("h2", { id: "new-h" }, "New match"),
    h("p", {}, h("label", { for: "game" }, "Game"), gameSelect),
    h("p", {}, h("label", { for: "players" }, "Players"), players),
    seatsBox,
    h("details", {}, h("summary", {}, "Options (variants)"), variantsBox),
    h("button", { type: "submit", id: "create" }, "Create the match"),
  );

  function seatRows() {
    const info = gameInfo(gameSelect.value);
    const n = Math.max(info.minPlayers || 1, Math.min(info.maxPlayers || 6, Number(players.value) || 2));
    players.min = info.minPlayers || 1;
    players.max = info.maxPlayers || 6;
    players.value = n;
    const old = [...seatsBox.querySelectorAll("select")].map((x) => x.value);
    seatsBox.replaceChildren(h("legend", {}, "Seats"));
    for (let i = 0; i < n; i++) {
      const choices = [h("option", { value: "human" }, "You (human)"), h("option", { value: "open" }, "Another human (join link)")];
      for (let level = 1; level <= 10; level++) choices.push(h("option", { value: `ai:${level}` }, `AI, level ${level}`));
      for (const engine of info.engines || []) choices.push(h("option", { value: `engine:${engine}` }, `AI engine: ${engine}`));
      const select = h("select", { id: `seat-${i}`, name: `seat-${i}` }, choices);
      select.value = old[i] || (i === 0 ? "human" : "ai:3");
      seatsBox.append(h("p", {}, h("label", { for: `seat-${i}` }, `Seat ${i}`), select));
    }
  }

  function variantRows() {
    const info = gameInfo(gameSelect.value);
    variantsBox.replaceChildren();
    for (const v of info.variants || []) {
      const id = `opt-${v.name}`;
      const def = v.defaultValue || {};
      let input;
      if ((v.choices || []).length) {
        input = h("select", { id, "data-variant": v.name }, v.choices.map((c) => h("option", { value: optionText(c) }, optionText(c))));
        input.value = optionText(def);
      } else if ("flag" in def) {
        input = h("input", { id, type: "checkbox", "data-variant": v.name });
        input.checked = !!def.flag;
      } else if ("integer" in def || "real" in def) {
        input = h("input", { id, type: "number", step: "integer" in def ? "1" : "any", value: optionText(def), "data-variant": v.name });
      } else {
        input = h("input", { id, type: "text", value: optionText(def), "data-variant": v.name });
      }
      variantsBox.append(
        h("p", { class: "variant" }, h("label", { for: id }, v.name), input, h("small", {}, v.description || "")),
      );
    }
  }

  gameSelect.addEventListener("change", () => {
    seatRows();
    variantRows();
  });
  players.addEventListener("change", seatRows);
  seatRows();
  variantRows();

  form.addEventListener("submit", async (e) => {
    e.preventDefault();
    showError(null);
    const info = gameInfo(gameSelect.value);
    const seats = [...seatsBox.querySelectorAll("select")].map((x) => {
      if (x.value === "human" || x.value === "open") return { kind: "SEAT_KIND_HUMAN" };
      const [kind, what] = x.value.split(":");
      return kind === "engine" ? { kind: "SEAT_KIND_AI", engine: what } : { kind: "SEAT_KIND_AI", level: Number(what) };
    });
    const mine = [...seatsBox.querySelectorAll("select")].findIndex((x) => x.value === "human");
    const options = {};
    for (const input of variantsBox.querySelectorAll("[data-variant]")) {
      const v = info.variants.find((x) => x.name === input.getAttribute("data-variant"));
      const value = optionFromInput(v, input);
      if (optionText(value) !== optionText(v.defaultValue)) options[v.name] = value;
    }
    const button = $("#create");
    button.disabled = true;
    try {
      const reply = await api.call("MatchService", "CreateMatch", {
        game: info.name,
        seats,
        options,
        issueSeatSecrets: seats.some((x) => x.kind === "SEAT_KIND_HUMAN"),
      });
      const m = reply.match;
      const secrets = Object.fromEntries((reply.seatSecrets || []).map((x) => [x.seat || 0, x.secret]));
      const invites = Object.entries(secrets)
        .filter(([seat]) => Number(seat) !== mine)
        .map(([seat, secret]) => ({ seat: Number(seat), secret }));
      if (mine >= 0) {
        store.save({ id: m.matchId, game: m.game, seat: mine, secret: secrets[mine] || "", created: Date.now(), invites });
        location.hash = `#/match/${encodeURIComponent(m.matchId)}?seat=${mine}`;
      } else {
        store.save({ id: m.matchId, game: m.game, seat: null, secret: "", created: Date.now(), invites });
        location.hash = `#/match/${encodeURIComponent(m.matchId)}`;
      }
    } catch (err) {
      showError(err);
    } finally {
      button.disabled = false;
    }
  });

  const joinId = h("input", { id: "join-id", autocomplete: "off" });
  const joinSeat = h("input", { id: "join-seat", type: "number", min: 0, max: 15, value: 1 });
  const joinSecret = h("input", { id: "join-secret", type: "password", autocomplete: "off" });
  const join = h(
    "form",
    { id: "join", class: "panel", "aria-labelledby": "join-h" },
    h("h2", { id: "join-h" }, "Join a match"),
    h("p", {}, h("label", { for: "join-id" }, "Match id"), joinId),
    h("p", {}, h("label", { for: "join-seat" }, "Your seat"), joinSeat),
    h("p", {}, h("label", { for: "join-secret" }, "Seat secret (leave empty to watch)"), joinSecret),
    h("button", { type: "submit" }, "Join"),
  );
  join.addEventListener("submit", (e) => {
    e.preventDefault();
    const id = joinId.value.trim();
    if (!id) return;
    if (joinSecret.value.trim()) {
      store.save({ id, game: "", seat: Number(joinSeat.value), secret: joinSecret.value.trim(), created: Date.now() });
      location.hash = `#/match/${encodeURIComponent(id)}?seat=${Number(joinSeat.value)}`;
    } else {
      location.hash = `#/match/${encodeURIComponent(id)}`;
    }
  });

  const mineList = h("ul", { id: "my-matches", class: "matches" });
  const mineBox = h(
    "section",
    { class: "panel", "aria-labelledby": "mine-h" },
    h("h2", { id: "mine-h" }, "Your matches"),
    mineList,
  );
  const entries = store.matches();
  if (!entries.length) mineList.append(h("li", {}, "None yet: create one above."));
  for (const entry of entries) {
    const title = gameInfo(entry.game).title || entry.game || "a match";
    const status = h("span", { class: "status" }, "…");
    const seatQ = entry.seat === null || entry.seat === undefined ? "" : `?seat=${entry.seat}`;
    mineList.append(
      h(
        "li",
        { "data-match": entry.id },
        h("span", {}, `${title}`, entry.seat !== null && entry.seat !== undefined ? ` · seat ${entry.seat}` : " · watching"),
        " ",
        status,
        " ",
        h("a", { href: `#/match/${encodeURIComponent(entry.id)}${seatQ}`, class: "button resume" }, "Resume"),
        " ",
        h("a", { href: `#/review/${encodeURIComponent(entry.id)}${seatQ}`, class: "button" }, "Review"),
        " ",
        h(
          "button",
          {
            type: "button",
            class: "quiet",
            onclick: (e) => {
              store.forget(entry.id);
              e.target.closest("li").remove();
            },
          },
          "Forget",
        ),
      ),
    );
    api
      .call("MatchService", "GetMatch", { matchId: entry.id })
      .then((r) => {
        const m = r.match;
        status.textContent =
          m.status === "MATCH_STATUS_FINISHED" ? "finished" : m.status === "MATCH_STATUS_DAMAGED" ? "damaged" : `move ${m.moveNumber || 0}`;
      })
      .catch(() => (status.textContent = "not on this server"));
  }

  const open = h("ul", { id: "server-matches", class: "matches" });
  const openBox = h(
    "section",
    { class: "panel", "aria-labelledby": "open-h" },
    h("h2", { id: "open-h" }, "Matches on this server"),
    open,
  );
  api
    .call("MatchService", "ListMatches", { pageSize: 12 })
    .then((r) => {
      const list = r.matches || [];
      if (!list.length) open.append(h("li", {}, "No matches yet."));
      for (const m of list) {
        const title = gameInfo(m.game).title;
        const state = m.status === "MATCH_STATUS_ACTIVE" ? `move ${m.moveNumber || 0}` : m.status === "MATCH_STATUS_FINISHED" ? "finished" : "damaged";
        open.append(
          h(
            "li",
            {},
            `${title} · ${(m.seats || []).length} seats · ${state} `,
            h("a", { href: `#/match/${encodeURIComponent(m.matchId)}`, class: "button" }, "Watch"),
          ),
        );
      }
    })
    .catch((err) => open.append(h("li", {}, err.message)));

  main.append(h("div", { class: "lobby" }, form, join, mineBox, openBox));
}

// ------------------------------------------------------------------------------------------ the board
/** An SVG picture from the server, cleaned of anything active, as a node of this page. */
function cleanSvg(text) {
  const doc = new DOMParser().parseFromString(text, "image/svg+xml");
  const svg = doc.documentElement;
  if (svg.nodeName !== "svg") return h("p", {}, "The picture could not be read.");
  for (const bad of svg.querySelectorAll("script, foreignObject, iframe, a")) bad.remove();
  for (const node of [svg, ...svg.querySelectorAll("*")]) {
    for (const attr of [...node.attributes]) {
      const name = attr.name.toLowerCase();
      if (name.startsWith("on") || ((name === "href" || name === "xlink:href") && !attr.value.startsWith("#"))) {
        node.removeAttribute(attr.name);
      }
    }
  }
  const width = parseFloat(svg.getAttribute("width")) || 0;
  const height = parseFloat(svg.getAttribute("height")) || 0;
  if (!svg.getAttribute("viewBox") && width && height) svg.setAttribute("viewBox", `0 0 ${width} ${height}`);
  svg.removeAttribute("width");
  svg.removeAttribute("height");
  return document.importNode(svg, true);
}

/** Whether match ``a`` is later than ``b`` (a later move, or the same move and now over). */
function newer(a, b) {
  const ma = a.moveNumber || 0;
  const mb = b.moveNumber || 0;
  return ma > mb || (ma === mb && a.status !== b.status && a.status !== "MATCH_STATUS_ACTIVE");
}

function tokens(text) {
  return text
    .toLowerCase()
    .replace(/_/g, " ")
    .split(/[^a-z0-9+#'.]+/i)
    .filter(Boolean);
}

function containsRun(haystack, needle) {
  if (!needle.length || needle.length > haystack.length) return false;
  outer: for (let i = 0; i + needle.length <= haystack.length; i++) {
    for (let j = 0; j < needle.length; j++) if (haystack[i + j] !== needle[j]) continue outer;
    return true;
  }
  return false;
}

/** Whether a label reads as a place or a piece's id on the board ("IV", "C4", "GAL03", "at 4"), not
 * as a word of a legend ("character") or a lone number ("1"). */
function idLike(label) {
  const text = label.trim();
  const words = tokens(text);
  if (words.length === 1) return /^[A-Z]+$/.test(text) || (/[A-Za-z]/.test(text) && /\d/.test(text));
  return words.length <= 4 && /\d/.test(text);
}

/** The moves a label of the picture names: the label itself when it reads as an id, or the id of the
 * component it names ("Templum Pacis" is district "IV"), found as words of the move. */
function movesNamedBy(label, items, moves) {
  const runs = [];
  if (idLike(label)) runs.push(tokens(label));
  for (const item of items) if (idLike(item.id)) runs.push(tokens(item.id));
  if (!runs.length) return [];
  return moves.filter((m) => runs.some((run) => containsRun(m.tokens, run)));
}

// ------------------------------------------------------------------------------------------ the table
class Table {
  constructor(main, matchId, seat) {
    this.main = main;
    this.id = matchId;
    this.seat = seat;
    const entry = seat !== null ? store.find(matchId, seat) : null;
    this.secret = entry ? entry.secret : "";
    this.invites = entry ? entry.invites || [] : [];
    this.match = null;
    this.moves = [];
    this.filter = null;
    this.shown = null;
    this.next = null;
    this.updating = null;
    this.events = new Map();
    this.aborter = new AbortController();
    this.analysis = null;
    this.build();
    this.start();
  }

  stop() {
    this.aborter.abort();
    if (this.analysis) this.analysis.abort();
  }

  build() {
    this.title = h("h2", { id: "table-h" }, "Match");
    this.headline = h("p", { class: "headline" });
    this.turn = h("p", { class: "turn", id: "turn", "aria-live": "polite" });
    this.dice = h("p", { class: "dice", id: "dice", role: "status", hidden: true });
    this.board = h("figure", { class: "board", id: "board" }, h("p", {}, "Loading the board…"));
    this.boardNote = h("figcaption", { class: "note" });
    this.movesList = h("ul", { class: "moves", id: "moves", "aria-labelledby": "moves-h" });
    this.moveFilter = h("input", { id: "move-filter", type: "search", placeholder: "Find a move", autocomplete: "off" });
    this.moveFilter.addEventListener("input", () => this.showMoves());
    this.filterNote = h("p", { class: "filter-note", hidden: true });
    this.hintBox = h("div", { id: "hints", "aria-live": "polite" });
    this.analysisBox = h("div", { id: "analysis" });
    this.logList = h("ol", { class: "log", id: "log", "aria-live": "polite", "aria-relevant": "additions" });
    this.describeBox = h("div", { id: "describe", class: "describe" });
    this.invitesBox = h("div", { id: "invites" });
    this.hintButton = h("button", { type: "button", id: "hint", onclick: () => this.hint() }, "Hint");
    this.analyzeButton = h("button", { type: "button", id: "analyze", onclick: () => this.toggleAnalysis() }, "Analyze");
    this.resignButton = h("button", { type: "button", id: "resign", class: "danger", onclick: () => this.resign() }, "Resign");
    this.reviewLink = h("a", { class: "button", id: "review-link", href: `#/review/${encodeURIComponent(this.id)}`, hidden: true }, "Review the game");
    this.main.append(
      h(
        "div",
        { class: "table" },
        h(
          "section",
          { class: "head", "aria-labelledby": "table-h" },
          this.title,
          this.headline,
          this.turn,
          this.dice,
          h("p", { class: "actions" }, h("a", { href: "#/", class: "button" }, "Lobby"), " ", this.resignButton, " ", this.reviewLink),
          this.invitesBox,
        ),
        h("section", { class: "board-box", "aria-label": "Board" }, this.board),
        h(
          "section",
          { class: "panel moves-box", "aria-labelledby": "moves-h" },
          h("h3", { id: "moves-h" }, "Your moves"),
          h("label", { for: "move-filter", class: "sr-only" }, "Find a move"),
          this.moveFilter,
          this.filterNote,
          this.movesList,
        ),
        h(
          "section",
          { class: "panel advice", "aria-labelledby": "advice-h" },
          h("h3", { id: "advice-h" }, "Advice"),
          h("p", {}, this.hintButton, " ", this.analyzeButton),
          this.hintBox,
          this.analysisBox,
        ),
        h("section", { class: "panel log-box", "aria-labelledby": "log-h" }, h("h3", { id: "log-h" }, "Log"), this.logList),
        h("section", { class: "panel view-box", "aria-labelledby": "view-h" }, h("h3", { id: "view-h" }, "Your view"), this.describeBox),
      ),
    );
  }

  viewer() {
    if (this.match && this.match.view === "MATCH_VIEW_FULL") return { role: "VIEWER_ROLE_REFEREE" };
    if (this.seat !== null) return { role: "VIEWER_ROLE_SEAT", seat: this.seat };
    return { role: "VIEWER_ROLE_SPECTATOR" };
  }

  request(extra = {}) {
    const base = { matchId: this.id, ...extra };
    if (this.seat !== null) {
      base.viewerSeat = this.seat;
      if (this.secret) base.seatSecret = this.secret;
    }
    return base;
  }

  async start() {
    try {
      const reply = await api.call("MatchService", "GetMatch", this.request());
      this.content = await contentOf(reply.match.game);
      tooltipIndex = this.content;
      const info = gameInfo(reply.match.game);
      this.title.textContent = `${info.title}`;
      document.title = `${info.title} · Lictor Table`;
      if (this.seat !== null) {
        const entry = store.find(this.id, this.seat);
        store.save({ ...(entry || { id: this.id, seat: this.seat, secret: this.secret }), game: reply.match.game, seen: Date.now() });
      }
      await this.update(reply.match);
      this.showInvites();
      this.watch();
    } catch (err) {
      showError(err);
      this.board.replaceChildren(h("p", {}, "This match cannot be shown."));
    }
  }

  showInvites() {
    if (!this.invites.length) return;
    const base = `${location.origin}${location.pathname}`;
    this.invitesBox.replaceChildren(
      h(
        "details",
        {},
        h("summary", {}, "Invite the other human seats"),
        h(
          "ul",
          {},
          this.invites.map((x) => {
            const link = `${base}#/match/${encodeURIComponent(this.id)}?seat=${x.seat}&secret=${encodeURIComponent(x.secret)}&game=${this.match ? this.match.game : ""}`;
            return h("li", {}, `Seat ${x.seat}: `, h("input", { readonly: true, value: link, "aria-label": `join link for seat ${x.seat}` }));
          }),
        ),
      ),
    );
  }

  async watch() {
    let from = 0;
    while (!this.aborter.signal.aborted) {
      try {
        for await (const item of api.stream("MatchService", "WatchMatch", this.request({ fromMoveNumber: from }), { signal: this.aborter.signal })) {
          if (item.event) {
            this.logEvent(item.event);
            from = Math.max(from, item.event.moveNumber || 0);
          }
          if (item.match) this.update(item.match);
        }
        if (this.match && this.match.status !== "MATCH_STATUS_ACTIVE") return;
      } catch (err) {
        if (this.aborter.signal.aborted) return;
        if (err.code !== "unavailable") {
          showError(err);
          return;
        }
      }
      await new Promise((r) => window.setTimeout(r, 1000));
    }
  }

  logEvent(ev) {
    const key = `${ev.kind}:${ev.moveNumber || 0}:${ev.seat ?? ""}`;
    if (this.events.has(key)) return;
    this.events.set(key, ev);
    const kind = (ev.kind || "").replace("EVENT_KIND_", "").toLowerCase();
    const chance = kind === "chance";
    const said = ev.description || ev.action || kind;
    const last = this.logList.lastElementChild;
    if (last && last.dataset.said === said && !chance) {
      // the same line again (a cube moved eight times): said once, with its count
      const times = Number(last.dataset.times || 1) + 1;
      last.dataset.times = String(times);
      let count = last.querySelector(".times");
      if (!count) {
        count = h("span", { class: "times" });
        last.append(" ", count);
      }
      count.textContent = `(${times} times)`;
      return;
    }
    const item = h(
      "li",
      { class: `event ${kind}`, "data-move": ev.moveNumber || 0, "data-seat": ev.seat ?? "" },
      h("span", { class: "num" }, `${ev.moveNumber || 0}.`),
      " ",
      chance ? dieIcon() : null,
      linkify(this.content, said),
    );
    item.dataset.said = said;
    this.logList.append(item);
    item.scrollIntoView({ block: "nearest" });
    if (chance) {
      this.dice.replaceChildren(dieIcon(), linkify(this.content, ev.description || ev.action));
      this.dice.hidden = false;
    }
  }

  isMyTurn() {
    const m = this.match;
    return (
      m &&
      m.status === "MATCH_STATUS_ACTIVE" &&
      this.seat !== null &&
      m.summary &&
      m.summary.currentPlayer === this.seat
    );
  }

  /** Show ``match`` (a newer move, or the end) once the one being drawn is done; ``force`` redraws. */
  update(match, force = false) {
    if (!force && this.shown && !newer(match, this.shown)) return this.updating || Promise.resolve();
    this.next = { match, force };
    if (!this.updating) {
      this.updating = (async () => {
        while (this.next) {
          const { match: m, force: again } = this.next;
          this.next = null;
          if (again || !this.shown || newer(m, this.shown)) await this.show(m);
        }
        this.updating = null;
      })();
    }
    return this.updating;
  }

  async show(match) {
    this.match = match;
    const over = match.status !== "MATCH_STATUS_ACTIVE";
    if (over && match.view !== "MATCH_VIEW_FULL" && match.status === "MATCH_STATUS_FINISHED") {
      // The game is over: its full record is open to everyone now.
      try {
        this.match = (await api.call("MatchService", "GetMatch", { matchId: this.id, revealAll: true })).match;
      } catch {
        /* keep the seat's view */
      }
    }
    this.shown = this.match;
    this.showTurn();
    const position = this.match.position;
    this.moves = [];
    if (this.analysis) this.analysis.abort(); // it analysed the position before this one
    this.analysisBox.replaceChildren();
    if (!position || !position.game) {
      this.board.replaceChildren(
        h("p", { class: "note" }, "A spectator sees no board of a game with hidden information until it ends; the log shows every public move."),
      );
      this.showMoves();
      return;
    }
    try {
      const [render, described, legal] = await Promise.all([
        api.call("GameService", "Render", { position, viewer: this.viewer() }),
        api.call("GameService", "Describe", { position, viewer: this.viewer(), width: 60 }),
        this.isMyTurn() ? api.call("GameService", "GetLegalActions", { position }) : Promise.resolve({ actions: [] }),
      ]);
      this.moves = (legal.actions || []).map((a) => ({ text: a.text, tokens: tokens(a.text) }));
      this.filter = null;
      this.showBoard(decodeBase64Utf8(render.image));
      this.showDescription(described.description);
      this.showMoves();
      if (this.isMyTurn()) announce(`Your turn: ${this.moves.length} moves.`);
    } catch (err) {
      showError(err);
    }
  }

  showTurn() {
    const m = this.match;
    this.hintButton.disabled = !this.isMyTurn();
    this.analyzeButton.disabled = m.status !== "MATCH_STATUS_ACTIVE" || !m.position;
    this.resignButton.hidden = !(m.status === "MATCH_STATUS_ACTIVE" && this.seat !== null);
    this.reviewLink.hidden = m.status === "MATCH_STATUS_ACTIVE";
    this.reviewLink.href = `#/review/${encodeURIComponent(this.id)}${this.seat !== null ? `?seat=${this.seat}` : ""}`;
    if (m.status === "MATCH_STATUS_FINISHED") {
      const returns = m.returns || [];
      const best = Math.max(...returns);
      const winners = returns.map((r, i) => (r === best ? i : -1)).filter((i) => i >= 0);
      const result = winners.map((i) => seatLabel(m, i, this.seat)).join(" and ");
      const quitter = m.resignedSeat ?? 0; // -1: nobody resigned (0 is left out of the JSON)
      const resigned = quitter >= 0 ? ` ${seatLabel(m, quitter, this.seat)} resigned.` : "";
      this.turn.textContent = `Game over: ${result} ${winners.length > 1 ? "share the win" : "wins"}.${resigned}`;
      this.turn.className = "turn over";
      announce(this.turn.textContent);
    } else if (m.status === "MATCH_STATUS_DAMAGED") {
      this.turn.textContent = `This match is damaged: ${m.damage}`;
    } else if (this.isMyTurn()) {
      this.turn.textContent = "Your turn.";
      this.turn.className = "turn mine";
    } else {
      const who = m.summary ? m.summary.currentPlayer : undefined;
      if (who === -1) this.turn.textContent = "The dice are rolling…";
      else if (who !== undefined && who >= 0) {
        const spec = (m.seats || [])[who] || {};
        this.turn.textContent = spec.kind === "SEAT_KIND_AI" ? `${seatLabel(m, who, this.seat)} is thinking…` : `Waiting for ${seatLabel(m, who, this.seat)}.`;
      } else this.turn.textContent = `Move ${m.moveNumber || 0}.`;
      this.turn.className = "turn";
    }
  }

  showBoard(svgText) {
    const svg = cleanSvg(svgText);
    svg.setAttribute("role", "img");
    svg.setAttribute("aria-label", `the board: ${this.headline.textContent || "the position"}`);
    svg.setAttribute("focusable", "false");
    const playable = [];
    for (const text of svg.querySelectorAll("text")) {
      const label = (text.textContent || "").trim();
      if (!label) continue;
      const items = termsIn(this.content, label);
      if (items.length) text.setAttribute("data-terms", items.map((i) => i.id).join("|"));
      const moves = this.isMyTurn() ? movesNamedBy(label, items, this.moves) : [];
      if (moves.length) {
        text.classList.add("playable");
        text.setAttribute("role", "button");
        text.setAttribute("aria-label", `${label}: ${moves.length === 1 ? moves[0].text : `${moves.length} moves`}`);
        text.setAttribute("data-moves", String(moves.length));
        playable.push(text);
        const act = () => this.pickOnBoard(label, moves);
        text.addEventListener("click", act);
        text.addEventListener("keydown", (e) => {
          if (e.key === "Enter" || e.key === " ") {
            e.preventDefault();
            act();
          }
        });
      }
      if (items.length || moves.length) text.setAttribute("tabindex", "0");
    }
    this.board.replaceChildren(svg, this.boardNote);
    this.boardNote.textContent = playable.length
      ? `${playable.length} labels on the board are moves: click one (or focus it and press Enter) to play it.`
      : "";
  }

  pickOnBoard(label, moves) {
    if (moves.length === 1) {
      this.play(moves[0].text);
      return;
    }
    this.filter = { label, moves: new Set(moves.map((m) => m.text)) };
    this.showMoves();
    const first = this.movesList.querySelector("button");
    if (first) first.focus();
  }

  showDescription(d) {
    if (!d) return;
    this.headline.replaceChildren(linkify(this.content, [d.headline, d.step].filter(Boolean).join(" · ")));
    const parts = [];
    for (const section of d.sections || []) {
      const rows = (section.rows || []).map((r) =>
        h("div", { class: "row" }, h("dt", {}, linkify(this.content, r.label)), h("dd", {}, linkify(this.content, r.value))),
      );
      const lines = (section.lines || []).map((l) => h("span", { class: "line" }, linkify(this.content, l), "\n"));
      parts.push(
        h(
          "details",
          { open: parts.length < 3 },
          h("summary", {}, section.title || "…"),
          rows.length ? h("dl", {}, rows) : null,
          lines.length ? h("pre", { class: "lines" }, lines) : null,
        ),
      );
    }
    this.describeBox.replaceChildren(...parts);
  }

  showMoves() {
    const wanted = this.moveFilter.value.trim().toLowerCase();
    let moves = this.moves;
    if (this.filter) moves = moves.filter((m) => this.filter.moves.has(m.text));
    if (wanted) moves = moves.filter((m) => m.text.toLowerCase().includes(wanted));
    this.movesList.replaceChildren();
    if (this.filter) {
      this.filterNote.hidden = false;
      this.filterNote.replaceChildren(
        `Moves on “${this.filter.label}”. `,
        h("button", { type: "button", class: "quiet", onclick: () => ((this.filter = null), this.showMoves()) }, "Show all moves"),
      );
    } else this.filterNote.hidden = true;
    if (!this.isMyTurn()) {
      const over = this.match && this.match.status !== "MATCH_STATUS_ACTIVE";
      this.movesList.append(h("li", { class: "none" }, over ? "The game is over." : this.seat === null ? "You are watching." : "Not your turn."));
      this.movesList.setAttribute("data-ready", "false");
      return;
    }
    for (const m of moves) {
      this.movesList.append(
        h("li", {}, h("button", { type: "button", class: "move", "data-move": m.text, onclick: () => this.play(m.text) }, linkify(this.content, m.text))),
      );
    }
    this.movesList.setAttribute("data-ready", "true");
    this.movesList.setAttribute("data-move-number", String(this.match.moveNumber || 0));
  }

  async play(text) {
    if (!this.isMyTurn()) return;
    showError(null);
    this.moves = [];
    this.showMoves();
    this.movesList.setAttribute("data-ready", "false");
    this.hintBox.replaceChildren();
    try {
      const reply = await api.call("MatchService", "SubmitAction", {
        matchId: this.id,
        seat: this.seat,
        expectedMoveNumber: this.match.moveNumber || 0,
        action: { text },
        seatSecret: this.secret,
      });
      for (const ev of reply.events || []) this.logEvent(ev);
      await this.update(reply.match);
    } catch (err) {
      showError(err);
      const again = await api.call("MatchService", "GetMatch", this.request()).catch(() => null);
      if (again) await this.update(again.match, true);
    }
  }

  async hint() {
    if (!this.isMyTurn()) return;
    const seconds = store.hintSeconds;
    this.hintButton.disabled = true;
    this.hintBox.replaceChildren(h("p", { class: "note" }, `Thinking for ${seconds} s…`));
    try {
      const reply = await api.call(
        "AdvisorService",
        "Hint",
        { position: this.match.position, topK: 3, budget: { timeS: seconds } },
        { timeoutMs: (seconds + 10) * 1000 },
      );
      const list = h("ol", { class: "hint-list" });
      for (const hint of reply.hints || []) {
        const reasons = h(
          "ul",
          { class: "reasons" },
          (hint.reasons || []).slice(0, 6).map((r) => h("li", {}, linkify(this.content, r.sentence || r.text))),
        );
        list.append(
          h(
            "li",
            { class: "hint" },
            h("strong", {}, linkify(this.content, hint.action)),
            " ",
            h("button", { type: "button", class: "quiet play-hint", onclick: () => this.play(hint.action) }, "Play this"),
            reasons,
          ),
        );
      }
      this.hintBox.replaceChildren(
        h("h4", {}, `Hints for ${seatLabel(this.match, reply.seat ?? this.seat, this.seat)}`),
        list,
        reply.why ? h("p", { class: "why" }, linkify(this.content, reply.why)) : null,
      );
      announce(`Hint: ${(reply.hints || [])[0] ? reply.hints[0].action : "none"}`);
    } catch (err) {
      this.hintBox.replaceChildren();
      showError(err);
    } finally {
      this.hintButton.disabled = !this.isMyTurn();
    }
  }

  async toggleAnalysis() {
    if (this.analysis) {
      this.analysis.abort();
      return;
    }
    const m = this.match;
    if (!m || !m.position) return;
    const aborter = new AbortController();
    this.analysis = aborter;
    this.analyzeButton.textContent = "Stop analysis";
    this.analyzeButton.setAttribute("aria-pressed", "true");
    const seats = (m.seats || []).length;
    const bars = h("div", { class: "bars" });
    const top = h("table", { class: "top-moves" });
    const head = h("p", { class: "note", "aria-live": "polite" }, "Analysing…");
    this.analysisBox.replaceChildren(h("h4", {}, "Live analysis"), head, bars, top);
    try {
      for await (const report of api.stream(
        "AdvisorService",
        "Analyze",
        { position: m.position, budget: { timeS: 20 }, reportEveryMs: 300, maxCandidates: 5 },
        { signal: aborter.signal, timeoutMs: 25000 },
      )) {
        const a = report.analysis || {};
        const root = a.rootValue || [];
        bars.replaceChildren(
          ...Array.from({ length: seats }, (_, i) => {
            const v = root[i] ?? 0;
            return h(
              "div",
              { class: "bar-row" },
              h("span", { class: "bar-label" }, seatLabel(m, i, this.seat)),
              h(
                "span",
                { class: "bar", role: "meter", "aria-valuemin": 0, "aria-valuemax": 100, "aria-valuenow": Math.round(v * 100), "aria-label": `${seatLabel(m, i, this.seat)} win chance` },
                h("span", { class: `fill seat-${i % 6}`, style: `width:${percent(v)}` }),
              ),
              h("span", { class: "bar-value" }, percent(v)),
            );
          }),
        );
        const mover = a.seat ?? (m.summary ? m.summary.currentPlayer : 0);
        top.replaceChildren(
          h("caption", {}, `Top moves for ${seatLabel(m, mover, this.seat)}`),
          h("tr", {}, h("th", { scope: "col" }, "Move"), h("th", { scope: "col" }, "Visits"), h("th", { scope: "col" }, "Value")),
          ...(a.candidates || []).map((c) =>
            h("tr", {}, h("td", {}, linkify(this.content, c.action)), h("td", {}, String(c.visits || 0)), h("td", {}, percent((c.value || [])[mover] ?? 0))),
          ),
        );
        head.textContent = `${a.simulations || 0} simulations in ${(a.elapsedS || 0).toFixed(1)} s${a.final ? " (final)" : ""}`;
      }
    } catch (err) {
      if (err.code !== "canceled") showError(err);
    } finally {
      this.analysis = null;
      this.analyzeButton.textContent = "Analyze";
      this.analyzeButton.setAttribute("aria-pressed", "false");
    }
  }

  async resign() {
    if (!window.confirm("Resign this match?")) return;
    try {
      const reply = await api.call("MatchService", "ResignMatch", { matchId: this.id, seat: this.seat, seatSecret: this.secret });
      await this.update(reply.match, true);
    } catch (err) {
      showError(err);
    }
  }
}

// ------------------------------------------------------------------------------------------ review
const REVIEW_SIMULATIONS = 60; // the search's budget per position of a review

class Review {
  constructor(main, matchId, seat) {
    this.main = main;
    this.id = matchId;
    this.seat = seat;
    this.aborter = new AbortController();
    this.points = [];
    this.start();
  }

  stop() {
    this.aborter.abort();
  }

  async start() {
    const note = h("p", { class: "note", id: "review-note" }, "Replaying the game…");
    this.graph = h("figure", { class: "graph", id: "graph" });
    this.losses = h("ol", { class: "losses", id: "losses" });
    this.board = h("figure", { class: "board review-board", id: "review-board", hidden: true });
    this.main.append(
      h(
        "section",
        { class: "review", "aria-labelledby": "review-h" },
        h("h2", { id: "review-h" }, "Review"),
        h("p", {}, h("a", { class: "button", href: "#/" }, "Lobby"), " ", h("a", { class: "button", href: `#/match/${encodeURIComponent(this.id)}${this.seat !== null ? `?seat=${this.seat}` : ""}` }, "Back to the match")),
        note,
        this.graph,
        h("section", { class: "panel", "aria-labelledby": "losses-h" }, h("h3", { id: "losses-h" }, "Where a player lost most"), this.losses),
        this.board,
      ),
    );
    try {
      const m = (await api.call("MatchService", "GetMatch", { matchId: this.id, revealAll: true })).match;
      this.match = m;
      this.content = await contentOf(m.game);
      tooltipIndex = this.content;
      const record = m.position && m.position.record;
      if (!record) {
        note.textContent = "The review opens when the match is over (its record is then shown to everyone).";
        return;
      }
      await this.review(m, record, note);
      this.draw();
      note.textContent =
        `${this.points.length - 1} moves. Each seat's chance is the search's estimate after every move ` +
        `(AdvisorService.Review, ${REVIEW_SIMULATIONS} simulations a position); the moves that gave up most ` +
        "against the AI's choice are listed with the hint's reason.";
    } catch (err) {
      if (err.code !== "failed_precondition") showError(err);
      note.textContent = err.message;
    }
  }

  // The record as a position after its first `n` moves (Render draws it).
  positionAt(n) {
    const m = this.match;
    const record = m.position.record;
    return {
      game: m.game,
      contentPack: m.position.contentPack || "",
      record: { setup: record.setup, actions: (record.actions || []).slice(0, n) },
    };
  }

  async review(m, record, note) {
    const position = this.positionAt((record.actions || []).length);
    const total = (record.actions || []).length;
    this.points = [{ move: 0, values: [], mover: null, text: "", log: "start" }];
    this.mistakes = [];
    const request = { position, budget: { simulations: REVIEW_SIMULATIONS }, seed: 1, worst: 5 };
    for await (const report of api.stream("AdvisorService", "Review", request, { signal: this.aborter.signal })) {
      if (report.final) {
        this.points[0].values = report.startValues || [];
        this.mistakes = report.mistakes || [];
        if (report.stoppedBy) note.textContent = `The review stopped early (${report.stoppedBy}).`;
        continue;
      }
      const mv = report.move;
      this.points.push({ move: mv.number, values: mv.values || [], mover: mv.seat, text: mv.action, log: mv.logLine || mv.action, loss: mv.loss || 0, best: mv.bestAction || "" });
      if (mv.number % 10 === 0) note.textContent = `Reviewing the game… ${mv.number}/${total}`;
    }
  }

  draw() {
    const pts = this.points;
    const seats = Math.max(...pts.map((p) => p.values.length), 0);
    const W = 640;
    const H = 240;
    const pad = 32;
    const x = (i) => pad + ((W - 2 * pad) * i) / Math.max(1, pts.length - 1);
    const y = (v) => H - pad - (H - 2 * pad) * Math.max(0, Math.min(1, v));
    const worst = this.mistakes.map((m) => ({ i: m.number, mover: m.seat ?? 0, drop: m.loss || 0, m }));
    const svg = s(
      "svg",
      { viewBox: `0 0 ${W} ${H}`, role: "img", "aria-labelledby": "graph-title" },
      s("title", { id: "graph-title" }, "Each seat's estimated chance to win after every move"),
      s("rect", { x: pad, y: pad, width: W - 2 * pad, height: H - 2 * pad, class: "plot" }),
      [0, 0.5, 1].map((v) => s("g", {}, s("line", { x1: pad, x2: W - pad, y1: y(v), y2: y(v), class: "grid" }), s("text", { x: 4, y: y(v) + 4, class: "axis" }, percent(v)))),
      s("text", { x: W / 2, y: H - 4, class: "axis", "text-anchor": "middle" }, "move"),
    );
    const step = Math.max(1, Math.ceil((pts.length - 1) / 10));
    for (let i = 0; i < pts.length; i += step) {
      svg.append(s("text", { x: x(i), y: H - pad + 14, class: "axis", "text-anchor": "middle" }, String(i)));
    }
    for (let seat = 0; seat < seats; seat++) {
      const line = pts.map((p, i) => `${x(i).toFixed(1)},${y(p.values[seat] ?? 0).toFixed(1)}`).join(" ");
      svg.append(s("polyline", { points: line, class: `line seat-${seat % 6}` }));
    }
    for (const d of worst) {
      if (!pts[d.i]) continue;
      const c = s("circle", { cx: x(d.i), cy: y(pts[d.i].values[d.mover] ?? 0), r: 6, class: `drop seat-${d.mover % 6}`, tabindex: 0 });
      c.append(s("title", {}, `move ${d.i}: seat ${d.mover} ${d.m.played} (−${percent(d.drop)}); the AI plays ${d.m.bestAction}`));
      c.addEventListener("click", () => this.show(d.i));
      svg.append(c);
    }
    const legend = h(
      "ul",
      { class: "legend" },
      Array.from({ length: seats }, (_, i) => h("li", {}, h("span", { class: `swatch seat-${i % 6}` }), seatLabel(this.match, i, this.seat))),
    );
    this.graph.replaceChildren(svg, h("figcaption", {}, legend));
    this.losses.replaceChildren(
      ...(worst.length
        ? worst.map((d) =>
            h(
              "li",
              {},
              h(
                "button",
                { type: "button", class: "quiet", onclick: () => this.show(d.i) },
                `Move ${d.i}, ${seatLabel(this.match, d.mover, this.seat)}: `,
              ),
              linkify(this.content, pts[d.i] ? pts[d.i].log : d.m.played),
              ` — gave up ${percent(d.drop)} of its chance; the AI plays `,
              linkify(this.content, d.m.bestAction),
              d.m.why ? h("p", { class: "why" }, linkify(this.content, d.m.why)) : null,
            ),
          )
        : [h("li", {}, "No move gave up much against the AI's choice.")]),
    );
  }

  async show(i) {
    const p = this.points[i];
    try {
      const r = await api.call("GameService", "Render", { position: this.positionAt(i), viewer: { role: "VIEWER_ROLE_REFEREE" } });
      const svg = cleanSvg(decodeBase64Utf8(r.image));
      svg.setAttribute("role", "img");
      svg.setAttribute("aria-label", `the board after move ${i}`);
      this.board.replaceChildren(h("figcaption", {}, `After move ${i}: `, linkify(this.content, p.log)), svg);
      this.board.hidden = false;
      this.board.scrollIntoView({ block: "nearest" });
    } catch (err) {
      showError(err);
    }
  }
}

boot();
