import { Hono } from "hono";
import {
  createCustomFilter,
  deleteCustomFilter,
  getCustomFilter,
  listCustomFilters,
  updateCustomFilter,
} from "../../domain/settings/custom-filters";
import { type AppEnv } from "../../http/app-env";
import { accountScope } from "../../http/scopes";
import { validate } from "../../http/validate";
import { IdParam } from "../../schemas/common";
import { CustomFilter, CustomFilterCreate, CustomFilterQuery, CustomFilterUpdate } from "../../schemas/custom-filters";
import { customFilterView } from "../../views/custom-filters";
import { idempotent } from "../../http/idempotency";
import { doc } from "../../http/openapi";

/** /custom_filters: each member's own saved filters. */
export const customFiltersApi = new Hono<AppEnv>()
  .get("/", doc({ summary: "List the user's saved filters", response: CustomFilter.array() }), validate("query", CustomFilterQuery), async (c) => {
    const rows = await listCustomFilters(accountScope(c), c.req.valid("query").filter_type);
    return c.json(rows.map(customFilterView));
  })
  .get("/:id", doc({ summary: "Show a saved filter", response: CustomFilter }), validate("param", IdParam), async (c) =>
    c.json(customFilterView(await getCustomFilter(accountScope(c), c.req.valid("param").id))),
  )
  .post("/", doc({ summary: "Save a filter", response: CustomFilter }), idempotent(), validate("json", CustomFilterCreate), async (c) => {
    const body = c.req.valid("json");
    const row = await createCustomFilter(accountScope(c), { name: body.name, filterType: body.filter_type, query: body.query });
    return c.json(customFilterView(row));
  })
  .on(["PATCH", "PUT"], "/:id", doc({ summary: "Update a saved filter", response: CustomFilter }), validate("param", IdParam), validate("json", CustomFilterUpdate), async (c) => {
    const body = c.req.valid("json");
    const row = await updateCustomFilter(accountScope(c), c.req.valid("param").id, {
      name: body.name,
      filterType: body.filter_type,
      query: body.query,
    });
    return c.json(customFilterView(row));
  })
  .delete("/:id", doc({ summary: "Delete a saved filter", status: 204 }), validate("param", IdParam), async (c) => {
    await deleteCustomFilter(accountScope(c), c.req.valid("param").id);
    return c.body(null, 204);
  });
