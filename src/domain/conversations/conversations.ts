/**
 * Conversation actions, the functions routes (and next automation and the public API) call. Each one:
 * one batch of reads (the conversation by display id with whether the caller reaches it, see access.ts,
 * and what the action checks), then one batch that writes the change with its counters and events
 * (changes.ts) and loads the record the response shows.
 */
import { and, desc, eq, sql } from "drizzle-orm";
import type { SQLiteColumn } from "drizzle-orm/sqlite-core";
import { chunks } from "../../db/chunks";
import { type Statement, lastInsertedId, now, schema } from "../../db/client";
import { checkCustomAttributeValues, customAttributeDefinitionsQuery, type AttributeDefinition, type AttributeModel } from "../custom-attributes/values";
import { randomToken } from "../identity/keys";
import { type AgentRow, usersAsAgentsQuery } from "../people/agents";
import { type TeamRow, type AgentBotRow } from "../people/rows";
import { usableBy } from "../people/agent-bots";
import { batchGroups, batchNamed, write } from "../kernel/batch";
import { ATTRIBUTE_MODELS, CONVERSATION_STATUS, MESSAGE_TYPE, ROLE, enumValue } from "../kernel/enums";
import { type AccountScope, actingUserId } from "../kernel/scope";
import { type ErrorEntry, forbidden, invalid, invalidField } from "../kernel/errors";
import { messageFactStatements, reportingFactStatements, statusMoveStatements } from "../reports/facts";
import { conversationColumn, inboxOpenableCondition, readConversation } from "./access";
import { changeStatements, commitAndLoad } from "./changes";
import { counterAddInBatch } from "./counters";
import { type ColumnChange, columnChanges, contactUpdatedEventStatement, conversationEventStatement, messageEventStatements } from "./events";
import { type ConversationRecord, assembleConversationRecords, conversationRecordQueries, loadConversationRecords } from "./loader";
import { conversationCreatedNotifications } from "./notifications";
import {
  type MessageSender,
  activeInboxBotQuery,
  activityMessageStatements,
  actorName,
  messageChangeInBatch,
  messageInsertStatements,
  messageSender,
} from "./new-messages";
import { type ConversationRow } from "./rows";
import { csatSurveyQueries, csatSurveyStatements } from "./csat";

const { conversations, inboxes, contacts, contactInboxes, inboxMembers, teams, agentBots, taggings, messages } = schema;

const CONVERSATION_ATTRIBUTE = enumValue(ATTRIBUTE_MODELS, "conversation_attribute") as AttributeModel;

export async function showConversation(scope: AccountScope, displayId: number): Promise<ConversationRecord> {
  const { conversation } = await readConversation(scope, displayId, []);
  const [record] = await loadConversationRecords(scope.db, scope.accountId, [conversation]);
  return record;
}

// ---------------------------------------------------------------- assignees and teams

/** An agent may be assigned when they belong to the account and are a member of the inbox, or an administrator. */
function assigneeQueries(scope: AccountScope, userId: number | null | undefined, inboxId: number | ReturnType<typeof sql<number>>) {
  return [
    usersAsAgentsQuery(scope.db, scope.accountId, eq(schema.users.id, userId ?? 0)),
    scope.db
      .select({ id: inboxMembers.id })
      .from(inboxMembers)
      .where(and(eq(inboxMembers.accountId, scope.accountId), eq(inboxMembers.userId, userId ?? 0), sql`${inboxMembers.inboxId} = ${inboxId}`)),
  ] as const;
}

/** The user as an agent of the account (`agents`: the rows of `usersAsAgentsQuery` for that user); 422 otherwise. */
export function checkAccountAgent(userId: number, agents: AgentRow[]): AgentRow {
  const agent = agents[0];
  if (!agent || agent.role === null) throw invalidField("assignee_id", `user ${userId} is not an agent of this account`, "not_an_agent");
  return agent;
}

function checkAssignee(userId: number, agents: AgentRow[], inboxMemberships: unknown[]): AgentRow {
  const agent = checkAccountAgent(userId, agents);
  if (agent.role !== ROLE.administrator && inboxMemberships.length === 0) {
    throw invalidField("assignee_id", `agent ${userId} is not a member of the conversation's inbox`, "not_an_inbox_member");
  }
  return agent;
}

