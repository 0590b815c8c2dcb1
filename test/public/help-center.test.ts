import { beforeAll, describe, expect, it, vi } from "vitest";
import { get, patch, post } from "../support/http";
import { createWorld } from "../support/world";
import { shardOf } from "../support/databases";

let world: Awaited<ReturnType<typeof createWorld>>;
const hc = "/public/api/v1/portals/public-docs";
const ids: Record<string, number> = {};

beforeAll(async () => {
  world = await createWorld("Public");
  const portal = await post(`${world.base}/portals`, world.admin.key, {
    name: "Acme Help",
    slug: "public-docs",
    page_title: "Acme Help Center",
    config: { allowed_locales: ["en", "fr"] },
  });
  if (portal.status !== 200) throw new Error(JSON.stringify(portal.body));
  const admin = `${world.base}/portals/public-docs`;
  const category = await post(`${admin}/categories`, world.admin.key, { name: "Basics", slug: "basics" });
  await post(`${admin}/categories`, world.admin.key, { name: "Bases", slug: "bases", locale: "fr" });
  const make = async (key: string, body: Record<string, unknown>) => {
    const res = await post(`${admin}/articles`, world.admin.key, { content: `About ${key}`, ...body });
    if (res.status !== 200) throw new Error(JSON.stringify(res.body));
    ids[key] = res.body.payload.id;
  };
  await make("published", { title: "Getting started guide", slug: "getting-started", status: 1, category_id: category.body.payload.id, meta: { tags: ["onboarding"] } });
  await make("other", { title: "Billing guide", slug: "billing", status: 1 });
  await make("french", { title: "Guide de démarrage", slug: "demarrage", status: 1, locale: "fr" });
  await make("draft", { title: "Secret roadmap guide", slug: "roadmap", status: 0, category_id: category.body.payload.id });
  await make("archived", { title: "Old pricing guide", slug: "old-pricing", status: 2 });
});

