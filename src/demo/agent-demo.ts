/**
 * GET /agent-demo: a page to try what an agent's app gets, by hand. It signs in as Chatwoot's apps do
 * (POST /auth/sign_in and its access-token, client and uid headers), lists the account's conversations,
 * its agents with a presence dot each and the agent's notifications with an unread badge, and keeps all
 * three live over the account feed at /cable. It talks to the feed through @rails/actioncable, the
 * client Chatwoot's dashboard uses, served from this Worker as a static asset (/vendor/actioncable.js,
 * wrangler.toml [assets]): the page loads nothing from elsewhere.
 * Plain HTML and a small script, no build step; the session's headers stay in the page.
 */
import { Hono } from "hono";
import type { AppEnv } from "../http/app-env";
import { undocumented } from "../http/openapi";
import { SCRIPTED_PAGE_POLICY } from "../http/secure";
import { layout } from "../pages/kit";

const PAGE = layout({
  title: "edgedesk agent demo",
  style: /* css */ `
  body { font-size: 15px; line-height: 1.4; margin: 1.5rem; }
  form#sign-in { display: flex; flex-wrap: wrap; gap: .5rem; align-items: end; margin-bottom: 1rem; }
  label { display: flex; flex-direction: column; font-size: 12px; color: var(--muted); }
  .columns { display: grid; grid-template-columns: 2fr 1fr 1fr; gap: 1rem; }
  section { border: 1px solid var(--border); border-radius: var(--radius); padding: .75rem; background: var(--surface); }
  ul { list-style: none; padding: 0; margin: 0; }
  li { padding: .35rem 0; border-bottom: 1px solid var(--border); }
  .conversation .actions { display: flex; gap: .35rem; margin-top: .25rem; }
  .dot { display: inline-block; width: .6em; height: .6em; border-radius: 50%; margin-right: .4em; background: #bbb; }
  .dot.online { background: #2a2; } .dot.busy { background: #e90; } .dot.offline { background: #bbb; }
  .badge { background: #c22; color: #fff; border-radius: 1em; padding: 0 .5em; font-size: 12px; }
  .notification.unread { font-weight: 600; }`,
  body: /* html */ `
<h1>Agent demo</h1>
<form id="sign-in">
  <label>E-mail <input id="email" type="email" required size="28" autocomplete="username"></label>
  <label>Password <input id="password" type="password" required size="18" autocomplete="current-password"></label>
  <button id="go">Sign in</button>
  <span id="status" class="muted">Sign in as an agent: the page follows the account live.</span>
</form>
<div class="columns">
  <section><h2>Conversations</h2><ul id="conversations"></ul></section>
  <section><h2>Agents</h2><ul id="agents"></ul></section>
  <section><h2>Notifications <span class="badge" id="unread">0</span></h2><ul id="notifications"></ul></section>
</div>`,
  scripts: ["/vendor/actioncable.js", "/agent-demo/app.js"],
});

