/**
 * Account webhooks: where events are pushed. Administrators only. Each webhook gets a secret on creation
 * to sign its deliveries with.
 */
import { type SQLWrapper, and, eq, inArray, or } from "drizzle-orm";
import { now, schema } from "../../db/client";
import { batch, writeThenRead } from "../kernel/batch";
import { refusedTarget } from "../kernel/target-url";
import { randomToken } from "../identity/keys";
import { type AccountScope } from "../kernel/scope";
import type { WebhookRow } from "./rows";
import { type ErrorEntry, invalid, notFound } from "../kernel/errors";

const { webhooks, webhookDeliveries, webhookDeliveryAttempts, inboxes } = schema;

/** Chatwoot's allowed subscriptions, in its order: the first eight are the default. */
export const WEBHOOK_EVENTS = [
  "conversation_status_changed",
  "conversation_updated",
  "conversation_created",
  "contact_created",
  "contact_updated",
  "message_created",
  "message_updated",
  "webwidget_triggered",
  "inbox_created",
  "inbox_updated",
  "conversation_typing_on",
  "conversation_typing_off",
] as const;

export const DEFAULT_WEBHOOK_EVENTS = WEBHOOK_EVENTS.slice(0, 8);

export type InboxRef = { id: number; name: string };
export type WebhookRecord = { webhook: WebhookRow; inbox: InboxRef | null };
/**
 * null subscriptions: the default list. null inboxId: no inbox. enabled: true restarts deliveries to a
 * webhook the service disabled (or an administrator did); false stops them.
 */
export type WebhookInput = { url?: string; name?: string | null; subscriptions?: string[] | null; inboxId?: number | null; enabled?: boolean };

export const DISABLED_BY_ADMINISTRATOR = "Disabled by an administrator";

function enabledColumns(enabled: boolean | undefined, current: WebhookRow, at: number) {
  if (enabled === undefined || enabled === (current.disabledAt === null)) return {};
  return enabled
    ? { disabledAt: null, disabledReason: null, failingSince: null }
    : { disabledAt: at, disabledReason: DISABLED_BY_ADMINISTRATOR };
}

const inAccount = (scope: AccountScope) => eq(webhooks.accountId, scope.accountId);

function inboxesOf(scope: AccountScope, ids: number[] | SQLWrapper) {
  return scope.db
    .select({ id: inboxes.id, name: inboxes.name })
    .from(inboxes)
    .where(and(eq(inboxes.accountId, scope.accountId), inArray(inboxes.id, ids)));
}

export async function listWebhooks(scope: AccountScope): Promise<WebhookRecord[]> {
  const { db } = scope;
  const usedInboxes = db.select({ id: webhooks.inboxId }).from(webhooks).where(inAccount(scope));
  const [rows, inboxRows] = await batch(db, [
    db.select().from(webhooks).where(inAccount(scope)).orderBy(webhooks.id),
    inboxesOf(scope, usedInboxes),
  ]);
  const byId = new Map(inboxRows.map((i) => [i.id, i]));
  return rows.map((webhook) => ({ webhook, inbox: (webhook.inboxId && byId.get(webhook.inboxId)) || null }));
}

/** Rules on the values a webhook will have; `clash` says whether another webhook of the account has its URL. */
function check(scope: AccountScope, url: string | undefined, clash: boolean, inboxId: number | null | undefined, inbox: InboxRef | null) {
  const errors: ErrorEntry[] = refusedTarget(scope.env, "url", url);
  if (errors.length === 0 && clash) {
    errors.push({ field: "url", message: "has already been taken", code: "taken" });
  }
  if (inboxId && !inbox) errors.push({ field: "inbox_id", message: `${inboxId} is not an inbox of this account`, code: "unknown_inbox" });
  if (errors.length) throw invalid(errors);
}

