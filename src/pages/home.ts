/**
 * GET /: a small page for a person who opens the server's address, pointing at what there is to read
 * and try: the API reference, the API document and the two demo pages. Nothing loads from elsewhere.
 */
import { Hono } from "hono";
import type { AppEnv } from "../http/app-env";
import { undocumented } from "../http/openapi";
import { pagePolicy } from "../http/secure";
import { layout } from "./kit";

const PAGE = layout({
  title: "edgedesk",
  style: /* css */ `
  h1 { margin-bottom: .25rem; }
  p.lead { margin-top: 0; }
  dt { margin-top: 1rem; font-weight: 600; }
  dd { margin-left: 0; }`,
  bodyClass: "narrow",
  body: /* html */ `
<h1>edgedesk</h1>
<p class="lead muted">A customer-conversation desk API that speaks Chatwoot's API.</p>
<dl>
  <dt><a href="/docs">API reference</a></dt>
  <dd class="muted">Every route of the Platform, account and public APIs, with its parameters and answers.</dd>
  <dt><a href="/openapi.json">OpenAPI document</a></dt>
  <dd class="muted">The same reference as OpenAPI 3.1, for code generators and API clients.</dd>
  <dt><a href="/widget-demo">Widget demo</a></dt>
  <dd class="muted">A website with the chat widget embedded by its snippet, and the agent beside it: messages and typing live both ways.</dd>
  <dt><a href="/agent-demo">Agent demo</a></dt>
  <dd class="muted">Sign in as an agent: conversations, presence and notifications over the live account feed.</dd>
</dl>`,
});

export const homePage = new Hono<AppEnv>().get("/", undocumented("a page for people, pointing at the docs and demos"), (c) =>
  c.html(PAGE, 200, { "Content-Security-Policy": pagePolicy() }),
);
