import { beforeAll, describe, expect, it } from "vitest";
import { del, get, patch, post } from "../support/http";
import { createWorld } from "../support/world";

let world: Awaited<ReturnType<typeof createWorld>>;
let other: Awaited<ReturnType<typeof createWorld>>;
let categories: string;

beforeAll(async () => {
  world = await createWorld("Categories");
  other = await createWorld("Elsewhere");
  const res = await post(`${world.base}/portals`, world.admin.key, {
    name: "Docs",
    slug: "cat-docs",
    config: { default_locale: "en", allowed_locales: ["en", "fr"] },
  });
  if (res.status !== 200) throw new Error(JSON.stringify(res.body));
  categories = `${world.base}/portals/cat-docs/categories`;
});

describe("categories", () => {
  it("creates, shows, lists, updates and deletes a category", async () => {
    const created = await post(categories, world.admin.key, {
      category: { name: "Billing", slug: "billing", description: "Invoices", position: 2, icon: "💳" },
    });
    expect(created.status).toBe(200);
    expect(created.body.payload).toMatchObject({
      id: expect.any(Number),
      name: "Billing",
      slug: "billing",
      locale: "en",
      description: "Invoices",
      position: 2,
      icon: "💳",
      account_id: world.accountId,
      related_categories: [],
      meta: { articles_count: 0 },
    });
    const id = created.body.payload.id;

    const shown = await get(`${categories}/${id}`, world.admin.key);
    expect(shown.status).toBe(200);
    expect(shown.body.payload.name).toBe("Billing");

    const updated = await patch(`${categories}/${id}`, world.admin.key, { name: "Payments", position: 1 });
    expect(updated.status).toBe(200);
    expect(updated.body.payload).toMatchObject({ name: "Payments", position: 1, slug: "billing" });

    const listed = await get(categories, world.agent.key);
    expect(listed.status).toBe(200);
    expect(listed.body.payload.map((c: any) => c.name)).toContain("Payments");
    expect(listed.body.meta).toMatchObject({ current_page: 1, categories_count: listed.body.payload.length });

    expect((await del(`${categories}/${id}`, world.admin.key)).status).toBe(200);
    expect((await get(`${categories}/${id}`, world.admin.key)).status).toBe(404);
    expect((await del(`${categories}/${id}`, world.admin.key)).status).toBe(404);
  });

  it("keeps the locale among the portal's locales and filters the list by it", async () => {
    const french = await post(categories, world.admin.key, { name: "Factures", slug: "factures", locale: "fr" });
    expect(french.status).toBe(200);
    expect(french.body.payload.locale).toBe("fr");

    const german = await post(categories, world.admin.key, { name: "Rechnungen", slug: "rechnungen", locale: "de" });
    expect(german.status).toBe(422);
    expect(german.body.errors[0]).toMatchObject({ field: "locale", code: "not_allowed" });

    const list = await get(`${categories}?locale=fr`, world.agent.key);
    expect(list.body.payload.map((c: any) => c.slug)).toEqual(["factures"]);
  });

  it("keeps a slug unique per portal and locale", async () => {
    expect((await post(categories, world.admin.key, { name: "Setup", slug: "setup" })).status).toBe(200);
    const clash = await post(categories, world.admin.key, { name: "Setup again", slug: "setup" });
    expect(clash.status).toBe(422);
    expect(clash.body.errors[0]).toMatchObject({ field: "slug", code: "taken" });
    // the same slug in another locale is another category
    expect((await post(categories, world.admin.key, { name: "Installation", slug: "setup", locale: "fr" })).status).toBe(200);
    // and moving a category into a locale where its slug exists clashes too
    const other = await post(categories, world.admin.key, { name: "Other", slug: "setup-2", locale: "fr" });
    const moved = await patch(`${categories}/${other.body.payload.id}`, world.admin.key, { slug: "setup", locale: "en" });
    expect(moved.status).toBe(422);
    expect(moved.body.errors[0]).toMatchObject({ field: "slug", code: "taken" });
  });

  it("links a parent and an associated category of the same portal only", async () => {
    const parent = await post(categories, world.admin.key, { name: "Parent", slug: "parent" });
    const child = await post(categories, world.admin.key, { name: "Child", slug: "child", parent_category_id: parent.body.payload.id });
    expect(child.status).toBe(200);
    expect(child.body.payload.parent_category).toMatchObject({ id: parent.body.payload.id, name: "Parent" });

    await post(`${other.base}/portals`, other.admin.key, { name: "Theirs", slug: "cat-theirs" });
    const foreign = await post(`${other.base}/portals/cat-theirs/categories`, other.admin.key, { name: "X", slug: "x" });
    const bad = await post(categories, world.admin.key, { name: "Bad", slug: "bad", parent_category_id: foreign.body.payload.id });
    expect(bad.status).toBe(422);
    expect(bad.body.errors[0]).toMatchObject({ field: "parent_category_id", code: "not_found" });
  });

  it("validates the body", async () => {
    const res = await post(categories, world.admin.key, { slug: "Has Spaces", position: "first" });
    expect(res.status).toBe(422);
    const fields = res.body.errors.map((e: any) => `${e.field}:${e.code}`);
    expect(fields).toEqual(expect.arrayContaining(["name:required", "slug:invalid_format", "position:invalid_type"]));
  });

  it("answers 404 for an unknown portal or another portal's category", async () => {
    expect((await get(`${world.base}/portals/nope/categories`, world.admin.key)).status).toBe(404);
    await post(`${world.base}/portals`, world.admin.key, { name: "Second", slug: "cat-second" });
    const c = await post(categories, world.admin.key, { name: "Only here", slug: "only-here" });
    expect((await get(`${world.base}/portals/cat-second/categories/${c.body.payload.id}`, world.admin.key)).status).toBe(404);
  });
});

describe("category permissions", () => {
  it("lets an agent list categories only", async () => {
    const c = await post(categories, world.admin.key, { name: "Perm", slug: "perm" });
    expect((await get(categories, world.agent.key)).status).toBe(200);
    for (const res of [
      await get(`${categories}/${c.body.payload.id}`, world.agent.key),
      await post(categories, world.agent.key, { name: "No", slug: "no" }),
      await patch(`${categories}/${c.body.payload.id}`, world.agent.key, { name: "No" }),
      await del(`${categories}/${c.body.payload.id}`, world.agent.key),
    ]) {
      expect(res.status).toBe(403);
    }
  });

  it("refuses another account's key and a missing key", async () => {
    expect((await get(categories, other.admin.key)).status).toBe(403);
    expect((await get(categories, null)).status).toBe(401);
  });
});
