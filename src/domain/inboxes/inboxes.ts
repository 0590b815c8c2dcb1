/**
 * Inboxes of an account with their channel (API, website or e-mail). Administrators see every inbox;
 * agents only those they are members of.
 */
import { type SQL, and, asc, eq, inArray, isNull, or, sql } from "drizzle-orm";
import { type Database, type Statement, lastInsertedId, now, schema } from "../../db/client";
import { batch, write, writeThenRead } from "../kernel/batch";
import { actorUserId } from "../people/agents";
import type { AgentBotRecord } from "../people/agent-bots";
import { AGENT_BOT_INBOX_STATUS, WIDGET_FEATURES } from "../kernel/enums";
import { changedAttributes, eventStatement } from "../kernel/outbox";
import { randomToken } from "../identity/keys";
import { refusedTarget } from "../kernel/target-url";
import { claimPublicRoutes, releasePublicRoutes } from "../identity/public-routes";
import { type AccountScope } from "../kernel/scope";
import { type ErrorEntry, forbidden, invalid, invalidField, notFound } from "../kernel/errors";
import { type AgentBotRow } from "../people/rows";
import type { ApiChannelRow, EmailChannelRow, InboxRow, WidgetChannelRow } from "./rows";
import { EMAIL_CHANNEL, type EmailChannelInput, addressClaims, emailChannelColumns, newForwardingAddress } from "./email-channel";
export { EMAIL_CHANNEL };

const { inboxes, apiChannels, webWidgetChannels, emailChannels, inboxMembers, agentBotInboxes, agentBots, accessTokens } = schema;

export const API_CHANNEL = "Channel::Api";
export const WIDGET_CHANNEL = "Channel::WebWidget";

export type InboxRecord = { inbox: InboxRow; api: ApiChannelRow | null; widget: WidgetChannelRow | null; email: EmailChannelRow | null };

export type WorkingHour = {
  day_of_week: number;
  closed_all_day: boolean;
  open_all_day: boolean;
  open_hour: number | null;
  open_minutes: number | null;
  close_hour: number | null;
  close_minutes: number | null;
};

export type InboxInput = {
  name?: string;
  greetingEnabled?: boolean;
  greetingMessage?: string | null;
  enableEmailCollect?: boolean;
  csatSurveyEnabled?: boolean;
  csatConfig?: Record<string, unknown>;
  enableAutoAssignment?: boolean;
  autoAssignmentConfig?: Record<string, unknown>;
  workingHoursEnabled?: boolean;
  outOfOfficeMessage?: string | null;
  timezone?: string;
  allowMessagesAfterResolved?: boolean;
  lockToSingleConversation?: boolean;
  senderNameType?: number;
  businessName?: string | null;
  avatarUrl?: string | null;
  /** days to change, merged into the stored week by day_of_week */
  workingHours?: Array<Partial<WorkingHour> & { day_of_week: number }>;
};

export type ChannelInput = EmailChannelInput & {
  webhookUrl?: string | null;
  hmacMandatory?: boolean;
  additionalAttributes?: Record<string, unknown>;
  websiteUrl?: string;
  widgetColor?: string;
  welcomeTitle?: string | null;
  welcomeTagline?: string | null;
  replyTime?: number;
  preChatFormEnabled?: boolean;
  preChatFormOptions?: Record<string, unknown>;
  continuityViaEmail?: boolean;
  featureFlags?: Array<(typeof WIDGET_FEATURES)[number]>;
  allowedDomains?: string | null;
};

// ---------------------------------------------------------------- reading

/** The statements that load inbox records (the inboxes `where` selects, with their channels); `toRecords` reads their results. */
export function recordQueries(db: Database, where: SQL | undefined) {
  const channelIds = (type: string) =>
    db.select({ id: inboxes.channelId }).from(inboxes).where(and(where, eq(inboxes.channelType, type)));
  return [
    db.select().from(inboxes).where(where).orderBy(asc(sql`lower(${inboxes.name})`), asc(inboxes.id)),
    db.select().from(apiChannels).where(inArray(apiChannels.id, channelIds(API_CHANNEL))),
    db.select().from(webWidgetChannels).where(inArray(webWidgetChannels.id, channelIds(WIDGET_CHANNEL))),
    db.select().from(emailChannels).where(inArray(emailChannels.id, channelIds(EMAIL_CHANNEL))),
  ] as const;
}

