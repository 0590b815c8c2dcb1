/**
 * Campaigns (Chatwoot's /campaigns), for administrators. As in Chatwoot, the inbox decides the type at
 * every save: a website inbox's campaigns are `ongoing` (shown to its widget on the pages their URL rule
 * matches, src/domain/campaigns/widget.ts) and have no schedule; an API inbox's are `one_off`, sent once
 * at `scheduled_at` (now when not given) to the contacts carrying an audience label (runs.ts). Chatwoot
 * refuses API inboxes (its one-off campaigns are for SMS and WhatsApp, which edgedesk has not): here they
 * are the one-off kind, and any other channel is refused.
 */
import { and, asc, eq, inArray, isNull, sql } from "drizzle-orm";
import { type Statement, now, schema } from "../../db/client";
import { batchGroups, batchNamed } from "../kernel/batch";
import { type ErrorEntry, invalid, invalidField, notFound } from "../kernel/errors";
import type { AccountScope } from "../kernel/scope";
import { API_CHANNEL, type InboxRecord, WIDGET_CHANNEL, loadInboxRecords, recordQueries as inboxRecordQueries, toRecords as toInboxRecords } from "../inboxes/inboxes";
import type { InboxRow } from "../inboxes/rows";
import { usersAsAgentsQuery } from "../people/agents";
import type { AgentRow } from "../people/rows";
import { type AudienceEntry, CAMPAIGN_STATUS, CAMPAIGN_TYPE, type CampaignRow, type TriggerRules } from "./rows";
import { urlRuleProblem } from "./url-rules";

const { campaigns, campaignRecipients, conversations, inboxes, labels, users } = schema;

/** A campaign with its sender as an agent (null when it has none, or the user left) and its inbox. */
export type CampaignRecord = { campaign: CampaignRow; sender: AgentRow | null; inbox: InboxRecord | null };

export type CampaignInput = {
  title?: string;
  description?: string | null;
  message?: string;
  inboxId?: number;
  senderId?: number | null;
  enabled?: boolean;
  triggerRules?: TriggerRules;
  triggerOnlyDuringBusinessHours?: boolean;
  /** epoch ms; null clears (a one-off campaign then runs now) */
  scheduledAt?: number | null;
  audience?: AudienceEntry[];
};

/** What may still change once a one-off campaign has started sending. */
const CHANGEABLE_WHILE_RUNNING = new Set<keyof CampaignInput>(["title", "description", "enabled"]);

const FIELD_OF: Record<keyof CampaignInput, string> = {
  title: "title",
  description: "description",
  message: "message",
  inboxId: "inbox_id",
  senderId: "sender_id",
  enabled: "enabled",
  triggerRules: "trigger_rules",
  triggerOnlyDuringBusinessHours: "trigger_only_during_business_hours",
  scheduledAt: "scheduled_at",
  audience: "audience",
};

const campaignQuery = (scope: AccountScope, displayId: number) =>
  scope.db.select().from(campaigns).where(and(eq(campaigns.accountId, scope.accountId), eq(campaigns.displayId, displayId)));

const sendersQuery = (scope: AccountScope, userIds: number[]) =>
  usersAsAgentsQuery(scope.db, scope.accountId, inArray(users.id, userIds.length ? userIds : [0]));

/** The campaigns with their senders and (unless `inboxes` is false: the widget needs none) their inboxes. */
export async function withSenders(scope: AccountScope, rows: CampaignRow[], options: { inboxes?: boolean } = {}): Promise<CampaignRecord[]> {
  const senderIds = [...new Set(rows.map((r) => r.senderId).filter((id): id is number => id !== null))];
  const senders: AgentRow[] = senderIds.length ? (await batchNamed(scope.db, { senders: sendersQuery(scope, senderIds) })).senders : [];
  const inboxIds = [...new Set(rows.map((r) => r.inboxId))];
  const records = options.inboxes === false || rows.length === 0 ? [] : await loadInboxRecords(scope.db, scope.accountId, inArray(inboxes.id, inboxIds));
  return toCampaignRecords(rows, senders, records);
}

