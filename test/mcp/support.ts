/**
 * TEST SETUP for the MCP tests: the official SDK's client over its Streamable HTTP transport, whose
 * fetch is the Worker's own (the test runtime's `exports.default.fetch`), so every message crosses
 * the Worker's HTTP door as a remote client's would.
 */
import { exports } from "cloudflare:workers";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";

export const MCP_URL = "https://desk.test/mcp";

/** Every request the client made, for the round-trip counts. */
export type Trace = { requests: number };

export function workerFetch(trace?: Trace): typeof fetch {
  return async (input, init) => {
    if (trace) trace.requests++;
    return exports.default.fetch(new Request(input, init));
  };
}

/** A connected client for `key`, naming `accountId` when given (X-Account-Id). */
export async function connect(key: string | null, accountId?: number, trace?: Trace): Promise<Client> {
  const headers: Record<string, string> = {};
  if (key) headers.authorization = `Bearer ${key}`;
  if (accountId !== undefined) headers["x-account-id"] = String(accountId);
  const transport = new StreamableHTTPClientTransport(new URL(MCP_URL), { fetch: workerFetch(trace), requestInit: { headers } });
  const client = new Client({ name: "edgedesk-test", version: "1.0.0" });
  await client.connect(transport);
  return client;
}

/** A tool's answer: the parsed JSON of its text, whether it is an error, and the error's HTTP status. */
export async function callTool(client: Client, name: string, args: Record<string, unknown> = {}) {
  const result = (await client.callTool({ name, arguments: args })) as { isError?: boolean; content: Array<{ type: string; text: string }>; _meta?: { status?: number } };
  return { isError: result.isError === true, status: result._meta?.status ?? 200, body: JSON.parse(result.content[0].text) };
}

/** One tools/call as raw JSON-RPC over HTTP (for tables of calls that need no client state). */
export async function rawToolCall(key: string | null, accountId: number, name: string, args: Record<string, unknown>) {
  const headers: Record<string, string> = { accept: "application/json, text/event-stream", "content-type": "application/json", "x-account-id": String(accountId) };
  if (key) headers.authorization = `Bearer ${key}`;
  const res = await exports.default.fetch(
    new Request(MCP_URL, { method: "POST", headers, body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name, arguments: args } }) }),
  );
  const body: any = await res.json();
  if (res.status !== 200 || !body.result) return { httpStatus: res.status, status: res.status, isError: true, body };
  const result = body.result;
  return { httpStatus: 200, status: result._meta?.status ?? 200, isError: result.isError === true, body: JSON.parse(result.content[0].text) };
}
