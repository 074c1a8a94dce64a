/**
 * The app: one WebSocket to the page's own server (path `/`), protocol 2 as the pygame client speaks
 * it (`hello` with this browser's player key, then `join` with a kept seat key or a claim, actions,
 * `accept_round`, votes, quick match), the state machine (`state.ts`) fed with what the server says,
 * the page rebuilt from it (`ui.ts`), the keyboard (as the game's keymap: arrows and digits pick a
 * card, Enter plays it, D draws, P passes, E ends the turn, C calls Card, L calls Liar, A accepts,
 * N denounces, M shows the moves, O the autopilot, S H D C / R B G Y name a suit), and reconnection.
 */
import { avatarToAvoid, PEOPLE } from "./avatars.js";
import type { ClientMessage, ServerMessage } from "./generated/protocol.js";
import { readCatalogue, supported, Texts, type Lang } from "./i18n.js";
import * as proto from "./protocol.js";
import { nextSort, sortedHand } from "./cards.js";
import { BUBBLE_MS, initial, offers, phaseOf, readView, reduce, SEAT_LOST, timeLeft, voteDue, type Input, type Model } from "./state.js";
import * as storage from "./storage.js";
import { readSeats, type SeatPreview } from "./seats.js";
import { fitSeatForm, page, type Quick, type Ui } from "./ui.js";
import { fitResult, fitTable, takeoverText } from "./ui_table.js";

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

function localStore(): storage.Store {
  try {
    const s = window.localStorage;
    s.getItem("huit.probe");
    return s;
  } catch {
    return new storage.MemoryStore();
  }
}

export async function start(root: HTMLElement): Promise<void> {
  const store = localStore();
  const settings = storage.getSettings(store);
  const lang = supported(settings.lang ?? root.dataset.lang ?? navigator.language);
  const texts = await loadTexts(lang);
  document.documentElement.lang = texts.lang;
  const app = new App(root, store, texts, settings);
  app.run();
}

class App {
  private model: Model;
  private ws: WebSocket | null = null;
  private helloSent = false;
  private synced = false;
  /** The server refused to make this browser's player (too many new ones from its address): seats
   * are claimed without one on this connection. */
  private noPlayer = false;
  private pending: (() => void)[] = [];
  /** This connection asked the server for the public rooms' list (and has not said stop). */
  private watchingLobby = false;
  private retries = 0;
  private stopped = false;
  private preview: SeatPreview[] | null = null;
  private selected = -1;
  private panel: "log" | "settings" | "react" | null = null;
  private info = "";
  private name: string;
  private avatar: number;
  /** The person picked their avatar (else the table's status may change it: `avatarToAvoid`). */
  private avatarChosen: boolean;
  private quick: Quick = { preset: "classic", players: 2, computers: true };
  private request = storage.randomKey(24);
  private lastPhase = "";