function toCampaignRecords(rows: CampaignRow[], senders: AgentRow[], inboxRecords: InboxRecord[]): CampaignRecord[] {
  return rows.map((campaign) => ({
    campaign,
    sender: senders.find((s) => s.userId === campaign.senderId && s.role !== null) ?? null,
    inbox: inboxRecords.find((r) => r.inbox.id === campaign.inboxId) ?? null,
  }));
}

/**
 * Runs `change` (an insert or update of one campaign, returning its row, whose sender and inbox are
 * already known) in one batch with the reads of what its record shows, so the answer needs no read after it.
 */
async function writeCampaign(scope: AccountScope, change: Statement, shown: { senderId: number | null; inboxId: number }): Promise<CampaignRecord | undefined> {
  const { db, accountId } = scope;
  const { rows, senders, inbox } = await batchGroups(db, {
    rows: [change],
    senders: [sendersQuery(scope, shown.senderId === null ? [] : [shown.senderId])],
    inbox: inboxRecordQueries(db, and(eq(inboxes.accountId, accountId), eq(inboxes.id, shown.inboxId))),
  });
  return toCampaignRecords(rows[0] as CampaignRow[], senders[0], toInboxRecords(...inbox))[0];
}

export async function listCampaigns(scope: AccountScope): Promise<CampaignRecord[]> {
  const { rows } = await batchNamed(scope.db, {
    rows: scope.db.select().from(campaigns).where(eq(campaigns.accountId, scope.accountId)).orderBy(asc(campaigns.displayId)),
  });
  return withSenders(scope, rows);
}

/** The campaigns of one inbox of the account (Chatwoot's `inboxes#campaigns`), oldest first; 404 for an inbox not the account's. */
export async function listInboxCampaigns(scope: AccountScope, inboxId: number): Promise<CampaignRecord[]> {
  const { inbox, rows } = await batchNamed(scope.db, {
    inbox: scope.db.select({ id: inboxes.id }).from(inboxes).where(and(eq(inboxes.accountId, scope.accountId), eq(inboxes.id, inboxId))),
    rows: scope.db
      .select()
      .from(campaigns)
      .where(and(eq(campaigns.accountId, scope.accountId), eq(campaigns.inboxId, inboxId)))
      .orderBy(asc(campaigns.displayId)),
  });
  if (!inbox[0]) throw notFound("Inbox", inboxId);
  return withSenders(scope, rows);
}

async function getCampaign(scope: AccountScope, displayId: number): Promise<CampaignRow> {
  const { rows } = await batchNamed(scope.db, { rows: campaignQuery(scope, displayId) });
  if (!rows[0]) throw notFound("Campaign", displayId);
  return rows[0];
}

export async function showCampaign(scope: AccountScope, displayId: number): Promise<CampaignRecord> {
  return (await withSenders(scope, [await getCampaign(scope, displayId)]))[0];
}

/** The campaign type an inbox's channel gives, or null for a channel campaigns do not serve. */
export function campaignTypeOf(inbox: Pick<InboxRow, "channelType">): number | null {
  if (inbox.channelType === WIDGET_CHANNEL) return CAMPAIGN_TYPE.ongoing;
  if (inbox.channelType === API_CHANNEL) return CAMPAIGN_TYPE.one_off;
  return null;
}

type Draft = Omit<CampaignInput, "description" | "senderId" | "scheduledAt"> & {
  title: string;
  message: string;
  inboxId: number;
  description: string | null;
  senderId: number | null;
  scheduledAt: number | null;
  triggerRules: TriggerRules;
  audience: AudienceEntry[];
};

/**
 * Checks a campaign as it would be stored, against the account: the inbox (which sets the type), the
 * sender, the audience's labels and the URL rule. Answers the columns to write.
 */
