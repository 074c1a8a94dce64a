/**
 * The app: one WebSocket to the page's own server (path `/`), protocol 2 as the pygame client speaks
 * it (`hello` with this browser's player key, then `join` with a kept seat key or a claim, actions,
 * `accept_round`, votes, quick match), the state machine (`state.ts`) fed with what the server says,
 * the page rebuilt from it (`ui.ts`), the keyboard (as the game's keymap: arrows and digits pick a
 * card, Enter plays it, D draws, P passes, E ends the turn, C calls Card, L calls Liar, A accepts,
 * N denounces, M shows the moves, O the autopilot, S H D C / R B G Y name a suit), and reconnection.
 */
import { PEOPLE } from "./avatars.js";
import type { ClientMessage, ServerMessage } from "./generated/protocol.js";
import { readCatalogue, supported, Texts, type Lang } from "./i18n.js";
import * as proto from "./protocol.js";
import { initial, offers, phaseOf, readView, reduce, SEAT_LOST, timeLeft, voteDue, type Input, type Model } from "./state.js";
import * as storage from "./storage.js";
import { page, type Quick, type SeatPreview, type Ui } from "./ui.js";

async function fetchJson(url: string): Promise<unknown> {
  try {
    const answer = await fetch(url, { credentials: "same-origin" });
    return answer.ok ? await answer.json() : {};
  } catch {
    return {};
  }
}

/** The texts of `lang`, English beneath. */
export async function loadTexts(lang: Lang): Promise<Texts> {
  const [english, own] = await Promise.all([
    fetchJson("/web/i18n/en.json"),
    lang === "en" ? Promise.resolve(null) : fetchJson(`/web/i18n/${lang}.json`),
  ]);
  const en = readCatalogue(english);
  return new Texts(lang, own === null ? en : readCatalogue(own), en);
}

/** A storage that forgets (when the browser refuses localStorage). */
class MemoryStore implements storage.Store {
  private data = new Map<string, string>();
  get length(): number { return this.data.size; }
  key(i: number): string | null { return [...this.data.keys()][i] ?? null; }
  getItem(k: string): string | null { return this.data.get(k) ?? null; }
  setItem(k: string, v: string): void { this.data.set(k, v); }
  removeItem(k: string): void { this.data.delete(k); }
}

function localStore(): storage.Store {
  try {
    const s = window.localStorage;
    s.getItem("huit.probe");
    return s;
  } catch {
    return new MemoryStore();
  }
}

const ENTITIES: Readonly<Record<string, string>> = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'", nbsp: "\u00a0" };

/** The text of an HTML fragment: tags dropped, entities decoded (the result is only ever set as text). */
export function htmlText(fragment: string): string {
  return fragment.replace(/<[^>]*>/g, "").replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (whole, name: string) => {
    if (name[0] === "#") {
      const code = name[1] === "x" || name[1] === "X" ? parseInt(name.slice(2), 16) : parseInt(name.slice(1), 10);
      return Number.isFinite(code) && code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : "";
    }
    return ENTITIES[name.toLowerCase()] ?? whole;
  }).replace(/\s+/g, " ").trim();
}

/** The seats of a room as its page `/r/ROOM` lists them (free, or who sits there), or null when the
 * page has no seat list. Read as text (no DOM is made of it: the page's own style stays out). */
export function readRoomPage(html: string): SeatPreview[] | null {
  const list = /<ul>([\s\S]*?)<\/ul>/.exec(html);
  if (!list) return null;
  const items = list[1]!.match(/<li>[\s\S]*?<\/li>/g) ?? [];
  if (!items.length) return null;
  return items.map((li) => {
    const free = /class="free"/.test(li);
    const who = /<span class="(?:free|who)">([\s\S]*?)<\/span>(?:\s*<span class="state">([\s\S]*?)<\/span>)?/.exec(li);
    return { free, label: who ? htmlText(who[1]! + (who[2] ? ` ${who[2]}` : "")) : "" };
  });
}

export async function start(root: HTMLElement): Promise<void> {
  const store = localStore();
  const settings = storage.getSettings(store);
  const lang = supported(settings.lang ?? root.dataset.lang ?? navigator.language);
  const texts = await loadTexts(lang);
  const app = new App(root, store, texts, settings);
  app.run();
}

