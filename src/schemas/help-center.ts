/**
 * Request schemas of the help center: portals (addressed by slug), their categories and articles, and
 * the public reading routes. Bodies may be flat or wrapped (`{"portal": {...}}`), as Rails accepts both.
 */
import { z } from "zod";
import { ARTICLE_STATUSES } from "../domain/kernel/enums";
import { Bool, EnumParam, Id, Int, JsonObject, LongText, ShortText, wrapped } from "./common";
import { Agent } from "./agents";
import { seconds } from "./responses";

/** Portal, category and article slugs: lower-case letters, digits and hyphens (they appear in URLs). */
export const Slug = z
  .string()
  .trim()
  .min(1)
  .max(255)
  .regex(/^[a-z0-9-]+$/, { error: "may hold only lower-case letters, digits and hyphens" });

/** "en", "pt_BR", "zh-CN": the locale codes Chatwoot's help center uses. */
export const Locale = z
  .string()
  .trim()
  .regex(/^[a-zA-Z]{2,3}([_-][a-zA-Z0-9]{2,8})?$/, { error: "is not a locale code such as en or pt_BR" });

const Name = ShortText.trim().min(1);
/** A blank optional string means "none" (dashboards send "" for an emptied field). */
const blankToNull = (v: unknown) => (typeof v === "string" && v.trim() === "" ? null : v);
const OptionalText = z.preprocess(blankToNull, ShortText.nullish());

/** An object field that multipart clients may send as a JSON string; unknown keys are refused. */
const objectField = <S extends z.ZodRawShape>(shape: S) => JsonObject.pipe(z.strictObject(shape));

/**
 * A custom domain, stored as a bare host name: a URL is cut down to its host (as Chatwoot does),
 * so "https://Help.Example.com/x" becomes "help.example.com".
 */
