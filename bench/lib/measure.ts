/**
 * One request to the Worker as the Workers-runtime benches time it: wall time inside workerd, and the
 * round trips and D1 rows read the Worker reports in its `Server-Timing` header (src/app.ts).
 */
import { exports } from "cloudflare:workers";

export type Sample = { roundTrips: number; rowsRead: number; ms: number; status: number };

/** `init` sends another method and a body (a POST, an MCP message); a GET without it. */
export async function measure(path: string, headers: Record<string, string> = {}, init: { method?: string; body?: string } = {}): Promise<Sample> {
  const started = performance.now();
  const res = await exports.default.fetch(new Request(`https://desk.test${path}`, { headers, ...init }));
  await res.text();
  const ms = performance.now() - started;
  const timing = res.headers.get("server-timing") ?? "";
  const metric = (name: string) => Number(new RegExp(`${name};desc="(\\d+)"`).exec(timing)?.[1] ?? NaN);
  return { roundTrips: metric("db-round-trips"), rowsRead: metric("db-rows-read"), ms, status: res.status };
}
