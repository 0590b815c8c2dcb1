/**
 * GET /widget-demo: the website widget as a customer's site shows it, with the agent's side beside it, to
 * try by hand. The left half plays the customer's website: it embeds the widget the way the snippet of a
 * website inbox does (`<script src=BASE/packs/js/sdk.js>`, then window.chatwootSDK.run). The right half
 * is the agent: it follows the account's live feed on /cable (ActionCable, served from /vendor/ as the
 * agent demo does) and answers through the account API, with typing both ways.
 *
 * The page sets itself up from a form (account id and an administrator's key): it uses the account's
 * website inbox named "Demo website", or makes one. The key stays in the page and is only sent to this
 * origin. Plain HTML and a small script, no build step.
 *
 * `?base=` points the snippet at another origin of this machine (http://127.0.0.1:8787 while the page is
 * opened as http://localhost:8787), so the widget runs in a cross-site frame as on a real website. Only
 * loopback origins are accepted, and only on a page opened on a loopback address: the page's script policy
 * names the base, and a page of this origin must never load scripts from an origin a link chose.
 */
import { Hono } from "hono";
import type { AppEnv } from "../http/app-env";
import { undocumented } from "../http/openapi";
import { layout } from "../pages/kit";

const DEMO_INBOX_NAME = "Demo website";

const LOOPBACK_HOSTS = new Set(["localhost", "127.0.0.1", "[::1]"]);

/**
 * The origin the snippet loads the widget from: `?base=` when both this page and the base are on a
 * loopback address (a local server), else this page's own. A deployed page never takes it: an
 * administrator types their key there, and a link must not make it run a script from whatever listens
 * on a port of the visitor's own machine.
 */
function snippetBase(requestUrl: string, base: string | undefined): string {
  const page = new URL(requestUrl);
  const own = page.origin;
  if (!base || !LOOPBACK_HOSTS.has(page.hostname)) return own;
  try {
    const url = new URL(base);
    if ((url.protocol === "http:" || url.protocol === "https:") && LOOPBACK_HOSTS.has(url.hostname)) return url.origin;
  } catch {
    // not a URL: the page's own origin
  }
  return own;
}

/**
 * The page's policy: its own script, the loader from the snippet's base, and the widget's frame from
 * there; inline styles (the loader styles its own elements); fetches to this origin (the agent's API and
 * feed) and the base (the loader fetches the new-message sound); no framing of the page itself.
 */
function pagePolicy(own: string, base: string) {
  const widget = base === own ? "" : ` ${base}`;
  return [
    "default-src 'none'",
    `script-src 'self'${widget}`,
    "style-src 'self' 'unsafe-inline'",
    `img-src 'self'${widget} data: blob:`,
    `media-src 'self'${widget} data: blob:`,
    `connect-src 'self'${widget}`,
    `frame-src 'self'${widget}`,
    "form-action 'none'",
    "base-uri 'none'",
    "frame-ancestors 'none'",
  ].join("; ");
}

