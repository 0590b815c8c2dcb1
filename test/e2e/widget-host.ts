/**
 * What the widget's browser tests share: a customer's website on its own loopback origin (a small node
 * HTTP server on 127.0.0.1, while edgedesk answers on localhost: two origins, two sites, so the widget's
 * iframe is a cross-site frame as on a real shop), an account with a website inbox, the embed snippet
 * that inbox hands out, the widget's frame inside a page, and an agent's view of the account: its API
 * and its live feed on /cable (ActionCable, as Chatwoot's apps subscribe).
 */
import { createHmac, randomUUID } from "node:crypto";
import { readFileSync } from "node:fs";
import { type Server, createServer } from "node:http";
import { join } from "node:path";
import type { Frame, Page } from "puppeteer-core";
import { afterAll, beforeAll, expect } from "vitest";
import type { ServerAndBrowser } from "./browser";
import { call, root } from "./server";

/** The pages of a customer's website: registered by the tests, served as they are. */
export type HostSite = { readonly origin: string; serve(path: string, html: string): string };

/** Files from node_modules a host page may load (the Vue wrapper's test); nothing else of the disk is served. */
const HOST_FILES: Record<string, string> = {
  "/lib/vue.js": "node_modules/vue/dist/vue.esm-browser.prod.js",
  "/lib/defu.js": "node_modules/defu/dist/defu.mjs",
  "/lib/chatwoot-vue.js": "node_modules/@productdevbook/chatwoot/dist/runtime/vue/vue.js",
};

/** Starts the website before the file's tests and stops it after them. */
export function hostSite(): HostSite {
  const pages = new Map<string, string>();
  let server: Server | undefined;
  let origin = "";
  beforeAll(async () => {
    server = createServer((req, res) => {
      const path = new URL(req.url ?? "/", "http://host").pathname;
      const page = pages.get(path);
      if (page !== undefined) {
        res.writeHead(200, { "content-type": "text/html; charset=utf-8", "cache-control": "no-store" });
        return res.end(page);
      }
      if (path in HOST_FILES) {
        res.writeHead(200, { "content-type": "text/javascript; charset=utf-8" });
        return res.end(readFileSync(join(root, HOST_FILES[path])));
      }
      res.writeHead(404).end();
    });
    // an address of its own in 127/8 for each vitest worker (files of one worker run one after another):
    // the files share one browser, which keeps cookies per host, not per port, so two sites on 127.0.0.1
    // would share (and overwrite) the loader's cw_conversation
    const host = `127.0.0.${1 + Number(process.env.VITEST_POOL_ID ?? 1)}`;
    await new Promise<void>((resolve) => server!.listen(0, host, resolve));
    origin = `http://${host}:${(server.address() as { port: number }).port}`;
  });
  afterAll(async () => {
    server?.closeAllConnections();
    await new Promise((resolve) => server?.close(resolve));
  });
  return {
    get origin() {
      return origin;
    },
    serve(path, html) {
      pages.set(path, html);
      return origin + path;
    },
  };
}

export async function must(reply: Promise<{ status: number; body: any }>, what: string) {
  const { status, body } = await reply;
  if (status !== 200) throw new Error(`${what}: ${status} ${JSON.stringify(body)}`);
  return body;
}

export type WebsiteInbox = {
  accountId: number;
  key: string;
  agent: { id: number; name: string; pubsubToken: string };
  inboxId: number;
  websiteToken: string;
  hmacToken: string;
  /** The snippet the inbox hands out (web_widget_script), which names this run's server. */
  snippet: string;
  /** `(method, path, body)` on the account API as the agent (an administrator), e.g. ("GET", "/conversations"). */
  api(method: string, path: string, body?: unknown): Promise<any>;
};