class App {
  private model: Model;
  private ws: WebSocket | null = null;
  private helloSent = false;
  private synced = false;
  private pending: (() => void)[] = [];
  private retries = 0;
  private stopped = false;
  private preview: SeatPreview[] | null = null;
  private selected = -1;
  private panel: "log" | "settings" | null = null;
  private info = "";
  private name: string;
  private avatar: number;
  private quick: Quick = { preset: "classic", players: 2, computers: true };
  private request = storage.randomKey(24);
  private lastPhase = "";

  constructor(private readonly root: HTMLElement, private readonly store: storage.Store, private t: Texts, private settings: storage.Settings) {
    this.model = initial(root.dataset.room ?? "");
    this.name = storage.getName(store);
    this.avatar = storage.getAvatar(store) ?? PEOPLE[4]!;
  }

  run(): void {
    this.render();
    this.connect();
    if (this.model.room) void this.fetchPreview();
    document.addEventListener("keydown", (e) => this.key(e));
    window.addEventListener("resize", () => this.render());
    window.setInterval(() => this.tick(), 500);
  }

  // ---- the connection ----------------------------------------------------------------------------
  private connect(): void {
    if (this.stopped) return;
    const scheme = location.protocol === "https:" || this.root.dataset.tls === "1" ? "wss" : "ws";
    const ws = new WebSocket(`${scheme}://${location.host}/`);
    this.ws = ws;
    this.helloSent = false;
    this.synced = false;
    ws.onopen = () => {
      this.retries = 0;
      this.dispatch({ kind: "open" });
      if (this.name.trim()) this.sendHello(() => this.takeBack());
      else this.takeBack();
    };
    ws.onmessage = (event) => {
      const message = proto.parse(event.data);
      if (message) this.receive(message);
    };
    ws.onclose = () => {
      if (this.ws !== ws) return;
      this.ws = null;
      this.pending = [];
      this.dispatch({ kind: "closed" });
      if (!this.stopped && !this.model.fatal) {
        const delay = Math.min(10_000, 500 * 2 ** this.retries++);
        window.setTimeout(() => this.connect(), delay);
      }
    };
  }

  private send(message: ClientMessage): boolean {
    if (!this.ws || this.ws.readyState !== WebSocket.OPEN) {
      this.info = this.t.tr("online.not_connected");
      this.render();
      return false;
    }
    this.ws.send(proto.encode(message));
    return true;
  }

  private sendHello(then?: () => void): void {
    if (then) this.pending.push(then);
    if (this.helloSent) return;
    this.helloSent = true;
    this.send(proto.hello(storage.playerKey(this.store), this.name.trim() || undefined, this.avatar));
  }

  /** Take back this browser's seat of the page's room, when it keeps its key. */
  private takeBack(): void {
    const room = this.model.room;
    if (!room) return; // on every (re)connection: a new connection holds no seat until it joins again
    const held = storage.getSeat(this.store, room);
    if (held) this.send(proto.rejoin(room, held.seat, held.key));
  }

  private receive(m: ServerMessage): void {
    const before = this.model;
    this.dispatch({ kind: "server", message: m }, false);
    if (this.model === before && m.type !== "left") return; // nothing this page shows changed
    switch (m.type) {
      case "profile":
        if (!this.synced) {
          this.synced = true;
          const name = this.name.trim();
          if (name && (m.name !== name || m.avatar !== this.avatar)) this.send(proto.profile(name, this.avatar));
          const pending = this.pending;
          this.pending = [];
          for (const f of pending) f();
        }
        break;
      case "joined":
        if (typeof m.key === "string") storage.setSeat(this.store, storage.canonicalRoom(m.room), { seat: m.seat, key: m.key });
        if (!location.pathname.startsWith("/play/")) history.replaceState(null, "", `/play/${encodeURIComponent(storage.canonicalRoom(m.room))}`);
        this.request = storage.randomKey(24);
        break;
      case "error":
        if (SEAT_LOST.has(m.code) && this.model.room) storage.forgetSeat(this.store, this.model.room);
        if (m.code === "seat_taken" || m.code === "no_free_seat" || m.code === "seat_freed") void this.fetchPreview();
        if (m.code === "bad_name" || m.code === "no_profile") {
          this.helloSent = m.code === "bad_name" ? this.synced : this.helloSent;
          this.pending = [];
        }
        break;
      case "left":
        this.stopped = true;
        this.model = { ...this.model, fatal: { type: "error", code: "left", message: this.t.tr("browser.left"), v: 2 } };
        this.ws?.close();
        break;
      case "update": {
        const view = readView(m);
        if (view && this.selected >= view.hand.length) this.selected = view.hand.length - 1;
        break;
      }
      default:
        break;
    }
    this.render();
  }

