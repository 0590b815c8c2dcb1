/**
 * D1 sessions: every request runs in a session, answers its bookmark in `x-d1-bookmark` (prefixed with
 * the account's shard, docs/shards.md), and accepts one back, at no extra round trip.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { call, get, post } from "../support/http";
import { createWorld } from "../support/world";

type World = Awaited<ReturnType<typeof createWorld>>;
let world: World;

const roundTrips = (res: { headers: Headers }) => Number(/db-round-trips;desc="(\d+)"/.exec(res.headers.get("server-timing")!)![1]);

beforeAll(async () => {
  world = await createWorld("Sessions");
});

describe("D1 sessions", () => {
  it("answers a bookmark and reads the client's own write when it sends it back", async () => {
    const created = await post(`${world.base}/contacts`, world.admin.key, { name: "Read me", email: "read.me@example.com" });
    expect(created.status).toBe(200);
    const bookmark = created.headers.get("x-d1-bookmark");
    expect(bookmark).toMatch(/^\d+:[0-9a-f-]+$/i);
    const id = created.body.payload.contact.id;
    const read = await call("GET", `${world.base}/contacts/${id}`, { key: world.agent.key, headers: { "x-d1-bookmark": bookmark! } });
    expect(read.status).toBe(200);
    expect(read.body.payload.email).toBe("read.me@example.com");
    // the bookmark never goes back in time
    expect(read.headers.get("x-d1-bookmark")! >= bookmark!).toBe(true);
  });

  it("costs no round trip: a request with a bookmark makes as many as one without", async () => {
    const path = `${world.base}/contacts?include_contact_inboxes=false`;
    const without = await get(path, world.agent.key);
    const bookmark = without.headers.get("x-d1-bookmark")!;
    const withBookmark = await call("GET", path, { key: world.agent.key, headers: { "x-d1-bookmark": bookmark } });
    expect(roundTrips(withBookmark)).toBe(roundTrips(without));
    // auth and the page with its counter: the session adds nothing to the list's budget
    expect(roundTrips(without)).toBeLessThanOrEqual(3);
  });

  it("ignores a bookmark that is not one, rather than failing the request", async () => {
    for (const bogus of ["not a bookmark!", "deadbeef", "0", "0:", "7:not-hex!", "99999:0000", "00000000-00000000-00000000-00000000000000000000000000000000", "x".repeat(500), "'; DROP TABLE contacts; --"]) {
      const res = await call("GET", `${world.base}/contacts`, { key: world.agent.key, headers: { "x-d1-bookmark": bogus } });
      expect(res.status, bogus).toBe(200);
      expect(res.headers.get("x-d1-bookmark")).toMatch(/^\d+:[0-9a-f-]+$/i);
    }
  });
});
