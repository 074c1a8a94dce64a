/**
 * The page for each phase, built from the model with `dom.el` (text nodes only). Every control
 * comes from the view's `legal` list (`state.offers`); a tap calls back into the app, which sends.
 * The `data-testid` hooks are the contract's (docs in web/README.md).
 */
import { AVATAR_NAMES, PEOPLE, seatAvatars } from "./avatars.js";
import { el, type Child } from "./dom.js";
import type { Texts } from "./i18n.js";
import { errorText } from "./reasons.js";
import { avatarImg, button, connecting, connectionLine, footer, names, noticeLine, overflow, type Ui } from "./ui_common.js";
import { seatLabel } from "./seats.js";
import { resultPage, tablePage } from "./ui_table.js";

export type { Actions, Quick, Ui } from "./ui_common.js";

/** The quick match's presets, in the menu's order (the engine's `PRESETS`: tests/test_browser_constants.py). */
export const PRESETS = ["classic", "duel", "points", "colors", "action"];

function whoForm(ui: Ui): HTMLElement {
  const { t, actions } = ui;
  const input = el("input", {
    type: "text", id: "name", maxlength: 24, autocomplete: "nickname", "data-testid": "name-input",
    placeholder: t.tr("who.placeholder"), value: ui.name, "aria-label": t.tr("online.name"),
  });
  input.addEventListener("input", () => actions.setName(input.value));
  const avatars = el("div", { class: "avatars", role: "radiogroup", "aria-label": t.tr("avatar.title", { name: ui.name || "…" }) });
  for (const id of PEOPLE) {
    const name = AVATAR_NAMES[id]!;
    const b = el("button", {
      type: "button", class: "pick", role: "radio", "aria-checked": String(id === ui.avatar), title: t.tr(`avatar.${name}`),
      "aria-label": t.tr(`avatar.${name}`), "data-testid": `avatar-${name}`, onclick: () => actions.setAvatar(id),
    }, avatarImg(id));
    avatars.append(b);
  }
  return el("section", { class: "who" },
    el("h1", {}, t.tr("who.title")),
    el("label", { for: "name" }, t.tr("online.name")), input, avatars);
}

// ---- connecting, error ---------------------------------------------------------------------------


function errorPage(ui: Ui): HTMLElement[] {
  const { t, model, actions } = ui;
  const error = model.fatal!;
  return [el("section", { class: "centre" },
    el("h1", {}, t.tr("browser.cannot_play")),
    el("p", { "data-testid": "error-text" }, errorText(t, error, names(ui))),
    button(t.tr("browser.start_again"), "restart", () => actions.restart(), "btn primary"))];
}

// ---- the seat (a room's link) and the lobby (no room: quick match) ---------------------------------

function seatPage(ui: Ui): HTMLElement[] {
  const { t, actions, model } = ui;
  const list = el("div", { class: "seats" });
  if (ui.preview && ui.preview.length > 0) {
    ui.preview.forEach((s, i) => {
      const row = el("div", { class: "seat-row" }, el("span", { class: "seat-no" }, t.tr("web.seat", { n: i + 1 })), el("bdi", { class: "seat-who" }, seatLabel(t, s, i)));
      if (s.free) row.append(button(t.tr("browser.take_seat"), `take-seat-${i}`, () => actions.takeSeat(i), "btn primary"));
      list.append(row);
    });
  }
  // Any free seat (the server gives the first): the only way in when the room's seats could not be read.
  const any = button(t.tr("who.join"), "take-seat", () => actions.takeSeat(null), ui.preview && ui.preview.length ? "btn" : "btn primary");
  return [
    el("header", { class: "bar" }, el("span", { class: "room" }, t.tr("browser.room", { room: model.room }))),
    el("p", { class: "invite" }, t.tr("web.heading")),
    // The name and avatar, then the seats: side by side on a phone on its side (app.css, `.seat-form`).
    el("div", { class: "seat-form" },
      whoForm(ui),
      el("section", { class: "join" }, el("h2", {}, t.tr("browser.choose_seat")), list, any)),
    noticeLine(ui) ?? el("span"),
    footer(ui),
  ];
}

/** Once the seat form is on the page: if it is taller than the screen (a room of four on a small phone
 * upright), the avatars take one row that scrolls sideways (the form's `squeezed` class, app.css), the
 * one chosen in sight, so that the seats and Join are on the screen without scrolling the page. A form
 * that fits is left as it is. */
export function fitSeatForm(root: HTMLElement, viewport: { w: number; h: number }): void {
  const who = root.querySelector<HTMLElement>(".who");
  if (!who || overflow(viewport) <= 0) return;
  who.classList.add("squeezed");
  const row = who.querySelector<HTMLElement>(".avatars");
  const chosen = row?.querySelector<HTMLElement>("[aria-checked='true']");
  if (row && chosen) {
    const r = row.getBoundingClientRect(), c = chosen.getBoundingClientRect();
    row.scrollLeft += c.left - r.left - (r.width - c.width) / 2;
  }
}

