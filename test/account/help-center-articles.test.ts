import { beforeAll, describe, expect, it } from "vitest";
import { del, get, patch, post, put } from "../support/http";
import { addToAccount, createUser, createWorld } from "../support/world";

let world: Awaited<ReturnType<typeof createWorld>>;
let other: Awaited<ReturnType<typeof createWorld>>;
let portal: string;
let categoryId: number;
let frenchCategoryId: number;

beforeAll(async () => {
  world = await createWorld("Articles");
  other = await createWorld("Elsewhere");
  const p = await post(`${world.base}/portals`, world.admin.key, {
    name: "Docs",
    slug: "art-docs",
    config: { allowed_locales: ["en", "fr"] },
  });
  if (p.status !== 200) throw new Error(JSON.stringify(p.body));
  portal = `${world.base}/portals/art-docs`;
  categoryId = (await post(`${portal}/categories`, world.admin.key, { name: "Getting started", slug: "getting-started" })).body.payload.id;
  frenchCategoryId = (await post(`${portal}/categories`, world.admin.key, { name: "Démarrer", slug: "demarrer", locale: "fr" })).body
    .payload.id;
});

const create = (body: Record<string, unknown>, key = world.admin.key) => post(`${portal}/articles`, key, body);

describe("add an article", () => {
  it("answers with every field of the Article record", async () => {
    const res = await create({
      article: {
        title: "Install the widget",
        slug: "install-the-widget",
        position: 3,
        content: "# Install\n\n<script>alert(1)</script> Paste the snippet.",
        description: "How to install",
        category_id: categoryId,
        author_id: world.agent.id,
        status: 1,
        locale: "en",
        meta: { title: "Install | Acme", description: "Widget setup", tags: ["widget", "setup"] },
      },
    });
    expect(res.status).toBe(200);
    expect(res.body.payload).toEqual(
      expect.objectContaining({
        id: expect.any(Number),
        title: "Install the widget",
        slug: "install-the-widget",
        position: 3,
        // stored and returned as given
        content: "# Install\n\n<script>alert(1)</script> Paste the snippet.",
        description: "How to install",
        category_id: categoryId,
        author_id: world.agent.id,
        associated_article_id: null,
        status: "published",
        locale: "en",
        meta: { title: "Install | Acme", description: "Widget setup", tags: ["widget", "setup"] },
        views: 0,
        portal_id: expect.any(Number),
        account_id: world.accountId,
        folder_id: null,
        updated_at: expect.any(Number),
        category: { id: categoryId, name: "Getting started", slug: "getting-started", locale: "en" },
        associated_articles: [],
      }),
    );
    expect(res.body.payload.author).toMatchObject({ id: world.agent.id, email: world.agent.email, role: "agent" });
  });

  it("maps every status number to its name and refuses others", async () => {
    for (const [status, name] of [[0, "draft"], [1, "published"], [2, "archived"], ["archived", "archived"]] as const) {
      const res = await create({ title: `Status ${status}`, content: "x", status });
      expect(res.status).toBe(200);
      expect(res.body.payload.status).toBe(name);
    }
    expect((await create({ title: "Default status", content: "x" })).body.payload.status).toBe("draft");
    const bad = await create({ title: "Bad status", content: "x", status: 7 });
    expect(bad.status).toBe(422);
    expect(bad.body.errors[0].field).toBe("status");
    const unknown = await create({ title: "Unknown status", content: "x", status: "pending" });
    expect(unknown.status).toBe(422);
    expect(unknown.body.errors[0]).toMatchObject({ field: "status", code: "invalid_value" });
  });

  it("defaults the author to the caller and refuses a user outside the account", async () => {
    const mine = await create({ title: "By me", content: "x" });
    expect(mine.body.payload.author_id).toBe(world.admin.id);

    const stranger = await createUser(world.platformKey, "Stranger");
    const res = await create({ title: "By a stranger", content: "x", author_id: stranger.id });
    expect(res.status).toBe(422);
    expect(res.body.errors[0]).toMatchObject({ field: "author_id", code: "not_a_member" });
    const foreign = await create({ title: "By them", content: "x", author_id: other.admin.id });
    expect(foreign.status).toBe(422);
  });

  it("generates a slug from the title, with a suffix on a clash", async () => {
    const first = await create({ title: "Réinitialiser: Your Password!", content: "x" });
    expect(first.body.payload.slug).toBe("reinitialiser-your-password");
    const second = await create({ title: "Réinitialiser your password", content: "y" });
    expect(second.status).toBe(200);
    expect(second.body.payload.slug).toMatch(/^reinitialiser-your-password-[a-z0-9]{6}$/);
  });

  it("keeps a given slug unique in the portal (422, not 500)", async () => {
    expect((await create({ title: "A", slug: "unique-slug", content: "x" })).status).toBe(200);
    const clash = await create({ title: "B", slug: "unique-slug", content: "x" });
    expect(clash.status).toBe(422);
    expect(clash.body.errors).toEqual([expect.objectContaining({ field: "slug", code: "taken" })]);
    // another portal may use it
    await post(`${world.base}/portals`, world.admin.key, { name: "Other docs", slug: "art-other" });
    expect((await post(`${world.base}/portals/art-other/articles`, world.admin.key, { title: "C", slug: "unique-slug", content: "x" })).status).toBe(
      200,
    );
  });

  it("checks the category against the portal and the locale against the category", async () => {
    await post(`${other.base}/portals`, other.admin.key, { name: "Theirs", slug: "art-theirs" });
    const theirs = await post(`${other.base}/portals/art-theirs/categories`, other.admin.key, { name: "T", slug: "t" });
    const foreign = await create({ title: "Foreign category", content: "x", category_id: theirs.body.payload.id });
    expect(foreign.status).toBe(422);
    expect(foreign.body.errors[0]).toMatchObject({ field: "category_id", code: "not_found" });

    const french = await create({ title: "Bonjour", content: "x", category_id: frenchCategoryId });
    expect(french.body.payload.locale).toBe("fr");
    const mismatch = await create({ title: "Hello", content: "x", category_id: frenchCategoryId, locale: "en" });
    expect(mismatch.status).toBe(422);
    expect(mismatch.body.errors[0]).toMatchObject({ field: "locale", code: "category_locale_mismatch" });
    const notAllowed = await create({ title: "Hallo", content: "x", locale: "de" });
    expect(notAllowed.body.errors[0]).toMatchObject({ field: "locale", code: "not_allowed" });
  });

  it("validates the body", async () => {
    const res = await create({ slug: "Bad Slug", meta: { keywords: "x" }, category_id: "abc" });
    expect(res.status).toBe(422);
    const fields = res.body.errors.map((e: any) => `${e.field}:${e.code}`);
    expect(fields).toEqual(
      expect.arrayContaining(["title:required", "content:required", "slug:invalid_format", "meta:unknown_keys", "category_id:invalid_type"]),
    );
  });

  it("accepts a form body", async () => {
    const form = new URLSearchParams({ "article[title]": "From a form", "article[content]": "x", "article[status]": "1", "article[meta][tags][]": "form" });
    const { call } = await import("../support/http");
    const res = await call("POST", `${portal}/articles`, {
      key: world.admin.key,
      rawBody: form.toString(),
      headers: { "content-type": "application/x-www-form-urlencoded" },
    });
    expect(res.status).toBe(200);
    expect(res.body.payload).toMatchObject({ title: "From a form", status: "published", meta: { tags: ["form"] } });
  });
});

