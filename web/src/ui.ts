/**
 * The page for each phase, built from the model with `dom.el` (text nodes only). Every control
 * comes from the view's `legal` list (`state.offers`); a tap calls back into the app, which sends.
 * The `data-testid` hooks are the contract's (docs in web/README.md).
 */
import { avatarUrl, AVATAR_NAMES, PEOPLE, seatAvatars } from "./avatars.js";
import { backSvg, cardSvg } from "./card_svg.js";
import { cardWords, suitColour, SUIT_SYMBOLS } from "./cards.js";
import { el, type Child } from "./dom.js";
import { LANGUAGES, LANGUAGE_NAMES, type Texts } from "./i18n.js";
import { cardPosition, cardWidth, handWidth, layoutHand } from "./layout.js";
import { describe } from "./movelog.js";
import { errorText } from "./reasons.js";
import { notReady, offers, readView, seatNames, timeLeft, voteDue, type Model, type View } from "./state.js";
import type { Settings } from "./storage.js";

/** A seat as the room's page lists it before joining (fetched from `/r/ROOM`). */
export interface SeatPreview {
  free: boolean;
  label: string;
}

/** What the page calls back into (the app sends the messages). */
export interface Actions {
  act(notation: string): void;
  takeSeat(seat: number | null): void;
  quickMatch(preset: string, players: number, computers: boolean): void;
  unqueue(): void;
  acceptRound(): void;
  vote(seat: number, penalise: boolean): void;
  autopilot(on: boolean): void;
  leave(): void;
  clearData(): void;
  setSettings(settings: Settings): void;
  setName(name: string): void;
  setAvatar(avatar: number): void;
  setQuick(quick: Quick): void;
  select(index: number): void;
  toggle(panel: "log" | "settings"): void;
  restart(): void;
  copyLink(link: string): void;
}

/** The quick match's choices on the lobby page. */
export interface Quick {
  preset: string;
  players: number;
  computers: boolean;
}

export interface Ui {
  quick: Quick;
  t: Texts;
  model: Model;
  settings: Settings;
  name: string;
  avatar: number;
  preview: SeatPreview[] | null;
  selected: number;
  panel: "log" | "settings" | null;
  now: number;
  viewport: { w: number; h: number };
  info: string;
  actions: Actions;
}

const PRESETS = ["classic", "duel", "points", "colors", "action"];

function button(label: string, testid: string | null, onclick: () => void, cls = "btn", extra: Record<string, string> = {}): HTMLButtonElement {
  return el("button", { type: "button", class: cls, "data-testid": testid, onclick: () => onclick(), ...extra }, label);
}

function names(ui: Ui): string[] {
  const { t, model } = ui;
  return seatNames(model.status, (seat, computer) => (computer ? t.tr("table.computer", { n: seat + 1 }) : t.tr("table.player", { n: seat + 1 })));
}

function avatarImg(id: number, cls = "avatar"): HTMLElement {
  const url = avatarUrl(id);
  return url ? el("img", { class: cls, src: url, alt: "", width: 48, height: 48, draggable: "false" }) : el("span", { class: cls });
}

// ---- the shared parts ----------------------------------------------------------------------------

function footer(ui: Ui): HTMLElement {
  const { t, actions } = ui;
  return el("footer", { class: "foot" },
    button(t.tr("browser.clear_data"), "clear-data", () => actions.clearData(), "link"),
    ui.info ? el("span", { class: "info", role: "status" }, ui.info) : null);
}

function noticeLine(ui: Ui): HTMLElement | null {
  const { model, t } = ui;
  const colours = readView(model.update)?.preset === "colors";
  if (model.notice) {
    return el("p", { class: "notice", role: "alert", "data-testid": "notice" }, errorText(t, model.notice, names(ui), colours));
  }
  return null;
}

function connectionLine(ui: Ui): HTMLElement | null {
  const { model, t } = ui;
  if (model.connected || !model.everConnected) return null;
  return el("p", { class: "notice", role: "status" }, t.tr("online.reconnecting"));
}

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

