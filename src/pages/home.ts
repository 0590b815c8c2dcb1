/**
 * GET /: a small page for a person who opens the server's address, pointing at what there is to read
 * and try: the API reference, the API document and the two demo pages. Nothing loads from elsewhere.
 */
import { Hono } from "hono";
import type { AppEnv } from "../http/app-env";
import { undocumented } from "../http/openapi";

const PAGE_POLICY = "default-src 'none'; style-src 'unsafe-inline'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

const PAGE = /* html */ `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>edgedesk</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<style>
  body { font: 16px/1.5 system-ui, sans-serif; max-width: 40rem; margin: 3rem auto; padding: 0 1rem; color: #1f2d3d; }
  h1 { margin-bottom: .25rem; }
  p.lead { margin-top: 0; color: #52606d; }
  dt { margin-top: 1rem; font-weight: 600; }
  dd { margin-left: 0; color: #3c4858; }
</style>
</head>
<body>
<h1>edgedesk</h1>
<p class="lead">A customer-conversation desk API that speaks Chatwoot's API.</p>
<dl>
  <dt><a href="/docs">API reference</a></dt>
  <dd>Every route of the Platform, account and public APIs, with its parameters and answers.</dd>
  <dt><a href="/openapi.json">OpenAPI document</a></dt>
  <dd>The same reference as OpenAPI 3.1, for code generators and API clients.</dd>
  <dt><a href="/widget-demo">Widget demo</a></dt>
  <dd>A website with the chat widget embedded by its snippet, and the agent beside it: messages and typing live both ways.</dd>
  <dt><a href="/agent-demo">Agent demo</a></dt>
  <dd>Sign in as an agent: conversations, presence and notifications over the live account feed.</dd>
</dl>
</body>
</html>`;

export const homePage = new Hono<AppEnv>().get("/", undocumented("a page for people, pointing at the docs and demos"), (c) =>
  c.html(PAGE, 200, { "Content-Security-Policy": PAGE_POLICY }),
);
