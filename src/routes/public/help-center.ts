/**
 * /public/api/v1/portals/:portal_slug: the help center for its readers, without a key (JSON for a
 * help-center front end). Only published articles of portals that are not archived are readable.
 */
import { Hono } from "hono";
import { cors } from "hono/cors";
import { listPublicArticles, listPublicCategories, readPublicArticle, readPublicPortal } from "../../domain/help-center/public";
import type { AppEnv } from "../../http/app-env";
import { publicScope } from "../../http/scopes";
import { validate } from "../../http/validate";
import { CategoryListQuery, PortalParam, PublicArticle, PublicArticleList, PublicArticleListQuery, PublicArticleParam, PublicCategoryList, PublicPortal } from "../../schemas/help-center";
import { publicArticleView, publicCategoryView, publicPortalView } from "../../views/help-center";
import { doc } from "../../http/openapi";
import { rateLimited } from "../../http/rate-limit";
import { shardOfPublicKey } from "../../http/public-route";
import { payloadOf } from "../../schemas/responses";

export const publicPortalsApi = new Hono<AppEnv>()
  .use("/:portal_slug/*", rateLimited("public_api"), shardOfPublicKey("portal", "portal_slug"))
  // public, read-only data without credentials: any site may fetch it from a browser
  .use("*", cors({ origin: "*", allowMethods: ["GET"] }))
  .get("/:portal_slug", doc({ summary: "Show a public portal", response: PublicPortal }), validate("param", PortalParam), async (c) =>
    c.json(publicPortalView(await readPublicPortal(publicScope(c), c.req.valid("param").portal_slug))),
  )
  .get("/:portal_slug/categories", doc({ summary: "List a public portal's categories", response: PublicCategoryList }), validate("param", PortalParam), validate("query", CategoryListQuery), async (c) => {
    const { locale, page = 1 } = c.req.valid("query");
    const result = await listPublicCategories(publicScope(c), c.req.valid("param").portal_slug, locale, page);
    return c.json({ payload: result.categories.map(publicCategoryView), meta: { current_page: page, categories_count: result.total } });
  })
  .get("/:portal_slug/articles", doc({ summary: "List or search a public portal's published articles", response: PublicArticleList }), validate("param", PortalParam), validate("query", PublicArticleListQuery), async (c) => {
    const { page = 1, category_slug, ...filters } = c.req.valid("query");
    const result = await listPublicArticles(publicScope(c), c.req.valid("param").portal_slug, { ...filters, page, categorySlug: category_slug });
    return c.json({ payload: result.articles.map(publicArticleView), meta: { current_page: page, articles_count: result.total } });
  })
  .get("/:portal_slug/articles/:article_slug", doc({ summary: "Show a published article", response: payloadOf(PublicArticle) }), validate("param", PublicArticleParam), async (c) => {
    const { portal_slug, article_slug } = c.req.valid("param");
    return c.json({ payload: publicArticleView(await readPublicArticle(publicScope(c), portal_slug, article_slug)) });
  });
