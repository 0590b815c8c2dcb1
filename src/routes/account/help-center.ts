/**
 * /api/v1/accounts/:account_id/portals: help-center portals (addressed by slug), their categories and
 * articles. Permissions as Chatwoot has them: any member may list and show portals and list categories
 * and articles; administrators do the rest (article show included). Refusals are 403.
 */
import { Hono } from "hono";
import { createArticle, deleteArticle, listArticles, reorderArticles, showArticle, updateArticle } from "../../domain/help-center/articles";
import { createCategory, deleteCategory, listCategories, reorderCategories, showCategory, updateCategory } from "../../domain/help-center/categories";
import { createPortal, deletePortal, listPortals, showPortal, updatePortal } from "../../domain/help-center/portals";
import { type AppEnv } from "../../http/app-env";
import { accountScope } from "../../http/scopes";
import { requireAdministrator } from "../../http/auth";
import { validate } from "../../http/validate";
import {
  ArticleCreate,
  ArticleListQuery,
  ArticleReorder,
  ArticleUpdate,
  CategoryCreate,
  CategoryListQuery,
  CategoryReorder,
  CategoryUpdate,
  PortalCreate,
  PortalItemParam,
  PortalParam,
  PortalShowQuery,
  PortalUpdate,
  Article,
  ArticleList,
  Category,
  CategoryList,
  Portal,
  PortalList,
} from "../../schemas/help-center";
import { articleListMeta, articleView, categoryView, portalView } from "../../views/help-center";
import { idempotent } from "../../http/idempotency";
import { doc } from "../../http/openapi";
import { Empty, payloadOf } from "../../schemas/responses";

const categoriesApi = new Hono<AppEnv>()
  .get("/", doc({ summary: "List a portal's categories", response: CategoryList }), validate("param", PortalParam), validate("query", CategoryListQuery), async (c) => {
    const { locale, page = 1 } = c.req.valid("query");
    const result = await listCategories(accountScope(c), c.req.valid("param").portal_slug, locale, page);
    return c.json({ payload: result.categories.map(categoryView), meta: { current_page: page, categories_count: result.total } });
  })
  .post("/reorder", doc({ summary: "Reorder categories", response: Empty }), requireAdministrator, validate("param", PortalParam), validate("json", CategoryReorder), async (c) => {
    await reorderCategories(accountScope(c), c.req.valid("param").portal_slug, c.req.valid("json").positions_hash);
    return c.json({});
  })
  .post("/", doc({ summary: "Create a category", response: payloadOf(Category) }), requireAdministrator, idempotent(), validate("param", PortalParam), validate("json", CategoryCreate), async (c) => {
    const record = await createCategory(accountScope(c), c.req.valid("param").portal_slug, c.req.valid("json"));
    return c.json({ payload: categoryView(record) });
  })
  .get("/:id", doc({ summary: "Show a category", response: payloadOf(Category) }), requireAdministrator, validate("param", PortalItemParam), async (c) => {
    const { portal_slug, id } = c.req.valid("param");
    return c.json({ payload: categoryView(await showCategory(accountScope(c), portal_slug, id)) });
  })
  .on(["PATCH", "PUT"], "/:id", doc({ summary: "Update a category", response: payloadOf(Category) }), requireAdministrator, validate("param", PortalItemParam), validate("json", CategoryUpdate), async (c) => {
    const { portal_slug, id } = c.req.valid("param");
    return c.json({ payload: categoryView(await updateCategory(accountScope(c), portal_slug, id, c.req.valid("json"))) });
  })
  .delete("/:id", doc({ summary: "Delete a category", response: Empty }), requireAdministrator, validate("param", PortalItemParam), async (c) => {
    const { portal_slug, id } = c.req.valid("param");
    await deleteCategory(accountScope(c), portal_slug, id);
    return c.json({});
  });

const articlesApi = new Hono<AppEnv>()
  .get("/", doc({ summary: "List a portal's articles", response: ArticleList }), validate("param", PortalParam), validate("query", ArticleListQuery), async (c) => {
    const { page = 1, category_slug, author_id, ...filters } = c.req.valid("query");
    const result = await listArticles(accountScope(c), c.req.valid("param").portal_slug, {
      ...filters,
      page,
      categorySlug: category_slug,
      authorId: author_id,
    });
    return c.json({ payload: result.articles.map(articleView), meta: articleListMeta(result.tallies, page) });
  })
  .post("/reorder", doc({ summary: "Reorder articles", response: Empty }), requireAdministrator, validate("param", PortalParam), validate("json", ArticleReorder), async (c) => {
    await reorderArticles(accountScope(c), c.req.valid("param").portal_slug, c.req.valid("json").positions_hash);
    return c.json({});
  })
  .post("/", doc({ summary: "Create an article", response: payloadOf(Article) }), requireAdministrator, idempotent(), validate("param", PortalParam), validate("json", ArticleCreate), async (c) => {
    const record = await createArticle(accountScope(c), c.req.valid("param").portal_slug, c.req.valid("json"));
    return c.json({ payload: articleView(record) });
  })
  .get("/:id", doc({ summary: "Show an article", response: payloadOf(Article) }), requireAdministrator, validate("param", PortalItemParam), async (c) => {
    const { portal_slug, id } = c.req.valid("param");
    return c.json({ payload: articleView(await showArticle(accountScope(c), portal_slug, id)) });
  })
  .on(["PATCH", "PUT"], "/:id", doc({ summary: "Update an article", response: payloadOf(Article) }), requireAdministrator, validate("param", PortalItemParam), validate("json", ArticleUpdate), async (c) => {
    const { portal_slug, id } = c.req.valid("param");
    return c.json({ payload: articleView(await updateArticle(accountScope(c), portal_slug, id, c.req.valid("json"))) });
  })
  .delete("/:id", doc({ summary: "Delete an article", response: Empty }), requireAdministrator, validate("param", PortalItemParam), async (c) => {
    const { portal_slug, id } = c.req.valid("param");
    await deleteArticle(accountScope(c), portal_slug, id);
    return c.json({});
  });

export const portalsApi = new Hono<AppEnv>()
  .get("/", doc({ summary: "List portals", response: PortalList }), async (c) => {
    const records = await listPortals(accountScope(c));
    return c.json({ payload: records.map(portalView), meta: { current_page: 1, portals_count: records.length } });
  })
  .post("/", doc({ summary: "Create a portal", response: Portal }), requireAdministrator, idempotent(), validate("json", PortalCreate), async (c) =>
    c.json(portalView(await createPortal(accountScope(c), c.req.valid("json")))),
  )
  .route("/:portal_slug/categories", categoriesApi)
  .route("/:portal_slug/articles", articlesApi)
  .get("/:portal_slug", doc({ summary: "Show a portal", response: Portal }), validate("param", PortalParam), validate("query", PortalShowQuery), async (c) => {
    const record = await showPortal(accountScope(c), c.req.valid("param").portal_slug, c.req.valid("query").locale);
    return c.json(portalView(record));
  })
  .on(["PATCH", "PUT"], "/:portal_slug", doc({ summary: "Update a portal", response: Portal }), requireAdministrator, validate("param", PortalParam), validate("json", PortalUpdate), async (c) =>
    c.json(portalView(await updatePortal(accountScope(c), c.req.valid("param").portal_slug, c.req.valid("json")))),
  )
  .delete("/:portal_slug", doc({ summary: "Delete a portal", response: Empty }), requireAdministrator, validate("param", PortalParam), async (c) => {
    await deletePortal(accountScope(c), c.req.valid("param").portal_slug);
    return c.json({});
  });