function connecting(ui: Ui): HTMLElement[] {
  return [el("section", { class: "centre" }, el("h1", {}, ui.t.tr("app.title")), el("p", { class: "muted" }, ui.t.tr("online.connecting", { address: location.host })))];
}

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
      const row = el("div", { class: "seat-row" }, el("span", { class: "seat-no" }, t.tr("web.seat", { n: i + 1 })), el("span", { class: "seat-who" }, s.label));
      if (s.free) row.append(button(t.tr("browser.take_seat"), `take-seat-${i}`, () => actions.takeSeat(i), "btn primary"));
      list.append(row);
    });
  }
  // Any free seat (the server gives the first): the only way in when the room's page could not be read.
  const any = button(t.tr("who.join"), "start", () => actions.takeSeat(null), ui.preview && ui.preview.length ? "btn" : "btn primary");
  return [
    el("header", { class: "bar" }, el("span", { class: "room" }, t.tr("browser.room", { room: model.room }))),
    whoForm(ui),
    el("section", { class: "join" }, el("h2", {}, t.tr("browser.choose_seat")), list, any),
    noticeLine(ui) ?? el("span"),
    footer(ui),
  ];
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
    noticeLine(ui) ?? el("span"),
    footer(ui),
  ];
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
      button(t.tr("online.leave"), "leave", () => actions.leave())),
    connectionLine(ui) ?? el("span"),
    noticeLine(ui) ?? el("span"),
    footer(ui),
  ];
}

// ---- the table ------------------------------------------------------------------------------------------

function countText(t: Texts, n: number): string {
  return n === 1 ? t.tr("table.card_one") : t.tr("table.cards", { n });
}

function opponents(ui: Ui, view: View, offered: number[]): HTMLElement {
  const { t, actions, model } = ui;
  const all = names(ui);
  const avatars = seatAvatars((model.status?.seats ?? []) as { kind?: unknown; avatar?: unknown }[]);
  const row = el("div", { class: "opponents" });
  const n = view.players;
  // The others in the order of play from this seat.
  for (let k = 1; k < n; k++) {
    const seat = ((view.seat + k * view.direction) % n + n) % n;
    const chip = el("div", { class: `opp${seat === view.toAct ? " to-act" : ""}`, "data-seat": seat },
      avatarImg(avatars[seat] ?? 0),
      el("bdi", { class: "opp-name" }, all[seat] ?? t.tr("table.player", { n: seat + 1 })),
      el("span", { class: "opp-count", "data-testid": `count-${seat}` }, countText(t, view.handCounts[seat] ?? 0)));
    if (offered.includes(seat)) {
      chip.append(button(t.tr("table.denounce", { name: all[seat] ?? "" }), `denounce-${seat}`, () => actions.act(`denounce ${seat}`), "btn warn"));
    }
    row.append(chip);
  }
  return row;
}

function turnLine(ui: Ui, view: View): HTMLElement {
  const { t, model } = ui;
  const all = names(ui);
  const mine = view.toAct === view.seat;
  const left = timeLeft(model, ui.now);
  const arrow = view.direction === 1 ? "↻" : "↺";
  return el("div", { class: "turn" },
    el("span", { class: "dir", title: t.tr(view.direction === 1 ? "browser.clockwise" : "browser.counter_clockwise"), "data-testid": "direction", "data-direction": view.direction }, arrow),
    el("span", { class: mine ? "mine" : "" }, mine ? t.tr("table.your_turn") : t.tr("table.turn_of", { name: all[view.toAct] ?? "" })),
    left !== null ? el("span", { class: `timer${left < 6 ? " low" : ""}`, "data-testid": "timer" }, t.tr("table.timer", { n: Math.ceil(left) })) : null);
}

function centre(ui: Ui, view: View, o: ReturnType<typeof offers>): HTMLElement {
  const { t, actions, settings } = ui;
  const top = view.discard[view.discard.length - 1];
  const pile = el("button", {
    type: "button", class: `pile${o.draw ? " glow" : ""}`, "data-testid": "draw", "aria-label": t.tr("table.draw"),
    onclick: () => actions.act("draw"),
  }, backSvg(), el("span", { class: "under" }, t.tr("table.pile", { n: view.drawCount })));
  const discard = el("div", { class: "discard", "data-testid": "discard", "data-card": top ?? "" },
    top ? cardSvg(top, settings.fourColour, view.preset === "action") : null,
    top ? el("span", { class: "sr" }, cardWords(t, top)) : null);
  const suit = view.suit ? el("span", { class: "suit-badge", "data-suit": view.suit, "data-testid": "suit", title: t.tr(`suit.${view.suit}`) },
    SUIT_SYMBOLS[view.suit] ?? "", el("span", { class: "sr" }, t.tr(`suit.${view.suit}`))) : null;
  if (suit && SUIT_SYMBOLS[view.suit!]) suit.style.color = suitColour(view.suit!, settings.fourColour);
  const pending = view.pending > 0 ? el("span", { class: "pending" }, t.tr("table.pending", { n: view.pending })) : null;
  return el("div", { class: "centre-row" }, pile, discard, el("div", { class: "badges" }, suit, pending));
}

