/**
 * The table and the result of a deal: the other seats, the turn and its clock, the pile and the
 * discard, the hand, the controls `legal` offers, the suit picker, the vote, the move log, the
 * settings and the reactions' panel; then the deal's result and the next deal.
 */
import { seatAvatars } from "./avatars.js";
import { backSvg, cardSvg } from "./card_svg.js";
import { cardWords, nextSort, sortedHand, suitColour, SUIT_SYMBOLS } from "./cards.js";
import { el, type Child } from "./dom.js";
import { LANGUAGES, LANGUAGE_NAMES } from "./i18n.js";
import { type HandLayout, cardPosition, cardWidth, handHeight, handWidth, layoutHand, rowPitch, squeezeHand } from "./layout.js";
import { describe } from "./movelog.js";
import { REACTIONS } from "./protocol.js";
import { cardValues, gone, handsCounted, latestMoves, matchOver, resultTitle } from "./result_info.js";
import { countdown, notReady, offers, reactionAt, readView, takeoverLeft, timeLeft, voteDue, type View } from "./state.js";
import { ABANDON_MINUTES, avatarImg, button, clearDataControl, connecting, connectionLine, countText, names, noticeLine, overflow, PENALTY, type Ui } from "./ui_common.js";

// ---- the table ------------------------------------------------------------------------------------------


/** Each reaction's picture (the game's `GLYPHS`). */
const GLYPHS: Readonly<Record<string, string>> = {
  hello: "\u263a", well_played: "\u2605", thanks: "\u2665", oops: "\u2049", hurry: "\u26a1", wow: "\u203c", sorry: "\u2639", good_game: "\u270c",
};

function bubble(ui: Ui, seat: number): HTMLElement | null {
  const r = reactionAt(ui.model, seat, ui.now);
  if (!r || !GLYPHS[r]) return null; // one this client does not know is shown as nothing
  return el("span", { class: "bubble", "data-testid": `reaction-${seat}`, role: "status" }, `${GLYPHS[r]} ${ui.t.tr(`reaction.${r}`)}`);
}