function lobbyPage(ui: Ui): HTMLElement[] {
  const { t, actions, model } = ui;
  const quick = ui.quick;
  const preset = el("select", { id: "preset", "data-testid": "preset" });
  for (const p of PRESETS) preset.append(el("option", { value: p, selected: p === quick.preset }, t.tr(`preset.${p}`)));
  const players = el("select", { id: "players", "data-testid": "players" });
  for (let n = 2; n <= 4; n++) players.append(el("option", { value: n, selected: n === quick.players }, String(n)));
  const computers = el("input", { type: "checkbox", id: "computers", checked: quick.computers, "data-testid": "computers" });
  const changed = (): void => actions.setQuick({ preset: preset.value, players: Number(players.value), computers: computers.checked });
  preset.addEventListener("change", changed);
  players.addEventListener("change", changed);
  computers.addEventListener("change", changed);
  const q = model.queued;
  const body: Child[] = q
    ? [el("p", { "data-testid": "queued" }, t.tr("browser.queued", { waiting: q.waiting, players: q.players })),
       button(t.tr("clear.cancel"), "unqueue", () => actions.unqueue())]
    : [el("label", { for: "preset" }, t.tr("new.preset")), preset,
       el("label", { for: "players" }, t.tr("new.players")), players,
       el("label", { class: "check" }, computers, t.tr("browser.computers")),
       button(t.tr("browser.quick_match"), "quick-match", () =>
         actions.quickMatch(preset.value, Number(players.value), computers.checked), "btn primary")];
  return [
    el("header", { class: "bar" }, el("span", { class: "room" }, t.tr("app.title"))),
    whoForm(ui),
    el("section", { class: "join" }, el("h2", {}, t.tr("browser.quick_match")), ...body),
    publicRooms(ui),
    noticeLine(ui) ?? el("span"),
    footer(ui),
  ];
}

function waitText(t: Texts, seconds: number): string {
  const s = Math.max(0, Math.round(seconds));
  return s < 120 ? t.tr("lobby.seconds", { n: s }) : t.tr("lobby.minutes", { n: Math.round(s / 60) });
}

/** The public rooms waiting for players (the server's lobby), each a link to its page. */
function publicRooms(ui: Ui): HTMLElement {
  const { t, model } = ui;
  const box = el("section", { class: "join" }, el("h2", {}, t.tr("lobby.public")));
  const rooms = model.lobby ?? [];
  if (!rooms.length) {
    box.append(el("p", { class: "muted" }, t.tr("lobby.none")));
    return box;
  }
  rooms.slice(0, 20).forEach((r, i) => {
    const id = typeof r.room === "string" ? r.room : "";
    if (!id) return;
    const seats = Array.isArray(r.seats) ? (r.seats as Record<string, unknown>[]) : [];
    const people = seats.filter((s) => s.kind === "human" && typeof s.name === "string")
      .map((s) => (typeof s.tag === "string" ? `${s.name as string} #${s.tag}` : (s.name as string)));
    const line = t.tr("lobby.room", {
      preset: t.tr(`preset.${typeof r.preset === "string" ? r.preset : "classic"}`),
      taken: typeof r.taken === "number" ? r.taken : people.length, seats: typeof r.players === "number" ? r.players : seats.length,
      names: people.length ? people.join(", ") : t.tr("lobby.nobody"),
      wait: waitText(t, model.lobbyNow - (typeof r.since === "number" ? r.since : model.lobbyNow)),
    });
    box.append(el("div", { class: "seat-row" }, el("bdi", { class: "seat-who" }, line),
      el("a", { class: "btn", href: `/play/${encodeURIComponent(id)}`, "data-testid": `lobby-room-${i}` }, t.tr("who.join"))));
  });
  return box;
}

// ---- waiting for the players -------------------------------------------------------------------------

function seatList(ui: Ui): HTMLElement {
  const { t, model } = ui;
  const status = model.status!;
  const all = names(ui);
  const avatars = seatAvatars(status.seats as { kind?: unknown; avatar?: unknown }[]);
  const list = el("ul", { class: "seat-list" });
  status.seats.forEach((raw, i) => {
    const s = raw as Record<string, unknown>;
    let state: string;
    if (s.kind === "computer") state = t.tr("web.computer", { level: t.tr(`level.${typeof s.level === "string" ? s.level : "medium"}`) });
    else if (!s.name && !s.connected && status.waiting_for.includes(i)) state = t.tr("online.free");
    else if (i === model.seat) state = t.tr("online.you", { name: all[i]! });
    else state = t.tr(s.connected ? "online.here" : "online.away", { name: all[i]! });
    list.append(el("li", { class: i === model.seat ? "me" : "" }, avatarImg(avatars[i]!), el("span", { class: "seat-no" }, t.tr("web.seat", { n: i + 1 })), el("bdi", {}, state)));
  });
  return list;
}

function waitingPage(ui: Ui): HTMLElement[] {
  const { t, actions, model } = ui;
  return [
    el("header", { class: "bar" }, el("span", { class: "room" }, t.tr("browser.room", { room: model.room }))),
    el("section", { class: "waiting" },
      el("h1", {}, t.tr("online.room_title")),
      el("p", {}, t.tr("online.share")),
      el("p", { class: "share" }, el("code", { "data-testid": "room-link" }, `${location.origin}/play/${model.room}`),
        button(t.tr("online.copy"), "copy-link", () => actions.copyLink(`${location.origin}/play/${model.room}`), "btn small")),
      seatList(ui),
      el("p", { class: "muted" }, t.tr("online.starts_when_full")),
      el("p", { class: "muted", "data-testid": "ranked" }, t.tr(model.status?.ranked ? "online.ranked"
        : model.status?.kind === "private" ? "online.unranked_private" : "online.unranked_public")),
      button(t.tr("online.leave"), "leave", () => actions.leave())),
    connectionLine(ui) ?? el("span"),
    noticeLine(ui) ?? el("span"),
    footer(ui),
  ];
}

export function page(ui: Ui, phase: string): HTMLElement[] {
  switch (phase) {
    case "error": return errorPage(ui);
    case "seat": return seatPage(ui);
    case "lobby": return lobbyPage(ui);
    case "waiting": return waitingPage(ui);
    case "playing": return tablePage(ui);
    case "result": return resultPage(ui);
    default: return connecting(ui);
  }
}
