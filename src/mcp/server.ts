/**
 * One MCP server per request (the Worker keeps no session: docs/mcp.md), over the
 * request's context: the door (src/http/mcp-auth.ts) has proven the key and entered the account, so
 * every tool, resource and prompt acts as that key's holder in that account, through accountScope.
 *
 * Tools are served with the SDK's low-level handlers rather than McpServer.registerTool, so that a tool's
 * arguments are checked by the route's zod schemas the way the route checks them and a refusal carries the
 * API's error body (an `isError` result whose text is the body, `_meta.status` its HTTP status).
 */
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { CallToolRequestSchema, ErrorCode, ListToolsRequestSchema, McpError, type CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { z } from "zod";
import pkg from "../../package.json";
import { invalid } from "../domain/kernel/errors";
import type { AppContext } from "../http/app-env";
import { refuseBot, refuseWhileMoving } from "../http/auth";
import { answerOf } from "./answers";
import { issuesToErrors } from "../http/validate";
import { registerPrompts } from "./prompts";
import { registerResources } from "./resources";
import { TOOLS, type Tool } from "./tools";

const INSTRUCTIONS =
  "edgedesk is a customer-conversation desk. Every tool acts with the rights of the key in use, in one account. " +
  "Conversation ids are the display ids the desk shows (#12). Search the help center before answering a contact; " +
  "write private notes for the team and replies for the contact; hand over (handoff) what the help center does not answer.";

/** The tools this key may call: an agent bot key sees only the ones bots may use. */
const toolsFor = (c: AppContext) => TOOLS.filter((tool) => tool.bots || c.var.actor.type !== "agent_bot");

/** A tool's input as JSON Schema, from its zod schema (the values it accepts once parsed). */
const inputSchemaOf = (tool: Tool) => z.toJSONSchema(tool.input, { io: "output", unrepresentable: "any" }) as { type: "object"; [key: string]: unknown };

export function buildServer(c: AppContext): McpServer {
  const server = new McpServer({ name: "edgedesk", version: pkg.version }, { capabilities: { tools: {}, resources: {}, prompts: {} }, instructions: INSTRUCTIONS });
  server.server.setRequestHandler(ListToolsRequestSchema, () => ({
    tools: toolsFor(c).map((tool) => ({
      name: tool.name,
      title: tool.title,
      description: tool.description,
      inputSchema: inputSchemaOf(tool),
      annotations: { title: tool.title, readOnlyHint: !tool.writes, destructiveHint: false, openWorldHint: false },
    })),
  }));
  server.server.setRequestHandler(CallToolRequestSchema, async (request) => {
    const tool = TOOLS.find((t) => t.name === request.params.name);
    if (!tool) throw new McpError(ErrorCode.InvalidParams, `Unknown tool ${request.params.name}`);
    return callTool(c, tool, request.params.arguments ?? {});
  });
  registerResources(server, c);
  registerPrompts(server);
  return server;
}

async function callTool(c: AppContext, tool: Tool, args: unknown): Promise<CallToolResult> {
  try {
    if (!tool.bots && c.var.actor.type === "agent_bot") refuseBot();
    if (tool.writes) refuseWhileMoving(c);
    const parsed = await tool.input.safeParseAsync(args, { reportInput: true });
    if (!parsed.success) throw invalid(issuesToErrors(parsed.error.issues as never));
    const result = await tool.run(c, parsed.data);
    return { content: [{ type: "text", text: JSON.stringify(result) }] };
  } catch (error) {
    const { status, body } = await answerOf(c, error);
    return { isError: true, content: [{ type: "text", text: JSON.stringify(body) }], _meta: { status } };
  }
}