  private dispatch(input: Input, render = true): void {
    this.model = reduce(this.model, input, Date.now());
    if (render) this.render();
  }

  private async fetchPreview(): Promise<void> {
    try {
      const answer = await fetch(`/r/${encodeURIComponent(this.model.room)}`, { credentials: "same-origin" });
      if (answer.status === 404) {
        this.preview = [];
      } else if (answer.ok) {
        this.preview = readRoomPage(await answer.text());
      }
    } catch {
      this.preview = null;
    }
    this.render();
  }

  // ---- what the player does -------------------------------------------------------------------------
  private joinAs(then: () => void): void {
    const name = this.name.trim();
    if (!name) {
      this.info = this.t.tr("who.empty");
      this.render();
      return;
    }
    storage.setName(this.store, name);
    storage.setAvatar(this.store, this.avatar);
    this.info = "";
    if (!this.helloSent) {
      this.sendHello(then);
    } else if (!this.synced) {
      this.pending.push(then);
    } else {
      const p = this.model.profile;
      if (p && (p.name !== name || p.avatar !== this.avatar)) this.send(proto.profile(name, this.avatar));
      then();
    }
  }

  private readonly actions = {
    act: (notation: string) => {
      this.dispatch({ kind: "dismiss" }, false);
      this.send(proto.action(notation));
    },
    takeSeat: (seat: number | null) => this.joinAs(() => this.send(proto.claim(this.model.room, seat, this.name.trim(), this.request))),
    quickMatch: (preset: string, players: number, computers: boolean) => {
      this.quick = { preset, players, computers };
      this.joinAs(() => this.send(proto.queue(preset, players, computers, 15)));
    },
    unqueue: () => this.send(proto.unqueue()),
    acceptRound: () => {
      if (this.send(proto.acceptRound())) this.dispatch({ kind: "accepted" });
    },
    vote: (seat: number, penalise: boolean) => this.send(proto.vote(seat, penalise)),
    autopilot: (on: boolean) => this.send(proto.autopilot(on)),
    leave: () => this.send(proto.leave()),
    clearData: () => {
      const n = storage.clearAll(this.store);
      this.name = "";
      this.avatar = PEOPLE[4]!;
      this.settings = { ...storage.DEFAULT_SETTINGS, lang: this.settings.lang };
      this.info = n ? this.t.tr("browser.cleared") : this.t.tr("clear.nothing");
      this.render();
    },
    setSettings: (settings: storage.Settings) => {
      const langChanged = settings.lang !== this.settings.lang;
      this.settings = settings;
      storage.setSettings(this.store, settings);
      if (langChanged) {
        void loadTexts(supported(settings.lang)).then((t) => {
          this.t = t;
          document.documentElement.lang = t.lang;
          this.render();
        });
      } else this.render();
    },
    setName: (name: string) => {
      this.name = name;
    },
    setAvatar: (avatar: number) => {
      this.avatar = avatar;
      this.render();
    },
    setQuick: (quick: Quick) => {
      this.quick = quick;
    },
    select: (index: number) => {
      this.selected = index;
    },
    toggle: (panel: "log" | "settings") => {
      this.panel = this.panel === panel ? null : panel;
      this.render();
    },
    restart: () => location.reload(),
    copyLink: (link: string) => {
      const done = (ok: boolean): void => {
        this.info = this.t.tr(ok ? "online.copied" : "online.no_clipboard");
        this.render();
      };
      if (navigator.clipboard) navigator.clipboard.writeText(link).then(() => done(true), () => done(false));
      else done(false);
    },
  };

  // ---- the page ---------------------------------------------------------------------------------------------
  private ui(): Ui {
    return {
      t: this.t, model: this.model, settings: this.settings, name: this.name, avatar: this.avatar, preview: this.preview,
      selected: this.selected, panel: this.panel, now: Date.now(), viewport: { w: window.innerWidth, h: window.innerHeight },
      info: this.info, actions: this.actions, quick: this.quick,
    };
  }

