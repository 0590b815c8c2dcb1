import { Hono } from "hono";
import {
  createDashboardApp,
  deleteDashboardApp,
  getDashboardApp,
  listDashboardApps,
  updateDashboardApp,
} from "../../domain/settings/dashboard-apps";
import { type AppEnv } from "../../http/app-env";
import { accountScope } from "../../http/scopes";
import { requireAdministrator } from "../../http/auth";
import { validate } from "../../http/validate";
import { IdParam } from "../../schemas/common";
import { DashboardApp, DashboardAppCreate, DashboardAppUpdate } from "../../schemas/dashboard-apps";
import { dashboardAppView } from "../../views/dashboard-apps";
import { idempotent } from "../../http/idempotency";
import { doc } from "../../http/openapi";
import { Empty } from "../../schemas/responses";

/** /dashboard_apps: any member may read them; administrators change them. */
export const dashboardAppsApi = new Hono<AppEnv>()
  .get("/", doc({ summary: "List dashboard apps", response: DashboardApp.array() }), async (c) => c.json((await listDashboardApps(accountScope(c))).map(dashboardAppView)))
  .get("/:id", doc({ summary: "Show a dashboard app", response: DashboardApp }), validate("param", IdParam), async (c) =>
    c.json(dashboardAppView(await getDashboardApp(accountScope(c), c.req.valid("param").id))),
  )
  .post("/", doc({ summary: "Create a dashboard app", response: DashboardApp }), requireAdministrator, idempotent(), validate("json", DashboardAppCreate), async (c) => {
    const body = c.req.valid("json");
    return c.json(dashboardAppView(await createDashboardApp(accountScope(c), { title: body.title, content: body.content })));
  })
  .on(["PATCH", "PUT"], "/:id", doc({ summary: "Update a dashboard app", response: DashboardApp }), requireAdministrator, validate("param", IdParam), validate("json", DashboardAppUpdate), async (c) => {
    const body = c.req.valid("json");
    const row = await updateDashboardApp(accountScope(c), c.req.valid("param").id, { title: body.title, content: body.content });
    return c.json(dashboardAppView(row));
  })
  .delete("/:id", doc({ summary: "Delete a dashboard app", response: Empty }), requireAdministrator, validate("param", IdParam), async (c) => {
    await deleteDashboardApp(accountScope(c), c.req.valid("param").id);
    return c.json({});
  });