export function toRecords(rows: InboxRow[], apis: ApiChannelRow[], widgets: WidgetChannelRow[], emails: EmailChannelRow[]): InboxRecord[] {
  const api = new Map(apis.map((a) => [a.id, a]));
  const widget = new Map(widgets.map((w) => [w.id, w]));
  const email = new Map(emails.map((e) => [e.id, e]));
  return rows.map((inbox) => ({
    inbox,
    api: inbox.channelType === API_CHANNEL ? (api.get(inbox.channelId) ?? null) : null,
    widget: inbox.channelType === WIDGET_CHANNEL ? (widget.get(inbox.channelId) ?? null) : null,
    email: inbox.channelType === EMAIL_CHANNEL ? (email.get(inbox.channelId) ?? null) : null,
  }));
}

const isAdministrator = (scope: AccountScope) => scope.role === "administrator";

/** Statement: the caller's seat in the inbox (empty when none). */
const callerSeatQuery = (scope: AccountScope, inboxId: number) =>
  scope.db
    .select({ id: inboxMembers.id })
    .from(inboxMembers)
    .where(and(eq(inboxMembers.accountId, scope.accountId), eq(inboxMembers.inboxId, inboxId), eq(inboxMembers.userId, actorUserId(scope))));

/** Statements that `assertInboxAccess` judges: the inbox (id only) and the caller's seat in it. */
export function inboxAccessQueries(scope: AccountScope, inboxId: number) {
  return [
    scope.db.select({ id: inboxes.id }).from(inboxes).where(and(eq(inboxes.accountId, scope.accountId), eq(inboxes.id, inboxId))),
    callerSeatQuery(scope, inboxId),
  ] as const;
}

/** 404 for an inbox that is not the account's; 403 for an agent who is not a member of it. */
export function assertInboxAccess(scope: AccountScope, inboxId: number, inboxRows: unknown[], seatRows: unknown[], field = "id") {
  if (inboxRows.length === 0) throw notFound("Inbox", inboxId, field);
  if (!isAdministrator(scope) && seatRows.length === 0) {
    throw forbidden(`You are not a member of inbox ${inboxId}`, "not_an_inbox_member");
  }
}

export async function listInboxes(scope: AccountScope): Promise<InboxRecord[]> {
  const { db, accountId } = scope;
  const own = eq(inboxes.accountId, accountId);
  const seats = db.select({ id: inboxMembers.inboxId }).from(inboxMembers).where(and(eq(inboxMembers.accountId, accountId), eq(inboxMembers.userId, actorUserId(scope))));
  const where = isAdministrator(scope) ? own : and(own, inArray(inboxes.id, seats));
  const [rows, apis, widgets, emails] = await batch(db, recordQueries(db, where));
  return toRecords(rows, apis, widgets, emails);
}

/** The account's inboxes that `where` selects, with their channels, in id order, without a caller's access check. */
export async function loadInboxRecords(db: Database, accountId: number, where: SQL): Promise<InboxRecord[]> {
  const [rows, apis, widgets, emails] = await batch(db, recordQueries(db, and(eq(inboxes.accountId, accountId), where)));
  return toRecords(rows, apis, widgets, emails).sort((a, b) => a.inbox.id - b.inbox.id);
}

/** The inbox with its channel, without a caller's access check (event payloads). */
export async function loadInboxRecord(db: Database, accountId: number, inboxId: number): Promise<InboxRecord | undefined> {
  const [rows, apis, widgets, emails] = await batch(db, recordQueries(db, and(eq(inboxes.accountId, accountId), eq(inboxes.id, inboxId))));
  return toRecords(rows, apis, widgets, emails)[0];
}

export async function getInbox(scope: AccountScope, inboxId: number): Promise<InboxRecord> {
  const where = and(eq(inboxes.accountId, scope.accountId), eq(inboxes.id, inboxId));
  const [rows, apis, widgets, emails, seat] = await batch(scope.db, [...recordQueries(scope.db, where), callerSeatQuery(scope, inboxId)]);
  assertInboxAccess(scope, inboxId, rows, seat);
  return toRecords(rows, apis, widgets, emails)[0];
}

// ---------------------------------------------------------------- writing

