import { Hono } from "hono";
import { SEARCH_KINDS, type SearchKind, search } from "../../domain/search/search";
import { type AppEnv } from "../../http/app-env";
import { doc } from "../../http/openapi";
import { accountScope } from "../../http/scopes";
import { validate } from "../../http/validate";
import { SearchQuery, SearchResults, searchResultsOf } from "../../schemas/search";
import { searchResultsView } from "../../views/search";

const SUMMARIES: Record<SearchKind, string> = {
  contacts: "Search the account's contacts by name, email, phone number or identifier (15 a page)",
  conversations: "Search the conversations you can see by their contact or display id (15 a page)",
  messages: "Search the messages of the conversations you can see by content (15 a page)",
  articles: "Search the account's published help-center articles (15 a page)",
};

/**
 * /api/v1/accounts/:account_id/search: Chatwoot's global search. Any member may search; conversations and
 * messages keep to what the caller reaches (src/domain/search/search.ts). `/search` answers all four
 * kinds, each sub-route its own.
 */
let searchApi = new Hono<AppEnv>().get(
  "/",
  doc({ summary: "Search contacts, conversations, messages and articles at once (15 of each a page)", response: SearchResults }),
  validate("query", SearchQuery),
  async (c) => {
    const { q, page } = c.req.valid("query");
    return c.json(searchResultsView(await search(accountScope(c), { q, page, kinds: SEARCH_KINDS })));
  },
);
for (const kind of SEARCH_KINDS) {
  searchApi = searchApi.get(`/${kind}`, doc({ summary: SUMMARIES[kind], response: searchResultsOf(kind) }), validate("query", SearchQuery), async (c) => {
    const { q, page } = c.req.valid("query");
    return c.json(searchResultsView(await search(accountScope(c), { q, page, kinds: [kind] })));
  });
}

export { searchApi };
