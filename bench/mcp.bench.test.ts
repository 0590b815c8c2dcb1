/**
 * What a tool call over /mcp costs beside the API route it mirrors: the round trips and D1 rows read
 * (Server-Timing) and the median latency of one tools/call as a ratio to the route, measured in the same
 * run. A tool runs the route's domain function behind the same door (key, account, rate limit), so the
 * target is 1.0 in round trips; the latency adds the JSON-RPC envelope and the per-request MCP server.
 * Prints a markdown table.
 */
import { expect, it } from "vitest";
import { createWorld } from "../test/support/world";
import { post } from "../test/support/http";
import { type Sample, measure } from "./lib/measure";

const RUNS = 7;
const BLOCK = 5;
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

type Call = { path: string; headers: Record<string, string>; init: { method?: string; body?: string } };

async function medianOf(call: Call) {
  const blocks: number[] = [];
  let first: Sample | null = null;
  for (let i = 0; i < RUNS; i++) {
    const samples: Sample[] = [];
    for (let j = 0; j < BLOCK; j++) samples.push(await measure(call.path, call.headers, call.init));
    expect(samples.every((s) => s.status === 200), call.path).toBe(true);
    first ??= samples[0];
    blocks.push(samples.reduce((sum, s) => sum + s.ms, 0) / BLOCK);
  }
  return { ...first!, ms: median(blocks) };
}

it("measures a tool call against the route it mirrors", { timeout: 600_000 }, async () => {
  const w = await createWorld("Bench Mcp");
  const key = w.admin.key;
  const inbox = (await post(`${w.base}/inboxes`, key, { name: "Support", channel: { type: "api" } })).body;
  const contact = (await post(`${w.base}/contacts`, key, { name: "Customer", email: "bench.customer@example.com", inbox_id: inbox.id })).body.payload.contact;
  const conversation = (await post(`${w.base}/conversations`, key, { inbox_id: inbox.id, contact_id: contact.id })).body;
  await post(`${w.base}/canned_responses`, key, { short_code: "hi", content: "Hello" });
  for (let i = 0; i < 20; i++) await post(`${w.base}/conversations/${conversation.id}/messages`, key, { content: `Message ${i} about parcels` });

  const api = (method: string, path: string, body?: unknown): Call => ({
    path: `${w.base}${path}`,
    headers: { api_access_token: key, "content-type": "application/json" },
    init: { method, body: body === undefined ? undefined : JSON.stringify(body) },
  });
  const tool = (name: string, args: Record<string, unknown>): Call => ({
    path: "/mcp",
    headers: { authorization: `Bearer ${key}`, "x-account-id": String(w.accountId), accept: "application/json, text/event-stream", "content-type": "application/json" },
    init: { method: "POST", body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name, arguments: args } }) },
  });
  const c = conversation.id;
  const pairs: Array<[string, Call, Call]> = [
    ["search", tool("search", { q: "parcels", kinds: ["messages"] }), api("GET", "/search/messages?q=parcels")],
    ["list_conversations", tool("list_conversations", { status: "open" }), api("GET", "/conversations?status=open")],
    ["read_contact", tool("read_contact", { contact_id: contact.id }), api("GET", `/contacts/${contact.id}`)],
    ["reply", tool("reply", { conversation_id: c, content: "Thanks" }), api("POST", `/conversations/${c}/messages`, { content: "Thanks" })],
    ["set_priority", tool("set_priority", { conversation_id: c, priority: "high" }), api("POST", `/conversations/${c}/toggle_priority`, { priority: "high" })],
    ["list_canned_responses", tool("list_canned_responses", {}), api("GET", "/canned_responses")],
  ];
  for (let i = 0; i < 30; i++) await measure("/api"); // warm-up
  const lines = [
    "| tool (route) | round trips, tool / route | rows read, tool / route | median ms, tool / route | latency ratio |",
    "|---|---|---|---|---|",
  ];
  for (const [name, overMcp, overApi] of pairs) {
    const route = await medianOf(overApi);
    const viaTool = await medianOf(overMcp);
    lines.push(
      `| ${name} | ${viaTool.roundTrips} / ${route.roundTrips} | ${viaTool.rowsRead} / ${route.rowsRead} | ${viaTool.ms.toFixed(2)} / ${route.ms.toFixed(2)} | ${(viaTool.ms / route.ms).toFixed(2)} |`,
    );
    expect(viaTool.roundTrips, name).toBe(route.roundTrips);
  }
  console.log(lines.join("\n"));
});
