import { Hono } from "hono";
import { createHook, deleteHook, getApp, listApps, updateHook } from "../../domain/settings/integrations";
import { type AppEnv } from "../../http/app-env";
import { accountScope } from "../../http/scopes";
import { requireAdministrator } from "../../http/auth";
import { validate } from "../../http/validate";
import { IdParam } from "../../schemas/common";
import { AppIdParam, HookCreate, HookUpdate, IntegrationApp } from "../../schemas/integrations";
import { integrationAppView } from "../../views/integrations";
import { idempotent } from "../../http/idempotency";
import { doc } from "../../http/openapi";
import { Empty, payloadOf } from "../../schemas/responses";

/** /integrations: any member may see the catalogue; hooks are for administrators. */
export const integrationsApi = new Hono<AppEnv>()
  .get("/apps", doc({ summary: "List integration apps", response: payloadOf(IntegrationApp.array()) }), async (c) => c.json({ payload: (await listApps(accountScope(c))).map(integrationAppView) }))
  .get("/apps/:id", doc({ summary: "Show an integration app", response: IntegrationApp }), validate("param", AppIdParam), async (c) =>
    c.json(integrationAppView(await getApp(accountScope(c), c.req.valid("param").id))),
  )
  .post("/hooks", doc({ summary: "Create an integration hook", description: "Never succeeds in this service: integration hooks (Slack, Dialogflow ...) are not supported, so this answers 422 (or 404 for an unknown hook)." }), requireAdministrator, idempotent(), validate("json", HookCreate), (c) =>
    createHook(accountScope(c), { appId: c.req.valid("json").app_id }),
  )
  .on(["PATCH", "PUT"], "/hooks/:id", doc({ summary: "Update an integration hook", description: "Never succeeds in this service: integration hooks (Slack, Dialogflow ...) are not supported, so this answers 422 (or 404 for an unknown hook)." }), requireAdministrator, validate("param", IdParam), validate("json", HookUpdate), (c) =>
    updateHook(accountScope(c), c.req.valid("param").id),
  )
  .delete("/hooks/:id", doc({ summary: "Delete an integration hook", response: Empty }), requireAdministrator, validate("param", IdParam), async (c) => {
    await deleteHook(accountScope(c), c.req.valid("param").id);
    return c.json({});
  });
