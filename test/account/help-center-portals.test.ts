import { beforeAll, describe, expect, it } from "vitest";
import { del, get, patch, post, put } from "../support/http";
import { createWorld } from "../support/world";

let world: Awaited<ReturnType<typeof createWorld>>;
let other: Awaited<ReturnType<typeof createWorld>>;

beforeAll(async () => {
  world = await createWorld("Portals");
  other = await createWorld("Elsewhere");
});

const portals = () => `${world.base}/portals`;

describe("portals", () => {
  it("an administrator creates a portal and reads it back by slug", async () => {
    const created = await post(portals(), world.admin.key, {
      portal: { name: "Help", slug: "help-create", color: "#1f93ff", page_title: "Acme help", header_text: "How can we help?" },
    });
    expect(created.status).toBe(200);
    expect(created.body).toMatchObject({
      id: expect.any(Number),
      account_id: world.accountId,
      name: "Help",
      slug: "help-create",
      color: "#1f93ff",
      archived: false,
      config: { default_locale: "en", allowed_locales: [{ code: "en", articles_count: 0, categories_count: 0 }] },
      meta: { all_articles_count: 0, categories_count: 0, default_locale: "en" },
    });

    const shown = await get(`${portals()}/help-create`, world.agent.key);
    expect(shown.status).toBe(200);
    expect(shown.body).toMatchObject({ id: created.body.id, name: "Help", page_title: "Acme help" });

    const listed = await get(portals(), world.agent.key);
    expect(listed.status).toBe(200);
    expect(listed.body.payload.map((p: any) => p.slug)).toContain("help-create");
    expect(listed.body.meta).toMatchObject({ current_page: 1, portals_count: listed.body.payload.length });
  });

  it("ignores an account_id in the body: a portal always belongs to the caller's account", async () => {
    const created = await post(portals(), world.admin.key, { name: "Mine", slug: "help-owned", account_id: other.accountId });
    expect(created.status).toBe(200);
    expect(created.body.account_id).toBe(world.accountId);
    expect((await get(`${other.base}/portals/help-owned`, other.admin.key)).status).toBe(404);
  });

  it("refuses a slug taken anywhere in the installation", async () => {
    expect((await post(portals(), world.admin.key, { name: "A", slug: "shared-slug" })).status).toBe(200);
    const clash = await post(`${other.base}/portals`, other.admin.key, { name: "B", slug: "shared-slug" });
    expect(clash.status).toBe(422);
    expect(clash.body.errors).toEqual([expect.objectContaining({ field: "slug", code: "taken" })]);
  });

  it("validates the name, the slug format and the config keys", async () => {
    const res = await post(portals(), world.admin.key, { slug: "Not A Slug", config: { default_locale: "en", theme: "dark" } });
    expect(res.status).toBe(422);
    const fields = res.body.errors.map((e: any) => `${e.field}:${e.code}`);
    expect(fields).toContain("name:required");
    expect(fields).toContain("slug:invalid_format");
    expect(fields).toContain("config:unknown_keys");
  });

  it("keeps the default locale among the allowed locales", async () => {
    const bad = await post(portals(), world.admin.key, {
      name: "Locales",
      slug: "help-locales",
      config: { default_locale: "fr", allowed_locales: ["en", "de"] },
    });
    expect(bad.status).toBe(422);
    expect(bad.body.errors[0]).toMatchObject({ field: "config.default_locale", code: "not_allowed" });

    const ok = await post(portals(), world.admin.key, {
      name: "Locales",
      slug: "help-locales",
      config: { allowed_locales: ["de", "fr"] },
    });
    expect(ok.status).toBe(200);
    // without English, the first allowed locale becomes the default
    expect(ok.body.config.default_locale).toBe("de");
    expect(ok.body.config.allowed_locales.map((l: any) => l.code)).toEqual(["de", "fr"]);

    const changed = await patch(`${portals()}/help-locales`, world.admin.key, { config: { default_locale: "fr" } });
    expect(changed.status).toBe(200);
    expect(changed.body.config.default_locale).toBe("fr");
    expect(changed.body.config.allowed_locales.map((l: any) => l.code)).toEqual(["de", "fr"]);
  });

  it("cuts a custom domain URL to its host and keeps it unique", async () => {
    const res = await post(portals(), world.admin.key, { name: "D", slug: "help-domain", custom_domain: "https://Docs.Example.com/help?x=1" });
    expect(res.status).toBe(200);
    expect(res.body.custom_domain).toBe("docs.example.com");
    const clash = await post(`${other.base}/portals`, other.admin.key, { name: "E", slug: "help-domain-2", custom_domain: "docs.example.com" });
    expect(clash.status).toBe(422);
    expect(clash.body.errors[0]).toMatchObject({ field: "custom_domain", code: "taken" });
    const bad = await post(portals(), world.admin.key, { name: "F", slug: "help-domain-3", custom_domain: "not a domain" });
    expect(bad.status).toBe(422);
    expect(bad.body.errors[0].field).toBe("custom_domain");
  });

  it("updates with PATCH and PUT, and renames the slug", async () => {
    await post(portals(), world.admin.key, { name: "Old", slug: "help-rename" });
    const patched = await patch(`${portals()}/help-rename`, world.admin.key, { portal: { name: "New", archived: true } });
    expect(patched.status).toBe(200);
    expect(patched.body).toMatchObject({ name: "New", archived: true, slug: "help-rename" });
    const renamed = await put(`${portals()}/help-rename`, world.admin.key, { slug: "help-renamed" });
    expect(renamed.status).toBe(200);
    expect((await get(`${portals()}/help-renamed`, world.admin.key)).body.name).toBe("New");
    expect((await get(`${portals()}/help-rename`, world.admin.key)).status).toBe(404);
  });

  it("refuses an inbox of another account", async () => {
    const res = await post(portals(), world.admin.key, { name: "I", slug: "help-inbox", inbox_id: 999999 });
    expect(res.status).toBe(422);
    expect(res.body.errors[0]).toMatchObject({ field: "inbox_id", code: "not_found" });
  });

  it("deletes a portal with its categories and articles", async () => {
    await post(portals(), world.admin.key, { name: "Gone", slug: "help-gone" });
    await post(`${portals()}/help-gone/categories`, world.admin.key, { name: "C", slug: "c" });
    await post(`${portals()}/help-gone/articles`, world.admin.key, { title: "T", content: "body" });
    const res = await del(`${portals()}/help-gone`, world.admin.key);
    expect(res.status).toBe(200);
    expect((await get(`${portals()}/help-gone`, world.admin.key)).status).toBe(404);
    // the slug is free again, and the new portal starts empty
    await post(portals(), world.admin.key, { name: "Again", slug: "help-gone" });
    const articles = await get(`${portals()}/help-gone/articles`, world.admin.key);
    expect(articles.body.meta.all_articles_count).toBe(0);
    expect((await del(`${portals()}/help-nothing`, world.admin.key)).status).toBe(404);
  });

  it("answers 404 naming an unknown slug", async () => {
    const res = await get(`${portals()}/no-such-portal`, world.admin.key);
    expect(res.status).toBe(404);
    expect(res.body.description).toContain("no-such-portal");
    expect(res.body.errors[0]).toMatchObject({ field: "portal_slug", code: "not_found" });
  });
});

