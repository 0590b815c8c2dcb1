/**
 * Talks to the Worker over HTTP, inside the Workers runtime, with the real bindings.
 */
import { exports } from "cloudflare:workers";
import { LOCAL_APP_NAME, createAppSql, generateKey, sha256Hex } from "../../scripts/lib/platform-keys.mjs";
import { directory } from "./databases";

export type Reply<T = any> = { status: number; body: T; headers: Headers };

type Options = { key?: string | null; body?: unknown; headers?: Record<string, string>; rawBody?: BodyInit };

export async function call<T = any>(method: string, path: string, options: Options = {}): Promise<Reply<T>> {
  const headers: Record<string, string> = { accept: "application/json", ...options.headers };
  if (options.key) headers.api_access_token = options.key;
  let body: BodyInit | undefined = options.rawBody;
  if (options.body !== undefined) {
    body = JSON.stringify(options.body);
    headers["content-type"] ??= "application/json";
  }
  const res = await exports.default.fetch(new Request(`https://desk.test${path}`, { method, headers, body }));
  const text = await res.text();
  let parsed: unknown = text;
  try {
    parsed = text ? JSON.parse(text) : null;
  } catch {
    // leave the text for the assertion to show
  }
  return { status: res.status, body: parsed as T, headers: res.headers };
}

export const get = <T = any>(path: string, key?: string | null) => call<T>("GET", path, { key });
export const post = <T = any>(path: string, key: string | null, body?: unknown) => call<T>("POST", path, { key, body });
export const patch = <T = any>(path: string, key: string | null, body?: unknown) => call<T>("PATCH", path, { key, body });
export const put = <T = any>(path: string, key: string | null, body?: unknown) => call<T>("PUT", path, { key, body });
export const del = <T = any>(path: string, key: string | null, body?: unknown) => call<T>("DELETE", path, { key, body });

/** A test's setup POST: its body, or a thrown error naming the path, so a broken setup is not read as a failing check. */
export async function made<T = any>(path: string, key: string | null, body: unknown): Promise<T> {
  const res = await post<T>(path, key, body);
  if (res.status !== 200) throw new Error(`setup ${path}: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
}

/**
 * A platform app created the way scripts/platform-app.mjs creates one (same SQL, run against the
 * test database), returning its key.
 */
export async function createPlatformApp(name = "Test platform app"): Promise<string> {
  const key = generateKey();
  const statements = createAppSql(name, sha256Hex(key)).split("\n");
  await directory().batch(statements.map((s) => directory().prepare(s)));
  return key;
}

export { LOCAL_APP_NAME };
