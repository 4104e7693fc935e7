// Runs an EBOOT in PPSSPP (EmulatorJS's WebAssembly core) inside headless Chromium
// (toolchain.md §4): the game folder is seeded into the emulator's memory stick at
// ms0:/PSP/GAME/PEBBLE/, the program runs until every --wait file exists there (or
// the timeout), and the folder is copied back to --out.
//
//   node run.mjs --eboot EBOOT.PBP --game DIR --out DIR [--wait NAME]... [--timeout S]
//                [--swap NAME=FILE --swap-after WAITNAME [--swap-after-log TEXT]]
//                [--wait-log TEXT]
//
// --wait-log waits, as --wait does, for the runtime's pebble_log.txt to hold TEXT
// (after a swap: text the runtime logs only then).
//
// --swap replaces NAME in the running game folder with FILE's bytes once WAITNAME
// exists there (a live link copying a new map while the runtime plays), and says
// when, and how long after it the --wait files appeared. With --swap-after-log it
// also waits for pebble_log.txt to hold TEXT: the log file appears before the first
// map is loaded, so a swap keyed on the file alone could land before that load.
//
// Exit status: 0 when every --wait file appeared, 1 on timeout, on an "error:" line in
// the runtime's pebble_log.txt, or on a harness error (the folder is still copied
// back, so the log can say why).
import http from "node:http";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import puppeteer from "puppeteer-core";

const here = path.dirname(fileURLToPath(import.meta.url));
const args = process.argv.slice(2);
const opt = { wait: [], timeout: 90, swap: null, swapAfter: null, swapAfterLog: null, waitLog: null };
for (let i = 0; i < args.length; i++) {
  const a = args[i];
  const v = () => {
    if (i + 1 >= args.length) fail(`${a} needs a value`);
    return args[++i];
  };
  // Absolute, so a folder given relative to the caller means the same to the
  // file server (relative ones were served as "not found").
  if (a === "--eboot") opt.eboot = path.resolve(v());
  else if (a === "--game") opt.game = path.resolve(v());
  else if (a === "--out") opt.out = path.resolve(v());
  else if (a === "--wait") opt.wait.push(v());
  else if (a === "--timeout") opt.timeout = Number(v());
  else if (a === "--swap") {
    const [name, ...file] = v().split("=");
    opt.swap = { name, file: file.join("=") };
  } else if (a === "--swap-after") opt.swapAfter = v();
  else if (a === "--swap-after-log") opt.swapAfterLog = v();
  else if (a === "--wait-log") opt.waitLog = v();
  else fail(`unknown argument ${a}`);
}
function fail(msg) {
  console.error(`psp-emu: ${msg}`);
  process.exit(1);
}
for (const k of ["eboot", "game", "out"]) if (!opt[k]) fail(`--${k} is required`);
if (!fs.existsSync(opt.eboot)) fail(`no EBOOT at ${opt.eboot}`);
if (!fs.statSync(opt.game, { throwIfNoEntry: false })?.isDirectory()) fail(`no game folder at ${opt.game}`);
if (opt.swap && (!opt.swap.name || !fs.existsSync(opt.swap.file) || !opt.swapAfter)) {
  fail("--swap takes NAME=FILE (an existing file) and needs --swap-after WAITNAME");
}

const ejs = path.join(here, "node_modules/@emulatorjs/emulatorjs/data");
const core = path.join(here, "node_modules/@emulatorjs/core-ppsspp");
const chromium = process.env.CHROMIUM ?? "/usr/bin/chromium-headless-shell";
const GAME = "/data/saves/PPSSPP/PSP/GAME/PEBBLE";