function hand(ui: Ui, view: View, o: ReturnType<typeof offers>): HTMLElement {
  const { actions, settings, viewport, t } = ui;
  const width = handWidth(viewport.w, viewport.h);
  const cardW = cardWidth(viewport.w, viewport.h);
  const layout = layoutHand(view.hand.length, width, cardW);
  const box = el("div", { class: "hand", "data-testid": "hand" });
  box.style.height = `${layout.rows * (layout.cardH * 0.78) + layout.cardH * 0.22 + 12}px`;
  view.hand.forEach((code, i) => {
    const pos = cardPosition(layout, view.hand.length, i, width);
    const playable = o.play.has(code);
    const b = el("button", {
      type: "button", class: `card${playable ? " glow" : ""}${i === ui.selected ? " selected" : ""}`,
      "data-testid": `card-${code}`, "data-index": i, "aria-label": cardWords(t, code),
      onclick: () => actions.act(`play ${code}`),
    }, cardSvg(code, settings.fourColour, view.preset === "action"));
    b.style.left = `${pos.x}px`;
    b.style.top = `${pos.row * layout.cardH * 0.78}px`;
    b.style.width = `${layout.cardW}px`;
    b.style.height = `${layout.cardH}px`;
    box.append(b);
  });
  return box;
}

function controls(ui: Ui, view: View, o: ReturnType<typeof offers>): HTMLElement {
  const { t, actions, model } = ui;
  const box = el("div", { class: "controls" });
  const add = (on: boolean, label: string, testid: string, notation: string, cls = "btn"): void => {
    if (on) box.append(button(label, testid, () => actions.act(notation), cls));
  };
  add(o.draw, t.tr("table.draw"), "draw-button", "draw");
  add(o.pass, t.tr("table.pass"), "pass", "pass");
  add(o.end, t.tr("table.end"), "end-turn", "end", "btn primary");
  add(o.card, t.tr("table.card"), "call-card", "card", "btn warn");
  add(o.challenge, t.tr("table.liar"), "liar", "challenge", "btn warn");
  add(o.accept, t.tr("table.accept"), "accept", "accept");
  const auto = model.update?.autopilot === true;
  box.append(button(t.tr("table.autopilot"), "autopilot", () => actions.autopilot(!auto), `btn small${auto ? " on" : ""}`, { "aria-pressed": String(auto) }));
  void view;
  return box;
}

function suitPicker(ui: Ui, view: View, suits: string[]): HTMLElement {
  const { t, actions, settings } = ui;
  const colours = view.preset === "colors";
  const box = el("div", { class: "picker", role: "dialog", "aria-modal": "true", "data-testid": "suit-picker" },
    el("h2", {}, t.tr(colours ? "suit.title_colour" : "suit.title")));
  const grid = el("div", { class: "suits" });
  for (const s of suits) {
    const sym = el("span", { class: "sym", "data-suit": s }, SUIT_SYMBOLS[s] ?? "●");
    sym.style.color = suitColour(s, settings.fourColour);
    const b = el("button", { type: "button", class: "suit", "data-testid": `suit-${s}`, onclick: () => actions.act(`suit ${s}`) },
      sym, el("span", {}, t.tr(`suit.${s}`)));
    grid.append(b);
  }
  box.append(grid);
  return el("div", { class: "overlay" }, box);
}

function votePanel(ui: Ui, seat: number): HTMLElement {
  const { t, actions } = ui;
  const name = names(ui)[seat] ?? "";
  return el("div", { class: "overlay" }, el("div", { class: "picker", role: "dialog", "aria-modal": "true", "data-testid": "vote" },
    el("h2", {}, t.tr("vote.title", { name })),
    el("p", {}, t.tr("vote.question", { name })),
    el("div", { class: "row" },
      button(t.tr("vote.yes"), "vote-yes", () => actions.vote(seat, true), "btn warn"),
      button(t.tr("vote.no"), "vote-no", () => actions.vote(seat, false), "btn"))));
}