export const teamQuery = (scope: AccountScope, teamId: number | null | undefined) =>
  scope.db.select().from(teams).where(and(eq(teams.accountId, scope.accountId), eq(teams.id, teamId ?? 0)));

export function checkTeam(teamId: number, rows: TeamRow[]): TeamRow {
  if (!rows[0]) throw invalidField("team_id", `team ${teamId} does not exist in this account`, "not_found");
  return rows[0];
}

function checkCustomAttributes(definitions: AttributeDefinition[], values: Record<string, unknown> | undefined, field = "custom_attributes") {
  const errors: ErrorEntry[] = values ? checkCustomAttributeValues(definitions, values, field) : [];
  if (errors.length) throw invalid(errors);
}

// ---------------------------------------------------------------- create

export type ConversationCreateInput = {
  sourceId?: string;
  inboxId?: number;
  contactId?: number;
  additionalAttributes?: Record<string, unknown>;
  customAttributes?: Record<string, unknown>;
  status?: number;
  assigneeId?: number | null;
  teamId?: number | null;
  /** epoch ms */
  snoozedUntil?: number | null;
  /** an outgoing first message; `sender` names who it is from when not the actor (a campaign's sender, or null for none) */
  message?: { content: string; sender?: MessageSender | null };
  /** the campaign the conversation (and its first message) belongs to */
  campaignId?: number;
  /**
   * Statements committed in the conversation's batch, after its insert (`lastInsertedId(conversations)` is
   * the new conversation there): one that fails (a campaign's recipient row already there, by its unique
   * index) undoes the whole batch, so nothing of the conversation is left.
   */
  alsoWrite?: Statement[];
};

/**
 * Creates a conversation for a contact in an inbox (reusing or creating their contact inbox), or for an
 * existing contact inbox given by `source_id`. The status follows Chatwoot: resolved for a blocked
 * contact, pending when a bot serves the inbox, otherwise the given status (open by default).
 */
/**
 * The value a conversation about to be inserted (`draft`) has in `column`: how a rule written over a
 * stored row's columns (`messageChangeInBatch`) reads the draft.
 */
function draftValue(draft: Partial<Record<keyof ConversationRow, unknown>>, column: SQLiteColumn): unknown {
  const key = (Object.keys(draft) as Array<keyof ConversationRow>).find((k) => (conversations as unknown as Record<string, unknown>)[k] === column);
  if (key === undefined) throw new Error(`a new conversation's draft has no ${column.name}`);
  return draft[key];
}