const gameFiles = fs.readdirSync(opt.game).filter((f) => fs.statSync(path.join(opt.game, f)).isFile());
const page = `<!doctype html><html><body style="margin:0;background:#000">
<div id="game" style="width:480px;height:272px"></div>
<script>
window.EJS_player = "#game"; window.EJS_core = "psp"; window.EJS_gameUrl = "/EBOOT.PBP";
window.EJS_pathtodata = "/data/"; window.EJS_startOnLoaded = true; window.EJS_threads = true;
// The GE filters bilinearly with no anisotropy; the core's default is 16x, which
// samples grazing floors sharper than a PSP can.
// EmulatorJS writes these core options at start only when it keeps no settings of
// its own in local storage.
window.EJS_defaultOptions = { ppsspp_texture_anisotropic_filtering: "disabled" };
window.EJS_disableLocalStorage = true;
window.pebbleFiles = {};
window.pebbleReady = Promise.all(${JSON.stringify(gameFiles)}.map(async (name) => {
  const r = await fetch("/game/" + encodeURIComponent(name));
  window.pebbleFiles[name] = new Uint8Array(await r.arrayBuffer());
}));
window.pebbleSeeded = false;
const hook = setInterval(() => {
  if (!window.EJS_emulator) return;
  clearInterval(hook);
  window.EJS_emulator.on("saveDatabaseLoaded", (FS) => {
    FS.mkdirTree(${JSON.stringify(GAME)});
    for (const [name, data] of Object.entries(window.pebbleFiles)) FS.writeFile(${JSON.stringify(GAME)} + "/" + name, data);
    window.pebbleSeeded = true;
  });
}, 5);
</script>
<script src="/data/loader.js"></script></body></html>`;

const types = { ".js": "text/javascript", ".css": "text/css", ".json": "application/json", ".html": "text/html", ".wasm": "application/wasm" };
const server = http.createServer((req, res) => {
  const url = decodeURIComponent(new URL(req.url, "http://x").pathname);
  let file = null;
  if (url === "/") {
    res.writeHead(200, headers("text/html"));
    return res.end(page);
  } else if (url === "/EBOOT.PBP") file = opt.eboot;
  else if (url.startsWith("/game/")) file = path.join(opt.game, path.basename(url));
  else if (url === "/swap" && opt.swap) file = path.resolve(opt.swap.file);
  else if (url.startsWith("/data/cores/")) file = path.join(core, url.slice("/data/cores/".length));
  else if (url.startsWith("/data/")) file = path.join(ejs, url.slice("/data/".length));
  if (!file || !file.startsWith("/") || !fs.existsSync(file) || !fs.statSync(file).isFile()) {
    res.writeHead(404, headers("text/plain"));
    return res.end("not found");
  }
  const data = fs.readFileSync(file);
  res.writeHead(200, { ...headers(types[path.extname(file)] ?? "application/octet-stream"), "Content-Length": data.length });
  res.end(req.method === "HEAD" ? undefined : data);
});
function headers(type) {
  return {
    "Content-Type": type,
    "Cross-Origin-Opener-Policy": "same-origin",
    "Cross-Origin-Embedder-Policy": "require-corp",
    "Cross-Origin-Resource-Policy": "same-origin",
    "Cache-Control": "no-store",
  };
}
await new Promise((r) => server.listen(0, "127.0.0.1", r));
const origin = `http://127.0.0.1:${server.address().port}`;

