import { beforeAll, describe, expect, it } from "vitest";
import { del, get, patch, post } from "../support/http";
import { createWorld } from "../support/world";

let world: Awaited<ReturnType<typeof createWorld>>;
let portal: string;
const ids: Record<string, number> = {};

const search = async (query: string, extra = "") => {
  const res = await get(`${portal}/articles?query=${encodeURIComponent(query)}${extra}`, world.admin.key);
  expect(res.status).toBe(200);
  return res.body;
};
const titles = async (query: string, extra = "") => (await search(query, extra)).payload.map((a: any) => a.title);

beforeAll(async () => {
  world = await createWorld("Search");
  await post(`${world.base}/portals`, world.admin.key, { name: "Docs", slug: "search-docs", config: { allowed_locales: ["en", "fr"] } });
  portal = `${world.base}/portals/search-docs`;
  await post(`${portal}/categories`, world.admin.key, { name: "Account", slug: "account" });
  const make = async (key: string, body: Record<string, unknown>) => {
    const res = await post(`${portal}/articles`, world.admin.key, { status: 1, ...body });
    if (res.status !== 200) throw new Error(JSON.stringify(res.body));
    ids[key] = res.body.payload.id;
  };
  await make("body", { title: "Security settings", content: "Two-factor login protects your password from theft." });
  await make("title", { title: "Reset your password", content: "Open the profile page and follow the link." });
  await make("tags", { title: "Login trouble", content: "If nothing works, contact support.", meta: { tags: ["password"] } });
  await make("draft", { title: "Password policy (draft)", content: "Rules for a password.", status: 0 });
  await make("french", { title: "Mot de passe oublié", content: "Réinitialisez votre mot de passe.", locale: "fr" });
});

describe("article search", () => {
  it("ranks a title match above a tag match above a body match", async () => {
    expect(await titles("password", "&status=published")).toEqual(["Reset your password", "Login trouble", "Security settings"]);
  });

  it("searches by prefix, across all terms, and ignores accents", async () => {
    expect(await titles("passw", "&status=published&locale=en")).toHaveLength(3);
    expect(await titles("reset password")).toEqual(["Reset your password"]);
    expect(await titles("reinitialisez")).toEqual(["Mot de passe oublié"]);
  });

  it("combines the query with the status, locale and category filters and counts within them", async () => {
    const all = await search("password");
    expect(all.meta).toMatchObject({ all_articles_count: 4, articles_count: 4, draft_articles_count: 1, published_count: 3 });
    expect(await titles("password", "&status=draft")).toEqual(["Password policy (draft)"]);
    expect(await titles("passe", "&locale=en")).toEqual([]);
    expect(await titles("password", "&category_slug=account")).toEqual([]);
  });

  it("returns a highlighted, escaped snippet of the body", async () => {
    await post(`${portal}/articles`, world.admin.key, { title: "Markup", content: "Use <b>bold</b> & the zebra keyword here.", status: 1 });
    const [hit] = (await search("zebra")).payload;
    expect(hit.snippet).toBe("Use &lt;b&gt;bold&lt;/b&gt; &amp; the <mark>zebra</mark> keyword here.");
    expect(hit.content).toBe("Use <b>bold</b> & the zebra keyword here.");
    // without a query there is no snippet
    expect((await get(`${portal}/articles`, world.admin.key)).body.payload[0]).not.toHaveProperty("snippet");
  });

  it("answers a search in an unknown portal with the portal's 404, not a 500", async () => {
    const res = await get(`${world.base}/portals/no-such-portal/articles?query=password`, world.admin.key);
    expect(res.status).toBe(404);
    expect(res.body.errors[0]).toMatchObject({ code: "not_found" });
  });

  it("never fails on FTS syntax in the query", async () => {
    for (const query of ['"', 'password"', "AND OR NOT", "title:password", "pass*word", "NEAR(a b)", "(", "-", "***", "😀", "' OR 1=1 --"]) {
      const res = await get(`${portal}/articles?query=${encodeURIComponent(query)}`, world.admin.key);
      expect(res.status, query).toBe(200);
    }
    expect(await titles("***")).toEqual([]);
    expect((await get(`${portal}/articles?query=`, world.admin.key)).body.payload.length).toBeGreaterThan(0);
    // quotes and operators are plain text: a quoted word finds what the word finds
    expect(await titles('"password', "&status=published")).toEqual(["Reset your password", "Login trouble", "Security settings"]);
  });

  it("follows changes in the same batch: updates and deletes", async () => {
    await patch(`${portal}/articles/${ids.body}`, world.admin.key, { content: "Now about quokkas only." });
    expect(await titles("quokkas")).toEqual(["Security settings"]);
    expect(await titles("password", "&status=published")).not.toContain("Security settings");

    await patch(`${portal}/articles/${ids.tags}`, world.admin.key, { meta: { tags: ["wombat"] } });
    expect(await titles("wombat")).toEqual(["Login trouble"]);

    await del(`${portal}/articles/${ids.body}`, world.admin.key);
    expect(await titles("quokkas")).toEqual([]);
  });

  it("stays inside the portal", async () => {
    const other = await createWorld("Other search");
    await post(`${other.base}/portals`, other.admin.key, { name: "Theirs", slug: "search-theirs" });
    await post(`${other.base}/portals/search-theirs/articles`, other.admin.key, { title: "Their narwhal", content: "narwhal", status: 1 });
    expect(await titles("narwhal")).toEqual([]);
    const theirs = await get(`${other.base}/portals/search-theirs/articles?query=narwhal`, other.admin.key);
    expect(theirs.body.payload.map((a: any) => a.title)).toEqual(["Their narwhal"]);
  });

  it("refuses an overlong query", async () => {
    const res = await get(`${portal}/articles?query=${"a".repeat(201)}`, world.admin.key);
    expect(res.status).toBe(422);
    expect(res.body.errors[0]).toMatchObject({ field: "query", code: "too_long" });
  });
});
