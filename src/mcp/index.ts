/**
 * /mcp: the Model Context Protocol's Streamable HTTP transport (docs/mcp.md), a transport
 * beside the routes. It is stateless: each POST carries one JSON-RPC message and gets its answer as JSON,
 * from a server built for that request (src/mcp/server.ts) behind the same checks as the account API: the
 * key and the account (mcpAuth), the `account_api` rate limit (one count per request, so one per tool
 * call), and the body read only after both. No session is kept, so there is no stream to open with GET
 * and no session to end with DELETE: both are 405, as the specification allows.
 */
import { Hono } from "hono";
import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import type { AppEnv } from "../http/app-env";
import { mcpAuth } from "../http/mcp-auth";
import { rateLimited } from "../http/rate-limit";
import { routeBody } from "../http/body";
import { undocumented } from "../http/openapi";
import { malformed } from "../domain/kernel/errors";
import { errorBody } from "../http/errors";
import { buildServer } from "./server";

const noStream = (method: string) => {
  const message = `${method} /mcp is not offered: this server keeps no session, so every message is a POST answered with JSON`;
  return errorBody(message, [{ field: "", message, code: "method_not_allowed" }]);
};

export const mcpApi = new Hono<AppEnv>()
  .use("*", mcpAuth, rateLimited("account_api"), routeBody)
  .post("/", undocumented("the MCP endpoint: JSON-RPC messages, described by its own tools/list"), async (c) => {
    const message: unknown = await c.req.json();
    // the current protocol revision sends one message per request; a batch would count as one request
    // against the rate limit however many tool calls it held
    if (Array.isArray(message)) throw malformed("Send one JSON-RPC message per request: batches are not part of this protocol revision");
    const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    const server = buildServer(c);
    await server.connect(transport);
    try {
      const answer = await transport.handleRequest(c.req.raw, { parsedBody: message });
      const headers = Object.fromEntries(answer.headers.entries());
      // a notification's 202 has no body; every other answer is one JSON message
      if (answer.body === null) return c.body(null, answer.status as 202, headers);
      return c.body(await answer.text(), answer.status as ContentfulStatusCode, headers);
    } finally {
      await server.close();
    }
  })
  .on(["GET", "DELETE"], "/", undocumented("no session and no stream: 405 (docs/mcp.md)"), (c) => {
    c.header("Allow", "POST");
    return c.json(noStream(c.req.method), 405);
  });