async function checkDraft(scope: AccountScope, draft: Draft) {
  const labelIds = draft.audience.map((a) => a.id);
  const read = await batchNamed(scope.db, {
    inbox: scope.db.select().from(inboxes).where(and(eq(inboxes.accountId, scope.accountId), eq(inboxes.id, draft.inboxId))),
    sender: sendersQuery(scope, draft.senderId === null ? [] : [draft.senderId]),
    labels: scope.db
      .select({ id: labels.id })
      .from(labels)
      .where(and(eq(labels.accountId, scope.accountId), sql`${labels.id} IN (SELECT value FROM json_each(${JSON.stringify(labelIds)}))`)),
  });
  const inbox = read.inbox[0];
  if (!inbox) throw invalidField("inbox_id", `inbox ${draft.inboxId} does not exist in this account`, "not_found");
  const campaignType = campaignTypeOf(inbox);
  if (campaignType === null) throw invalidField("inbox_id", "Unsupported Inbox type: campaigns need a website or an API inbox", "unsupported_inbox");

  const errors: ErrorEntry[] = [];
  if (draft.senderId !== null && !read.sender.some((s) => s.role !== null)) {
    errors.push({ field: "sender_id", message: `user ${draft.senderId} is not an agent of this account`, code: "not_an_agent" });
  }
  const known = new Set(read.labels.map((l) => l.id));
  draft.audience.forEach((entry, i) => {
    if (!known.has(entry.id)) errors.push({ field: `audience[${i}].id`, message: `label ${entry.id} does not exist in this account`, code: "not_found" });
  });
  const url = draft.triggerRules.url;
  if (campaignType === CAMPAIGN_TYPE.ongoing) {
    // the widget shows an ongoing campaign on the pages its rule matches: without a rule, on none
    if (url === undefined || url === "") errors.push({ field: "trigger_rules.url", message: "is required for a website inbox's campaign", code: "required" });
    else {
      const problem = urlRuleProblem(url);
      if (problem) errors.push({ field: "trigger_rules.url", message: problem, code: "invalid_url" });
    }
  } else if (draft.audience.length === 0) {
    errors.push({ field: "audience", message: "must name at least one label: a one-off campaign is sent to the contacts carrying one", code: "required" });
  }
  if (errors.length) throw invalid(errors);

  const at = now();
  return {
    title: draft.title,
    description: draft.description,
    message: draft.message,
    inboxId: inbox.id,
    senderId: draft.senderId,
    enabled: draft.enabled ?? true,
    triggerRules: draft.triggerRules,
    triggerOnlyDuringBusinessHours: draft.triggerOnlyDuringBusinessHours ?? false,
    audience: draft.audience,
    campaignType,
    // as Chatwoot: an ongoing campaign has no schedule; a one-off one without a time is due now
    scheduledAt: campaignType === CAMPAIGN_TYPE.one_off ? (draft.scheduledAt ?? at) : null,
  };
}

/** The cron's next look at a one-off campaign that has not started: its time (null for an ongoing or disabled one). */
const runDueAt = (columns: { campaignType: number; enabled: boolean; scheduledAt: number | null }) =>
  columns.campaignType === CAMPAIGN_TYPE.one_off && columns.enabled ? columns.scheduledAt : null;

export async function createCampaign(scope: AccountScope, input: CampaignInput & { title: string; message: string; inboxId: number }): Promise<CampaignRecord> {
  const columns = await checkDraft(
    scope,
    {
      ...input,
      description: input.description ?? null,
      senderId: input.senderId ?? null,
      scheduledAt: input.scheduledAt ?? null,
      triggerRules: input.triggerRules ?? {},
      audience: input.audience ?? [],
    },
  );
  const at = now();
  const insert = scope.db
    .insert(campaigns)
    .values({
      accountId: scope.accountId,
      ...columns,
      // allocated inside the INSERT, served by the (account_id, display_id) unique index
      displayId: sql`(SELECT coalesce(max(${campaigns.displayId}), 0) + 1 FROM ${campaigns} WHERE ${campaigns.accountId} = ${scope.accountId})`,
      runDueAt: runDueAt(columns),
      createdAt: at,
      updatedAt: at,
    })
    .returning();
  return (await writeCampaign(scope, insert, columns))!;
}

/**
 * Changes the given fields. A completed campaign does not change (Chatwoot's rule); a one-off campaign
 * that has started sending changes only its title, description and `enabled` (false pauses the run, true
 * resumes it where it stopped).
 */
