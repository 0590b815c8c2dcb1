/**
 * The integration catalogue. It lists only what this service really does: account webhooks and dashboard
 * apps, each managed through its own endpoints. Chatwoot's third-party apps (Slack, Dialogflow, OpenAI...)
 * are absent because nothing here would run them.
 *
 * Neither catalogue app is configured through hooks, so creating or changing a hook is refused with a 422
 * that names the endpoint to use instead.
 */
import { and, eq } from "drizzle-orm";
import { schema } from "../../db/client";
import { batch } from "../kernel/batch";
import { type AccountScope } from "../kernel/scope";
import { invalidField, notFound } from "../kernel/errors";

const { webhooks, dashboardApps, integrationHooks } = schema;

export type CatalogueApp = {
  id: string;
  name: string;
  short_description: string;
  description: string;
  hook_type: "account" | "inbox";
  allow_multiple_hooks: boolean;
  /** where the app is configured instead of through hooks */
  managedAt: string;
  /** the table whose rows make the app enabled for an account */
  enabledBy: typeof webhooks | typeof dashboardApps;
};

export const CATALOGUE: readonly CatalogueApp[] = [
  {
    id: "webhook",
    name: "Webhooks",
    short_description: "Send account events to your own URLs.",
    description:
      "Sends conversation, message, contact and inbox events to URLs you choose, signed with each webhook's secret. Manage them at /api/v1/accounts/{account_id}/webhooks.",
    hook_type: "account",
    allow_multiple_hooks: false,
    managedAt: "/webhooks",
    enabledBy: webhooks,
  },
  {
    id: "dashboard_apps",
    name: "Dashboard apps",
    short_description: "Show your own pages beside conversations.",
    description:
      "Embeds pages of your own in the agent dashboard next to a conversation, so agents see data from your systems. Manage them at /api/v1/accounts/{account_id}/dashboard_apps.",
    hook_type: "account",
    allow_multiple_hooks: false,
    managedAt: "/dashboard_apps",
    enabledBy: dashboardApps,
  },
];

export type AppRecord = { app: CatalogueApp; enabled: boolean };

/** Every catalogue app with whether the account uses it: one batch, at most one row read per app. */
export async function listApps(scope: AccountScope): Promise<AppRecord[]> {
  const { db, accountId } = scope;
  const [usesWebhooks, usesDashboardApps] = await batch(db, [
    db.select({ id: webhooks.id }).from(webhooks).where(eq(webhooks.accountId, accountId)).limit(1),
    db.select({ id: dashboardApps.id }).from(dashboardApps).where(eq(dashboardApps.accountId, accountId)).limit(1),
  ]);
  return CATALOGUE.map((app) => ({
    app,
    enabled: (app.enabledBy === webhooks ? usesWebhooks : usesDashboardApps).length > 0,
  }));
}

export async function getApp(scope: AccountScope, id: string): Promise<AppRecord> {
  if (!CATALOGUE.some((app) => app.id === id)) throw notFound("Integration app", id);
  return (await listApps(scope)).find((record) => record.app.id === id)!;
}

function refuseHooks(appId: string): never {
  const app = CATALOGUE.find((a) => a.id === appId);
  if (!app) {
    const known = CATALOGUE.map((a) => a.id).join(", ");
    throw invalidField("app_id", `is not an app of the catalogue (known: ${known})`, "unknown_app");
  }
  throw invalidField(
    "app_id",
    `${app.name} does not take hooks: manage it at /api/v1/accounts/{account_id}${app.managedAt}`,
    "hooks_not_supported",
  );
}

/** No catalogue app takes hooks, so every hook request is refused, naming where to go instead. */
export function createHook(_scope: AccountScope, input: { appId: string }): never {
  refuseHooks(input.appId);
}

/** An existing hook (none can be created here) may not be changed either; an unknown one is a 404. */
export async function updateHook(scope: AccountScope, id: number): Promise<never> {
  const { db, accountId } = scope;
  const [rows] = await batch(db, [
    db
      .select({ appId: integrationHooks.appId })
      .from(integrationHooks)
      .where(and(eq(integrationHooks.accountId, accountId), eq(integrationHooks.id, id))),
  ]);
  if (!rows[0]) throw notFound("Integration hook", id);
  refuseHooks(rows[0].appId);
}

export async function deleteHook(scope: AccountScope, id: number): Promise<void> {
  const { db, accountId } = scope;
  const [rows] = await batch(db, [
    db
      .delete(integrationHooks)
      .where(and(eq(integrationHooks.accountId, accountId), eq(integrationHooks.id, id)))
      .returning({ id: integrationHooks.id }),
  ]);
  if (!rows[0]) throw notFound("Integration hook", id);
}
