// For development only: serves the built client as the Huit server will (`/play/ROOM`, `/play`, the
// shell page; `/web/<file>` from game/net/browser/) and passes everything else (the WebSocket on `/`,
// `/r/ROOM`) through to a real `serve` on 127.0.0.1. Listens on 127.0.0.1 only.
// node tools/dev-server.mjs [PORT=8802] [UPSTREAM=8801]
import { createServer, request } from "node:http";
import { connect } from "node:net";
import { readFileSync, existsSync } from "node:fs";
import { dirname, join, normalize } from "node:path";
import { fileURLToPath } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
const built = join(here, "..", "..", "game", "net", "browser");
const port = Number(process.argv[2] ?? 8802);
const upstream = Number(process.argv[3] ?? 8801);
const types = { ".js": "text/javascript", ".css": "text/css", ".json": "application/json", ".png": "image/png" };
const csp = "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self' ws: wss:; font-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

function shell(room, lang) {
  const esc = (s) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
  return `<!doctype html><html lang="${esc(lang)}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Huit</title><link rel="stylesheet" href="/web/app.css"></head><body><main id="huit" data-room="${esc(room)}" data-lang="${esc(lang)}" data-tls="0"></main><noscript>Huit needs JavaScript.</noscript><script type="module" src="/web/app.js"></script></body></html>`;
}

const server = createServer((req, res) => {
  const url = new URL(req.url, "http://x");
  const lang = url.searchParams.get("lang") ?? "en";
  if (url.pathname === "/play" || url.pathname.startsWith("/play/")) {
    const room = decodeURIComponent(url.pathname.slice(6));
    res.writeHead(200, { "Content-Type": "text/html; charset=utf-8", "Content-Security-Policy": csp });
    res.end(shell(room, lang));
    return;
  }
  if (url.pathname.startsWith("/web/")) {
    const file = normalize(join(built, url.pathname.slice(5)));
    if (!file.startsWith(built) || !existsSync(file)) { res.writeHead(404); res.end(); return; }
    const ext = file.slice(file.lastIndexOf("."));
    res.writeHead(200, { "Content-Type": types[ext] ?? "application/octet-stream", "Cache-Control": "no-cache", "Content-Security-Policy": csp });
    res.end(readFileSync(file));
    return;
  }
  const up = request({ host: "127.0.0.1", port: upstream, path: req.url, method: req.method, headers: req.headers }, (answer) => {
    res.writeHead(answer.statusCode ?? 502, answer.headers);
    answer.pipe(res);
  });
  up.on("error", () => { res.writeHead(502); res.end(); });
  req.pipe(up);
});
server.on("upgrade", (req, socket, head) => {
  const up = connect(upstream, "127.0.0.1", () => {
    let text = `${req.method} ${req.url} HTTP/1.1\r\n`;
    for (let i = 0; i < req.rawHeaders.length; i += 2) text += `${req.rawHeaders[i]}: ${req.rawHeaders[i + 1]}\r\n`;
    up.write(text + "\r\n");
    if (head.length) up.write(head);
    up.pipe(socket);
    socket.pipe(up);
  });
  up.on("error", () => socket.destroy());
  socket.on("error", () => up.destroy());
});
server.listen(port, "127.0.0.1", () => console.log(`dev server on http://127.0.0.1:${port}/play/ROOM (upstream 127.0.0.1:${upstream})`));