describe("associated articles", () => {
  it("links both ways and across the group", async () => {
    const en = (await create({ title: "Pricing", content: "x" })).body.payload;
    const fr = (await create({ title: "Tarifs", content: "x", locale: "fr", associated_article_id: en.id })).body.payload;
    expect(fr.associated_article_id).toBe(en.id);
    expect(fr.associated_articles.map((a: any) => a.id)).toEqual([en.id]);

    const shown = await get(`${portal}/articles/${en.id}`, world.admin.key);
    expect(shown.body.payload.associated_articles.map((a: any) => a.id)).toEqual([fr.id]);

    // a third joins through the French one and sees both
    const third = (await create({ title: "Pricing (UK)", content: "x", associated_article_id: fr.id })).body.payload;
    expect(third.associated_articles.map((a: any) => a.id).sort()).toEqual([en.id, fr.id].sort());

    // deleting the root keeps the others linked
    expect((await del(`${portal}/articles/${en.id}`, world.admin.key)).status).toBe(200);
    const after = await get(`${portal}/articles/${third.id}`, world.admin.key);
    expect(after.body.payload.associated_articles.map((a: any) => a.id)).toEqual([fr.id]);
  });

  it("refuses an article of another portal or the article itself", async () => {
    const elsewhere = await post(`${world.base}/portals`, world.admin.key, { name: "Assoc", slug: "art-assoc" });
    expect(elsewhere.status).toBe(200);
    const outside = await post(`${world.base}/portals/art-assoc/articles`, world.admin.key, { title: "Out", content: "x" });
    const res = await create({ title: "In", content: "x", associated_article_id: outside.body.payload.id });
    expect(res.status).toBe(422);
    expect(res.body.errors[0]).toMatchObject({ field: "associated_article_id", code: "not_found" });

    const self = (await create({ title: "Self", content: "x" })).body.payload;
    const selfLink = await patch(`${portal}/articles/${self.id}`, world.admin.key, { associated_article_id: self.id });
    expect(selfLink.status).toBe(422);
  });
});