describe("public help center", () => {
  it("shows the portal without a key", async () => {
    const res = await get(hc, null);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      id: expect.any(Number),
      name: "Acme Help",
      slug: "public-docs",
      color: null,
      custom_domain: null,
      header_text: null,
      homepage_link: null,
      page_title: "Acme Help Center",
      config: { default_locale: "en", allowed_locales: ["en", "fr"] },
    });
    // a help-center front end on another site may read it from the browser
    expect(res.headers.get("access-control-allow-origin")).toBe("*");
  });

  it("lists categories with their published article counts", async () => {
    const res = await get(`${hc}/categories?locale=en`, null);
    expect(res.status).toBe(200);
    expect(res.body.payload).toEqual([expect.objectContaining({ name: "Basics", slug: "basics", locale: "en", meta: { articles_count: 1 } })]);
    expect(res.body.meta).toEqual({ current_page: 1, categories_count: 1 });
    expect((await get(`${hc}/categories`, null)).body.payload).toHaveLength(2);
  });

  it("lists published articles only, filtered by locale and category", async () => {
    const res = await get(`${hc}/articles`, null);
    expect(res.status).toBe(200);
    const titles = res.body.payload.map((a: any) => a.title);
    expect(titles.sort()).toEqual(["Billing guide", "Getting started guide", "Guide de démarrage"]);
    expect(res.body.meta).toEqual({ current_page: 1, articles_count: 3 });
    expect((await get(`${hc}/articles?locale=fr`, null)).body.payload.map((a: any) => a.title)).toEqual(["Guide de démarrage"]);
    expect((await get(`${hc}/articles?category_slug=basics`, null)).body.payload.map((a: any) => a.title)).toEqual(["Getting started guide"]);
  });

  it("searches published articles only", async () => {
    const res = await get(`${hc}/articles?query=guide`, null);
    expect(res.status).toBe(200);
    const titles = res.body.payload.map((a: any) => a.title);
    expect(titles).toHaveLength(3);
    expect(titles).not.toContain("Secret roadmap guide");
    expect(titles).not.toContain("Old pricing guide");
    expect((await get(`${hc}/articles?query=roadmap`, null)).body.payload).toEqual([]);
    const [hit] = (await get(`${hc}/articles?query=onboarding`, null)).body.payload;
    expect(hit).toMatchObject({ slug: "getting-started", snippet: expect.any(String) });
  });

  it("reads a published article by slug and counts each read as a view", async () => {
    const first = await get(`${hc}/articles/getting-started`, null);
    expect(first.status).toBe(200);
    expect(first.body.payload).toMatchObject({
      title: "Getting started guide",
      slug: "getting-started",
      content: "About published",
      category: { slug: "basics", name: "Basics" },
      meta: { tags: ["onboarding"] },
      author: { name: "Public Admin" },
      // the count trails the reads: the queue adds views up in batches
      views: 0,
    });
    // readers see no account details, no email and no status
    expect(first.body.payload).not.toHaveProperty("account_id");
    expect(first.body.payload).not.toHaveProperty("status");
    expect(first.body.payload.author).not.toHaveProperty("email");

    expect((await get(`${hc}/articles/getting-started`, null)).status).toBe(200);
    await vi.waitFor(async () => {
      const inside = await get(`${world.base}/portals/public-docs/articles/${ids.published}`, world.admin.key);
      expect(inside.body.payload.views).toBe(2);
    }, { timeout: 5000, interval: 50 });
  });

  it("never shows a draft or an archived article, and counts no view for it", async () => {
    for (const slug of ["roadmap", "old-pricing", "nothing-here"]) {
      const res = await get(`${hc}/articles/${slug}`, null);
      expect(res.status).toBe(404);
      expect(res.body.errors[0]).toMatchObject({ field: "article_slug", code: "not_found" });
    }
    const { results } = await (await shardOf(world.accountId)).prepare("SELECT views FROM articles WHERE id = ?").bind(ids.draft).all();
    expect(results[0]).toEqual({ views: 0 });
  });

  it("hides an article once it is unpublished", async () => {
    await patch(`${world.base}/portals/public-docs/articles/${ids.other}`, world.admin.key, { status: 0 });
    expect((await get(`${hc}/articles/billing`, null)).status).toBe(404);
    expect((await get(`${hc}/articles`, null)).body.payload.map((a: any) => a.slug)).not.toContain("billing");
  });

  it("does not serve an archived portal or an unknown one", async () => {
    await post(`${world.base}/portals`, world.admin.key, { name: "Archived", slug: "public-archived" });
    await post(`${world.base}/portals/public-archived/articles`, world.admin.key, { title: "Visible?", slug: "visible", content: "x", status: 1 });
    expect((await get("/public/api/v1/portals/public-archived/articles/visible", null)).status).toBe(200);
    await patch(`${world.base}/portals/public-archived`, world.admin.key, { archived: true });
    for (const path of ["", "/categories", "/articles", "/articles/visible"]) {
      const res = await get(`/public/api/v1/portals/public-archived${path}`, null);
      expect(res.status, path).toBe(404);
      expect(res.body.errors[0]).toMatchObject({ field: "portal_slug", code: "not_found" });
    }
    expect((await get("/public/api/v1/portals/no-such-portal", null)).status).toBe(404);
  });

  it("answers a search in an unknown or archived portal with the portal's 404, not a 500", async () => {
    for (const path of ["/public/api/v1/portals/no-such-portal/articles?query=reset", "/public/api/v1/portals/no-such-portal?query=reset", "/public/api/v1/portals/public-archived/articles?query=visible"]) {
      const res = await get(path, null);
      expect(res.status, path).toBe(404);
      expect(res.body.errors[0], path).toMatchObject({ field: "portal_slug", code: "not_found" });
    }
  });

  it("does not serve the portals of a suspended account", async () => {
    const suspended = await createWorld("Suspended");
    await post(`${suspended.base}/portals`, suspended.admin.key, { name: "Paused", slug: "public-paused" });
    expect((await get("/public/api/v1/portals/public-paused", null)).status).toBe(200);
    const res = await patch(`/platform/api/v1/accounts/${suspended.accountId}`, suspended.platformKey, { status: "suspended" });
    expect(res.status).toBe(200);
    expect((await get("/public/api/v1/portals/public-paused", null)).status).toBe(404);
  });

  it("validates the query", async () => {
    const res = await get(`${hc}/articles?page=abc&locale=not a locale`, null);
    expect(res.status).toBe(422);
    expect(res.body.errors.map((e: any) => e.field).sort()).toEqual(["locale", "page"]);
  });
});