const CustomDomain = z.preprocess(
  blankToNull,
  z
    .string()
    .trim()
    .max(255)
    .transform((v) => {
      try {
        return new URL(/^[a-z][a-z0-9+.-]*:\/\//i.test(v) ? v : `https://${v}`).hostname.toLowerCase();
      } catch {
        return "";
      }
    })
    .pipe(
      z.string().regex(/^([a-z0-9]([a-z0-9-]*[a-z0-9])?\.)+[a-z0-9]([a-z0-9-]*[a-z0-9])?$/, {
        error: "must be a domain name such as help.example.com",
      }),
    )
    .nullish(),
);

/** Portal `config`: only these two keys (Chatwoot refuses others too). */
const PortalConfig = objectField({
  default_locale: Locale.optional(),
  allowed_locales: z.array(Locale).min(1).max(50).optional(),
});

const portalFields = {
  name: Name,
  slug: Slug,
  custom_domain: CustomDomain,
  color: OptionalText,
  header_text: z.preprocess(blankToNull, LongText.nullish()),
  homepage_link: OptionalText,
  page_title: OptionalText,
  archived: Bool.optional(),
  config: PortalConfig.optional(),
  /** the website inbox whose live chat the help center offers; null clears it */
  inbox_id: z.preprocess(blankToNull, Id.nullish()),
};

/** POST /portals */
export const PortalCreate = wrapped("portal", z.object(portalFields));
/** PATCH/PUT /portals/:portal_slug */
export const PortalUpdate = wrapped("portal", z.object(portalFields).partial());

export const PortalParam = z.object({ portal_slug: z.string().min(1).max(255) });
export const PortalItemParam = PortalParam.extend({ id: Id });

const Page = Int.pipe(z.number().int().min(1).max(10_000));

export const PortalShowQuery = z.object({ locale: Locale.optional() });

const categoryFields = {
  name: Name,
  slug: Slug,
  /** defaults to the portal's default locale; must be one of its allowed locales */
  locale: Locale.optional(),
  description: z.preprocess(blankToNull, LongText.nullish()),
  position: Int.optional(),
  icon: OptionalText,
  parent_category_id: z.preprocess(blankToNull, Id.nullish()),
  associated_category_id: z.preprocess(blankToNull, Id.nullish()),
};

/** POST /portals/:portal_slug/categories */
export const CategoryCreate = wrapped("category", z.object(categoryFields));
/** PATCH/PUT /portals/:portal_slug/categories/:id */
export const CategoryUpdate = wrapped("category", z.object(categoryFields).partial());

/** GET /portals/:portal_slug/categories (and its public twin) */
export const CategoryListQuery = z.object({ locale: Locale.optional(), page: Page.optional() });

/** 0 draft, 1 published, 2 archived, or the name; a query string's or form body's "1" counts as 1. */
const ArticleStatus = EnumParam(ARTICLE_STATUSES);

/** Search-engine metadata; the specification names exactly these keys. */
const ArticleMeta = objectField({
  title: z.preprocess(blankToNull, ShortText.nullish()),
  description: z.preprocess(blankToNull, LongText.nullish()),
  tags: z.array(ShortText.trim().min(1)).max(50).optional(),
});

const articleFields = {
  title: Name,
  /** generated from the title when blank */
  slug: z.preprocess(blankToNull, Slug.nullish()),
  position: z.preprocess(blankToNull, Int.nullish()),
  content: LongText.min(1),
  description: z.preprocess(blankToNull, LongText.nullish()),
  category_id: z.preprocess(blankToNull, Id.nullish()),
  /** Chatwoot requires it; edgedesk defaults it to the calling user */
  author_id: Id.optional(),
  associated_article_id: z.preprocess(blankToNull, Id.nullish()),
  status: ArticleStatus.optional(),
  locale: Locale.optional(),
  meta: ArticleMeta.optional(),
};

/** POST /portals/:portal_slug/articles */
export const ArticleCreate = wrapped("article", z.object(articleFields));
/** PATCH/PUT /portals/:portal_slug/articles/:id */
export const ArticleUpdate = wrapped("article", z.object(articleFields).partial());

/** Full-text query: long enough for a question, short enough to bound the FTS work. */
const SearchText = z.string().max(200);

/** GET /portals/:portal_slug/articles */
export const ArticleListQuery = z.object({
  page: Page.optional(),
  status: ArticleStatus.optional(),
  locale: Locale.optional(),
  category_slug: Slug.optional(),
  author_id: Id.optional(),
  query: SearchText.optional(),
});

/** `{positions_hash: {"<id>": <position>}}` of the reorder routes: at most 100 ids of `noun`. */
const Reorder = (noun: string, plural: string) =>
  z.object({
    positions_hash: JsonObject.pipe(
      z
        .record(z.string().regex(/^\d+$/, { error: `keys must be ${noun} ids` }), Int)
        .refine((hash) => Object.keys(hash).length > 0, { error: "must not be empty" })
        .refine((hash) => Object.keys(hash).length <= 100, { error: `may hold at most 100 ${plural}` }),
    ),
  });

/** POST /portals/:portal_slug/articles/reorder: `{positions_hash: {"<article id>": <position>}}` */
export const ArticleReorder = Reorder("article", "articles");

/** POST /portals/:portal_slug/categories/reorder: `{positions_hash: {"<category id>": <position>}}` */
export const CategoryReorder = Reorder("category", "categories");

/** GET /public/api/v1/portals/:portal_slug/articles */
export const PublicArticleListQuery = z.object({
  page: Page.optional(),
  locale: Locale.optional(),
  category_slug: Slug.optional(),
  query: SearchText.optional(),
});

export const PublicArticleParam = PortalParam.extend({ article_slug: z.string().min(1).max(255) });

// ---------------------------------------------------------------- answers (src/views/help-center.ts)

const int = z.number().int();
const text = z.string().nullable();
const count = z.number().int().min(0);

/** What everyone may see of a portal, the public help center included. */
const portalPublicFields = {
  id: int,
  name: z.string(),
  slug: z.string(),
  color: text,
  custom_domain: text,
  header_text: text,
  homepage_link: text,
  page_title: text,
};

export const Portal = z
  .looseObject({
    ...portalPublicFields,
    account_id: int,
    archived: z.boolean(),
    inbox_id: int.nullable(),
    config: z.looseObject({
      default_locale: z.string(),
      allowed_locales: z.array(z.looseObject({ code: z.string(), articles_count: count, categories_count: count })),
    }),
    meta: z.looseObject({
      all_articles_count: count,
      archived_articles_count: count,
      published_count: count,
      draft_articles_count: count,
      mine_articles_count: count.describe("written by the caller"),
      categories_count: count,
      default_locale: z.string(),
    }),
    created_at: seconds,
    updated_at: seconds,
  })
  .meta({ id: "Portal" });

export const PortalList = z.looseObject({ payload: z.array(Portal), meta: z.looseObject({ current_page: int, portals_count: count }) });

export const PublicPortal = z
  .looseObject({ ...portalPublicFields, config: z.looseObject({ default_locale: z.string(), allowed_locales: z.array(z.string()) }) })
  .meta({ id: "PublicPortal" });

const categorySummaryFields = { id: int, name: z.string(), slug: z.string(), locale: z.string(), description: text, position: int, account_id: int };
const CategorySummary = z.looseObject(categorySummaryFields);

export const Category = z
  .looseObject({
    ...categorySummaryFields,
    icon: text,
    portal_id: int,
    parent_category_id: int.nullable(),
    associated_category_id: int.nullable(),
    related_categories: z.array(z.unknown()).describe("always empty: related categories are not stored"),
    parent_category: CategorySummary.optional(),
    root_category: CategorySummary.optional().describe("the associated category"),
    meta: z.looseObject({ articles_count: count }),
  })
  .meta({ id: "Category" });

export const CategoryList = z.looseObject({ payload: z.array(Category), meta: z.looseObject({ current_page: int, categories_count: count }) });

/** A category on the public help center; `articles_count` counts published articles only. */
export const PublicCategory = z
  .looseObject({
    id: int,
    name: z.string(),
    slug: z.string(),
    locale: z.string(),
    description: text,
    position: int,
    icon: text,
    parent_category_id: int.nullable(),
    meta: z.looseObject({ articles_count: count }),
  })
  .meta({ id: "PublicCategory" });

export const PublicCategoryList = z.looseObject({ payload: z.array(PublicCategory), meta: z.looseObject({ current_page: int, categories_count: count }) });

const ArticleMetaAnswer = z.looseObject({ title: z.unknown(), description: z.unknown(), tags: z.array(z.unknown()) });
const snippet = z.string().optional().describe("on a search: the matching excerpt as HTML, the text escaped and the matches in <mark>");

const articleAnswerFields = {
  id: int,
  slug: z.string(),
  title: z.string(),
  description: text,
  content: z.string(),
  status: z.enum(ARTICLE_STATUSES),
  position: int.nullable(),
  locale: z.string(),
  views: count,
  account_id: int,
  portal_id: int,
  folder_id: int.nullable(),
  category_id: int.nullable(),
  author_id: int.nullable(),
  associated_article_id: int.nullable(),
  created_at: seconds,
  updated_at: seconds,
};

export const Article = z
  .looseObject({
    ...articleAnswerFields,
    meta: ArticleMetaAnswer,
    category: z.looseObject({ id: int.nullable(), name: text, slug: text, locale: text }),
    author: Agent.nullable(),
    associated_articles: z.array(z.looseObject(articleAnswerFields)),
    snippet,
  })
  .meta({ id: "Article" });

export const ArticleList = z.looseObject({
  payload: z.array(Article),
  meta: z.looseObject({
    all_articles_count: count,
    archived_articles_count: count,
    articles_count: count.describe("matching the filters"),
    current_page: int,
    draft_articles_count: count,
    mine_articles_count: count,
    published_count: count,
  }),
});

/** A published article for readers: no status, no account or author details beyond a name. */
export const PublicArticle = z
  .looseObject({
    id: int,
    slug: z.string(),
    title: z.string(),
    description: text,
    content: z.string(),
    locale: z.string(),
    position: int.nullable(),
    views: count,
    meta: ArticleMetaAnswer,
    category: z.looseObject({ id: int, name: z.string(), slug: z.string(), locale: z.string() }).nullable(),
    author: z.looseObject({ name: z.string(), available_name: z.string(), thumbnail: z.string() }).nullable(),
    created_at: seconds,
    updated_at: seconds,
    snippet,
  })
  .meta({ id: "PublicArticle" });

export const PublicArticleList = z.looseObject({ payload: z.array(PublicArticle), meta: z.looseObject({ current_page: int, articles_count: count }) });