function reactPanel(ui: Ui): HTMLElement {
  const { t, actions } = ui;
  const grid = el("div", { class: "reactions" });
  REACTIONS.forEach((r, i) => grid.append(button(`${i + 1}  ${GLYPHS[r]} ${t.tr(`reaction.${r}`)}`, `react-${r}`, () => actions.react(r), "btn")));
  return el("aside", { class: "panel", "aria-label": t.tr("reactions.title") },
    el("div", { class: "panel-head" }, el("h2", {}, t.tr("reactions.title")), button("✕", "close-panel", () => actions.toggle("react"), "btn small")),
    grid);
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
      el("span", { class: "opp-count", "data-testid": `count-${seat}` }, countText(t, view.handCounts[seat] ?? 0)),
      bubble(ui, seat));
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
  const offline = !ui.model.connected;
  const top = view.discard[view.discard.length - 1];
  const pile = el("button", {
    type: "button", class: `pile${o.draw && !offline ? " glow" : ""}`, "data-testid": "draw", "aria-label": t.tr("table.draw"),
    disabled: offline, onclick: () => actions.act("draw"),
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
  const shown = sortedHand(view.hand, settings.handSort);
  const layout = layoutHand(shown.length, width, cardW);
  const box = el("div", { class: "hand", "data-testid": "hand" });
  shown.forEach((code, i) => {
    // Offline, nothing glows and nothing answers a tap (the banner says why): a move waits for the server.
    const playable = o.play.has(code) && ui.model.connected;
    const b = el("button", {
      type: "button", class: `card${playable ? " glow" : ""}${i === ui.selected ? " selected" : ""}`,
      "data-testid": `card-${code}`, "data-index": i, "aria-label": cardWords(t, code),
      disabled: !ui.model.connected, onclick: () => actions.act(`play ${code}`), onfocus: () => actions.select(i),
    }, cardSvg(code, settings.fourColour, view.preset === "action"));
    box.append(b);
  });
  place(box, layout, rowPitch(layout, viewport.w, viewport.h), handHeight(layout, viewport.w, viewport.h), width);
  return box;
}

/** The hand's cards where `layout` puts them (in the order they stand in `box`), the box as tall as `height`. */
function place(box: HTMLElement, layout: HandLayout, pitch: number, height: number, width: number): void {
  const cards = [...box.children] as HTMLElement[];
  box.style.height = `${height}px`;
  cards.forEach((b, i) => {
    const pos = cardPosition(layout, cards.length, i, width);
    b.style.left = `${pos.x}px`;
    b.style.top = `${pos.row * pitch}px`;
    b.style.width = `${layout.cardW}px`;
    b.style.height = `${layout.cardH}px`;
  });
}

/** Once the table is on the page: if it is taller than the screen (a hand of 20 on a laptop, a short
 * screen, a penalty and "Card!" to call beside a large hand), it first takes its compact form (the
 * table's `squeezed` class: app.css packs its top, as on a landscape phone), then the hand gives up what
 * is still over (its rows closer, then its cards smaller: layout.ts's squeezeHand), so that every
 * card and control stays on the screen and the page does not scroll. A table that fits is left as it is. */
export function fitTable(root: HTMLElement, viewport: { w: number; h: number }): void {
  const table = root.querySelector<HTMLElement>(".table");
  const box = root.querySelector<HTMLElement>("[data-testid='hand']");
  if (!table || !box || overflow(viewport) <= 0) return;
  table.classList.add("squeezed");
  const over = overflow(viewport);
  if (over <= 0 || !box.children.length) return;
  const width = handWidth(viewport.w, viewport.h);
  const most = box.getBoundingClientRect().height - over;
  const fitted = squeezeHand(box.children.length, width, cardWidth(viewport.w, viewport.h), most, viewport.w, viewport.h);
  place(box, fitted.layout, fitted.pitch, fitted.height, width);
}

/** Once the result is on the page: if it is taller than the screen (four players' scores and their
 * hands counted on a laptop's 600 px, a phone on its side or a small one upright), it takes its compact
 * form (the result's `squeezed` class: app.css packs it, on a phone on its side the scores and the hands
 * counted side by side); if still over, the hands counted give up the rest and scroll in their own box;
 * if even that is not enough (eight players on a phone on its side), the result scrolls in its own box
 * with the next deal held at its foot (`scrolls`). The next deal stays on the screen and the page does
 * not scroll. A result that fits is left as it is. */
export function fitResult(root: HTMLElement, viewport: { w: number; h: number }): void {
  const result = root.querySelector<HTMLElement>(".result");
  if (!result || overflow(viewport) <= 0) return;
  result.classList.add("squeezed");
  const counted = result.querySelector<HTMLElement>(".counted");
  const scores = result.querySelector<HTMLElement>(".scores");
  let over = overflow(viewport);
  if (over > 0 && counted) {
    const box = counted.getBoundingClientRect();
    // Beside the scores (a phone on its side), the hands' box need not be shorter than the scores.
    const side = scores && Math.abs(scores.getBoundingClientRect().top - box.top) < 2 ? scores.getBoundingClientRect().height : 0;
    counted.style.maxHeight = `${Math.max(side, Math.floor(box.height - over))}px`;
    over = overflow(viewport);
  }
  if (over <= 0) return;
  result.classList.add("scrolls");
  result.style.maxHeight = `${Math.max(0, Math.floor(result.getBoundingClientRect().height - over))}px`;
}

function controls(ui: Ui, o: ReturnType<typeof offers>): HTMLElement {
  const { t, actions, model } = ui;
  const box = el("div", { class: "controls" });
  const offline = !model.connected; // the controls stay where they are, greyed until the server is back
  const add = (on: boolean, label: string, testid: string, notation: string, cls = "btn"): void => {
    if (on) box.append(button(label, testid, () => actions.act(notation), cls, offline ? { disabled: "" } : {}));
  };
  add(o.draw, t.tr("table.draw"), "draw-button", "draw");
  add(o.pass, t.tr("table.pass"), "pass", "pass");
  add(o.end, t.tr("table.end"), "end-turn", "end", "btn primary");
  add(o.card, t.tr("table.card"), "call-card", "card", "btn warn");
  add(o.challenge, t.tr("table.liar"), "liar", "challenge", "btn warn");
  add(o.accept, t.tr("table.accept"), "accept", "accept");
  const sort = t.tr(`sort.${ui.settings.handSort}`);
  box.append(button(t.tr("table.sort"), "sort", () => actions.setSettings({ ...ui.settings, handSort: nextSort(ui.settings.handSort) }),
    "btn small", { title: sort, "aria-label": `${t.tr("table.sort")}: ${sort}`, "data-sort": ui.settings.handSort }));
  const auto = model.update?.autopilot === true;
  box.append(button(t.tr("table.autopilot"), "autopilot", () => actions.autopilot(!auto), `btn small autopilot${auto ? " on" : ""}`,
    { "aria-pressed": String(auto), ...(offline ? { disabled: "" } : {}) }));
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
    el("p", {}, t.tr("vote.question", { name, points: PENALTY })),
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
    clearDataControl(ui, "btn"),
    ui.info ? el("p", { class: "info", role: "status" }, ui.info) : null,
    ui.model.seat !== null ? leaveBox(ui) : null);
}