export async function createWebhook(scope: AccountScope, input: WebhookInput & { url: string }): Promise<WebhookRecord> {
  const { db, accountId } = scope;
  const [clash, inboxRows] = await batch(db, [
    db.select({ id: webhooks.id }).from(webhooks).where(and(inAccount(scope), eq(webhooks.url, input.url))),
    inboxesOf(scope, input.inboxId ? [input.inboxId] : []),
  ]);
  const inbox = inboxRows[0] ?? null;
  check(scope, input.url, clash.length > 0, input.inboxId, inbox);
  const at = now();
  const [rows] = await batch(db, [
    db
      .insert(webhooks)
      .values({
        accountId,
        url: input.url,
        name: input.name ?? null,
        subscriptions: input.subscriptions ?? [...DEFAULT_WEBHOOK_EVENTS],
        inboxId: inbox?.id ?? null,
        secret: randomToken(24),
        createdAt: at,
        updatedAt: at,
      })
      .returning(),
  ]);
  return { webhook: rows[0], inbox };
}

export async function updateWebhook(scope: AccountScope, id: number, input: WebhookInput): Promise<WebhookRecord> {
  const { db } = scope;
  const currentInbox = db.select({ id: webhooks.inboxId }).from(webhooks).where(and(inAccount(scope), eq(webhooks.id, id)));
  // One read: the webhook, any other webhook with the new URL, and the inbox it will point to.
  const [rows, inboxRows] = await batch(db, [
    db
      .select()
      .from(webhooks)
      .where(and(inAccount(scope), or(eq(webhooks.id, id), input.url === undefined ? undefined : eq(webhooks.url, input.url)))),
    input.inboxId === undefined ? inboxesOf(scope, currentInbox) : inboxesOf(scope, input.inboxId ? [input.inboxId] : []),
  ]);
  const current = rows.find((r) => r.id === id);
  if (!current) throw notFound("Webhook", id);
  const inbox = inboxRows[0] ?? null;
  const urlChanged = input.url !== undefined && input.url !== current.url;
  check(scope, urlChanged ? input.url : undefined, rows.some((r) => r.id !== id), input.inboxId, inbox);

  const at = now();
  const [updated] = await batch(db, [
    db
      .update(webhooks)
      .set({
        ...enabledColumns(input.enabled, current, at),
        url: input.url,
        name: input.name,
        // null restores the default, as on create
        subscriptions: input.subscriptions === null ? [...DEFAULT_WEBHOOK_EVENTS] : input.subscriptions,
        inboxId: input.inboxId === undefined ? undefined : (inbox?.id ?? null),
        updatedAt: at,
      })
      .where(and(inAccount(scope), eq(webhooks.id, id)))
      .returning(),
  ]);
  return { webhook: updated[0], inbox };
}

/** Deletes the webhook and its delivery log. */
export async function deleteWebhook(scope: AccountScope, id: number): Promise<void> {
  const { db, accountId } = scope;
  const itsDeliveries = db
    .select({ id: webhookDeliveries.id })
    .from(webhookDeliveries)
    .where(and(eq(webhookDeliveries.accountId, accountId), eq(webhookDeliveries.targetType, "webhook"), eq(webhookDeliveries.targetId, id)));
  const [deleted] = await writeThenRead(
    db,
    [
      db.delete(webhookDeliveryAttempts).where(and(eq(webhookDeliveryAttempts.accountId, accountId), inArray(webhookDeliveryAttempts.deliveryId, itsDeliveries))),
      db.delete(webhookDeliveries).where(and(eq(webhookDeliveries.accountId, accountId), inArray(webhookDeliveries.id, itsDeliveries))),
    ],
    [db.delete(webhooks).where(and(inAccount(scope), eq(webhooks.id, id))).returning({ id: webhooks.id })],
  );
  if (!deleted.length) throw notFound("Webhook", id);
}

/**
 * A new signing secret, effective from the next attempt (pending retries are signed with it too): the
 * old one stops working at once, as when a secret has leaked.
 */
export async function resetWebhookSecret(scope: AccountScope, id: number): Promise<WebhookRecord> {
  const { db } = scope;
  const [rows, inboxRows] = await batch(db, [
    db
      .update(webhooks)
      .set({ secret: randomToken(24), updatedAt: now() })
      .where(and(inAccount(scope), eq(webhooks.id, id)))
      .returning(),
    inboxesOf(scope, db.select({ id: webhooks.inboxId }).from(webhooks).where(and(inAccount(scope), eq(webhooks.id, id)))),
  ]);
  if (!rows[0]) throw notFound("Webhook", id);
  return { webhook: rows[0], inbox: inboxRows[0] ?? null };
}