/** A new inbox is open Monday to Friday, 9:00 to 17:00, and closed at the weekend (Chatwoot's default). */
export const DEFAULT_WORKING_HOURS: WorkingHour[] = [0, 1, 2, 3, 4, 5, 6].map((day) =>
  day === 0 || day === 6
    ? { day_of_week: day, closed_all_day: true, open_all_day: false, open_hour: null, open_minutes: null, close_hour: null, close_minutes: null }
    : { day_of_week: day, closed_all_day: false, open_all_day: false, open_hour: 9, open_minutes: 0, close_hour: 17, close_minutes: 0 },
);

/**
 * Merges changed days into the stored week. A day closed or open all day carries no hours; any
 * other day needs an opening time before its closing time.
 */
export function mergeWorkingHours(stored: WorkingHour[], changes: NonNullable<InboxInput["workingHours"]>): WorkingHour[] {
  const week = new Map(DEFAULT_WORKING_HOURS.map((d) => [d.day_of_week, d]));
  for (const day of stored) week.set(day.day_of_week, day);
  const errors: ErrorEntry[] = [];
  changes.forEach((change, i) => {
    const defined = Object.fromEntries(Object.entries(change).filter(([, v]) => v !== undefined));
    const day = { ...week.get(change.day_of_week)!, ...defined } as WorkingHour;
    if (day.closed_all_day) Object.assign(day, { open_all_day: false, open_hour: null, open_minutes: null, close_hour: null, close_minutes: null });
    else if (day.open_all_day) Object.assign(day, { open_hour: 0, open_minutes: 0, close_hour: 23, close_minutes: 59 });
    else {
      day.open_minutes ??= 0;
      day.close_minutes ??= 0;
      if (day.open_hour == null) errors.push({ field: `working_hours[${i}].open_hour`, message: "is required on an open day", code: "required" });
      else if (day.close_hour == null) errors.push({ field: `working_hours[${i}].close_hour`, message: "is required on an open day", code: "required" });
      else if (day.close_hour * 60 + day.close_minutes <= day.open_hour * 60 + day.open_minutes) {
        errors.push({ field: `working_hours[${i}].close_hour`, message: "must be after the opening time", code: "invalid_range" });
      } else if (day.close_hour === 24 && day.close_minutes > 0) {
        errors.push({ field: `working_hours[${i}].close_minutes`, message: "must be 0 when closing at 24", code: "out_of_range" });
      }
    }
    week.set(day.day_of_week, day);
  });
  if (errors.length > 0) throw invalid(errors);
  return [...week.values()].sort((a, b) => a.day_of_week - b.day_of_week);
}

export const featureBits = (flags: readonly string[]) =>
  WIDGET_FEATURES.reduce((bits, name, i) => (flags.includes(name) ? bits | (1 << i) : bits), 0);

function inboxColumns(input: InboxInput, storedHours: WorkingHour[]) {
  const { workingHours, ...fields } = input;
  return { ...fields, ...(workingHours && { workingHours: mergeWorkingHours(storedHours, workingHours) }) };
}

function apiColumns(input: ChannelInput) {
  return {
    ...(input.webhookUrl !== undefined && { webhookUrl: input.webhookUrl || null }),
    additionalAttributes: input.additionalAttributes,
  };
}

/**
 * 422 `taken` when another of the account's e-mail inboxes has the address: the directory's claim only
 * keeps addresses apart between accounts (an account's own claim is its own again).
 */
async function assertAddressFree(scope: AccountScope, address: string) {
  const [rows] = await batch(scope.db, [
    scope.db
      .select({ id: emailChannels.id })
      .from(emailChannels)
      .where(and(eq(emailChannels.accountId, scope.accountId), or(eq(emailChannels.email, address), eq(emailChannels.forwardToEmail, address)))),
  ]);
  if (rows.length > 0) throw invalidField("channel.email", "has already been taken", "taken");
}

/** An e-mail channel's columns: its address and the IMAP and SMTP settings (not its forwarding address). */
function emailColumns(input: ChannelInput) {
  return emailChannelColumns({
    email: input.email,
    imapEnabled: input.imapEnabled,
    imapLogin: input.imapLogin,
    imapPassword: input.imapPassword,
    imapAddress: input.imapAddress,
    imapPort: input.imapPort,
    imapEnableSsl: input.imapEnableSsl,
    smtpEnabled: input.smtpEnabled,
    smtpLogin: input.smtpLogin,
    smtpPassword: input.smtpPassword,
    smtpAddress: input.smtpAddress,
    smtpPort: input.smtpPort,
    smtpDomain: input.smtpDomain,
    smtpEnableStarttlsAuto: input.smtpEnableStarttlsAuto,
    smtpEnableSslTls: input.smtpEnableSslTls,
    smtpOpensslVerifyMode: input.smtpOpensslVerifyMode,
    smtpAuthentication: input.smtpAuthentication,
    provider: input.provider,
    verifiedForSending: input.verifiedForSending,
  });
}