export async function createConversation(scope: AccountScope, input: ConversationCreateInput): Promise<ConversationRecord> {
  const { db, accountId } = scope;
  const bySource = input.sourceId !== undefined;
  const sourceMatch = and(
    eq(contactInboxes.accountId, accountId),
    eq(contactInboxes.sourceId, input.sourceId ?? ""),
    input.inboxId !== undefined ? eq(contactInboxes.inboxId, input.inboxId) : undefined,
  );
  const fromSource = (column: typeof contactInboxes.inboxId | typeof contactInboxes.contactId) =>
    sql<number>`(SELECT ${column} FROM ${contactInboxes} WHERE ${sourceMatch} LIMIT 1)`;
  const inboxRef = input.inboxId ?? fromSource(contactInboxes.inboxId);
  const contactRef = input.contactId ?? fromSource(contactInboxes.contactId);

  const [assigneeQuery, assigneeInboxQuery] = assigneeQueries(scope, input.assigneeId, inboxRef);
  const read = await batchNamed(db, {
    inbox: db
      .select({ inbox: inboxes, openable: sql<number | null>`${inboxOpenableCondition(scope, inboxes.id)}`.as("openable") })
      .from(inboxes)
      .where(and(eq(inboxes.accountId, accountId), sql`${inboxes.id} = ${inboxRef}`)),
    contact: db.select().from(contacts).where(and(eq(contacts.accountId, accountId), sql`${contacts.id} = ${contactRef}`)),
    source: db.select().from(contactInboxes).where(and(sourceMatch, sql`${contactInboxes.inboxId} = ${inboxRef}`)).limit(1),
    own: db
      .select()
      .from(contactInboxes)
      .where(and(eq(contactInboxes.accountId, accountId), sql`${contactInboxes.inboxId} = ${inboxRef}`, sql`${contactInboxes.contactId} = ${contactRef}`))
      .orderBy(desc(contactInboxes.id))
      .limit(1),
    assignee: assigneeQuery,
    assigneeInbox: assigneeInboxQuery,
    team: teamQuery(scope, input.teamId),
    definitions: customAttributeDefinitionsQuery(db, accountId, CONVERSATION_ATTRIBUTE),
    bot: activeInboxBotQuery(scope, inboxRef),
  });

  const [{ inbox, openable } = { inbox: undefined, openable: null }] = read.inbox;
  const contact = read.contact[0];
  if (bySource && input.inboxId === undefined && input.contactId === undefined && !inbox) {
    throw invalidField("source_id", `no contact inbox with source id ${input.sourceId} in this account`, "not_found");
  }
  if (!inbox) throw invalidField("inbox_id", `inbox ${input.inboxId} does not exist in this account`, "not_found");
  if (!contact) throw invalidField("contact_id", `contact ${input.contactId} does not exist in this account`, "not_found");
  const sourceInbox = read.source[0];
  if (sourceInbox && sourceInbox.contactId !== contact.id) throw invalidField("source_id", "is already used by another contact in this inbox", "taken");
  if (bySource && input.contactId === undefined && !sourceInbox) throw invalidField("source_id", `no contact inbox with source id ${input.sourceId}`, "not_found");

  // a contact (public widget API) opens conversations for itself only
  const mayOpen = scope.actor.type === "contact" ? scope.actor.contact.id === contact.id : Boolean(openable);
  if (!mayOpen) throw forbidden(`You are not a member of inbox ${inbox.id}`, "inbox_not_accessible");
  if (input.assigneeId) checkAssignee(input.assigneeId, read.assignee, read.assigneeInbox);
  if (input.teamId) checkTeam(input.teamId, read.team);
  checkCustomAttributes(read.definitions, input.customAttributes);

  const at = now();
  const existing = sourceInbox ?? (bySource ? undefined : read.own[0]);
  const contactInboxWrites: Statement[] = [];
  if (!existing) {
    contactInboxWrites.push(
      db.insert(contactInboxes).values({
        accountId,
        contactId: contact.id,
        inboxId: inbox.id,
        sourceId: input.sourceId ?? crypto.randomUUID(),
        pubsubToken: randomToken(),
        createdAt: at,
        updatedAt: at,
      }),
    );
  }
  const contactInboxId = existing?.id ?? lastInsertedId(contactInboxes);
  let status = input.status ?? CONVERSATION_STATUS.open;
  // Chatwoot: a campaign's conversation waits for the bot only when the campaign has no sender
  const campaignSpeaks = input.campaignId !== undefined && Boolean(input.message?.sender);
  if (read.bot.length > 0 && !campaignSpeaks) status = CONVERSATION_STATUS.pending;
  if (contact.blocked) status = CONVERSATION_STATUS.resolved;

  const conversationId = lastInsertedId(conversations);
  const target = { id: conversationId, inboxId: inbox.id };
  const draft = {
    accountId,
    inboxId: inbox.id,
    contactId: contact.id,
    assigneeId: input.assigneeId ?? null,
    teamId: input.teamId ?? null,
    status,
    snoozedUntil: status === CONVERSATION_STATUS.snoozed ? (input.snoozedUntil ?? null) : null,
    // Chatwoot starts the wait when the conversation is created
    waitingSince: at as number | null,
    firstReplyCreatedAt: null as number | null,
    lastActivityAt: at,
    additionalAttributes: input.additionalAttributes ?? {},
    customAttributes: input.customAttributes ?? {},
    campaignId: input.campaignId ?? null,
  };
  const factTarget = { ...target, teamId: draft.teamId, assigneeId: draft.assigneeId };
  const messageWrites: Statement[] = [];
  // what the first message does to the conversation: the one rule (`messageChangeInBatch`) over the
  // draft's own values, its SQL stored by the INSERT (an outgoing message moves no status)
  let messageChange: ColumnChange[] = [];
  if (input.message) {
    const messageType = MESSAGE_TYPE.outgoing;
    const sender = input.message.sender !== undefined ? input.message.sender : messageSender(scope, messageType, draft);
    const campaignId = input.campaignId;
    messageChange = messageChangeInBatch(scope, { messageType, private: false, sender, campaignId }, at, (column) => sql`${draftValue(draft, column)}`);
    messageWrites.push(
      ...messageInsertStatements(scope, target, { messageType, sender, content: input.message.content, campaignId }, at),
      ...messageEventStatements(scope, "message_created", lastInsertedId(messages), messageType),
    );
    const senderUserId = sender?.senderType === "User" ? sender.senderId : null;
    // the message is the first reply where the rule sets the first reply
    const firstReply = messageChange.find((c) => c.key === "firstReplyCreatedAt");
    messageWrites.push(
      ...messageFactStatements(scope, { ...factTarget, createdAt: at, waitingSince: null }, { messageType, private: false, senderUserId }, firstReply ? columnChanges(firstReply) : false, at),
    );
  }

  const results = await batchGroups(db, {
    contactInbox: contactInboxWrites,
    created: [
      db
        .insert(conversations)
        .values({
          ...draft,
          ...Object.fromEntries(messageChange.map((c) => [c.key, c.next])),
          contactInboxId,
          // allocated inside the INSERT, served by the (account_id, display_id) unique index
          displayId: sql`(SELECT coalesce(max(${conversations.displayId}), 0) + 1 FROM ${conversations} WHERE ${conversations.accountId} = ${accountId})`,
          uuid: crypto.randomUUID(),
          createdAt: at,
          updatedAt: at,
        })
        .returning(),
    ],
    writes: [
      ...(input.alsoWrite ?? []),
      // counted as stored: the first message's change is decided in SQL
      counterAddInBatch(db, accountId, sql`${conversations.accountId} = ${accountId} AND ${conversations.id} = ${conversationId}`),
      conversationEventStatement(scope, conversationId, "conversation_created"),
      ...reportingFactStatements(scope, factTarget, "conversation_created", 0, at),
      ...statusMoveStatements(scope, { inboxId: inbox.id, createdAt: at }, null, draft.status),
      ...messageWrites,
      ...conversationCreatedNotifications(scope, { id: conversationId, inboxId: inbox.id, teamId: draft.teamId, pending: status === CONVERSATION_STATUS.pending }, at),
    ],
    loads: conversationRecordQueries(db, accountId, [{ ...draft, id: conversationId, contactInboxId, assigneeAgentBotId: null }]),
  });
  const [[created]] = results.created;
  return assembleConversationRecords([created], results.loads)[0];
}