/** Leaving the table: the seat waits for this browser (the link takes it back); in a ranked game
 * under way the game's warning first (a computer takes a seat left too long). */
function leaveBox(ui: Ui): HTMLElement {
  const { t, model, actions } = ui;
  const ranked = model.status?.ranked === true && model.status.state !== "match_over";
  return el("div", { class: "leave-box" },
    ranked ? el("p", {}, t.tr("leave.body", { minutes: ABANDON_MINUTES, points: PENALTY })) : null,
    button(t.tr("online.leave"), "leave", () => actions.leave(), ranked ? "btn warn" : "btn"));
}

function tableBar(ui: Ui): HTMLElement {
  const { t, actions, model } = ui;
  const view = readView(model.update);
  // A finished match has no round under way: the header says what the game's result screen says
  // then ("Game over" after a match to a target, "Round over" after a game of one deal), not the
  // number of the last deal.
  const over = matchOver(model.status?.state, model.update?.view as Record<string, unknown> | null | undefined);
  const stage = over ? t.tr(resultTitle(over, view?.target ?? 0)) : view ? t.tr("table.round", { n: view.roundNumber }) : "";
  return el("header", { class: "bar" },
    el("span", { class: "room" }, view ? [t.tr(`preset.${view.preset}`), stage,
      view.target > 0 && !over ? t.tr("table.target", { n: view.target }) : ""].filter((x) => x).join(" · ") : model.room),
    el("span", { class: "spacer" }),
    model.status && (model.status.state === "playing" || model.status.state === "round_over")
      ? button("☺", "react", () => actions.toggle("react"), "btn small", { "aria-label": t.tr("reactions.title"), title: t.tr("reactions.title") }) : null,
    button("☰", "moves", () => actions.toggle("log"), "btn small", { "aria-label": t.tr("log.title"), title: t.tr("log.title") }),
    button("⚙", "settings", () => actions.toggle("settings"), "btn small", { "aria-label": t.tr("settings.title") }));
}

/** The countdown to a computer taking an away seat, in words (null: none runs); the app's clock
 * updates the `takeover` line's text with it between statuses. */
export function takeoverText(ui: Ui): string | null {
  const away = takeoverLeft(ui.model, ui.now);
  return away && ui.t.tr("online.takeover", { name: names(ui)[away.seat] ?? "", left: countdown(away.left) });
}

function newsLine(ui: Ui): HTMLElement | null {
  const { t, model } = ui;
  const takeover = takeoverText(ui);
  if (takeover !== null) return el("p", { class: "notice", "data-testid": "takeover" }, takeover);
  if (model.update?.autopilot) return el("p", { class: "notice" }, t.tr("table.autopilot_you"));
  // Whom the game waits for: people away (the clock stops while the one to act is away).
  const away2 = (model.status?.waiting_for ?? []).filter((s) => typeof s === "number" && s !== model.seat);
  if (away2.length) {
    const all = names(ui);
    return el("p", { class: "notice", "data-testid": "waiting-for" }, t.tr("online.waiting_for", { names: away2.map((s) => all[s] ?? "").join(", ") }));
  }
  return null;
}

/** The latest moves, on the table itself (as the pygame table's corner): what just happened, and
 * what happened to this seat even when someone moved after it. */