describe("portal permissions", () => {
  it("lets an agent list and show but not create, change or delete", async () => {
    await post(portals(), world.admin.key, { name: "Perm", slug: "help-perm" });
    expect((await get(portals(), world.agent.key)).status).toBe(200);
    expect((await get(`${portals()}/help-perm`, world.agent.key)).status).toBe(200);
    for (const res of [
      await post(portals(), world.agent.key, { name: "X", slug: "help-agent" }),
      await patch(`${portals()}/help-perm`, world.agent.key, { name: "X" }),
      await del(`${portals()}/help-perm`, world.agent.key),
    ]) {
      expect(res.status).toBe(403);
      expect(res.body.errors[0].code).toBe("administrator_required");
    }
    expect((await get(`${portals()}/help-perm`, world.admin.key)).body.name).toBe("Perm");
  });

  it("hides another account's portals and refuses its key", async () => {
    await post(portals(), world.admin.key, { name: "Private", slug: "help-private" });
    expect((await get(`${other.base}/portals/help-private`, other.admin.key)).status).toBe(404);
    expect((await patch(`${other.base}/portals/help-private`, other.admin.key, { name: "Stolen" })).status).toBe(404);
    expect((await get(`${portals()}/help-private`, other.admin.key)).status).toBe(403);
    expect((await get(`${other.base}/portals`, other.admin.key)).body.payload.map((p: any) => p.slug)).not.toContain("help-private");
  });

  it("needs a key", async () => {
    const res = await get(portals(), null);
    expect(res.status).toBe(401);
  });
});