// ---------------------------------------------------------------- update, status, priority

/** PATCH: priority (and the SLA policy id, kept as given). */
export async function updateConversation(scope: AccountScope, displayId: number, input: { priority?: number | null; slaPolicyId?: number | null }) {
  const { conversation } = await readConversation(scope, displayId, []);
  const { after, statements } = changeStatements(scope, conversation, { ...(input.priority !== undefined && { priority: input.priority }) });
  const sla = input.slaPolicyId !== undefined && input.slaPolicyId !== conversation.slaPolicyId;
  const row = sla ? { ...after, slaPolicyId: input.slaPolicyId ?? null } : after;
  const writes = sla ? [...statements, scope.db.update(conversations).set({ slaPolicyId: input.slaPolicyId ?? null }).where(and(eq(conversations.accountId, scope.accountId), eq(conversations.id, conversation.id)))] : statements;
  return commitAndLoad(scope, row, writes);
}

export async function togglePriority(scope: AccountScope, displayId: number, priority: number | null) {
  const { conversation } = await readConversation(scope, displayId, []);
  const { after, statements } = changeStatements(scope, conversation, { priority });
  return commitAndLoad(scope, after, statements);
}

const STATUS_ACTIVITY: Record<number, string> = {
  [CONVERSATION_STATUS.open]: "Conversation was reopened by",
  [CONVERSATION_STATUS.resolved]: "Conversation was marked resolved by",
  [CONVERSATION_STATUS.pending]: "Conversation was marked as pending by",
  [CONVERSATION_STATUS.snoozed]: "Conversation was snoozed by",
};

