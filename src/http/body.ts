import type { Context } from "hono";
import { bodyLimit } from "hono/body-limit";
import { createMiddleware } from "hono/factory";
import type { AppEnv, Upload } from "./app-env";
import { routeBodyLimit, routeFlag, routeHasFlag, routeMatched } from "./route-flags";
import { invalid, malformed, tooLarge, unsupportedMediaType } from "../domain/kernel/errors";
import type { AppContext } from "./app-env";

const METHODS_WITH_BODY = new Set(["POST", "PUT", "PATCH", "DELETE"]);
const JSON_TYPE = /^application\/([\w.-]+\+)?json$/i;

/**
 * The largest body accepted. Messages allow 150,000 characters; nothing legitimate comes near 1 MiB.
 * Routes that take files declare their own limit with `acceptFiles({ maxBodyBytes })`.
 */
export const MAX_BODY_BYTES = 1024 * 1024;

/** The read of each request's body, so that every reader after the first waits for the same one. */
const reads = new WeakMap<Context, Promise<void>>();

/**
 * Reads the request's body, once: a surface reads it with `routeBody` once its checks have passed, and
 * `validate("json", ...)` and `idempotent()` make sure it was read. Nothing reads a body earlier, so the
 * key, the rate limits, the route's existence and the public inbox are checked without parsing it: an
 * anonymous caller cannot make the Worker parse megabytes it will then refuse.
 *
 * Chatwoot clients send JSON, multipart/form-data and form-urlencoded bodies. The read turns each of
 * them into one JSON request, so every route validates one shape with `validate("json", schema)`:
 * - larger than the route's limit (1 MiB, or what `acceptFiles()` declares): 413;
 * - JSON is checked here (malformed: 400); an empty body counts as `{}`;
 * - form bodies become nested objects the way Rails reads them (`a[b]=1`, `ids[]=1&ids[]=2`), with
 *   values left as strings; schemas accept "true"/"1" where a boolean or number is expected;
 * - any other content type with a body: 415.
 * File parts never enter the JSON body: routes that take files declare `acceptFiles()` and find them in
 * `c.var.uploads`; every other route drops them.
 */
export function readBody(c: AppContext): Promise<void> {
  let read = reads.get(c);
  if (!read) {
    read = limited(c);
    reads.set(c, read);
  }
  return read;
}

async function limited(c: AppContext): Promise<void> {
  c.set("uploads", []);
  if (!METHODS_WITH_BODY.has(c.req.method)) return;
  const maxSize = routeBodyLimit(c) ?? MAX_BODY_BYTES;
  const limit = bodyLimit({
    maxSize,
    onError: () => {
      throw tooLarge(`The request body is larger than ${maxSize} bytes`, "body_too_large");
    },
  });
  await limit(c, () => normalize(c));
}

async function normalize(c: AppContext): Promise<void> {
  const raw = c.req.raw;
  const mediaType = (raw.headers.get("content-type") ?? "").split(";")[0].trim().toLowerCase();
  let body: unknown;

  if (mediaType === "multipart/form-data" || mediaType === "application/x-www-form-urlencoded") {
    let form: FormData;
    try {
      form = await raw.formData();
    } catch {
      throw malformed("Malformed form body");
    }
    body = formToObject(form);
    if (routeHasFlag(c, "files")) c.set("uploads", uploadsOf(form));
  } else {
    const text = await raw.text();
    if (text.trim() === "") body = {};
    else if (JSON_TYPE.test(mediaType)) {
      try {
        body = JSON.parse(text);
      } catch {
        throw malformed("Malformed JSON in request body");
      }
    } else {
      const message = `Unsupported content type ${mediaType || "(none)"}: send application/json, multipart/form-data or application/x-www-form-urlencoded`;
      throw unsupportedMediaType(message);
    }
  }

  const headers = new Headers(raw.headers);
  headers.set("content-type", "application/json");
  headers.delete("content-length");
  c.req.raw = new Request(raw.url, { method: raw.method, headers, body: JSON.stringify(body) });
  c.req.bodyCache = {};
}