function widgetColumns(input: ChannelInput) {
  return {
    websiteUrl: input.websiteUrl,
    widgetColor: input.widgetColor,
    welcomeTitle: input.welcomeTitle,
    welcomeTagline: input.welcomeTagline,
    replyTime: input.replyTime,
    preChatFormEnabled: input.preChatFormEnabled,
    preChatFormOptions: input.preChatFormOptions,
    continuityViaEmail: input.continuityViaEmail,
    ...(input.featureFlags && { featureFlags: featureBits(input.featureFlags) }),
    ...(input.allowedDomains !== undefined && { allowedDomains: input.allowedDomains ?? "" }),
  };
}

/** An API inbox's callback must be a receiver the target policy allows, like an account webhook's URL. */
function checkCallbackUrl(scope: AccountScope, webhookUrl: string | null | undefined) {
  const errors = refusedTarget(scope.env, "channel.webhook_url", webhookUrl);
  if (errors.length > 0) throw invalid(errors);
}

const CHANNEL_TYPES = { api: API_CHANNEL, web_widget: WIDGET_CHANNEL, email: EMAIL_CHANNEL } as const;
const CHANNEL_TABLES = { api: apiChannels, web_widget: webWidgetChannels, email: emailChannels } as const;

/** Creates the channel and its inbox in one batch. */
export async function createInbox(
  scope: AccountScope,
  input: InboxInput & { name: string },
  channel: ChannelInput & { type: "api" | "web_widget" | "email" },
): Promise<InboxRecord> {
  const { db, accountId } = scope;
  const at = now();
  const isApi = channel.type === "api";
  if (isApi) checkCallbackUrl(scope, channel.webhookUrl);
  // the identifier leads public requests to this account (a random token: never taken)
  const identifier = randomToken(24);
  // an e-mail inbox's addresses lead inbound mail to this account; one another account holds is a 422
  const addresses =
    channel.type === "email" ? { email: channel.email!.toLowerCase(), forwardToEmail: newForwardingAddress(scope.env.INBOUND_EMAIL_DOMAIN) } : null;
  if (addresses) await assertAddressFree(scope, addresses.email);
  const claims = [{ kind: "inbox", key: identifier, field: "identifier" } as const, ...(addresses ? addressClaims(addresses) : [])];
  await claimPublicRoutes(scope, accountId, claims);
  // The channel goes first: the inbox row refers to it as the channel table's last inserted id.
  const inboxInsert = db
    .insert(inboxes)
    .values({
      workingHours: DEFAULT_WORKING_HOURS,
      ...inboxColumns(input, DEFAULT_WORKING_HOURS),
      name: input.name,
      accountId,
      channelType: CHANNEL_TYPES[channel.type],
      channelId: lastInsertedId(CHANNEL_TABLES[channel.type]),
      identifier,
      hmacToken: randomToken(24),
      hmacMandatory: channel.hmacMandatory ?? false,
      createdAt: at,
      updatedAt: at,
    })
    .returning();
  const created = eventStatement(db, { accountId, eventName: "inbox_created", subjectType: "Inbox", subjectId: lastInsertedId(inboxes) });
  if (isApi) {
    const [apis, rows] = await batch(db, [
      db
        .insert(apiChannels)
        .values({ ...apiColumns(channel), accountId, secret: randomToken(24), createdAt: at, updatedAt: at })
        .returning(),
      inboxInsert,
      created,
    ]);
    return { inbox: rows[0], api: apis[0], widget: null, email: null };
  }
  if (addresses) {
    try {
      const [emails, rows] = await batch(db, [
        db
          .insert(emailChannels)
          .values({ ...emailColumns(channel), ...addresses, accountId, createdAt: at, updatedAt: at })
          .returning(),
        inboxInsert,
        created,
      ]);
      return { inbox: rows[0], api: null, widget: null, email: emails[0] };
    } catch (error) {
      // the batch wrote nothing: the addresses go back to the directory
      await releasePublicRoutes(scope, accountId, claims);
      throw error;
    }
  }
  const [widgets, rows] = await batch(db, [
    db
      .insert(webWidgetChannels)
      .values({ ...widgetColumns(channel), websiteUrl: channel.websiteUrl!, accountId, createdAt: at, updatedAt: at })
      .returning(),
    inboxInsert,
    created,
  ]);
  return { inbox: rows[0], api: null, widget: widgets[0], email: null };
}

