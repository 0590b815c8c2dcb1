#!/usr/bin/env node
// npm run bench:widget [-- --loads N --replies N]
//
// The website widget as a visitor gets it: starts `npm start` on a free loopback port with a throw-away
// data directory, serves a customer's page with the website inbox's snippet from another loopback origin,
// drives headless Chromium (the binary inside @sparticuz/chromium, as the browser tests) and measures,
// with GET /api as the baseline of the same run:
//   (a) the bytes a visitor downloads: the loader (/packs/js/sdk.js) and the widget (/packs/js/widget.js
//       and /packs/css/widget.css), raw and gzip, against the budgets (6 KB and 40 KB gzip);
//   (b) from the snippet to the bubble on screen, and to the widget's frame loaded (`chatwoot:ready`),
//       for a first-time visitor (cookies cleared and the cache off for each load);
//   (c) from a click on the bubble to the conversation on screen (a returning visitor's last message);
//   (d) from an agent's reply (account API) to its frame on the widget's socket, and to the reply on the
//       widget's screen.
// Times are taken inside the browser and in Node on the same machine's clock (performance.timeOrigin +
// performance.now(), both epoch milliseconds).
import chromium from "@sparticuz/chromium";
import { randomBytes } from "node:crypto";
import { createServer } from "node:http";
import { gzipSync } from "node:zlib";
import puppeteer from "puppeteer-core";
import { benchLog, boundedOptions, httpClient, percentile, sleep, startLocalServer } from "./lib/local-server.mjs";

/** Bounded on purpose: a few dozen page loads on a shared 2-core machine. */
const { loads: LOADS, replies: REPLIES } = boundedOptions({ loads: [10, 50], replies: [20, 100] });
const WARMUP = 2;
const API_SAMPLES = 30;
const BUDGETS_GZIP = { loader: 6 * 1024, widget: 40 * 1024 };
const WAIT_MS = 20_000;
/** The whole run, server start included, gives up after this long. */
const DEADLINE_MS = 8 * 60_000;
const PASSWORD = "Passw0rd!long";

const log = benchLog("widget");
let server = null;
let browser = null;
let host = null;
let call;
let must;

const epochNow = () => performance.timeOrigin + performance.now();
const median = (xs) => percentile(xs, 50);
const ms = (x) => x.toFixed(1);
const kb = (bytes) => (bytes / 1024).toFixed(1);

/** (a) What a visitor downloads, as the server sends it; gzip at level 9 (what a CDN's gzip gets near). */
async function measureBytes(base) {
  const size = async (path) => {
    const res = await fetch(base + path);
    if (!res.ok) throw new Error(`GET ${path}: ${res.status}`);
    const body = Buffer.from(await res.arrayBuffer());
    return { path, raw: body.length, gzip: gzipSync(body, { level: 9 }).length };
  };
  const loader = await size("/packs/js/sdk.js");
  const js = await size("/packs/js/widget.js");
  const css = await size("/packs/css/widget.css");
  const sound = await size("/audio/widget/ding.mp3");
  return { loader, widget: { raw: js.raw + css.raw, gzip: js.gzip + css.gzip }, js, css, sound };
}

async function setUp(base, platformToken) {
  const account = await must("POST", "/platform/api/v1/accounts", { key: platformToken, body: { name: "Widget bench" } });
  const user = await must("POST", "/platform/api/v1/users", { key: platformToken, body: { name: "Bench Agent", email: `agent.${randomBytes(4).toString("hex")}@example.com`, password: PASSWORD } });
  await must("POST", `/platform/api/v1/accounts/${account.id}/account_users`, { key: platformToken, body: { user_id: user.id, role: "administrator" } });
  const accountBase = `/api/v1/accounts/${account.id}`;
  const inbox = await must("POST", `${accountBase}/inboxes`, {
    key: user.access_token,
    body: { name: "Bench website", enable_auto_assignment: false, channel: { type: "web_widget", website_url: "https://shop.example" } },
  });
  // the snippet as the inbox hands it out, pointed at this run's server (FRONTEND_URL names the default port)
  const snippet = inbox.web_widget_script.replace(/var BASE_URL="[^"]*"/, `var BASE_URL=${JSON.stringify(base)}`);
  return { accountBase, key: user.access_token, snippet };
}

