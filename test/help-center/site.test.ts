/**
 * The public help-center site (/hc/{portal_slug}): HTML pages of published articles only, their head
 * (title, canonical, Open Graph), cache and security headers, the search box's results, the sitemap,
 * and the 404 page for whatever is not published or does not exist.
 */
import { env, exports } from "cloudflare:workers";
import { beforeAll, describe, expect, it, vi } from "vitest";
import { call, get, patch, post } from "../support/http";
import { createWorld } from "../support/world";

let world: Awaited<ReturnType<typeof createWorld>>;
const SLUG = "site-docs";
const site = `/hc/${SLUG}`;

/** The configured address of the service (wrangler.toml's FILES_BASE_URL): every absolute link of the site. */
const ORIGIN = new URL(env.FILES_BASE_URL).origin;

/** A page as a browser asks for it. */
const page = (path: string) => call("GET", path, { headers: { accept: "text/html" } });

beforeAll(async () => {
  world = await createWorld("Site");
  const portal = await post(`${world.base}/portals`, world.admin.key, {
    name: "Acme Help",
    slug: SLUG,
    page_title: "Acme Help Center",
    header_text: "How can we help?",
    color: "#ff6600",
    config: { allowed_locales: ["en", "fr"] },
  });
  if (portal.status !== 200) throw new Error(JSON.stringify(portal.body));
  const admin = `${world.base}/portals/${SLUG}`;
  const basics = await post(`${admin}/categories`, world.admin.key, { name: "Basics", slug: "basics", description: "Start here" });
  await post(`${admin}/categories`, world.admin.key, { name: "Bases", slug: "bases", locale: "fr" });
  const make = async (body: Record<string, unknown>) => {
    const res = await post(`${admin}/articles`, world.admin.key, { content: "Plain text", ...body });
    if (res.status !== 200) throw new Error(JSON.stringify(res.body));
  };
  const category_id = basics.body.payload.id;
  await make({ title: "Getting started guide", slug: "getting-started", status: 1, category_id, description: "The first steps", content: "# Welcome\n\nOpen **Settings** then <img src=x onerror=alert(1)> [x](javascript:alert(1))\n\n<script>window.__xss = 1</script>" });
  await make({ title: "<script>alert('title')</script> Billing guide", slug: "billing", status: 1, category_id });
  await make({ title: "Guide de démarrage", slug: "demarrage", status: 1, locale: "fr" });
  await make({ title: "Secret roadmap guide", slug: "roadmap", status: 0, category_id });
  await make({ title: "Old pricing guide", slug: "old-pricing", status: 2, category_id });

  await post(`${world.base}/portals`, world.admin.key, { name: "Old portal", slug: "site-archived" });
  await post(`${world.base}/portals/site-archived/articles`, world.admin.key, { title: "Archived portal guide", slug: "ghost", content: "x", status: 1 });
  await patch(`${world.base}/portals/site-archived`, world.admin.key, { archived: true });
});

function expectPage(res: Awaited<ReturnType<typeof page>>) {
  expect(res.status).toBe(200);
  expect(res.headers.get("content-type")).toMatch(/^text\/html/);
  expect(res.headers.get("cache-control")).toBe("public, max-age=300");
  expect(res.headers.get("content-security-policy")).toContain("default-src 'none'");
  expect(res.headers.get("content-security-policy")).not.toContain("script-src");
  // the page kit's skeleton and stylesheet (src/pages/kit.ts), which the policy lets load from this origin
  expect(res.body).toContain('<link rel="stylesheet" href="/kit/page.css">');
  expect(res.headers.get("content-security-policy")).toContain("style-src 'self'");
  // no script at all: the author's and the titles' <script> come out escaped or removed
  expect(res.body).not.toMatch(/<script/i);
  return res.body as string;
}

const NEVER_SHOWN = ["Secret roadmap guide", "Old pricing guide", "roadmap", "old-pricing", "Archived portal guide"];

