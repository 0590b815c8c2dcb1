/**
 * The OpenAPI 3.1 document, generated from the app's own routes by hono-openapi:
 * - request parameters and bodies come from the zod schemas `validate()` checks (src/http/validate.ts);
 * - each route declares its summary and success answer with `doc()` next to its path; a route that is
 *   not part of the API (the document itself, the docs and demo pages) says so with `undocumented()`;
 * - what follows from where a route is mounted is added here once: tags, the security schemes of its
 *   surface (user key, and bot key on `allowBots()` routes; platform key; none on the public API), the
 *   error answers of its surface, the `Idempotency-Key` header on `idempotent()` routes, the rate-limit
 *   headers.
 * test/api/openapi.test.ts fails on a route without a declaration, and on a documented operation the app
 * does not serve.
 */
import type { Hono } from "hono";
import { describeRoute, generateSpecs, resolver } from "hono-openapi";
import type { OpenAPIV3_1 } from "openapi-types";
import { z } from "zod";
import pkg from "../../package.json";
import { INTRODUCTION } from "../docs/introduction";
import { ErrorBody } from "../schemas/responses";
import { IDEMPOTENCY_HEADER, IDEMPOTENCY_KEY_MAX_LENGTH } from "./idempotency";
import { flagged, flagOf } from "./route-flags";

type DocSpec = {
  summary: string;
  description?: string;
  /** the schema of the success answer (none for a 101 or an empty answer) */
  response?: z.ZodType;
  /** 200 unless given */
  status?: number;
  deprecated?: boolean;
};

/** Declares, next to the route, what the API document says about it. */
export const doc = ({ summary, description, response, status = 200, deprecated }: DocSpec) =>
  flagged(
    "documented",
    describeRoute({
      summary,
      description,
      deprecated,
      responses: {
        [status]: {
          description: status === 101 ? "Switching Protocols: the WebSocket is open" : "Success",
          ...(response && { content: { "application/json": { schema: resolver(response) } } }),
        },
      },
    }),
  );

/** Declares that a route is not part of the API, and why (the coverage test reads this). */
export const undocumented = (why: string) => flagged("undocumented", Object.assign(describeRoute({ hide: true }), { why }));

/** `:id` -> `{id}`, dropping a pattern (`:id{[0-9]+}`), as hono-openapi writes paths. */
export const openApiPath = (path: string) =>
  path
    .split("/")
    .map((segment) => (segment.startsWith(":") ? `{${segment.slice(1).replace(/\{.*\}$/, "").replace(/\?$/, "")}}` : segment))
    .join("/");

export const SECURITY_SCHEMES: Record<string, OpenAPIV3_1.SecuritySchemeObject> = {
  userKey: { type: "apiKey", in: "header", name: "api_access_token", description: "A user's access token (the platform API's user create answers it; /api/v1/profile shows it)." },
  botKey: { type: "apiKey", in: "header", name: "api_access_token", description: "An agent bot's access token; accepted only on the routes marked for bots." },
  platformKey: { type: "apiKey", in: "header", name: "api_access_token", description: "A platform app's key; reaches only /platform/api/v1." },
  bearer: { type: "http", scheme: "bearer", description: "Any of the keys above as `Authorization: Bearer <key>`." },
  signInToken: { type: "apiKey", in: "header", name: "access-token", description: "A signed-in client's `access-token` (POST /auth/sign_in answers it), sent with `client` and `uid`: it acts as the user's key." },
  signInClient: { type: "apiKey", in: "header", name: "client", description: "The `client` header POST /auth/sign_in answered." },
  signInUid: { type: "apiKey", in: "header", name: "uid", description: "The `uid` header POST /auth/sign_in answered (the user's e-mail)." },
};

/** The three headers of a signed-in client, together. */
const SIGNED_IN: OpenAPIV3_1.SecurityRequirementObject = { signInToken: [], signInClient: [], signInUid: [] };

const errorResponse = (description: string, headers?: Record<string, OpenAPIV3_1.ReferenceObject>): OpenAPIV3_1.ResponseObject => ({
  description,
  headers,
  content: { "application/json": { schema: { $ref: "#/components/schemas/Error" } } },
});