/** An account, an administrator who is the inbox's agent, and a website inbox with `channel` settings. */
export async function websiteInbox(e2e: ServerAndBrowser, channel: Record<string, unknown> = {}, inbox: Record<string, unknown> = {}): Promise<WebsiteInbox> {
  const base = e2e.server.base;
  const platform = (method: string, path: string, body?: unknown) => must(call(base, method, `/platform/api/v1${path}`, e2e.token, body), path);
  const account = await platform("POST", "/accounts", { name: "Corner Shop" });
  const user = await platform("POST", "/users", { name: "Alex Agent", email: `alex.${randomUUID()}@example.com`, password: "Passw0rd!long" });
  await platform("POST", `/accounts/${account.id}/account_users`, { user_id: user.id, role: "administrator" });
  const key: string = user.access_token;
  const api = (method: string, path: string, body?: unknown) => must(call(base, method, `/api/v1/accounts/${account.id}${path}`, key, body), `${method} ${path}`);
  const created = await api("POST", "/inboxes", {
    name: "Corner Shop website",
    enable_auto_assignment: false,
    ...inbox,
    channel: { type: "web_widget", website_url: "https://shop.example", welcome_title: "Hi there", ...channel },
  });
  await api("POST", "/inbox_members", { inbox_id: created.id, user_ids: [user.id] });
  const profile = await must(call(base, "GET", "/api/v1/profile", key), "profile");
  // npm start passes this server's own address as FRONTEND_URL when its port is not wrangler.toml's
  const configured = /var BASE_URL=("[^"]*")/.exec(created.web_widget_script)?.[1];
  expect(configured, "the snippet names this server").toBe(JSON.stringify(base));
  return {
    accountId: account.id,
    key,
    agent: { id: user.id, name: user.name, pubsubToken: profile.pubsub_token },
    inboxId: created.id,
    websiteToken: created.website_token,
    hmacToken: created.hmac_token,
    snippet: created.web_widget_script,
    api,
  };
}

/** Chatwoot's identity validation: HMAC-SHA256 of the identifier under the inbox's key, in hex. */
export const identifierHash = (hmacToken: string, identifier: string) => createHmac("sha256", hmacToken).update(identifier).digest("hex");