  private render(): void {
    const phase = phaseOf(this.model);
    const active = document.activeElement as HTMLElement | null;
    const focusId = active && this.root.contains(active) ? active.getAttribute("data-testid") : null;
    const caret = active instanceof HTMLInputElement && active.type === "text" ? active.selectionStart : null;
    this.root.dataset.state = phase;
    this.root.classList.toggle("left-handed", this.settings.leftHanded);
    this.root.replaceChildren(...page(this.ui(), phase));
    if (phase !== this.lastPhase) {
      this.lastPhase = phase;
      if (phase !== "playing") this.panel = this.panel === "settings" ? this.panel : null;
    }
    if (focusId) {
      const again = this.root.querySelector<HTMLElement>(`[data-testid="${CSS.escape(focusId)}"]`);
      if (again) {
        again.focus();
        if (caret !== null && again instanceof HTMLInputElement) again.setSelectionRange(caret, caret);
      }
    }
  }

  /** The turn clock counts down between updates: only its text changes (no rebuild, so a tap or a
   * focused card is never lost to it). */
  private tick(): void {
    const timer = this.root.querySelector<HTMLElement>('[data-testid="timer"]');
    const left = timeLeft(this.model, Date.now());
    if (!timer || left === null) return;
    const text = this.t.tr("table.timer", { n: Math.ceil(left) });
    if (timer.textContent !== text) timer.textContent = text;
    timer.classList.toggle("low", left < 6);
  }

  // ---- the keyboard ----------------------------------------------------------------------------------------
  private key(e: KeyboardEvent): void {
    if (e.ctrlKey || e.metaKey || e.altKey) return;
    const target = e.target as HTMLElement | null;
    const typing = target instanceof HTMLInputElement && target.type === "text";
    const phase = phaseOf(this.model);
    if (typing) {
      if (e.key === "Enter" && phase === "seat") this.actions.takeSeat(null);
      return;
    }
    if (target instanceof HTMLSelectElement) return;
    if (e.key === "Escape" && this.panel) {
      this.panel = null;
      this.render();
      e.preventDefault();
      return;
    }
    if (phase === "result" && e.key === "Enter" && !this.model.accepted && !(target instanceof HTMLButtonElement)) {
      this.actions.acceptRound();
      e.preventDefault();
      return;
    }
    if (phase !== "playing" || voteDue(this.model) !== null) return;
    const view = readView(this.model.update);
    if (!view) return;
    const o = offers(view.legal);
    const key = e.key.length === 1 ? e.key.toUpperCase() : e.key;
    if (o.suits.length) {
      if (o.suits.includes(key)) {
        this.actions.act(`suit ${key}`);
        e.preventDefault();
      }
      return;
    }
    const n = view.hand.length;
    const pick = (i: number): void => {
      this.selected = Math.max(0, Math.min(n - 1, i));
      this.render();
      this.root.querySelector<HTMLElement>(`.hand .card[data-index="${this.selected}"]`)?.focus();
    };
    let handled = true;
    switch (key) {
      case "ArrowLeft": pick(this.selected < 0 ? 0 : this.selected - 1); break;
      case "ArrowRight": pick(this.selected < 0 ? 0 : this.selected + 1); break;
      case "Home": pick(0); break;
      case "End": pick(n - 1); break;
      case "Enter":
      case " ":
        if (target instanceof HTMLButtonElement && !target.classList.contains("card")) { handled = false; break; }
        if (this.selected >= 0 && this.selected < n) this.actions.act(`play ${view.hand[this.selected]}`);
        break;
      case "D": this.actions.act("draw"); break;
      case "P": this.actions.act("pass"); break;
      case "E": this.actions.act("end"); break;
      case "C": this.actions.act("card"); break;
      case "L": this.actions.act("challenge"); break;
      case "A": this.actions.act("accept"); break;
      case "N": if (o.denounce.length) this.actions.act(`denounce ${o.denounce[0]}`); break;
      case "M": this.actions.toggle("log"); break;
      case "O": this.actions.autopilot(!this.model.update?.autopilot); break;
      default:
        if (/^[0-9]$/.test(key)) pick(key === "0" ? 9 : Number(key) - 1);
        else handled = false;
    }
    if (handled) e.preventDefault();
  }
}