const RATE_HEADERS = {
  "RateLimit-Policy": { $ref: "#/components/headers/RateLimit-Policy" },
  RateLimit: { $ref: "#/components/headers/RateLimit" },
};

const COMPONENTS: OpenAPIV3_1.ComponentsObject = {
  securitySchemes: SECURITY_SCHEMES,
  headers: {
    "RateLimit-Policy": { description: 'The policies this request counted against, e.g. `"account_api";q=600;w=60` (IETF draft).', schema: { type: "string" } },
    RateLimit: { description: 'What is left of each, e.g. `"account_api";r=599;t=42` (remaining requests, seconds to the reset).', schema: { type: "string" } },
    "Retry-After": { description: "Seconds until the refused request may be sent again.", schema: { type: "integer" } },
    "Idempotent-Replayed": { description: "`true` on an answer replayed for a repeated `Idempotency-Key`.", schema: { type: "string", enum: ["true"] } },
  },
  parameters: {
    IdempotencyKey: {
      name: IDEMPOTENCY_HEADER,
      in: "header",
      required: false,
      description:
        "A key of your choosing (a UUID) that makes a retry safe: the first answer is kept for 24 hours and replayed for the same key and request, with `Idempotent-Replayed: true`. The same key with another request is a 422; while the first request runs, a 409.",
      schema: { type: "string", minLength: 1, maxLength: IDEMPOTENCY_KEY_MAX_LENGTH },
    },
  },
  responses: {
    MalformedRequest: errorResponse("The body is not valid JSON or form data."),
    Unauthenticated: errorResponse("No key, or a key that is not valid."),
    Forbidden: errorResponse("The key is valid but may not do this (role, surface, suspended account)."),
    NotFound: errorResponse("A resource in the path does not exist in this account."),
    Conflict: errorResponse("The request conflicts with another (an Idempotency-Key still being processed)."),
    TooLarge: errorResponse("The body is larger than the route allows: 1 MiB, or the limit of a route that takes files."),
    UnsupportedMediaType: errorResponse("The body is neither JSON nor form data."),
    Invalid: errorResponse("Validation failed: one entry per problem, `field` is the path of the offending value."),
    RateLimited: errorResponse("Too many requests: wait `Retry-After` seconds.", { ...RATE_HEADERS, "Retry-After": { $ref: "#/components/headers/Retry-After" } }),
    InternalError: errorResponse("An unexpected failure; the description names the request id."),
  },
};

type Surface = { tagPrefix: string; security: OpenAPIV3_1.SecurityRequirementObject[]; authenticated: boolean };

function surfaceOf(path: string, botsAllowed: boolean): Surface {
  if (path.startsWith("/platform/")) return { tagPrefix: "Platform", security: [{ platformKey: [] }, { bearer: [] }], authenticated: true };
  if (path.startsWith("/public/")) return { tagPrefix: "Public", security: [], authenticated: false };
  if (path === "/auth/sign_out") return { tagPrefix: "Service", security: [SIGNED_IN], authenticated: true };
  if (path === "/auth/validate_token") return { tagPrefix: "Service", security: [SIGNED_IN, { userKey: [] }, { bearer: [] }], authenticated: true };
  if (path.startsWith("/api/v1/live") || !path.startsWith("/api/v")) return { tagPrefix: "Service", security: [], authenticated: false };
  const security: OpenAPIV3_1.SecurityRequirementObject[] = [{ userKey: [] }, ...(botsAllowed ? [{ botKey: [] }] : []), { bearer: [] }];
  // a signed-in client is its user: it reaches what the user's key reaches (not the platform API)
  security.push(SIGNED_IN);
  return { tagPrefix: "Account", security, authenticated: true };
}

/** The tag of an operation: its resource, after the account or inbox part of the path. */
function tagOf(path: string, surface: Surface): string {
  if (surface.tagPrefix === "Service") return "Service";
  const segments = path.split("/").filter((s) => s && !s.startsWith("{"));
  const skip = new Set(["api", "v1", "v2", "platform", "public", "accounts"]);
  const resource = path.startsWith("/platform/") ? segments.find((s) => !skip.has(s)) ?? "accounts" : segments.filter((s) => !skip.has(s))[0];
  if (path.startsWith("/platform/") && segments.length > 3 && segments[3] === "accounts" && segments[4]) return `${surface.tagPrefix}: account users`;
  return `${surface.tagPrefix}: ${(resource ?? "service").replaceAll("_", " ")}`;
}