  constructor(private readonly root: HTMLElement, private readonly store: storage.Store, private t: Texts, private settings: storage.Settings) {
    this.model = initial(root.dataset.room ?? "");
    this.name = storage.getName(store);
    this.avatar = storage.getAvatar(store) ?? PEOPLE[4]!;
    this.avatarChosen = storage.getAvatar(store) !== null;
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
    this.noPlayer = false;
    ws.onopen = () => {
      this.retries = 0;
      this.dispatch({ kind: "open" });
      if (this.name.trim()) this.sendHello(() => this.takeBack());
      else this.takeBack();
      // The page without a room lists the public rooms (until it is seated: `receive`'s "joined").
      this.watchingLobby = !this.model.room && this.send(proto.lobby(true));
    };
    ws.onmessage = (event) => {
      const message = proto.parse(event.data);
      if (message) this.guarded(() => this.receive(message));
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
        if (this.watchingLobby) {  // seated: the public rooms are of no use any more
          this.watchingLobby = false;
          this.send(proto.lobby(false));
        }
        if (!location.pathname.startsWith("/play/")) history.replaceState(null, "", `/play/${encodeURIComponent(storage.canonicalRoom(m.room))}`);
        this.request = storage.randomKey(24);
        break;
      case "error":
        if (SEAT_LOST.has(m.code) && this.model.room) storage.forgetSeat(this.store, this.model.room);
        if (m.code === "seat_taken" || m.code === "no_free_seat" || m.code === "seat_freed") void this.fetchPreview();
        if (m.code === "too_many_profiles" && !this.synced) {
          // The server makes no new player for this address this hour: go on without one (a private
          // room's seat needs none; a public room or a quick match then says no_profile).
          this.noPlayer = true;
          const pending = this.pending;
          this.pending = [];
          for (const f of pending) f();
        }
        if (m.code === "bad_name" && !this.synced) {
          // The hello's name was refused: this connection speaks for no player. Taking a kept seat
          // back needs none (its key is enough); a claim waits for a name the server keeps.
          this.helloSent = false;
          const pending = this.pending;
          this.pending = [];
          if (pending.length) this.takeBack();
        }
        break;
      case "left":
        this.stopped = true;
        this.model = { ...this.model, fatal: { type: "error", code: "left", message: this.t.tr("browser.left"), v: 2 } };
        this.ws?.close();
        break;
      case "room": {
        // A guest who picked no avatar gets one nobody at the table has (kept for this page only).
        const other = this.avatarChosen || this.model.seat === null ? null : avatarToAvoid(m.seats as { kind?: unknown; avatar?: unknown }[], this.model.seat);
        if (other !== null) {
          this.avatar = other;
          this.send(proto.profile(undefined, other));
        }
        break;
      }
      case "reaction":
        window.setTimeout(() => this.render(), BUBBLE_MS + 50); // the bubble goes
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

  /** Run `work` (a server frame taken in and shown): when it throws (a frame no check foresaw), the
   * frame is dropped and the last good model shown again, so no message can freeze the page. */
  private guarded(work: () => void): void {
    const good = this.model;
    try {
      work();
    } catch (error) {
      this.model = good;
      console.warn("huit: a server message was dropped", error);
      try {
        this.render();
      } catch {
        // the last good model drew before: nothing better to show
      }
    }
  }

  private dispatch(input: Input, render = true): void {
    this.model = reduce(this.model, input, Date.now());
    if (render) this.render();
  }

  /** The room's seats before joining (`/play/ROOM/seats.json`: what its page shows anyone). */
  private async fetchPreview(): Promise<void> {
    try {
      const answer = await fetch(`/play/${encodeURIComponent(this.model.room)}/seats.json`, { credentials: "same-origin" });
      if (answer.status === 404) {
        this.preview = [];
      } else if (answer.ok) {
        this.preview = readSeats(await answer.json());
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
    if (this.avatarChosen) storage.setAvatar(this.store, this.avatar); // a default is no choice: the next table may change it
    this.info = "";
    if (this.noPlayer) {
      then();
    } else if (!this.helloSent) {
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
      this.avatarChosen = false;
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
      storage.setName(this.store, name); // kept as typed: a public room's link opened next knows it
    },
    setAvatar: (avatar: number) => {
      this.avatar = avatar;
      this.avatarChosen = true;
      storage.setAvatar(this.store, avatar);
      this.render();
    },
    setQuick: (quick: Quick) => {
      this.quick = quick;
    },
    select: (index: number) => {
      this.selected = index;
    },
    react: (reaction: proto.Reaction) => {
      this.panel = null;
      this.send(proto.react(reaction));
      this.render();
    },
    toggle: (panel: "log" | "settings" | "react") => {
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
    const ui = this.ui();
    this.root.replaceChildren(...page(ui, phase));
    if (phase === "playing") fitTable(this.root, ui.viewport); // a table taller than the screen packed to fit it
    if (phase === "result") fitResult(this.root, ui.viewport); // and a result: its next deal on the screen
    if (phase === "seat") fitSeatForm(this.root, ui.viewport); // and the seat form: its seats and Join
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
    const takeover = this.root.querySelector<HTMLElement>('[data-testid="takeover"]');
    if (takeover) { // someone's countdown to losing their seat (a ranked game only): its text alone
      const text = takeoverText(this.ui());
      if (text !== null && takeover.textContent !== text) takeover.textContent = text;
    }
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
    if (this.panel === "react" && /^[1-8]$/.test(e.key)) {
      this.actions.react(proto.REACTIONS[Number(e.key) - 1]!);
      e.preventDefault();
      return;
    }
    const picking = offers(readView(this.model.update)?.legal ?? []).suits.length > 0; // R is Red there
    if ((phase === "playing" || phase === "result") && (e.key === "r" || e.key === "R") && !picking) {
      this.actions.toggle("react");
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
    const shown = sortedHand(view.hand, this.settings.handSort); // the order the page shows
    const n = shown.length;
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
        {
          // The focused card (Tab, or a tap) is the one played; else the one picked by arrows or digits.
          const focused = target instanceof HTMLButtonElement ? Number(target.dataset.index) : Number.NaN;
          const i = Number.isInteger(focused) ? focused : this.selected;
          if (i >= 0 && i < n) this.actions.act(`play ${shown[i]}`);
        }
        break;
      case "D": this.actions.act("draw"); break;
      case "P": this.actions.act("pass"); break;
      case "E": this.actions.act("end"); break;
      case "C": this.actions.act("card"); break;
      case "L": this.actions.act("challenge"); break;
      case "A": this.actions.act("accept"); break;
      case "N": if (o.denounce.length) this.actions.act(`denounce ${o.denounce[0]}`); break;
      case "M": this.actions.toggle("log"); break;
      case "S": this.actions.setSettings({ ...this.settings, handSort: nextSort(this.settings.handSort) }); break;
      case "O": this.actions.autopilot(!this.model.update?.autopilot); break;
      default:
        if (/^[0-9]$/.test(key)) pick(key === "0" ? 9 : Number(key) - 1);
        else handled = false;
    }
    if (handled) e.preventDefault();
  }
}