describe("show, update, delete", () => {
  it("updates with PATCH and PUT and refuses a taken slug", async () => {
    const a = (await create({ title: "Before", content: "old", slug: "before" })).body.payload;
    await create({ title: "Taken", content: "x", slug: "taken-slug" });
    const patched = await patch(`${portal}/articles/${a.id}`, world.admin.key, {
      article: { title: "After", content: "new", status: "published", category_id: categoryId, meta: { tags: ["x"] } },
    });
    expect(patched.status).toBe(200);
    expect(patched.body.payload).toMatchObject({ title: "After", content: "new", status: "published", slug: "before", category_id: categoryId });
    expect(patched.body.payload.category.slug).toBe("getting-started");

    const archived = await put(`${portal}/articles/${a.id}`, world.admin.key, { status: 2 });
    expect(archived.body.payload.status).toBe("archived");

    const clash = await patch(`${portal}/articles/${a.id}`, world.admin.key, { slug: "taken-slug" });
    expect(clash.status).toBe(422);
    expect(clash.body.errors[0]).toMatchObject({ field: "slug", code: "taken" });

    const uncategorised = await patch(`${portal}/articles/${a.id}`, world.admin.key, { category_id: null });
    expect(uncategorised.body.payload.category).toEqual({ id: null, name: null, slug: null, locale: null });
  });

  it("answers 404 for an unknown article or one of another portal", async () => {
    expect((await get(`${portal}/articles/999999`, world.admin.key)).status).toBe(404);
    const outside = await post(`${world.base}/portals/art-other/articles`, world.admin.key, { title: "Other", content: "x" });
    expect((await get(`${portal}/articles/${outside.body.payload.id}`, world.admin.key)).status).toBe(404);
    expect((await patch(`${portal}/articles/${outside.body.payload.id}`, world.admin.key, { title: "Moved?" })).status).toBe(404);
    expect((await del(`${portal}/articles/${outside.body.payload.id}`, world.admin.key)).status).toBe(404);
  });

  it("deletes an article", async () => {
    const a = (await create({ title: "Short-lived", content: "x" })).body.payload;
    expect((await del(`${portal}/articles/${a.id}`, world.admin.key)).status).toBe(200);
    expect((await get(`${portal}/articles/${a.id}`, world.admin.key)).status).toBe(404);
  });
});

describe("reorder", () => {
  it("sets positions of this portal's articles only", async () => {
    const a = (await create({ title: "First", content: "x", category_id: categoryId })).body.payload;
    const b = (await create({ title: "Second", content: "x", category_id: categoryId })).body.payload;
    expect(b.position).toBeGreaterThan(a.position);

    const res = await post(`${portal}/articles/reorder`, world.admin.key, { positions_hash: { [a.id]: 20, [b.id]: 10 } });
    expect(res.status).toBe(200);
    const list = await get(`${portal}/articles?category_slug=getting-started`, world.admin.key);
    const ids = list.body.payload.map((x: any) => x.id);
    expect(ids.indexOf(b.id)).toBeLessThan(ids.indexOf(a.id));
    expect(list.body.payload.find((x: any) => x.id === a.id).position).toBe(20);

    const outside = await post(`${world.base}/portals/art-other/articles`, world.admin.key, { title: "Elsewhere", content: "x" });
    const bad = await post(`${portal}/articles/reorder`, world.admin.key, { positions_hash: { [a.id]: 1, [outside.body.payload.id]: 2 } });
    expect(bad.status).toBe(422);
    expect(bad.body.errors).toEqual([expect.objectContaining({ field: `positions_hash.${outside.body.payload.id}`, code: "not_found" })]);
    // nothing moved
    expect((await get(`${portal}/articles/${a.id}`, world.admin.key)).body.payload.position).toBe(20);

    const empty = await post(`${portal}/articles/reorder`, world.admin.key, { positions_hash: {} });
    expect(empty.status).toBe(422);
  });
});

