/**
 * The public help center (no key): each portal shows only its own published articles, never a draft,
 * never another portal's content, and nothing of an archived portal or a suspended account.
 */
import { describe, expect, it } from "vitest";
import { call, get, patch, post } from "../support/http";
import { buildTenant } from "./tenant";

const A = await buildTenant("Acme", "acme", 1);
const B = await buildTenant("Globex", "globex", 1);
const pub = (path: string) => get(`/public/api/v1/portals/${path}`);
const slugs = (body: { payload: Array<{ slug: string }> }) => body.payload.map((a) => a.slug);

describe("a portal's readers", () => {
  it("see its published articles and no draft", async () => {
    const list = await pub(`${A.portalSlug}/articles`);
    expect(list.status).toBe(200);
    expect(slugs(list.body)).toEqual([A.article.slug]);
    expect(JSON.stringify(list.body)).not.toContain("Secret draft");
    expect((await pub(`${A.portalSlug}/articles/${A.draft.slug}`)).status).toBe(404);
    expect((await pub(`${A.portalSlug}/articles?query=secret`)).body.payload).toEqual([]);
    expect((await pub(`${A.portalSlug}/articles?category_slug=${A.category.slug}`)).body.payload.map((a: { slug: string }) => a.slug)).toEqual([
      A.article.slug,
    ]);
    const categories = await pub(`${A.portalSlug}/categories`);
    expect(categories.body.payload.map((c: { slug: string; meta: { articles_count: number } }) => [c.slug, c.meta.articles_count])).toEqual([
      [A.category.slug, 1],
    ]);
  });

  it("never see another portal's articles or categories through this portal's slug", async () => {
    expect((await pub(`${A.portalSlug}/articles/${B.article.slug}`)).status).toBe(404);
    expect((await pub(`${A.portalSlug}/articles/${B.draft.slug}`)).status).toBe(404);
    expect((await pub(`${A.portalSlug}/articles?category_slug=${B.category.slug}`)).body.payload).toEqual([]);
    expect((await pub(`${A.portalSlug}/articles?query=globex`)).body.payload).toEqual([]);
    // B's own portal shows B's published article only
    expect(slugs((await pub(`${B.portalSlug}/articles`)).body)).toEqual([B.article.slug]);
    expect((await pub(`${B.portalSlug}/articles/${B.draft.slug}`)).status).toBe(404);
  });

  it("show no account data: no author email, no account id of another account, no draft translations", async () => {
    // a draft translation of A's published article must not surface with it
    const translation = await post(`${A.base}/portals/${A.portalSlug}/articles`, A.admin.key, {
      title: "Draft translation",
      slug: "acme-draft-translation",
      content: "Unpublished words",
      associated_article_id: A.article.id,
      status: "draft",
    });
    expect(translation.status, JSON.stringify(translation.body)).toBe(200);
    for (const path of [A.portalSlug, `${A.portalSlug}/categories`, `${A.portalSlug}/articles`, `${A.portalSlug}/articles/${A.article.slug}`]) {
      const text = JSON.stringify((await pub(path)).body);
      expect(text, path).not.toContain(A.admin.email);
      expect(text, path).not.toContain("acme-draft-translation");
      expect(text, path).not.toContain("Unpublished");
      expect(text, path).not.toContain("Globex");
      expect(text, path).not.toContain("hmac");
    }
  });

  it("are not answered for an archived portal", async () => {
    expect((await patch(`${B.base}/portals/${B.portalSlug}`, B.admin.key, { archived: true })).status).toBe(200);
    for (const path of [B.portalSlug, `${B.portalSlug}/categories`, `${B.portalSlug}/articles`, `${B.portalSlug}/articles/${B.article.slug}`]) {
      expect((await pub(path)).status, path).toBe(404);
    }
    expect((await patch(`${B.base}/portals/${B.portalSlug}`, B.admin.key, { archived: false })).status).toBe(200);
    expect((await pub(B.portalSlug)).status).toBe(200);
  });

  it("are not answered for a portal of a suspended account", async () => {
    await patch(`/platform/api/v1/accounts/${B.accountId}`, B.platformKey, { status: "suspended" });
    expect((await pub(B.portalSlug)).status).toBe(404);
    expect((await pub(`${B.portalSlug}/articles/${B.article.slug}`)).status).toBe(404);
    await patch(`/platform/api/v1/accounts/${B.accountId}`, B.platformKey, { status: "active" });
    expect((await pub(B.portalSlug)).status).toBe(200);
  });
});

describe("the public surface", () => {
  it("has no route addressed by an account, inbox, contact or conversation id", async () => {
    for (const path of [
      `/public/api/v1/accounts/${A.accountId}`,
      `/public/api/v1/inboxes/${A.inbox.id}`,
      `/public/api/v1/contacts/${A.contact.id}`,
      `/public/api/v1/conversations/${A.conversationId}`,
      `/public/api/v1/portals/${A.portal.id}`,
      `/public/api/v1/portals/${A.portalSlug}/articles/${A.article.id}`,
      `/public/api/v1/portals/${A.portalSlug}/articles/${A.draft.id}`,
    ]) {
      const res = await get(path);
      expect(res.status, path).toBe(404);
      expect(JSON.stringify(res.body)).not.toContain("Acme");
    }
  });

  it("answers only reads", async () => {
    for (const method of ["POST", "PATCH", "PUT", "DELETE"]) {
      const res = await call(method, `/public/api/v1/portals/${A.portalSlug}/articles/${A.article.slug}`, { body: { title: "Defaced" } });
      expect(res.status).toBe(404);
    }
    expect((await pub(`${A.portalSlug}/articles/${A.article.slug}`)).body.payload.title).toBe("Acme published");
  });

  // ("..": URLs resolve dot segments before any server sees them, so there is nothing to test)
  it.each(["0", "-1", "1e3", "99999999999999999999", "acme-help%00", "ACME-HELP", "%20acme-help", "acme-help%2Farticles"])(
    "an odd portal or article slug (%s) is a 404 or 422, never a 500",
    async (odd) => {
      for (const path of [odd, `${odd}/articles`, `${odd}/categories`, `${A.portalSlug}/articles/${odd}`, `${A.portalSlug}/articles?page=${odd}`]) {
        const res = await pub(path);
        expect([404, 422], `${path}: ${JSON.stringify(res.body)}`).toContain(res.status);
      }
    },
  );
});
