/**
 * The run of a one-off campaign (an API inbox's): at `scheduled_at` the minute sweep starts it (counting
 * its audience) and hands it to the queue; each queue message then sends it to the next contacts carrying
 * an audience label, in contact id order from where the run stands (`run_cursor`), and hands the rest to
 * the next message, until no contact is left and the campaign is `completed`.
 *
 * - Each contact at most once: a contact's conversation and its recipient row are one batch under a
 *   unique index (sending.ts), so a message delivered twice, a step retried after a failure, or two steps
 *   racing send nothing twice.
 * - A message whose cursor is not the stored one (a duplicate, or one the sweep re-sent) does nothing; a
 *   run whose messages were lost is re-sent by the sweep once `run_due_at` (pushed on by every step) passes.
 * - `trigger_only_during_business_hours`: while the inbox is closed the run waits (it is looked at again
 *   each minute) and goes on once it opens; `enabled: false` pauses it, `true` resumes it.
 * - Blocked contacts are skipped (their conversation would be resolved at once).
 */
import { and, eq, inArray, lte, sql } from "drizzle-orm";
import { now, rawSql, schema } from "../../db/client";
import { batchNamed } from "../kernel/batch";
import { DomainError } from "../kernel/errors";
import type { CampaignRunMessage } from "../kernel/ports";
import { type AccountScope, type TransportScope, systemScope } from "../kernel/scope";
import { outOfOffice } from "../inboxes/business-hours";
import type { InboxRow } from "../inboxes/rows";
import { type AudienceEntry, CAMPAIGN_STATUS, CAMPAIGN_TYPE, type CampaignRow } from "./rows";
import { sendCampaignTo } from "./sending";

const { campaigns, campaignRecipients, contacts, inboxes, labels } = schema;

/** Contacts one queue message sends to: each costs about two round trips, and a Worker invocation's queries are bounded. */
export const CAMPAIGN_STEP_CONTACTS = 25;
/** How soon a run waiting for its inbox to open is looked at again. */
const HOLD_MS = 60_000;
/** A run whose step has not moved it on for this long lost its message: the sweep sends it again. */
export const CAMPAIGN_STALLED_AFTER_MS = 5 * 60_000;
/** Runs the sweep looks at a minute. */
const DUE_PER_SWEEP = 50;

/** The audience's label titles (labels deleted since are left out). */
const audienceTitlesQuery = (scope: AccountScope, audience: AudienceEntry[]) =>
  scope.db
    .select({ title: labels.title })
    .from(labels)
    .where(and(eq(labels.accountId, scope.accountId), inArray(labels.id, audience.length ? audience.map((a) => a.id) : [0])));

const CONTACT_TAGGINGS = (accountId: number) => sql`account_id = ${accountId} AND taggable_type = 'Contact'`;

/**
 * The audience when the run starts (read once): the contacts carrying one of the audience's labels, less
 * the blocked ones, whom the run skips. Labels or blocks that change during the run make `sent_count` end
 * above or below it.
 */
const audienceCountSql = (accountId: number, audience: AudienceEntry[]) =>
  sql<number>`(SELECT count(DISTINCT taggable_id) FROM taggings WHERE ${CONTACT_TAGGINGS(accountId)} AND lower(tag) IN (SELECT lower(title) FROM labels WHERE account_id = ${accountId} AND id IN (SELECT value FROM json_each(${JSON.stringify(audience.map((a) => a.id))}))) AND taggable_id NOT IN (SELECT id FROM contacts WHERE account_id = ${accountId} AND blocked = 1))`;

/**
 * The next contacts after `cursor` carrying one of `titles`, in id order: each label's first ones through
 * the index on (account, type, lower(tag), contact), so a step reads at most a page per label, however
 * large the audience.
 */
function nextContactsQuery(scope: AccountScope, titles: string[], cursor: number) {
  const arms = titles.map(
    (title) =>
      sql`SELECT id FROM (SELECT taggable_id AS id FROM taggings WHERE ${CONTACT_TAGGINGS(scope.accountId)} AND lower(tag) = ${title.toLowerCase()} AND taggable_id > ${cursor} ORDER BY taggable_id LIMIT ${CAMPAIGN_STEP_CONTACTS})`,
  );
  return rawSql<{ id: number }>(scope.db, sql`SELECT DISTINCT id FROM (${sql.join(arms, sql` UNION ALL `)}) ORDER BY id LIMIT ${CAMPAIGN_STEP_CONTACTS}`);
}

const heldByHours = (campaign: CampaignRow, inbox: InboxRow, at: number) => campaign.triggerOnlyDuringBusinessHours && outOfOffice(inbox, at);

/**
 * The minute sweep: starts the one-off campaigns whose time has come, re-sends runs whose messages were
 * lost, and holds those waiting for their inbox to open. Answers how many runs it handed to the queue.
 */