const METHODS = ["get", "put", "post", "delete", "patch"] as const;

/** Which operations carry a flag, as "METHOD /openapi/path". */
function flaggedOperations(app: Hono<any>, flag: "bots" | "idempotent"): Set<string> {
  return new Set(app.routes.filter((r) => flagOf(r.handler) === flag).map((r) => `${r.method} ${openApiPath(r.path)}`));
}

export async function buildOpenApiDocument(app: Hono<any>) {
  const spec = await generateSpecs(app, {
    documentation: {
      info: { title: "edgedesk API", version: pkg.version, description: INTRODUCTION },
      components: COMPONENTS,
    },
    defaultValidationErrorResponse: false,
  });
  const bots = flaggedOperations(app, "bots");
  const idempotent = flaggedOperations(app, "idempotent");
  spec.components.schemas = { ...spec.components.schemas, Error: withoutDialect(z.toJSONSchema(ErrorBody, { target: "draft-2020-12" })) };
  const tags = new Set<string>();

  for (const [path, item] of Object.entries(spec.paths)) {
    for (const method of METHODS) {
      const operation = item[method];
      if (!operation) continue;
      const key = `${method.toUpperCase()} ${path}`;
      const surface = surfaceOf(path, bots.has(key));
      const tag = tagOf(path, surface);
      tags.add(tag);
      operation.tags = [tag];
      operation.security = surface.security;
      // OpenAPI requires path parameters; an optional trailing segment (`:file_name?` of the file URLs)
      // is documented as the URL the API hands out, with it
      for (const parameter of operation.parameters ?? []) if ("in" in parameter && parameter.in === "path") parameter.required = true;
      const responses = (operation.responses ??= {});
      for (const success of Object.values(responses) as OpenAPIV3_1.ResponseObject[]) success.headers = { ...RATE_HEADERS, ...success.headers };
      const hasBody = method === "post" || method === "put" || method === "patch";
      const hasInput = hasBody || (operation.parameters ?? []).some((p) => "in" in p && (p.in === "query" || p.in === "path"));
      if (hasBody) {
        responses["400"] = { $ref: "#/components/responses/MalformedRequest" };
        responses["413"] = { $ref: "#/components/responses/TooLarge" };
        responses["415"] = { $ref: "#/components/responses/UnsupportedMediaType" };
      }
      if (surface.authenticated) {
        responses["401"] = { $ref: "#/components/responses/Unauthenticated" };
        responses["403"] = { $ref: "#/components/responses/Forbidden" };
      }
      if (path.includes("{")) responses["404"] = { $ref: "#/components/responses/NotFound" };
      if (hasInput) responses["422"] = { $ref: "#/components/responses/Invalid" };
      responses["429"] = { $ref: "#/components/responses/RateLimited" };
      responses["500"] = { $ref: "#/components/responses/InternalError" };
      if (idempotent.has(key)) {
        operation.parameters = [...(operation.parameters ?? []), { $ref: "#/components/parameters/IdempotencyKey" }];
        responses["409"] = { $ref: "#/components/responses/Conflict" };
        for (const [status, success] of Object.entries(responses)) {
          if (status.startsWith("2") && !("$ref" in success)) success.headers = { ...success.headers, "Idempotent-Replayed": { $ref: "#/components/headers/Idempotent-Replayed" } };
        }
      }
    }
  }
  return { ...spec, tags: [...tags].sort().map((name) => ({ name })) };
}

function withoutDialect(schema: Record<string, unknown>) {
  const { $schema: _dialect, id: _id, ...rest } = schema;
  return rest;
}

let cached: Promise<unknown> | null = null;

/** The document, built once per isolate (the routes cannot change while it runs). */
export function openApiDocument(app: Hono<any>) {
  cached ??= buildOpenApiDocument(app);
  return cached;
}