function logPanel(ui: Ui): HTMLElement {
  const { t, model, actions } = ui;
  const lines = model.log.map((m) => describe(t, m, names(ui), model.seat)).filter((s) => s);
  const list = el("ol", { class: "log", "data-testid": "log" });
  for (const line of lines) list.append(el("li", {}, line));
  if (!lines.length) list.append(el("li", { class: "muted" }, t.tr("log.empty")));
  return el("aside", { class: "panel", "aria-label": t.tr("log.title") },
    el("div", { class: "panel-head" }, el("h2", {}, t.tr("log.title")), button("✕", "close-panel", () => actions.toggle("log"), "btn small")),
    list);
}

function settingsPanel(ui: Ui): HTMLElement {
  const { t, actions, settings } = ui;
  const four = el("input", { type: "checkbox", checked: settings.fourColour, "data-testid": "four-colour" });
  four.addEventListener("change", () => actions.setSettings({ ...settings, fourColour: four.checked }));
  const left = el("input", { type: "checkbox", checked: settings.leftHanded, "data-testid": "left-handed" });
  left.addEventListener("change", () => actions.setSettings({ ...settings, leftHanded: left.checked }));
  const lang = el("select", { "data-testid": "language" });
  for (const l of LANGUAGES) lang.append(el("option", { value: l, selected: l === t.lang }, LANGUAGE_NAMES[l]));
  lang.addEventListener("change", () => actions.setSettings({ ...settings, lang: lang.value }));
  return el("aside", { class: "panel", "aria-label": t.tr("settings.title") },
    el("div", { class: "panel-head" }, el("h2", {}, t.tr("settings.title")), button("✕", "close-panel", () => actions.toggle("settings"), "btn small")),
    el("label", { class: "check" }, four, t.tr("settings.four_color")),
    el("label", { class: "check" }, left, t.tr("settings.left_handed")),
    el("label", {}, t.tr("settings.language"), lang),
    button(t.tr("browser.clear_data"), "clear-data", () => actions.clearData(), "btn"));
}

function tableBar(ui: Ui): HTMLElement {
  const { t, actions, model } = ui;
  const view = readView(model.update);
  return el("header", { class: "bar" },
    el("span", { class: "room" }, view ? `${t.tr(`preset.${view.preset}`)} · ${t.tr("table.round", { n: view.roundNumber })}` : model.room),
    el("span", { class: "spacer" }),
    button("☰", "moves", () => actions.toggle("log"), "btn small", { "aria-label": t.tr("log.title"), title: t.tr("log.title") }),
    button("⚙", "settings", () => actions.toggle("settings"), "btn small", { "aria-label": t.tr("settings.title") }));
}

function newsLine(ui: Ui): HTMLElement | null {
  const { t, model } = ui;
  const status = model.status as unknown as Record<string, unknown> | null;
  const all = names(ui);
  const takeover = Array.isArray(status?.takeover) ? (status!.takeover as Record<string, unknown>[]) : [];
  const away = takeover.filter((x) => typeof x.seat === "number" && x.seat !== model.seat);
  if (away.length) {
    const first = away[0]!;
    const left = Math.max(0, Math.round(Number(first.left) || 0));
    return el("p", { class: "notice" }, t.tr("online.takeover", { name: all[first.seat as number] ?? "", left: `${Math.floor(left / 60)}:${String(left % 60).padStart(2, "0")}` }));
  }
  if (model.update?.autopilot) return el("p", { class: "notice" }, t.tr("table.autopilot_you"));
  return null;
}

function meLine(ui: Ui, view: View): HTMLElement {
  const { t, model } = ui;
  const avatars = seatAvatars((model.status?.seats ?? []) as { kind?: unknown; avatar?: unknown }[]);
  const name = names(ui)[view.seat] ?? t.tr("table.you");
  return el("div", { class: `me-line${view.toAct === view.seat ? " to-act" : ""}` },
    avatarImg(avatars[view.seat] ?? 0, "avatar small"),
    el("bdi", { class: "opp-name" }, name),
    el("span", { class: "opp-count", "data-testid": `count-${view.seat}` }, countText(t, view.hand.length)),
    view.called ? el("span", { class: "called", "data-testid": "called" }, t.tr("table.card")) : null);
}

