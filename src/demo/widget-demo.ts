/**
 * GET /widget-demo: a page to try the public widget API and live rooms by hand. A visitor pane (public
 * API + its room socket) and an agent pane (account API + its room socket), side by side, for a
 * conversation the page sets up from a form (account id, key, inbox). Plain HTML and a small script,
 * served as they are: no build step. The key stays in the page; it is only sent to this server.
 */
import { Hono } from "hono";
import type { AppEnv } from "../http/app-env";
import { undocumented } from "../http/openapi";
import { SCRIPTED_PAGE_POLICY } from "../http/secure";

const PAGE = /* html */ `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>edgedesk widget demo</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<style>
  body { font: 15px/1.4 system-ui, sans-serif; margin: 1.5rem; color: #222; }
  form#setup { display: flex; flex-wrap: wrap; gap: .5rem; align-items: end; margin-bottom: 1rem; }
  label { display: flex; flex-direction: column; font-size: 12px; color: #555; }
  .panes { display: grid; grid-template-columns: 1fr 1fr; gap: 1rem; }
  .pane { border: 1px solid #ccc; border-radius: 8px; padding: .75rem; display: flex; flex-direction: column; gap: .5rem; }
  .log { height: 320px; overflow-y: auto; background: #fafafa; border-radius: 6px; padding: .5rem; }
  .msg { margin: .25rem 0; }
  .msg.private { color: #a15c00; }
  .typing { height: 1.2em; font-style: italic; color: #777; }
  .compose { display: flex; gap: .5rem; }
  .compose textarea { flex: 1; height: 3em; }
  #status { color: #555; }
</style>
</head>
<body>
<h1>Widget demo</h1>
<form id="setup">
  <label>Account id <input id="account" required size="6"></label>
  <label>Agent key (api_access_token) <input id="key" required size="40"></label>
  <label>Inbox id <input id="inbox" required size="6"></label>
  <label>Visitor name <input id="visitor-name" value="Visitor"></label>
  <button id="start">Start a conversation</button>
  <span id="status">Fill in the form: the page creates a visitor and a conversation in the inbox.</span>
</form>
<div class="panes">
  <section class="pane" id="visitor">
    <h2>Visitor (public API)</h2>
    <div class="log" id="visitor-log"></div>
    <div class="typing" id="visitor-typing"></div>
    <div class="compose"><textarea id="visitor-input" placeholder="Write as the visitor"></textarea><button id="visitor-send">Send</button></div>
  </section>
  <section class="pane" id="agent">
    <h2>Agent (account API)</h2>
    <div class="log" id="agent-log"></div>
    <div class="typing" id="agent-typing"></div>
    <div class="compose"><textarea id="agent-input" placeholder="Reply as the agent"></textarea><button id="agent-send">Send</button></div>
    <label><span><input type="checkbox" id="agent-private"> private note</span></label>
  </section>
</div>
<script src="/widget-demo/app.js"></script>
</body>
</html>`;

const SCRIPT = /* js */ `"use strict";
const $ = (id) => document.getElementById(id);
const wsBase = (location.protocol === "https:" ? "wss://" : "ws://") + location.host;

async function api(method, path, key, body) {
  const headers = { "content-type": "application/json" };
  if (key) headers.api_access_token = key;
  const res = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const json = await res.json().catch(() => null);
  if (!res.ok) throw new Error((json && json.description) || "HTTP " + res.status);
  return json;
}

// Sends "on" when typing starts and again every 3 s while it goes on (the server forgets an
// indicator after its time-to-live), and "off" after 2 s without a keystroke or when the message goes.
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

function pane(name) {
  const seen = new Set();
  return {
    show(message) {
      if (seen.has(message.id)) return;
      seen.add(message.id);
      const line = document.createElement("div");
      line.className = "msg" + (message.private ? " private" : "");
      const who = message.sender ? message.sender.name : "system";
      line.textContent = who + ": " + message.content + (message.private ? " (private)" : "");
      $(name + "-log").append(line);
      $(name + "-log").scrollTop = 1e9;
    },
    typing(frame, on) {
      $(name + "-typing").textContent = on ? frame.data.user.name + " is typing…" : "";
    },
  };
}

function listen(url, view) {
  const socket = new WebSocket(wsBase + url);
  socket.addEventListener("message", (event) => {
    if (event.data === "pong") return;
    const frame = JSON.parse(event.data);
    if (frame.event === "message.created" || frame.event === "message.updated") view.show(frame.data);
    if (frame.event === "conversation.typing_on") view.typing(frame, true);
    if (frame.event === "conversation.typing_off") view.typing(frame, false);
  });
  setInterval(() => socket.readyState === 1 && socket.send("ping"), 30000);
  return new Promise((resolve, reject) => {
    socket.addEventListener("open", () => resolve(socket));
    socket.addEventListener("error", () => reject(new Error("the socket did not open")));
  });
}

function wire(name, sendMessage, sendTyping, view) {
  const typing = typingSender(sendTyping);
  $(name + "-input").addEventListener("input", () => typing.keystroke());
  $(name + "-send").addEventListener("click", async () => {
    const content = $(name + "-input").value.trim();
    if (!content) return;
    typing.stop();
    $(name + "-input").value = "";
    view.show(await sendMessage(content));
  });
}

$("setup").addEventListener("submit", async (event) => {
  event.preventDefault();
  const status = $("status");
  try {
    const key = $("key").value.trim();
    const accountBase = "/api/v1/accounts/" + encodeURIComponent($("account").value.trim());
    const inboxes = await api("GET", accountBase + "/inboxes", key);
    const inbox = inboxes.payload.find((i) => String(i.id) === $("inbox").value.trim());
    if (!inbox) throw new Error("no such inbox in this account");
    const identifier = inbox.inbox_identifier || inbox.website_token;
    const inboxBase = "/public/api/v1/inboxes/" + encodeURIComponent(identifier);
    const contact = await api("POST", inboxBase + "/contacts", null, { name: $("visitor-name").value || "Visitor" });
    const contactBase = inboxBase + "/contacts/" + encodeURIComponent(contact.source_id);
    const conversation = await api("POST", contactBase + "/conversations", null, {});
    const publicConversation = contactBase + "/conversations/" + conversation.id;
    const agentConversation = accountBase + "/conversations/" + conversation.id;

    const visitor = pane("visitor");
    const agent = pane("agent");
    await listen(publicConversation + "/live?pubsub_token=" + encodeURIComponent(contact.pubsub_token), visitor);
    const ticket = await api("POST", agentConversation + "/live_ticket", key);
    await listen(ticket.url, agent);

    wire("visitor", (content) => api("POST", publicConversation + "/messages", null, { content }),
      (state) => api("POST", publicConversation + "/toggle_typing", null, { typing_status: state }), visitor);
    wire("agent", (content) => api("POST", agentConversation + "/messages", key, { content, private: $("agent-private").checked }),
      (state) => api("POST", agentConversation + "/toggle_typing_status", key, { typing_status: state, is_private: $("agent-private").checked }), agent);
    $("start").disabled = true;
    status.textContent = "Conversation " + conversation.id + " is live.";
    document.body.dataset.ready = "true";
  } catch (error) {
    status.textContent = "Could not start: " + error.message;
  }
});
`;

export const widgetDemo = new Hono<AppEnv>()
  .get("/", undocumented("a demo page, not part of the API"), (c) => c.html(PAGE, 200, { "Content-Security-Policy": SCRIPTED_PAGE_POLICY }))
  .get("/app.js", undocumented("the demo page's script"), (c) => c.body(SCRIPT, 200, { "content-type": "text/javascript; charset=utf-8" }));