/** A shop page with the snippet before `</body>`, and `head` (settings, listeners) before it. */
export function shopPage(snippet: string, head = "") {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Corner Shop</title>
<style>body { font: 16px system-ui; margin: 2rem; } h1 { color: rgb(12, 34, 56); }</style>${head}</head>
<body><h1>Corner Shop</h1><p>Fresh bread every morning.</p>${snippet}</body></html>`;
}

/** The widget's iframe on a host page, once the loader made it. */
export async function widgetFrame(page: Page, timeout = 20_000): Promise<Frame> {
  const element = await page.waitForSelector("iframe#chatwoot_live_chat_widget", { timeout });
  const frame = await element!.contentFrame();
  if (!frame) throw new Error("the widget's iframe has no frame");
  await frame.waitForFunction(() => document.readyState === "complete", { timeout });
  return frame;
}

/** Waits until `frame`'s body text contains `text` (messages, typing, the home screen's texts). */
export async function waitForText(frame: Frame | Page, text: string, timeout = 10_000) {
  await frame.waitForFunction((t) => (document.body?.innerText ?? "").includes(t), { timeout, polling: 50 }, text);
}

/** Collects the host page's window events whose names start with `chatwoot:` into window.__events. */
export const RECORD_EVENTS = `<script>
window.__events = [];
for (const name of ["ready", "opened", "closed", "on-message", "on-start-conversation", "error", "postback"])
  window.addEventListener("chatwoot:" + name, (e) => window.__events.push({ name, detail: e.detail ?? null }));
</script>`;

export type FeedFrame = { event: string; data: any };

/**
 * The account's live feed as the agent sees it: an ActionCable connection to /cable subscribed to the
 * agent's RoomChannel (Node's global WebSocket: the project runs its tests on Node 22).
 */
export async function accountFeed(e2e: ServerAndBrowser, inbox: WebsiteInbox) {
  const frames: FeedFrame[] = [];
  const socket = new WebSocket(e2e.server.base.replace(/^http/, "ws") + "/cable", "actioncable-v1-json");
  const identifier = JSON.stringify({ channel: "RoomChannel", pubsub_token: inbox.agent.pubsubToken, account_id: inbox.accountId, user_id: inbox.agent.id });
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error("no confirm_subscription on the account feed")), 15_000);
    socket.addEventListener("error", () => reject(new Error("the account feed refused the socket")));
    socket.addEventListener("message", (event) => {
      const frame = JSON.parse(String(event.data));
      if (frame.type === "welcome") socket.send(JSON.stringify({ command: "subscribe", identifier }));
      if (frame.type === "confirm_subscription") {
        clearTimeout(timer);
        resolve();
      }
      if (frame.message?.event) frames.push(frame.message);
    });
  });
  return {
    frames,
    /** The first frame of `event` for which `match(data)` holds, waiting up to `timeout` ms. */
    async next(event: string, match: (data: any) => boolean, timeout = 10_000): Promise<FeedFrame> {
      const until = Date.now() + timeout;
      for (;;) {
        const found = frames.find((f) => f.event === event && match(f.data));
        if (found) return found;
        if (Date.now() > until) throw new Error(`no ${event} frame on the account feed within ${timeout} ms; saw ${frames.map((f) => f.event).join(", ")}`);
        await new Promise((r) => setTimeout(r, 50));
      }
    },
    close: () => socket.close(1000, "done"),
  };
}

/** Opens the widget with the launcher bubble, as a visitor does, and waits for the frame to show. */
export async function openWidget(page: Page) {
  await page.click(".woot-widget-bubble:not(.woot--close)");
  await page.waitForSelector(".woot-widget-holder:not(.woot--hide)", { timeout: 10_000 });
}

/**
 * The widget's composer, reached as a visitor would: from the home screen through its start (or continue)
 * button when the composer is not on screen yet.
 */
export async function composer(frame: Frame, timeout = 15_000) {
  await frame.waitForFunction(
    () => {
      const box = document.querySelector<HTMLTextAreaElement>("textarea.cw-composer__input");
      if (box && box.offsetParent !== null) return true;
      document.querySelector<HTMLButtonElement>(".cw-home .cw-button--block")?.click();
      return false;
    },
    { timeout, polling: 100 },
  );
  return (await frame.$("textarea.cw-composer__input"))!;
}

/** Types `text` into the widget's composer and sends it with Enter. */
export async function sendFromWidget(frame: Frame, text: string) {
  const box = await composer(frame);
  await box.type(text);
  await box.press("Enter");
}

/** Polls `read` until `done` holds for its answer (a write the widget shows before the server has it). */
export async function eventually<T>(read: () => Promise<T>, done: (value: T) => boolean, timeout = 10_000): Promise<T> {
  const until = Date.now() + timeout;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > until) throw new Error(`still not there after ${timeout} ms: ${JSON.stringify(value)}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/**
 * Waits until the widget has a returning visitor's history: its home screen offers to continue the
 * conversation, or the conversation is on screen. A visitor who opens the widget before that lands on the
 * home screen of a visitor without a conversation.
 */
export async function historyLoaded(frame: Frame) {
  try {
    await frame.waitForFunction(
      () => /Continue conversation/.test(document.querySelector(".cw-home .cw-button--block")?.textContent ?? "") || (document.querySelector(".cw-messages")?.children.length ?? 0) > 0,
      { timeout: 20_000, polling: 100 },
    );
  } catch (error) {
    // what the widget showed instead says which step did not come
    const shown = await frame.evaluate(() => document.body?.innerText ?? "").catch(() => "(the frame is gone)");
    throw new Error(`no history on screen at ${frame.url()}: ${JSON.stringify(shown.slice(0, 500))}`, { cause: error });
  }
}
