/** Refusals as MCP carries them: the API's status and error body (src/http/errors.ts), read back from its rendering. */
import { ErrorCode, McpError } from "@modelcontextprotocol/sdk/types.js";
import type { AppContext } from "../http/app-env";
import { renderError } from "../http/errors";

/** The status and error body the API answers `error` with (src/http/errors.ts), read back from its rendering. */
export async function answerOf(c: AppContext, error: unknown): Promise<{ status: number; body: unknown }> {
  const rendered = renderError(error, c);
  return { status: rendered.status, body: await rendered.json() };
}

/** A resource read or prompt refused: a JSON-RPC error whose data is the API's status and error body. */
export async function protocolError(c: AppContext, error: unknown): Promise<McpError> {
  const { status, body } = await answerOf(c, error);
  const code = status === 404 ? RESOURCE_NOT_FOUND : status < 500 ? ErrorCode.InvalidParams : ErrorCode.InternalError;
  return new McpError(code, (body as { description?: string }).description ?? "Refused", { status, ...(body as object) });
}

/** The code the MCP specification gives a resource that is not there. */
const RESOURCE_NOT_FOUND = -32002;