/**
 * Reads the body of a request that reached a route, as a surface's last middleware: after its key and
 * its rate limit are checked, before the route's own handlers. Every write then refuses a malformed,
 * oversized or unsupported body, whether or not it uses one; a request to no route is left to its 404.
 */
export const routeBody = createMiddleware<AppEnv>(async (c, next) => {
  if (routeMatched(c)) await readBody(c);
  await next();
});

/**
 * Declares that a route takes the files of a multipart body (in `c.var.uploads`), and the largest body
 * it accepts (instead of the app's 1 MiB).
 */
export const acceptFiles = (options: { maxBodyBytes: number }) => routeFlag("files", options.maxBodyBytes);

/**
 * The files sent under `name` (as `name[]`, `name[0]` or `name`), in the order sent. A file under any
 * other name is a 422 rather than silently dropped.
 */
export function filesNamed(c: AppContext, name: string): Upload[] {
  // the website widget names its files `message[attachments][]`: the name's brackets are literal
  const pattern = new RegExp(`^${name.replace(/[[\]]/g, "\\$&")}(\\[\\d*\\])?$`);
  const stray = c.var.uploads.filter((u) => !pattern.test(u.field));
  if (stray.length > 0) {
    throw invalid(stray.map((u) => ({ field: u.field.slice(0, 100), message: `is not a file field of this endpoint (send files as ${name}[])`, code: "unexpected_file" })));
  }
  return c.var.uploads;
}

function uploadsOf(form: FormData): Upload[] {
  const uploads: Upload[] = [];
  form.forEach((value, field) => {
    if (typeof value !== "string") uploads.push({ field, file: value });
  });
  return uploads;
}

const MAX_FORM_DEPTH = 32;

type Tree = { [key: string]: Tree | Tree[] | string | string[] };

/**
 * `a[b][]=1` -> { a: { b: ["1"] } }; objects whose keys are all indexes become arrays.
 * The nodes have no prototype: with plain objects, `__proto__[x]=1` walked into Object.prototype and
 * polluted every object of the isolate. `__proto__` is an ordinary key here, and the final
 * Object.fromEntries defines it as an own property (which the schemas then ignore).
 */
export function formToObject(form: FormData): Record<string, unknown> {
  const root: Tree = Object.create(null);
  form.forEach((value, name) => {
    if (typeof value !== "string") return;
    const keys = parseKeys(name);
    // Rack refuses parameters nested past 100 levels; without a limit, `a[a][a]...=1` ten thousand deep
    // overflowed the stack of the recursive steps below (a 500).
    if (keys.length > MAX_FORM_DEPTH) throw malformed(`Form parameter ${name.slice(0, 100)} is nested deeper than ${MAX_FORM_DEPTH} levels`);
    let node: Tree = root;
    keys.forEach((key, i) => {
      const last = i === keys.length - 1;
      const nextKey = keys[i + 1];
      if (key === "") return; // handled by the parent as an array push
      if (last) {
        node[key] = value;
      } else if (nextKey === "" && i + 1 === keys.length - 1) {
        const list = Array.isArray(node[key]) ? (node[key] as string[]) : [];
        list.push(value);
        node[key] = list;
      } else {
        if (typeof node[key] !== "object" || Array.isArray(node[key])) node[key] = Object.create(null);
        node = node[key] as Tree;
      }
    });
  });
  return indexObjectsToArrays(root) as Record<string, unknown>;
}

function parseKeys(name: string): string[] {
  const head = name.split("[", 1)[0];
  const rest = [...name.slice(head.length).matchAll(/\[([^\]]*)\]/g)].map((m) => m[1]);
  return [head, ...rest];
}

function indexObjectsToArrays(value: unknown): unknown {
  if (Array.isArray(value) || typeof value !== "object" || value === null) return value;
  const entries = Object.entries(value).map(([k, v]) => [k, indexObjectsToArrays(v)] as const);
  if (entries.length > 0 && entries.every(([k]) => /^\d+$/.test(k))) {
    return entries.sort(([a], [b]) => Number(a) - Number(b)).map(([, v]) => v);
  }
  return Object.fromEntries(entries);
}
