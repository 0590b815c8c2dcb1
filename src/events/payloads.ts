/**
 * What a webhook receives for each outbox event: Chatwoot's payload for the event's subject, built when
 * the event is fanned out (as Chatwoot builds it in its delivery job), plus `event` and, for updates,
 * `changed_attributes`. One builder per subject type.
 */
import type { Database } from "../db/client";
import type { schema } from "../db/client";
import { loadInboxRecord } from "../domain/inboxes";
import { inboxView } from "../views/inboxes";

export type OutboxRow = typeof schema.eventOutbox.$inferSelect;
type Payload = Record<string, unknown>;
type Builder = (db: Database, env: Env, event: OutboxRow) => Promise<Payload | null>;

const BUILDERS: Record<string, Builder> = {
  Inbox: async (db, env, event) => {
    const record = await loadInboxRecord(db, event.accountId, event.subjectId);
    return record ? inboxView(record, { isAdministrator: false, widgetBaseUrl: env.FRONTEND_URL }) : null;
  },
};

/** The payload of `event`, or null when its subject no longer exists (or has no webhook form). */
export async function buildWebhookPayload(db: Database, env: Env, event: OutboxRow): Promise<Payload | null> {
  const builder = BUILDERS[event.subjectType];
  const subject = builder ? await builder(db, env, event) : null;
  if (!subject) return null;
  const changes = event.data.changed_attributes;
  return { ...subject, event: event.eventName, ...(changes !== undefined && { changed_attributes: changes }) };
}