function latestLines(ui: Ui): HTMLElement | null {
  const { t, model } = ui;
  const lines = latestMoves(model.log, model.seat).map((m) => describe(t, m, names(ui), model.seat)).filter((x) => x);
  if (!lines.length) return null;
  const list = el("ol", { class: "latest", "data-testid": "latest", "aria-live": "polite" });
  for (const line of lines) list.append(el("li", {}, line));
  return list;
}

function meLine(ui: Ui, view: View): HTMLElement {
  const { t, model } = ui;
  const avatars = seatAvatars((model.status?.seats ?? []) as { kind?: unknown; avatar?: unknown }[]);
  const name = names(ui)[view.seat] ?? t.tr("table.you");
  return el("div", { class: `me-line${view.toAct === view.seat ? " to-act" : ""}` },
    avatarImg(avatars[view.seat] ?? 0, "avatar small"),
    el("bdi", { class: "opp-name" }, name),
    el("span", { class: "opp-count", "data-testid": `count-${view.seat}` }, countText(t, view.hand.length)),
    view.called ? el("span", { class: "called", "data-testid": "called" }, t.tr("table.card")) : null,
    bubble(ui, view.seat));
}

export function tablePage(ui: Ui): HTMLElement[] {
  const { model, settings } = ui;
  const view = readView(model.update);
  if (!view) return connecting(ui);
  const o = offers(view.legal);
  const main = el("div", { class: `table${settings.leftHanded ? " left" : ""}${model.connected ? "" : " offline"}`, "data-testid": "table" },
    opponents(ui, view, o.denounce),
    turnLine(ui, view),
    latestLines(ui) ?? el("ol", { class: "latest empty" }),
    centre(ui, view, o),
    connectionLine(ui) ?? noticeLine(ui) ?? newsLine(ui) ?? el("p", { class: "notice empty" }),
    meLine(ui, view),
    el("div", { class: "bottom" }, hand(ui, view, o), controls(ui, o)));
  const out: HTMLElement[] = [tableBar(ui), main];
  if (o.suits.length) out.push(suitPicker(ui, view, o.suits));
  return [...out, ...panels(ui)];
}

/** What lies over the table and the result alike: the vote when one is due, the open panel. */
function panels(ui: Ui): HTMLElement[] {
  const out: HTMLElement[] = [];
  const due = voteDue(ui.model);
  if (due !== null) out.push(votePanel(ui, due));
  if (ui.panel === "log") out.push(logPanel(ui));
  if (ui.panel === "settings") out.push(settingsPanel(ui));
  if (ui.panel === "react") out.push(reactPanel(ui));
  return out;
}

// ---- the result of a deal ---------------------------------------------------------------------------------