export async function startDueCampaigns(transport: TransportScope, at = now()): Promise<number> {
  const { db } = transport;
  const dueWhere = lte(campaigns.runDueAt, at);
  // two statements, not a join: D1 answers rows as objects, and the two tables share column names
  const read = await batchNamed(db, {
    due: db.select().from(campaigns).where(dueWhere).orderBy(campaigns.runDueAt).limit(DUE_PER_SWEEP),
    inboxes: db
      .select()
      .from(inboxes)
      .where(inArray(inboxes.id, db.select({ id: campaigns.inboxId }).from(campaigns).where(dueWhere).orderBy(campaigns.runDueAt).limit(DUE_PER_SWEEP))),
  });
  const due = read.due.map((campaign) => ({ campaign, inbox: read.inboxes.find((i) => i.id === campaign.inboxId && i.accountId === campaign.accountId) }));
  let sent = 0;
  for (const { campaign, inbox } of due) {
    const scope = systemScope(transport, campaign.accountId);
    const same = and(eq(campaigns.accountId, campaign.accountId), eq(campaigns.id, campaign.id), eq(campaigns.runDueAt, campaign.runDueAt ?? 0));
    const idle = !inbox || !campaign.enabled || campaign.campaignType !== CAMPAIGN_TYPE.one_off || campaign.campaignStatus !== CAMPAIGN_STATUS.active;
    if (idle) {
      // nothing to run until an update sets a time again
      await batchNamed(db, { idle: db.update(campaigns).set({ runDueAt: null }).where(same) });
      continue;
    }
    if (heldByHours(campaign, inbox, at)) {
      await batchNamed(db, { held: db.update(campaigns).set({ runDueAt: at + HOLD_MS }).where(same) });
      continue;
    }
    const starting = campaign.runStartedAt === null;
    const { claimed } = await batchNamed(db, {
      claimed: db
        .update(campaigns)
        .set({
          runDueAt: at + CAMPAIGN_STALLED_AFTER_MS,
          ...(starting && { runStartedAt: at, audienceCount: audienceCountSql(campaign.accountId, campaign.audience as AudienceEntry[]) }),
        })
        .where(same)
        .returning({ cursor: campaigns.runCursor }),
    });
    if (!claimed[0]) continue; // another sweep took it
    await scope.ports.work.campaignRun({ kind: "campaign_run", accountId: campaign.accountId, campaignId: campaign.id, cursor: claimed[0].cursor });
    sent++;
  }
  return sent;
}

/** One queue message's worth of a run: the next contacts from `message.cursor`, then the next message (or the end). */
export async function runCampaignStep(transport: TransportScope, message: CampaignRunMessage): Promise<void> {
  const scope = systemScope(transport, message.accountId);
  const { db, accountId } = scope;
  const read = await batchNamed(db, {
    campaign: db.select().from(campaigns).where(and(eq(campaigns.accountId, accountId), eq(campaigns.id, message.campaignId))),
    inbox: db
      .select()
      .from(inboxes)
      .where(and(eq(inboxes.accountId, accountId), sql`${inboxes.id} = (SELECT ${campaigns.inboxId} FROM ${campaigns} WHERE ${campaigns.accountId} = ${accountId} AND ${campaigns.id} = ${message.campaignId})`)),
  });
  const campaign = read.campaign[0];
  const inbox = read.inbox[0];
  if (!campaign || !inbox) return;
  const current =
    campaign.campaignType === CAMPAIGN_TYPE.one_off && campaign.campaignStatus === CAMPAIGN_STATUS.active && campaign.runStartedAt !== null && campaign.runCursor === message.cursor;
  if (!current || !campaign.enabled) return; // a duplicate, a paused run (resumed by an update) or one finished
  const at = now();
  const stillHere = and(eq(campaigns.accountId, accountId), eq(campaigns.id, campaign.id), eq(campaigns.runCursor, message.cursor));
  if (heldByHours(campaign, inbox, at)) {
    // the sweep picks it up again once the inbox opens
    await batchNamed(db, { held: db.update(campaigns).set({ runDueAt: at + HOLD_MS }).where(stillHere) });
    return;
  }

  const { titles } = await batchNamed(db, { titles: audienceTitlesQuery(scope, campaign.audience as AudienceEntry[]) });
  const page = titles.length ? (await batchNamed(db, { page: nextContactsQuery(scope, titles.map((t) => t.title), message.cursor) })).page : [];
  const ids = page.map((p) => Number(p.id));
  if (ids.length > 0) {
    const { reached, sendable } = await batchNamed(db, {
      reached: db
        .select({ contactId: campaignRecipients.contactId })
        .from(campaignRecipients)
        .where(and(eq(campaignRecipients.accountId, accountId), eq(campaignRecipients.campaignId, campaign.id), inArray(campaignRecipients.contactId, ids))),
      sendable: db
        .select({ id: contacts.id })
        .from(contacts)
        .where(and(eq(contacts.accountId, accountId), eq(contacts.blocked, false), inArray(contacts.id, ids))),
    });
    const skip = new Set(reached.map((r) => r.contactId));
    const open = new Set(sendable.map((c) => c.id));
    for (const contactId of ids) {
      if (skip.has(contactId) || !open.has(contactId)) continue;
      try {
        await sendCampaignTo(scope, campaign, { contactId });
      } catch (error) {
        // a contact gone since the page was read: the others go on
        if (!(error instanceof DomainError)) throw error;
        console.error(JSON.stringify({ level: "warn", campaign: campaign.id, contact: contactId, refused: error.description }));
      }
    }
  }

  const finished = ids.length < CAMPAIGN_STEP_CONTACTS;
  const cursor = ids.at(-1) ?? message.cursor;
  const end = now();
  const set = finished
    ? { runCursor: cursor, runDueAt: null, campaignStatus: CAMPAIGN_STATUS.completed, completedAt: end, updatedAt: end }
    : { runCursor: cursor, runDueAt: end + CAMPAIGN_STALLED_AFTER_MS };
  const { moved } = await batchNamed(db, { moved: db.update(campaigns).set(set).where(stillHere).returning({ id: campaigns.id }) });
  if (finished || moved.length === 0) return; // done, or another message moved it on
  await scope.ports.work.campaignRun({ ...message, cursor });
}