export async function updateCampaign(scope: AccountScope, displayId: number, input: CampaignInput): Promise<CampaignRecord> {
  const current = await getCampaign(scope, displayId);
  if (current.campaignStatus === CAMPAIGN_STATUS.completed) {
    throw invalidField("campaign_status", "The campaign is already completed", "completed");
  }
  const given = (Object.keys(input) as Array<keyof CampaignInput>).filter((k) => input[k] !== undefined);
  if (current.runStartedAt !== null) return updateRunningCampaign(scope, current, input, given);
  const columns = await checkDraft(
    scope,
    {
      title: input.title ?? current.title,
      description: input.description !== undefined ? input.description : current.description,
      message: input.message ?? current.message,
      inboxId: input.inboxId ?? current.inboxId,
      senderId: input.senderId !== undefined ? input.senderId : current.senderId,
      enabled: input.enabled ?? current.enabled,
      triggerRules: input.triggerRules ?? (current.triggerRules as TriggerRules),
      triggerOnlyDuringBusinessHours: input.triggerOnlyDuringBusinessHours ?? current.triggerOnlyDuringBusinessHours,
      scheduledAt: input.scheduledAt !== undefined ? input.scheduledAt : current.scheduledAt,
      audience: input.audience ?? (current.audience as AudienceEntry[]),
    },
  );
  // only while the run has not started: the minute sweep may start it between the read and this write
  const update = scope.db
    .update(campaigns)
    .set({ ...columns, runDueAt: runDueAt(columns), updatedAt: now() })
    .where(and(eq(campaigns.accountId, scope.accountId), eq(campaigns.id, current.id), isNull(campaigns.runStartedAt)))
    .returning();
  // none when it started meanwhile: the change is judged again as one to a running campaign
  return (await writeCampaign(scope, update, columns)) ?? updateCampaign(scope, displayId, input);
}

/**
 * A change to a one-off campaign that has started sending: its title, description and `enabled` only,
 * written as they are (what was checked when the run started stands, even if its sender has left or a
 * label was deleted since, so that a run can always be paused). A resumed run is looked at again at once.
 */
async function updateRunningCampaign(scope: AccountScope, current: CampaignRow, input: CampaignInput, given: Array<keyof CampaignInput>): Promise<CampaignRecord> {
  const fixed = given.find((k) => !CHANGEABLE_WHILE_RUNNING.has(k));
  if (fixed) throw invalidField(FIELD_OF[fixed], "cannot change once the campaign has started sending (only title, description and enabled can)", "campaign_running");
  const enabled = input.enabled ?? current.enabled;
  const update = scope.db
    .update(campaigns)
    .set({
      ...(input.title !== undefined && { title: input.title }),
      ...(input.description !== undefined && { description: input.description }),
      enabled,
      runDueAt: enabled ? now() : null,
      updatedAt: now(),
    })
    .where(and(eq(campaigns.accountId, scope.accountId), eq(campaigns.id, current.id)))
    .returning();
  return (await writeCampaign(scope, update, current))!;
}

/** Deletes the campaign and who it reached; its conversations stay, no longer marked with it (Chatwoot nullifies). */
export async function deleteCampaign(scope: AccountScope, displayId: number): Promise<void> {
  const campaign = await getCampaign(scope, displayId);
  await batchNamed(scope.db, deleteCampaignStatements(scope, [campaign.id]));
}

export function deleteCampaignStatements(scope: AccountScope, ids: number[]) {
  const { db, accountId } = scope;
  return {
    conversations: db
      .update(conversations)
      .set({ campaignId: null })
      .where(and(eq(conversations.accountId, accountId), inArray(conversations.campaignId, ids))),
    recipients: db.delete(campaignRecipients).where(and(eq(campaignRecipients.accountId, accountId), inArray(campaignRecipients.campaignId, ids))),
    campaigns: db.delete(campaigns).where(and(eq(campaigns.accountId, accountId), inArray(campaigns.id, ids))),
  };
}