/** The customer's website: one page, on its own loopback origin (localhost, while the server is on 127.0.0.1). */
async function startHost(snippet) {
  // the clock starts where the snippet does: the line before it in the page
  const page = `<!doctype html><html><head><meta charset="utf-8"><title>Shop</title></head><body><h1>Shop</h1>
<script>window.__snippetAt = performance.timeOrigin + performance.now();
window.addEventListener("chatwoot:ready", () => { window.__readyAt = performance.timeOrigin + performance.now(); });
new MutationObserver((_, observer) => {
  const bubble = document.querySelector(".woot-widget-bubble");
  if (bubble && bubble.getBoundingClientRect().width > 0) { window.__bubbleAt = performance.timeOrigin + performance.now(); observer.disconnect(); }
}).observe(document.documentElement, { childList: true, subtree: true, attributes: true });</script>
${snippet}</body></html>`;
  const http = createServer((req, res) => {
    if (req.url === "/") return res.writeHead(200, { "content-type": "text/html; charset=utf-8" }).end(page);
    res.writeHead(404).end();
  });
  await new Promise((resolve) => http.listen(0, "127.0.0.1", resolve));
  return { url: `http://localhost:${http.address().port}/`, close: () => new Promise((r) => http.close(r)) };
}

/**
 * (b) A first-time visitor: no cookie (the browser's cookies cleared) and no cache, then the page, the
 * bubble and the frame ready. A page of the default context: @sparticuz/chromium runs as one process,
 * which does not survive closing extra browser contexts.
 */
async function firstVisit() {
  const page = await browser.newPage();
  try {
    const cdp = await page.createCDPSession();
    await cdp.send("Network.clearBrowserCookies");
    await page.setCacheEnabled(false);
    await page.goto(host.url);
    await page.waitForFunction(() => window.__bubbleAt && window.__readyAt, { timeout: WAIT_MS, polling: 20 });
    return await page.evaluate(() => ({ bubble: window.__bubbleAt - window.__snippetAt, ready: window.__readyAt - window.__snippetAt }));
  } finally {
    await page.close();
  }
}

/**
 * Stamps every frame the widget's sockets receive (page script, run in each document the page opens:
 * only the widget's own page keeps a log), so (d) can tell the socket's part from the rendering's.
 */
const STAMP_SOCKET_FRAMES = () => {
  if (location.pathname !== "/widget") return;
  window.__socketFrames = [];
  const Native = window.WebSocket;
  window.WebSocket = class extends Native {
    constructor(...args) {
      super(...args);
      this.addEventListener("message", (e) => window.__socketFrames.push({ at: performance.timeOrigin + performance.now(), data: String(e.data) }));
    }
  };
};

/**
 * Resolves in the widget's frame the epoch time at which `text` is first on its screen; with `viaHome`,
 * the home screen's button is pressed when it shows (the way from the home screen to the conversation).
 */
function whenShown(frame, text, viaHome = false) {
  return frame.evaluate(
    (t, wait, home) =>
      new Promise((resolve, reject) => {
        const now = () => performance.timeOrigin + performance.now();
        if (document.body.innerText.includes(t)) return resolve(now());
        const observer = new MutationObserver(() => {
          if (home && document.body.innerText) document.querySelector(".cw-home .cw-button--block")?.click();
          if (!document.body.innerText.includes(t)) return;
          observer.disconnect();
          resolve(now());
        });
        observer.observe(document.body, { childList: true, subtree: true, characterData: true, attributes: true });
        setTimeout(() => reject(new Error(`"${t}" not shown within ${wait} ms`)), wait);
      }),
    text,
    WAIT_MS,
    viaHome,
  );
}

