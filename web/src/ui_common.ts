/**
 * What the page's builders share: the types the app hands them (`Ui`, `Actions`), a button, the seats'
 * names and pictures, the notice and connection lines, the footer.
 */
import { avatarUrl } from "./avatars.js";
import { el } from "./dom.js";
import type { Texts } from "./i18n.js";
import type { Reaction } from "./protocol.js";
import { errorText } from "./reasons.js";
import { readView, seatNames, type Model } from "./state.js";
import type { SeatPreview } from "./seats.js";
import type { Settings } from "./storage.js";



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
  toggle(panel: "log" | "settings" | "react"): void;
  react(reaction: Reaction): void;
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
  panel: "log" | "settings" | "react" | null;
  now: number;
  viewport: { w: number; h: number };
  info: string;
  actions: Actions;
}

/** The ranking points a penalised abandon costs (docs/protocol.md, "The ranking"; `ranking.PENALTY`,
 * tests/test_browser_constants.py ties the two). */
export const PENALTY = 20;
/** The minutes a seat of a ranked game under way may stay away before a computer takes it
 * (`ranking.ABANDON_AFTER`, in seconds there; tied by the same test). */
export const ABANDON_MINUTES = 5;

/** How many pixels the page is taller than ``viewport`` (0 or less: it fits): what the fits of a page
 * taller than its screen (`fitTable`, `fitResult`, `fitSeatForm`) measure before and after packing. */
export function overflow(viewport: { h: number }): number {
  const page = document.scrollingElement ?? document.documentElement;
  return page.scrollHeight - viewport.h;
}

export function button(label: string, testid: string | null, onclick: () => void, cls = "btn", extra: Record<string, string> = {}): HTMLButtonElement {
  return el("button", { type: "button", class: cls, "data-testid": testid, onclick: () => onclick(), ...extra }, label);
}

export function names(ui: Ui): string[] {
  const { t, model } = ui;
  return seatNames(model.status, (seat, computer) => (computer ? t.tr("table.computer", { n: seat + 1 }) : t.tr("table.player", { n: seat + 1 })));
}

export function avatarImg(id: number, cls = "avatar"): HTMLElement {
  const url = avatarUrl(id);
  return url ? el("img", { class: cls, src: url, alt: "", width: 48, height: 48, draggable: "false" }) : el("span", { class: cls });
}
// ---- the shared parts ----------------------------------------------------------------------------

/** "Clear my data" asked for while seated (the next page builds keep the question open). */
let askingClear = false;

/** "Clear my data": outside a game it clears at once; seated in one it asks first, as leaving a
 * ranked game does, since the seat's key goes with the data and the seat is lost for good. */
export function clearDataControl(ui: Ui, cls: string): HTMLElement {
  const { t, actions } = ui;
  const clear = (): void => {
    askingClear = false;
    actions.clearData();
  };
  if (ui.model.seat === null) {
    askingClear = false;
    return button(t.tr("browser.clear_data"), "clear-data", clear, cls);
  }
  const ask = (): HTMLElement => el("div", { class: "confirm-clear", role: "alertdialog", "data-testid": "clear-question" },
    el("p", {}, t.tr("browser.clear_seated")),
    el("div", { class: "row" },
      button(t.tr("browser.clear_confirm"), "clear-data-confirm", clear, "btn warn"),
      button(t.tr("clear.cancel"), "clear-data-cancel", () => {
        askingClear = false;
        box.replaceChildren(first());
      }, "btn")));
  const first = (): HTMLElement => button(t.tr("browser.clear_data"), "clear-data", () => {
    askingClear = true;
    box.replaceChildren(ask());
    box.querySelector<HTMLElement>("[data-testid='clear-data-cancel']")?.focus();
  }, cls);
  const box = el("div", { class: "clear-box" });
  box.append(askingClear ? ask() : first());
  return box;
}

export function footer(ui: Ui): HTMLElement {
  return el("footer", { class: "foot" },
    clearDataControl(ui, "link"),
    ui.info ? el("span", { class: "info", role: "status" }, ui.info) : null);
}

export function noticeLine(ui: Ui): HTMLElement | null {
  const { model, t } = ui;
  const colours = readView(model.update)?.preset === "colors";
  if (model.notice) {
    return el("p", { class: "notice", role: "alert", "data-testid": "notice" }, errorText(t, model.notice, names(ui), colours));
  }
  return null;
}

export function connectionLine(ui: Ui): HTMLElement | null {
  const { model, t } = ui;
  if (model.connected || !model.everConnected) return null;
  // The table's controls are disabled meanwhile: the line says why a tap does nothing now.
  return el("p", { class: "notice offline", role: "status", "data-testid": "offline" }, t.tr("browser.offline"));
}

export function countText(t: Texts, n: number): string {
  return n === 1 ? t.tr("table.card_one") : t.tr("table.cards", { n });
}

/** The page while the connection opens (or the seat is being taken back). */
export function connecting(ui: Ui): HTMLElement[] {
  return [el("section", { class: "centre" }, el("h1", {}, ui.t.tr("app.title")), el("p", { class: "muted" }, ui.t.tr("online.connecting", { address: location.host })))];
}