/**
 * Chatwoot's toggle_status: without a status, open becomes resolved and every other status becomes open;
 * with one, exactly that status. Only snoozed keeps snoozed_until; resolving ends the wait. An agent who
 * opens a conversation takes it; a bot opening a pending conversation hands it off (success null).
 */
export async function toggleStatus(scope: AccountScope, displayId: number, input: { status?: number; snoozedUntil?: number | null }) {
  const { conversation, extra } = await readConversation(scope, displayId, csatSurveyQueries(scope, displayId));
  const { open, resolved, pending, snoozed } = CONVERSATION_STATUS;
  const status = input.status ?? (conversation.status === open ? resolved : open);
  const change = {
    status,
    snoozedUntil: status === snoozed ? (input.snoozedUntil ?? null) : null,
    ...(status === resolved && { waitingSince: null }),
    ...(status === open && scope.role === "agent" && { assigneeId: actingUserId(scope) }),
  };
  const at = now();
  const { after, statements } = changeStatements(scope, conversation, change, [], at);
  const handoff = scope.actor.type === "agent_bot" && conversation.status === pending && status === open;
  const writes = [...statements];
  if (conversation.status !== status) writes.push(...activityMessageStatements(scope, conversation, `${STATUS_ACTIVITY[status]} ${actorName(scope)}`, at));
  if (handoff) {
    writes.push(conversationEventStatement(scope, conversation.id, "conversation_bot_handoff"), ...reportingFactStatements(scope, after, "bot_handoff", 0, at, after.assigneeId));
  }
  // the survey comes last: its event and response row name the last message inserted
  const survey = csatSurveyStatements(scope, conversation, after, extra, at);
  const results = await batchGroups(scope.db, {
    writes,
    survey: survey ? [survey.insert] : [],
    surveyRest: survey?.rest ?? [],
    loads: conversationRecordQueries(scope.db, scope.accountId, [after]),
  });
  const [record] = assembleConversationRecords([after], results.loads);
  await scope.ports.rooms.publishStatusChange(conversation, after);
  const surveyMessage = results.survey[0]?.[0];
  if (surveyMessage) await scope.ports.rooms.publishMessage(after, { message: surveyMessage, sender: null }, "message.created");
  return { success: handoff ? null : true, record };
}

// ---------------------------------------------------------------- assignments

export type AssignmentInput = {
  assigneeId?: number | null;
  assigneeType?: "User" | "AgentBot";
  teamId?: number | null;
  /** auto-assignment's: assign only an open conversation nobody (no agent, no bot) holds by now */
  onlyIfUnassigned?: boolean;
};
export type AssignmentResult =
  | { kind: "agent"; agent: AgentRow }
  | { kind: "agent_bot"; bot: AgentBotRow }
  | { kind: "team"; team: TeamRow | null }
  | { kind: "none" };

/**
 * Assigns an agent (checked: agent of the account, member of the inbox or administrator), a bot of the
 * account, or a team of the account. `assignee_id: null` unassigns.
 */