async function widgetFrame(page) {
  const element = await page.waitForSelector("iframe#chatwoot_live_chat_widget", { timeout: WAIT_MS });
  return element.contentFrame();
}

/** Opens the widget and sends `text` as the visitor, through the home screen's button when it shows one. */
async function visitorSays(page, frame, text) {
  await page.click(".woot-widget-bubble:not(.woot--close)");
  await frame.waitForFunction(
    () => {
      const box = document.querySelector("textarea.cw-composer__input");
      if (box && box.offsetParent !== null) return true;
      document.querySelector(".cw-home .cw-button--block")?.click();
      return false;
    },
    { timeout: WAIT_MS, polling: 100 },
  );
  const box = await frame.$("textarea.cw-composer__input");
  await box.type(text);
  await box.press("Enter");
  await whenShown(frame, text);
}

/**
 * (c) A returning visitor (the conversation exists): reload, wait until the widget has its history (as a
 * visitor who clicks a moment after the page shows), then bubble click -> the last message on screen,
 * through the home screen's button when the widget shows its home screen first.
 */
async function openToConversation(page, lastMessage) {
  await page.reload();
  await page.waitForFunction(() => window.__readyAt, { timeout: WAIT_MS, polling: 20 });
  const frame = await widgetFrame(page);
  await frame.waitForFunction(
    () => /Continue conversation/.test(document.querySelector(".cw-home .cw-button--block")?.textContent ?? "") || (document.querySelector(".cw-messages")?.children.length ?? 0) > 0,
    { timeout: WAIT_MS, polling: 20 },
  );
  const shown = whenShown(frame, lastMessage, true);
  const clickedAt = await page.evaluate(() => {
    const at = performance.timeOrigin + performance.now();
    document.querySelector(".woot-widget-bubble:not(.woot--close)").click();
    return at;
  });
  const at = await shown;
  // close again, so the next round opens from a closed widget
  await page.evaluate(() => window.$chatwoot.toggle("close"));
  return at - clickedAt;
}

async function apiMedian(samples) {
  const times = [];
  for (let i = 0; i < samples; i++) {
    const t0 = performance.now();
    await must("GET", "/api");
    times.push(performance.now() - t0);
  }
  return median(times);
}