const started = Date.now();
const browser = await puppeteer.launch({
  executablePath: chromium,
  headless: "shell",
  args: [
    "--no-sandbox", "--use-angle=swiftshader", "--enable-unsafe-swiftshader", "--ignore-gpu-blocklist",
    "--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run",
    "--autoplay-policy=no-user-gesture-required",
  ],
});
let status = 0;
try {
  const tab = await browser.newPage();
  tab.on("console", (m) => process.env.PEBBLE_EMU_VERBOSE && console.error(`[page] ${m.text()}`));
  tab.on("pageerror", (e) => console.error(`[page error] ${e.message}`));
  await tab.goto(origin + "/", { waitUntil: "load" });
  const deadline = started + opt.timeout * 1000;
  let missing = opt.wait;
  let swappedAt = null;
  while (Date.now() < deadline) {
    if (opt.swap && swappedAt === null) {
      const done = await tab.evaluate(async (dir, name, after, afterLog) => {
        const FS = window.EJS_emulator?.gameManager?.FS;
        if (!FS || !window.pebbleSeeded || !FS.analyzePath(dir + "/" + after).exists) return false;
        if (afterLog !== null) {
          const logPath = dir + "/pebble_log.txt";
          if (!FS.analyzePath(logPath).exists) return false;
          if (!new TextDecoder().decode(FS.readFile(logPath)).includes(afterLog)) return false;
        }
        const bytes = new Uint8Array(await (await fetch("/swap")).arrayBuffer());
        FS.writeFile(dir + "/" + name, bytes);
        return true;
      }, GAME, opt.swap.name, opt.swapAfter, opt.swapAfterLog);
      if (done) {
        swappedAt = Date.now();
        const held = opt.swapAfterLog === null ? "" : ` and pebble_log.txt held "${opt.swapAfterLog}"`;
        console.log(`psp-emu: replaced ${opt.swap.name} at ${((swappedAt - started) / 1000).toFixed(1)} s, after ${opt.swapAfter} appeared${held}`);
      }
    }
    let failed;
    [missing, failed] = await tab.evaluate((dir, wait, waitLog) => {
      const FS = window.EJS_emulator?.gameManager?.FS;
      const all = waitLog === null ? wait : [...wait, `pebble_log.txt holding "${waitLog}"`];
      if (!FS || !window.pebbleSeeded) return [all, false];
      const log = FS.analyzePath(dir + "/pebble_log.txt").exists
        ? new TextDecoder().decode(FS.readFile(dir + "/pebble_log.txt"))
        : "";
      const left = wait.filter((w) => !FS.analyzePath(dir + "/" + w).exists);
      if (waitLog !== null && !log.includes(waitLog)) left.push(`pebble_log.txt holding "${waitLog}"`);
      return [left, /^error:/m.test(log)];
    }, GAME, opt.wait, opt.waitLog);
    if (missing.length === 0) {
      if (swappedAt !== null) {
        console.log(`psp-emu: swap-to-done ${((Date.now() - swappedAt) / 1000).toFixed(2)} s (the --wait files appeared that long after the swap)`);
      }
      break;
    }
    if (failed) {
      console.error("psp-emu: the runtime logged an error (see pebble_log.txt)");
      break;
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  if (missing.length > 0) {
    console.error(`psp-emu: timed out after ${opt.timeout} s waiting for ${missing.join(", ")}`);
    status = 1;
  }
  // Copy the folder back (recursively), base64 through the page.
  const files = await tab.evaluate((dir) => {
    const FS = window.EJS_emulator?.gameManager?.FS;
    const out = {};
    if (!FS || !FS.analyzePath(dir).exists) return out;
    const walk = (d, rel) => {
      for (const name of FS.readdir(d)) {
        if (name === "." || name === "..") continue;
        const full = d + "/" + name;
        const r = rel ? rel + "/" + name : name;
        if (FS.isDir(FS.stat(full).mode)) walk(full, r);
        else {
          const bytes = FS.readFile(full);
          let s = "";
          for (let i = 0; i < bytes.length; i += 0x8000) s += String.fromCharCode.apply(null, bytes.subarray(i, i + 0x8000));
          out[r] = btoa(s);
        }
      }
    };
    walk(dir, "");
    return out;
  }, GAME);
  for (const [rel, b64] of Object.entries(files)) {
    const target = path.join(opt.out, rel);
    fs.mkdirSync(path.dirname(target), { recursive: true });
    fs.writeFileSync(target, Buffer.from(b64, "base64"));
  }
  console.log(`psp-emu: ${Object.keys(files).length} files copied back to ${opt.out} after ${((Date.now() - started) / 1000).toFixed(1)} s`);
} catch (e) {
  console.error(`psp-emu: ${e.stack ?? e}`);
  status = 1;
} finally {
  await browser.close();
  server.close();
}
process.exit(status);