/** Applies inbox attributes and the channel's own editable attributes. */
export async function updateInbox(scope: AccountScope, inboxId: number, input: InboxInput, channel: ChannelInput = {}): Promise<InboxRecord> {
  const { db } = scope;
  const current = await getInbox(scope, inboxId);
  // another channel's attributes are ignored (Chatwoot's rule), so a widget inbox's webhook_url is not checked
  if (current.api) checkCallbackUrl(scope, channel.webhookUrl);
  const at = now();
  const { hmacMandatory, ...channelFields } = channel;
  const inboxChanges = { ...inboxColumns(input, current.inbox.workingHours as WorkingHour[]), hmacMandatory };
  const channelChanges = current.api ? apiColumns(channelFields) : current.email ? emailColumns(channelFields) : widgetColumns(channelFields);
  const changes = [
    ...changedColumns(current.inbox, inboxChanges),
    ...changedColumns(current.api ?? current.widget ?? current.email ?? {}, channelChanges),
  ];
  // a new address of an e-mail inbox is claimed before the write, and the old one given back after it
  const newAddress = current.email && channel.email !== undefined && channel.email.toLowerCase() !== current.email.email ? channel.email.toLowerCase() : null;
  if (newAddress) await assertAddressFree(scope, newAddress);
  if (newAddress) await claimPublicRoutes(scope, scope.accountId, [{ kind: "inbox_email", key: newAddress, field: "channel.email" }]);
  const writes: Statement[] = [
    db.update(inboxes).set({ ...inboxChanges, updatedAt: at }).where(and(eq(inboxes.accountId, scope.accountId), eq(inboxes.id, inboxId))),
  ];
  if (current.api) {
    writes.push(db.update(apiChannels).set({ ...channelChanges, updatedAt: at }).where(and(eq(apiChannels.accountId, scope.accountId), eq(apiChannels.id, current.api.id))));
  }
  if (current.email) {
    writes.push(db.update(emailChannels).set({ ...channelChanges, updatedAt: at }).where(and(eq(emailChannels.accountId, scope.accountId), eq(emailChannels.id, current.email.id))));
  }
  if (current.widget) {
    writes.push(db.update(webWidgetChannels).set({ ...channelChanges, updatedAt: at }).where(and(eq(webWidgetChannels.accountId, scope.accountId), eq(webWidgetChannels.id, current.widget.id))));
  }
  // Chatwoot announces an inbox update only when something changed.
  if (changes.length > 0) {
    writes.push(
      eventStatement(db, {
        accountId: scope.accountId,
        eventName: "inbox_updated",
        subjectType: "Inbox",
        subjectId: inboxId,
        data: { changed_attributes: changes },
      }),
    );
  }
  const [rows, apis, widgets, emails] = await writeThenRead(db, writes, recordQueries(db, eq(inboxes.id, inboxId)));
  if (newAddress) await releasePublicRoutes(scope, scope.accountId, [{ kind: "inbox_email", key: current.email!.email }]);
  return toRecords(rows, apis, widgets, emails)[0];
}