const SCRIPT = /* js */ `"use strict";
const $ = (id) => document.getElementById(id);
const session = { headers: {}, user: null, accountId: null };
const agents = new Map();
const conversations = new Map();

async function api(method, path, body) {
  const headers = { "content-type": "application/json", ...session.headers };
  const res = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const json = await res.json().catch(() => null);
  if (!res.ok) throw new Error((json && json.description) || "HTTP " + res.status);
  return json;
}
const accountPath = (path) => "/api/v1/accounts/" + session.accountId + path;

function el(tag, className, text) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
}

function renderAgents() {
  const list = $("agents");
  list.replaceChildren();
  for (const agent of agents.values()) {
    const item = el("li", "agent");
    item.id = "agent-" + agent.id;
    item.dataset.status = agent.availability_status;
    item.append(el("span", "dot " + agent.availability_status), el("span", "", agent.name + (agent.id === session.user.id ? " (you)" : "")));
    list.append(item);
  }
}

function renderConversation(conversation) {
  conversations.set(conversation.id, conversation);
  let item = $("conversation-" + conversation.id);
  if (!item) {
    item = el("li", "conversation");
    item.id = "conversation-" + conversation.id;
    $("conversations").prepend(item);
  }
  const meta = conversation.meta || {};
  const last = (conversation.messages || []).slice(-1)[0];
  const assignee = meta.assignee ? meta.assignee.name : "unassigned";
  item.dataset.status = conversation.status;
  item.dataset.assignee = meta.assignee ? String(meta.assignee.id) : "";
  const line = el("div", "summary", "#" + conversation.id + " " + (meta.sender ? meta.sender.name : "") + " · " + conversation.status + " · " + assignee);
  const preview = el("div", "preview", last ? last.content || "" : "");
  const actions = el("div", "actions");
  const toggle = el("button", "toggle", conversation.status === "open" ? "Resolve" : "Reopen");
  toggle.addEventListener("click", () => api("POST", accountPath("/conversations/" + conversation.id + "/toggle_status"), { status: conversation.status === "open" ? "resolved" : "open" }));
  const assign = el("select", "assign");
  assign.append(new Option("Assign to…", ""));
  for (const agent of agents.values()) assign.append(new Option(agent.name, String(agent.id)));
  assign.addEventListener("change", () => assign.value && api("POST", accountPath("/conversations/" + conversation.id + "/assignments"), { assignee_id: Number(assign.value) }));
  actions.append(toggle, assign);
  item.replaceChildren(line, preview, actions);
}

function renderNotification(notification) {
  let item = $("notification-" + notification.id);
  if (!item) {
    item = el("li", "notification");
    item.id = "notification-" + notification.id;
    $("notifications").prepend(item);
  }
  item.classList.toggle("unread", !notification.read_at);
  item.textContent = notification.push_message_title || notification.notification_type;
}

const setUnread = (count) => ($("unread").textContent = String(count));

function onFeed(frame) {
  const { event, data } = frame;
  if (!data || data.account_id !== session.accountId) return; // as the apps do: other accounts' frames are not ours
  if (event.startsWith("conversation.") && data.id && data.meta) renderConversation(data);
  if (event === "assignee.changed" || event === "team.changed") renderConversation(data);
  if (event === "message.created" && data.conversation_id) {
    const known = conversations.get(data.conversation_id);
    if (known) renderConversation({ ...known, messages: [data] });
  }
  if (event === "presence.update") {
    for (const [id, status] of Object.entries(data.users || {})) {
      const agent = agents.get(Number(id));
      if (agent) agent.availability_status = status;
    }
    for (const agent of agents.values()) if (!(String(agent.id) in (data.users || {}))) agent.availability_status = "offline";
    renderAgents();
  }
  if (event === "notification.created" || event === "notification.updated") {
    renderNotification(data.notification);
    setUnread(data.unread_count);
  }
  if (event === "notification.deleted") {
    $("notification-" + data.notification.id)?.remove();
    setUnread(data.unread_count);
  }
}

function connectFeed() {
  const consumer = ActionCable.createConsumer("/cable");
  return new Promise((resolve) => {
    const subscription = consumer.subscriptions.create(
      { channel: "RoomChannel", pubsub_token: session.user.pubsub_token, account_id: session.accountId, user_id: session.user.id },
      {
        connected: () => resolve(subscription),
        received: onFeed,
      },
    );
    setInterval(() => subscription.perform("update_presence"), 20000);
  });
}

$("sign-in").addEventListener("submit", async (event) => {
  event.preventDefault();
  const status = $("status");
  try {
    const res = await fetch("/auth/sign_in", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ email: $("email").value.trim(), password: $("password").value }) });
    const json = await res.json();
    if (!res.ok) throw new Error(json.description || "HTTP " + res.status);
    for (const name of ["access-token", "client", "uid"]) session.headers[name] = res.headers.get(name);
    session.user = json.data;
    session.accountId = json.data.account_id;
    for (const agent of await api("GET", accountPath("/agents"))) agents.set(agent.id, agent);
    renderAgents();
    const list = await api("GET", accountPath("/conversations?status=all"));
    for (const conversation of list.data.payload.slice().reverse()) renderConversation(conversation);
    const notifications = await api("GET", accountPath("/notifications"));
    for (const notification of notifications.data.payload.slice().reverse()) renderNotification(notification);
    setUnread(notifications.data.meta.unread_count);
    await connectFeed();
    $("go").disabled = true;
    status.textContent = "Signed in as " + session.user.name + "; following account " + session.accountId + " live.";
    document.body.dataset.ready = "true";
  } catch (error) {
    status.textContent = "Could not sign in: " + error.message;
  }
});
`;

const javascript = { "content-type": "text/javascript; charset=utf-8" };

export const agentDemo = new Hono<AppEnv>()
  .get("/", undocumented("a demo page, not part of the API"), (c) => c.html(PAGE, 200, { "Content-Security-Policy": SCRIPTED_PAGE_POLICY }))
  .get("/app.js", undocumented("the demo page's script"), (c) => c.body(SCRIPT, 200, javascript));