export function resultPage(ui: Ui): HTMLElement[] {
  const { t, model, actions } = ui;
  const view = readView(model.update);
  const status = model.status;
  const all = names(ui);
  const results = status?.results ?? [];
  const result = (view?.result ?? (results[results.length - 1] as Record<string, unknown> | null | undefined)) ?? null;
  const over = matchOver(status?.state, model.update?.view as Record<string, unknown> | null | undefined);
  const body: Child[] = [el("h1", {}, t.tr(resultTitle(over, view?.target ?? 0)))];
  if (result) {
    const winners = Array.isArray(result.winners) ? (result.winners as unknown[]).filter((x): x is number => typeof x === "number") : [];
    let line: string;
    if (result.tie === true) line = t.tr("result.tie");
    else if (winners.length > 1) line = t.tr("result.winners", { names: winners.map((s) => all[s] ?? "").join(", ") });
    else if (typeof result.winner === "number" && result.winner === model.seat) line = t.tr("result.you_win");
    else line = t.tr("result.winner", { name: all[typeof result.winner === "number" ? result.winner : -1] ?? "" });
    body.push(el("p", { class: "winner", "data-testid": "winner" }, line));
    const points = Array.isArray(result.points) ? (result.points as unknown[]) : [];
    const w = typeof result.winner === "number" ? result.winner : -1;
    const won = typeof points[w] === "number" ? (points[w] as number) : 0;
    if (won > 0) body.push(el("p", { class: "muted" }, t.tr("deal.scored", { name: all[w] ?? "", n: won })));
    if (result.blocked === true && result.tie !== true) body.push(el("p", { class: "muted" }, t.tr("result.blocked")));
    const hands = handsCounted(result);
    const table = el("table", { class: "scores" },
      el("thead", {}, el("tr", {}, el("th", {}, ""), el("th", {}, t.tr("result.left")), el("th", {}, t.tr("result.points")), el("th", {}, t.tr("table.scores")))));
    const tbody = el("tbody");
    all.forEach((name, i) => {
      const held = hands[i]?.cards.length ?? 0;
      tbody.append(el("tr", { class: i === model.seat ? "me" : "" },
        el("th", {}, el("bdi", {}, name)),
        el("td", {}, held === 0 ? t.tr("result.went_out") : held === 1 ? t.tr("result.card_one") : t.tr("result.cards", { n: held })),
        el("td", {}, `+${typeof points[i] === "number" ? points[i] : 0}`),
        el("td", {}, String(view?.scores[i] ?? 0))));
    });
    table.append(tbody);
    body.push(table);
    body.push(countedHands(ui, hands, all));
  }
  const earned = (status as unknown as Record<string, unknown> | null)?.earned;
  if (Array.isArray(earned) && model.seat !== null && typeof earned[model.seat] === "number") {
    body.push(el("p", {}, t.tr("result.earned", { points: earned[model.seat] as number })));
  }
  if (over) {
    // No deal comes after the match (the pygame result offers only Review and Menu then): a new game
    // from /play, or the room's page.
    body.push(el("p", { "data-testid": "match-done" }, t.tr("browser.match_done")),
      el("div", { class: "row" },
        el("a", { class: "btn primary", href: "/play", "data-testid": "play-again" }, t.tr("browser.play_again")),
        model.room ? el("a", { class: "btn", href: `/r/${encodeURIComponent(model.room)}`, "data-testid": "room-page" }, t.tr("browser.room_page")) : null));
  } else if (model.accepted) {
    const waited = notReady(status, model.seat);
    const left = gone(status?.seats ?? [], waited);
    const waiting = waited.filter((s) => !left.includes(s)).map((s) => all[s] ?? "");
    body.push(el("p", { class: "muted", "data-testid": "waiting-next" }, waiting.length ? t.tr("result.waiting", { names: waiting.join(", ") })
      : left.length ? "" : t.tr("online.waiting_round")));
    for (const s of left) body.push(el("p", { class: "notice", "data-testid": `gone-${s}` }, t.tr("browser.has_left", { name: all[s] ?? "" })));
  } else {
    body.push(button(t.tr("result.new_round"), "next-deal", () => actions.acceptRound(), "btn primary"));
  }
  return [tableBar(ui), el("section", { class: "result" }, ...body), connectionLine(ui) ?? el("span"), noticeLine(ui) ?? el("span"), ...panels(ui)];
}

/** Each hand's cards and the value the server counted for it (`Sam: 3 blue … = 153`), as the
 * pygame result shows how the points came. */
function countedHands(ui: Ui, hands: ReturnType<typeof handsCounted>, all: string[]): HTMLElement {
  const { t, settings, model } = ui;
  const action = readView(model.update)?.preset === "action";
  const box = el("div", { class: "counted", "data-testid": "counted" });
  hands.forEach((h, i) => {
    if (!h.cards.length) return;
    const row = el("p", { class: "counted-hand", "data-testid": `counted-${i}` }, el("bdi", { class: "owner" }, `${all[i] ?? ""}:`));
    const values = cardValues(h.cards, readView(model.update)?.preset ?? "", h.total);
    // Each card with its value in one box: a narrow column wraps between two cards, never between a card and its value.
    h.cards.forEach((code, k) => row.append(el("span", { class: "counted-card" },
      el("span", { class: "mini", title: cardWords(t, code) }, cardSvg(code, settings.fourColour, action)),
      values ? el("span", { class: "value" }, `${k ? "+ " : ""}(${values[k]})`) : null)));
    row.append(el("span", { class: "sr" }, h.cards.map((c) => cardWords(t, c)).join(", ")));
    if (h.total !== null) row.append(el("span", { class: "total" }, `= ${h.total}`));
    box.append(row);
  });
  return box;
}