describe("the portal home", () => {
  it("sends /hc/{slug} to the default locale", async () => {
    const res = await exports.default.fetch(new Request(`https://desk.test${site}`, { redirect: "manual" }));
    expect(res.status).toBe(302);
    expect(res.headers.get("location")).toBe(`${site}/en`);
  });

  it("shows the portal's header, colour, categories and published articles of the locale", async () => {
    const html = expectPage(await page(`${site}/en`));
    expect(html).toContain("<title>Acme Help Center</title>");
    expect(html).toContain("How can we help?");
    expect(html).toContain("--portal: #ff6600");
    expect(html).toContain(`<link rel="canonical" href="${ORIGIN}${site}/en">`);
    expect(html).toContain('<meta property="og:title" content="Acme Help Center">');
    expect(html).toContain('<meta property="og:description" content="How can we help?">');
    expect(html).toContain(`<meta property="og:url" content="${ORIGIN}${site}/en">`);
    expect(html).toContain(`<a href="${site}/en/categories/basics">Basics</a>`);
    expect(html).toContain(`<a href="${site}/articles/getting-started">Getting started guide</a>`);
    expect(html).toContain("Popular articles");
    expect(html).toContain("&lt;script&gt;alert(&#39;title&#39;)&lt;/script&gt; Billing guide");
    expect(html).not.toContain("Guide de démarrage");
    for (const hidden of NEVER_SHOWN) expect(html).not.toContain(hidden);
  });

  it("shows another locale's categories and articles", async () => {
    const html = expectPage(await page(`${site}/fr`));
    expect(html).toContain('<html lang="fr">');
    expect(html).toContain("Bases");
    expect(html).toContain("Guide de démarrage");
    expect(html).not.toContain("Getting started guide");
  });

  it("keeps a colour that is not a hex colour out of the style sheet", async () => {
    await patch(`${world.base}/portals/${SLUG}`, world.admin.key, { color: "red;} body{display:none" });
    const html = expectPage(await page(`${site}/en`));
    expect(html).toContain("--portal: #1f93ff");
    expect(html).not.toContain("display:none");
    await patch(`${world.base}/portals/${SLUG}`, world.admin.key, { color: "#ff6600" });
  });
});

describe("category and article pages", () => {
  it("lists a category's published articles", async () => {
    const html = expectPage(await page(`${site}/en/categories/basics`));
    expect(html).toContain("<title>Basics | Acme Help Center</title>");
    expect(html).toContain("Start here");
    expect(html).toContain("Getting started guide");
    for (const hidden of NEVER_SHOWN) expect(html).not.toContain(hidden);
  });

  it("renders the article's Markdown without anything that runs", async () => {
    const html = expectPage(await page(`${site}/articles/getting-started`));
    expect(html).toContain("<title>Getting started guide | Acme Help Center</title>");
    expect(html).toContain('<meta property="og:description" content="The first steps">');
    expect(html).toContain(`<link rel="canonical" href="${ORIGIN}${site}/articles/getting-started">`);
    expect(html).toContain("<h1>Welcome</h1>");
    expect(html).toContain("<strong>Settings</strong>");
    expect(html).not.toMatch(/onerror|javascript:|__xss/);
    expect(html).toContain(`<a href="${site}/en/categories/basics">Basics</a>`);
  });

  it("escapes a title holding markup in the title, heading and Open Graph tags", async () => {
    const html = expectPage(await page(`${site}/articles/billing`));
    expect(html).toContain("<title>&lt;script&gt;alert(&#39;title&#39;)&lt;/script&gt; Billing guide | Acme Help Center</title>");
    expect(html).toContain('<meta property="og:title" content="&lt;script&gt;alert(&#39;title&#39;)&lt;/script&gt; Billing guide">');
    expect(html).toContain("<h1>&lt;script&gt;alert(&#39;title&#39;)&lt;/script&gt; Billing guide</h1>");
  });
});

describe("search", () => {
  it("finds published articles of the locale, with the matched words marked", async () => {
    const html = expectPage(await page(`${site}/en/articles?query=guide`));
    expect(html).toContain("Results for “guide”");
    expect(html).toContain("Getting started guide");
    expect(html).toContain("Billing guide");
    expect(html).toContain('value="guide"');
    expect(html).not.toContain("Guide de démarrage");
    for (const hidden of NEVER_SHOWN) expect(html).not.toContain(hidden);
    expect(expectPage(await page(`${site}/en/articles?query=settings`))).toContain("<mark>Settings</mark>");
    expect(expectPage(await page(`${site}/en/articles?query=roadmap`))).toContain("No article matches your search.");
  });

  it.each([
    ["FTS syntax", 'title:"reset" OR * ^guide NEAR('],
    ["a NUL and control characters", "guide\u0000\u0007"],
    ["only punctuation", "!!! ??? ***"],
    ["a very long query", "guide ".repeat(500)],
  ])("answers a results page for a query with %s", async (_, query) => {
    expectPage(await page(`${site}/en/articles?query=${encodeURIComponent(query)}`));
  });

  it("reads any page number as a page", async () => {
    for (const number of ["-1", "0", "abc", "99999999999999999999", "2"]) {
      expect(expectPage(await page(`${site}/en/articles?query=guide&page=${number}`))).toContain("articles</p>");
    }
  });

  it("escapes the query it shows back", async () => {
    const html = expectPage(await page(`${site}/en/articles?query=${encodeURIComponent('"><script>alert(1)</script>')}`));
    expect(html).toContain("&quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt;");
  });
});