export async function assignConversation(scope: AccountScope, displayId: number, input: AssignmentInput): Promise<AssignmentResult> {
  const { db, accountId } = scope;
  const inboxOf = conversationColumn(scope, displayId, conversations.inboxId);
  const wantsBot = input.assigneeType === "AgentBot";
  const { conversation, extra } = await readConversation(scope, displayId, [
    ...assigneeQueries(scope, wantsBot ? null : input.assigneeId, inboxOf),
    teamQuery(scope, input.teamId),
    db.select().from(agentBots).where(and(usableBy(accountId), eq(agentBots.id, wantsBot ? (input.assigneeId ?? 0) : 0))),
  ]);
  const [agentRows, memberships, teamRows, botRows] = extra;
  const heldOrClosed = conversation.assigneeId !== null || conversation.assigneeAgentBotId !== null || conversation.status !== CONVERSATION_STATUS.open;
  if (input.onlyIfUnassigned && heldOrClosed) return { kind: "none" };

  if (input.assigneeId !== undefined) {
    if (wantsBot) {
      const bot = botRows[0];
      if (input.assigneeId !== null && (!bot || (bot.accountId !== null && bot.accountId !== accountId))) {
        throw invalidField("assignee_id", `agent bot ${input.assigneeId} does not exist in this account`, "not_found");
      }
      const { after, statements } = changeStatements(scope, conversation, { assigneeAgentBotId: input.assigneeId, assigneeId: null });
      await write(db, statements);
      return bot && after.assigneeAgentBotId ? { kind: "agent_bot", bot } : { kind: "none" };
    }
    const agent = input.assigneeId === null ? null : checkAssignee(input.assigneeId, agentRows, memberships);
    const { statements } = changeStatements(scope, conversation, { assigneeId: input.assigneeId, assigneeAgentBotId: null });
    await write(db, statements);
    return agent ? { kind: "agent", agent } : { kind: "none" };
  }
  if (input.teamId !== undefined) {
    const team = input.teamId === null ? null : checkTeam(input.teamId, teamRows);
    const { statements } = changeStatements(scope, conversation, { teamId: input.teamId });
    await write(db, statements);
    // the old team's members may see it no longer: their room sockets close, and are checked again
    if (conversation.teamId !== null && conversation.teamId !== input.teamId) await scope.ports.feed.conversationAccessChanged(accountId, conversation.id);
    return { kind: "team", team };
  }
  return { kind: "none" };
}

// ---------------------------------------------------------------- labels and custom attributes

const labelsQuery = (scope: AccountScope, displayId: number) =>
  scope.db
    .select({ tag: taggings.tag })
    .from(taggings)
    .where(and(eq(taggings.accountId, scope.accountId), eq(taggings.taggableType, "Conversation"), sql`${taggings.taggableId} = ${conversationColumn(scope, displayId, conversations.id)}`))
    .orderBy(taggings.id);

export async function conversationLabels(scope: AccountScope, displayId: number): Promise<string[]> {
  const { extra } = await readConversation(scope, displayId, [labelsQuery(scope, displayId)]);
  return extra[0].map((r) => r.tag);
}

/** Replaces the conversation's labels (Chatwoot's POST never appends). */
export async function replaceLabels(scope: AccountScope, displayId: number, labels: string[]): Promise<string[]> {
  const { db, accountId } = scope;
  const wanted = [...new Set(labels)];
  const { conversation, extra } = await readConversation(scope, displayId, [labelsQuery(scope, displayId)]);
  const current = extra[0].map((r) => r.tag);
  if (JSON.stringify([...current].sort()) === JSON.stringify([...wanted].sort())) return current;
  const at = now();
  const labelChange = [{ label_list: { previous_value: current, current_value: wanted } }];
  const { statements } = changeStatements(scope, conversation, {}, labelChange, at);
  const added = wanted.filter((l) => !current.includes(l));
  // D1 binds at most 100 parameters a statement and `labels` may hold 100: the kept labels travel as one
  // JSON parameter, and the new taggings (5 columns each) are inserted 19 at a time.
  const kept = sql`${taggings.tag} NOT IN (SELECT value FROM json_each(${JSON.stringify(wanted)}))`;
  await write(db, [
    db
      .delete(taggings)
      .where(and(eq(taggings.accountId, accountId), eq(taggings.taggableType, "Conversation"), eq(taggings.taggableId, conversation.id), wanted.length ? kept : undefined)),
    ...chunks(added, 19).map((tags) =>
      db.insert(taggings).values(tags.map((tag) => ({ accountId, taggableType: "Conversation", taggableId: conversation.id, tag, createdAt: at }))).onConflictDoNothing(),
    ),
    ...statements,
  ]);
  return wanted;
}

