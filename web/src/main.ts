/** The browser client's entry: reads `#huit`'s data (room, language, TLS) and starts the app. */
import { start } from "./app.js";

const root = document.getElementById("huit");
if (root) void start(root);