describe("the sitemap", () => {
  it("lists the locales' homes and published articles at absolute addresses", async () => {
    const res = await page(`${site}/sitemap.xml`);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^application\/xml/);
    expect(res.headers.get("cache-control")).toBe("public, max-age=300");
    const locs = [...(res.body as string).matchAll(/<loc>([^<]*)<\/loc>/g)].map((m) => m[1]);
    expect(locs.sort()).toEqual(
      [`${site}/en`, `${site}/fr`, `${site}/articles/getting-started`, `${site}/articles/billing`, `${site}/articles/demarrage`].map((p) => `${ORIGIN}${p}`).sort(),
    );
    expect(res.body).toContain("<lastmod>");
  });
});

describe("a forged Host", () => {
  // the pages are cached publicly: a link built from the request's Host would be served to every reader
  const FORGED = "attacker.example";
  const forged = (path: string) => exports.default.fetch(new Request(`https://${FORGED}${path}`, { headers: { host: FORGED, "x-forwarded-host": FORGED } }));

  it.each([
    ["the portal home", `${site}/en`],
    ["a category", `${site}/en/categories/basics`],
    ["an article", `${site}/articles/getting-started`],
    ["the search results", `${site}/en/articles?query=guide`],
  ])("leaves %s's canonical and og:url at the configured address", async (_, path) => {
    const res = await forged(path);
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(html).not.toContain(FORGED);
    const canonical = html.match(/<link rel="canonical" href="([^"]*)">/)?.[1];
    expect(canonical?.startsWith(`${ORIGIN}/hc/`), canonical).toBe(true);
    expect(html).toContain(`<meta property="og:url" content="${canonical}">`);
  });

  it("lists the sitemap's addresses at the configured address", async () => {
    const res = await forged(`${site}/sitemap.xml`);
    const xml = await res.text();
    expect(xml).not.toContain(FORGED);
    const locs = [...xml.matchAll(/<loc>([^<]*)<\/loc>/g)].map((m) => m[1]);
    expect(locs.length).toBe(5);
    for (const loc of locs) expect(loc.startsWith(`${ORIGIN}/hc/`), loc).toBe(true);
  });
});

describe("what does not exist", () => {
  it.each([
    ["an unknown portal", "/hc/no-such-portal/en"],
    ["an unknown portal's address", "/hc/no-such-portal"],
    ["an unknown portal's sitemap", "/hc/no-such-portal/sitemap.xml"],
    // the search ran with no portal to search in (a 500 before)
    ["a search in an unknown portal", "/hc/no-such-portal/en/articles?query=reset"],
    ["a search in an unknown portal with a bad escape and a huge page", "/hc/x/en/articles?query=%ff&page=99999999999999999999"],
    ["an unknown locale", `${site}/de`],
    ["a search in an unknown locale", `${site}/de/articles?query=guide`],
    ["an unknown category", `${site}/en/categories/nope`],
    ["a category of another locale", `${site}/en/categories/bases`],
    ["a draft article", `${site}/articles/roadmap`],
    ["an archived article", `${site}/articles/old-pricing`],
    ["an unknown article", `${site}/articles/nope`],
    ["an archived portal", "/hc/site-archived/en"],
    ["an archived portal's article", "/hc/site-archived/articles/ghost"],
    ["an archived portal's sitemap", "/hc/site-archived/sitemap.xml"],
    ["a very long slug", `/hc/${"x".repeat(300)}/en`],
    ["a path no page has", `${site}/en/nowhere/at-all`],
    ["the site's root", "/hc"],
  ])("%s is the 404 page", async (_, path) => {
    const res = await page(path);
    expect(res.status).toBe(404);
    expect(res.headers.get("content-type")).toMatch(/^text\/html/);
    expect(res.body).toContain("Page not found");
    expect(res.headers.get("cache-control")).not.toContain("max-age=300");
  });

  it("counts the views of an article page in batches, not one write per read", async () => {
    const views = async () => (await get(`/public/api/v1/portals/${SLUG}/articles?locale=fr`, null)).body.payload[0].views;
    const before = await views();
    await Promise.all(Array.from({ length: 12 }, () => page(`${site}/articles/demarrage`)));
    await vi.waitFor(async () => expect(await views()).toBe(before + 12), { timeout: 5000, interval: 50 });
  });
});