const escapeAttribute = (value: string) => value.replace(/&/g, "&amp;").replace(/"/g, "&quot;").replace(/</g, "&lt;");

/** The page's own rules, on the kit's colours (so light and dark follow the reader's setting). */
const STYLE = /* css */ `
  #demo header { padding: 1rem 1.5rem; border-bottom: 1px solid var(--border); }
  #demo h1 { margin: 0 0 .5rem; font-size: 1.3rem; }
  form#setup { display: flex; flex-wrap: wrap; gap: .5rem; align-items: end; }
  form#setup label { display: flex; flex-direction: column; font-size: 12px; color: var(--muted); }
  #status { color: var(--muted); }
  .halves { display: grid; grid-template-columns: 1fr 1fr; min-height: calc(100vh - 7rem); }
  .site { background: var(--surface); padding: 1.5rem; }
  .site h2 { font-family: Georgia, serif; color: var(--warning); margin-top: 0; }
  .site .note { color: var(--muted); font-size: 13px; }
  .agent { border-left: 1px solid var(--border); padding: 1rem 1.5rem; display: flex; flex-direction: column; gap: .5rem; }
  .agent h2 { margin: 0; font-size: 1.1rem; }
  #agent-conversation { color: var(--muted); font-size: 13px; }
  .log { height: 360px; overflow-y: auto; background: var(--sunken); border: 1px solid var(--border); border-radius: var(--radius); padding: .5rem; }
  .msg { margin: .25rem 0; }
  .msg.private { color: var(--warning); }
  .typing { height: 1.2em; font-style: italic; color: var(--muted); }
  .compose { display: flex; gap: .5rem; }
  .compose textarea { flex: 1; height: 3em; }
`;

/** The page on the kit; the snippet's base rides on the demo's wrapper, where the page's script reads it. */
const page = (base: string) =>
  layout({
    title: "edgedesk widget demo",
    style: STYLE,
    body: /* html */ `<div id="demo" data-base="${escapeAttribute(base)}">
<header>
<h1>Widget demo</h1>
<form id="setup">
  <label>Account id <input id="account" required size="6"></label>
  <label>Administrator's key (api_access_token) <input id="key" required size="40"></label>
  <label>Visitor name (optional: sent with setUser) <input id="visitor-name" size="16"></label>
  <button id="start">Open the demo</button>
  <span id="status">The page uses the account's website inbox "${DEMO_INBOX_NAME}" (or makes it) and embeds its widget.</span>
</form>
</header>
<div class="halves">
  <section class="site" aria-label="The customer's website">
    <h2>Corner Bakery</h2>
    <p>Sourdough, rye and seeded loaves, baked every morning. Orders close at 6 pm.</p>
    <p class="note">This half is the customer's website: the chat bubble in its corner is the widget, embedded with the website inbox's snippet from <span id="base"></span>.</p>
  </section>
  <section class="agent" aria-label="The agent">
    <h2>Agent (account API and live feed)</h2>
    <div id="agent-conversation">No conversation yet: write in the widget.</div>
    <div class="log" id="agent-log" role="log" aria-live="polite"></div>
    <div class="typing" id="agent-typing"></div>
    <div class="compose"><textarea id="agent-input" placeholder="Reply as the agent" aria-label="Reply"></textarea><button id="agent-send">Send</button></div>
    <div class="compose">
      <label><span><input type="checkbox" id="agent-private"> private note</span></label>
      <button id="agent-resolve" type="button">Resolve (asks for a rating when the inbox's CSAT survey is on)</button>
    </div>
  </section>
</div>
</div>`,
    scripts: ["/vendor/actioncable.js", "/widget-demo/app.js"],
  });

const SCRIPT = /* js */ `"use strict";
const $ = (id) => document.getElementById(id);
const base = $("demo").dataset.base;
const state = { key: "", accountId: "", inbox: null, conversationId: null, seen: new Set() };

async function api(method, path, body) {
  const headers = { "content-type": "application/json", api_access_token: state.key };
  const res = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const json = await res.json().catch(() => null);
  if (!res.ok) throw new Error((json && json.description) || "HTTP " + res.status);
  return json;
}
const accountPath = (path) => "/api/v1/accounts/" + encodeURIComponent(state.accountId) + path;

/** The account's website inbox for the demo, made on first use (with the signed-in agent as its member). */
async function demoInbox(me) {
  const inboxes = await api("GET", accountPath("/inboxes"));
  const found = inboxes.payload.find((i) => i.name === ${JSON.stringify(DEMO_INBOX_NAME)} && i.website_token);
  if (found) return found;
  const inbox = await api("POST", accountPath("/inboxes"), {
    name: ${JSON.stringify(DEMO_INBOX_NAME)},
    enable_auto_assignment: false,
    channel: { type: "web_widget", website_url: location.origin, welcome_title: "Hi there!", welcome_tagline: "Ask us about today's bread." },
  });
  await api("POST", accountPath("/inbox_members"), { inbox_id: inbox.id, user_ids: [me.id] });
  return inbox;
}

function showMessage(message) {
  if (state.seen.has(message.id) || message.message_type === 2) return;
  state.seen.add(message.id);
  const line = document.createElement("div");
  line.className = "msg" + (message.private ? " private" : "");
  const who = message.sender ? message.sender.name : "system";
  line.textContent = who + ": " + (message.content || "") + (message.private ? " (private)" : "");
  $("agent-log").append(line);
  $("agent-log").scrollTop = 1e9;
}

async function follow(conversationId) {
  if (state.conversationId === conversationId) return;
  state.conversationId = conversationId;
  state.seen.clear();
  $("agent-log").replaceChildren();
  $("agent-typing").textContent = "";
  $("agent-conversation").textContent = "Conversation #" + conversationId;
  const messages = await api("GET", accountPath("/conversations/" + conversationId + "/messages"));
  for (const message of messages.payload) showMessage(message);
}

function onFeed(frame) {
  const { event, data } = frame;
  if (!data || data.account_id !== Number(state.accountId)) return; // as the apps do: other accounts' frames are not ours
  if (event === "conversation.created" && data.inbox_id === state.inbox.id) return follow(data.id);
  if ((event === "message.created" || event === "message.updated") && data.inbox_id === state.inbox.id) {
    if (data.conversation_id !== state.conversationId) return follow(data.conversation_id);
    return showMessage(data);
  }
  if ((event === "conversation.typing_on" || event === "conversation.typing_off") && data.conversation && data.conversation.id === state.conversationId) {
    $("agent-typing").textContent = event === "conversation.typing_on" ? data.user.name + " is typing…" : "";
  }
}

function connectFeed(me) {
  const consumer = ActionCable.createConsumer("/cable");
  return new Promise((resolve) => {
    const subscription = consumer.subscriptions.create(
      { channel: "RoomChannel", pubsub_token: me.pubsub_token, account_id: Number(state.accountId), user_id: me.id },
      { connected: () => resolve(subscription), received: onFeed },
    );
    setInterval(() => subscription.perform("update_presence"), 20000);
  });
}

// The agent's typing: "on" when typing starts and again every 3 s while it goes on (the server forgets an
// indicator after its time-to-live), "off" after 2 s without a keystroke or when the message goes.
function typingSender(send) {
  let on = false, last = 0, idle = null;
  const off = () => { clearTimeout(idle); if (on) { on = false; send("off"); } };
  return {
    keystroke() {
      const now = Date.now();
      if (!on || now - last > 3000) { on = true; last = now; send("on"); }
      clearTimeout(idle);
      idle = setTimeout(off, 2000);
    },
    stop: off,
  };
}

function wireAgent() {
  const conversationPath = (path) => accountPath("/conversations/" + state.conversationId + path);
  const typing = typingSender((status) => state.conversationId && api("POST", conversationPath("/toggle_typing_status"), { typing_status: status, is_private: $("agent-private").checked }).catch(() => undefined));
  $("agent-input").addEventListener("input", () => typing.keystroke());
  $("agent-send").addEventListener("click", async () => {
    const content = $("agent-input").value.trim();
    if (!content || !state.conversationId) return;
    typing.stop();
    $("agent-input").value = "";
    showMessage(await api("POST", conversationPath("/messages"), { content, private: $("agent-private").checked }));
  });
  $("agent-resolve").addEventListener("click", () => state.conversationId && api("POST", conversationPath("/toggle_status"), { status: "resolved" }));
}

/** The website's half: what the inbox's snippet does, plus setUser once the widget is ready when a name is given. */
function embedWidget(websiteToken) {
  window.chatwootSettings = { position: "left" };
  const name = $("visitor-name").value.trim();
  if (name) {
    window.addEventListener("chatwoot:ready", () => {
      let identifier = localStorage.getItem("edgedesk-demo-visitor");
      if (!identifier) localStorage.setItem("edgedesk-demo-visitor", (identifier = "demo-" + crypto.randomUUID()));
      window.$chatwoot.setUser(identifier, { name });
    }, { once: true });
  }
  const script = document.createElement("script");
  script.src = base + "/packs/js/sdk.js";
  script.async = true;
  script.onload = () => window.chatwootSDK.run({ websiteToken, baseUrl: base });
  document.body.append(script);
}

$("base").textContent = base;
$("setup").addEventListener("submit", async (event) => {
  event.preventDefault();
  const status = $("status");
  try {
    state.key = $("key").value.trim();
    state.accountId = $("account").value.trim();
    state.me = await api("GET", "/api/v1/profile");
    state.inbox = await demoInbox(state.me);
    await connectFeed(state.me);
    const recent = await api("GET", accountPath("/conversations?status=all&inbox_id=" + state.inbox.id));
    if (recent.data.payload.length) await follow(recent.data.payload[0].id);
    wireAgent();
    embedWidget(state.inbox.website_token);
    $("start").disabled = true;
    status.textContent = "Inbox " + state.inbox.id + " (" + state.inbox.name + "): open the bubble and write.";
    document.body.dataset.websiteToken = state.inbox.website_token;
    document.body.dataset.ready = "true";
  } catch (error) {
    status.textContent = "Could not start: " + error.message;
  }
});
`;

export const widgetDemo = new Hono<AppEnv>()
  .get("/", undocumented("a demo page, not part of the API"), (c) => {
    const base = snippetBase(c.req.url, c.req.query("base"));
    return c.html(page(base), 200, { "Content-Security-Policy": pagePolicy(new URL(c.req.url).origin, base) });
  })
  .get("/app.js", undocumented("the demo page's script"), (c) => c.body(SCRIPT, 200, { "content-type": "text/javascript; charset=utf-8" }));