/** Replaces the whole custom attribute hash, each value checked against its definition. */
export async function replaceCustomAttributes(scope: AccountScope, displayId: number, values: Record<string, unknown>) {
  const { conversation, extra } = await readConversation(scope, displayId, [customAttributeDefinitionsQuery(scope.db, scope.accountId, CONVERSATION_ATTRIBUTE)]);
  checkCustomAttributes(extra[0], values);
  const { after, statements } = changeStatements(scope, conversation, { customAttributes: values });
  await write(scope.db, statements);
  return after.customAttributes;
}

// ---------------------------------------------------------------- mute, read state

/** Mute resolves the conversation and blocks its contact; unmute unblocks. Both leave an activity message. */
export async function setMuted(scope: AccountScope, displayId: number, muted: boolean): Promise<void> {
  const { db } = scope;
  const { conversation, extra } = await readConversation(scope, displayId, [db.select().from(contacts).where(and(eq(contacts.accountId, scope.accountId), sql`${contacts.id} = ${conversationColumn(scope, displayId, conversations.contactId)}`))]);
  const contact = extra[0][0];
  const at = now();
  const { statements } = muted
    ? changeStatements(scope, conversation, { status: CONVERSATION_STATUS.resolved, snoozedUntil: null, waitingSince: null }, [], at)
    : { statements: [] };
  const writes: Statement[] = [...statements, ...activityMessageStatements(scope, conversation, `${actorName(scope)} has ${muted ? "muted" : "unmuted"} the conversation`, at)];
  if (contact && contact.blocked !== muted) {
    writes.push(
      db.update(contacts).set({ blocked: muted, updatedAt: at }).where(and(eq(contacts.accountId, scope.accountId), eq(contacts.id, contact.id))),
      contactUpdatedEventStatement(scope, contact.id, [{ blocked: { previous_value: contact.blocked, current_value: muted } }]),
    );
  }
  await write(db, writes);
}

/** Marks the conversation unread: last seen one second before its latest incoming message. */
export async function markUnread(scope: AccountScope, displayId: number) {
  const { conversation, extra } = await readConversation(scope, displayId, [
    scope.db
      .select({ createdAt: messages.createdAt })
      .from(messages)
      .where(and(eq(messages.accountId, scope.accountId), sql`${messages.conversationId} = ${conversationColumn(scope, displayId, conversations.id)}`, eq(messages.messageType, MESSAGE_TYPE.incoming)))
      .orderBy(desc(messages.id))
      .limit(1),
  ]);
  const lastIncoming = extra[0][0]?.createdAt;
  if (lastIncoming === undefined) return commitAndLoad(scope, conversation, []);
  return seen(scope, conversation, { agentLastSeenAt: lastIncoming - 1000, assigneeLastSeenAt: lastIncoming - 1000 });
}

/** The caller has read the conversation; the assignee's own read time moves only when they are the caller. */
export async function updateLastSeen(scope: AccountScope, displayId: number) {
  const { conversation } = await readConversation(scope, displayId, []);
  const at = now();
  if (scope.actor.type === "contact") return seen(scope, conversation, { contactLastSeenAt: at });
  const isAssignee = conversation.assigneeId !== null && conversation.assigneeId === actingUserId(scope);
  // the live feed tells the agents (Chatwoot's conversation.read); webhooks offer no such event
  const read = conversationEventStatement(scope, conversation.id, "conversation_read");
  return seen(scope, conversation, { agentLastSeenAt: at, ...(isAssignee && { assigneeLastSeenAt: at }) }, [read]);
}

/**
 * Read times are bookkeeping, not changes webhooks subscribe to: no webhook events, no updated_at (as
 * Chatwoot's update_columns); an agent's read is an event of the live feed only (`extra`).
 */
function seen(
  scope: AccountScope,
  conversation: ConversationRow,
  times: { agentLastSeenAt?: number; assigneeLastSeenAt?: number; contactLastSeenAt?: number },
  extra: Statement[] = [],
) {
  const after = { ...conversation, ...times };
  return commitAndLoad(scope, after, [scope.db.update(conversations).set(times).where(and(eq(conversations.accountId, scope.accountId), eq(conversations.id, conversation.id))), ...extra]);
}