async function main() {
  log("starting npm start on a free loopback port with a throw-away data directory...");
  server = await startLocalServer({ name: "widget", deadlineMs: DEADLINE_MS });
  ({ call, must } = httpClient(server.base));
  const bytes = await measureBytes(server.base);
  log(`loader ${kb(bytes.loader.gzip)} KB gzip, widget ${kb(bytes.widget.gzip)} KB gzip`);

  const world = await setUp(server.base, server.platformToken);
  host = await startHost(world.snippet);
  browser = await puppeteer.launch({ executablePath: await chromium.executablePath(), args: chromium.args, headless: true });
  const apiBefore = await apiMedian(API_SAMPLES);

  log(`(b) ${LOADS} first visits (after ${WARMUP} warm-up)...`);
  const visits = [];
  for (let i = -WARMUP; i < LOADS; i++) {
    const visit = await firstVisit();
    if (i >= 0) visits.push(visit);
  }

  log("(c) one visitor starts a conversation, then reopens it after reloads...");
  const page = await browser.newPage();
  await page.evaluateOnNewDocument(STAMP_SOCKET_FRAMES);
  await page.goto(host.url);
  await page.waitForFunction(() => window.__readyAt, { timeout: WAIT_MS, polling: 20 });
  const first = `bench hello ${randomBytes(3).toString("hex")}`;
  await visitorSays(page, await widgetFrame(page), first);
  const opens = [];
  for (let i = -WARMUP; i < Math.min(LOADS, 20); i++) {
    const took = await openToConversation(page, first);
    if (i >= 0) opens.push(took);
  }

  log(`(d) ${REPLIES} agent replies to the open widget...`);
  const conversations = await must("GET", `${world.accountBase}/conversations?status=all`, { key: world.key });
  const conversationId = conversations.data.payload[0].id;
  const frame = await widgetFrame(page);
  await page.evaluate(() => window.$chatwoot.toggle("open"));
  const replies = [];
  const socketFrames = [];
  const api = [];
  for (let i = -WARMUP; i < REPLIES; i++) {
    let t0 = performance.now();
    await must("GET", "/api");
    const apiTime = performance.now() - t0;
    const content = `reply ${i} ${randomBytes(3).toString("hex")}`;
    const shown = whenShown(frame, content);
    const sentAt = epochNow();
    await must("POST", `${world.accountBase}/conversations/${conversationId}/messages`, { key: world.key, body: { content } });
    const at = await shown;
    const socketAt = await frame.evaluate((c) => (window.__socketFrames ?? []).find((f) => f.data.includes(c))?.at ?? null, content);
    if (i < 0) continue;
    api.push(apiTime);
    replies.push(at - sentAt);
    if (socketAt !== null) socketFrames.push(socketAt - sentAt);
    await sleep(50);
  }
  const apiAfter = await apiMedian(API_SAMPLES);
  const apiAll = median([...api, apiBefore, apiAfter]);

  const load = (await import("node:os")).loadavg().map((x) => x.toFixed(2)).join(", ");
  const date = new Date().toISOString().slice(0, 10);
  const row = (what, xs) => `| ${what} | ${ms(median(xs))} | ${ms(percentile(xs, 95))} | ${(median(xs) / apiAll).toFixed(1)} |`;
  const within = (size, budget) => (size <= budget ? "within" : "**over**");
  const table = [
    "",
    `Recorded ${date}, load average ${load} (2 cores, shared with other work): ${LOADS} first visits, ${opens.length} reopenings, ${REPLIES} replies (after ${WARMUP} warm-up each). GET /api median ${ms(apiAll)} ms in the same run.`,
    "",
    "| file | raw bytes | gzip -9 bytes | budget (gzip) |",
    "|---|---|---|---|",
    `| loader: ${bytes.loader.path} | ${bytes.loader.raw} | ${bytes.loader.gzip} | ${kb(BUDGETS_GZIP.loader)} KB: ${within(bytes.loader.gzip, BUDGETS_GZIP.loader)} |`,
    `| widget: ${bytes.js.path} + ${bytes.css.path} | ${bytes.widget.raw} (${bytes.js.raw} + ${bytes.css.raw}) | ${bytes.widget.gzip} (${bytes.js.gzip} + ${bytes.css.gzip}) | ${kb(BUDGETS_GZIP.widget)} KB: ${within(bytes.widget.gzip, BUDGETS_GZIP.widget)} |`,
    `| sound: ${bytes.sound.path} (fetched after the first new message) | ${bytes.sound.raw} | ${bytes.sound.gzip} | – |`,
    "",
    "| from → to | median ms | p95 ms | median ÷ GET /api |",
    "|---|---|---|---|",
    row("snippet → bubble on screen (first visit)", visits.map((v) => v.bubble)),
    row("snippet → widget frame loaded, `chatwoot:ready` (first visit)", visits.map((v) => v.ready)),
    row("bubble click → conversation on screen (returning visitor)", opens),
    socketFrames.length ? row("agent reply (POST messages) → its frame on the widget's socket", socketFrames) : "| agent reply → its frame on the widget's socket | not seen: the widget's socket frames were not stamped | | |",
    row("agent reply (POST messages) → reply on the widget's screen", replies),
    "",
  ].join("\n");
  log("done");
  console.log(table);
}

async function shutdown(code) {
  await browser?.close().catch(() => undefined);
  await host?.close();
  await server?.stop();
  process.exit(code);
}

main()
  .then(() => shutdown(0))
  .catch(async (error) => {
    console.error(error instanceof Error ? error.stack : error);
    if (server) console.error(`--- server output (last 4000 characters) ---\n${server.output()}`);
    await shutdown(1);
  });