function tablePage(ui: Ui): HTMLElement[] {
  const { model, settings } = ui;
  const view = readView(model.update);
  if (!view) return connecting(ui);
  const o = offers(view.legal);
  const main = el("div", { class: `table${settings.leftHanded ? " left" : ""}`, "data-testid": "table" },
    opponents(ui, view, o.denounce),
    turnLine(ui, view),
    centre(ui, view, o),
    newsLine(ui) ?? connectionLine(ui) ?? noticeLine(ui) ?? el("p", { class: "notice empty" }),
    meLine(ui, view),
    el("div", { class: "bottom" }, hand(ui, view, o), controls(ui, view, o)));
  const out: HTMLElement[] = [tableBar(ui), main];
  if (o.suits.length) out.push(suitPicker(ui, view, o.suits));
  const due = voteDue(model);
  if (due !== null) out.push(votePanel(ui, due));
  if (ui.panel === "log") out.push(logPanel(ui));
  if (ui.panel === "settings") out.push(settingsPanel(ui));
  return out;
}

// ---- the result of a deal ---------------------------------------------------------------------------------

function resultPage(ui: Ui): HTMLElement[] {
  const { t, model, actions } = ui;
  const view = readView(model.update);
  const status = model.status;
  const all = names(ui);
  const results = status?.results ?? [];
  const result = (view?.result ?? (results[results.length - 1] as Record<string, unknown> | null | undefined)) ?? null;
  const over = status?.state === "match_over";
  const body: Child[] = [el("h1", {}, t.tr(over ? "result.match_over" : "result.title"))];
  if (result) {
    const winners = Array.isArray(result.winners) ? (result.winners as unknown[]).filter((x): x is number => typeof x === "number") : [];
    let line: string;
    if (result.tie === true) line = t.tr("result.tie");
    else if (winners.length > 1) line = t.tr("result.winners", { names: winners.map((s) => all[s] ?? "").join(", ") });
    else if (typeof result.winner === "number" && result.winner === model.seat) line = t.tr("result.you_win");
    else line = t.tr("result.winner", { name: all[typeof result.winner === "number" ? result.winner : -1] ?? "" });
    body.push(el("p", { class: "winner", "data-testid": "winner" }, line));
    if (result.blocked === true && result.tie !== true) body.push(el("p", { class: "muted" }, t.tr("result.blocked")));
    const hands = Array.isArray(result.hands) ? (result.hands as unknown[]) : [];
    const points = Array.isArray(result.points) ? (result.points as unknown[]) : [];
    const table = el("table", { class: "scores" },
      el("thead", {}, el("tr", {}, el("th", {}, ""), el("th", {}, t.tr("result.left")), el("th", {}, t.tr("result.points")), el("th", {}, t.tr("table.scores")))));
    const tbody = el("tbody");
    all.forEach((name, i) => {
      const held = Array.isArray(hands[i]) ? (hands[i] as unknown[]).length : 0;
      tbody.append(el("tr", { class: i === model.seat ? "me" : "" },
        el("th", {}, el("bdi", {}, name)),
        el("td", {}, held === 0 ? t.tr("result.went_out") : held === 1 ? t.tr("result.card_one") : t.tr("result.cards", { n: held })),
        el("td", {}, `+${typeof points[i] === "number" ? points[i] : 0}`),
        el("td", {}, String(view?.scores[i] ?? 0))));
    });
    table.append(tbody);
    body.push(table);
  }
  const earned = (status as unknown as Record<string, unknown> | null)?.earned;
  if (Array.isArray(earned) && model.seat !== null && typeof earned[model.seat] === "number") {
    body.push(el("p", {}, t.tr("result.earned", { points: earned[model.seat] as number })));
  }
  if (model.accepted) {
    const waiting = notReady(status, model.seat).map((s) => all[s] ?? "");
    body.push(el("p", { class: "muted", "data-testid": "waiting-next" }, waiting.length ? t.tr("result.waiting", { names: waiting.join(", ") }) : t.tr("online.waiting_round")));
  } else {
    body.push(button(t.tr("result.new_round"), "next-deal", () => actions.acceptRound(), "btn primary"));
  }
  const out: HTMLElement[] = [tableBar(ui), el("section", { class: "result" }, ...body), connectionLine(ui) ?? el("span"), noticeLine(ui) ?? el("span")];
  const due = voteDue(model);
  if (due !== null) out.push(votePanel(ui, due));
  if (ui.panel === "log") out.push(logPanel(ui));
  if (ui.panel === "settings") out.push(settingsPanel(ui));
  return out;
}

/** The page's children for the phase. */
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