describe("list", () => {
  let listPortal: string;
  beforeAll(async () => {
    await post(`${world.base}/portals`, world.admin.key, { name: "List", slug: "art-list", config: { allowed_locales: ["en", "fr"] } });
    listPortal = `${world.base}/portals/art-list`;
    const cat = (await post(`${listPortal}/categories`, world.admin.key, { name: "Guides", slug: "guides" })).body.payload.id;
    const make = (body: Record<string, unknown>) => post(`${listPortal}/articles`, world.admin.key, { content: "x", ...body });
    await make({ title: "Draft by admin" });
    await make({ title: "Published by agent", status: 1, author_id: world.agent.id, category_id: cat });
    await make({ title: "Archived by agent", status: 2, author_id: world.agent.id });
    await make({ title: "French draft", locale: "fr" });
  });

  it("counts by status and author in the meta", async () => {
    const res = await get(`${listPortal}/articles`, world.admin.key);
    expect(res.status).toBe(200);
    expect(res.body.meta).toEqual({
      all_articles_count: 4,
      archived_articles_count: 1,
      articles_count: 4,
      current_page: 1,
      draft_articles_count: 2,
      mine_articles_count: 2,
      published_count: 1,
    });
    // newest first without a category
    expect(res.body.payload.map((a: any) => a.title)).toEqual(["French draft", "Archived by agent", "Published by agent", "Draft by admin"]);
  });

  it("filters by status, locale, category and author", async () => {
    const titles = async (query: string, key = world.admin.key) =>
      (await get(`${listPortal}/articles?${query}`, key)).body.payload.map((a: any) => a.title);
    expect(await titles("status=published")).toEqual(["Published by agent"]);
    expect(await titles("status=0")).toEqual(["French draft", "Draft by admin"]);
    expect(await titles("locale=fr")).toEqual(["French draft"]);
    expect(await titles("category_slug=guides")).toEqual(["Published by agent"]);
    expect(await titles(`author_id=${world.agent.id}`)).toEqual(["Archived by agent", "Published by agent"]);
    const meta = (await get(`${listPortal}/articles?author_id=${world.agent.id}`, world.agent.key)).body.meta;
    expect(meta).toMatchObject({ articles_count: 2, all_articles_count: 4, mine_articles_count: 2 });
  });

  it("validates the query", async () => {
    const res = await get(`${listPortal}/articles?status=pending&page=0`, world.admin.key);
    expect(res.status).toBe(422);
    expect(res.body.errors.map((e: any) => e.field).sort()).toEqual(["page", "status"]);
  });

  it("pages by 25", async () => {
    await post(`${world.base}/portals`, world.admin.key, { name: "Many", slug: "art-many" });
    for (let i = 0; i < 27; i++) await post(`${world.base}/portals/art-many/articles`, world.admin.key, { title: `Article ${i}`, content: "x" });
    const first = await get(`${world.base}/portals/art-many/articles`, world.admin.key);
    const second = await get(`${world.base}/portals/art-many/articles?page=2`, world.admin.key);
    expect(first.body.payload).toHaveLength(25);
    expect(second.body.payload).toHaveLength(2);
    expect(second.body.meta).toMatchObject({ current_page: 2, articles_count: 27 });
  });
});

describe("article permissions", () => {
  it("lets an agent list articles but not show, create, change, reorder or delete them", async () => {
    const a = (await create({ title: "Admin only", content: "x" })).body.payload;
    expect((await get(`${portal}/articles`, world.agent.key)).status).toBe(200);
    for (const res of [
      await get(`${portal}/articles/${a.id}`, world.agent.key),
      await create({ title: "Agent", content: "x" }, world.agent.key),
      await patch(`${portal}/articles/${a.id}`, world.agent.key, { title: "Agent" }),
      await post(`${portal}/articles/reorder`, world.agent.key, { positions_hash: { [a.id]: 1 } }),
      await del(`${portal}/articles/${a.id}`, world.agent.key),
    ]) {
      expect(res.status).toBe(403);
    }
  });

  it("refuses another account's key, and hides this portal from its own routes", async () => {
    expect((await get(`${portal}/articles`, other.admin.key)).status).toBe(403);
    expect((await post(`${other.base}/portals/art-docs/articles`, other.admin.key, { title: "X", content: "x" })).status).toBe(404);
    expect((await get(`${portal}/articles`, null)).status).toBe(401);
  });

  it("lets a newly added administrator manage articles", async () => {
    const admin2 = await createUser(world.platformKey, "Second Admin");
    await addToAccount(world.platformKey, world.accountId, admin2.id, "administrator");
    expect((await create({ title: "By the second admin", content: "x" }, admin2.key)).body.payload.author_id).toBe(admin2.id);
  });
});