/** `changedAttributes` over the columns an update sets, named as Chatwoot names them (snake_case). */
function changedColumns(before: Record<string, unknown>, changes: Record<string, unknown>) {
  const keys = Object.keys(changes).filter((key) => changes[key] !== undefined);
  return changedAttributes(before, { ...before, ...changes }, keys).map((entry) => {
    const [[key, value]] = Object.entries(entry);
    return { [key.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`)]: value };
  });
}

/**
 * Deletes the inbox, its channel, its members and its agent bot link at once (Chatwoot deletes in the
 * background). Its conversations and contact inboxes stay, so history is not lost with the inbox.
 */
export async function deleteInbox(scope: AccountScope, inboxId: number) {
  const { db, accountId } = scope;
  const { inbox, email } = await getInbox(scope, inboxId);
  const channelTable = inbox.channelType === API_CHANNEL ? apiChannels : email ? emailChannels : webWidgetChannels;
  const { campaigns, campaignRecipients } = schema;
  const itsCampaigns = db.select({ id: campaigns.id }).from(campaigns).where(and(eq(campaigns.accountId, accountId), eq(campaigns.inboxId, inboxId)));
  const [members] = await batch(db, [
    db.delete(inboxMembers).where(and(eq(inboxMembers.accountId, accountId), eq(inboxMembers.inboxId, inboxId))).returning({ userId: inboxMembers.userId }),
    db.delete(agentBotInboxes).where(and(eq(agentBotInboxes.accountId, accountId), eq(agentBotInboxes.inboxId, inboxId))),
    db.delete(channelTable).where(and(eq(channelTable.accountId, accountId), eq(channelTable.id, inbox.channelId))),
    // its campaigns go with it (Chatwoot's dependent destroy), and who they reached
    db.delete(campaignRecipients).where(and(eq(campaignRecipients.accountId, accountId), inArray(campaignRecipients.campaignId, itsCampaigns))),
    db.delete(campaigns).where(and(eq(campaigns.accountId, accountId), eq(campaigns.inboxId, inboxId))),
    db.delete(inboxes).where(and(eq(inboxes.accountId, accountId), eq(inboxes.id, inboxId))),
  ]);
  await releasePublicRoutes(scope, accountId, [{ kind: "inbox", key: inbox.identifier }, ...(email ? addressClaims(email) : [])]);
  // its members no longer reach its conversations through it
  await scope.ports.feed.accessChanged(accountId, members.map((m) => m.userId));
}

// ---------------------------------------------------------------- agent bot

/** The bot connected to the inbox, or null. Its key is shown only for the account's own bots. */
export async function getInboxAgentBot(scope: AccountScope, inboxId: number): Promise<AgentBotRecord | null> {
  const { db, accountId } = scope;
  const botIds = db.select({ id: agentBotInboxes.agentBotId }).from(agentBotInboxes).where(and(eq(agentBotInboxes.accountId, accountId), eq(agentBotInboxes.inboxId, inboxId)));
  const [inboxRows, seat, bots] = await batch(db, [
    ...inboxAccessQueries(scope, inboxId),
    db.select().from(agentBots).where(and(or(eq(agentBots.accountId, accountId), isNull(agentBots.accountId)), inArray(agentBots.id, botIds))),
  ]);
  assertInboxAccess(scope, inboxId, inboxRows, seat);
  const bot: AgentBotRow | undefined = bots[0];
  if (!bot) return null;
  if (bot.accountId !== scope.accountId) return { bot, accessToken: null };
  // the key is the directory's (docs/shards.md)
  const { directory } = scope;
  const [tokens] = await batch(directory, [
    directory
      .select({ token: accessTokens.token })
      .from(accessTokens)
      .where(and(eq(accessTokens.ownerType, "AgentBot"), eq(accessTokens.ownerId, bot.id))),
  ]);
  return { bot, accessToken: tokens[0]?.token ?? null };
}

/**
 * Connects a bot (the account's own or a system bot) to the inbox, replacing any other; null
 * disconnects. Chatwoot accepts any bot id here, even another account's.
 */
export async function setInboxAgentBot(scope: AccountScope, inboxId: number, botId: number | null) {
  const { db, accountId } = scope;
  const [inboxRows, seat, bots] = await batch(db, [
    ...inboxAccessQueries(scope, inboxId),
    db
      .select({ id: agentBots.id })
      .from(agentBots)
      .where(and(eq(agentBots.id, botId ?? 0), or(eq(agentBots.accountId, accountId), isNull(agentBots.accountId)))),
  ]);
  assertInboxAccess(scope, inboxId, inboxRows, seat);
  if (botId !== null && bots.length === 0) {
    throw invalidField("agent_bot", `Agent bot ${botId} does not exist in this account`, "not_found");
  }
  const at = now();
  const disconnect = db.delete(agentBotInboxes).where(and(eq(agentBotInboxes.accountId, accountId), eq(agentBotInboxes.inboxId, inboxId)));
  const connect =
    botId === null
      ? []
      : [db.insert(agentBotInboxes).values({ accountId, inboxId, agentBotId: botId, status: AGENT_BOT_INBOX_STATUS.active, createdAt: at, updatedAt: at })];
  await write(db, [disconnect, ...connect]);
}
